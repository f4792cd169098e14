// The lobby of a shared table (hokm-sim play --host): who sits where, and for the host the
// bots of the empty seats, the target and the timer. The page's token (in its address and
// meta) opens the socket and goes with every message. When the match starts, the page
// reloads as the table.
(function () {
  'use strict';
  var TOKEN = document.querySelector('meta[name="hokm-secret"]').content;
  var SOCKET = document.querySelector('meta[name="hokm-socket"]').content;
  var COMPASS = ['South', 'East', 'North', 'West'];
  var L = null, ws = null;
  function $(id) { return document.getElementById(id); }
  function esc(t) { var d = document.createElement('div'); d.textContent = String(t); return d.innerHTML; }
  function send(msg) { msg.token = TOKEN; if (ws && ws.readyState === 1) { ws.send(JSON.stringify(msg)); } }
  function options(el, values, chosen) {
    el.innerHTML = values.map(function (v) {
      return '<option' + (String(v) === String(chosen) ? ' selected' : '') + '>' + esc(v) + '</option>';
    }).join('');
  }
  function settings() {
    var bots = Array.prototype.map.call(document.querySelectorAll('select.bot'), function (s) { return s.value; });
    send({ type: 'settings', target: +$('target').value, timer: +$('timer').value, bots: bots });
  }
  function render() {
    var host = L.role === 'host';
    $('who').textContent = host ? 'You host this table' : L.role === 'seat'
      ? 'You sit ' + COMPASS[L.seat] + ' (seat ' + L.seat + ')' : 'You watch this table';
    $('name-form').hidden = L.role !== 'seat';
    $('seats').innerHTML = L.seats.map(function (s, i) {
      var bot = host ? '<select class="bot" data-seat="' + i + '">' + L.bots.map(function (b) {
        return '<option' + (b === s.bot ? ' selected' : '') + '>' + esc(b) + '</option>';
      }).join('') + '</select>' : esc(s.bot);
      return '<tr' + (i === L.seat ? ' class="me"' : '') + '><td>' + COMPASS[i] + '</td><td>' +
        (s.person ? esc(s.name) + ' (here)' : '<span class="muted">empty: a bot plays</span>') +
        '</td><td>' + bot + '</td></tr>';
    }).join('');
    options($('target'), L.targets, L.target);
    options($('timer'), L.timers, L.timer);
    $('target').disabled = $('timer').disabled = !host;
    $('start').hidden = !host;
    Array.prototype.forEach.call(document.querySelectorAll('select.bot'), function (s) { s.onchange = settings; });
    $('status').textContent = host ? 'Send each player their seat\'s link; start when they are here.'
      : 'Waiting for the host to start…';
  }
  function connect() {
    var proto = location.protocol === 'https:' ? 'wss' : 'ws';
    ws = new WebSocket(proto + '://' + location.host + SOCKET + '?token=' + encodeURIComponent(TOKEN));
    ws.onmessage = function (e) {
      var m = JSON.parse(e.data);
      if (m.type === 'lobby') {
        if (m.started) { location.reload(); return; }
        L = m; render();
      } else if (m.type === 'refused') { $('status').textContent = m.message; }
    };
    ws.onclose = function () { $('status').textContent = 'Connection lost: reconnecting…'; setTimeout(connect, 1000); };
  }
  $('target').onchange = settings;
  $('timer').onchange = settings;
  $('start').onclick = function () { send({ type: 'start' }); };
  $('name-form').onsubmit = function (e) { e.preventDefault(); send({ type: 'name', name: $('name').value }); };
  connect();
})();

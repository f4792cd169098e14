// The table page of hokm-sim play: draws the state the server sends, sends decisions back.
// The server is the only authority: this page never decides what is legal, it only shows
// the legal cards the server listed and sends the card clicked; a refusal comes back as a
// message. It never receives another seat's cards before the hand is over, nor the seed
// before the match is over unless the person asks for it. The game's secret, written into
// this page by the server, goes with the socket and every API call.
(function () {
  'use strict';
  var ERR = document.getElementById('errors');
  window.onerror = function (m, s, l) {
    ERR.hidden = false;
    ERR.textContent += 'error: ' + m + ' (line ' + l + ')\n';
  };
  var GAME = location.pathname.split('/').pop();
  var SECRET = document.querySelector('meta[name="hokm-secret"]').content;
  // At a shared table (play --host) the page's socket is the table's, SECRET is the page's
  // own token, and every message carries it.
  var SOCKET = document.querySelector('meta[name="hokm-socket"]');
  SOCKET = SOCKET ? SOCKET.content : null;
  var clockAt = 0;
  var SYM = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };
  var SUIT_NAME = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
  var RANK_NAME = { T: '10', J: 'jack', Q: 'queen', K: 'king', A: 'ace' };
  var TRUMP_KEYS = { '1': 'C', '2': 'D', '3': 'H', '4': 'S' };
  var S = null, ws = null, showLast = false, lastTimer = null, toastTimer = null;
  var drawn = {}, retry = 500;

  function $(id) { return document.getElementById(id); }
  function red(c) { return c[1] === 'H' || c[1] === 'D'; }
  function cardName(c) { return (RANK_NAME[c[0]] || c[0]) + ' of ' + SUIT_NAME[c[1]]; }
  function cardText(c) { return (c[0] === 'T' ? '10' : c[0]) + SYM[c[1]]; }
  function esc(t) {
    return String(t).replace(/[&<>"]/g, function (ch) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[ch];
    });
  }
  function cardEl(c, tag) {
    var el = document.createElement(tag || 'div');
    el.className = 'card' + (red(c) ? ' red' : '');
    el.dataset.card = c;
    el.setAttribute('aria-label', cardName(c));
    var r = c[0] === 'T' ? '10' : c[0];
    el.innerHTML = '<span class="rank">' + r + '</span><span class="small">' + SYM[c[1]] +
      '</span><span class="pip">' + SYM[c[1]] + '</span>';
    return el;
  }
  function cardHtml(c) { return cardEl(c).outerHTML; }
  function name(seat) { return S.players[seat].name; }
  function me() { return S.seat < 0 ? 0 : S.seat; }
  // my turn to decide: my seat is due and my bot is not deciding it for me (shared table)
  function myTurn() { return S.turn === S.seat && !(S.table && S.table.deciding === S.seat); }
  function pos(seat) { return (seat - me() + 4) % 4; }
  function takes(seat) { return seat === S.seat ? 'You take' : name(seat) + ' takes'; }
  function team(t) { if (S.seat < 0) { return name(t) + ' and ' + name(t + 2); } return t === S.seat % 2 ? 'You and ' + name((S.seat + 2) % 4) : name((S.seat + 1) % 4) + ' and ' + name((S.seat + 3) % 4); }

  function toast(text) {
    var t = $('toast');
    t.textContent = text;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { t.hidden = true; }, 3500);
  }
  function send(msg) {
    if (SOCKET) { msg.token = SECRET; }
    if (ws && ws.readyState === 1) { ws.send(JSON.stringify(msg)); }
  }

  function connect() {
    var proto = location.protocol === 'https:' ? 'wss' : 'ws';
    ws = new WebSocket(proto + '://' + location.host + (SOCKET ? SOCKET + '?token=' : '/ws/' + GAME + '?secret=') + encodeURIComponent(SECRET));
    ws.onopen = function () { retry = 500; };
    ws.onmessage = function (e) {
      var m = JSON.parse(e.data);
      if (m.type === 'state') { S = m; clockAt = Date.now(); render(); }
      else if (m.type === 'refused') { toast(m.message); }
      else if (m.type === 'hint') { showHint(m); }
    };
    ws.onclose = function () {
      $('status').textContent = 'Connection lost: reconnecting…';
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    };
  }

  // --- drawing ---------------------------------------------------------------------------

  function render() {
    document.body.dataset.phase = S.phase;
    document.body.dataset.step = S.step;
    document.body.dataset.turn = S.turn === null ? '' : S.turn;
    document.body.dataset.ready = S.ready ? '1' : '0';
    var daily = S.daily ? ' · daily deal of ' + esc(S.daily) + ' (UTC)' : '';
    if (S.seed === null && SOCKET) {
      $('seedline').textContent = 'A shared table: the seed is shown when the match ends';
    } else if (S.seed === null) {
      $('seedline').innerHTML = 'Seed hidden until the match ends' + daily +
        ' <button id="show-seed" class="linkish" title="The seed lets hokm-sim trace show every hand of this game; showing it is recorded with the game">Show seed</button>';
      $('show-seed').onclick = showSeed;
    } else {
      $('seedline').innerHTML = 'Seed <code id="seed">' + esc(S.seed) + '</code>' + daily +
        (S.seed_shown ? ' (shown during play)' : '') +
        '<span class="again"> · play it again: <code>hokm-sim play --seed ' + esc(S.seed) + '</code></span>';
    }
    var banner = $('banner');
    if (!S.ready && !S.message) {
      banner.textContent = 'The bots are getting ready (compiled on first use; this can take a minute)…';
      banner.hidden = false;
    } else { banner.hidden = true; }
    var us = me() % 2;
    $('score-us').textContent = S.scores[us];
    $('score-them').textContent = S.scores[1 - us];
    $('tricks-us').textContent = S.tricks[us];
    $('tricks-them').textContent = S.tricks[1 - us];
    $('target').textContent = S.target;
    $('hand-no').textContent = S.hand_no + 1;
    var tr = $('trump');
    tr.textContent = S.trump ? SYM[S.trump] : '–';
    tr.className = 'trump-suit' + (S.trump && (S.trump === 'H' || S.trump === 'D') ? ' red' : '');
    tr.title = S.trump ? 'trump: ' + SUIT_NAME[S.trump] : 'trump not called yet';
    for (var s = 0; s < 4; s++) { drawSeat(s); }
    drawCenter();
    drawHand();
    drawStatus();
    $('hint').disabled = !(myTurn() && S.ready && (S.phase === 'play' || S.phase === 'trump'));
    $('last').disabled = !S.last_trick;
    drawPanel();
    drawTable();
  }

  function drawSeat(s) {
    var el = $('seat-' + pos(s)), p = S.players[s];
    var html = '<div class="who">' + esc(p.name) + (s === S.hakem ? ' <span class="star" title="Hakem">\u2605</span>' : '') + '</div>';
    if (p.strategy) { html += '<div class="what">' + esc(p.strategy) + (s === (S.seat + 2) % 4 ? ' · partner' : '') + '</div>'; }
    var tags = [];
    if (s === S.hakem) { tags.push('Hakem'); }
    if (s === S.dealer) { tags.push('dealer'); }
    if (tags.length) { html += '<div class="tag">' + tags.join(' · ') + '</div>'; }
    if (s !== S.seat) {
      html += '<div class="backs" aria-label="' + S.held[s] + ' cards">';
      for (var i = 0; i < S.held[s]; i++) { html += '<span class="back"></span>'; }
      html += '</div>';
    }
    el.innerHTML = html;
    el.classList.toggle('turn', S.turn === s);
  }

  function drawCenter() {
    var trick = showLast && S.last_trick ? S.last_trick : S.trick;
    $('center').classList.toggle('showing-last', showLast && !!S.last_trick);
    for (var s = 0; s < 4; s++) { $('slot-' + s).innerHTML = ''; }
    var note = '';
    if (trick) {
      trick.cards.forEach(function (x) {
        var el = cardEl(x.card);
        if (trick.winner === x.seat) { el.classList.add('won'); }
        $('slot-' + pos(x.seat)).appendChild(el);
      });
      if (trick.winner !== null) { note = (showLast && S.last_trick ? 'Last trick: ' : '') + takes(trick.winner) + ' the trick'; }
    }
    $('note').textContent = note;
  }

  function drawHand() {
    var hand = $('hand'), legal = {}, focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    S.legal.forEach(function (c) { legal[c] = 1; });
    hand.innerHTML = '';
    var mine = myTurn() && S.phase === 'play';
    S.hand.forEach(function (c) {
      var el = cardEl(c, 'button');
      el.type = 'button';
      if (S.trump && c[1] === S.trump) { el.classList.add('trump'); el.title = 'trump'; }
      if (mine && legal[c]) {
        el.classList.add('playable');
        el.onclick = function () { play(c); };
      } else if (mine) {
        el.classList.add('dim');
        el.disabled = true;
      } else {
        el.disabled = true;
      }
      hand.appendChild(el);
    });
    if (mine) {
      var again = focused && hand.querySelector('.playable[data-card="' + focused + '"]');
      var first = again || hand.querySelector('.playable');
      if (first) { first.focus({ preventScroll: true }); }
    }
  }

  function drawStatus() {
    var t = '';
    if (S.message) { t = S.message; }
    else if (S.phase === 'first_hakem') { t = 'Finding the first Hakem.'; }
    else if (S.phase === 'trump') {
      t = myTurn() ? 'You are the Hakem: call trump from your first five cards.'
        : name(S.turn) + ' (Hakem) is calling trump…';
    } else if (S.phase === 'play') {
      t = myTurn() ? 'Your turn: play a highlighted card.' : name(S.turn) + ' is playing…';
    } else if (S.phase === 'hand_over') { t = 'The hand is over.'; }
    else if (S.phase === 'match_over') { t = 'The match is over.'; }
    if (!S.ready && (S.phase === 'play' || S.phase === 'trump') && S.turn !== S.seat) { t = 'The bots are getting ready…'; }
    if (S.table) { t += tableNote(); }
    $('status').textContent = t;
  }

  function tableNote() {
    var T = S.table, t = '', left = Math.max(0, T.clock.left - (Date.now() - clockAt) / 1000);
    if (T.clock.seat !== null && T.people[T.clock.seat] && !T.away[T.clock.seat] && T.deciding !== T.clock.seat) {
      t += ' ' + Math.ceil(left) + ' s left' + (T.clock.seat === S.seat ? ', then your bot decides.' : '.');
    }
    var b = T.stand_in;
    if (b && b.step === S.step - 1) {
      t += ' ' + (b.seat === S.seat ? 'Your' : name(b.seat) + '\'s') + ' bot decided: ' +
        { timer: 'the time ran out.', left: 'the player had left.', host: 'the host gave the seat to it.' }[b.why];
    }
    if (S.seat >= 0 && T.deciding === S.seat) { t += ' Your bot is deciding this turn: you decide from your next one.'; }
    else if (S.seat >= 0 && T.away[S.seat]) { t += ' Your bot plays for you until your next decision.'; }
    return t;
  }

  function drawTable() {
    if (!S.table || S.table.role !== 'host') { return; }
    for (var s = 0; s < 4; s++) {
      if (!S.table.people[s] || S.table.away[s]) { continue; }
      var b = document.createElement('button');
      b.textContent = 'Give to bot';
      b.className = 'to-bot';
      b.onclick = (function (seat) { return function () { send({ type: 'to_bot', seat: seat }); }; })(s);
      $('seat-' + pos(s)).appendChild(b);
    }
  }

  // --- panels ----------------------------------------------------------------------------

  function drawPanel() {
    var box = $('panel-box'), panel = $('panel'), html = null;
    if (S.phase === 'first_hakem') { html = firstHakem(); }
    else if (S.phase === 'trump' && myTurn()) { html = trumpCall(); }
    else if (S.phase === 'hand_over') { html = handOver(); }
    else if (S.phase === 'match_over') { html = handOver() + matchOver(); }
    else if (S.phase === 'fault') { html = fault(); }
    if (html === null) { panel.hidden = true; box.innerHTML = ''; delete panel.dataset.kind; return; }
    var kind = S.phase + ':' + S.hand_no;
    var fresh = panel.dataset.kind !== kind;
    panel.dataset.kind = kind;
    box.innerHTML = html;
    panel.hidden = false;
    panel.classList.toggle('low', S.phase === 'hand_over');
    wirePanel();
    if (S.phase === 'first_hakem') { animateDraw(); }
    var primary = box.querySelector('[data-primary]');
    if (primary && (fresh || !box.contains(document.activeElement))) { primary.focus({ preventScroll: true }); }
  }

  function firstHakem() {
    var how = {
      'first-ace': 'Cards are turned face up, one to each player in turn, until someone receives an ace.',
      'highest-card': 'Each player is dealt one card face up: the highest card is Hakem (players tied for it are dealt another).',
      'highest-two': 'Each player is dealt two cards face up: the highest total is Hakem (players tied for it are dealt another card).'
    }[S.first_hakem_rule];
    var h = '<h2>Who is the first Hakem?</h2><p>' + how + '</p><div class="draw" id="draw">';
    S.draw.forEach(function (x, i) {
      h += '<div class="turned" data-i="' + i + '">' + cardHtml(x.card) + '<span>' + esc(name(x.seat)) + '</span></div>';
    });
    h += '</div><p id="draw-result" hidden><b>' + esc(name(S.first_hakem)) + '</b> ' +
      (S.first_hakem === S.seat ? 'are' : 'is') + ' the first Hakem \u2605 and calls trump.</p>';
    return h + '<div class="row"><button id="go-on" data-primary>Deal <kbd>Enter</kbd></button></div>';
  }

  function animateDraw() {
    var items = document.querySelectorAll('#draw .turned'), key = S.game, step = S.pause > 0 ? 350 : 0;
    var show = function () { var r = $('draw-result'); if (r) { r.hidden = false; } };
    if (drawn[key] || step === 0) { show(); drawn[key] = 1; return; }
    drawn[key] = 1;
    for (var i = 0; i < items.length; i++) { items[i].style.visibility = 'hidden'; }
    var k = 0;
    var tick = function () {
      var nodes = document.querySelectorAll('#draw .turned');
      if (k < nodes.length) { nodes[k].style.visibility = 'visible'; k++; setTimeout(tick, step); }
      else { show(); }
    };
    tick();
  }

  function trumpCall() {
    var h = '<h2>You are the Hakem \u2605</h2><p>Call trump from your first five cards (the rest are dealt after your call).</p><div class="five">';
    S.hand.forEach(function (c) { h += cardHtml(c); });
    h += '</div><div class="suits">';
    ['C', 'D', 'H', 'S'].forEach(function (s, i) {
      h += '<button class="suit' + (s === 'H' || s === 'D' ? ' red' : '') + '" data-suit="' + s + '" title="' + SUIT_NAME[s] + ' (' + (i + 1) + ')" aria-label="trump ' + SUIT_NAME[s] + '"' + (i === 0 ? ' data-primary' : '') + '>' + SYM[s] + '</button>';
    });
    return h + '</div><div class="row"><button class="secondary" id="panel-hint">Hint <kbd>H</kbd></button></div>';
  }

  function handLink(h) {
    if (SOCKET) { return ''; } // a shared table's hands are analysed with hokm-sim games
    var done = S.hands[h] && S.hands[h].analysed;
    return '<a href="/games/' + S.game + '/hands/' + h + '?secret=' + encodeURIComponent(SECRET) + '" target="_blank" rel="noopener" class="analyse-link" data-hand="' + h + '">' +
      (done ? 'Analyse hand ' + (h + 1) : 'Analyse hand ' + (h + 1) + ' (grading…)') + '</a>';
  }

  function handOver() {
    var r = S.result;
    if (!r) { return ''; }
    var h = '<h2>Hand ' + (r.hand + 1) + ': ' + esc(team(r.winner_team)) + ' win</h2>';
    if (r.announce) { h += '<div class="big" id="announce">' + esc(r.announce.toUpperCase()) + '!</div>'; }
    var us = me() % 2;
    h += '<p>Tricks ' + S.tricks[us] + '–' + S.tricks[1 - us] + ' (us–them): ' + r.points + ' point' + (r.points > 1 ? 's' : '') +
      ' to ' + (r.winner_team === us ? 'us' : 'them') + '. Match ' + S.scores[us] + '–' + S.scores[1 - us] + ', to ' + S.target + '.</p>';
    h += '<div class="reveal">';
    r.reveal.forEach(function (cards, s) {
      h += '<div><b>' + esc(name(s)) + (s === S.hakem ? ' \u2605' : '') + ':</b> ' + cards.map(function (c) {
        return '<span class="' + (red(c) ? 'r' : '') + '">' + cardText(c) + '</span>';
      }).join(' ') + '</div>';
    });
    h += '</div><div class="row">';
    if (S.phase === 'hand_over') { h += '<button id="go-on" data-primary>Next hand <kbd>N</kbd></button>'; }
    return h + handLink(r.hand).replace('class="analyse-link"', 'class="analyse-link secondary"') + '</div>';
  }

  function pct(v) { return v === null ? '–' : Math.round(v * 100) + '%'; }
  function num(v) { return v === null ? '–' : v.toFixed(2); }

  function matchOver() {
    var us = me() % 2, won = S.scores[us] > S.scores[1 - us];
    var h = '<hr><h2 id="match-result">' + (won ? 'You win the match ' : 'You lose the match ') + S.scores[us] + '–' + S.scores[1 - us] + '</h2>';
    h += '<p>Your play beside the bots\', every card graded double dummy (all hands open): the tricks each player\'s cards cost against perfect play, per hand; a blunder loses a won hand or gives up or concedes a Kot; a mistake costs a trick.</p>';
    h += '<table id="accuracy"><tr><th>player</th><th>tricks lost per hand</th><th>blunders</th><th>mistakes</th><th>best cards</th></tr>';
    S.review.seats.forEach(function (a, s) {
      var p = S.players[s];
      h += '<tr' + (s === S.seat ? ' class="me"' : '') + '><td>' + esc(p.strategy ? p.name + ' (' + p.strategy + ')' : p.name) + '</td><td>' + num(a.tricks_lost_per_hand) +
        '</td><td>' + a.blunders + '</td><td>' + a.mistakes + '</td><td>' + pct(a.best_share) + '</td></tr>';
    });
    h += '</table>';
    if (S.review.pending > 0) { h += '<p class="pending">Grading ' + S.review.pending + ' more hand' + (S.review.pending > 1 ? 's' : '') + '…</p>'; }
    h += '<p>Hints used: ' + S.hints + '.</p><p class="links">';
    S.hands.forEach(function (x) { if (!x.fault) { h += handLink(x.hand) + ' '; } });
    h += '</p><div class="row"><button id="again" data-primary>New game</button><button id="replay" class="secondary">Play this seed again</button>' +
      '<button id="daily2" class="secondary">Daily game</button><a class="secondary" href="/games" target="_blank" rel="noopener">Your games</a></div>';
    return h;
  }

  function fault() {
    return '<h2>The game was stopped</h2><p id="fault">' + esc(S.message || '') + '</p>' +
      '<div class="row"><button id="again" data-primary>New game</button><a class="secondary" href="/games" target="_blank" rel="noopener">Your games</a></div>';
  }

  function wirePanel() {
    var go = $('go-on');
    if (go) { go.onclick = function () { send({ type: 'next' }); }; }
    document.querySelectorAll('.suits button').forEach(function (b) {
      b.onclick = function () { callTrump(b.dataset.suit); };
    });
    if ($('panel-hint')) { $('panel-hint').onclick = askHint; }
    if ($('again')) { $('again').onclick = function () { newGame({}); }; }
    if ($('replay')) { $('replay').onclick = function () { newGame({ seed: S.seed }); }; }
    if ($('daily2')) { $('daily2').onclick = function () { newGame({ daily: true }); }; }
  }

  // --- decisions -------------------------------------------------------------------------

  function play(card) { send({ type: 'card', card: card, step: S.step }); }
  function callTrump(suit) { send({ type: 'trump', suit: suit, step: S.step }); }
  function askHint() { send({ type: 'hint', step: S.step }); }
  function showSeed() {
    if (confirm('Show the seed now? With it, hokm-sim trace shows every hand of this game, ' +
                'the ones still to come included. Showing it is recorded with the game.')) {
      send({ type: 'show_seed' });
    }
  }

  function showHint(m) {
    if (m.kind === 'trump') {
      var b = document.querySelector('.suits button[data-suit="' + m.value + '"]');
      if (b) { b.classList.add('hinted'); b.focus(); }
      toast('Hint from ' + m.by + ': call ' + SUIT_NAME[m.value] + ' ' + SYM[m.value]);
      return;
    }
    var el = document.querySelector('#hand .card[data-card="' + m.value + '"]');
    if (el) { el.classList.add('hinted'); el.focus({ preventScroll: true }); }
    toast('Hint from ' + m.by + ': play ' + cardText(m.value));
  }

  function newGame(body) {
    fetch('/api/new', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Hokm-Secret': SECRET }, body: JSON.stringify(body) })
      .then(function (r) { return r.json(); })
      .then(function (j) { if (j.url) { location.href = j.url; } else { toast(j.error || 'could not start a game'); } });
  }

  function toggleLast() {
    if (!S || !S.last_trick) { return; }
    showLast = !showLast;
    drawCenter();
    clearTimeout(lastTimer);
    if (showLast) { lastTimer = setTimeout(function () { showLast = false; drawCenter(); }, 3000); }
  }

  $('hint').onclick = askHint;
  $('last').onclick = toggleLast;
  $('new-game').onclick = function () { newGame({}); };
  $('daily-game').onclick = function () { newGame({ daily: true }); };
  $('seed-game').onclick = function () {
    var seed = prompt('Seed of the game to play (a whole number):', S && S.seed !== null ? S.seed : '');
    if (seed) { newGame({ seed: seed.trim() }); }
  };

  document.addEventListener('keydown', function (e) {
    if (!S || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var k = e.key.toLowerCase();
    if (S.phase === 'trump' && myTurn() && TRUMP_KEYS[k]) { callTrump(TRUMP_KEYS[k]); e.preventDefault(); return; }
    if (k === 'h') { if (!$('hint').disabled) { askHint(); } e.preventDefault(); return; }
    if (k === 'l') { toggleLast(); e.preventDefault(); return; }
    if (k === 'n' && S.phase === 'hand_over') { send({ type: 'next' }); e.preventDefault(); return; }
    if (k === 'arrowleft' || k === 'arrowright') {
      var cards = Array.prototype.slice.call(document.querySelectorAll('#hand .playable'));
      if (!cards.length) { return; }
      var i = cards.indexOf(document.activeElement);
      i = i < 0 ? 0 : (i + (k === 'arrowright' ? 1 : cards.length - 1)) % cards.length;
      cards[i].focus();
      e.preventDefault();
    }
  });

  if (SOCKET) {
    document.querySelector('nav').style.display = 'none';
    setInterval(function () { if (S && S.table) { drawStatus(); } }, 500);
  }
  connect();
})();

"""Self-contained HTML pages of analysed hands: a hand viewer and a report's index.

A hand page replays one hand trick by trick: the four hands (inline SVG
cards), the trick on the table, the score, and every card's grade and the
double-dummy values of the cards the player could have played. The data is
the JSON of :func:`hokm_sim.dd.analyse.hand_record`, embedded in the page;
a small script draws it. Nothing is loaded from the network. Script errors
are written into the page (``#errors``) and a finished drawing sets
``#status`` to ``ok``, so a headless browser's DOM tells whether it worked.
"""

from __future__ import annotations

import html
import json

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1em;background:#f4f4ef;color:#222}
h1{font-size:1.2em} table{border-collapse:collapse} td,th{padding:2px 6px;text-align:left}
.table{display:grid;grid-template-columns:1fr 1fr 1fr;grid-template-rows:auto auto auto;
 gap:6px;max-width:900px;background:#2d6a3e;padding:10px;border-radius:8px}
.seat{background:#ffffff18;border-radius:6px;padding:4px;color:#fff;min-height:80px}
.seat.s2{grid-column:2;grid-row:1}.seat.s1{grid-column:3;grid-row:2}
.seat.s0{grid-column:2;grid-row:3}.seat.s3{grid-column:1;grid-row:2}
.trick{grid-column:2;grid-row:2;text-align:center;color:#fff}
.card{margin:1px}.played{opacity:.25}
.best{color:#196619}.mistake{color:#a66800}.blunder{color:#b00020;font-weight:bold}
#log td{font-size:.9em} #log tr.now{background:#ffe9a8}
button{font-size:1em;margin:4px}
"""

_SCRIPT = r"""
(function(){
var E=document.getElementById('errors');
window.onerror=function(m,s,l){E.textContent+='error: '+m+' (line '+l+')\n';};
var D=JSON.parse(document.getElementById('hand-data').textContent);
var SYM={C:'\u2663',D:'\u2666',H:'\u2665',S:'\u2660'};
var ORDER='SHDC',RANKS='23456789TJQKA';
function svg(c,cls){var r=c[0],s=c[1],red=(s=='H'||s=='D');
 return '<svg class="card '+(cls||'')+'" width="34" height="48" viewBox="0 0 34 48" '+
 'data-card="'+c+'"><rect x="1" y="1" width="32" height="46" rx="4" fill="#fff" '+
 'stroke="#333"/><text x="5" y="18" font-size="14" fill="'+(red?'#c00':'#000')+'">'+
 (r=='T'?'10':r)+'</text><text x="12" y="40" font-size="18" fill="'+(red?'#c00':'#000')+
 '">'+SYM[s]+'</text></svg>';}
function key(c){return ORDER.indexOf(c[1])*13+(12-RANKS.indexOf(c[0]));}
var N=D.cards.length,step=0;
function draw(){
 var gone={},t=Math.floor((step-1)/4),inTrick=[];
 for(var p=0;p<step;p++){gone[D.cards[p].card]=1;}
 var start=step==0?0:4*Math.floor((step-1)/4);
 for(var q=start;q<step;q++){inTrick.push(D.cards[q]);}
 for(var s=0;s<4;s++){
  var el=document.getElementById('seat'+s);
  var h=D.hands[s].slice().sort(function(a,b){return key(a)-key(b);});
  var head='seat '+s+' ['+(D.teams?D.teams[s%2]:'team '+s%2)+']'+(s==D.hakem?' Hakem':'');
  el.innerHTML='<div>'+head+'</div>'+
   h.map(function(c){return svg(c,gone[c]?'played':'');}).join('');}
 var tr=document.getElementById('trick');
 tr.innerHTML='<div>trick '+(step?t+1:0)+'</div>'+inTrick.map(function(c){
   return '<div>seat '+c.seat+' '+svg(c.card)+'</div>';}).join('');
 var cur=step?D.cards[step-1]:null;
 var taken=cur?cur.taken.slice():[0,0];
 if(cur&&step%4==0){taken=(step<N)?D.cards[step].taken:D.tricks_won;}
 document.getElementById('score').textContent='tricks '+taken[0]+' - '+taken[1]+
  ' (team 0 - team 1), step '+step+' of '+N;
 var info=document.getElementById('info');
 if(cur){var v=Object.keys(cur.values).sort(function(a,b){return cur.values[b]-cur.values[a];});
  info.innerHTML='seat '+cur.seat+' played '+svg(cur.card)+' <span class="'+cur.grade+'">'+
   cur.grade+(cur.why.length?' ('+cur.why.join(', ')+')':'')+'</span> value '+cur.value+
   ' of best '+cur.best+'<br>double-dummy values (tricks for the team, whole hand): '+
   v.map(function(c){return svg(c)+cur.values[c]+(cur.kot_for.indexOf(c)>=0?' Kot':'')+
   (cur.kot_against.indexOf(c)>=0?' concedes Kot':'');}).join(' ');}
 else{info.textContent='trump call: '+D.trump+' ('+D.trump_call.grade+', hindsight)';}
 var rows=document.querySelectorAll('#log tr.card-row');
 for(var i=0;i<rows.length;i++){rows[i].className='card-row'+(i==step-1?' now':'');}
}
var log=document.getElementById('log');
log.innerHTML='<tr><th>trick</th><th>seat</th><th>card</th><th>play</th><th>value</th>'+
 '<th>best</th><th>grade</th></tr>'+D.cards.map(function(c,i){
 return '<tr class="card-row" data-step="'+(i+1)+'"><td>'+c.trick+'</td><td>'+c.seat+'</td><td>'+
 SYM[c.card[1]]+c.card[0]+'</td><td>'+c.play+'</td><td>'+c.value+'</td><td>'+c.best+
 '</td><td class="grade '+c.grade+'">'+c.grade+(c.why.length?' ('+c.why.join(', ')+')':'')+
 '</td></tr>';}).join('');
log.onclick=function(e){var r=e.target.closest('tr');
 if(r&&r.dataset.step){step=+r.dataset.step;draw();}};
var tc=D.trump_call,tb=document.getElementById('trumps');
tb.innerHTML='<tr><th>trump</th><th>Hakem team reaches 7</th><th>Kot</th><th>Hakem Kot</th>'+
 '<th>tricks</th></tr>'+
 Object.keys(tc.by_trump).map(function(s){var o=tc.by_trump[s];
 return '<tr'+(s==D.trump?' class="now"':'')+'><td>'+SYM[s]+' '+s+'</td><td>'+o.reach7+
 '</td><td>'+o.kot+'</td><td>'+o.hakem_kot+'</td><td>'+(s==D.trump&&o.tricks>=0?o.tricks:'')+
 '</td></tr>';}).join('');
document.getElementById('prev').onclick=function(){if(step>0){step--;draw();}};
document.getElementById('next').onclick=function(){if(step<N){step++;draw();}};
document.getElementById('end').onclick=function(){step=N;draw();};
document.getElementById('start').onclick=function(){step=0;draw();};
document.onkeydown=function(e){if(e.key=='ArrowRight'){document.getElementById('next').onclick();}
 if(e.key=='ArrowLeft'){document.getElementById('prev').onclick();}};
step=N;draw();
document.getElementById('status').textContent='ok';
})();
"""


def _json_for_script(obj) -> str:
    """JSON safe inside ``<script>`` (no ``</`` that could end the element)."""
    return json.dumps(obj).replace("</", "<\\/").replace("<!--", "<\\!--")


def hand_page(rec: dict, title: str = "") -> str:
    """A self-contained HTML page that replays the analysed hand ``rec``."""
    title = title or "hokm-sim hand " + " ".join(
        f"{k} {rec[k]}" for k in ("seed", "deal", "copy", "match", "hand", "line") if k in rec
    )
    tc = rec["trump_call"]
    grade = tc["grade"] + (f" ({', '.join(tc['why'])})" if tc["why"] else "")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>{_STYLE}</style></head><body>
<h1>{html.escape(title)}</h1>
<p>Hakem seat {rec["hakem"]}, trump {html.escape(rec["trump"])}: trump call
<span class="{tc["grade"]}">{html.escape(grade)}</span> (hindsight: the double-dummy outcome of
each trump with every hand open; the Hakem saw five cards). Values are the tricks the player's
team takes in the whole hand with best play by all four after that card. Grades: best, mistake
(costs a trick), blunder (loses a won hand, gives up or concedes a Kot).</p>
<table id="trumps"></table>
<p><button id="start">|&lt;</button><button id="prev">&lt;</button>
<button id="next">&gt;</button><button id="end">&gt;|</button> <span id="score"></span></p>
<div class="table"><div class="seat s2" id="seat2"></div><div class="seat s3" id="seat3"></div>
<div class="trick" id="trick"></div><div class="seat s1" id="seat1"></div>
<div class="seat s0" id="seat0"></div></div>
<p id="info"></p>
<table id="log"></table>
<pre id="errors"></pre><div id="status">loading</div>
<script type="application/json" id="hand-data">{_json_for_script(rec)}</script>
<script>{_SCRIPT}</script>
</body></html>
"""


def _cell(e: dict, digits: int = 3) -> str:
    if e.get("value") is None:
        return "-"
    if e.get("low") is None:
        return f"{e['value']:.{digits}f}"
    return f"{e['value']:.{digits}f} [{e['low']:.{digits}f}, {e['high']:.{digits}f}]"


def index_page(title: str, acc: dict, swings: list[dict], blunders: list[dict], links: dict) -> str:
    """A report's page: accuracy per strategy, the worst swings and blunders, linking to
    their hand pages (``links[(deal, copy)]`` or ``links[hand index]`` is a relative path)."""

    def link(key, text: str) -> str:
        href = links.get(key)
        return f'<a href="{html.escape(href)}">{html.escape(text)}</a>' if href else text

    rows = []
    for name, e in acc["strategies"].items():
        a = e["all"]
        rows.append(
            f"<tr><td>{html.escape(name)}</td><td>{e['hands']}</td>"
            f"<td>{_cell(a['tricks_lost'])}</td><td>{_cell(a['blunders'], 1)}</td>"
            f"<td>{_cell(a['mistakes'], 1)}</td><td>{_cell(a['best_share'])}</td></tr>"
        )
    sw = []
    for s in swings:
        at = s.get("parted_at")
        parted = "-"
        if at:
            parted = f"card {at['card']} (trick {at['trick']}): " + "; ".join(
                f"copy {t['copy']} seat {t['seat']} {html.escape(t['strategy'])} "
                f"{html.escape(t['played'])} ({t['grade']})"
                for t in at["tables"]
            )
        sw.append(
            f"<tr><td>{s['deal']}</td><td>{s['a_net_points']:+d}</td>"
            f"<td>{link((s['deal'], 0), 'copy 0')} {link((s['deal'], 1), 'copy 1')}</td>"
            f"<td>{parted}</td></tr>"
        )
    bl = []
    for b in blunders:
        key = (b["deal"], b["copy"]) if "deal" in b else b["hand"]
        text = f"deal {b['deal']} copy {b['copy']}" if "deal" in b else f"hand {b['hand']}"
        bl.append(
            f"<tr><td>{link(key, text)}</td><td>{b['trick']}</td><td>{b['seat']}</td>"
            f"<td>{html.escape(b['strategy'])}</td><td>{b['card']}</td><td>{b['cost']}</td>"
            f"<td>{html.escape(', '.join(b['why']))}</td></tr>"
        )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>{_STYLE}</style></head><body>
<h1>{html.escape(title)}</h1>
<p>{acc["hands"]} hands of {acc["deals"]} deals analysed double dummy; 95% intervals over
deals.</p>
<h2>Accuracy</h2>
<table><tr><th>strategy</th><th>hands</th><th>tricks lost per hand</th>
<th>blunders per 100 hands</th><th>mistakes per 100 hands</th><th>cards DD-best</th></tr>
{"".join(rows)}</table>
<h2>Worst duplicate swings</h2>
<table><tr><th>deal</th><th>A's net points</th><th>hands</th>
<th>first card where the tables' double-dummy values parted</th></tr>{"".join(sw)}</table>
<h2>Costliest blunders</h2>
<table><tr><th>hand</th><th>trick</th><th>seat</th><th>strategy</th><th>card</th>
<th>tricks lost</th><th>why</th></tr>{"".join(bl)}</table>
<div id="status">ok</div>
</body></html>
"""

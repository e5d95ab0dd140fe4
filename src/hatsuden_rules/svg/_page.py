"""The HTML, CSS and script of the replay page that `record_to_html` fills in.

The script unpacks the pictures (base64 of zlib-deflated JSON, decoded with the browser's
``DecompressionStream``), shows one position at a time, and steps with the buttons, the move
list and the keyboard. Until it has run (or where it cannot), the page shows the final position
drawn inline.
"""

from __future__ import annotations

from typing import Final

__all__ = ["PAGE"]

_CSS: Final = """
:root{--ink:#1d1d1b;--muted:#6a655c;--line:#c8c1b3;--table:#f3f0e8;--accent:#cc79a7;
--panel:#fff;font-family:"DejaVu Sans",Verdana,Arial,Helvetica,sans-serif;color:var(--ink);
background:var(--table)}
body{margin:0;padding:16px}
header h1{font-size:20px;margin:0 0 2px}
header p{margin:0;color:var(--muted);font-size:13px}
main{display:flex;flex-wrap:wrap;gap:16px;margin-top:12px;align-items:flex-start}
.stage{flex:1 1 640px;max-width:1000px;min-width:320px}
.controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-bottom:6px}
.controls button{font:inherit;font-size:14px;padding:6px 12px;border-radius:6px;
border:1px solid var(--line);background:var(--panel);color:var(--ink);cursor:pointer}
.controls button:disabled{opacity:.45;cursor:default}
button:focus-visible{outline:3px solid var(--accent);outline-offset:1px}
.views{display:inline-flex;margin-left:auto}
.views button{border-radius:0;margin-left:-1px}
.views button:first-child{border-radius:6px 0 0 6px;margin-left:0}
.views button:last-child{border-radius:0 6px 6px 0}
.views button[aria-pressed=true]{background:var(--ink);color:#fff;border-color:var(--ink)}
.caption{font-size:15px;margin:6px 0 8px;min-height:1.4em;font-weight:bold}
#board svg{width:100%;height:auto;max-height:calc(100vh - 150px);display:block}
aside{flex:0 1 360px;min-width:280px;background:var(--panel);border:1px solid var(--line);
border-radius:8px;padding:12px}
aside h2{font-size:15px;margin:0 0 8px}
.moves{list-style:none;margin:0 0 14px;padding:0;max-height:520px;overflow-y:auto;
font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:13px}
.moves li{padding:2px 0;border-bottom:1px solid #eee8dc}
.turn{display:inline-block;min-width:8em;color:var(--muted);
font-family:"DejaVu Sans",Verdana,sans-serif;font-size:12px}
.move{font:inherit;border:0;background:none;padding:1px 4px;margin:1px 0;border-radius:4px;
cursor:pointer;color:var(--ink)}
.move:hover{background:#eee8dc}
.move.chance{color:var(--muted)}
.sep{margin-left:-4px}
.move[aria-current=step]{background:var(--accent);color:#000;font-weight:bold}
.start{font-family:"DejaVu Sans",Verdana,sans-serif;font-size:12px;margin-bottom:6px}
.only-p0,.only-p1{display:none}
body.view-p0 .only-god,body.view-p1 .only-god{display:none}
body.view-p0 .only-p0,body.view-p1 .only-p1{display:inline}
.sheet{border-collapse:collapse;font-size:13px;width:100%}
.sheet caption{caption-side:bottom;text-align:left;color:var(--muted);font-size:11px;
padding-top:4px}
.sheet th,.sheet td{border:1px solid var(--line);padding:3px 4px;text-align:center}
.sheet tbody th{text-align:left;font-weight:normal}
.sheet td.won{font-weight:bold;background:#eee8dc}
.sheet tr.winner th{font-weight:bold}
.sheet abbr{text-decoration:none}
.verdict{font-size:13px;margin:8px 0 0}
.result{margin:0 0 14px}
.result summary{cursor:pointer;font-weight:bold;font-size:15px;margin:0 0 8px}
.result summary span{font-weight:normal;color:var(--muted);font-size:12px}
.legend{font-size:12px;margin:0 0 14px;display:grid;grid-template-columns:max-content 1fr;
gap:1px 8px}
.legend dt{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-weight:bold}
.legend dd{margin:0;color:var(--muted)}
.keys{color:var(--muted);font-size:12px}
kbd{border:1px solid var(--line);border-radius:3px;padding:0 4px;background:#fff}
"""

_SCRIPT: Final = """
(function () {
  "use strict";
  var views = ["god", "p0", "p1"];
  var data = null, last = 0, ply = 0, view = 0;
  var result = document.getElementById("result");
  var board = document.getElementById("board");
  var caption = document.getElementById("caption");
  var moves = document.querySelectorAll(".move");
  var viewButtons = document.querySelectorAll(".views button");
  function $(id) { return document.getElementById(id); }
  function picture(k, v) {
    return data.frames[k][v].map(function (i) { return data.lines[i]; }).join("\\n");
  }
  function describe() {
    if (ply === 0) { return "Start: the position before the first move"; }
    var m = data.moves[ply - 1];
    var who = m[0] === 0 ? "the deal" : "turn " + m[0] + ", " + data.names[m[1]];
    return "Move " + ply + " of " + last + " (" + who + "): " + m[2 + view];
  }
  function show() {
    board.innerHTML = picture(ply, view);
    caption.textContent = describe();
    document.body.className = "view-" + views[view];
    $("first").disabled = $("prev").disabled = ply === 0;
    $("next").disabled = $("last").disabled = ply === last;
    if (ply === last) { result.open = true; }  /* the result, once the game is over */
    for (var i = 0; i < moves.length; i++) {
      if (Number(moves[i].getAttribute("data-ply")) === ply) {
        moves[i].setAttribute("aria-current", "step");
        moves[i].scrollIntoView({block: "nearest"});
      } else {
        moves[i].removeAttribute("aria-current");
      }
    }
    for (var j = 0; j < viewButtons.length; j++) {
      viewButtons[j].setAttribute("aria-pressed", String(j === view));
    }
    try { history.replaceState(null, "", "#ply=" + ply + "&view=" + views[view]); }
    catch (e) { /* some browsers refuse it for a file: page; nothing depends on it */ }
  }
  function go(k) { if (data) { ply = Math.max(0, Math.min(last, k)); show(); } }
  function look(v) { if (data) { view = v; show(); } }
  function start(text) {
    data = JSON.parse(text);
    last = data.frames.length - 1;
    var hash = /ply=(\\d+)/.exec(location.hash), wanted = /view=(god|p0|p1)/.exec(location.hash);
    if (hash) { ply = Math.min(last, Number(hash[1])); }
    if (wanted) { view = views.indexOf(wanted[1]); }
    show();
  }
  $("first").onclick = function () { go(0); };
  $("prev").onclick = function () { go(ply - 1); };
  $("next").onclick = function () { go(ply + 1); };
  $("last").onclick = function () { go(last); };
  for (var i = 0; i < moves.length; i++) {
    moves[i].onclick = function (event) {
      go(Number(event.currentTarget.getAttribute("data-ply")));
    };
  }
  for (var j = 0; j < viewButtons.length; j++) {
    viewButtons[j].onclick = (function (v) { return function () { look(v); }; })(j);
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var steps = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1};
    if (event.key in steps) { go(ply + steps[event.key]); }
    else if (event.key === "Home") { go(0); }
    else if (event.key === "End") { go(last); }
    else if (event.key === "v" || event.key === "V") { look((view + 1) % 3); }
    else if (event.key === "g" || event.key === "G") { look(0); }
    else if (event.key === "0" || event.key === "1") { look(Number(event.key) + 1); }
    else { return; }
    event.preventDefault();
  });
  if (typeof DecompressionStream === "undefined") {
    caption.textContent = "This browser cannot unpack the game (it needs DecompressionStream: " +
      "Chrome 80, Firefox 113, Safari 16.4 or later). The final position:";
    return;
  }
  var packed = atob($("hatsuden-data").textContent.trim());
  var bytes = new Uint8Array(packed.length);
  for (var k = 0; k < packed.length; k++) { bytes[k] = packed.charCodeAt(k); }
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  new Response(stream).text().then(start, function (error) {
    caption.textContent = "The game data is damaged (" + error + "). The final position:";
  });
})();
"""

#: The page; `str.format` fields: title, heading, subtitle, name0, name1, positions, moves,
#: sheet, fallback (the final picture), data (base64 of the deflated JSON).
PAGE: Final = (
    """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="generator" content="hatsuden-rules record_to_html">
<title>{title}</title>
<style>"""
    + _CSS.replace("{", "{{").replace("}", "}}")
    + """</style>
</head>
<body class="view-god">
<header>
<h1>{heading}</h1>
<p>{subtitle}</p>
</header>
<main>
<section class="stage" aria-label="Board">
<div class="controls">
<button type="button" id="first" title="First position (Home)">« Start</button>
<button type="button" id="prev" title="Previous move (←)">◀ Previous</button>
<button type="button" id="next" title="Next move (→)">Next ▶</button>
<button type="button" id="last" title="Last position (End)">End »</button>
<span class="views" role="group" aria-label="Whose view">
<button type="button" aria-pressed="true" title="Every card (G)">All cards</button>
<button type="button" aria-pressed="false" title="What {name0} saw (0)">{name0}'s view</button>
<button type="button" aria-pressed="false" title="What {name1} saw (1)">{name1}'s view</button>
</span>
</div>
<p class="caption" id="caption" aria-live="polite">The start position \
(turn on JavaScript to step through the game):</p>
<div id="board">
{fallback}</div>
<p class="keys">Keys: <kbd>←</kbd> <kbd>→</kbd> previous / next move · <kbd>Home</kbd> \
<kbd>End</kbd> first / last · <kbd>V</kbd> next view (<kbd>G</kbd> all cards, <kbd>0</kbd> \
<kbd>1</kbd> a player's view). {positions} positions. Hover over a card for details.</p>
</section>
<aside>
<h2>Moves</h2>
<button type="button" class="move start" data-ply="0">Start position</button>
{moves}
<details class="result" id="result">
<summary>Final score <span>(shown at the last move, or click)</span></summary>
{sheet}
</details>
<h2>Key to the moves</h2>
<dl class="legend">
<dt>C W4 0W</dt><dd>construct W4 on city 0's wind cell (C* secret: C* ? 0W unseen)</dd>
<dt>I / D</dt><dd>improve / downsize a plant</dd>
<dt>P W1 1W</dt><dd>a pylon: a face-down card, worth 0 (P ? 1W unseen)</dd>
<dt>X W4</dt><dd>discard W4</dd>
<dt>PASS</dt><dd>pass the action</dd>
<dt>DT / NT</dt><dd>draw / decline a tech card</dd>
<dt>F 1B</dt><dd>flip a plant after an overflow (FS 0S+0W a set)</dd>
<dt>A 0 / M G</dt><dd>place the Accumulator on city 0 / the Smart card on G</dd>
<dt>DD / DX S4</dt><dd>draw from the deck / take S4 from the discards</dd>
<dt>E</dt><dd>end the turn</dd>
<dt>=S4 =ACC</dt><dd>a card / tech card dealt (=? and =??? unseen)</dd>
<dt>S G W H B</dt><dd>solar, geothermal, wind, hydro, biomass; 0S: city 0, solar</dd>
<dt>ACC SEC SMT DWN</dt><dd>Accumulator, Secret Build, Smart, Down</dd>
</dl>
</aside>
</main>
<script type="application/octet-stream" id="hatsuden-data">
{data}
</script>
<script>"""
    + _SCRIPT.replace("{", "{{").replace("}", "}}")
    + """</script>
</body>
</html>
"""
)

"""What `referee lab` shows: a text summary, the figures as JSON, and one HTML page.

The page needs nothing but itself: Chart.js (MIT licence, from its npm package, in
`assets/`) and the figures are written into it, so it opens offline and can be mailed.
Every figure carries its sample size; every rate its 95% interval. Text that comes from
the data (variant names, choices, spec addresses) is escaped on the page and, through the
command line's output, on the terminal.
"""

from __future__ import annotations

import html
import json
from importlib import resources


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _interval(ci, pct: bool = False) -> str:
    if not ci:
        return "-"
    f = _pct if pct else _num
    return f"[{f(ci[0])}, {f(ci[1])}]"


def text_summary(data: dict) -> list[str]:
    """The figures for a terminal, a few lines per side."""
    lines = [
        f"{data['game']}, {data['players']} players, agents {', '.join(data['agents'])}{' (rotated)' if data['rotate'] else ''}, seed {data['seed']}, {data['runner']} run, {data['seconds']:.1f}s"
    ]
    for name, side in data["sides"].items():
        variants = ", ".join(side["variants"]) or "the plain rules"
        lines.append(f"{name}: {variants}: {side['finished']} of {side['games']} games finished" + (f"; {side['unfinished']} hit the move limit" if side["unfinished"] else ""))
        for error in side["errors"]:
            lines.append(f"  game error: {error}")
        for seat in side["seats"]:
            score = seat["score"]
            lines.append(
                f"  seat {seat['seat']} ({seat['colour']}): wins {seat['wins']}/{seat['n']} = {_pct(seat['rate'])} {_interval(seat['ci'], True)}; score {_num(score['mean'])} sd {_num(score['sd'])} (n={score['n']})"
            )
        for agent, r in side["agents"].items():
            lines.append(f"  agent {agent}: wins {r['wins']}/{r['n']} seat-games = {_pct(r['rate'])} {_interval(r['ci'], True)}")
        if side["seats"]:
            moves, rounds = side["length"]["moves"], side["length"]["rounds"]
            lines.append(
                f"  length: {_num(moves['mean'])} moves (sd {_num(moves['sd'])}), {_num(rounds['mean'])} rounds (n={moves['n']}); margin {_num(side['margin']['mean'])} (sd {_num(side['margin']['sd'])}); lead changes {_num(side['lead_changes']['mean'])}"
            )
            top = side["usage"][:8]
            if top:
                lines.append(
                    "  most chosen (per seat and game; correlation with winning): "
                    + "; ".join(f"{u['choice']} {_num(u['per_game'], 2)} (r={_num(u['correlation'], 2)})" for u in top)
                    + f" (n={top[0]['n']})"
                )
        if side["relied_on"]:
            lines.append(
                f"  relied on {len(side['relied_on'])} uncertain spec values (see JSON or the page): "
                + ", ".join(r["address"] for r in side["relied_on"][:5])
                + (" ..." if len(side["relied_on"]) > 5 else "")
            )
    comparison = data.get("comparison")
    if comparison:
        lines.append(f"variant less base, over {comparison['pairs']} games on the same seeds" + (" (stopped early: the test settled)" if data["stopped_early"] else "") + ":")
        for seat in comparison["seats"]:
            w, s = seat["win_rate"], seat["score"]
            lines.append(f"  seat {seat['seat']}: win rate {_pct(w.get('mean'))} {_interval(w.get('ci'), True)}; score {_num(s.get('mean'))} {_interval(s.get('ci'))}")
        if comparison.get("moves"):
            lines.append(
                f"  moves {_num(comparison['moves'].get('mean'))} {_interval(comparison['moves'].get('ci'))}; margin {_num(comparison['margin'].get('mean'))} {_interval(comparison['margin'].get('ci'))}"
            )
            t = comparison["sprt"]
            lines.append(f"  SPRT: {t['question']} {t['verdict']} (n={t['n']} games where one side's first seat won)")
    lines.extend(_sensitivity_lines(data.get("sensitivity")))
    return lines


def _sensitivity_lines(found: dict | None) -> list[str]:
    if not found:
        return []
    lines = [f"sensitivity: each provisional number down and up by {found['spread']:.0%} (at least 1), {found['games']} games a setting; largest seat win-rate and mean-score shift:"]
    if not found["values"]:
        lines.append("  no provisional value that holds numbers (and that an overlay can set) was relied on")
    for row in found["values"]:
        if "refused" in row:
            lines.append(f"  {row['address']}: cannot be varied ({row['refused']})")
        else:
            shown = f"{row['value']} ({row['low']} to {row['high']})" if row.get("plain") else "(each number in it)"
            lines.append(f"  {row['address']} {shown}: win rate {_pct(row['win_rate_shift'])}, score {_num(row['score_shift'])} (n={row['games']} a setting)")
    return lines


def _short(value) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def replay_summary(data: dict) -> list[str]:
    lines = [f"{data['records']} records checked again under {', '.join(data['variants'])}: {data['changed']} change"]
    for row in data["rows"]:
        if not (row["legality_changes"] or row["winner_changes"]):
            continue
        b, a = row["before"], row["after"]
        what = []
        if row["legality_changes"]:
            what.append(f"{b['status']} -> {a['status']}" + (f" ({a['first_error']})" if a["first_error"] else ""))
        if row["winner_changes"]:
            what.append(f"winner {', '.join(b['winners']) or 'none'} -> {', '.join(a['winners']) or 'none'}")
        lines.append(f"  {row['record']}: {'; '.join(what)}")
    return lines


def chart_library() -> str:
    return resources.files("referee.lab").joinpath("assets", "chart.umd.min.js").read_text(encoding="utf-8")


def _script_json(data) -> str:
    """JSON that is safe inside a <script> element: no '<' can close it early."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def html_page(data: dict) -> str:
    """The self-contained page: tables of every figure with its n, and charts of the seats'
    win rates with their intervals, the scores, the lengths and the choices made."""
    data = page_data(data)
    e = html.escape
    title = f"referee lab: {data['game']}, {data['players']} players"
    parts = [
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' content='width=device-width,initial-scale=1'><title>{e(title)}</title>",
        "<style>body{font:15px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:70em;padding:0 1em;color:#222}"
        "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border-bottom:1px solid #ddd;padding:.2em .6em;text-align:right}"
        "th:first-child,td:first-child{text-align:left}.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(22em,1fr));gap:1em}"
        "canvas{max-height:22em}.note{color:#666}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        f"<p>Agents {e(', '.join(data['agents']))}{' (rotated through the seats)' if data['rotate'] else ''}; seed {e(str(data['seed']))}; "
        f"{e(data['runner'])} run of {data['seconds']:.1f}s{'; stopped early, the sequential test settled' if data['stopped_early'] else ''}.</p>",
    ]
    for name, side in data["sides"].items():
        parts.append(f"<h2>{e(name)}: {e(', '.join(side['variants']) or 'the plain rules')}</h2>")
        parts.append(f"<p>{side['finished']} of {side['games']} games finished; {side['unfinished']} reached the move limit.</p>")
        for error in side["errors"]:
            parts.append(f"<p class='note'>game error: {e(error)}</p>")
        parts.append("<table><tr><th>seat</th><th>n</th><th>wins</th><th>win rate</th><th>95% interval</th><th>score mean</th><th>sd</th></tr>")
        for s in side["seats"]:
            parts.append(
                f"<tr><td>{s['seat']} ({e(s['colour'])})</td><td>{s['n']}</td><td>{s['wins']}</td><td>{_pct(s['rate'])}</td><td>{_interval(s['ci'], True)}</td><td>{_num(s['score']['mean'])}</td><td>{_num(s['score']['sd'])}</td></tr>"
            )
        parts.append("</table>")
        if side["agents"]:
            parts.append("<table><tr><th>agent</th><th>n (seat-games)</th><th>wins</th><th>win rate</th><th>95% interval</th></tr>")
            for agent, r in side["agents"].items():
                parts.append(f"<tr><td>{e(agent)}</td><td>{r['n']}</td><td>{r['wins']}</td><td>{_pct(r['rate'])}</td><td>{_interval(r['ci'], True)}</td></tr>")
            parts.append("</table>")
        if side["seats"]:
            parts.append("<table><tr><th>figure</th><th>n</th><th>mean</th><th>sd</th><th>least</th><th>most</th><th>95% interval of the mean</th></tr>")
            for label, d in (("moves", side["length"]["moves"]), ("rounds", side["length"]["rounds"]), ("margin of victory", side["margin"]), ("lead changes", side["lead_changes"])):
                parts.append(
                    f"<tr><td>{label}</td><td>{d['n']}</td><td>{_num(d.get('mean'))}</td><td>{_num(d.get('sd'))}</td><td>{d.get('min', '-')}</td><td>{d.get('max', '-')}</td><td>{_interval(d.get('ci'))}</td></tr>"
                )
            parts.append("</table>")
            parts.append(
                f"<div class='charts'><div><canvas id='wins-{e(name)}'></canvas></div><div><canvas id='scores-{e(name)}'></canvas></div><div><canvas id='length-{e(name)}'></canvas></div><div><canvas id='usage-{e(name)}'></canvas></div></div>"
            )
            parts.append("<h3>Choices</h3><table><tr><th>choice</th><th>n (seat-games)</th><th>per seat and game</th><th>by winners</th><th>by the others</th><th>correlation with winning</th></tr>")
            for u in side["usage"]:
                parts.append(
                    f"<tr><td>{e(u['choice'])}</td><td>{u['n']}</td><td>{_num(u['per_game'], 2)}</td><td>{_num(u['by_winners'], 2)}</td><td>{_num(u['by_others'], 2)}</td><td>{_num(u['correlation'], 2)}</td></tr>"
                )
            parts.append("</table>")
        if side["relied_on"]:
            parts.append("<h3>Uncertain spec values the games relied on</h3><table><tr><th>file:key</th><th>games</th></tr>")
            for r in side["relied_on"]:
                parts.append(f"<tr><td>{e(r['address'])}</td><td>{r['games']} of {r['of']}</td></tr>")
            parts.append("</table>")
    comparison = data.get("comparison")
    if comparison:
        parts.append(f"<h2>Variant less base</h2><p>{comparison['pairs']} pairs of games on the same seeds.</p>")
        parts.append("<table><tr><th>figure</th><th>n</th><th>mean difference</th><th>95% interval</th></tr>")
        for s in comparison["seats"]:
            for label, d, pct in ((f"seat {s['seat']} win rate", s["win_rate"], True), (f"seat {s['seat']} score", s["score"], False)):
                parts.append(f"<tr><td>{label}</td><td>{d['n']}</td><td>{(_pct if pct else _num)(d.get('mean'))}</td><td>{_interval(d.get('ci'), pct)}</td></tr>")
        for label in ("moves", "rounds", "margin"):
            if label in comparison:
                d = comparison[label]
                parts.append(f"<tr><td>{label}</td><td>{d['n']}</td><td>{_num(d.get('mean'))}</td><td>{_interval(d.get('ci'))}</td></tr>")
        parts.append("</table>")
        if "sprt" in comparison:
            t = comparison["sprt"]
            parts.append(f"<p>Sequential test: {e(t['question'])} <b>{e(t['verdict'])}</b> (n={t['n']} pairs where one side's first seat won, the variant's in {t['variant_won']}).</p>")
    found = data.get("sensitivity")
    if found:
        parts.append(
            f"<h2>Sensitivity to provisional values</h2><p>Each value down and up by {found['spread']:.0%} of itself (at least 1), {found['games']} games a setting on the same seeds; ranked by the largest change of a seat's win rate, then of a seat's mean score.</p>"
        )
        parts.append("<table><tr><th>file:key</th><th>value</th><th>low</th><th>high</th><th>n a setting</th><th>win rate shift</th><th>score shift</th></tr>")
        for row in found["values"]:
            if "refused" in row:
                parts.append(f"<tr><td>{e(row['address'])}</td><td>{e(_short(row['value']))}</td><td colspan='5'>cannot be varied: {e(row['refused'])}</td></tr>")
            else:
                low, high = (row["low"], row["high"]) if row.get("plain") else (f"-{found['spread']:.0%}", f"+{found['spread']:.0%}")
                parts.append(
                    f"<tr><td>{e(row['address'])}</td><td>{e(_short(row['value']))}</td><td>{e(str(low))}</td><td>{e(str(high))}</td><td>{row['games']}</td><td>{_pct(row['win_rate_shift'])}</td><td>{_num(row['score_shift'])}</td></tr>"
                )
        parts.append("</table>")
    parts.append(f"<script type='application/json' id='lab-data'>{_script_json({k: v for k, v in data.items() if k != 'games'})}</script>")
    parts.append(f"<script>{chart_library()}</script>")
    parts.append("<script>" + _CHARTS + "</script></body></html>")
    return "".join(parts)


_CHARTS = r"""
(function(){
  var data = JSON.parse(document.getElementById('lab-data').textContent);
  Chart.defaults.aspectRatio = 1.4;
  function histogram(values, bins){
    if(!values.length) return {labels:[], counts:[]};
    var lo = Math.min.apply(null, values), hi = Math.max.apply(null, values);
    var width = Math.max(1, Math.ceil((hi - lo + 1) / bins)), labels = [], counts = [];
    for(var x = lo; x <= hi; x += width){ labels.push(x + (width > 1 ? '-' + (x + width - 1) : '')); counts.push(0); }
    values.forEach(function(v){ counts[Math.floor((v - lo) / width)]++; });
    return {labels: labels, counts: counts};
  }
  Object.keys(data.sides).forEach(function(name){
    var side = data.sides[name];
    if(!side.seats.length) return;
    var seats = side.seats.map(function(s){ return 'seat ' + s.seat + ' (' + s.colour + '), n=' + s.n; });
    new Chart(document.getElementById('wins-' + name), {type:'bar', data:{labels:seats, datasets:[
      {label:'95% interval', data:side.seats.map(function(s){ return [100*s.ci[0], 100*s.ci[1]]; }), backgroundColor:'rgba(70,110,200,.35)'},
      {label:'win rate %', type:'line', showLine:false, pointRadius:6, data:side.seats.map(function(s){ return 100*s.rate; }), backgroundColor:'#234'}]},
      options:{plugins:{title:{display:true, text:'Win rate by seat (%)'}}, scales:{y:{min:0, max:100}}}});
    new Chart(document.getElementById('scores-' + name), {type:'bar', data:{labels:seats, datasets:[
      {label:'mean score', data:side.seats.map(function(s){ return s.score.mean; }), backgroundColor:'rgba(200,120,60,.6)'},
      {label:'sd', data:side.seats.map(function(s){ return s.score.sd; }), backgroundColor:'rgba(120,120,120,.4)'}]},
      options:{plugins:{title:{display:true, text:'Score by seat'}}}});
    var games = (data.game_lengths || {})[name] || [];
    var h = histogram(games, 15);
    new Chart(document.getElementById('length-' + name), {type:'bar', data:{labels:h.labels, datasets:[
      {label:'games (n=' + games.length + ')', data:h.counts, backgroundColor:'rgba(60,160,110,.6)'}]},
      options:{plugins:{title:{display:true, text:'Game length in moves'}}}});
    var usage = side.usage.filter(function(u){ return u.correlation !== null; }).slice(0, 15);
    new Chart(document.getElementById('usage-' + name), {type:'bar', data:{labels:usage.map(function(u){ return u.choice; }), datasets:[
      {label:'correlation with winning (n=' + (usage.length ? usage[0].n : 0) + ' seat-games)', data:usage.map(function(u){ return u.correlation; }), backgroundColor:'rgba(150,80,170,.6)'}]},
      options:{indexAxis:'y', plugins:{title:{display:true, text:'Most chosen: correlation with winning'}}, scales:{x:{min:-1, max:1}}}});
  });
})();
"""


def page_data(data: dict) -> dict:
    """The figures for the page: the run's, with each side's game lengths for the histogram."""
    lengths: dict[str, list[int]] = {}
    for game in data.get("games", []):
        if game["finished"] and not game["error"]:
            lengths.setdefault(game["side"], []).append(game["moves"])
    return {**data, "game_lengths": lengths}

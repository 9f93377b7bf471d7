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

from referee.i18n import N_, _, current, localized, ngettext, pgettext
from referee.notation.colours import colour_named
from referee.terminal import readable_name


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
    """The figures for a terminal, a few lines per side, in the language in use."""
    rotated = " " + _("(rotated)") if data["rotate"] else ""
    lines = [
        ngettext(
            "{game}, {players} player, agents {agents}{rotated}, seed {seed}, {run}, {seconds}s",
            "{game}, {players} players, agents {agents}{rotated}, seed {seed}, {run}, {seconds}s",
            data["players"],
        ).format(game=data["game"], players=data["players"], agents=", ".join(data["agents"]), rotated=rotated, seed=data["seed"], run=_run(data["runner"]), seconds=f"{data['seconds']:.1f}")
    ]
    named = choice_names(data)
    for name, side in data["sides"].items():
        line = ngettext("{side}: {variants}: {finished} of {games} game finished", "{side}: {variants}: {finished} of {games} games finished", side["games"]).format(
            side=_said(SIDES, name), variants=_variants(side), finished=side["finished"], games=side["games"]
        )
        if side["unfinished"]:
            line += "; " + ngettext("{n} hit the move limit", "{n} hit the move limit", side["unfinished"]).format(n=side["unfinished"])
        lines.append(line)
        for error in side["errors"]:
            lines.append("  " + _("game error: {error}").format(error=localized(error)))
        for seat in side["seats"]:
            score = seat["score"]
            lines.append(
                "  "
                + _("seat {seat} ({colour}): wins {wins}/{games} = {rate} {interval}; score {mean} sd {sd} (n={scored})").format(
                    seat=seat["seat"],
                    colour=_colour(seat["colour"]),
                    wins=seat["wins"],
                    games=seat["n"],
                    rate=_pct(seat["rate"]),
                    interval=_interval(seat["ci"], True),
                    mean=_num(score["mean"]),
                    sd=_num(score["sd"]),
                    scored=score["n"],
                )
            )
        for agent, r in side["agents"].items():
            lines.append(
                "  "
                + ngettext("agent {agent}: wins {wins}/{n} seat-game = {rate} {interval}", "agent {agent}: wins {wins}/{n} seat-games = {rate} {interval}", r["n"]).format(
                    agent=agent, wins=r["wins"], n=r["n"], rate=_pct(r["rate"]), interval=_interval(r["ci"], True)
                )
            )
        if side["seats"]:
            moves, rounds = side["length"]["moves"], side["length"]["rounds"]
            lines.append(
                "  "
                + _("length: {moves} moves (sd {moves_sd}), {rounds} rounds (n={n}); margin {margin} (sd {margin_sd}); lead changes {lead_changes}").format(
                    moves=_num(moves["mean"]),
                    moves_sd=_num(moves["sd"]),
                    rounds=_num(rounds["mean"]),
                    n=moves["n"],
                    margin=_num(side["margin"]["mean"]),
                    margin_sd=_num(side["margin"]["sd"]),
                    lead_changes=_num(side["lead_changes"]["mean"]),
                )
            )
            top = side["usage"][:8]
            if top:
                # the choices by the game's names for them (the JSON keeps the notation's words)
                choices = "; ".join(f"{named[u['choice']]} {_num(u['per_game'], 2)} (r={_num(u['correlation'], 2)})" for u in top)
                lines.append("  " + _("most chosen (per seat and game; correlation with winning): {choices} (n={n})").format(choices=choices, n=top[0]["n"]))
        if side["relied_on"]:
            count = len(side["relied_on"])
            lines.append(
                "  "
                + ngettext("relied on {n} uncertain spec value (see JSON or the page): {addresses}", "relied on {n} uncertain spec values (see JSON or the page): {addresses}", count).format(
                    n=count, addresses=", ".join(r["address"] for r in side["relied_on"][:5])
                )
                + (" ..." if count > 5 else "")
            )
    comparison = data.get("comparison")
    if comparison:
        stopped = " " + _("(stopped early: the test settled)") if data["stopped_early"] else ""
        lines.append(
            ngettext("variant less base, over {pairs} game on the same seeds{stopped}:", "variant less base, over {pairs} games on the same seeds{stopped}:", comparison["pairs"]).format(
                pairs=comparison["pairs"], stopped=stopped
            )
        )
        for seat in comparison["seats"]:
            w, s = seat["win_rate"], seat["score"]
            lines.append(
                "  "
                + _("seat {seat}: win rate {rate} {rate_interval}; score {score} {score_interval}").format(
                    seat=seat["seat"], rate=_pct(w.get("mean")), rate_interval=_interval(w.get("ci"), True), score=_num(s.get("mean")), score_interval=_interval(s.get("ci"))
                )
            )
        if comparison.get("moves"):
            moves, margin = comparison["moves"], comparison["margin"]
            lines.append(
                "  "
                + _("moves {moves} {moves_interval}; margin {margin} {margin_interval}").format(
                    moves=_num(moves.get("mean")), moves_interval=_interval(moves.get("ci")), margin=_num(margin.get("mean")), margin_interval=_interval(margin.get("ci"))
                )
            )
            t = comparison["sprt"]
            lines.append(
                "  "
                + ngettext("SPRT: {question} {verdict} (n={n} game where one side's first seat won)", "SPRT: {question} {verdict} (n={n} games where one side's first seat won)", t["n"]).format(
                    question=_question(t), verdict=_said(VERDICTS, t["verdict"]), n=t["n"]
                )
            )
    lines.extend(_sensitivity_lines(data.get("sensitivity")))
    if data.get("records"):
        written = data["records"]["written"]
        lines.append(ngettext("wrote {n} record into {folder}", "wrote {n} records into {folder}", written).format(n=written, folder=readable_name(data["records"]["folder"])))
    return lines


def _sensitivity_lines(found: dict | None) -> list[str]:
    if not found:
        return []
    lines = [
        ngettext(
            "sensitivity: each provisional number down and up by {spread} (at least 1), {games} game a setting; largest seat win-rate and mean-score shift:",
            "sensitivity: each provisional number down and up by {spread} (at least 1), {games} games a setting; largest seat win-rate and mean-score shift:",
            found["games"],
        ).format(spread=f"{found['spread']:.0%}", games=found["games"])
    ]
    if not found["values"]:
        lines.append("  " + _("no provisional value that holds numbers (and that an overlay can set) was relied on"))
    for row in found["values"]:
        if "refused" in row:
            lines.append("  " + _("{address}: cannot be varied ({reason})").format(address=row["address"], reason=localized(row["refused"])))
        else:
            shown = _("{value} ({low} to {high})").format(value=row["value"], low=row["low"], high=row["high"]) if row.get("plain") else _("(each number in it)")
            lines.append(
                "  "
                + ngettext("{address} {shown}: win rate {rate}, score {score} (n={games} a setting)", "{address} {shown}: win rate {rate}, score {score} (n={games} a setting)", row["games"]).format(
                    address=row["address"], shown=shown, rate=_pct(row["win_rate_shift"]), score=_num(row["score_shift"]), games=row["games"]
                )
            )
    return lines


def _short(value) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def replay_summary(data: dict) -> list[str]:
    lines = [
        ngettext("{records} record checked again under {variants}: {changed} change", "{records} records checked again under {variants}: {changed} change", data["records"]).format(
            records=data["records"], variants=", ".join(data["variants"]), changed=data["changed"]
        )
    ]
    for row in data["rows"]:
        if not (row["legality_changes"] or row["winner_changes"]):
            continue
        b, a = row["before"], row["after"]
        what = []
        if row["legality_changes"]:
            what.append(f"{_said(STATUSES, b['status'])} -> {_said(STATUSES, a['status'])}" + (f" ({a['first_error']})" if a["first_error"] else ""))
        if row["winner_changes"]:
            before, after = (", ".join(_colour(c) for c in v["winners"]) or _("none") for v in (b, a))
            what.append(_("winner {before} -> {after}").format(before=before, after=after))
        lines.append(f"  {row['record']}: {'; '.join(what)}")
    return lines


# The words for the data's own ids (JSON keeps the ids), said in the language in use.
SIDES = {"variant": N_("variant"), "base": N_("base")}
RUNS = {"local": N_("local run"), "ray": N_("ray run")}
VERDICTS = {"higher": N_("higher"), "lower": N_("lower"), "no change of delta or more": N_("no change of delta or more"), "undecided": N_("undecided")}
STATUSES = {"legal": N_("legal"), "illegal": N_("illegal"), "malformed": N_("malformed")}


def _said(words: dict[str, str], key: str) -> str:
    """An id of the data in the language in use: its word where it has one, else the id."""
    return _(words[key]) if key in words else key


def choice_names(data: dict) -> dict[str, str]:
    """Each choice the games tallied, by the game's name for it in the language in use (the
    game read once for them all); a report of a game this data folder does not hold keeps
    its words as they are."""
    from referee.errors import RefereeError
    from referee.games import load_game

    choices = {u["choice"] for side in data["sides"].values() for u in side["usage"]}
    try:
        game = load_game(data["game"])
    except RefereeError:
        return {choice: choice for choice in choices}
    return {choice: game.choice_name(choice) for choice in choices}


def _run(runner: str) -> str:
    return _(RUNS[runner]) if runner in RUNS else f"{runner} run"


def _colour(colour: str) -> str:
    return localized(colour_named(colour))


def _variants(side: dict) -> str:
    return ", ".join(side["variants"]) or _("the plain rules")


def _question(test: dict) -> str:
    """The sequential test's question (the JSON's `question`) in the language in use."""
    return _("does the variant change the first seat's chance of winning by {delta} or more?").format(delta=f"{test['delta']:.0%}")


def chart_library() -> str:
    return resources.files("referee.lab").joinpath("assets", "chart.umd.min.js").read_text(encoding="utf-8")


def _script_json(data) -> str:
    """JSON that is safe inside a <script> element: no '<' can close it early."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def html_page(data: dict) -> str:
    """The self-contained page: tables of every figure with its n, and charts of the seats'
    win rates with their intervals, the scores, the lengths and the choices made; its words in
    the language in use (the charts' from the `lab-words` element)."""
    data = page_data(data)
    e = html.escape
    named = choice_names(data)
    title = ngettext("referee lab: {game}, {players} player", "referee lab: {game}, {players} players", data["players"]).format(game=data["game"], players=data["players"])
    rotated = " " + _("(rotated through the seats)") if data["rotate"] else ""
    stopped = "; " + _("stopped early, the sequential test settled") if data["stopped_early"] else ""
    parts = [
        f"<!doctype html><html lang='{current()}'><head><meta charset='utf-8'><meta name='viewport' content='width=device-width,initial-scale=1'><title>{e(title)}</title>",
        "<style>body{font:15px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:70em;padding:0 1em;color:#222}"
        "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border-bottom:1px solid #ddd;padding:.2em .6em;text-align:right}"
        "th:first-child,td:first-child{text-align:left}.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(22em,1fr));gap:1em}"
        "canvas{max-height:22em}.note{color:#666}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        "<p>"
        + _page(
            _("Agents {agents}{rotated}; seed {seed}; {run} of {seconds}s{stopped}."),
            agents=e(", ".join(data["agents"])),
            rotated=_words(rotated),
            seed=e(str(data["seed"])),
            run=e(_run(data["runner"])),
            seconds=f"{data['seconds']:.1f}",
            stopped=_words(stopped),
        )
        + "</p>",
    ]
    for name, side in data["sides"].items():
        parts.append(f"<h2>{e(_said(SIDES, name))}: {e(_variants(side))}</h2>")
        parts.append(
            "<p>"
            + _page(
                ngettext("{finished} of {games} game finished; {unfinished} reached the move limit.", "{finished} of {games} games finished; {unfinished} reached the move limit.", side["games"]),
                finished=side["finished"],
                games=side["games"],
                unfinished=side["unfinished"],
            )
            + "</p>"
        )
        for error in side["errors"]:
            parts.append("<p class='note'>" + _page(_("game error: {error}"), error=e(localized(error))) + "</p>")
        parts.append(_header(_("seat"), "n", _("wins"), _("win rate"), _("95% interval"), _("score mean"), _("sd")))
        for s in side["seats"]:
            parts.append(
                f"<tr><td>{s['seat']} ({e(_colour(s['colour']))})</td><td>{s['n']}</td><td>{s['wins']}</td><td>{_pct(s['rate'])}</td><td>{_interval(s['ci'], True)}</td><td>{_num(s['score']['mean'])}</td><td>{_num(s['score']['sd'])}</td></tr>"
            )
        parts.append("</table>")
        if side["agents"]:
            parts.append(_header(_("agent"), _("n (seat-games)"), _("wins"), _("win rate"), _("95% interval")))
            for agent, r in side["agents"].items():
                parts.append(f"<tr><td>{e(agent)}</td><td>{r['n']}</td><td>{r['wins']}</td><td>{_pct(r['rate'])}</td><td>{_interval(r['ci'], True)}</td></tr>")
            parts.append("</table>")
        if side["seats"]:
            parts.append(_header(pgettext("lab table", "figure"), "n", _("mean"), _("sd"), _("least"), _("most"), _("95% interval of the mean")))
            for label, d in ((N_("moves"), side["length"]["moves"]), (N_("rounds"), side["length"]["rounds"]), (N_("margin of victory"), side["margin"]), (N_("lead changes"), side["lead_changes"])):
                parts.append(
                    f"<tr><td>{_words(_(label))}</td><td>{d['n']}</td><td>{_num(d.get('mean'))}</td><td>{_num(d.get('sd'))}</td><td>{d.get('min', '-')}</td><td>{d.get('max', '-')}</td><td>{_interval(d.get('ci'))}</td></tr>"
                )
            parts.append("</table>")
            parts.append(
                f"<div class='charts'><div><canvas id='wins-{e(name)}'></canvas></div><div><canvas id='scores-{e(name)}'></canvas></div><div><canvas id='length-{e(name)}'></canvas></div><div><canvas id='usage-{e(name)}'></canvas></div></div>"
            )
            parts.append(
                "<h3>" + _words(_("Choices")) + "</h3>" + _header(_("choice"), _("n (seat-games)"), _("per seat and game"), _("by winners"), _("by the others"), _("correlation with winning"))
            )
            for u in side["usage"]:
                parts.append(
                    f"<tr><td>{e(named[u['choice']])}</td><td>{u['n']}</td><td>{_num(u['per_game'], 2)}</td><td>{_num(u['by_winners'], 2)}</td><td>{_num(u['by_others'], 2)}</td><td>{_num(u['correlation'], 2)}</td></tr>"
                )
            parts.append("</table>")
        if side["relied_on"]:
            parts.append("<h3>" + _words(_("Uncertain spec values the games relied on")) + "</h3>" + _header(_("file:key"), _("games")))
            for r in side["relied_on"]:
                parts.append(f"<tr><td>{e(r['address'])}</td><td>" + _page(_("{games} of {of}"), games=r["games"], of=r["of"]) + "</td></tr>")
            parts.append("</table>")
    comparison = data.get("comparison")
    if comparison:
        pairs = ngettext("{pairs} pair of games on the same seeds.", "{pairs} pairs of games on the same seeds.", comparison["pairs"])
        parts.append("<h2>" + _words(_("Variant less base")) + f"</h2><p>{_page(pairs, pairs=comparison['pairs'])}</p>")
        parts.append(_header(pgettext("lab table", "figure"), "n", _("mean difference"), _("95% interval")))
        for s in comparison["seats"]:
            for label, d, pct in ((_("seat {seat} win rate"), s["win_rate"], True), (_("seat {seat} score"), s["score"], False)):
                parts.append(f"<tr><td>{_page(label, seat=s['seat'])}</td><td>{d['n']}</td><td>{(_pct if pct else _num)(d.get('mean'))}</td><td>{_interval(d.get('ci'), pct)}</td></tr>")
        for label in ("moves", "rounds", "margin"):
            if label in comparison:
                d = comparison[label]
                parts.append(f"<tr><td>{_words(_said(COMPARED, label))}</td><td>{d['n']}</td><td>{_num(d.get('mean'))}</td><td>{_interval(d.get('ci'))}</td></tr>")
        parts.append("</table>")
        if "sprt" in comparison:
            t = comparison["sprt"]
            test = ngettext(
                "Sequential test: {question} {verdict} (n={n} pair where one side's first seat won, the variant's in {won}).",
                "Sequential test: {question} {verdict} (n={n} pairs where one side's first seat won, the variant's in {won}).",
                t["n"],
            )
            verdict = "<b>" + e(_said(VERDICTS, t["verdict"])) + "</b>"
            parts.append(f"<p>{_page(test, question=e(_question(t)), verdict=verdict, n=t['n'], won=t['variant_won'])}</p>")
    found = data.get("sensitivity")
    if found:
        told = ngettext(
            "Each value down and up by {spread} of itself (at least 1), {games} game a setting on the same seeds; ranked by the largest change of a seat's win rate, then of a seat's mean score.",
            "Each value down and up by {spread} of itself (at least 1), {games} games a setting on the same seeds; ranked by the largest change of a seat's win rate, then of a seat's mean score.",
            found["games"],
        )
        spread = f"{found['spread']:.0%}"
        parts.append("<h2>" + _words(_("Sensitivity to provisional values")) + f"</h2><p>{_page(told, spread=spread, games=found['games'])}</p>")
        parts.append(_header(_("file:key"), pgettext("lab table", "value"), _("low"), _("high"), _("n a setting"), _("win rate shift"), _("score shift")))
        for row in found["values"]:
            if "refused" in row:
                refused = _page(_("cannot be varied: {reason}"), reason=e(localized(row["refused"])))
                parts.append(f"<tr><td>{e(row['address'])}</td><td>{e(_short(row['value']))}</td><td colspan='5'>{refused}</td></tr>")
            else:
                low, high = (row["low"], row["high"]) if row.get("plain") else (f"-{found['spread']:.0%}", f"+{found['spread']:.0%}")
                parts.append(
                    f"<tr><td>{e(row['address'])}</td><td>{e(_short(row['value']))}</td><td>{e(str(low))}</td><td>{e(str(high))}</td><td>{row['games']}</td><td>{_pct(row['win_rate_shift'])}</td><td>{_num(row['score_shift'])}</td></tr>"
                )
        parts.append("</table>")
    parts.append(f"<script type='application/json' id='lab-data'>{_script_json({k: v for k, v in data.items() if k != 'games'})}</script>")
    parts.append(f"<script type='application/json' id='lab-words'>{_script_json(chart_words(data))}</script>")
    parts.append(f"<script>{chart_library()}</script>")
    parts.append("<script>" + _CHARTS + "</script></body></html>")
    return "".join(parts)


COMPARED = {"moves": N_("moves"), "rounds": N_("rounds"), "margin": N_("margin")}


def _words(text: str) -> str:
    """Words of the page's own (a label, a heading) as HTML: the translation escaped."""
    return html.escape(text, quote=False)


def _page(template: str, **values) -> str:
    """A translated sentence of the page with its values, which the caller gives as HTML."""
    return _words(template).format(**values)


def _header(*labels: str) -> str:
    """A table's opening and its row of headings (in the language in use, or symbols such as n)."""
    return "<table><tr>" + "".join(f"<th>{_words(label)}</th>" for label in labels) + "</tr>"


def chart_words(data: dict) -> dict:
    """What the charts say, in the language in use: titles, series labels ({placeholders}
    filled in by the page's script) and the seats' colours by name."""
    colours = {s["colour"] for side in data["sides"].values() for s in side["seats"]}
    return {
        "seat": _("seat {seat} ({colour}), n={n}"),
        "interval": _("95% interval"),
        "win_rate": _("win rate %"),
        "wins_title": _("Win rate by seat (%)"),
        "mean_score": _("mean score"),
        "sd": _("sd"),
        "scores_title": _("Score by seat"),
        "games": _("games (n={n})"),
        "length_title": _("Game length in moves"),
        "correlation": _("correlation with winning (n={n} seat-games)"),
        "usage_title": _("Most chosen: correlation with winning"),
        "colours": {c: _colour(c) for c in sorted(colours)},
        "choices": choice_names(data),
    }


_CHARTS = r"""
(function(){
  var data = JSON.parse(document.getElementById('lab-data').textContent);
  var words = JSON.parse(document.getElementById('lab-words').textContent);
  function say(text, values){ return text.replace(/\{(\w+)\}/g, function(all, key){ return key in values ? String(values[key]) : all; }); }
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
    var seats = side.seats.map(function(s){ return say(words.seat, {seat: s.seat, colour: words.colours[s.colour] || s.colour, n: s.n}); });
    new Chart(document.getElementById('wins-' + name), {type:'bar', data:{labels:seats, datasets:[
      {label:words.interval, data:side.seats.map(function(s){ return [100*s.ci[0], 100*s.ci[1]]; }), backgroundColor:'rgba(70,110,200,.35)'},
      {label:words.win_rate, type:'line', showLine:false, pointRadius:6, data:side.seats.map(function(s){ return 100*s.rate; }), backgroundColor:'#234'}]},
      options:{plugins:{title:{display:true, text:words.wins_title}}, scales:{y:{min:0, max:100}}}});
    new Chart(document.getElementById('scores-' + name), {type:'bar', data:{labels:seats, datasets:[
      {label:words.mean_score, data:side.seats.map(function(s){ return s.score.mean; }), backgroundColor:'rgba(200,120,60,.6)'},
      {label:words.sd, data:side.seats.map(function(s){ return s.score.sd; }), backgroundColor:'rgba(120,120,120,.4)'}]},
      options:{plugins:{title:{display:true, text:words.scores_title}}}});
    var games = (data.game_lengths || {})[name] || [];
    var h = histogram(games, 15);
    new Chart(document.getElementById('length-' + name), {type:'bar', data:{labels:h.labels, datasets:[
      {label:say(words.games, {n: games.length}), data:h.counts, backgroundColor:'rgba(60,160,110,.6)'}]},
      options:{plugins:{title:{display:true, text:words.length_title}}}});
    var usage = side.usage.filter(function(u){ return u.correlation !== null; }).slice(0, 15);
    new Chart(document.getElementById('usage-' + name), {type:'bar', data:{labels:usage.map(function(u){ return words.choices[u.choice] || u.choice; }), datasets:[
      {label:say(words.correlation, {n: usage.length ? usage[0].n : 0}), data:usage.map(function(u){ return u.correlation; }), backgroundColor:'rgba(150,80,170,.6)'}]},
      options:{indexAxis:'y', plugins:{title:{display:true, text:words.usage_title}}, scales:{x:{min:-1, max:1}}}});
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

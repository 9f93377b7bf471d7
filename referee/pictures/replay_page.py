"""`referee replay`: a record as one self-contained HTML page to step through.

The page holds everything it shows: the picture of every position (SVG drawn here, by the
game's picture module), the record's moves each told in a sentence (the game's sentences
module), the diagnostics at their lines, and charts of the score and the money by round
(`svg.line_chart`). Its style and its small script ship with the package (`assets/`) and are
written into the page, so it opens from disk with no network.

A long game has hundreds of positions, and most of a picture stays the same from one move to
the next: each picture is kept as its top-level groups, each distinct group is stored once,
and a position is the list of the groups it is made of. A full game's page stays well under a
megabyte.
"""

from __future__ import annotations

import copy
import html
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from referee.drawing import svg
from referee.engine.findings import Report
from referee.engine.positions import lines_before
from referee.engine.replay import check_bytes
from referee.games.base import State, quietly, situation_line
from referee.i18n import N_, _, current, localized, ngettext
from referee.notation.parser import Move
from referee.pictures.position import draw_position
from referee.report.diagnostics import MAX_SHOWN, SEVERITIES, rule_link
from referee.terminal import visible


@dataclass
class Entry:
    """A line of the move list: a move (with the position after it) or a line with a diagnostic."""

    line: int | None
    text: str  # the record's line as written
    sentence: str
    position: int  # index of the position shown with it
    number: int | None = None  # the move's number, for moves
    problems: list[dict] = field(default_factory=list)


@dataclass
class Chart:
    """The figures a replay charts, at the start, after each round and at the end."""

    labels: list[str] = field(default_factory=list)  # "start", "1", "2", ..., "end"
    figures: list[dict[str, dict[str, int]]] = field(default_factory=list)  # per label: figure -> colour -> value
    round_of_position: list[int] = field(default_factory=list)  # per position: its label's index


class Pages:
    """The positions, their pictures as shared parts, the move list and the chart, as a replay goes."""

    def __init__(self, name: str):
        self.name = name
        self.parts: dict[str, int] = {}
        self.positions: list[dict] = []
        self.entries: list[Entry] = []
        self.chart = Chart()
        self.before: State | None = None
        self.round: int | None = None
        self.state: State | None = None

    def picture(self, state: State, caption: str) -> int:
        with quietly(state):
            drawing = draw_position(state, caption)  # the last position says how the game ended
            situation = situation_line(state.situation())
        opening, parts = drawing.parts()
        ids = [self._part(opening)] + [self._part(p) for p in parts]
        self.positions.append({"parts": ids, "situation": visible(situation), "round": len(self.chart.labels) - 1})
        return len(self.positions) - 1

    def _part(self, text: str) -> int:
        return self.parts.setdefault(text, len(self.parts))

    def __call__(self, event: str, move: Move | None, state: State) -> None:
        self.state = state
        if event == "start":
            self._sample(state, "start")
            self.round = state.situation().round
            self.entries.append(Entry(None, "", _("the game is set up"), self.picture(state, _("the start"))))
        elif event == "move":
            moves = sum(1 for e in self.entries if e.number is not None) + 1
            with quietly(state), quietly(self.before):
                sentence = _cut(state.game.describe_move(self.before, move, state))
                round_now = state.situation().round
            if round_now != self.round and self.round is not None:
                self._sample(state, str(self.round))
            self.round = round_now
            line = move.pos.line if move.pos else None
            where = _("after move {n} (line {line})") if line else _("after move {n}")
            position = self.picture(state, where.format(n=moves, line=line))
            self.entries.append(Entry(line, "", sentence, position, moves))
        else:
            self._end(state)
            return
        self.before = _copy(state)

    def _end(self, state: State) -> None:
        """The record is over: what the rules settle without a move (the fires left in the pile,
        say) becomes a last entry when it changes the picture."""
        self._sample(state, "end")
        if self.positions:  # the last position shown stands at the chart's end
            self.positions[-1]["round"] = len(self.chart.labels) - 1
        if not state.is_over() or self.before is None:
            return
        with quietly(state), quietly(self.before):
            changed = state.describe() != self.before.describe()
        if changed:
            position = self.picture(state, _("the end of the record"))
            self.entries.append(Entry(None, "", _("the record ends; the rules settle what needs no move"), position))

    def _sample(self, state: State, label: str) -> None:
        with quietly(state):
            figures = state.game.chart_figures(state)
        self.chart.labels.append(label)
        self.chart.figures.append(figures)


def _copy(state: State) -> State:
    """A copy of a state to tell the next move by; the game, its spec and the trace are shared."""
    memo = {id(state.game): state.game, id(state.trace): state.trace}
    spec = getattr(state, "spec", None)
    if spec is not None:
        memo[id(spec)] = spec
    return copy.deepcopy(state, memo)


def build(data: bytes, name: str, variants: list[str]) -> tuple[str | None, Report]:
    """The replay page of a record (None when nothing of it can be replayed), and its check."""
    pages = Pages(name)
    report = check_bytes(data, name, variants, watch=pages)
    if report.record is None and report.status == "malformed":
        first = min((d.pos.line for d in report.errors if d.pos), default=None)
        if first is not None and first > 1:
            pages = Pages(name)
            readable = check_bytes(lines_before(report.source, first), name, variants, stop_line=first - 1, watch=pages)
            if readable.state is None:
                return None, report
    if not pages.positions:
        return None, report
    _place_problems(pages, report)
    return render(pages, report), report


# What would end a script element or change how its text is read: "</" closes it, and "<!--"
# followed by "<script" puts the parser in a state where the element's own "</script>" no
# longer closes it (HTML's script data escaped states). In JSON these only occur in strings,
# where "\u003c" stands for the same "<".
SCRIPT_BREAKS = re.compile(r"<(?=/|!--|script)", re.IGNORECASE)


MAX_TEXT = 300  # characters of a record line or a name on the page (a line may hold 10,000)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def script_safe(payload: str) -> str:
    """JSON text that a <script type="application/json"> element holds as it is."""
    return SCRIPT_BREAKS.sub(r"\\u003c", payload)


def _place_problems(pages: Pages, report: Report) -> None:
    """Each diagnostic goes to the entry of its line; a line that is no move gets its own entry."""
    lines = report.record.lines if report.record is not None else report.source.split("\n")
    for entry in pages.entries:
        if entry.line:
            entry.text = _cut(visible(lines[entry.line - 1].strip()))
    placed = [d for d in report.diagnostics if d.severity in ("error", "warning") and d.pos is not None]
    more = max(0, len(placed) - MAX_SHOWN)  # the page is bounded as the report is
    entry = None
    for d in placed[:MAX_SHOWN]:
        label = _(SEVERITIES.get(d.severity, d.severity))
        problem = {"severity": d.severity, "label": label, "message": visible(localized(d.message)), "rule": d.rule, "see": rule_link(d.rule, current()) if d.rule else None, "column": d.pos.column}
        entry = next((e for e in pages.entries if e.line == d.pos.line), None)
        if entry is None:
            earlier = [e for e in pages.entries if (e.line or 0) <= d.pos.line]
            position = earlier[-1].position if earlier else 0
            entry = Entry(d.pos.line, _cut(visible(lines[d.pos.line - 1].strip())) if d.pos.line <= len(lines) else "", "", position)
            pages.entries.insert(len(earlier), entry)
        entry.problems.append(problem)
    if more and entry is not None:
        message = ngettext(
            "... and {n} more problem, not shown here (referee check --keep-going lists them)", "... and {n} more problems, not shown here (referee check --keep-going lists them)", more
        ).format(n=more)
        entry.problems.append({"severity": "warning", "label": _(SEVERITIES["warning"]), "message": message, "rule": None, "see": None, "column": 1})


# --- the page ---------------------------------------------------------------------------


ROUND_WORDS = {"start": N_("start"), "end": N_("end")}  # the chart's first and last points; the others are round numbers


def _asset(name: str) -> str:
    return resources.files("referee.pictures").joinpath("assets", name).read_text(encoding="utf-8")


def charts(pages: Pages, colours: list[tuple[str, str]]) -> list[tuple[str, list[float]]]:
    """The chart of each figure (the score first, then money) and the x of each round on it."""
    chart = pages.chart
    out = []
    if not chart.figures:
        return out
    for figure in chart.figures[0]:
        series = [svg.Series(label, colour, [sample.get(figure, {}).get(colour) for sample in chart.figures]) for colour, label in colours]
        labels = [_(ROUND_WORDS[label]) if label in ROUND_WORDS else label for label in chart.labels]
        drawing = svg.line_chart(_("{figure} by round").format(figure=figure), labels, series, _("round"))
        out.append((drawing.tostring(), drawing.xs))
    return out


def render(pages: Pages, report: Report) -> str:
    state = pages.state
    game = state.game
    title = game.spec.name(game.spec.meta, current(), game.name)
    seats = [(s.colour, _cut(visible(s.shown))) for s in state.seats]
    drawn = charts(pages, seats)
    verdict = {"legal": _("the record is legal"), "illegal": _("the record breaks a rule"), "malformed": _("the record cannot be read whole")}.get(report.status, report.status)
    done = _("the game is complete") if report.complete else _("the game is not finished")
    moves = _("{n} moves").format(n=report.moves)
    step = _("Step with ← and →, or pick a move.")
    data = {
        "parts": list(pages.parts),
        "positions": pages.positions,
        "entries": [{"line": e.line, "number": e.number, "head": _head(e), "text": e.text, "sentence": e.sentence, "position": e.position, "problems": e.problems} for e in pages.entries],
        "chartX": [xs for _, xs in drawn],
    }
    payload = script_safe(json.dumps(data, ensure_ascii=False))
    first = pages.positions[0]
    parts = list(pages.parts)
    picture = parts[first["parts"][0]] + "".join(parts[i] for i in first["parts"][1:]) + "</svg>"
    items = "\n".join(_item(i, e) for i, e in enumerate(pages.entries))
    name = html.escape(visible(Path(report.name).name))
    words = {key: html.escape(text) for key, text in (("start", _("the game is set up")), ("previous", _("previous move")), ("next", _("next move")), ("moves", _("Moves")), ("rounds", _("By round")))}
    page = [
        "<!DOCTYPE html>",
        f'<html lang="{current()}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}: {name}</title>",
        f"<style>{_asset('replay.css')}</style>",
        "</head>",
        "<body>",
        f'<header><h1>{html.escape(title)}: {name}</h1><p class="verdict verdict-{report.status}">{moves}; {verdict}; {done}. {step}</p></header>',
        '<main class="replay">',
        '<section class="board" aria-live="polite">',
        f'<p class="caption" id="caption">{words["start"]}</p>',
        f'<div class="picture" id="picture">{picture}</div>',
        f'<p class="situation" id="situation">{html.escape(first["situation"])}</p>',
        f'<nav class="steps"><button type="button" id="prev" aria-label="{words["previous"]}">←</button>'
        f'<span id="counter"></span><button type="button" id="next" aria-label="{words["next"]}">→</button></nav>',
        "</section>",
        f'<aside class="moves"><h2>{words["moves"]}</h2><ol id="moves">{items}</ol></aside>',
        "</main>",
        f'<section class="charts" id="charts"><h2>{words["rounds"]}</h2>' + "".join(f'<div class="chart">{chart}</div>' for chart, _ in drawn) + "</section>",
        f'<script type="application/json" id="replay-data">{payload}</script>',
        f"<script>{_asset('replay.js')}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(page) + "\n"


def _head(entry: Entry) -> str:
    """What the caption says an entry is: "Move 3 (line 12)", "Line 14"."""
    if entry.number and entry.line:
        return _("Move {n} (line {line})").format(n=entry.number, line=entry.line)
    if entry.number:
        return _("Move {n}").format(n=entry.number)
    return _("Line {line}").format(line=entry.line) if entry.line else ""


def _item(index: int, entry: Entry) -> str:
    """One entry of the move list, readable without the script."""
    line = html.escape(_("line {n}").format(n=entry.line))
    where = f'<span class="line">{line}</span> ' if entry.line else ""
    number = f'<span class="number">{entry.number}.</span> ' if entry.number else ""
    text = f"<code>{html.escape(entry.text)}</code>" if entry.text else ""
    sentence = f'<span class="sentence">{html.escape(entry.sentence)}</span>' if entry.sentence else ""
    problems = "".join(_problem(p) for p in entry.problems)
    cls = "entry" + (" has-error" if any(p["severity"] == "error" for p in entry.problems) else "")
    return f'<li class="{cls}" data-index="{index}" tabindex="-1">{number}{where}{text}{sentence}{problems}</li>'


def _problem(problem: dict) -> str:
    rule = f"[{html.escape(problem['rule'])}]" if problem["rule"] else ""
    the_rule = html.escape(_("the rule"))
    see = f' <a href="{html.escape(problem["see"])}">{the_rule}</a>' if problem["see"] else ""
    severity = html.escape(problem.get("label") or problem["severity"])
    return f'<span class="problem {problem["severity"]}">{severity}{rule}: {html.escape(problem["message"])}{see}</span>'

"""What a replay found, and how it is shown: the text a person reads and the JSON a program does.

The engine fills a `Report` (referee.engine.findings, which also ranks the standings;
both are importable from here too); this module renders the report. Diagnostics look like a compiler's, with the record's line quoted and the spot
marked, and a `see:` link to the rule's heading on the rulebook site.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from referee.engine.findings import Diagnostic, Report, rank
from referee.errors import Pos, Status
from referee.games.base import Standing
from referee.i18n import N_, Message, _, current, localized, ngettext
from referee.notation.colours import colour_named
from referee.spec.loader import Provenance, data_root
from referee.terminal import quote, shorten, visible

# The output of one record is bounded whatever the record holds: a record of 128 KB can
# contradict thousands of figures, each on a line of 10,000 characters.
MAX_SHOWN = 200  # diagnostics shown per record; the others are counted ("... and N more")
MAX_MESSAGE = 600  # characters of a diagnostic's message (a message may quote the record)


VERDICTS = {
    "legal": N_("legal"),
    "illegal": N_("ILLEGAL"),
    "malformed": N_("MALFORMED record"),
    "invalid-spec": N_("INVALID spec data"),
    "internal-error": N_("INTERNAL ERROR"),
}
SEVERITIES = {"error": N_("error"), "warning": N_("warning"), "note": N_("note")}

VERDICT_ORDER = tuple(Status)  # the worst last


def docs_base() -> str:
    """Where the rulebook site is: $REFEREE_DOCS_URL, else the `site/` that `mkdocs build` writes."""
    base = os.environ.get("REFEREE_DOCS_URL")
    if base:
        return base.rstrip("/")
    return (Path(data_root()) / "site").as_uri()


def rule_link(rule: str, lang: str = "en") -> str:
    """The rule's heading on its game's rules page (mkdocs.yml builds plain file names, one
    site per language: speicherstadt/rules.html, and hu/speicherstadt/rules.html with the same
    anchors). Text for people links to the page in their language; JSON keeps the English
    page, the same in every language."""
    game, _slash, anchor = rule.partition("/")
    site = docs_base() if lang == "en" else f"{docs_base()}/{lang}"
    return f"{site}/{game}/rules.html#{anchor}"


def format_diagnostic(report: Report, d: Diagnostic) -> str:
    """A diagnostic as a compiler writes one, every line shown visibly (see terminal.visible)."""
    message = shorten(localized(d.message), MAX_MESSAGE)
    severity = _(SEVERITIES.get(d.severity, d.severity))
    if d.file:
        return visible(f"{d.file}: {severity}: {message}")
    pos = d.pos or Pos(1, 1)
    tag = f"{severity}[{d.rule}]" if d.rule else severity
    out = [f"{report.name}:{pos.line}:{pos.column}: {tag}: {message}"]
    if report.record is not None or d.pos is not None:
        source = report.record.line(pos.line) if report.record else _line_of(report.source, pos.line)
        if source.strip() and pos.column <= len(source) + 1:
            gutter = f"{pos.line:>5}"
            # a rule violation spans its move; a reading error marks where reading stopped
            rest = len(source) + 1 if d.rule else pos.column + 1
            shown, marker = quote(source, pos.column, pos.end_column or rest)
            out.append(f"{gutter} | {shown}")
            out.append(f"{' ' * len(gutter)} | {marker}")
    if d.repair:
        out.append(_("repair: {repair}").format(repair=shorten(localized(d.repair), MAX_MESSAGE)))
    out.extend(_("note: {note}").format(note=localized(n) if isinstance(n, Message) else _(n)) for n in d.notes)
    if d.follows is not None:
        out.append(_("note: this may follow from the problem on line {line}").format(line=d.follows))
    if d.figure and d.ledger:
        owner, figure = d.figure
        if d.rule and d.rule.endswith("/result"):
            out.append(_("the last changes of {owner} {figure} (referee explain shows them all):").format(owner=owner, figure=figure))
        else:
            out.append(_("the last changes of {owner} {figure} up to line {line} (referee explain shows them all):").format(owner=owner, figure=figure, line=pos.line))
        from referee.engine.ledger import change_line  # only a contradicted figure has changes to show

        out.extend(change_line(c) for c in d.ledger)
    if d.rule:
        out.append(_("see: {link}").format(link=rule_link(d.rule, current())))
    return "\n".join(visible(line) for line in out)


def shown_diagnostics(report: Report, severity: str | None = None) -> tuple[list[Diagnostic], int]:
    """The diagnostics (of one severity) that a report shows, and how many more it only counts."""
    found = [d for d in report.diagnostics if severity is None or d.severity == severity]
    return found[:MAX_SHOWN], max(0, len(found) - MAX_SHOWN)


def format_errors(report: Report) -> list[str]:
    """The record's errors as `check` shows them, at most MAX_SHOWN of them and a count of the
    rest: what `show`, `moves`, `draw`, `replay` and `record` say before their own output."""
    errors, more = shown_diagnostics(report, "error")
    shown = [format_diagnostic(report, d) for d in errors]
    if more:
        shown.append(visible(_("{file}: ... and {n} more errors").format(file=report.name, n=more)))
    return shown


def unread_json(name: str, message: str, exit_code: int, status: str = "usage") -> dict:
    """The JSON entry of a file that was not checked (unreadable, or its worker died): the
    keys of a report, with the reason as its one diagnostic."""
    return {
        "file": name,
        "status": status,
        "exit_code": exit_code,
        "message": message,
        "diagnostics": [{"severity": "error", "rule": None, "message": message, "line": None, "column": None, "end_column": None, "spec": None, "see": None}],
    }


def _line_of(text: str, number: int) -> str:
    lines = text.split("\n", number)
    return lines[number - 1] if 0 < number <= len(lines) else ""


def final_lines(state) -> list[str]:
    """An ended game's final standings, winner and tie-break in a few lines, for a picture
    or a page of its last position (`check` prints the same figures)."""
    standings = rank(state.standings())
    lines = [_("final standings")]
    for s in standings:
        parts = ", ".join(f"{localized(k)} {v}" for k, v in s.breakdown.items() if v)
        points = ngettext("{n} point", "{n} points", s.total).format(n=s.total)
        lines.append(f"{s.rank}. {s.seat.shown}: {points}" + (f" ({parts})" if parts else ""))
    winners = [s.seat.shown for s in standings if s.rank == 1]
    lines.append(_("winner: {players}").format(players=_(" and ").join(winners)))
    note = tie_note_of(standings)
    if note:
        lines.append(note)
    return lines


def format_standings(report: Report) -> list[str]:
    out = []
    for s in report.standings:
        parts = ", ".join(f"{localized(k)} {v}" for k, v in s.breakdown.items() if v)
        ties = ", ".join(f"{localized(label)} {value}" for label, value, _sign in s.tiebreak)
        points = ngettext("{n} point", "{n} points", s.total).format(n=f"{s.total:>4}")
        parts = parts or _("no points")
        out.append(visible(f"  {s.rank}. {s.seat.shown:<18} {points}   {parts}" + (f"   [{ties}]" if ties else "")))
    return out


def tie_note(report: Report) -> str | None:
    """Say how a tie on points was broken, when one was."""
    return tie_note_of(report.standings)


def tie_note_of(standings: list[Standing]) -> str | None:
    """`tie_note` for standings ranked by `rank`."""
    if not standings:
        return None
    top = standings[0].total
    tied = [s for s in standings if s.total == top]
    if len(tied) < 2:
        return None
    labels = [localized(label) for label, _value, _sign in tied[0].tiebreak]
    winners = [s for s in tied if s.rank == 1]
    names = ", ".join(_colour(s.seat) for s in tied)
    if len(winners) == len(tied):
        return _("tie-break: {players} tied on {points} points and on {tiebreaks}; they share the win").format(players=names, points=top, tiebreaks=", ".join(labels) or _("every tie-break"))
    detail = "; ".join(f"{_colour(s.seat)} " + ", ".join(f"{localized(l)} {v}" for l, v, _sign in s.tiebreak) for s in tied)
    return _("tie-break: {players} tied on {points} points; decided by {tiebreaks} ({detail})").format(players=names, points=top, tiebreaks=", ".join(labels), detail=detail)


def _colour(seat) -> str:
    """A seat's colour alone, in the language in use (a tie-break names the tied by colour)."""
    return colour_named(seat.colour).translated()


def format_report(report: Report, details: bool = False, quiet: bool = False) -> str:
    """The report as a person reads it, every line shown visibly, at most MAX_SHOWN diagnostics
    of a kind; `details` adds each uncertain value's note. `quiet` (check -q) keeps only each
    diagnostic's heading and link and the verdict line, chosen by what they are, never by how
    their text looks (a file name may begin with spaces or end with a colon)."""
    out = []
    errors, more = shown_diagnostics(report, "error")
    for d in errors:
        shown = format_diagnostic(report, d)
        if quiet:
            heading, *rest = shown.split("\n")
            shown = "\n".join([heading] + [line for line in rest if line.startswith("see: ")])
        out.append(shown)
    if more:
        out.append(_("{file}: ... and {n} more errors").format(file=visible(report.name), n=more))
    verdicts = {status: _(word) for status, word in VERDICTS.items()}
    if report.status in ("malformed", "invalid-spec", "internal-error") and not (report.replayed and report.status == "malformed"):
        out.append(visible(f"{report.name}: {verdicts[report.status]}"))
        return "\n".join(out)
    progress = _("game complete") if report.complete else _("game unfinished")
    variants = _(", variants: {variants}").format(variants=", ".join(report.variants)) if report.variants else ""
    moves = _("{n} moves").format(n=report.moves)
    confirmed = _("{n} recorded figures confirmed").format(n=report.checkpoints_confirmed)
    resting = ngettext("resting on {n} ruling of the table", "resting on {n} rulings of the table", len(report.rulings)).format(n=len(report.rulings)) if report.rulings else ""
    out.append(visible(f"{report.name}: {verdicts[report.status]} ({report.game}{variants}; {moves}, {progress}; {confirmed}{f'; {resting}' if resting else ''})"))
    if quiet:
        return "\n".join(out)
    out.extend(visible(line) for line in format_rulings(report))
    if report.status != "legal" and not report.complete and not report.replayed:
        out.append((_("standings when the replay stopped ({resting}):") if resting else _("standings when the replay stopped:")).format(resting=resting))
    elif report.complete:
        out.append((_("final standings ({resting}):") if resting else _("final standings:")).format(resting=resting))
    else:
        out.append((_("standings so far (the record stops before the game ends; {resting}):") if resting else _("standings so far (the record stops before the game ends):")).format(resting=resting))
    out.extend(format_standings(report))
    if report.complete and report.status == "legal":
        names = _(" and ").join(s.shown for s in report.winners)
        out.append(visible(_("winner: {players}").format(players=names)))
        note = tie_note(report)
        if note:
            out.append(visible(note))
    warnings, more = shown_diagnostics(report, "warning")
    if warnings:
        out.append(_("rules not checked for missing data:"))
        for d in warnings:
            warning = _("warning")
            out.append(visible(f"  {warning}[{d.rule}]: {shorten(localized(d.message), MAX_MESSAGE)}"))
        if more:
            out.append(_("  ... and {n} more warnings").format(n=more))
    if report.relied_on:
        out.extend(visible(line) for line in format_relied_on(report.relied_on, details))
    if report.record_facts:
        out.append(_("facts taken from the record rather than the spec ({n}):").format(n=len(report.record_facts)))
        summary: dict[str, int] = {}
        for text, _where in report.record_facts:
            summary[text] = summary.get(text, 0) + 1
        for text, count in list(summary.items())[:MAX_SHOWN]:
            out.append(visible(f"  {count} x {shorten(localized(text), MAX_MESSAGE)}"))
        if len(summary) > MAX_SHOWN:
            out.append(_("  ... and {n} more kinds of fact").format(n=len(summary) - MAX_SHOWN))
    return "\n".join(out)


# The least certain first: what no source gives, then stand-ins, then readings.
STATUS_ORDER = ("unknown", "provisional", "guess", "likely")
STATUS_WORDS = {"unknown": N_("unknown"), "provisional": N_("provisional"), "guess": N_("guess"), "likely": N_("likely")}


def status_word(status: str) -> str:
    """How sure a spec value is (its provenance status), in the language in use."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def format_relied_on(relied_on: list[Provenance], details: bool = False) -> list[str]:
    """The uncertain spec values a verdict relied on: one line per spec file, its keys grouped
    by how sure they are; with `details`, one line per value with its value and note."""
    if details:
        out = [_("this verdict relies on uncertain spec values (check them against your box):")]
        for p in relied_on:
            shown = _("not known") if p.status == "unknown" else _short(p.value)
            out.append(f"  {status_word(p.status):<11} {p.address} = {shown}  ({p.note})")
        return out
    out = [_("this verdict relies on uncertain spec values (check them against your box; --details gives why each is uncertain):")]
    files: dict[str, dict[str, list[str]]] = {}
    for p in relied_on:
        files.setdefault(p.file, {}).setdefault(p.status, []).append(p.key)
    for stem, by_status in files.items():
        groups = [f"{status_word(status)} {', '.join(brace_keys(by_status[status]))}" for status in sorted(by_status, key=_status_rank)]
        out.append(f"  {stem}.yaml: {'; '.join(groups)}")
    return out


def brace_keys(keys: list[str]) -> list[str]:
    """Dotted keys that differ in one part written once, shell-style, to keep the line short:
    `types.fire.faces.0.points` to `.3.points` become `types.fire.faces.{0,1,2,3}.points`."""
    merged = [k.split(".") for k in keys]
    for depth in (1, 2, 3):  # the last part first, then the one before it, ...
        groups: dict[tuple, list[list[str]]] = {}
        for parts in merged:
            if len(parts) < depth:
                groups[(len(parts), tuple(parts))] = [parts]
                continue
            i = len(parts) - depth
            groups.setdefault((len(parts), tuple(parts[:i]), tuple(parts[i + 1 :])), []).append(parts)
        merged = []
        for group in groups.values():
            if len(group) == 1:
                merged.append(group[0])
                continue
            i = len(group[0]) - depth
            alternatives = [p[i].strip("{}") for p in group]
            merged.append(group[0][:i] + ["{" + ",".join(alternatives) + "}"] + group[0][i + 1 :])
    return [".".join(parts) for parts in merged]


def _status_rank(status: str) -> int:
    return STATUS_ORDER.index(status) if status in STATUS_ORDER else len(STATUS_ORDER)


def format_rulings(report: Report) -> list[str]:
    """Every ruling the referee honoured: its line, the move, the rules concerned, the table's words."""
    if not report.rulings:
        return []
    out = [_("rulings of the table ({n}):").format(n=len(report.rulings))]
    for r in report.rulings:
        move = report.record.line(r.move_line).strip() if report.record else ""
        if r.verdict == "accept":
            what = _("line {line}: accept line {move_line} ({move}), setting aside {rules}").format(line=r.line, move_line=r.move_line, move=move, rules=", ".join(r.rules))
        elif r.verdict == "adopt":
            what = _("line {line}: adopt the figures of line {move_line}: {figures}; the rest of the game is checked from them").format(line=r.line, move_line=r.move_line, figures=r.adopted)
        else:
            what = _("line {line}: void line {move_line} ({move}), which broke {rules}").format(line=r.line, move_line=r.move_line, move=move, rules=", ".join(r.rules))
        out.append("  " + visible(what + (f": {r.text}" if r.text else "")))
    return out


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def report_json(report: Report) -> dict:
    """The report for a program; like the text, at most MAX_SHOWN diagnostics of a kind, the
    number left out in `diagnostics_omitted`."""
    from referee.engine.ledger import change_json  # imported by the commands that write JSON only

    errors, more_errors = shown_diagnostics(report, "error")
    warnings, more_warnings = shown_diagnostics(report, "warning")
    shown = errors + warnings + [d for d in report.diagnostics if d.severity not in ("error", "warning")][:MAX_SHOWN]
    return {
        "file": report.name,
        "status": report.status,
        "exit_code": report.exit_code,
        "game": report.game,
        "variants": report.variants,
        "moves": report.moves,
        "complete": report.complete,
        "checkpoints_confirmed": report.checkpoints_confirmed,
        "diagnostics": [
            {
                "severity": d.severity,
                "rule": d.rule,
                "message": shorten(d.message, MAX_MESSAGE),
                "line": d.pos.line if d.pos else None,
                "column": d.pos.column if d.pos else None,
                "end_column": d.pos.end_column if d.pos else None,  # the marked span ends before it
                "spec": d.file,
                "see": rule_link(d.rule) if d.rule else None,
                "notes": d.notes,
                "follows_line": d.follows,
                "repair": d.repair,
                **({"figure": {"owner": d.figure[0], "key": d.figure[1]}, "ledger": [change_json(c) for c in d.ledger]} if d.figure else {}),
            }
            for d in shown
        ],
        "diagnostics_omitted": more_errors + more_warnings,
        "rulings": [{"line": r.line, "verdict": r.verdict, "move_line": r.move_line, "rules": r.rules, "text": r.text, **({"adopted": r.adopted} if r.adopted else {})} for r in report.rulings],
        "standings": [
            {
                "rank": s.rank,
                "player": s.seat.colour,
                "name": s.seat.name,
                "total": s.total,
                "breakdown": s.breakdown,
                "tiebreak": {label: value for label, value, _sign in s.tiebreak},
            }
            for s in report.standings
        ],
        "winners": [s.colour for s in report.winners],
        "relies_on": [{"address": p.address, "status": p.status, "value": p.value, "note": p.note} for p in report.relied_on],
        "record_facts": [{"fact": t, "line": p.line if p else None} for t, p in report.record_facts],
    }

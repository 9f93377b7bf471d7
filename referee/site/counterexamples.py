"""Every rule with the record that breaks it: the counter-examples of a game's rules page.

`specs/<game>/examples/counterexamples.yaml` gives, for each rule, the shortest line that breaks
it after a named record and the line that passes in its place, or the reason why no record can
break the rule under its own id. The site shows each with the diagnostic the referee prints for
it, produced at every build by replaying the record: a page cannot drift from what the referee
does, and a rule with neither a counter-example nor a reason fails the build. The tests read the
same file (tests/test_counterexamples.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.engine.findings import Report
from referee.engine.replay import check_bytes
from referee.i18n import _
from referee.report.diagnostics import format_diagnostic
from referee.site.markdown import DocsError, escape, fenced
from referee.spec.loader import Spec, read_yaml, validate_against_schema
from referee.terminal import visible

CONTEXT = 3  # lines of the record shown before the breaking one

FILE = "counterexamples.yaml"


@dataclass
class Counterexample:
    """A rule's shortest breaking record: `before` (the record it continues), then `breaks`."""

    rule: str
    before: str  # the record up to the breaking line, ending in a newline
    shown_from: int  # the first line of `before` that is not the named record's (context to show)
    breaks: str
    fix: str | None  # the line that passes in place of `breaks`; None: the line is left out
    variants: tuple[str, ...]  # overlay files the record is checked with
    after: str  # the named record it continues
    unreadable: bool = False  # the referee cannot read the line: a malformed record, no rule id

    @property
    def name(self) -> str:
        """The record's file name on the site and in its diagnostic."""
        return self.rule.split("/", 1)[1] + ".log"

    @property
    def text(self) -> str:
        return self.before + self.breaks + "\n"

    @property
    def fixed(self) -> str:
        return self.before + (self.fix + "\n" if self.fix is not None else "")

    @property
    def line(self) -> int:
        """The breaking line's number in the record."""
        return self.before.count("\n") + 1


@dataclass
class Judged:
    """A counter-example as the referee judged it at this build."""

    example: Counterexample
    diagnostic: str  # as `referee check` prints it, without its `see:` link (the page is the link)


@dataclass
class Counterexamples:
    by_rule: dict[str, Counterexample]
    reasons: dict[str, str]  # rule id -> why no record breaks it
    path: Path


def path_of(spec: Spec) -> Path:
    return spec.directory / "examples" / FILE


def _load(path: str, root: str, game: str) -> Counterexamples:
    where = Path(path)
    if not where.is_file():
        raise DocsError(path, "", "every game needs its counter-examples (one per rule, or the reason why none can be written)")
    data = read_yaml(where)
    validate_against_schema(data, "counterexamples", where, Path(root))
    if data["game"] != game:
        raise DocsError(path, "game", f"counter-examples for {data['game']!r}, not {game!r}")
    examples = where.parent
    records: dict[str, str] = {}
    for name, record in data["records"].items():
        if isinstance(record, str):
            records[name] = record if record.endswith("\n") else record + "\n"
            continue
        source = examples / record["example"]
        if not source.is_file():
            raise DocsError(path, f"records.{name}.example", f"no example record {record['example']}")
        lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
        records[name] = "".join(lines[: record.get("lines", len(lines))])
    by_rule: dict[str, Counterexample] = {}
    for i, item in enumerate(data["counterexamples"]):
        where_key = f"counterexamples.{i}"
        if item["after"] not in records:
            raise DocsError(path, f"{where_key}.after", f"no record {item['after']!r} under records")
        if item["rule"] in by_rule:
            raise DocsError(path, f"{where_key}.rule", f"{item['rule']} has a counter-example already")
        base, then = records[item["after"]], item.get("then", "")
        if then and not then.endswith("\n"):
            then += "\n"
        by_rule[item["rule"]] = Counterexample(
            rule=item["rule"],
            before=base + then,
            shown_from=base.count("\n") + 1,
            breaks=item["breaks"],
            fix=item["fix"],
            variants=tuple(str(examples / v) for v in item.get("variants", ())),
            after=item["after"],
            unreadable=item.get("unreadable", False),
        )
    reasons: dict[str, str] = {}
    for i, group in enumerate(data.get("reasons", [])):
        for rule in group["rules"]:
            if rule in by_rule or rule in reasons:
                raise DocsError(path, f"reasons.{i}", f"{rule} has a counter-example or a reason already")
            reasons[rule] = group["reason"].strip()
    return Counterexamples(by_rule, reasons, where)


def load(spec: Spec) -> Counterexamples:
    """A game's counter-examples, checked against its rules: each rule has exactly one
    counter-example or reason, and each names a rule of rules.yaml."""
    found = _load(str(path_of(spec)), str(spec.directory.parent), spec.game)
    named = set(found.by_rule) | set(found.reasons)
    unknown = sorted(named - set(spec.rules))
    if unknown:
        raise DocsError(str(found.path), unknown[0], f"{unknown[0]} is not a rule of {spec.game}'s rules.yaml")
    missing = sorted(set(spec.rules) - named)
    if missing:
        raise DocsError(str(found.path), missing[0], f"{missing[0]} has neither a counter-example nor a reason why none can be written")
    return found


def check(example: Counterexample) -> Report:
    return check_bytes(example.text.encode("utf-8"), example.name, list(example.variants))


def judge(example: Counterexample, path: str = FILE) -> Judged:
    """Replay a counter-example and its corrected record: the first must break its rule on
    its breaking line and nothing before it, the second must pass."""
    report = check(example)
    errors = report.errors
    expected = None if example.unreadable else example.rule
    if not errors or errors[0].rule != expected or errors[0].pos is None or errors[0].pos.line != example.line:
        got = f"{errors[0].rule or 'a reading error'} on line {errors[0].pos.line if errors[0].pos else '?'}" if errors else "no error"
        want = "be unreadable" if example.unreadable else f"break {example.rule}"
        raise DocsError(path, example.rule, f"the counter-example should {want} on line {example.line}; the referee reports {got}")
    fixed = check_bytes(example.fixed.encode("utf-8"), example.name, list(example.variants), open_end=True)
    if fixed.errors:
        raise DocsError(path, example.rule, f"the corrected record is refused: {fixed.errors[0].rule}: {fixed.errors[0].message}")
    text = format_diagnostic(report, errors[0])
    return Judged(example, "\n".join(line for line in text.splitlines() if not line.startswith("see: ")))


# --- on the rules page ---------------------------------------------------------------------


def numbered(lines: list[str], first: int) -> list[str]:
    """Record lines with their numbers in the gutter, as a diagnostic quotes them."""
    return [f"{n:>5} | {visible(line)}".rstrip() for n, line in enumerate(lines, first)]


def snippet(example: Counterexample) -> list[str]:
    """The breaking line with the lines just before it; the header when the record is short."""
    before = example.before.splitlines()
    start = 0 if len(before) <= CONTEXT + 4 else len(before) - CONTEXT
    shown = numbered(before[start:], start + 1) + numbered([example.breaks], example.line)
    return (["      | " + _("… lines 1 to {n} of the record").format(n=start)] if start else []) + shown


def section(judged: Judged, overlays: dict[str, str]) -> list[str]:
    """The Markdown under a rule: the record that breaks it, what the referee says, the fix."""
    example = judged.example
    record = f"counterexamples/{example.name}"
    out = ['!!! failure "A record that breaks it"', ""]
    body = [f"The last lines of [{example.name}]({record}):", "", *fenced("\n".join(snippet(example)), "text"), ""]
    for path in example.variants:
        name = Path(path).name
        body += [f"Checked with the overlay `{escape(name)}`: {escape(overlays.get(path, ''))}", ""]
    says = "`referee check` cannot read it:" if example.unreadable else "`referee check` says:"
    body += [says, "", *fenced(judged.diagnostic, "text"), ""]
    if example.fix is None:
        body += ["The record passes with that line left out.", ""]
    else:
        fix = example.fix.splitlines() or [""]
        body += ["It passes with this line instead:" if len(fix) == 1 else "It passes with these lines instead:", "", *fenced("\n".join(numbered(fix, example.line)), "text"), ""]
    return out + ["    " + line if line else "" for line in body]


def reason_section(reason: str) -> list[str]:
    return ['!!! info "No record breaks it under its own id"', "", "    " + escape(reason), ""]


def files(spec: Spec) -> list[tuple[str, str]]:
    """The counter-examples as record files of the site, next to the rules page."""
    found = load(spec)
    return [(f"{spec.game}/counterexamples/{e.name}", e.text) for e in found.by_rule.values()]


def overlay_titles(found: Counterexamples) -> dict[str, str]:
    """What each overlay a counter-example uses is for: its title and description."""
    out = {}
    for example in found.by_rule.values():
        for path in example.variants:
            if path not in out:
                data = read_yaml(Path(path))
                if not isinstance(data, dict):
                    raise DocsError(path, "", "an overlay is a mapping")
                out[path] = " ".join(str(data.get(k, "")).strip() for k in ("title", "description") if data.get(k)).strip()
    return out

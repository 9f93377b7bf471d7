"""`referee rule ID`: one rule looked up without a browser, from the id a diagnostic names.

It prints what the rule's heading on the rules page shows: its title and text, where it comes
from, how the referee checks it, the record that breaks it with what `referee check` says
about it and the line that passes instead (or why no record can break it), and the link to the
page. The id may be written without its game when only one game has such a rule.
"""

from __future__ import annotations

import difflib
import textwrap

from referee.errors import UsageError
from referee.i18n import _, current, localized
from referee.report.diagnostics import rule_link
from referee.site import counterexamples
from referee.site.markdown import LANGS
from referee.site.rules import CHECKED
from referee.spec.loader import Rule, Spec, available_games, data_root, load_spec

WIDTH = 88  # columns of the wrapped rule text


def find_rule(text: str) -> tuple[Spec, Rule]:
    """The rule an id names: `game/name`, or `name` alone when one game has it."""
    wanted = text.strip().lower()
    specs = [load_spec(game) for game in available_games()]
    if "/" in wanted:
        game = wanted.split("/", 1)[0]
        matches = [(s, s.rules[wanted]) for s in specs if s.game == game and wanted in s.rules]
    else:
        matches = [(s, r) for s in specs for r in s.rules.values() if r.anchor == wanted]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise UsageError(_("{rule!r} is a rule of several games: {rules}; give the game too").format(rule=wanted, rules=", ".join(r.id for _spec, r in matches)))
    known = [rid for s in specs for rid in s.rules]
    close = difflib.get_close_matches(wanted, known + [rid.split("/", 1)[1] for rid in known], n=3, cutoff=0.6)
    if close:
        raise UsageError(_("no rule {rule!r}; did you mean {names}?").format(rule=wanted, names=", ".join(close)))
    raise UsageError(_("no rule {rule!r}; the rules pages list every id, and a diagnostic names one in error[...]").format(rule=wanted))


def wrapped(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(" ".join(text.split()), WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def describe(spec: Spec, rule: Rule, lang: str = "en") -> list[str]:
    """The lines `referee rule` prints for one rule."""
    out: list[str] = []
    words = rule.words(lang)
    if words is None:
        out += [_("note: this rule has no {lang} text yet; shown in English").format(lang=_(LANGS[lang])), ""]
        words = rule.title, rule.text
    title, text = words
    out += [f"{rule.id}: {title}", ""]
    out += wrapped(text)
    out += ["", _("source: {source}").format(source=rule.source) + " · " + _(CHECKED.get(rule.checked, rule.checked))]
    if rule.reading:
        heading = _("how we read it:") if current() == "en" else _("how we read it (in English only):")
        out += ["", heading, *wrapped(rule.reading, "  ")]
    out += worked_example(spec, rule)
    found = counterexamples.load(spec)
    if rule.id in found.by_rule:
        judged = counterexamples.judge(found.by_rule[rule.id], str(found.path))
        example = judged.example
        out += ["", _("a record that breaks it ({file}, its last lines):").format(file=example.name), *counterexamples.snippet(example)]
        if example.variants:
            out += ["  (" + _("checked with the overlay {overlays}").format(overlays=", ".join(v.rsplit("/", 1)[-1] for v in example.variants)) + ")"]
        out += ["", _("referee check cannot read it:") if example.unreadable else _("referee check says:"), *judged.diagnostic.splitlines()]
        if example.fix is None:
            out += ["", _("it passes with that line left out")]
        else:
            out += ["", _("it passes with this instead:"), *counterexamples.numbered(example.fix.splitlines() or [""], example.line)]
    elif rule.id in found.reasons:
        out += ["", _("no record breaks it under its own id:"), *wrapped(found.reasons[rule.id], "  ")]
    out += ["", _("see: {link}").format(link=rule_link(rule.id, current()))]
    return out


def worked_example(spec: Spec, rule: Rule) -> list[str]:
    """The rulebook's worked example the rules page draws under the rule, with its figures as
    the referee confirms them now."""
    from referee.engine.replay import check_bytes
    from referee.site.replays import illustrations, overlays
    from referee.site.tables import GamePages

    doc = GamePages(spec, data_root())
    picture = illustrations(doc).get(rule.id)
    if picture is None:
        return []
    path = spec.directory / "examples" / picture.record
    text = path.read_text(encoding="utf-8")
    report = check_bytes(text.encode("utf-8"), path.name, overlays(doc, picture))
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.startswith(("check ", "result "))]
    if report.status == "legal" and not report.errors:
        confirmed = _("the figures it records, confirmed by the referee:")
    else:
        why = localized(report.errors[0].message) if report.errors else report.status
        confirmed = _("the figures it records, not confirmed by the referee: {why}").format(why=why)
    out = ["", _("worked example: {path}").format(path=path), *wrapped(picture.caption, "  ")]
    if picture.variants:
        out += ["  " + _("checked with the overlay {overlays}").format(overlays=", ".join(picture.variants))]
    out += ["  " + confirmed]
    return out + [f"{n:>5} | {line}" for n, line in lines]


def run(rule_id: str, lang: str = "en") -> list[str]:
    if lang not in LANGS:
        raise UsageError(_("no language {lang!r}; choose {langs}").format(lang=lang, langs=", ".join(LANGS)))
    spec, rule = find_rule(rule_id)
    return describe(spec, rule, lang)

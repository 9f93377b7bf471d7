"""A game's rules page: every rule of rules.yaml under its id, grouped by section. A
diagnostic's `see:` link points at a rule's heading here."""

from __future__ import annotations

import html
import re

from referee.i18n import N_, _, speaking
from referee.notation.names import folded_forms
from referee.site import counterexamples
from referee.site.markdown import OWN_NAMES, DocsError, escape, slug, verify_anchor
from referee.site.replays import figure
from referee.site.tables import GamePages

CHECKED = {
    "move": N_("a move that breaks it is reported"),
    "figure": N_("applied by the referee; a recorded figure that disagrees is reported"),
    "record": N_("checked on the record as a whole"),
    "not-checked": N_("described here, not checked by the referee"),
}
RULING = {  # rules.yaml `waivable`: what a table's `ruling accept` may do with the rule
    True: N_("a table's ruling may set it aside"),
    False: N_("a fact of the pieces: a ruling never sets it aside"),
}
MAX_LISTED = 5  # uncertain values named under a rule; more are counted


def render(doc: GamePages) -> str:
    sections = {s["id"]: s for s in doc.spec.files["rules"].get("sections", [])}
    out = [
        f"# Rules of {doc.title}",
        "",
        f"Every rule has an id such as `{next(iter(doc.spec.rules))}`. The referee names that id when a record breaks the rule, and its `see:` link leads to the rule's heading on this page.",
        "",
    ]
    found = counterexamples.load(doc.spec)  # a rule with neither an example nor a reason stops the build
    overlays = counterexamples.overlay_titles(found)
    for sid, title in doc.rule_groups():
        out += [f"## {escape(title)} {{#section-{slug(sid)}}}", ""]
        if sections.get(sid, {}).get("text"):
            out += [sections[sid]["text"].strip(), ""]
        for rule in doc.spec.rules.values():
            if (rule.section or "other") == sid:
                out += rule_section(doc, rule)
                if rule.id in found.by_rule:
                    out += counterexamples.section(counterexamples.judge(found.by_rule[rule.id], str(found.path)), overlays)
                else:
                    out += counterexamples.reason_section(found.reasons[rule.id])
    return "\n".join(out)


def render_in(doc: GamePages, lang: str) -> str:
    """The rules page in Hungarian or German: each rule's title and text from rules.<lang>.yaml
    under the same anchor as on the English page, which keeps the readings, the values each
    rule reads and the counter-examples and which each rule links to."""
    titles = ((doc.spec.files.get(f"rules.{lang}") or {}).get("sections")) or {}
    with speaking(lang):
        out = [
            "# " + _("Rules of {game}").format(game=escape(doc.spec.meta["names"].get(lang) or doc.title)),
            "",
            _("Every rule has the same id and link in every language. The English page also gives how we read each rule, the values it reads and the record that breaks it."),
            "",
        ]
        for sid, title in doc.rule_groups():
            out += [f"## {escape((titles.get(sid) or {}).get('title') or title)} {{#section-{slug(sid)}}}", ""]
            for rule in doc.spec.rules.values():
                if (rule.section or "other") == sid:
                    out += translated_section(doc, rule, lang)
    return "\n".join(out)


def translated_section(doc: GamePages, rule, lang: str) -> list[str]:
    """One rule on a translated page; a rule without words in `lang` says so and shows the English."""
    words = rule.words(lang)
    note = []
    if words is None:
        words = rule.title, rule.text
        note = ["*" + _("This rule has no {lang} text yet; shown in English.").format(lang=OWN_NAMES[lang]) + "*", ""]
    title, text = words
    source = _("source: {source}").format(source=escape(rule.source))
    english = _("in English, with the record that breaks it")
    checked = _(CHECKED.get(rule.checked, rule.checked))
    ruling = _(RULING[rule.waivable])
    # the id stays out of the heading's words: a search for it finds the English heading first
    out = [f"### {escape(title)} {{#{rule.anchor}}}", "", *note, text, "", *figure(doc, rule.id)]
    # the English page is in the English site, beside this language's (hu/<game>/rules.html): a
    # Markdown link to rules.md would lead to this page itself there, so the link is written as HTML
    link = f'<a href="../../{doc.game}/rules.html#{rule.anchor}" hreflang="en">{html.escape(english)}</a>'
    out += [f"`{rule.id}` · {source} · {checked} · {ruling} · {link}", ""]
    typed = typed_as(f"{title} {text}")
    if typed:  # not shown, but indexed: munkasok finds the rule that says munkások
        out += [f'<p hidden class="typed-as">{html.escape(" ".join(typed))}</p>', ""]
    return out


def typed_as(text: str) -> list[str]:
    """The words of a text with accents or umlauts, as they are typed without them
    (munkások: munkasok; Würfel: wurfel, wuerfel), in the order they first come."""
    found: dict[str, None] = {}
    for word in re.findall(r"[^\W\d_]+", text):
        if not word.isascii():
            for form in sorted(folded_forms(word.lower())):
                found.setdefault(form, None)
    return list(found)


def rule_section(doc: GamePages, rule) -> list[str]:
    if not rule.text.strip() or not rule.title.strip():
        raise DocsError(doc.spec.path_of("rules"), rule.id, "a rule needs a title and text to be shown in the rulebook")
    # the id in the heading's words: a search for `purchase-funds` finds this heading first
    out = [f"### {escape(rule.title)} · `{rule.anchor}` {{#{rule.anchor}}}", "", rule.text, ""]
    out += figure(doc, rule.id)
    out += [f"`{rule.id}` · source: {escape(rule.source)} · {CHECKED.get(rule.checked, rule.checked)} · {RULING[rule.waivable]}", ""]
    if rule.reading:
        out += ['!!! note "How we read it"', "", *("    " + line for line in rule.reading.splitlines()), ""]
    if rule.reads:
        out += ["Reads " + ", ".join(doc.link(a) for a in rule.reads) + ".", ""]
    relied = [f"[`{p.address}`](verify.md#{verify_anchor(p)}) ({p.status})" for p in doc.spec.relied_on([rule.id])]
    if len(relied) > MAX_LISTED:
        relied[MAX_LISTED - 1 :] = [f"and {len(relied) - MAX_LISTED + 1} more on the [verify page](verify.md)"]
    if relied:
        out += ["Relies on values to verify: " + ", ".join(relied) + ".", ""]
    return out

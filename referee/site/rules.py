"""A game's rules page: every rule of rules.yaml under its id, grouped by section. A
diagnostic's `see:` link points at a rule's heading here."""

from __future__ import annotations

from referee.site import counterexamples
from referee.site.markdown import DocsError, escape, slug, verify_anchor
from referee.site.replays import figure
from referee.site.tables import GamePages

CHECKED = {
    "move": "a move that breaks it is reported",
    "figure": "applied by the referee; a recorded figure that disagrees is reported",
    "record": "checked on the record as a whole",
    "not-checked": "described here, not checked by the referee",
}
RULING = {  # rules.yaml `waivable`: what a table's `ruling accept` may do with the rule
    True: "a table's ruling may set it aside",
    False: "a fact of the pieces: a ruling never sets it aside",
}
MAX_LISTED = 5  # uncertain values named under a rule; more are counted


def render(doc: GamePages) -> str:
    sections = {s["id"]: s for s in doc.spec.files["rules"].get("sections", [])}
    out = [
        f"# Rules of {doc.title}",
        "",
        f"Every rule has an id such as `{next(iter(doc.spec.rules))}`. The referee names that id when a record "
        "breaks the rule, and its `see:` link leads to the rule's heading on this page.",
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

"""A game's "verify with your box" page: every spec value that no source gives for certain,
with the value used now, where it came from and the rules that read it."""

from __future__ import annotations

from referee.spec.loader import iter_uncertain
from referee.site.markdown import count, escape, table, table_like, verify_anchor
from referee.site.tables import GamePages

STATUS_ORDER = ("unknown", "provisional", "guess", "likely")
STATUS_MEANING = {
    "unknown": (
        "No source gives these values. A rule that needs one reports *not checked: needs "
        "&lt;file&gt;:&lt;key&gt;* as a warning and everything else is still checked; where a record "
        "states the value itself (a card face when it is revealed), the record's value is used."
    ),
    "provisional": (
        "Reasoned stand-ins. The referee uses them, and every report names the provisional "
        "values its verdict relied on, so the verdict is visibly conditional."
    ),
    "guess": "Inferred without direct support from a source. The referee uses them and every report that relies on one lists it.",
    "likely": "Strongly implied by the sources but not stated outright. The referee uses them and every report that relies on one lists it.",
}

def render(doc: GamePages) -> str:
    uncertain = list(iter_uncertain(doc.spec))
    readers: dict[str, list] = {}
    for rule in doc.spec.rules.values():
        for p in doc.spec.relied_on([rule.id]):
            readers.setdefault(p.address, []).append(rule)
    out = [
        f"# Verify with your box: {doc.title}",
        "",
        f"The spec of {doc.title} holds {count(len(uncertain), 'value')} that no source gives for certain. Each is listed "
        "with its spec file and key, the value the referee uses now, where it came from and the rules that read it.",
        "",
        "If your box shows a value, write it into the spec file at that key in place of the whole "
        "`{value: …, provenance: …, note: …}` entry, then run `referee validate`; the referee uses it from then on, "
        "with no change to any program. To keep the original, put the value in a variant overlay instead.",
        "",
    ]
    if not uncertain:
        return "\n".join(out + [f"Every value in the spec of {doc.title} is certain.", ""])
    out.append(table(["Status", "Values", "What the referee does"], [
        [f"[{status}](#{status})", str(sum(p.status == status for p in uncertain)), STATUS_MEANING[status]]
        for status in STATUS_ORDER if any(p.status == status for p in uncertain)
    ]))
    for status in STATUS_ORDER:
        group = [p for p in uncertain if p.status == status]
        if not group:
            continue
        out += [f"## {status.capitalize()} {{#{status}}}", "", STATUS_MEANING[status], ""]
        rows = []
        for p in group:
            shown = doc.link(p.address).replace(f"`{p.address}`", "the tables")
            if p.status == "unknown":
                used = "nothing: *not known*"
            elif table_like(p.value):
                used = f"the values in {shown}"
            else:
                used = doc.inline(p.value, p.file, tuple(p.key.split(".")))
            note = escape(p.note) + (f" (source: {escape(p.source)})" if p.source else "")
            rules = ", ".join(f"[{r.anchor}](rules.md#{r.anchor})" for r in readers.get(p.address, [])) or "no rule reads it"
            where = f'<span id="{verify_anchor(p)}"></span>`{doc.where(p.file)}`<br>key `{p.key}`'
            rows.append([where, used, note, rules])
        out.append(table(["Spec file and key", "Used now", "Where it comes from", "Rules that read it"], rows))
    return "\n".join(out)

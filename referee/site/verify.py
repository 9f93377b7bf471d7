"""A game's "verify with your box" page: how a group enters its own box's numbers once
(`referee box`), then every spec value that no source gives for certain, with the question
the box template asks for it, the value used now, where it came from and the rules that
read it."""

from __future__ import annotations

from referee.box.questions import questions
from referee.site.markdown import count, escape, table, table_like, verify_anchor
from referee.site.tables import GamePages
from referee.spec.loader import iter_uncertain

STATUS_ORDER = ("unknown", "provisional", "guess", "likely")
STATUS_MEANING = {
    "unknown": (
        "No source gives these values. A rule that needs one reports *not checked: needs "
        "&lt;file&gt;:&lt;key&gt;* as a warning and everything else is still checked; where a record "
        "states the value itself (a card face when it is revealed), the record's value is used."
    ),
    "provisional": ("Reasoned stand-ins. The referee uses them, and every report names the provisional values its verdict relied on, so the verdict is visibly conditional."),
    "guess": "Inferred without direct support from a source. The referee uses them and every report that relies on one lists it.",
    "likely": "Strongly implied by the sources but not stated outright. The referee uses them and every report that relies on one lists it.",
}


def steps(doc: GamePages) -> list[str]:
    """The flow from the box template to every command using the group's numbers."""
    from referee.box.learn import learns
    from referee.games import game_class

    game = doc.spec.game
    infer = game_class(game).printed_module is not None or learns(game)
    out = [
        "## Your box's numbers, step by step {#your-box}",
        "",
        f"1. Write the questions: `referee box {game} -o my-box.yaml`. Each value no source gives is one question, "
        "in the words of the component it is printed on, grouped by component, with the stand-in the referee uses now "
        "(`--lang hu` or `--lang de` asks in Hungarian or German).",
        "2. Answer what your box shows after each question's address; leave blank what you cannot tell. "
        "Numbers are written as they are printed, tables and lists in YAML (`{1: 3, 2: 5}`, `[5, 5, 6]`), "
        "and `dash` where a tile prints a dash. "
        f"Or let the referee ask: `referee box {game} --interactive` asks the questions one by one and checks every answer as it is typed.",
        f"3. Keep it: `referee box {game} --use my-box.yaml` checks the file as every command will read it (an answer "
        "the game cannot take is reported at its line) and keeps a copy in your configuration folder "
        "(`$XDG_CONFIG_HOME/referee/box/` or `~/.config/referee/box/`).",
        "4. From then on every command (`check`, `record`, `serve`, `lab`, `docs`, ...) uses your numbers for this game, "
        "and a report lists only the values still uncertain. A record can still name variants on top of them.",
        f"5. `referee box {game} --show` says which file is in use, what each answer changed and what is still open; `referee box {game} --forget` goes back to the stand-ins.",
    ]
    if infer:
        out.append(
            f"6. Your records can fill in numbers too: `referee box {game} --infer *.log -o learnt.yaml` reads the "
            "checkpoints of your records (each figure a table wrote down depends on the printed numbers the moves used), "
            "solves for the printed numbers they determine, "
            "names the checkpoint lines that prove each one, lists the numbers the records leave open, and refuses a "
            "record that no numbers can satisfy. Check the proposals, answer the rest, then `--use` the file."
        )
    out += [
        "",
        "To change a value that is not uncertain, write a variant overlay instead: a box file answers only the values listed below.",
        "",
    ]
    return out


def render(doc: GamePages) -> str:
    uncertain = list(iter_uncertain(doc.spec))
    asking = questions(doc.spec)
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
        *steps(doc),
    ]
    if not uncertain:
        return "\n".join(out + [f"Every value in the spec of {doc.title} is certain.", ""])
    out.append(
        table(
            ["Status", "Values", "What the referee does"],
            [[f"[{status}](#{status})", str(sum(p.status == status for p in uncertain)), STATUS_MEANING[status]] for status in STATUS_ORDER if any(p.status == status for p in uncertain)],
        )
    )
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
            asked = [q for q in asking if q.address == p.address or q.address.startswith(p.address + ".")]
            if asked:
                note += "<br>Asked: " + "; ".join(escape(q.text) for q in asked[:4]) + ("; …" if len(asked) > 4 else "")
            rules = ", ".join(f"[{r.anchor}](rules.md#{r.anchor})" for r in readers.get(p.address, [])) or "no rule reads it"
            where = f'<span id="{verify_anchor(p)}"></span>`{doc.where(p.file)}`<br>key `{p.key}`'
            rows.append([where, used, note, rules])
        out.append(table(["Spec file and key", "Used now", "Where it comes from", "Rules that read it"], rows))
    return "\n".join(out)

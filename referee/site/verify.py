"""A game's "verify with your box" page: how a group enters its own box's numbers once
(`referee box`), then every spec value that no source gives for certain, with the question
the box template asks for it, the value used now, where it came from and the rules that
read it."""

from __future__ import annotations

from referee.box.questions import questions
from referee.i18n import N_, _, current, ngettext
from referee.site.markdown import escape, page_file, table, table_like, verify_anchor
from referee.site.tables import GamePages
from referee.spec.loader import iter_uncertain

STATUS_ORDER = ("unknown", "provisional", "guess", "likely")
STATUS_NAMES = {"unknown": N_("Unknown"), "provisional": N_("Provisional"), "guess": N_("Guess"), "likely": N_("Likely")}
STATUS_MEANING = {
    "unknown": N_(
        "No source gives these values. A rule that needs one reports *not checked: needs "
        "&lt;file&gt;:&lt;key&gt;* as a warning and everything else is still checked; where a record "
        "states the value itself (a card face when it is revealed), the record's value is used."
    ),
    "provisional": N_("Reasoned stand-ins. The referee uses them, and every report names the provisional values its verdict relied on, so the verdict is visibly conditional."),
    "guess": N_("Inferred without direct support from a source. The referee uses them and every report that relies on one lists it."),
    "likely": N_("Strongly implied by the sources but not stated outright. The referee uses them and every report that relies on one lists it."),
}


def steps(doc: GamePages) -> list[str]:
    """The flow from the box template to every command using the group's numbers."""
    from referee.box.learn import learns
    from referee.games import game_class

    game = doc.spec.game
    infer = game_class(game).printed_module is not None or learns(game)
    out = [
        "## " + _("Your box's numbers, step by step") + " {#your-box}",
        "",
        "1. "
        + _(
            "Write the questions: `referee box {game} -o my-box.yaml`. Each value no source gives is one question, "
            "in the words of the component it is printed on, grouped by component, with the stand-in the referee uses now "
            "(`--lang hu` or `--lang de` asks in Hungarian or German)."
        ).format(game=game),
        "2. "
        + _(
            "Answer what your box shows after each question's address; leave blank what you cannot tell. "
            "Numbers are written as they are printed, tables and lists in YAML (`{{1: 3, 2: 5}}`, `[5, 5, 6]`), "
            "and `dash` where a tile prints a dash. "
            "Or let the referee ask: `referee box {game} --interactive` asks the questions one by one and checks every answer as it is typed."
        ).format(game=game),
        "3. "
        + _(
            "Keep it: `referee box {game} --use my-box.yaml` checks the file as every command will read it (an answer "
            "the game cannot take is reported at its line) and keeps a copy in your configuration folder "
            "(`$XDG_CONFIG_HOME/referee/box/` or `~/.config/referee/box/`)."
        ).format(game=game),
        "4. "
        + _(
            "From then on every command (`check`, `record`, `serve`, `lab`, `docs`, ...) uses your numbers for this game, "
            "and a report lists only the values still uncertain. A record can still name variants on top of them."
        ),
        "5. "
        + _("`referee box {game} --show` says which file is in use, what each answer changed and what is still open; `referee box {game} --forget` goes back to the stand-ins.").format(game=game),
    ]
    if infer:
        out.append(
            "6. "
            + _(
                "Your records can fill in numbers too: `referee box {game} --infer *.log -o learnt.yaml` reads the "
                "checkpoints of your records (each figure a table wrote down depends on the printed numbers the moves used), "
                "solves for the printed numbers they determine, "
                "names the checkpoint lines that prove each one, lists the numbers the records leave open, and refuses a "
                "record that no numbers can satisfy. Check the proposals, answer the rest, then `--use` the file."
            ).format(game=game)
        )
    out += [
        "",
        _("To change a value that is not uncertain, write a variant overlay instead: a box file answers only the values listed below."),
        "",
    ]
    return out


def render(doc: GamePages) -> str:
    """The page in the language in use; notes and questions are the spec's and the box's words."""
    uncertain = list(iter_uncertain(doc.spec))
    asking = questions(doc.spec)
    readers: dict[str, list] = {}
    for rule in doc.spec.rules.values():
        for p in doc.spec.relied_on([rule.id]):
            readers.setdefault(p.address, []).append(rule)
    title = escape(doc.name())
    n = len(uncertain)
    out = [
        "# " + _("Verify with your box: {game}").format(game=title),
        "",
        ngettext(
            "The spec of {game} holds {n} value that no source gives for certain. Each is listed "
            "with its spec file and key, the value the referee uses now, where it came from and the rules that read it.",
            "The spec of {game} holds {n} values that no source gives for certain. Each is listed "
            "with its spec file and key, the value the referee uses now, where it came from and the rules that read it.",
            n,
        ).format(game=title, n=n),
        "",
        *steps(doc),
    ]
    if current() != "en":
        out += [_("Where each value comes from is told in English, as the spec's notes say it."), ""]
    if not uncertain:
        return "\n".join(out + [_("Every value in the spec of {game} is certain.").format(game=title), ""])
    out.append(
        table(
            [_("Status"), _("Values"), _("What the referee does")],
            [
                [f"[{_(STATUS_NAMES[status]).lower()}](#{status})", str(sum(p.status == status for p in uncertain)), _(STATUS_MEANING[status])]
                for status in STATUS_ORDER
                if any(p.status == status for p in uncertain)
            ],
        )
    )
    rules_page = page_file("rules")
    for status in STATUS_ORDER:
        group = [p for p in uncertain if p.status == status]
        if not group:
            continue
        out += [f"## {_(STATUS_NAMES[status])} {{#{status}}}", "", _(STATUS_MEANING[status]), ""]
        rows = []
        for p in group:
            shown = doc.link(p.address).replace(f"`{p.address}`", _("the tables"))
            if p.status == "unknown":
                used = _("nothing: *not known*")
            elif table_like(p.value):
                used = _("the values in {tables}").format(tables=shown)
            else:
                used = doc.inline(p.value, p.file, tuple(p.key.split(".")))
            note = escape(p.note) + (" " + _("(source: {source})").format(source=escape(p.source)) if p.source else "")
            asked = [q for q in asking if q.address == p.address or q.address.startswith(p.address + ".")]
            if asked:
                note += "<br>" + _("Asked:") + " " + "; ".join(escape(q.text) for q in asked[:4]) + ("; …" if len(asked) > 4 else "")
            rules = ", ".join(f"[{r.anchor}]({rules_page}#{r.anchor})" for r in readers.get(p.address, [])) or _("no rule reads it")
            where = f'<span id="{verify_anchor(p)}"></span>`{doc.where(p.file)}`<br>' + _("key") + f" `{p.key}`"
            rows.append([where, used, note, rules])
        out.append(table([_("Spec file and key"), _("Used now"), _("Where it comes from"), _("Rules that read it")], rows))
    return "\n".join(out)

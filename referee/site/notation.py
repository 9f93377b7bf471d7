"""A game's notation page: its moves (from the grammar's leading comments), its checkpoint
figures (from figures.yaml), its complete example records and the grammar itself."""

from __future__ import annotations

from referee.i18n import N_, _, current, ngettext
from referee.site.markdown import escape, fenced, slug, table
from referee.site.tables import GamePages
from referee.spec.figures import NONE, figures_of, keys_of
from referee.spec.loader import read_spec_text


def render(doc: GamePages) -> str:
    grammar = doc.data / "grammar" / f"{doc.game}.lark"
    common = doc.data / "grammar" / "common.lark"
    game = escape(doc.name())
    out = [
        "# " + _("Notation for {game}").format(game=game),
        "",
        _(
            "A record of {game} is a UTF-8 text file: header tags, then one move per line. Header tags, move "
            "numbers, checkpoints, the result line and comments work the same in every game; the "
            "[notation page](../notation.md) explains them. This page shows the moves of "
            "{game} and complete records."
        ).format(game=game),
        "",
    ]
    if current() != "en":
        out += [
            _(
                "A record is written with the same English keywords in every language; names of components may be written in any of the three languages. The reference of the moves below is the grammar's own, in English."
            ),
            "",
        ]
    out += ["## " + _("Moves") + " {#moves}", ""]
    if grammar.is_file():
        out += comment_block(read_spec_text(grammar))
    else:
        out += [_("There is no grammar for {game} yet ({file}), so its records cannot be read.").format(game=game, file=f"`grammar/{doc.game}.lark`"), ""]
    out += figure_section(doc)
    out += ["## " + _("Complete examples") + " {#examples}", ""]
    if not doc.examples():
        out += [_("No example records of {game} are bundled yet.").format(game=game), ""]
    for path in doc.examples():
        text = read_spec_text(path)
        about = doc.example_about(text)
        out += [
            f"### {path.name} {{#example-{slug(path.stem)}}}",
            "",
            *([escape(about), ""] if about else []),
            _("Check it with {command}.").format(command=f"`referee check {doc.where_path(path)}`"),
            "",
            '??? example "' + ngettext("{file}: {n} line", "{file}: {n} lines", len(text.splitlines())).format(file=path.name, n=len(text.splitlines())) + '"',
            "",
            *("    " + line for line in fenced(text, "text")),
            "",
        ]
    out += ["## " + _("Grammar") + " {#grammar}", "", _("The exact grammar (Lark) that reads these records: the shared part, then this game's moves."), ""]
    for path in (common, grammar):
        if path.is_file():
            out += [f'??? note "grammar/{path.name}"', "", *("    " + line for line in fenced(read_spec_text(path), "text")), ""]
    return "\n".join(out)


# The blocks of the moves reference carry a class: the site's stylesheet keeps them whole on
# a laptop's screen (docs/stylesheets/extra.css).
REFERENCE = "{.text .notation-reference}"


SUBJECTS = {"player": N_("About a player"), "city": N_("About the city"), "neutral": N_("About the neutral player (two-player variant)")}


def figure_section(doc: GamePages) -> list[str]:
    """Every checkpoint figure, from the game's figures.yaml: the table the rules read figures
    through, so that the page lists exactly the figures a checkpoint may state."""
    figures = figures_of(doc.spec)
    out = ["## " + _("Checkpoint figures") + " {#figures}", ""]
    if not figures:
        return out + [_("{game} has no checkpoint figures yet: a `figures.yaml` beside its spec lists them.").format(game=escape(doc.name())), ""]
    out += [
        _(
            "A checkpoint line states figures that the table wrote down, and the referee compares each with its own: "
            "`check <player>: <figure> <value>, ...`, where the player is a colour or a player's name. A figure is a "
            "number, or a list of words; an empty list is written as the figure's name alone or followed by {none}. "
            "A checkpoint states each figure as it stands after the line before it; the last column says at which lines "
            "a figure changes."
        ).format(none=f"`{NONE}`"),
        "",
    ]
    if current() != "en":
        out += [_("What each figure counts and when it changes is given in English, as the spec's figures.yaml writes it."), ""]
    subjects = list(dict.fromkeys(f.subject for f in figures))
    for subject in subjects:
        rows = []
        for f in (f for f in figures if f.subject == subject):
            keys = ", ".join(f"`{key}`" for key, _meaning in keys_of(doc.spec, f))
            value = _("list of {words}").format(words=f.words) if f.words else _("number")
            rows.append([keys, value, escape(f.counts), escape(f.changes)])
        if len(subjects) > 1:
            heading = _(SUBJECTS[subject]) if subject in SUBJECTS else _("About {subject}").format(subject=subject)
            out += [f"### {heading} {{#figures-{slug(subject)}}}", ""]
        out += [table([_("figure"), _("value"), _("what it counts"), _("when it changes")], rows)]
    return out


def comment_block(grammar: str) -> list[str]:
    """The leading `//` comments of a grammar: prose as paragraphs, indented lines as code."""
    lines = []
    for line in grammar.splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:][1:] if line[2:3] == " " else line[2:])
    out: list[str] = []
    code: list[str] = []
    for line in lines + ["end"]:
        if line.startswith("  ") or (code and not line.strip()):
            code.append(line[2:])
            continue
        if code:
            while not code[-1].strip():
                code.pop()
            out += [*fenced("\n".join(code), REFERENCE), ""]
            code = []
        if line != "end" or out[-1:] != [""]:
            out.append(escape(line) if line.strip() and line != "end" else "")
    return out

"""A game's notation page: its moves (from the grammar's leading comments), its checkpoint
figures (from figures.yaml), its complete example records and the grammar itself."""

from __future__ import annotations

from referee.site.markdown import escape, fenced, slug, table
from referee.site.tables import GamePages
from referee.spec.figures import NONE, figures_of, keys_of
from referee.spec.loader import read_spec_text


def render(doc: GamePages) -> str:
    grammar = doc.data / "grammar" / f"{doc.game}.lark"
    common = doc.data / "grammar" / "common.lark"
    out = [
        f"# Notation for {doc.title}",
        "",
        f"A record of {doc.title} is a UTF-8 text file: header tags, then one move per line. Header tags, move "
        "numbers, checkpoints, the result line and comments work the same in every game; the "
        "[notation page](../notation.md) explains them. This page shows the moves of "
        f"{doc.title} and complete records.",
        "",
        "## Moves {#moves}",
        "",
    ]
    if grammar.is_file():
        out += comment_block(read_spec_text(grammar))
    else:
        out += [f"There is no grammar for {doc.title} yet (`grammar/{doc.game}.lark`), so its records cannot be read.", ""]
    out += figure_section(doc)
    out += ["## Complete examples {#examples}", ""]
    if not doc.examples():
        out += [f"No example records of {doc.title} are bundled yet.", ""]
    for path in doc.examples():
        text = read_spec_text(path)
        about = doc.example_about(text)
        out += [
            f"### {path.name} {{#example-{slug(path.stem)}}}",
            "",
            *([escape(about), ""] if about else []),
            f"Check it with `referee check {doc.where_path(path)}`.",
            "",
            f'??? example "{path.name}: {len(text.splitlines())} lines"',
            "",
            *("    " + line for line in fenced(text, "text")),
            "",
        ]
    out += ["## Grammar {#grammar}", "", "The exact grammar (Lark) that reads these records: the shared part, then this game's moves.", ""]
    for path in (common, grammar):
        if path.is_file():
            out += [f'??? note "grammar/{path.name}"', "", *("    " + line for line in fenced(read_spec_text(path), "text")), ""]
    return "\n".join(out)


# The blocks of the moves reference carry a class: the site's stylesheet keeps them whole on
# a laptop's screen (docs/stylesheets/extra.css).
REFERENCE = "{.text .notation-reference}"


SUBJECTS = {"player": "a player", "city": "the city", "neutral": "the neutral player (two-player variant)"}


def figure_section(doc: GamePages) -> list[str]:
    """Every checkpoint figure, from the game's figures.yaml: the table the rules read figures
    through, so that the page lists exactly the figures a checkpoint may state."""
    figures = figures_of(doc.spec)
    out = ["## Checkpoint figures {#figures}", ""]
    if not figures:
        return out + [f"{doc.title} has no checkpoint figures yet: a `figures.yaml` beside its spec lists them.", ""]
    out += [
        "A checkpoint line states figures that the table wrote down, and the referee compares each with its own: "
        "`check <player>: <figure> <value>, ...`, where the player is a colour or a player's name. A figure is a "
        f"number, or a list of words; an empty list is written as the figure's name alone or followed by `{NONE}`. "
        "A checkpoint states each figure as it stands after the line before it; the last column says at which lines "
        "a figure changes.",
        "",
    ]
    subjects = list(dict.fromkeys(f.subject for f in figures))
    for subject in subjects:
        rows = []
        for f in (f for f in figures if f.subject == subject):
            keys = ", ".join(f"`{key}`" for key, _ in keys_of(doc.spec, f))
            value = f"list of {f.words}" if f.words else "number"
            rows.append([keys, value, escape(f.counts), escape(f.changes)])
        if len(subjects) > 1:
            out += [f"### About {SUBJECTS.get(subject, subject)} {{#figures-{slug(subject)}}}", ""]
        out += [table(["figure", "value", "what it counts", "when it changes"], rows)]
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

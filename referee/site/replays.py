"""A game's replays page, its example records as replay pages, and the rules page's pictures.

Each example record of a game becomes a page to step through (`referee replay`, written next
to the Markdown as `<game>/replays/<record>.html`), listed on the game's Replays page. A game
names the positions that explain a rule (`Game.illustrations()`), and its examples folder lists
the rulebook's worked examples its records reproduce (`worked-examples.yaml`, drawn where the
record ends); each is drawn from its example record as `<game>/pictures/<rule>.svg` and shown
on the rules page under its rule, with the record's figures, confirmed, and its moves.
The Markdown pages are rendered with the rest of the site (`render`, `figure`); the replay
pages and pictures are files of their own (`files`), made by `referee docs` and the mkdocs
build, since a replay of every example takes a few seconds.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from referee.engine.positions import Position
from referee.engine.replay import check_bytes
from referee.games import load_game
from referee.games.base import Illustration, quietly
from referee.i18n import Named, _, localized, ngettext
from referee.pictures.position import draw_position
from referee.pictures.replay_page import build
from referee.site.markdown import DocsError, escape, fenced, is_names, page_file, slug
from referee.site.tables import GamePages
from referee.spec.loader import read_yaml
from referee.terminal import visible


def render(doc: GamePages) -> str:
    """The page in the language in use; the replay pages it links to are those of its language
    (`files` in that language, which the site of the language holds)."""
    title = doc.name()
    out = [
        "# " + _("Replays of {game}").format(game=escape(title)),
        "",
        _(
            "Each example record of {game} as a page to step through: the moves beside a picture of the "
            "position, each move told in a sentence, and charts of the score and the money by round. Step with "
            "the arrow keys or pick a move. `referee replay FILE -o FILE.html` makes the same page of any record."
        ).format(game=escape(title)),
        "",
    ]
    if not doc.examples():
        out += [_("No example records of {game} are bundled yet.").format(game=escape(title)), ""]
    for path in doc.examples():
        about = doc.example_about(path.read_text(encoding="utf-8"))
        step = _("Step through {record}").format(record=path.name)
        the_record = _("the record")
        out += [
            f"## {path.name} {{#replay-{slug(path.stem)}}}",
            "",
            *([escape(about), ""] if about else []),
            f"[{step}](replays/{path.stem}.html) · [{the_record}]({page_file('notation')}#example-{slug(path.stem)})",
            "",
        ]
    return "\n".join(out)


WORKED = "worked-examples.yaml"  # the worked examples a game's examples folder lists as data


def illustrations(doc: GamePages) -> dict[str, Illustration]:
    """The game's pictures by rule id: those the game draws whose example record is there to
    draw them from, and the worked examples its examples folder lists (`listed`)."""
    folder = doc.spec.directory / "examples"
    found = {i.rule: i for i in load_game(doc.game).illustrations() if (folder / i.record).is_file()}
    for n, picture in enumerate(listed(doc)):
        if picture.rule in found:
            raise DocsError(str(folder / WORKED), f"examples.{n}.rule", f"{picture.rule} has a picture already")
        found[picture.rule] = picture
    return found


def at_the_end(state) -> bool:
    """A listed worked example is drawn where its record ends, after the move it shows."""
    return False


def listed(doc: GamePages) -> list[Illustration]:
    """The worked examples of `specs/<game>/examples/worked-examples.yaml`, each a record of
    the folder under the rule it illustrates, with its caption and the overlays (files of the
    folder) it is checked with. Data the page cannot use stops the build."""
    folder = doc.spec.directory / "examples"
    path = folder / WORKED
    if not path.is_file():
        return []
    data = read_yaml(path)
    if not isinstance(data, dict) or data.get("kind") != "worked-examples" or data.get("game") != doc.game:
        raise DocsError(str(path), "kind", f"a mapping of kind worked-examples for {doc.game}")
    items = data.get("examples")
    if not isinstance(items, list) or not items:
        raise DocsError(str(path), "examples", "a list of worked examples")
    out = []
    for n, item in enumerate(items):
        where = f"examples.{n}"
        if not isinstance(item, dict) or set(item) - {"rule", "record", "caption", "variants"}:
            raise DocsError(str(path), where, "a worked example has a rule, a record, a caption and optional variants")
        if item.get("rule") not in doc.spec.rules:
            raise DocsError(str(path), f"{where}.rule", f"{item.get('rule')!r} is not a rule of {doc.game}'s rules.yaml")
        caption = item.get("caption")
        if is_names(caption) and isinstance(caption.get("en"), str):  # the caption in each language
            caption = Named(" ".join(caption["en"].split()), {lang: " ".join(text.split()) for lang, text in caption.items()})
        if not isinstance(caption, str) or not caption.strip():
            raise DocsError(str(path), f"{where}.caption", "a worked example needs a caption (the picture's text alternative), in English or as {en: ..., hu: ..., de: ...}")
        variants = item.get("variants", [])
        if not isinstance(variants, list):
            raise DocsError(str(path), f"{where}.variants", "a list of overlay files of the examples folder")
        for key, name in [("record", item.get("record")), *((f"variants.{k}", v) for k, v in enumerate(variants))]:
            if not inside(folder, name):
                raise DocsError(str(path), f"{where}.{key}", f"no file {name!r} in the examples folder")
        out.append(Illustration(item["rule"], item["record"], at_the_end, caption if isinstance(caption, Named) else " ".join(caption.split()), tuple(variants)))
    return out


def inside(folder: Path, name) -> bool:
    """Whether `name` is a file of `folder` (or of a folder in it), named by a relative path."""
    if not isinstance(name, str) or not name or Path(name).is_absolute() or ".." in Path(name).parts:
        return False
    return (folder / name).is_file()


def overlays(doc: GamePages, picture: Illustration) -> list[str]:
    """The overlay files a picture's record is checked with."""
    return [str(doc.spec.directory / "examples" / v) for v in picture.variants]


def figure(doc: GamePages, rule: str) -> list[str]:
    """The Markdown of a rule's picture with its worked example, or nothing when the game draws
    none for it."""
    picture = illustrations(doc).get(rule)
    if picture is None:
        return []
    caption = escape(localized(picture.caption))
    out = [f"![{caption}](pictures/{slug(rule.split('/', 1)[1])}.svg){{ loading=lazy }}", "", f"*{caption}*", ""]
    return out + worked_example(doc, picture)


def inline_code(text: str) -> str:
    """Text as inline code, with a fence no backtick in it can close."""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence}{text}{fence}" if fence == "`" else f"{fence} {text} {fence}"


def worked_example(doc: GamePages, picture: Illustration) -> list[str]:
    """An example record under its picture: the figures it records, each confirmed by the
    referee at this build (an example it refuses stops the build), and its moves as written."""
    path = doc.spec.directory / "examples" / picture.record
    name = path.name
    text = path.read_text(encoding="utf-8")
    report = check_bytes(text.encode("utf-8"), name, overlays(doc, picture))
    if report.status != "legal" or report.errors:
        problem = report.errors[0].message if report.errors else report.status
        raise DocsError(str(path), "", f"a worked example must replay legal with its figures confirmed: {problem}")
    figures = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith(("check ", "result "))]
    where = f"[{escape(name)}]({page_file('notation')}#example-{slug(path.stem)})" if path.parent == doc.spec.directory / "examples" else f"`{escape(picture.record)}`"
    lines = ngettext("The worked example {example} records {n} line of figures", "The worked example {example} records {n} lines of figures", len(figures))
    confirmed = ngettext("the referee confirms the {n} figure in it", "the referee confirms all {n} figures in them", report.checkpoints_confirmed)
    out = [f"{lines.format(example=where, n=len(figures))}; {confirmed.format(n=report.checkpoints_confirmed)}:", ""]
    if picture.variants:
        shown = ", ".join(f"`{escape(v)}`" for v in picture.variants)
        checked = ngettext("Checked with the overlay {overlays}, which keeps the record short.", "Checked with the overlays {overlays}, which keep the record short.", len(picture.variants))
        out = [checked.format(overlays=shown), ""] + out
    out += ["- " + _("line {n}: {line}").format(n=n, line=inline_code(visible(line))) + " ✓" for n, line in figures]
    moves = [visible(line) for line in text.splitlines() if line.strip() and not line.startswith(("#", "["))]
    title = _("The moves of {file} as written").format(file=escape(name))
    out += ["", f'??? example "{title}"', "", *("    " + line for line in fenced("\n".join(moves), "text")), ""]
    return out


def files(doc: GamePages) -> list[tuple[str, str]]:
    """(path, text) of every replay page and picture of the game, paths relative to the site."""
    out = []
    for rule, picture in illustrations(doc).items():
        out.append((f"{doc.game}/pictures/{slug(rule.split('/', 1)[1])}.svg", draw(doc, picture)))
    for path in doc.examples():
        page, _ = build(path.read_bytes(), path.name, [])
        if page is not None:
            out.append((f"{doc.game}/replays/{path.stem}.html", page))
    return out


def draw(doc: GamePages, picture: Illustration) -> str:
    """The first position of the picture's record where its condition holds (else the last),
    drawn as `referee draw` draws it, its title saying where it stands in the same words."""
    found: list[str] = []
    moves = itertools.count()
    last: list[int | None] = [None]

    def watch(event: str, move, state) -> None:
        number = next(moves) if event != "end" else None
        if event == "move" and getattr(move, "pos", None) is not None:
            last[0] = move.pos.line
        if found:
            return
        with quietly(state):
            if picture.when(state) or event == "end":
                count = number if number is not None else next(moves) - 1
                where = Position(None, None, count, last[0] if count else None).where
                found.append(draw_position(state, f"{Path(picture.record).name}, {where}").tostring())

    record = doc.spec.directory / "examples" / picture.record
    check_bytes(record.read_bytes(), record.name, overlays(doc, picture), watch=watch)
    return found[0]

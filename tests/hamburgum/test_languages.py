"""Civitas Hamburgum in Hungarian and German: `show`, `explain`'s ledger, the picture's labels,
what the game waits for, the spec's cross-checks and the site errors of a record.

Expected words come from the catalogues (`translations(lang).gettext`) and the spec's `names`,
never from Hungarian or German typed here; what must not be seen is English this game prints.
"""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.engine.ledger import MOVE_WIDTH
from referee.engine.replay import check_bytes
from referee.errors import SpecError
from referee.games.hamburgum.checks import check_spec
from referee.games.hamburgum.view import HEADS
from referee.i18n import Message, Named, localized, speaking
from referee.i18n.catalogue import translations
from referee.report.explain import explain_bytes
from referee.site import counterexamples
from referee.spec.loader import load_spec

from .records import QUICK_START

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "specs" / "hamburgum" / "examples").glob("*.log"))
LANGS = ("hu", "de")
NS = "{http://www.w3.org/2000/svg}"

# What `show` printed in English before it spoke the reader's language: heads of the board's
# sections and the words inside them, and the English names of the spec's things.
SHOW_ENGLISH = (
    "(clockwise)",
    "in the centre",
    "prices:",
    "ships leave from berth",
    "new ships enter",
    "a ship, room for",
    "churches:",
    "complete (",
    "finished)",
    "donation",
    "tokens left",
    "citizens by parish",
    "office stack",
    "top:",
    "left to choose",
    "face up",
    "to act",
    "centre",
    "empty",
    "Sugar",
    "Cloth",
    "Dockyard",
    "Guildhall",
    "upper ",
    "lower ",
    "Cathedral",
    "Flying Dutchman",
    "token",
    " red",
    " blue",
    " green",
)

# What the picture's labels and tips said only in English.
PICTURE_ENGLISH = ("clockwise", "(to act)", "not yet placed", "'s ship", "'s donation", "citizen(s)", "ships ", "tokens ", "money", "prestige", "centre", "offices:", "top:", "berth")

# The ledger's reasons in English: what the rules note for a change.
LEDGER_ENGLISH = ("sold ", "bought ", "on ships", "to the bank", "at the depot", "donation ", "built ", "finished ", "scored the", "income", "payout", "rondel spaces", "final scoring")


def _show(capsys, lang: str, record: Path, *more: str) -> str:
    assert main(["--lang", lang, "show", str(record), *more]) in (0, 1)
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("record", EXAMPLES, ids=lambda p: p.stem)
def test_show_speaks_the_language_asked(record, lang, capsys):
    out = _show(capsys, lang, record)
    lines = out.splitlines()
    head = next(line for line in lines if line.split()[:1] == [translations(lang).gettext("player")])
    with speaking(lang):
        wanted = [localized(Message(h)) for h in HEADS]
    assert head.split() == " ".join(wanted).split(), (lang, head)
    body = "\n".join(lines[2:])  # the first line names the file, the second is shared
    for words in SHOW_ENGLISH:
        assert words not in body, (record.name, lang, words, out)
    harbour = load_spec("hamburgum")["harbour"]["names"][lang]
    assert any(line.startswith(f"{harbour} (") for line in lines), (lang, out)


def test_show_in_english_is_as_it_was(capsys):
    out = _show(capsys, "en", QUICK_START)
    assert "rondel (clockwise): Sugar → Church [blue] → upper Trade" in out
    assert "harbour (ships leave from berth 1; new ships enter berth 3):" in out
    assert "office stack: top: councillor (7 left)" in out


@pytest.mark.parametrize("lang", LANGS)
def test_show_names_every_church_and_space_as_the_spec_does(lang, capsys):
    out = _show(capsys, lang, QUICK_START)
    spec = load_spec("hamburgum")
    for church in spec["churches"]["churches"].values():
        assert f"  {church['names'][lang]}: " in out, (lang, church)
    for action in spec["rondel"]["actions"].values():
        assert action["names"][lang] in out, (lang, action)
    for side in spec["rondel"]["sides"].values():
        assert f"{side['names'][lang]} " in out, (lang, side)


@pytest.mark.parametrize("lang", LANGS)
def test_show_of_a_shuffled_office_stack_speaks_the_language_asked(lang, capsys):
    out = _show(capsys, lang, QUICK_START, "--variant", "advanced-2")
    face = translations(lang).gettext("none face up")
    assert face != "none face up" and face in out


def _reasons(record: Path, who: str, figure: str, lang: str) -> list[tuple[str | None, str]]:
    with speaking(lang):
        _, ex = explain_bytes(record.read_bytes(), str(record), [], who, figure)
    return [(part.rule, part.reason) for change in ex.changes for part in change.parts]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("who, figure", [("red", "money"), ("red", "prestige"), ("blue", "money"), ("blue", "prestige"), ("red", "wood")])
def test_explain_gives_the_ledger_in_the_language_asked(who, figure, lang):
    record = ROOT / "specs" / "hamburgum" / "examples" / "random-2p-seed5.log"
    english, shown = _reasons(record, who, figure, "en"), _reasons(record, who, figure, lang)
    assert [rule for rule, _ in shown] == [rule for rule, _ in english]
    noted = [(e, s) for (rule, e), (_, s) in zip(english, shown) if rule]
    assert noted, (who, figure)
    for english_reason, reason in noted:
        assert reason != english_reason, (lang, reason)
        for words in LEDGER_ENGLISH:
            assert words not in reason, (lang, words, reason)


def test_explain_prints_the_ledger_in_hungarian(capsys):
    record = ROOT / "specs" / "hamburgum" / "examples" / "random-2p-seed5.log"
    assert main(["--lang", "hu", "explain", str(record), "red", "money"]) == 0
    out = capsys.readouterr().out
    sold = translations("hu").gettext("sold {goods} on ships").split("{goods}")[0]
    assert sold and sold in out
    see = translations("hu").gettext("see:")
    ledger = out.split(f"\n{see}\n")[0]
    reasons = [re.sub(r"\[[^\]]*\]", "", line[2 + 9 + 2 + MOVE_WIDTH :]) for line in ledger.splitlines()[1:]]  # past the line and the move as written
    assert len(reasons) > 40
    for words in LEDGER_ENGLISH:
        assert not [r for r in reasons if words in r], words


def _labels(capsys, lang: str, record: Path, at: int) -> list[str]:
    assert main(["--lang", lang, "draw", str(record), "--at", str(at)]) == 0
    root = ET.fromstring(capsys.readouterr().out)
    return [node.text or "" for node in root.iter() if node.tag in (f"{NS}text", f"{NS}title")]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("record, at", [(QUICK_START, 0), (QUICK_START, 18), (ROOT / "specs" / "hamburgum" / "examples" / "random-2p-seed5.log", 100)], ids=["start", "quick-start", "random"])
def test_the_pictures_labels_speak_the_language_asked(record, at, lang, capsys):
    labels = _labels(capsys, lang, record, at)
    situation = 2  # the heading names the file and what the table waits for: shared words
    for label in labels[situation:]:
        for words in PICTURE_ENGLISH:
            assert words not in label, (lang, words, label)
    assert translations(lang).gettext("prices") in labels


@pytest.mark.parametrize("lang", LANGS)
def test_what_the_game_waits_for_is_said_in_the_language_asked(lang):
    report = check_bytes(QUICK_START.read_bytes(), str(QUICK_START))
    with speaking("en"):
        assert report.state.situation().pending == "red moves on the rondel"
    with speaking(lang):
        pending = report.state.situation().pending
    template = translations(lang).gettext("{colour} moves on the {rondel}")
    assert template != "{colour} moves on the {rondel}"
    assert load_spec("hamburgum")["rondel"]["names"][lang] in pending and "moves on the" not in pending


def _named_values(message: Message):
    for value in message.values.values():
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, Named):
                yield item
            elif isinstance(item, Message):
                yield from _named_values(item)


@pytest.mark.parametrize("lang", LANGS)
def test_every_spec_thing_a_diagnostic_names_is_in_the_language_asked(lang):
    """Token kinds, rondel spaces and sides, offices and churches in a counter-example's message
    carry their names, and show them in the reader's language."""
    found = counterexamples.load(load_spec("hamburgum"))
    named = 0
    for rule, example in sorted(found.by_rule.items()):
        for diagnostic in counterexamples.check(example).errors:
            message = diagnostic.message
            if not isinstance(message, Message):
                continue
            with speaking(lang):
                shown = localized(message)
            for thing in _named_values(message):
                assert thing.names.get(lang), (rule, lang, str(thing))
                assert thing.names[lang] in shown, (rule, lang, thing.names[lang], shown)
                named += 1
    assert named > 40


def _broken(tmp_path: Path, stem: str, old: str, new: str) -> SpecError:
    root = tmp_path / "specs"
    shutil.copytree(ROOT / "specs", root)
    path = root / "hamburgum" / f"{stem}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    spec = load_spec("hamburgum", root=root)
    with pytest.raises(SpecError) as caught:
        check_spec(spec)
    return caught.value


@pytest.mark.parametrize(
    "stem, old, new, template",
    [
        ("rondel", "side: upper}", "side: middle}", "no side {side} in sides"),
        ("harbour", "entry_berth: 3", "entry_berth: 2", "new ships enter the last berth listed"),
        ("offices", "  - {number: 1, office: mayor}\n", "", "{n} offices for {count} office tiles"),
    ],
    ids=["rondel-side", "entry-berth", "office-count"],
)
def test_a_broken_spec_is_told_in_the_language_asked(tmp_path, stem, old, new, template):
    error = _broken(tmp_path, stem, old, new)
    assert isinstance(error.message, Message) and error.message.template == template
    for lang in LANGS:
        translated = translations(lang).gettext(template)
        assert translated != template
        with speaking(lang):
            shown = localized(error.message)
        for piece in re.split(r"{\w+}", translated):
            assert piece.strip() in shown, (lang, piece, shown)


@pytest.mark.parametrize("lang", LANGS)
def test_a_site_named_by_its_number_without_board_data_is_told_in_the_language_asked(lang, capsys):
    record = QUICK_START.read_text(encoding="utf-8")
    line = next(text for text in record.splitlines() if " at " in text and "guildhall" in text)
    broken = record.replace(line, re.sub(r" at \S+ \d+| at \S+-\d+", " at 3", line, count=1), 1)
    report = check_bytes(broken.encode("utf-8"), "game.log")
    message = report.errors[0].message
    assert isinstance(message, Message) and "board data (board:sites)" in str(message)
    with speaking(lang):
        shown = localized(message)
    assert shown != str(message) and "board:sites" in shown


@pytest.mark.parametrize("lang", LANGS)
def test_the_replay_charts_name_their_figures_in_the_language_asked(lang):
    from referee.pictures.replay_page import build

    with speaking(lang):
        page, _ = build(QUICK_START.read_bytes(), "quick-start.log", [])
    by_round = translations(lang).gettext("{figure} by round")
    for figure in ("prestige", "money"):
        name = translations(lang).gettext(figure)
        assert name != figure and by_round.format(figure=name) in page, (lang, figure)
        assert by_round.format(figure=figure) not in page

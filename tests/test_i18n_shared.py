"""The shared parts of the referee in Hungarian and German: the frame of explain, check and the
replay page, the command line's refusals of a file, a name or a figure, as the catalogue has them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.engine.replay import check_bytes
from referee.errors import EXIT_USAGE
from referee.i18n import localized, speaking
from referee.i18n.catalogue import translations
from referee.notation.colours import colour_named
from referee.report.diagnostics import format_report
from referee.report.movelist import grouped_moves

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "specs").glob("*/examples/*.log"))
SAMPLE = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_explain_refuses_a_player_and_a_figure_in_the_language_asked(lang, capsys):
    t = translations(lang).gettext
    assert main(["--lang", lang, "explain", str(SAMPLE), "red", "coins"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert t("no player {who}{odd} in this game; one of: {owners}").format(who="'red'", odd="", owners="beige, orange, purple") in err
    assert "in this game" not in err
    assert main(["--lang", lang, "explain", str(SAMPLE), "beige", "gold"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert t("{owner} has no figure {figure}; figures: {known}").split("{")[0] in err and "has no figure" not in err
    assert main(["--lang", lang, "explain", str(SAMPLE), "beige", "coins", "--line", "0"]) == EXIT_USAGE
    assert t("--line takes a line number of 1 or more") in capsys.readouterr().err


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_a_missing_file_is_refused_in_the_language_asked(lang, capsys, tmp_path):
    t = translations(lang).gettext
    missing = tmp_path / "nothere.log"
    assert main(["--lang", lang, "check", str(missing)]) == EXIT_USAGE
    said = capsys.readouterr()
    assert t("no such file or folder") in said.out + said.err and "No such file" not in said.out + said.err
    assert main(["--lang", lang, "show", str(tmp_path)]) == EXIT_USAGE
    said = capsys.readouterr()
    assert t("it is a folder") in said.out + said.err and "Is a directory" not in said.out + said.err


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_a_misspelt_move_and_a_wrong_figure_are_told_in_the_language_asked(lang, capsys, tmp_path):
    t = translations(lang).gettext
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    buy = next(i for i, line in enumerate(lines) if line.startswith("beige: buy "))
    check = next(i for i, line in enumerate(lines) if line.startswith("check beige:"))
    broken = list(lines)
    broken[buy] = broken[buy].replace("buy", "bye")
    broken[check] = re.sub(r"points \d+", "points 77", broken[check])
    record = tmp_path / "broken.log"
    record.write_text("\n".join(broken), encoding="utf-8")
    assert main(["--lang", lang, "check", "--keep-going", str(record)]) != 0
    out = capsys.readouterr().out
    assert t("repair: {repair}").split("{")[0] in out and "\nrepair: " not in out
    assert f"/{lang}/speicherstadt/rules.html#" in out  # the see: link leads to the page in that language
    assert t("final standings:") in out


def test_the_status_of_an_uncertain_value_is_in_the_language_asked(capsys):
    for lang in ("hu", "de"):
        t = translations(lang).gettext
        main(["--lang", lang, "check", "--details", str(SAMPLE)])
        out = capsys.readouterr().out
        assert f"  {t('unknown'):<11} cards:types.contract.faces" in out, lang
        assert "  unknown " not in out


def test_a_group_of_moves_without_more_words_says_so_in_the_language_in_use():
    moves = [f"blue: tax build {n}" for n in range(3)] + ["blue: tax build"]
    for lang in ("hu", "de"):
        with speaking(lang):
            shown = grouped_moves(moves)
        assert translations(lang).gettext("(no more)") in shown[0] and "(no more)" not in shown[0]


ENGLISH_ON_THE_PAGE = ("Move ", "(line ", "Line ", "start", "the rule", "By round", "previous move", "next move", "more problems")


@pytest.mark.parametrize("lang", ["hu", "de"])
@pytest.mark.parametrize("example", EXAMPLES[::3], ids=lambda p: p.name)
def test_the_replay_page_speaks_the_language_asked(lang, example, tmp_path):
    """Every word the page's frame says is the catalogue's: the headings, the captions the
    script writes (given by the page, "Move 3 (line 12)"), the charts' first and last points."""
    t = translations(lang).gettext
    out = tmp_path / "replay.html"
    assert main(["--lang", lang, "replay", str(example), "-o", str(out)]) in (0, 1)
    page = out.read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in page
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S).group(1))
    moves = [e for e in data["entries"] if e["number"]]
    first = moves[0]
    assert first["head"] == t("Move {n} (line {line})").format(n=first["number"], line=first["line"])
    frame = re.sub(r"<script.*?</script>|<style>.*?</style>|<svg.*?</svg>", "", page, flags=re.S)
    frame = re.sub(r"<code>.*?</code>", "", frame)  # the record's own lines, as written
    for heading in ("Moves", "By round"):
        assert f">{t(heading)}<" in frame
    charts = re.search(r'<section class="charts".*?</section>', page, re.S).group(0)
    assert f">{t('start')}<" in charts and ">start<" not in charts
    assert not [word for word in ENGLISH_ON_THE_PAGE if word in frame], [word for word in ENGLISH_ON_THE_PAGE if word in frame]
    assert '"Move "' not in (ROOT / "referee" / "pictures" / "assets" / "replay.js").read_text(encoding="utf-8")  # no words of its own


def test_the_completion_menu_says_what_a_word_is_in_the_language_in_use():
    """`record`'s menu beside each word: the English a program compares, shown localized."""
    from referee.i18n import localized
    from tests.test_continuations import recording_at

    continuations = recording_at("speicherstadt", 3, 1, 4).continuations()
    choices = continuations.complete("")
    metas = {c.meta for c in choices}
    assert metas & {"1 move", "command", "a checkpoint line"} or any(re.fullmatch(r"\d+ moves", m) for m in metas), metas
    for lang in ("hu", "de"):
        t = translations(lang)
        with speaking(lang):
            shown = {localized(c.meta) for c in choices if c.meta and not c.meta.startswith(("=", "<"))}
        english = {str(c.meta) for c in choices if c.meta and not c.meta.startswith(("=", "<"))}
        expected = {re.sub(r"^(\d+) moves$", lambda m: t.gettext("{n} moves").format(n=m.group(1)), m) if re.fullmatch(r"\d+ moves", m) else t.gettext(m) for m in english}
        assert shown == expected and not shown & english, (lang, shown)


def test_validate_provenance_names_each_status_in_the_language_asked(capsys):
    t = translations("de").gettext
    assert main(["--lang", "de", "validate", "--provenance"]) == 0
    out = capsys.readouterr().out.split("\n")
    word = t("likely")
    rows = [line for line in out if line.startswith(f"  {word} ")]
    assert rows and not [line for line in out if line.startswith("  likely ")]
    # what follows a value (its note, or its lines) stands under the file, past the widest word
    at = out.index(rows[0])
    column = len(rows[0]) - len(rows[0][2:].lstrip(" ").split(" ", 1)[-1].lstrip(" "))
    assert len(out[at + 1]) - len(out[at + 1].lstrip(" ")) >= column, (rows[0], out[at + 1])


VERDICTS = [ROOT / "specs" / g / "examples" / f for g, f in (("speicherstadt", "sample-4p.log"), ("hamburgum", "random-2p-seed5.log"), ("canterbury", "random-4p-seed7.log"))]


@pytest.fixture(scope="module")
def verdicts():
    """Each game's sample checked once; its verdict is then read in each language."""
    return [check_bytes(path.read_bytes(), path.name) for path in VERDICTS]


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_verdict_names_the_parts_of_a_score_its_facts_and_its_warnings_in_the_language_asked(verdicts, lang):
    for report in verdicts:
        words = [k for s in report.standings for k, v in s.breakdown.items() if v] + [label for s in report.standings for label, _value, _sign in s.tiebreak]
        words += [text for text, _pos in report.record_facts] + [d.message for d in report.diagnostics if d.severity == "warning"]
        with speaking(lang):
            shown = format_report(report)
            translated = {str(word): localized(word) for word in words}
        assert translated, report.name
        for word in translated.values():
            assert word in shown, (report.name, word)
        # every word is shown as the language has it: not one of them is left in English
        assert all(word != english for english, word in translated.items()), (report.name, translated)
        # and so is each player's colour in the standings, as the colours' file names it
        with speaking(lang):
            colours = [localized(colour_named(s.seat.colour)) for s in report.standings]
        assert all(colour != s.seat.colour and f"{s.rank}. {colour} " in shown for s, colour in zip(report.standings, colours)), (report.name, colours)

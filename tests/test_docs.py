"""The rulebook pages: rendered from the specs, never stale, failing loudly on data they cannot show."""

import re
import shutil
from pathlib import Path

import pytest

from referee import site as docs
from referee.cli import main as cli
from referee.cli.arguments import build_parser
from referee.report.diagnostics import rule_link
from referee.spec.loader import available_games, data_root, iter_uncertain, load_spec

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def data_copy(tmp_path):
    """A private copy of The Speicherstadt's specs and the grammars that a test may edit."""
    for part in ("common", "schema", "speicherstadt"):
        shutil.copytree(ROOT / "specs" / part, tmp_path / "specs" / part)
    shutil.copytree(ROOT / "grammar", tmp_path / "grammar")
    return tmp_path


def pages_of(data: Path) -> dict[str, str]:
    return {page.path: page.text for page in docs.render_site(data, cli=build_parser)}


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module", params=available_games())
def game_pages(request):
    spec = load_spec(request.param)
    return spec, {page.path: page.text for page in docs.game_pages(spec, data_root())}


def test_every_rule_has_its_anchor_where_the_diagnostic_links(game_pages):
    spec, pages = game_pages
    rules_page = pages[f"{spec.game}/rules.md"]
    for rule in spec.rules.values():
        assert f"{{#{rule.anchor}}}" in rules_page, rule.id
        assert rule.text in rules_page
        # the `see:` link names the page that the rules page becomes (use_directory_urls: false)
        assert rule_link(rule.id).endswith(f"/{spec.game}/rules.html#{rule.anchor}")


def test_every_uncertain_value_is_on_the_verify_page(game_pages):
    spec, pages = game_pages
    verify = pages[f"{spec.game}/verify.md"]
    for p in iter_uncertain(spec):
        assert f'<span id="{docs.markdown.verify_anchor(p)}"></span>`specs/{spec.game}/{p.file}.yaml`<br>key `{p.key}`' in verify


def test_the_verify_page_offers_learning_numbers_from_records(game_pages):
    # every game's `referee box GAME --infer` works, so every verify page shows the step
    spec, pages = game_pages
    assert f"`referee box {spec.game} --infer *.log -o learnt.yaml`" in pages[f"{spec.game}/verify.md"]


def all_names(node):
    if docs.markdown.is_names(node):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from all_names(value)
    elif isinstance(node, list):
        for value in node:
            yield from all_names(value)


def test_every_name_appears_in_every_language_it_has(game_pages):
    spec, pages = game_pages
    text = pages[f"{spec.game}/tables.md"] + pages[f"{spec.game}/index.md"]
    for stem, data in spec.files.items():
        if stem not in ("rules", "game"):
            for names in all_names(data):
                for name in names.values():
                    assert docs.markdown.escape(name) in text, (stem, name)


def test_speicherstadt_tables_show_the_data():
    pages = {p.path: p.text for p in docs.game_pages(load_spec("speicherstadt"), data_root())}
    tables = pages["speicherstadt/tables.md"]
    assert '| <span id="cards-types-fireman"></span>' not in tables  # card types have a heading each
    assert "#### Fireman {#cards-types-fireman}" in tables
    assert "English: **Fireman** · German: **Feuerwehrmann** · Hungarian: **Tűzoltó**" in tables
    assert "| Counts | A: 2, B: 3, C: 2, D: 3 |" in tables
    assert "### The deck by season {#cards-deck-by-season}" in tables
    assert "| Points | 2 | 5 | 9 | 14 |" in tables  # counting offices by number owned
    assert re.search(r"\| <span id=\"setup-by-players-2\"></span>`2` \| 3 \| port, fireman-3 \|", tables)
    overview = pages["speicherstadt/index.md"]
    assert "| 1 | Supply | Angebot | Kínálat | [rules](rules.md#section-supply) |" in overview


def test_changing_a_number_in_a_spec_changes_the_page(data_copy, tmp_path_factory):
    assert "| Start | 5 |" in pages_of(data_copy)["speicherstadt/tables.md"]
    edited = tmp_path_factory.mktemp("edited")  # a new tree: specs are read once per directory and process
    shutil.copytree(data_copy, edited, dirs_exist_ok=True)
    edit(edited / "specs" / "speicherstadt" / "components.yaml", "start: 5", "start: 7")
    after = pages_of(edited)["speicherstadt/tables.md"]
    assert "| Start | 7 |" in after and "| Start | 5 |" not in after


def test_a_variant_shows_each_value_before_and_after(data_copy):
    (data_copy / "specs" / "speicherstadt" / "variants").mkdir(exist_ok=True)
    (data_copy / "specs" / "speicherstadt" / "variants" / "rich-start.yaml").write_text(
        "kind: variant\nid: rich-start\ngame: speicherstadt\ntitle: A richer start\n"
        "description: Everyone starts with more money.\n"
        "changes:\n  components:\n    coins: {start: 9}\n  scoring:\n    counting_offices:\n      points: {1: 3, 2: 6, 3: 10, 4: 15}\n",
        encoding="utf-8",
    )
    page = pages_of(data_copy)["speicherstadt/variants.md"]
    assert "## A richer start {#variant-rich-start}" in page
    assert "| `components` | `coins.start` | 5 | 9 |" in page
    assert "| `scoring` | `counting_offices.points.1` | 2 | 3 |" in page
    assert '`[Variant "rich-start"]`' in page


def test_a_rule_without_text_fails_the_build(data_copy):
    edit(
        data_copy / "specs" / "speicherstadt" / "rules.yaml",
        "text: When all {components:board.building_spaces} building spaces above a card are taken, no further worker may queue there.",
        "text: ' '",
    )
    with pytest.raises(docs.DocsError, match="speicherstadt/column-full.*needs a title and text"):
        docs.render_site(data_copy)


def test_data_too_deep_for_tables_fails_the_build(data_copy):
    deep = "board_art:\n  a:\n    b:\n      c:\n        d:\n          e: {f: 1, g: 2}\n          h: {f: 1}\n"
    (data_copy / "specs" / "speicherstadt" / "game.yaml").open("a", encoding="utf-8").write(deep)
    with pytest.raises(docs.DocsError, match="board_art.a.b.c.*nested too deeply"):
        docs.render_site(data_copy)


def test_a_value_of_unknown_type_fails_the_build(data_copy):
    (data_copy / "specs" / "speicherstadt" / "game.yaml").open("a", encoding="utf-8").write("box: !!set {lid, tray}\n")
    with pytest.raises(docs.DocsError, match="game.yaml:box: cannot show a value of type set"):
        docs.render_site(data_copy)


def test_referee_docs_writes_the_same_markdown(data_copy, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("REFEREE_DATA", str(data_copy))
    monkeypatch.setattr(docs, "site_files", lambda data=None, lang="en": [])  # the pages only; the replay pages are drawn in test_docs_output_folder.py
    out = tmp_path / "out"
    assert cli.main(["docs", "--out", str(out)]) == 0
    written = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in out.rglob("*.md")}
    assert written == pages_of(data_copy)
    assert f"wrote {len(written)} pages" in capsys.readouterr().out


def test_an_unknown_snippet_in_a_hand_written_page_fails():
    with pytest.raises(docs.DocsError, match="no generated snippet 'nonsense'"):
        docs.expand_snippets("<!-- referee:nonsense -->")


def test_the_command_line_reference_lists_every_command():
    page = docs.commandline.render(build_parser())
    for command in ("check", "show", "draw", "replay", "moves", "play", "validate", "docs"):
        assert f"## referee {command} {{#{command}}}" in page
    assert "| `--format` | Text for people, json for programs. One of `text`, `json`. Default: `text`. |" in page
    assert "| `--format` | Text: a summary to read (default); yaml or json: the whole state as data. One of `text`, `yaml`, `json`. |" in page


def test_a_rebuild_reads_edited_specs_afresh(data_copy, monkeypatch):
    """`mkdocs serve` calls the hook for every rebuild; an edited spec must show on the next one."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("site_hooks", ROOT / "docs" / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)

    class Config:  # a build of one language (no i18n plugin): every call renders afresh
        nav = None
        plugins: dict = {}

    monkeypatch.setenv("REFEREE_DATA", str(data_copy))
    monkeypatch.setattr(hooks.docs, "site_files", lambda lang: [])  # the pages are what is read here, not the replays
    rules = data_copy / "specs" / "speicherstadt" / "rules.yaml"

    def rules_page() -> str:
        hooks.on_config(Config())
        return next(p.text for p in hooks._pages if p.path == "speicherstadt/rules.md")

    assert "Harbour duties" not in rules_page()
    text = rules.read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.strip().startswith("title:"))
    rules.write_text(text.replace(title, title.split("title:")[0] + "title: Harbour duties", 1), encoding="utf-8")
    assert "Harbour duties" in rules_page()


def test_the_json_report_is_documented_key_by_key():
    from referee.engine.replay import check_bytes
    from referee.report.diagnostics import report_json

    report = report_json(check_bytes(b'[Game "canterbury"]\n[Players "blue, red, green"]\n\nblue: full build wel b3\n', "game.log"))
    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    section = page[page.index("## Reports for programs") :]
    keys = set(report) | set(report["diagnostics"][0])
    missing = sorted(k for k in keys if f"`{k}`" not in section)
    assert not missing, f"keys of the JSON report missing from docs/getting-started.md: {missing}"


WORKED = """kind: worked-examples
game: speicherstadt
examples:
  - rule: {rule}
    record: {record}
    caption: The display when Purchase ends.
"""


def test_a_listed_worked_example_is_drawn_under_its_rule_with_its_figures(data_copy):
    examples = data_copy / "specs" / "speicherstadt" / "examples"
    (examples / "worked-examples.yaml").write_text(WORKED.format(rule="speicherstadt/purchase-funds", record="purchase-queue.log"), encoding="utf-8")
    page = pages_of(data_copy)["speicherstadt/rules.md"]
    section = page.split("{#purchase-funds}", 1)[1].split("\n### ", 1)[0]
    assert "![The display when Purchase ends.](pictures/purchase-funds.svg){ loading=lazy }" in section
    figures = [line.strip() for line in (examples / "purchase-queue.log").read_text(encoding="utf-8").splitlines() if line.startswith("check ")]
    assert figures and all(f"`{line}` ✓" in section for line in figures)


@pytest.mark.parametrize(
    "rule, record, message",
    [
        ("speicherstadt/purchase-turn", "purchase-queue.log", "speicherstadt/purchase-turn has a picture already"),
        ("speicherstadt/no-such-rule", "purchase-queue.log", "'speicherstadt/no-such-rule' is not a rule of speicherstadt's rules.yaml"),
        ("speicherstadt/purchase-funds", "missing.log", "no file 'missing.log' in the examples folder"),
        ("speicherstadt/purchase-funds", "../rules.yaml", "no file '../rules.yaml' in the examples folder"),
    ],
)
def test_a_worked_example_the_page_cannot_show_stops_the_build(data_copy, rule, record, message):
    (data_copy / "specs" / "speicherstadt" / "examples" / "worked-examples.yaml").write_text(WORKED.format(rule=rule, record=record), encoding="utf-8")
    with pytest.raises(docs.DocsError, match=re.escape(message)):
        docs.render_site(data_copy)

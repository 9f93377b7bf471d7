"""Bring the message catalogues up to date with the code (Babel).

    python scripts/catalogues.py            extract referee/i18n/referee.pot from the code,
                                            update locale/{hu,de}/LC_MESSAGES/referee.po from
                                            it (keeping every translation) and list what is
                                            still untranslated
    python scripts/catalogues.py --check    the same without writing: exit 1 when a catalogue
                                            is out of date or a message lacks a translation

The `.mo` files are not kept in the repository: `referee.i18n` compiles each `.po` when it
is first used after a change.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "referee" / "i18n"
POT = I18N / "referee.pot"
LANGUAGES = ("hu", "de")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "Message": None}


def template() -> Catalog:
    """Every message the code marks, as a catalogue without translations."""
    catalog = Catalog(project="referee", fuzzy=False)
    # the web pages' templates say their words with `_()` too (Jinja2's own extractor)
    method_map = [("referee/**.py", "python"), ("referee/server/templates/**.html", "jinja2.ext:babel_extract")]
    for filename, lineno, message, comments, context in extract_from_dir(str(ROOT), method_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
        if filename.startswith("referee/") and "_data" not in filename:
            catalog.add(message, locations=[(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(lang: str) -> Path:
    return I18N / "locale" / lang / "LC_MESSAGES" / "referee.po"


def updated(lang: str, pot: Catalog) -> Catalog:
    """The language's catalogue with the template's messages and its own translations."""
    path = po_path(lang)
    if path.is_file():
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang)
    else:
        catalog = Catalog(locale=lang, project="referee", fuzzy=False)
    catalog.update(pot, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    return catalog


def untranslated(catalog: Catalog) -> list[str]:
    missing = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if message.fuzzy or not all(strings):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


def text_of(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, omit_header=False, no_location=True, sort_output=True, width=100)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when anything is out of date or untranslated")
    args = parser.parse_args(argv)
    pot = template()
    stale = []
    outputs = {POT: text_of(pot)}
    for lang in LANGUAGES:
        catalog = updated(lang, pot)
        outputs[po_path(lang)] = text_of(catalog)
        for message in untranslated(catalog):
            stale.append(f"{lang}: untranslated: {message!r}")
    for path, data in outputs.items():
        if not path.is_file() or _body(path.read_bytes()) != _body(data):
            stale.append(f"{path.relative_to(ROOT)}: out of date")
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
    for line in stale:
        print(line)
    return 1 if stale and args.check else 0


def _body(data: bytes) -> bytes:
    """A catalogue without its header's dates, which change on every write."""
    return b"\n".join(line for line in data.split(b"\n") if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision-Date')))


if __name__ == "__main__":
    sys.exit(main())

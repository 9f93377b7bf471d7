"""The compiled catalogue of a language, compiled from its `.po` when that is newer.

The `.po` files are the catalogues' source, kept in the repository; the `.mo` beside each is
made from it here (with Babel) the first time a language is used after a change, and kept
when the folder may be written, so that a fresh clone or an installed copy needs no build
step. A catalogue that cannot be read leaves the English text: a message is never lost.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "referee"


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The messages of `lang`, or none (English) when it has no catalogue."""
    po = po_path(lang)
    mo = po.with_suffix(".mo")
    try:
        if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
            with mo.open("rb") as f:
                return gettext.GNUTranslations(f)
        data = compiled(po)
    except (OSError, ValueError):
        return gettext.NullTranslations()
    try:
        mo.write_bytes(data)
    except OSError:
        pass  # an installed copy may be read-only: the compiled catalogue is kept in memory
    return gettext.GNUTranslations(io.BytesIO(data))


def compiled(po: Path) -> bytes:
    """A `.po` catalogue compiled to `.mo` bytes (Babel); fuzzy entries are left out."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()

"""The languages the referee speaks: English, Hungarian and German, from gettext catalogues.

Every text a person reads is written in English in the code, marked with `_()` (translated
where it is said) or `N_()` (only marked: translated later, where it is shown). The
catalogues are `locale/<lang>/LC_MESSAGES/referee.po`, extracted and compiled with Babel;
a catalogue is compiled when first used if its `.mo` is missing or older than its `.po`, so
a fresh clone speaks every language without a build step.

The language is chosen once per command: `--lang`, else the locale of the environment
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them), else English. Rule ids, file
formats, JSON keys and the notation's keywords stay English in every language.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator, Mapping

from referee.i18n.catalogue import translations

LANGS = ("en", "hu", "de")
DEFAULT = "en"
_ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
_current: contextvars.ContextVar[str] = contextvars.ContextVar("referee_lang", default=DEFAULT)


def language_of(value: str | None) -> str | None:
    """The language a locale name means (hu_HU.UTF-8: hu; de-AT: de; C: en), or None."""
    for part in (value or "").split(":"):
        code = part.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
        if code in LANGS:
            return code
        if code in ("c", "posix"):
            return DEFAULT
    return None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment's locale asks for, as gettext reads it; English when
    it names none of ours."""
    environ = os.environ if environ is None else environ
    for name in _ENVIRONMENT:
        if environ.get(name):
            return language_of(environ[name]) or DEFAULT
    return DEFAULT


def use(lang: str | None) -> str:
    """Speak `lang` from now on (None: the environment's); returns the language in use."""
    chosen = lang if lang in LANGS else from_environment()
    _current.set(chosen)
    return chosen


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Speak `lang` (None: the environment's) inside the block, and what was spoken before
    after it: a command run in a test, a server's request, leave no language behind."""
    token = _current.set(lang if lang in LANGS else from_environment())
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def current() -> str:
    return _current.get()


def _(message: str) -> str:
    """A message in the language in use."""
    if not message:
        return message
    lang = _current.get()
    return message if lang == DEFAULT else translations(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """A message whose words depend on a count ("1 move", "3 moves")."""
    lang = _current.get()
    if lang == DEFAULT:
        return singular if n == 1 else plural
    return translations(lang).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A message in the language in use as `context` reads it: one English word may be two
    words in another language (a table's "value": a spec's setting, or a kind of figure)."""
    lang = _current.get()
    return message if lang == DEFAULT else translations(lang).pgettext(context, message)


def N_(message: str) -> str:
    """Mark a message for the catalogues, to be translated where it is shown."""
    return message


class Message(str):
    """A message translated when it is shown, not when it is made: a rule's diagnostic is
    built while the record is replayed, and is read in whatever language asks for it.

    `Message("{colour} moves {n} spaces", colour="red", n=5)` is, as a string, the English
    text (so that it compares, measures and serialises as before); `localized` gives it in
    the language in use."""

    template: str
    values: dict

    def __new__(cls, template: str, **values):
        self = super().__new__(cls, template.format(**{k: _joined(v, str) for k, v in values.items()}))
        self.template = template
        self.values = values
        return self

    def translated(self) -> str:
        return _(self.template).format(**{k: _joined(v, localized) for k, v in self.values.items()})

    def __reduce__(self):  # a worker process sends its report's messages back whole
        return (_rebuild, (self.template, self.values))


def _joined(value, shown):
    """A value of a message as shown: a list of names joined with commas."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(shown(v)) for v in value)
    return shown(value)


def _rebuild(template: str, values: dict) -> Message:
    return Message(template, **values)


class Named(str):
    """A thing's name from a spec, in English as a string, in the language in use when shown
    (`localized`): the spec's `names` give it in each language."""

    names: dict

    def __new__(cls, english: str, names: dict | None = None):
        self = super().__new__(cls, english)
        self.names = {k: v for k, v in (names or {}).items() if isinstance(v, str)}
        return self

    def translated(self) -> str:
        return self.names.get(_current.get()) or str.__str__(self)

    def __reduce__(self):
        return (Named, (str.__str__(self), self.names))


def localized(text):
    """A text in the language in use: a `Message` translated, a `Named` in its language, any
    other text as it is."""
    return text.translated() if isinstance(text, (Message, Named)) else text


__all__ = ["LANGS", "Message", "Named", "N_", "_", "current", "from_environment", "language_of", "localized", "ngettext", "pgettext", "speaking", "use"]

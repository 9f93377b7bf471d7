"""A game's keywords in the languages of its spec: grammar rules extended with other spellings.

A grammar writes a keyword that names a thing of the game as a rule of its own, with the
English word: `_trade: "trade"i`. The game's spec gives the thing other names (Kontor,
Kereskedés), and `keyword_rules` turns them into `%extend` lines for Lark, so that the parser
accepts every name, each word in any case, and stays LALR: each spelling is a sequence of
plain literals, like the English one.
"""

from __future__ import annotations

import re

from referee.notation.names import folded, spelled_out, words

# Other spellings of a grammar's keyword rules, from a game's spec: (rule, (spelling, ...)), ...
Keywords = tuple[tuple[str, tuple[str, ...]], ...]

_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"i?')
_REGEX = re.compile(r"/(?:[^/\\\n]|\\.)+/[imsulx]*")
_PLAIN_WORD = re.compile(r"^(?:[0-9]+-)?[^\W\d_][\w\-\u0300-\u036f]*$|^&$")
_COMMENT = re.compile(r"//[^\n]*")
_DEFINITION = re.compile(r"^([?!]?\w+)\s*:(.*)$", re.MULTILINE)  # a rule or terminal and its alternatives


def keyword_rules(grammar: str, keywords: Keywords) -> tuple[str, frozenset[str]]:
    """`%extend` lines that give each keyword rule (such as `_trade: "trade"i`) the other
    spellings a spec lists (Kontor, Kereskedés), each word case-insensitive, and the words
    they add. A spelling the grammar already has, or one that is not plain words, is left out,
    so that the spec can never make two keywords alike."""
    # the comments quote keywords too, and a regular expression may hold a lone quote
    grammar = _REGEX.sub("", _COMMENT.sub("", grammar))
    literals = _LITERAL.findall(grammar)
    taken = {(w.lower(),) for w in literals}
    definitions: dict[str, str] = {}  # each name's first definition, as a search from the top finds it
    for found in _DEFINITION.finditer(grammar):
        definitions.setdefault(found.group(1), found.group(2))
    defined = set()  # a spec's name for a rule the grammar lacks is ignored
    for rule, _ in keywords:
        definition = definitions.get(rule)
        if definition is not None:
            defined.add(rule)
            taken.update(tuple(w.lower() for w in _LITERAL.findall(a)) for a in definition.split("|"))
    lines, added = [], set()
    terminals: dict[str, str] = {}  # a word that is no identifier -> the terminal it is
    for rule, spellings in keywords:
        if rule not in defined:
            continue
        alternatives = []
        for parts in _typed_forms(spellings):
            key = tuple(w.lower() for w in parts)
            if not parts or key in taken or not all(_PLAIN_WORD.match(w) for w in parts):
                continue
            taken.add(key)
            alternatives.append(" ".join(_literal(w, terminals) for w in parts))
            added.update(key)
        if alternatives:
            lines.append(f"%extend {rule}: " + " | ".join(alternatives))
    lines += [f'{name}: "{word}"i' for word, name in terminals.items()]
    added.update(name.lower() for name in terminals.values())
    return ("\n" + "\n".join(lines) + "\n" if lines else ""), frozenset(added - {w.lower() for w in literals})


def _literal(word: str, terminals: dict[str, str]) -> str:
    """A word of a spelling as the grammar writes it. A word that is no identifier
    (dupla-építkezés), or that is another word in capitals (groß, gross), is a terminal of
    its own, named here: Lark would give it a number for a name, which an "expected ..." list could not tell from the grammar's own words."""
    if word == "&":
        return '"&"'
    low = word.lower()
    if low.isidentifier() and low.upper().lower() == low:  # ß is SS in capitals, as ss is
        return f'"{low}"i'
    return terminals.setdefault(word.lower(), f"_SPELT_{len(terminals)}")


def _typed_forms(spellings: tuple[str, ...]) -> list[list[str]]:
    """Each spelling as its words, then as they are typed without accents and with umlauts
    written out (raktár: raktar; Kaffeeröster: kaffeeroster, kaffeeroester), and each name of
    several words also joined by hyphens (dupla építkezés: dupla-építkezés)."""
    out: list[list[str]] = []
    for text in spellings:
        parts = words(text)
        forms = [parts]
        if len(parts) > 1 and all(w != "&" for w in parts):
            forms.append(["-".join(parts)])
        for form in list(forms):
            forms.append([folded(w) if w != "&" else w for w in form])
            forms.append([folded(spelled_out(w)) if w != "&" else w for w in form])
        for form in forms:
            if form and form not in out:
                out.append(form)
    return out

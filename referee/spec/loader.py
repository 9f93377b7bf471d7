"""Game data: load the YAML specs of a game, merge variant overlays, validate.

Every number a rule needs lives in a spec file, so this module is the only
place that reads them. A game's spec is read and validated once per process
(`load_spec` is cached) however many records are checked against it.

Values whose source is less than certain are written in the YAML as a wrapper::

    points: {value: 4, provenance: provisional, note: "why this stand-in"}

The loader unwraps such a value (rules see plain `4`) and keeps a
`Provenance` entry for it, so a report can say which uncertain values a
verdict relied on, and `validate --provenance` can list them all.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee import _cache as cache
from referee.errors import MAX_SPEC_BYTES, MAX_SPEC_DEPTH, SpecError, locate
from referee.i18n import Message
from referee.spec.boxfile import answers_in, box_error, box_fingerprint, box_path, fingerprint_of, lay_over, read_box_bytes
from referee.spec.files import FileRefused, read_bytes, read_text
from referee.spec.safeschema import SchemaTrouble, start_budget, validator_class

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

PROVENANCE_STATUSES = ("certain", "likely", "guess", "provisional", "unknown")
UNCERTAIN = ("likely", "guess", "provisional", "unknown")
WRAPPER_KEYS = {"value", "provenance", "note", "source"}
# No count, price or score of these games comes near it (the largest is 600); a bigger number
# would only make a game set itself up with millions of ships or cards and never finish.
MAX_SPEC_NUMBER = 100_000


def data_root() -> Path:
    """Where `specs/` and `grammar/` are: REFEREE_DATA, or the data that ships with the code."""
    override = os.environ.get("REFEREE_DATA")
    if override:
        # resolved: a relative folder would follow the working directory, and cannot be a URL
        return Path(override).resolve()
    return shipped_data_root()


def shipped_data_root() -> Path:
    """The data this code was written against: inside an installed wheel, or the source tree."""
    return _shipped_data_root()


@functools.cache
def _shipped_data_root() -> Path:
    """Looked up once: every record checked asks."""
    bundled = Path(__file__).resolve().parent.parent / "_data"
    if (bundled / "specs").is_dir():
        return bundled
    return Path(__file__).resolve().parent.parent.parent


def specs_root() -> Path:
    return data_root() / "specs"


def grammar_root() -> Path:
    return data_root() / "grammar"


@dataclass(frozen=True)
class Provenance:
    """Where an uncertain spec value came from."""

    file: str  # spec file stem, e.g. "cards"
    key: str  # dotted path inside the file
    status: str
    note: str
    value: Any = None
    source: str | None = None

    @property
    def address(self) -> str:
        return f"{self.file}:{self.key}"


@dataclass(frozen=True)
class Rule:
    """One rule of a game's `rules.yaml`: what a violation names and the rules pages show."""

    id: str
    title: str
    text: str
    source: str
    reads: tuple[str, ...] = ()
    checked: str = "move"  # move | figure | record | not-checked
    reading: str | None = None
    section: str | None = None
    # the rule in other languages, from rules.<lang>.yaml: (lang, title, text) each
    translations: tuple[tuple[str, str, str], ...] = ()
    waivable: bool = True  # a table's ruling may set it aside; False: a fact of the pieces

    @property
    def anchor(self) -> str:
        return self.id.split("/", 1)[1]

    def words(self, lang: str) -> tuple[str, str] | None:
        """The rule's title and text in `lang`, placeholders filled; None when it has none
        in that language (English always has them)."""
        if lang == "en":
            return self.title, self.text
        return next(((title, text) for code, title, text in self.translations if code == lang), None)


@dataclass
class Variant:
    """A variant applied to a spec: the overlay's description and the changes it made."""

    id: str
    title: str
    description: str
    path: str
    changes: dict


@dataclass
class Spec:
    """All data of one game with its variants applied."""

    game: str
    directory: Path
    files: dict[str, Any]
    paths: dict[str, Path]
    provenance: dict[str, Provenance]
    rules: dict[str, Rule]
    variants: tuple[Variant, ...] = ()
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    box: str | None = None  # the group's box file laid over the shipped values (spec/boxfile.py)
    box_replaced: dict[str, Any] = field(default_factory=dict, repr=False)  # by address: the value each answer replaced
    # texts of rules.<lang>.yaml that name no rule or section: never part of a verdict, so
    # reported by `validate` (a rule left out of rules.yaml is then named where it is missing)
    text_problems: tuple[SpecError, ...] = field(default=(), repr=False, compare=False)
    _under: dict[str, list[Provenance]] = field(default_factory=dict, repr=False, compare=False)
    _holding: dict[str, Provenance | None] = field(default_factory=dict, repr=False, compare=False)
    _by_file: dict[str, list[tuple[list[str], Provenance]]] | None = field(default=None, repr=False, compare=False)
    _relied_at: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)

    def __getitem__(self, stem: str) -> Any:
        return self.files[stem]

    @property
    def meta(self) -> dict:
        return self.files["game"]

    def get(self, address: str) -> Any:
        """Value at `file:dotted.key`; raises KeyError when absent."""
        stem, _, key = address.partition(":")
        node = self.files[stem]
        for part in key.split(".") if key else ():
            node = _child(node, part)
        return node

    def has(self, address: str) -> bool:
        """True when the address exists; a `*` segment matches any key or list item."""
        stem, _, key = address.partition(":")
        if stem not in self.files:
            return False
        nodes = [self.files[stem]]
        for part in key.split(".") if key else ():
            nxt = []
            for node in nodes:
                if part == "*" and isinstance(node, (dict, list)):
                    nxt.extend(node.values() if isinstance(node, dict) else node)
                    continue
                try:
                    nxt.append(_child(node, part))
                except (KeyError, IndexError, TypeError, ValueError):
                    pass
            nodes = nxt
        return bool(nodes)

    def known(self, address: str) -> bool:
        """True when the value exists and is not null (an unknown value is null)."""
        return self.has(address) and self.get(address) is not None

    def uncertain_under(self, address: str) -> list[Provenance]:
        """Uncertain values at or below a `file:key` address (kept: every report asks again)."""
        if address not in self._under:
            if self._by_file is None:  # split once: a report asks about a hundred addresses
                self._by_file = {}
                for p in self.provenance.values():
                    self._by_file.setdefault(p.file, []).append((p.key.split("."), p))
            stem, _, key = address.partition(":")
            pattern = key.split(".") if key else []
            found = []
            for parts, p in self._by_file.get(stem, ()):
                if len(parts) >= len(pattern) and all(a in ("*", b) for a, b in zip(pattern, parts)):
                    found.append(p)
            self._under[address] = found
        return list(self._under[address])

    def uncertain_holding(self, address: str) -> Provenance | None:
        """The uncertain value that holds an address whole: a table typed in with one
        provenance holds each of its entries."""
        if address in self._holding:  # kept: every report asks again, for hundreds of values
            return self._holding[address]
        stem, _, key = address.partition(":")
        parts = key.split(".") if key else []
        found = None
        for n in range(len(parts) - 1, 0, -1):
            p = self.provenance.get(f"{stem}:{'.'.join(parts[:n])}")
            if p is not None:
                found = p
                break
        self._holding[address] = found
        return found

    def relied_on(self, rule_ids, values=()) -> list[Provenance]:
        """Uncertain values that the given rules read (all their `reads`), plus those at, below
        or holding the given addresses (values a rule used one by one), in a stable order: by
        address, so the order the rules and values come in does not matter."""
        wanted: set[str] = set()
        for rid in rule_ids:
            rule = self.rules.get(rid)
            if rule is not None:
                for address in rule.reads:
                    wanted.update(p.address for p in self.uncertain_under(address))
        # a replay names a hundred or more values, most of them asked about before: the
        # addresses found for each are kept, and put together in one union
        relied_at, each = self._relied_at, []
        for address in values:  # read once: `values` may be any iterable
            found = relied_at.get(address)
            if found is None:
                held = self.uncertain_under(address) or [self.uncertain_holding(address)]
                found = relied_at[address] = tuple(p.address for p in held if p is not None)
            each.append(found)
        wanted = wanted.union(*each)
        return [self.provenance[address] for address in sorted(wanted)]

    def path_of(self, stem: str) -> str:
        path = self.paths.get(stem)
        return str(path) if path else stem

    def name(self, entry: dict | None, lang: str = "en", default: str = "") -> str:
        names = (entry or {}).get("names") or {}
        return names.get(lang) or names.get("en") or default


def _child(node: Any, part: str) -> Any:
    if isinstance(node, list):
        return node[int(part)]
    if isinstance(node, dict):
        if part in node:
            return node[part]
        if part.lstrip("-").isdigit() and int(part) in node:
            return node[int(part)]
        raise KeyError(part)
    raise TypeError(part)


# --- reading YAML -----------------------------------------------------------


def _safe_loader():
    """The safe loader of yaml.safe_load, in its libyaml build when PyYAML has one: the same
    safe schema (plain data only, no Python objects), and ten times faster at start-up.
    PyYAML is imported here, when a spec is read: a start that finds the spec in the cache
    does without it."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    """Read one YAML file safely: size cap, no aliases (they can expand without bound),
    and bounded nesting (deep nesting exhausts the stack of the YAML composer)."""
    import yaml

    loader = _safe_loader()
    text = read_spec_text(path)
    try:
        try:
            _check_events(text, path, loader)
        except yaml.YAMLError as exc:
            # newer libyaml stops at its own nesting limit before our check sees the events;
            # the pure-Python reader finds the same place our limit names
            if "nesting" not in str(getattr(exc, "problem", "")):
                raise
            _check_events(text, path, yaml.SafeLoader)
            raise
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if mark:
            raise SpecError(path, "", Message("YAML syntax: {problem}", problem=str(problem)), mark.line + 1, mark.column + 1) from None
        raise SpecError(path, "", Message("YAML syntax: {problem}", problem=str(problem))) from None


def read_answers(path: Path, game: str) -> dict[str, Any]:
    """The answers of a group's box file (see spec/boxfile.py), by address."""
    return answers_in(read_yaml(path), path, game)


def read_spec_text(path: Path) -> str:
    """A file of a spec folder as text: a regular file of at most MAX_SPEC_BYTES, in UTF-8."""
    try:
        return read_text(path, MAX_SPEC_BYTES)
    except UnicodeDecodeError as exc:
        raise SpecError(path, "", Message("not UTF-8 text (byte {n})", n=exc.start)) from None
    except FileRefused as exc:
        if exc.size is not None:
            raise SpecError(path, "", Message("file is {n} bytes; spec files are limited to {limit}", n=exc.size, limit=MAX_SPEC_BYTES)) from None
        raise SpecError(path, "", Message("cannot read: {reason}", reason=str(exc.strerror))) from None
    except OSError as exc:
        raise SpecError(path, "", Message("cannot read: {reason}", reason=str(exc.strerror or exc))) from None


# A key of spec data is a name or a whole number: a date, a null, a list or a truth value as a
# key has no address a rule could read, and a JSON report cannot write it.
_KEY_TAGS = ("tag:yaml.org,2002:str", "tag:yaml.org,2002:int")
_INT_TAG = "tag:yaml.org,2002:int"
_LONG_SCALAR = 18  # characters: a longer plain scalar is checked for being a number


@functools.cache
def _resolver():
    """PyYAML's resolver of plain scalars (made when a spec is first read, not at import)."""
    import yaml

    return yaml.resolver.Resolver()


def _check_events(text: str, path: Path, loader) -> None:
    """Refuse aliases, deep nesting, keys that are not names or numbers, and numbers of
    thousands of digits (which Python refuses to read) before anything builds the document.
    Every file is read through here, so the loop does as little as it can per event."""
    import yaml

    depth = 0
    stack: list[list] = []  # for each open collection: [is a mapping, items so far]
    scalar, alias, mapping_start, sequence_start = yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent
    closers = (yaml.MappingEndEvent, yaml.SequenceEndEvent)

    def where(event) -> tuple[int, int]:
        return event.start_mark.line + 1, event.start_mark.column + 1

    for event in yaml.parse(text, Loader=loader):
        kind = event.__class__
        if kind is scalar:
            if stack:
                top = stack[-1]
                at_key = top[0] and not top[1] & 1
                top[1] += 1
            else:
                at_key = False
            value = event.value
            if at_key or len(value) > _LONG_SCALAR:
                _check_scalar(event, value, at_key, path, where)
        elif kind is mapping_start or kind is sequence_start:
            if stack:
                top = stack[-1]
                if top[0] and not top[1] & 1:
                    raise SpecError(path, "", Message("a key is a list or a mapping; keys of spec data are names or whole numbers"), *where(event))
                top[1] += 1
            depth += 1
            if depth > MAX_SPEC_DEPTH:
                raise SpecError(path, "", Message("nested deeper than {n} levels", n=MAX_SPEC_DEPTH), *where(event))
            stack.append([kind is mapping_start, 0])
        elif kind in closers:
            depth -= 1
            stack.pop()
        elif kind is alias:
            raise SpecError(path, "", Message("YAML aliases are not allowed in spec files"), *where(event))


def _check_scalar(event, value: str, at_key: bool, path: Path, where) -> None:
    """A key must read as a name or a whole number; a number must not have thousands of digits."""
    import yaml

    resolver = _resolver()
    plain = event.implicit[0] and not event.style
    if event.tag and event.tag != "!":
        tag = event.tag
    elif not plain or (value and value[0] not in resolver.yaml_implicit_resolvers):
        tag = "tag:yaml.org,2002:str"  # quoted, or a first letter that no number, truth value or null starts with
    else:
        tag = resolver.resolve(yaml.ScalarNode, value, event.implicit)
    if at_key and tag not in _KEY_TAGS:
        shown = value if len(value) <= 40 else value[:40] + "..."
        raise SpecError(
            path, "", Message("the key {key} reads as {kind}; keys of spec data are names or whole numbers (quote it to make it a name)", key=repr(shown), kind=tag.rsplit(":", 1)[-1]), *where(event)
        )
    if tag == _INT_TAG and len(value) > _LONG_SCALAR:
        raise SpecError(path, "", Message("a number of {n} characters; numbers in spec data lie between -{most} and {most}", n=len(value), most=format(MAX_SPEC_NUMBER, ",")), *where(event))


def _unwrap(node: Any, stem: str, key: str, out: dict[str, Provenance], path: Path) -> Any:
    """Replace provenance wrappers by their values, collecting their provenance."""
    if isinstance(node, dict):
        if _is_wrapper(node):
            status = node["provenance"]
            if status not in PROVENANCE_STATUSES:
                raise SpecError(path, key, Message("provenance must be one of {statuses}, not {status}", statuses=list(PROVENANCE_STATUSES), status=repr(status)))
            if status != "certain" and not node.get("note"):
                raise SpecError(path, key, Message("a {status} value needs a note saying where it came from", status=str(status)))
            if status == "unknown" and node["value"] not in (None, [], {}):
                raise SpecError(path, key, Message("an unknown value must be null (or empty)"))
            value = _unwrap(node["value"], stem, key, out, path)
            if status != "certain":
                out[f"{stem}:{key}"] = Provenance(stem, key, status, str(node.get("note", "")), value, node.get("source"))
            return value
        return {k: _unwrap(v, stem, f"{key}.{k}" if key else str(k), out, path) for k, v in node.items()}
    if isinstance(node, list):
        return [_unwrap(v, stem, f"{key}.{i}" if key else str(i), out, path) for i, v in enumerate(node)]
    if isinstance(node, (int, float)) and not isinstance(node, bool) and not -MAX_SPEC_NUMBER <= node <= MAX_SPEC_NUMBER:
        raise SpecError(path, key, Message("{number} is out of range; numbers in spec data lie between -{most} and {most}", number=str(node), most=format(MAX_SPEC_NUMBER, ",")))
    return node


def _is_wrapper(node: Any) -> bool:
    return isinstance(node, dict) and "provenance" in node and "value" in node and set(node) <= WRAPPER_KEYS


def deep_merge(base: Any, overlay: Any) -> Any:
    """Overlay onto base: mappings merge key by key, anything else replaces."""
    if _is_wrapper(base) and not _is_wrapper(overlay):
        # the overlay states the value itself: it replaces the uncertain one
        return deep_merge(base["value"], overlay)
    if isinstance(base, dict) and isinstance(overlay, dict):
        merged = dict(base)
        for k, v in overlay.items():
            if _is_wrapper(v):
                merged[k] = copy.deepcopy(v)  # a wrapper replaces the value whole
            else:
                merged[k] = deep_merge(base.get(k), v) if k in base else copy.deepcopy(v)
        return merged
    return copy.deepcopy(overlay)


# --- schemas ----------------------------------------------------------------


SCHEMA_BASE = "https://referee.invalid/schema/"


@functools.cache
def _schema_registry(root: str):
    """Every schema under specs/schema, so that one may $ref another by relative path.

    The schemas are not checked against the JSON Schema meta-schema here: that
    check costs more than loading every spec of a game. A broken schema is
    found when data is validated against it (`validate_against_schema`).
    """
    from referencing import Registry, Resource

    base = Path(root) / "schema"
    resources = []
    for path in sorted(base.rglob("*.schema.json")):
        rel = path.relative_to(base).as_posix()
        try:
            schema = json.loads(read_spec_text(path))
        except (json.JSONDecodeError, RecursionError) as exc:
            raise SpecError(path, "", Message("broken schema: {problem}", problem=str(exc).splitlines()[0])) from None
        if not isinstance(schema, dict):
            raise SpecError(path, "", Message("broken schema: a schema is a JSON object"))
        schema["$id"] = SCHEMA_BASE + rel
        resources.append((SCHEMA_BASE + rel, Resource.from_contents(schema)))
    return Registry().with_resources(resources)


def _schema_problem(kind: str, root: str) -> SpecError | None:
    """The meta-schema's complaint about a kind's schema, if it has one."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    path = Path(root) / "schema" / f"{kind}.schema.json"
    try:
        Draft202012Validator.check_schema(_schema_registry(root).contents(SCHEMA_BASE + f"{kind}.schema.json"))
    except SchemaError as exc:
        return SpecError(path, ".".join(map(str, exc.absolute_path)), Message("broken schema: {problem}", problem=exc.message))
    return None


@functools.cache
def _validator(kind: str, root: str) -> Draft202012Validator:
    path = Path(root) / "schema" / f"{kind}.schema.json"
    if not path.is_file():
        raise SpecError(path, "", Message("no schema for kind {kind}", kind=repr(kind)))
    registry = _schema_registry(root)
    schema = registry.contents(SCHEMA_BASE + f"{kind}.schema.json")
    return validator_class()(schema, registry=registry)


# Patterns used only where a spec is built from its files, compiled there when first used
# (re keeps them): a start that reads the spec from the cache never compiles them.
KIND = r"[a-z0-9][a-z0-9_-]{0,63}(/[a-z0-9][a-z0-9_-]{0,63})?"


def validate_against_schema(data: Any, kind: str, path: Path, root: Path) -> None:
    if not re.fullmatch(KIND, kind):  # a kind names a schema file; it may not be just any path
        raise SpecError(path, "kind", Message("no schema for kind {kind}", kind=repr(kind[:80])))
    from referencing.exceptions import Unresolvable

    validator = _validator(kind, str(root))
    schema_path = Path(root) / "schema" / f"{kind}.schema.json"
    start_budget()
    try:
        # at one place, an unknown key first: a misspelt key is also why a required one is missing
        errors = sorted(validator.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.validator != "additionalProperties"))
    except SchemaTrouble as exc:  # a schema from anyone: a pattern or a $ref that does not end
        raise SpecError(schema_path, "", exc.message, *(locate(schema_path, exc.needle) or (None, None))) from None
    except RecursionError:
        raise SpecError(schema_path, "", Message("checking against the schema does not end: a $ref leads round in a circle")) from None
    except Unresolvable as exc:
        reference = getattr(exc, "ref", None) or str(exc)
        raise SpecError(
            schema_path,
            "",
            Message("$ref {ref} cannot be followed: a schema may refer only to schemas under specs/schema", ref=repr(reference)),
            *(locate(schema_path, str(reference)) or (None, None)),
        ) from None
    except Exception as exc:  # the schema, not the data, is broken (see _schema_registry)
        problem = _schema_problem(kind, str(root))
        if problem is None:
            raise
        raise problem from exc
    if errors:
        err = errors[0]
        key = ".".join(str(p) for p in err.absolute_path)
        message = err.message if len(err.message) < 300 else err.message[:300] + "..."
        unknown = unknown_keys(err)
        if unknown:
            # an unknown key is reported at itself, so that a variant that wrote it is blamed
            key = f"{key}.{unknown[0]}" if key else str(unknown[0])
            message = Message("unknown key {key}{hint}", key=repr(str(unknown[0])[:80]), hint=did_you_mean(str(unknown[0]), err.schema.get("properties") or {}))
        if len(errors) > 1:
            message = Message("{message} (and {n} more)", message=message, n=len(errors) - 1)
        raise SpecError(path, key, message)


def unknown_keys(err) -> list:
    """The keys a mapping may not have, for a schema error that refuses extra keys."""
    if err.validator != "additionalProperties" or err.validator_value is not False or not isinstance(err.instance, dict):
        return []
    known = err.schema.get("properties") or {}
    patterns = list(err.schema.get("patternProperties") or {})
    return [k for k in err.instance if k not in known and not any(re.search(p, str(k)) for p in patterns)]


def did_you_mean(word: str, known) -> str:
    """` (did you mean 'x'?)` for the known name nearest to a misspelt one, or nothing."""
    import difflib

    close = difflib.get_close_matches(word, [str(k) for k in known], n=1, cutoff=0.6)
    return Message(" (did you mean {first}?)", first=repr(close[0])) if close else ""


# --- loading a game -----------------------------------------------------------


def available_games(root: Path | None = None) -> list[str]:
    root = root or specs_root()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file())


def unknown_game(name: str, known: list[str]) -> str:
    """`unknown game 'speicherstad'; did you mean 'speicherstadt'? known games: ...`"""
    import difflib

    close = difflib.get_close_matches(str(name).lower(), known, n=1, cutoff=0.6)
    if close:
        return Message("unknown game {name}; did you mean {guess}? known games: {known}", name=repr(name), guess=repr(close[0]), known=list(known))
    return Message("unknown game {name}; known games: {known}", name=repr(name), known=list(known))


def no_games(root: Path | None = None) -> SpecError:
    """The error for a data folder without a single game: it names REFEREE_DATA when that chose
    the folder, since an empty or mistyped REFEREE_DATA is the usual cause."""
    root = root or specs_root()
    chosen = f" (REFEREE_DATA={os.environ['REFEREE_DATA']})" if os.environ.get("REFEREE_DATA") and root == specs_root() else ""
    return SpecError(root, "", Message("no games here{chosen}: a game is a folder specs/<game>/ with a game.yaml", chosen=chosen))


def variant_names(game_dir: Path) -> list[str]:
    """The variants a game ships (`variants/<name>.yaml`), by name: all that a record may name."""
    return sorted(p.stem for p in (game_dir / "variants").glob("*.yaml"))


def looks_like_path(name: str) -> bool:
    """True for a variant given as a file rather than by name. Only the command line may give
    one: a record comes from anyone, and must not make the referee read files of its choosing."""
    return "/" in name or "\\" in name or name.lower().endswith((".yaml", ".yml"))


def find_variant(game_dir: Path, name: str) -> Path:
    """A variant by name (`variants/<name>.yaml`) or a path to a user's own overlay."""
    candidate = game_dir / "variants" / f"{name}.yaml"
    if candidate.is_file():
        return candidate
    path = Path(name)
    if looks_like_path(name):
        if path.is_file():
            return path
        raise SpecError(path, "", Message("variant file not found"))
    known = variant_names(game_dir)
    raise SpecError(game_dir / "variants", name, Message("no such variant; known: {known}", known=known) if known else Message("no such variant; known: none"))


def load_spec(game: str, variants: tuple[str, ...] | list[str] = (), root: Path | None = None, box: bool = True) -> Spec:
    """A game's spec with its variants; with the group's box file under them when there is
    one (`box=False`: the spec as shipped, for `referee box` to compare with)."""
    return _load_spec(game, tuple(variants), str(root or specs_root()), box_fingerprint(game) if box else None)


def load_spec_with_box(game: str, box_file: Path, variants: tuple[str, ...] | list[str] = ()) -> Spec:
    """A game's spec with a box file of one's choosing under its variants (to try a box file
    before it is put in use, or to replay with values worked out from records)."""
    found = fingerprint_of(box_file)
    if found is None:
        raise SpecError(box_file, "", Message("no such box file"))
    return _load_spec(game, tuple(variants), str(specs_root()), found)


@functools.cache
def _load_spec(game: str, variants: tuple[str, ...], root_str: str, box: tuple | None = None) -> Spec:
    """A game's spec with its variants, validated: from the cache when the files it is built
    from are unchanged (no YAML read, no schema imported), or read and validated. `box` tells
    the group's box file apart (see boxfile.box_fingerprint): None for none."""
    box_file = Path(box[0]) if box else None
    cached = _cache_entry(game, variants, root_str, box_file)
    if cached is not None:
        spec = cache.read(*cached, _CACHED_CLASSES)
        if isinstance(spec, Spec):
            return spec
    try:
        spec = _build_spec(game, variants, root_str, box_file)
    except SpecError as exc:
        if box_file is None or exc.file != str(box_file) or box_file != box_path(game):
            raise
        raise SpecError(
            exc.file,
            exc.key,
            Message("{message} (the box file in use for {game}: correct it, or stop using it with referee box {game} --forget)", message=exc.message, game=game),
            exc.line,
            exc.column,
        ) from None
    if cached is not None:
        cache.write(*cached, spec)
        path = cached[0]
        same_variants = path.name.rsplit("-", 1)[0] + "-"  # spec-GAME-VARIANTS-: older files of these specs
        before = re.compile(rf"spec-{re.escape(game)}-[0-9a-f]{{24}}\.pickle")  # named before the variants were
        cache.sweep(path.parent, path.name, lambda name: name.startswith(same_variants) or before.fullmatch(name) is not None)
    return spec


# What a cached spec is made of: anything else in a cache file means it is not ours.
_CACHED_CLASSES = {
    (__name__, "Spec"),
    (__name__, "Rule"),
    (__name__, "Provenance"),
    (__name__, "Variant"),
    ("pathlib", "PosixPath"),
    ("pathlib", "WindowsPath"),
    ("datetime", "date"),
    ("datetime", "datetime"),
}


def _cache_entry(game: str, variants: tuple[str, ...], root_str: str, box_file: Path | None = None) -> tuple[Path, str] | None:
    """Where a validated spec is cached, and the key it is stored under: a hash of the content
    of every file it is built from (the game's spec files, the variants, the common rules,
    every schema) and of the code that validates them. Only the shipped data with shipped
    variants (by name) is cached, so the cache stays a handful of files; None for no cache."""
    root = Path(root_str)
    game_dir = root / game
    if any(looks_like_path(v) for v in variants) or not (game_dir / "game.yaml").is_file():
        return None
    try:
        if root.resolve() != (shipped_data_root() / "specs").resolve():
            return None
        directory = cache.cache_dir()
        if directory is None:
            return None
        files = sorted(game_dir.glob("*.yaml")) + [game_dir / "variants" / f"{v}.yaml" for v in variants]
        files += [root / "common" / "rules.yaml", *sorted((root / "common").glob(TRANSLATIONS)), *sorted((root / "schema").rglob("*.schema.json"))]
        package = Path(__file__).resolve().parent.parent
        files += [package / code for code in ("spec/loader.py", "errors.py", "spec/files.py", "spec/safeschema.py")]
        digest = hashlib.sha256(repr((sys.version_info[:2], root_str, game, variants, str(box_file))).encode("utf-8"))
        if box_file is not None:
            digest.update(read_box_bytes(box_file) + b"\0")
        files.append(package / "spec" / "boxfile.py")
        for path in files:
            digest.update(str(path).encode("utf-8") + b"\0")
            # read as the full load reads it: a FIFO or a link to /dev/zero is not waited on
            digest.update(read_bytes(path, MAX_SPEC_BYTES))
            digest.update(b"\0")
    except OSError:  # FileRefused too
        return None  # a file that cannot be read is reported by the full load
    key = digest.hexdigest()
    chosen = hashlib.sha256(repr(variants).encode("utf-8")).hexdigest()[:6]  # one file per set of variants
    return directory / f"spec-{game}-{chosen}-{key[:24]}.pickle", key


def _build_spec(game: str, variants: tuple[str, ...], root_str: str, box_file: Path | None = None) -> Spec:
    root = Path(root_str)
    game_dir = root / game
    if not (game_dir / "game.yaml").is_file():
        if not available_games(root):
            raise no_games(root)
        raise SpecError(game_dir, "", unknown_game(game, available_games(root)))

    raw: dict[str, Any] = {}
    paths: dict[str, Path] = {}
    for path in sorted(game_dir.glob("*.yaml")):
        data = read_yaml(path)
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise SpecError(path, "kind", Message("a spec file is a mapping with a 'kind' key that names its schema"))
        raw[path.stem] = data
        paths[path.stem] = path

    # the group's own answers first: a variant named on top of them changes what it changes
    replaced: dict[str, Any] = {}
    if box_file is not None:
        replaced = lay_over(raw, read_answers(box_file, game), box_file)

    applied: list[Variant] = []
    for name in variants:
        vpath = find_variant(game_dir, name)
        vdata = read_yaml(vpath)
        validate_against_schema(vdata, "variant", vpath, root)
        if vdata.get("game") != game:
            raise SpecError(vpath, "game", Message("variant is for {other}, not {game}", other=repr(vdata.get("game")), game=repr(game)))
        for stem, overlay in vdata["changes"].items():
            if stem not in raw:
                raise SpecError(vpath, f"changes.{stem}", Message("no spec file {file} in {folder}", file=stem + ".yaml", folder=str(game_dir)))
            if "kind" in overlay and overlay["kind"] != raw[stem]["kind"]:
                raise SpecError(vpath, f"changes.{stem}.kind", Message("a variant cannot change a file's kind"))
            raw[stem] = deep_merge(raw[stem], overlay)
        applied.append(Variant(vdata["id"], vdata["title"], vdata.get("description", ""), str(vpath), vdata["changes"]))

    provenance: dict[str, Provenance] = {}
    files: dict[str, Any] = {}
    for stem, data in raw.items():
        try:
            files[stem] = _unwrap(data, stem, "", provenance, paths[stem])
            validate_against_schema(files[stem], files[stem]["kind"], paths[stem], root)
        except SpecError as exc:
            raise blame_box(blame_variant(exc, stem, str(paths[stem]), applied), stem, str(paths[stem]), replaced, box_file) from None

    if root.resolve() != (shipped_data_root() / "specs").resolve():
        _check_files_kept(game, game_dir, paths)
    rules = _load_rules(game, files, paths, root)
    if variants or root.resolve() != (shipped_data_root() / "specs").resolve():
        _check_rules_kept(game, rules, paths["rules"])
    problems: list[SpecError] = []
    rules = _translate_rules(game, files, paths, root, rules, problems)
    spec = Spec(game, game_dir, files, paths, provenance, rules, tuple(applied), raw, str(box_file) if box_file else None, replaced, tuple(problems))
    _check_addresses(spec)
    _check_turn(spec)
    return spec


def blame_variant(exc: SpecError, stem: str, base: str, applied: list[Variant]) -> SpecError:
    """An error in a merged file, moved to the last variant that wrote the offending value."""
    if exc.file != base:
        return exc
    parts = exc.key.split(".") if exc.key else []
    for variant in reversed(applied):
        if parts and _writes(variant.changes.get(stem), parts):
            return SpecError(variant.path, f"changes.{stem}.{exc.key}", exc.message)
    return exc


def blame_box(exc: SpecError, stem: str, base: str, replaced: dict[str, Any], box_file: Path | None) -> SpecError:
    """An error in a file at or inside a value the box file answered: the box file's error."""
    if box_file is None or exc.file != base:
        return exc
    at = f"{stem}:{exc.key}"
    for address in replaced:
        if at == address or at.startswith(address + ".") or address.startswith(at + "."):
            return box_error(box_file, address, exc.message)
    return exc


def _writes(overlay: Any, parts: list[str]) -> bool:
    """True when merging `overlay` sets the value at the path `parts` (itself or a value around it)."""
    node = overlay
    for part in parts:
        if not isinstance(node, dict) or (set(node) <= WRAPPER_KEYS and "provenance" in node):
            return node is not None  # a list, a scalar or a wrapper replaces everything below it
        found = [v for k, v in node.items() if str(k) == part]
        if not found:
            return False
        node = found[0]
    return True


def _check_files_kept(game: str, game_dir: Path, paths: dict[str, Path]) -> None:
    """A spec directory of one's own has every file the rules module reads (the shipped ones)."""
    shipped = shipped_data_root() / "specs" / game
    missing = sorted(p.name for p in shipped.glob("*.yaml") if p.stem not in paths and not translation_lang(p.stem))
    if missing:
        raise SpecError(game_dir / missing[0], "", Message("missing: the {game} rules module reads {file}", game=game, file=missing[0]))


def _check_rules_kept(game: str, rules: dict[str, Rule], path: Path) -> None:
    """A game's rules module checks every rule of the rules.yaml it ships with, so other
    data (a spec directory of one's own, a variant) may add rules but not drop them."""
    missing = sorted(_shipped_rule_ids(game) - set(rules))
    if missing:
        more = Message(" (and {n} more)", n=len(missing) - 1) if len(missing) > 1 else ""
        raise SpecError(path, "rules", Message("no rule {rule}{more}: the {game} rules module checks it, so a spec may add rules but not drop them", rule=missing[0], more=more, game=game))


@functools.cache
def _shipped_rule_ids(game: str) -> frozenset[str]:
    shipped = shipped_data_root() / "specs"
    if not (shipped / game / "game.yaml").is_file():
        return frozenset()  # a game of the user's own: nothing to keep
    return frozenset(_load_spec(game, (), str(shipped)).rules)


TRANSLATIONS = "rules.*.yaml"  # rules.hu.yaml, rules.de.yaml: the rule texts in one more language


def translation_lang(stem: str) -> str | None:
    """The language a spec file of rule texts is in (rules.hu: hu), or None for another file."""
    head, dot, lang = stem.partition(".")
    return lang if head == "rules" and dot and lang else None


def translation_files(game: str, files: dict, paths: dict, root: Path) -> list[tuple[str, dict, Path, str]]:
    """The files of rule texts in other languages, as (lang, data, path, prefix): the common
    ones (their ids without the game, as in common/rules.yaml) and the game's own."""
    found = []
    for path in sorted((root / "common").glob(TRANSLATIONS)):
        data = read_yaml(path)
        validate_against_schema(data, "rule-texts", path, root)
        found.append((data["lang"], data, path, f"{game}/"))
    for stem, data in files.items():
        if translation_lang(stem):
            if data.get("kind") != "rule-texts":
                raise SpecError(paths[stem], "kind", Message("{file} holds rule texts: its kind is rule-texts", file=paths[stem].name))
            found.append((data["lang"], data, paths[stem], ""))
    return found


def _load_rules(game: str, files: dict, paths: dict, root: Path) -> dict[str, Rule]:
    if "rules" not in files:
        raise SpecError(paths["game"].parent / "rules.yaml", "", Message("every game needs a rules.yaml"))
    common_path = root / "common" / "rules.yaml"
    common = read_yaml(common_path)
    validate_against_schema(common, "rules", common_path, root)
    rules: dict[str, Rule] = {}
    for origin, entries, path in (("common", common["rules"], common_path), (game, files["rules"]["rules"], paths["rules"])):
        for i, entry in enumerate(entries):
            rid = entry["id"] if origin == game else f"{game}/{entry['id']}"
            if not rid.startswith(game + "/"):
                raise SpecError(path, f"rules.{i}.id", Message("rule ids of this game start with '{game}/'", game=game))
            if rid in rules:
                raise SpecError(path, f"rules.{i}.id", Message("duplicate rule id {rule}", rule=str(rid)))
            rules[rid] = Rule(
                id=rid,
                title=entry["title"],
                text=entry["text"].strip(),
                source=entry["source"],
                reads=tuple(entry.get("reads", ())),
                checked=entry.get("checked", "move"),
                waivable=entry.get("waivable", True),
                reading=(entry.get("reading") or "").strip() or None,
                section=entry.get("section"),
            )
    return rules


def _translate_rules(game: str, files: dict, paths: dict, root: Path, rules: dict[str, Rule], problems: list[SpecError]) -> dict[str, Rule]:
    """The rules with their titles and texts in the other languages (rules.<lang>.yaml). A
    text that names no rule or section is left out and added to `problems`, for `validate`:
    the words of other languages never change a verdict, and a rule left out of rules.yaml
    is then reported where it is missing, not as a text that names nothing."""
    common = read_yaml(root / "common" / "rules.yaml")  # read once: `read_yaml` keeps what it read
    sections = {s["id"] for s in files["rules"].get("sections", [])} | {s["id"] for s in common.get("sections", [])} | {r.section for r in rules.values() if r.section}
    for lang, data, path, prefix in translation_files(game, files, paths, root):
        if lang != translation_lang(path.stem):
            raise SpecError(path, "lang", Message("{file} is named for {named} but says lang: {lang}", file=path.name, named=repr(translation_lang(path.stem)), lang=str(lang)))
        for sid in data.get("sections") or {}:
            if sid not in sections:
                problems.append(SpecError(path, f"sections.{sid}", Message("no section {section} in rules.yaml", section=repr(sid))))
        for key, words in (data.get("rules") or {}).items():
            rid = prefix + key
            if rid not in rules:
                if prefix:  # the common texts name common rules; a game may leave none out
                    problems.append(SpecError(path, f"rules.{key}", Message("no common rule {rule} in common/rules.yaml", rule=repr(key))))
                else:
                    problems.append(SpecError(path, f"rules.{key}", Message("no rule {rule} in rules.yaml to give words to", rule=repr(rid))))
                continue
            rule = rules[rid]
            rules[rid] = dataclasses.replace(rule, translations=rule.translations + ((lang, words["title"], words["text"].strip()),))
    return rules


PLACEHOLDER = r"\{([a-z0-9_-]+:[A-Za-z0-9_.-]+)\}"  # compiled when first used, as KIND


def _check_addresses(spec: Spec) -> None:
    """Every spec key a rule reads must exist; `{file:key}` in a rule's words becomes that value.

    Rule texts name their numbers through placeholders, so that a variant that
    changes a number changes the rule's wording in reports and docs as well.
    """
    for rule in list(spec.rules.values()):
        for address in rule.reads:
            if not spec.has(address):
                raise SpecError(spec.path_of("rules"), rule.id, Message("reads {address}, which is not in the spec", address=str(address)))

        def fill(match: re.Match) -> str:
            address = match.group(1)
            if not spec.has(address):
                raise SpecError(spec.path_of("rules"), rule.id, Message("its text names {address}, which is not in the spec", address="{" + str(address) + "}"))
            return _words(spec.get(address))

        def filler(lang: str) -> Callable[[re.Match], str]:
            """Fill in `lang`: a word the spec gives in English (a rounding's `down`) is said as
            the file of rule texts says it (its `values`)."""
            said = (spec.files.get(f"rules.{lang}") or {}).get("values") or {}

            def fill_in(match: re.Match) -> str:
                value = fill(match)
                return str(said.get(value, value))

            return fill_in

        reading = re.sub(PLACEHOLDER, fill, rule.reading) if rule.reading else rule.reading
        translations = tuple((lang, re.sub(PLACEHOLDER, filler(lang), title), re.sub(PLACEHOLDER, filler(lang), text)) for lang, title, text in rule.translations)
        spec.rules[rule.id] = dataclasses.replace(rule, title=re.sub(PLACEHOLDER, fill, rule.title), text=re.sub(PLACEHOLDER, fill, rule.text), reading=reading, translations=translations)


def _check_turn(spec: Spec) -> None:
    """A game whose turn is one of several actions names where they are listed (game.yaml,
    turn.actions): a mapping of actions, each with its names."""
    address = (spec.meta.get("turn") or {}).get("actions")
    if address is None:
        return
    actions = spec.get(address) if spec.has(address) else None
    if not isinstance(actions, dict) or not actions or not all(isinstance(a, dict) and isinstance(a.get("names"), dict) for a in actions.values()):
        raise SpecError(spec.path_of("game"), "turn.actions", Message("{address} is not a mapping of actions, each with its names", address=str(address)))


def _words(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_words(v)}" for k, v in value.items())
    return str(value)


def iter_uncertain(spec: Spec, statuses=UNCERTAIN) -> Iterator[Provenance]:
    for p in sorted(spec.provenance.values(), key=lambda p: p.address):
        if p.status in statuses:
            yield p


# What other modules keep of the spec files they read (the paints of colours.yaml), dropped
# with the specs; each registers itself here when it is imported (`on_forget`).
_also_forget: list[Callable[[], None]] = []


def on_forget(forget: Callable[[], None]) -> None:
    """Have `forget_loaded_specs` call `forget` too: for a module that keeps what it read."""
    _also_forget.append(forget)


def forget_loaded_specs() -> None:
    """Drop the specs, schemas and rule lists read so far (see games.forget_loaded_data)."""
    for cached in (_load_spec, _schema_registry, _validator, _shipped_rule_ids, _shipped_data_root):
        cached.cache_clear()
    for forget in _also_forget:
        forget()

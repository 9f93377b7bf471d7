"""JSON Schema checks that end in bounded time, whoever wrote the schema.

A spec folder brings its own schemas (`specs/schema/`), and a schema is a program of a
kind: a `pattern` such as `(a+)+$` backtracks for ever on a long string, and a `$ref` to
`#` sends the check round in a circle. Patterns are matched here with the `regex` module,
whose matches take a timeout, and every `$ref` followed checks a budget of processor time,
so that such a schema is reported as invalid data (exit 4) within about a second.
"""

from __future__ import annotations

import functools
import time

PATTERN_SECONDS = 0.5  # wall-clock time one pattern match may take
CHECK_SECONDS = 1.0  # processor time the check of one file against its schema may take


class SchemaTrouble(Exception):
    """A schema whose check cannot finish; `needle` is the text in the schema to point at."""

    def __init__(self, message: str, needle: str = ""):
        super().__init__(message)
        self.message = message
        self.needle = needle


_deadline = [float("inf")]


def start_budget() -> None:
    """Called before each file is checked: the budget is per file."""
    _deadline[0] = time.process_time() + CHECK_SECONDS


def search(pattern: str, text: str) -> bool:
    """`re.search(pattern, text)` as JSON Schema means it, with a timeout."""
    import regex

    try:
        compiled = _compile(pattern)
    except regex.error as exc:
        raise SchemaTrouble(f"the schema's pattern {_short(pattern)} is not a regular expression: {exc}", pattern) from None
    try:
        return compiled.search(text, timeout=PATTERN_SECONDS) is not None
    except TimeoutError:
        raise SchemaTrouble(f"the schema's pattern {_short(pattern)} takes more than {PATTERN_SECONDS} s to match {_short(text)}; it backtracks without end", pattern) from None


@functools.lru_cache(maxsize=512)
def _compile(pattern: str):
    import regex

    return regex.compile(pattern)


def _short(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:60] + "...")


@functools.cache
def validator_class():
    """Draft 2020-12 with the keywords that run patterns or follow references made safe."""
    from jsonschema import Draft202012Validator, validators
    from jsonschema._keywords import additionalProperties as plain_additional
    from jsonschema.exceptions import ValidationError

    def pattern(validator, patrn, instance, schema):
        if validator.is_type(instance, "string") and not search(patrn, instance):
            yield ValidationError(f"{instance!r} does not match {patrn!r}")

    def pattern_properties(validator, patterns, instance, schema):
        if not validator.is_type(instance, "object"):
            return
        for patrn, subschema in patterns.items():
            for key, value in instance.items():
                if search(patrn, key):
                    yield from validator.descend(value, subschema, path=key, schema_path=patrn)

    def additional_properties(validator, allowed, instance, schema):
        if "patternProperties" not in schema or not validator.is_type(instance, "object"):
            yield from plain_additional(validator, allowed, instance, schema)
            return
        properties = schema.get("properties", {})
        extras = [k for k in instance if k not in properties and not any(search(p, k) for p in schema["patternProperties"])]
        if validator.is_type(allowed, "object"):
            for extra in extras:
                yield from validator.descend(instance[extra], allowed, path=extra)
        elif not allowed and extras:
            patterns = ", ".join(repr(p) for p in sorted(schema["patternProperties"]))
            yield ValidationError(f"{', '.join(repr(e) for e in sorted(extras))} {'does' if len(extras) == 1 else 'do'} not match any of the regexes: {patterns}")

    def ref(validator, reference, instance, schema):
        if time.process_time() > _deadline[0]:
            raise SchemaTrouble(f"checking against the schema takes more than {CHECK_SECONDS} s; its $ref {reference!r} may lead round in a circle", reference)
        yield from validator._validate_reference(ref=reference, instance=instance)

    keywords = {"pattern": pattern, "patternProperties": pattern_properties, "additionalProperties": additional_properties, "$ref": ref}
    return validators.extend(Draft202012Validator, keywords)

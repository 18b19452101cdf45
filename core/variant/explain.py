"""The schema's errors in plain English, each at the place that wrote the value.

:func:`schema_problems` validates merged variant data against a
:class:`~bezique.variant.schema.VariantSchema` and turns every jsonschema error into
a :class:`~bezique.variant.locate.Message`: a missing key with what it is for, a
choice with the nearest one (``did you mean 'timing'?``), a misspelt key with the
nearest key of the schema at its own level or anywhere else (``tarrget:`` ->
``game.target``), and a key of a plugin the variant does not list with that plugin.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bezique.reading.yamlsafe import MAX_DEPTH, JsonPath
from bezique.variant.locate import Locator, Message, dotted, kind, shorten
from bezique.variant.schema import VariantSchema

if TYPE_CHECKING:
    from jsonschema import ValidationError

OwnerOf = Callable[[JsonPath], "str | None"]
"""Which installed plugin owns the key at a path (None: none does)."""


def schema_problems(
    data: dict[str, Any], schema: VariantSchema, locator: Locator, owner_of: OwnerOf
) -> list[Message]:
    """Validate ``data`` against ``schema`` and explain each error where it was written."""
    return [
        message
        for error in schema.validator().iter_errors(data)
        for message in _explain(error, schema, locator, owner_of)
    ]


def _explain(
    error: ValidationError, schema: VariantSchema, locator: Locator, owner_of: OwnerOf
) -> list[Message]:
    """Turn one schema error into messages at the right places."""
    path = tuple(error.absolute_path)
    if "propertyNames" in error.relative_schema_path:
        key = str(error.instance)
        return [locator.message((*path, key), _bad_key_text(key, error), key=True)]
    if error.validator == "additionalProperties":
        return [
            _unknown_key(locator, (*path, key), _schema(error), schema, owner_of)
            for key in _extra_keys(error.instance, _schema(error))
        ]
    return [locator.message(path, _error_text(error))]


def _unknown_key(
    locator: Locator,
    path: JsonPath,
    here: Mapping[str, Any],
    schema: VariantSchema,
    owner_of: OwnerOf,
) -> Message:
    """A key this schema does not know: a listed plugin's misspelling, or an unlisted plugin's."""
    key = str(path[-1])
    owner = owner_of(path)
    if owner is not None:
        return locator.message(
            path,
            f"the key {key!r} belongs to plugin {owner!r}, which this variant does not list; "
            f"add {owner!r} to plugins, or take the key out",
            key=True,
        )
    return locator.message(
        path,
        f"unknown key {key!r}",
        key=True,
        later=functools.partial(_unknown_key_text, key, here, schema),
    )


def _schema(error: ValidationError) -> Mapping[str, Any]:
    """Return the (sub)schema an error was raised by, as a mapping."""
    return error.schema if isinstance(error.schema, Mapping) else {}


def _rule(error: ValidationError) -> Any:
    """Return the value of the keyword that failed (``8`` for ``maximum: 8``)."""
    return error.validator_value


def _extra_keys(instance: Any, schema: Mapping[str, Any]) -> list[str]:
    allowed = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return [
        key
        for key in (instance if isinstance(instance, dict) else {})
        if key not in allowed and not any(re.search(p, key) for p in patterns)
    ]


def _unknown_key_text(key: str, here: Mapping[str, Any], schema: VariantSchema) -> str:
    """Say that ``key`` is unknown here, with the nearest key of the schema and those allowed."""
    allowed = sorted(here.get("properties", {}))
    close = _nearest_key(key, allowed, schema)
    hint = f"did you mean {close!r}? " if close else ""
    return f"unknown key {key!r}; {hint}the keys allowed here are: {', '.join(allowed)}"


def _nearest_key(
    key: str, allowed: Sequence[str], schema: VariantSchema, cutoff: float = 0.6
) -> str | None:
    """Return the key of the schema nearest to ``key``, or None if none is near enough.

    The keys allowed at its own level (named plainly) and every key at a fixed
    place in the schema (named by its dotted path, such as ``game.target``) are
    candidates; the nearest by :class:`difflib.SequenceMatcher` wins, a key of
    its own level on a tie, then the shorter path.
    """
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(key)
    best: tuple[float, int, str] | None = None  # (score, -rank, name): higher wins
    candidates = [(name, 0) for name in allowed]
    candidates += [(dotted((*place, name)), len(place)) for name, place in _schema_keys(schema)]
    for shown, rank in candidates:
        matcher.set_seq1(shown.rsplit(".", 1)[-1])
        if matcher.real_quick_ratio() < cutoff or matcher.quick_ratio() < cutoff:
            continue
        score = matcher.ratio()
        if score >= cutoff and (best is None or (score, -rank) > best[:2]):
            best = (score, -rank, shown)
    return best[2] if best else None


def _schema_keys(schema: VariantSchema) -> tuple[tuple[str, JsonPath], ...]:
    """Every key at a fixed place of the schema: ``(name, path of its mapping)``, made once.

    ``$ref`` to ``#/$defs/...`` is followed (once on each path); the keys of
    user-named entries (``patternProperties``, ``additionalProperties``) and of
    list items are left out, as they have no one dotted path.
    """
    known: tuple[tuple[str, JsonPath], ...] | None = schema.memo.get("keys")
    if known is not None:
        return known
    document = schema.document
    found: dict[tuple[str, JsonPath], None] = {}

    def walk(node: Any, place: JsonPath, refs: frozenset[str]) -> None:
        if not isinstance(node, dict) or len(place) > MAX_DEPTH:
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and ref not in refs:
            walk(document.get("$defs", {}).get(ref[len("#/$defs/") :]), place, refs | {ref})
        for name, sub in node.get("properties", {}).items():
            found.setdefault((name, place), None)
            walk(sub, (*place, name), refs)
        for word in ("oneOf", "anyOf", "allOf"):
            for sub in node.get(word, []):
                walk(sub, place, refs)
        for sub in node.get("dependentSchemas", {}).values():
            walk(sub, place, refs)

    walk(document, (), frozenset())
    keys = schema.memo["keys"] = tuple(found)
    return keys


def _bad_key_text(key: str, error: ValidationError) -> str:
    description = _schema(error).get("description", "")
    expected = description[:1].lower() + description[1:] if description else error.message
    return f"the name {key!r} is not allowed here; expected {expected}"


_TEXTS: dict[str, Callable[[ValidationError], str]] = {
    "required": lambda e: _required_text(e),
    "enum": lambda e: _enum_text(e.instance, list(_rule(e))),
    "const": lambda e: f"must be {_rule(e)!r}",
    "type": lambda e: f"must be {_type_words(_rule(e))}, not {kind(e.instance)}",
    "minimum": lambda e: f"must be at least {_rule(e)} (it is {e.instance})",
    "maximum": lambda e: f"must be at most {_rule(e)} (it is {e.instance})",
    "minItems": lambda e: f"needs at least {_rule(e)} item(s)",
    "maxItems": lambda e: f"may hold at most {_rule(e)} item(s)",
    "minProperties": lambda e: f"needs at least {_rule(e)} entry",
    "minLength": lambda e: "must not be empty",
    "uniqueItems": lambda e: f"names {', '.join(_repeated(e.instance))} more than once",
    "pattern": lambda e: _pattern_text(e),
    "oneOf": lambda e: _one_kind_text(e),
    "anyOf": lambda e: _one_kind_text(e),
    "dependentRequired": lambda e: _dependent_text(e),
    "not": lambda e: _not_text(e),
}


def _error_text(error: ValidationError) -> str:
    explain = _TEXTS.get(str(error.validator))
    return explain(error) if explain else error.message


def _required_text(error: ValidationError) -> str:
    properties = _schema(error).get("properties", {})
    texts = []
    for key in _rule(error):
        if isinstance(error.instance, dict) and key not in error.instance:
            description = properties.get(key, {}).get("description", "")
            texts.append(
                f"the key {key!r} is missing" + (f" ({description})" if description else "")
            )
    return "; ".join(texts)


def _enum_text(value: Any, choices: list[Any]) -> str:
    words = [str(c) for c in choices]
    close = difflib.get_close_matches(str(value), words, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close and close[0] != str(value) else ""
    return f"{shorten(value)} is not allowed; use one of: {', '.join(words)}{hint}"


def _pattern_text(error: ValidationError) -> str:
    description = _schema(error).get("description", "")
    expected = description or f"text matching {_rule(error)}"
    return f"{shorten(error.instance)} is not of the right form; expected: {expected}"


def _one_kind_text(error: ValidationError) -> str:
    """Explain a oneOf/anyOf of ``required`` alternatives (one kind of combination)."""
    options = [s.get("required", []) for s in _rule(error) if isinstance(s, dict)]
    keys = [k for option in options for k in option]
    if len(keys) != len(options) or not isinstance(error.instance, dict):
        return error.message
    present = [k for k in keys if k in error.instance]
    trigger = _dependent_trigger(error)
    if trigger:
        return f"{trigger!r} needs one of {_or(keys)} beside it"
    if len(present) > 1 and error.validator == "oneOf":
        return f"has {' and '.join(map(repr, present))}, but only one of {_or(keys)} may be given"
    return f"needs one of the keys {_or(keys)}"


def _dependent_trigger(error: ValidationError) -> str | None:
    schema_path = list(error.relative_schema_path)
    if "dependentSchemas" in schema_path[:-1]:
        return str(schema_path[schema_path.index("dependentSchemas") + 1])
    return None


def _dependent_text(error: ValidationError) -> str:
    instance = error.instance if isinstance(error.instance, dict) else {}
    texts = [
        f"{key!r} needs {needed!r} beside it"
        for key, needs in _rule(error).items()
        if key in instance
        for needed in needs
        if needed not in instance
    ]
    return "; ".join(texts) or error.message


def _not_text(error: ValidationError) -> str:
    """What a ``not`` forbids, in the words of its schema's description (if it has one)."""
    rule = _rule(error)
    description = rule.get("description") if isinstance(rule, dict) else None
    return description if isinstance(description, str) else error.message


def _or(keys: Sequence[str]) -> str:
    quoted = [repr(k) for k in keys]
    return ", ".join(quoted[:-1]) + f" or {quoted[-1]}" if len(quoted) > 1 else quoted[0]


def _type_words(types: Any) -> str:
    words = {
        "object": "a mapping",
        "array": "a list",
        "string": "text",
        "integer": "a whole number",
        "number": "a number",
        "boolean": "true or false",
        "null": "null",
    }
    names = [types] if isinstance(types, str) else list(types)
    return " or ".join(words.get(n, n) for n in names)


def _repeated(items: Any) -> list[str]:
    seen: list[Any] = []
    repeated: list[str] = []
    for item in items if isinstance(items, list) else []:
        if item in seen and repr(item) not in repeated:
            repeated.append(repr(item))
        seen.append(item)
    return repeated

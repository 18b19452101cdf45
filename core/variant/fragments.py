"""What a plugin's schema fragment may hold, and what is wrong with one.

:func:`bezique.variant.schema.merge` merges each fragment into the kernel's schema
once :func:`own_problem` finds nothing wrong with its own sections and definitions,
and applies its ``adds`` once :func:`adds_problem` finds nothing wrong with them.
A fragment is refused (and its plugin with it, at the variant's ``plugins:`` entry)
when it is not a mapping of the keys :data:`FRAGMENT_KEYS`, claims a key the kernel
or another plugin owns, redefines a definition, refers to one no schema defines,
is not a Draft 2020-12 JSON Schema, or adds keys to a section that is not there.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from bezique.errors import PluginError
from bezique.reading.yamlsafe import JsonPath
from bezique.variant.locate import kind

KERNEL = "the kernel"
"""How messages name the owner of the kernel's keys."""

FRAGMENT_KEYS = ("description", "properties", "required", "$defs", "adds")
"""What a fragment may hold."""


def _owner(owners: Mapping[JsonPath, str], path: JsonPath) -> str:
    name = owners.get(path)
    return f"plugin {name!r}" if name else KERNEL


def section_schema(document: Mapping[str, Any], section: str) -> dict[str, Any]:
    """The object schema of a top-level ``section`` (its ``#/$defs/...`` followed), or ``{}``."""
    node = document.get("properties", {}).get(section)
    ref = node.get("$ref") if isinstance(node, dict) else None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        node = document.get("$defs", {}).get(ref[len("#/$defs/") :])
    return node if isinstance(node, dict) and isinstance(node.get("properties"), dict) else {}


def own_problem(fragment: Any, document: Mapping[str, Any], owners: Mapping[JsonPath, str]) -> str:
    """What is wrong with a fragment's own sections and definitions ("" if nothing)."""
    if isinstance(fragment, PluginError):
        return str(fragment)
    if not isinstance(fragment, dict):
        return f"its bezique_variant_schema() returned {kind(fragment)}, not a mapping"
    shape = _shape_problem(fragment)
    if shape:
        return shape
    for key in fragment.get("properties", {}):
        if key in document["properties"]:
            return (
                f"its schema fragment claims the key {key!r}, which {_owner(owners, (key,))} owns"
            )
    for name in fragment.get("$defs", {}):
        if name in document["$defs"]:
            return f"its schema fragment defines '#/$defs/{name}', which is defined already"
    defined = {*document["$defs"], *fragment.get("$defs", {})}
    return _ref_problem(fragment, defined) or _json_schema_problem(fragment)


def _shape_problem(fragment: dict[str, Any]) -> str:
    """Whether the fragment has the keys and kinds of values a fragment has ("" if so)."""
    extra = [key for key in fragment if key not in FRAGMENT_KEYS]
    if extra:
        return (
            f"its schema fragment has {extra[0]!r}, which a fragment does not hold "
            f"(it holds {', '.join(FRAGMENT_KEYS)})"
        )
    for key in ("properties", "$defs", "adds"):
        if not isinstance(fragment.get(key, {}), dict):
            return f"its schema fragment's {key!r} must be a mapping"
    return _required_problem(fragment, "its schema fragment's")


def _required_problem(part: dict[str, Any], whose: str) -> str:
    """Whether ``required`` lists only keys of ``part``'s own ``properties``."""
    required = part.get("required", [])
    properties = part.get("properties", {})
    if not isinstance(required, list) or not all(k in properties for k in required):
        return f"{whose} 'required' must list keys of its own 'properties'"
    return ""


def _ref_problem(fragment: dict[str, Any], defined: set[str]) -> str:
    """Whether every ``$ref`` of the fragment names a definition the merge holds."""
    for ref in _refs(fragment):
        if not (isinstance(ref, str) and ref.removeprefix("#/$defs/") in defined):
            return f"its schema fragment refers to {ref!r}, which no schema defines"
    return ""


def _refs(node: Any) -> Iterator[Any]:
    if isinstance(node, dict):
        if "$ref" in node:
            yield node["$ref"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _json_schema_problem(fragment: dict[str, Any]) -> str:
    """Whether the fragment's schemas are Draft 2020-12 JSON Schemas."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    parts = {
        "properties": fragment.get("properties", {}),
        "$defs": fragment.get("$defs", {}),
        **{
            f"adds {section!r}": added.get("properties", {})
            for section, added in fragment.get("adds", {}).items()
            if isinstance(added, dict)
        },
    }
    for where, schemas in parts.items():
        try:
            Draft202012Validator.check_schema({"properties": schemas})
        except SchemaError as exc:
            place = "/".join(map(str, list(exc.path)[1:]))
            return f"its schema fragment's {where} is not a JSON Schema at {place!r}: {exc.message}"
    return ""


def adds_problem(
    adds: dict[str, Any], document: Mapping[str, Any], owners: Mapping[JsonPath, str]
) -> str:
    """What is wrong with the keys a fragment adds to others' sections ("" if nothing)."""
    for section, added in adds.items():
        target = section_schema(document, section)
        if not target:
            return (
                f"its schema fragment adds keys to {section!r}, which is not a section of "
                "the kernel or of a plugin listed with it"
            )
        if not isinstance(added, dict) or set(added) - {"properties", "required"}:
            return f"its schema fragment's adds {section!r} must hold 'properties' and 'required'"
        if not isinstance(added.get("properties"), dict):
            return f"its schema fragment's adds {section!r} must hold 'properties', a mapping"
        problem = _required_problem(added, f"its schema fragment's adds {section!r}:")
        if problem:
            return problem
        for key in added["properties"]:
            if key in target["properties"]:
                owner = _owner(owners, (section, key)) if (section, key) in owners else None
                owner = owner or _owner(owners, (section,))
                return f"its schema fragment adds {section}.{key}, which {owner} owns already"
    return ""

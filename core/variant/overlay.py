"""The schema of a house-rule file: a variant's schema with every key optional at every depth.

A file that ``extends:`` another holds only what it changes, and the loader merges it
over its base: mappings key by key, anything else (a list, a number) replaced whole,
and ``null`` deleting the inherited key.  :func:`overlay_schema` turns the schema of
a complete variant into the schema of such a file, faithfully:

* where a mapping is merged (the top, and each mapping reached through
  ``properties``, ``additionalProperties`` or ``patternProperties``) every key is
  optional and may be ``null``: ``required``, ``minProperties``,
  ``dependentRequired``, ``dependentSchemas`` and ``if``/``then``/``else`` go (they
  speak of the merged whole, which ``bezique validate`` checks), and a ``oneOf`` or
  ``anyOf`` whose branches only say which keys are present goes too;
* what is replaced whole (a list and what its items hold, a scalar) keeps its schema;
* types, enums, bounds and ``additionalProperties: false`` stay, so a misspelt key or
  a wrong value is still refused;
* the file must name what it ``extends``.

A definition used where a mapping is merged gets a partial copy, ``$defs/NAME.overlay``;
the complete one stays for the places a whole value is written.
"""

from __future__ import annotations

import copy
from typing import Any

OVERLAY_ID = "urn:bezique:schema:variant-overlay"
"""The ``$id`` of the overlay schema."""

OVERLAY_DESCRIPTION = (
    "A house-rule file: a bezique variant file that extends another and holds only "
    "what it changes. Every key is optional at every depth, and null deletes an "
    "inherited key; names, types and values are those of the variant schema "
    "(urn:bezique:schema:variant), which the merged result must satisfy."
)

GONE = frozenset(
    {"required", "minProperties", "dependentRequired", "dependentSchemas", "if", "then", "else"}
)
"""Keywords about a merged mapping as a whole, left out where a mapping is merged."""

NOTES = frozenset({"description", "title", "$comment", "default", "examples"})
"""Keywords that only annotate: a schema of these alone accepts anything."""

MERGED = ("properties", "patternProperties")
"""Keywords whose values are mappings of key to the schema of a merged key."""

PREFIX = "#/$defs/"
SUFFIX = ".overlay"


def overlay_schema(document: dict[str, Any]) -> dict[str, Any]:
    """Return the schema of a house-rule file over the complete variant schema ``document``."""
    full = copy.deepcopy(document)
    defs: dict[str, Any] = full.get("$defs", {})
    partial = _Partial(defs)
    top: dict[str, Any] = partial.mapping({k: v for k, v in full.items() if k != "$defs"})
    top["properties"]["extends"] = full["properties"]["extends"]
    top["required"] = ["extends"]
    added = {f"{name}{SUFFIX}": partial.made[name] for name in sorted(partial.made)}
    top["$defs"] = {**defs, **added}
    if "$id" in top:
        top["$id"] = OVERLAY_ID
    if "description" in top:
        top["description"] = OVERLAY_DESCRIPTION
    return top


class _Partial:
    """Makes the partial schemas of merged mappings, and the partial definitions they use."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.made: dict[str, Any] = {}

    def mapping(self, schema: Any) -> Any:
        """The schema of a value written where a mapping is merged (before any null)."""
        if not isinstance(schema, dict):
            return schema  # true / false
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith(PREFIX) and ref[len(PREFIX) :] in self.defs:
            schema = {**schema, "$ref": self.reference(ref[len(PREFIX) :])}
        out: dict[str, Any] = {}
        for key, value in schema.items():
            if key in GONE:
                continue
            if key in MERGED and isinstance(value, dict):
                out[key] = {name: self.key(sub) for name, sub in value.items()}
            elif key == "additionalProperties" and isinstance(value, dict):
                out[key] = self.key(value)
            elif key in ("oneOf", "anyOf", "allOf") and isinstance(value, list):
                branches = [self.mapping(branch) for branch in value]
                kept = [b for b in branches if not _annotation(b)]
                if key == "allOf" and kept:
                    out[key] = kept
                elif key != "allOf" and len(kept) == len(branches):
                    out[key] = branches
            else:
                out[key] = value  # a list's items, a scalar's bounds: a whole value
        return out

    def key(self, schema: Any) -> Any:
        """The schema of one merged key: its partial schema, or null to delete it."""
        partial = self.mapping(schema)
        if partial is True or not isinstance(partial, dict):
            return partial
        notes = {k: v for k, v in partial.items() if k in ("description", "title")}
        return {**notes, "anyOf": [partial, {"type": "null", "description": "Deletes the key."}]}

    def reference(self, name: str) -> str:
        """The reference to the partial copy of ``$defs/NAME``, or to itself when it stays."""
        if name not in self.made:
            self.made[name] = {}  # a definition that refers to itself stops here
            partial = self.mapping(self.defs[name])
            if partial == self.defs[name]:
                del self.made[name]
                return PREFIX + name
            self.made[name] = partial
        return PREFIX + name + SUFFIX


def _annotation(schema: Any) -> bool:
    """Whether ``schema`` says nothing but annotations (it accepts any value)."""
    return schema is True or (isinstance(schema, dict) and set(schema) <= NOTES)

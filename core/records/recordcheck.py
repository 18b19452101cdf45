"""Checking a game record's JSON: values a record may not hold, then the schema.

A record file is untrusted input (:mod:`bezique.records.record` reads and replays it).
:func:`read_json` reads its text refusing duplicate keys, ``NaN`` and ``Infinity``,
numbers of more than :data:`MAX_DIGITS` digits and nesting deeper than
:data:`MAX_RECORD_DEPTH`; :func:`check_record` finds such values in data however it
was made, then checks the schema (``schemas/record.schema.json``, in which a whole
float such as ``1.0`` is not an integer), and reports every problem as
``WHERE: $.json.path: message``.  :func:`check_headers` checks a record's headers.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

import jsonschema
from jsonschema.protocols import Validator
from jsonschema.validators import extend

from bezique.errors import RecordError
from bezique.reading.yamlsafe import MAX_NODES

RECORD_FORMAT = "bezique-record/2"
"""The format :func:`bezique.records.record.record_of` writes: the rules carried and pinned."""
RECORD_FORMAT_V1 = "bezique-record/1"
"""The older format: the variant named only (replayed with a DeprecationWarning)."""
FORMATS = (RECORD_FORMAT, RECORD_FORMAT_V1)
"""Every format :func:`bezique.records.record.replay` reads."""
MAX_RECORD_BYTES = 4 * 1024 * 1024
"""Records larger than this are refused; no more than one byte past it is read."""
MAX_RECORD_DEPTH = 40
"""The deepest a record's JSON may nest (carried rules and overrides need 34 at most)."""
MAX_DIGITS = 40
"""The most digits a number in a record may have (seeds have 20 at most)."""


def record_schema() -> dict[str, Any]:
    """Return (a fresh copy of) the JSON Schema of game records."""
    text = (files("bezique.schemas") / "record.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator() -> Validator:
    """A Draft 2020-12 validator of records in which a whole float (``1.0``) is not an integer."""
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    strict = extend(jsonschema.Draft202012Validator, type_checker=checker)  # type: ignore[no-untyped-call]
    validator: Validator = strict(record_schema())
    return validator


@functools.cache
def _headers_validator() -> Validator:
    """The validator of a record's headers alone."""
    strict = type(_validator())
    validator: Validator = strict(record_schema()["properties"]["headers"])
    return validator


def check_headers(record: Mapping[str, Any], where: str, players: int) -> None:
    """Check the record's headers against the schema and the number of seats."""
    problems = [
        f"{where}: {_json_path(('headers', *e.absolute_path))}: {_message(e)}"
        for e in _headers_validator().iter_errors(record["headers"])
    ]
    if problems:
        raise RecordError("\n".join(sorted(problems)))
    names = record["headers"].get("players")
    if names is not None and len(names) != players:
        raise RecordError(
            f"{where}: $.headers.players: names {len(names)} player(s), but the variant "
            f"seats {players}; give one name for each seat, seat 0 first"
        )


def read_json(text: str, where: str) -> Any:
    """Parse a record's JSON text, keeping the values a record may not hold where they are.

    Raise :class:`RecordError` for text that is not JSON, or nested too deeply to read.
    """
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
        )
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except RecursionError:
        raise RecordError(
            f"{where}: JSON nested too deeply (a record nests {MAX_RECORD_DEPTH} levels at most)"
        ) from None


class _Refused:
    """A JSON value a record may not hold, left where it was read to say where it is."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def __repr__(self) -> str:
        return self.what


class _Object(dict[str, Any]):
    """A JSON object in which some key is written more than once."""

    __slots__ = ("repeated",)

    def __init__(self, pairs: list[tuple[str, Any]], repeated: list[str]) -> None:
        super().__init__(pairs)
        self.repeated = repeated


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) == len(pairs):
        return data
    seen: set[str] = set()
    repeated = [k for k, _ in pairs if k in seen or seen.add(k)]  # type: ignore[func-returns-value]
    return _Object(pairs, list(dict.fromkeys(repeated)))


def _int(text: str) -> int | _Refused:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        return _Refused(
            f"a number of {digits} digits (a record's numbers have {MAX_DIGITS} at most)"
        )
    return int(text)


def _float(text: str) -> float | _Refused:
    value = float(text) if len(text) <= 400 else math.inf
    if math.isfinite(value):
        return value
    return _Refused(f"{text[:24]}{'...' if len(text) > 24 else ''} is too large a number")


def _constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a number a record may hold (JSON has no {name})")


_LIMIT = 10**MAX_DIGITS


def _value_problems(data: Any) -> list[str]:
    """Find values a record may not hold, without recursion: ``$.path: what`` each.

    Duplicate keys, ``NaN``/``Infinity`` and too long numbers (as read by
    :func:`parse_record`, or given as Python values), nesting deeper than
    :data:`MAX_RECORD_DEPTH`, ``overrides`` or ``variant_data`` holding more
    values than a variant file may, more than :data:`MAX_CONTAINERS` lists and
    objects in all.
    """
    problems: list[tuple[str, str]] = []
    root = _scalar_problem(data)
    if root:
        return [f"$: {root}"]
    containers = 0
    for key in getattr(data, "repeated", ()):
        problems.append(("$", f"the key {key!r} is given more than once"))
    for top in _subtrees(data):
        path0, value0 = top
        limit = _VALUE_LIMITS.get(str(path0[0])) if path0 else None
        problem = _scalar_problem(value0)
        if problem:
            problems.append((_json_path(path0), problem))
        values = 1
        stack: list[tuple[Any, tuple[str | int, ...]]] = [(value0, path0)]
        while stack and len(problems) < 20:
            value, path = stack.pop()
            if len(path) >= MAX_RECORD_DEPTH:
                where = _json_path(path)
                problems.append((where, f"nested more than {MAX_RECORD_DEPTH} levels deep"))
                continue
            if isinstance(value, dict):
                if path:
                    for key in getattr(value, "repeated", ()):
                        where = _json_path(path)
                        problems.append((where, f"the key {key!r} is given more than once"))
                items: Any = value.items()
            elif isinstance(value, list):
                items = enumerate(value)
            else:
                continue
            values += len(value)
            if limit is not None and values > limit:
                what = f"holds more than {limit} values, more than a variant file may"
                problems.append((_json_path(path0), what))
                break
            for key, item in items:
                if isinstance(item, dict | list):
                    containers += 1
                    if containers > MAX_CONTAINERS:
                        what = f"holds more than {MAX_CONTAINERS} lists and objects"
                        return _sorted_problems([*problems, ("$", what)])
                    stack.append((item, (*path, key)))
                else:
                    problem = _scalar_problem(item)
                    if problem:
                        problems.append((_json_path((*path, key)), problem))
    return _sorted_problems(problems)


MAX_CONTAINERS = 30_000
"""The most lists and objects a record may hold in all (its decks, rules and overrides)."""
_VALUE_LIMITS = {"overrides": MAX_NODES, "variant_data": MAX_NODES}
"""The most values the parts of a record merged as variant data may hold."""


def _subtrees(data: Any) -> list[tuple[tuple[str | int, ...], Any]]:
    """The record's top-level values with their paths (after its own repeated keys)."""
    if isinstance(data, dict):
        return [((key,), value) for key, value in data.items()]
    return [((), data)]


def _sorted_problems(problems: list[tuple[str, str]]) -> list[str]:
    return [f"{where}: {what}" for where, what in sorted(problems)]


def _scalar_problem(value: Any) -> str:
    kind = value.__class__
    if kind is _Refused:
        return str(value.what)
    if kind is float and not math.isfinite(value):
        return f"{value} is not a number a record may hold"
    if kind is int and not -_LIMIT < value < _LIMIT:
        return f"a number of more than {MAX_DIGITS} digits"
    return ""


def check_record(data: Any, where: str = "<record>") -> None:
    """Validate ``data`` as a record; raise :class:`RecordError` listing every problem.

    The values first (no duplicate keys, NaN, Infinity, too long numbers or
    too deep nesting), then the schema.
    """
    problems = [f"{where}: {p}" for p in _value_problems(data)]
    if not problems:
        problems = _schema_problems(data, where)
    if problems:
        raise RecordError("\n".join(problems))


def _schema_problems(data: Any, where: str) -> list[str]:
    problems: list[str] = []
    for error in sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.path]):
        if list(error.schema_path)[:1] == ["else"]:  # a key of bezique-record/2 in a /1 record
            newer = [k for k in _NEWER_KEYS if isinstance(data, dict) and k in data]
            problems += [f"{where}: $.{key}: {_NOT_IN_V1}" for key in newer]
        else:
            problems.append(f"{where}: {_json_path(error.absolute_path)}: {_message(error)}")
    return list(dict.fromkeys(problems))


_NEWER_KEYS = ("bezique", "variant_digest", "variant_data", "headers")
"""The keys that came with bezique-record/2 (in the schema's ``else``)."""
_NOT_IN_V1 = (
    f"is not a key of {RECORD_FORMAT_V1} records (it came with {RECORD_FORMAT}); "
    f"write format {RECORD_FORMAT!r}"
)


def _message(error: jsonschema.ValidationError) -> str:
    text = str(error.message)
    return text if len(text) <= 300 else text[:297] + "..."


def _json_path(path: Any) -> str:
    parts = [f"[{p}]" if isinstance(p, int) else f".{p}" for p in path]
    return "$" + "".join(parts)

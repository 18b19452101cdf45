"""Read untrusted YAML into plain data, keeping where every value was written.

Variant files come from anyone, so this module reads them with PyYAML's safe
scanner, parser and composer only, then builds the Python data itself from the
node tree.  It refuses what a rules file never needs and an attacker might use:

* anchors and aliases (no shared or exploding structures; the first alias
  stops the reading, so a file of a great many is refused at once),
* duplicate keys, keys that are not strings, merge keys (``<<``),
* tags other than the plain core ones (``!!str``, ``!!int``, ``!!float``,
  ``!!bool``, ``!!null``, ``!!map``, ``!!seq``),
* more than one document, a file over :data:`MAX_BYTES`, nesting deeper than
  :data:`MAX_DEPTH`, more than :data:`MAX_NODES` values (the last two stop the
  reading at once: PyYAML's pure-Python scanner slows down badly past them).

Dates are not turned into date objects: they stay text.  A value is only read
as a number or a yes/no value when YAML 1.1 (PyYAML's reading) and YAML 1.2
agree on it: numbers in plain decimal digits (``1500``, ``-2``, ``2.5``,
``1.5e+3``) and ``true``/``false`` (``True``, ``TRUE``...).  Anything YAML 1.1
would read otherwise is refused at its place, with what it would be read as:
leading zeros (``01000`` is octal 512), ``0b``/``0x`` numbers, ``_`` between
digits, base-60 ``1:30``, ``.inf``/``.nan``, and ``yes``/``no``/``on``/``off``
as booleans.  Quoted, any of them is text.  Every problem is a
string ``FILE:LINE:COL: message`` (1-based); all the problems of a file are
collected and raised together as one :class:`~bezique.errors.VariantError`
(or, on request, kept with a document read whole, so that its schema can be
checked in the same pass).
The composer and the builder are :mod:`bezique.reading.yamlnodes`'s.  The result, a
:class:`YamlDocument`, maps a JSON path (a tuple of keys and list
indices) back to the line and column where it was written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from bezique.errors import VariantError
from bezique.reading.safeio import decode_text
from bezique.reading.yamlnodes import (
    ALLOWED_TAGS,
    SCALAR_TAGS,
    Builder,
    CStrictLoader,
    JsonPath,
    Position,
    Problem,
    StopReading,
    StrictComposing,
    StrictLoader,
    mark_position,
)

MAX_BYTES = 256 * 1024
"""The largest file accepted, in bytes (256 KiB)."""

MAX_DEPTH = 32
"""The deepest nesting of mappings and lists accepted (the top mapping is level 1)."""

MAX_NODES = 10_000
"""The most values (scalars, lists and mappings) a document may hold.

PyYAML's pure-Python parser needs tens of microseconds per value, so this bounds
the time one file can take; the ordinary variant holds about 300.
"""

MAX_PROBLEMS = 100
"""At most this many problems are listed for one file; a last line counts the rest."""

MAX_READER_PROBLEMS = 20
"""At most this many unreadable characters are reported for one file."""

_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


@dataclass(frozen=True)
class YamlDocument:
    """The data of one YAML file and where each of its values was written.

    ``value_marks`` gives the position of each value, ``key_marks`` the position
    of the key that names a mapping entry; ``collections`` lists the paths whose
    value is a mapping or a list.
    """

    filename: str
    data: Any
    value_marks: Mapping[JsonPath, Position] = field(default_factory=dict)
    key_marks: Mapping[JsonPath, Position] = field(default_factory=dict)
    collections: frozenset[JsonPath] = frozenset()
    size: int = 0
    """How many values (keys included) the document holds, as counted against the limit."""
    problems: tuple[Problem, ...] = ()
    """What was refused in a document read whole all the same (``keep_problems``), in file order."""
    refused: frozenset[Position] = frozenset()
    """Where a plain value was refused and a stand-in read in its place (see
    :meth:`bezique.reading.yamlnodes.Builder._scalar`): nothing more is to be said about it."""

    def has(self, path: JsonPath) -> bool:
        """Say whether this file itself wrote a value at ``path``."""
        return path in self.value_marks

    def location(self, path: JsonPath) -> Position:
        """Return where the value at ``path`` (or its nearest written ancestor) is.

        A mapping or list is placed at the key that names it, a scalar at the
        value itself.
        """
        found = self._nearest(path)
        if found in self.collections and found in self.key_marks:
            return self.key_marks[found]
        return self.value_marks.get(found, (1, 1))

    def key_location(self, path: JsonPath) -> Position:
        """Return where the key naming ``path`` is written (else :meth:`location`)."""
        if path in self.key_marks:
            return self.key_marks[path]
        return self.location(path)

    def where(self, path: JsonPath, *, key: bool = False) -> str:
        """Return ``FILE:LINE:COL`` for ``path``, at its key when ``key`` is true."""
        line, column = self.key_location(path) if key else self.location(path)
        return f"{self.filename}:{line}:{column}"

    def _nearest(self, path: JsonPath) -> JsonPath:
        for end in range(len(path), -1, -1):
            if path[:end] in self.value_marks:
                return path[:end]
        return ()


def parse_yaml_bytes(
    raw: bytes,
    filename: str,
    *,
    max_nodes: int = MAX_NODES,
    too_many: str | None = None,
    keep_problems: bool = False,
) -> YamlDocument:
    """Check the size and encoding of ``raw``, then parse it with :func:`parse_yaml`.

    ``raw`` may be one byte longer than :data:`MAX_BYTES` (read no more than that)
    to tell that a file is too big.  ``max_nodes``, ``too_many`` and ``keep_problems``
    go to :func:`parse_yaml`.  Raise :class:`VariantError` on any problem (but those
    kept).
    """
    if len(raw) > MAX_BYTES:
        raise VariantError(
            f"{filename}:1:1: the file is larger than {MAX_BYTES // 1024} KiB "
            f"({MAX_BYTES} bytes), the most a variant file may be; split it or shorten it"
        )
    try:
        text = decode_text(raw)
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", errors="replace")
        line, column = _position_in(before, len(before))
        raise VariantError(
            f"{filename}:{line}:{column}: byte 0x{raw[exc.start]:02x} is not UTF-8; "
            "save the file as UTF-8 text"
        ) from None
    return parse_yaml(
        text, filename, max_nodes=max_nodes, too_many=too_many, keep_problems=keep_problems
    )


def parse_yaml(
    text: str,
    filename: str,
    *,
    max_depth: int = MAX_DEPTH,
    max_nodes: int = MAX_NODES,
    too_many: str | None = None,
    keep_problems: bool = False,
) -> YamlDocument:
    """Parse one YAML document from ``text`` into plain data with its positions.

    ``filename`` is only used in messages.  Reading stops at the value that
    passes ``max_nodes`` (at most :data:`MAX_NODES`), with the message
    ``too_many`` if given (a caller reading several files spends one budget on
    them).  Raise :class:`VariantError` listing every problem found (see the
    module docstring for what is refused).  With ``keep_problems``, a document
    that could be read whole is returned all the same, its problems in
    :attr:`YamlDocument.problems` (so that a caller can check the rest of the file
    too) and the refused values' places in :attr:`YamlDocument.refused`; only what
    stops the reading (a syntax error, a limit, an alias) is raised.
    """
    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise VariantError(
            f"{filename}:1:1: the text is larger than {MAX_BYTES // 1024} KiB, "
            "the most a variant file may be; split it or shorten it"
        )
    unreadable = list(_unreadable_characters(text, filename))
    if unreadable:
        raise VariantError(unreadable)
    limits = (max_depth, min(max_nodes, MAX_NODES), too_many)
    fast = _read_with_libyaml(text, filename, limits)
    if fast is not None:
        return fast
    loader = StrictLoader(text, filename, *limits)
    try:
        root = loader.compose_single_document()
    except StopReading:
        raise VariantError(_format(filename, loader.problems)) from None
    except yaml.MarkedYAMLError as exc:
        raise VariantError(_format(filename, [*loader.problems, _syntax_problem(exc)])) from None
    except yaml.YAMLError as exc:  # any other parser complaint, without a position
        raise VariantError(_format(filename, [*loader.problems, (1, 1, f"YAML: {exc}")])) from None
    finally:
        loader._parser().dispose()
    builder = Builder(loader)
    data = builder.build(root, ()) if root is not None else None
    problems = loader.problems + builder.problems
    if problems and not keep_problems:
        raise VariantError(_format(filename, problems))
    return _document(filename, data, loader, builder)


def _read_with_libyaml(
    text: str, filename: str, limits: tuple[int, int, str | None]
) -> YamlDocument | None:
    """The document read by :data:`CStrictLoader`, if it is there, the text ASCII and all well.

    None when the file has any problem (or libyaml is missing, or the text is not
    ASCII): :class:`StrictLoader` then reads it again, and tells every problem.
    """
    if CStrictLoader is None or not text.isascii():
        return None
    loader = CStrictLoader(text, filename, *limits)  # type: ignore[call-arg]
    try:
        root = loader.compose_single_document()
    except (StopReading, yaml.YAMLError):
        return None
    finally:
        loader._parser().dispose()
    builder = Builder(loader)
    data = builder.build(root, ()) if root is not None else None
    if loader.problems or builder.problems:
        return None
    return _document(filename, data, loader, builder)


def _document(filename: str, data: Any, loader: StrictComposing, builder: Builder) -> YamlDocument:
    """The document read: its data, the places of its values and its problems."""
    problems = loader.problems + builder.problems
    return YamlDocument(
        filename=filename,
        data=data,
        value_marks=builder.value_marks,
        key_marks=builder.key_marks,
        collections=frozenset(builder.collections),
        size=loader.nodes,
        problems=tuple(sorted(problems)),
        refused=frozenset(loader.refused | builder.refused),
    )


def _position_in(text: str, index: int) -> Position:
    """Return the 1-based position of ``text[index]``, counting lines as PyYAML does."""
    line, column = 1, 1
    for offset, char in enumerate(text[:index]):
        if char in "\n\x85\u2028\u2029" or (char == "\r" and text[offset + 1 : offset + 2] != "\n"):
            line, column = line + 1, 1
        else:
            column += 1
    return line, column


def _unreadable_characters(text: str, filename: str) -> Iterator[str]:
    """Yield a problem for each character YAML does not allow (up to a limit)."""
    for count, match in enumerate(_NON_PRINTABLE.finditer(text)):
        line, column = _position_in(text, match.start())
        if count == MAX_READER_PROBLEMS:
            yield f"{filename}:{line}:{column}: more characters YAML does not allow follow"
            return
        yield (
            f"{filename}:{line}:{column}: character U+{ord(match.group()):04X} is not "
            "allowed in YAML; remove it or write it as an escape inside double quotes"
        )


def _format(filename: str, problems: list[Problem]) -> list[str]:
    """Write positioned problems as ``FILE:LINE:COL: message`` in file order (at most 100)."""
    ordered = sorted(problems)
    shown = [f"{filename}:{line}:{column}: {message}" for line, column, message in ordered]
    if len(shown) <= MAX_PROBLEMS:
        return shown
    line, column, _ = ordered[MAX_PROBLEMS]
    rest = len(shown) - MAX_PROBLEMS
    return [*shown[:MAX_PROBLEMS], f"{filename}:{line}:{column}: {rest} more problems follow"]


def _syntax_problem(exc: yaml.MarkedYAMLError) -> Problem:
    """Turn a PyYAML syntax error into a positioned problem."""
    line, column = mark_position(exc.problem_mark or exc.context_mark)
    message = f"YAML syntax error: {exc.problem or exc.context or 'cannot read this'}"
    if exc.context and exc.problem:
        cline, ccolumn = mark_position(exc.context_mark)
        message += f" ({exc.context} at line {cline}, column {ccolumn})"
    return line, column, message


__all__ = [
    "ALLOWED_TAGS",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "MAX_PROBLEMS",
    "MAX_READER_PROBLEMS",
    "SCALAR_TAGS",
    "JsonPath",
    "Position",
    "Problem",
    "YamlDocument",
    "parse_yaml",
    "parse_yaml_bytes",
]

"""Read untrusted YAML into plain data, keeping where every value was written.

Variant files come from anyone, so this module reads them with PyYAML's safe
scanner, parser and composer only, then builds the Python data itself from the
node tree.  It refuses what a rules file never needs and an attacker might use:

* anchors and aliases (no shared or exploding structures),
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
collected and raised together as one :class:`~bezique.errors.VariantError`.
The result, a :class:`YamlDocument`, maps a JSON path (a tuple of keys and list
indices) back to the line and column where it was written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

import yaml
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    Event,
    NodeEvent,
    ScalarEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from bezique.errors import VariantError

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

JsonPath = tuple[str | int, ...]
"""Where a value sits in the data: mapping keys and list indices from the top."""

Position = tuple[int, int]
"""A 1-based (line, column)."""

_Problem = tuple[int, int, str]

_CORE = "tag:yaml.org,2002:"
SCALAR_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null"))
"""The scalar tags a document may use (implicitly or written out)."""
ALLOWED_TAGS = SCALAR_TAGS | {_CORE + "map", _CORE + "seq"}
"""Every tag a document may use."""
_MERGE_TAG = _CORE + "merge"
_DROPPED_RESOLVERS = frozenset(_CORE + t for t in ("timestamp", "value", "yaml"))
_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_PLAIN_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_PLAIN_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_PLAIN_BOOL = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
_KIND_OF_TAG = {
    _CORE + "int": "a number",
    _CORE + "float": "a number",
    _CORE + "bool": "a yes/no value",
    _CORE + "null": "null",
}


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
    raw: bytes, filename: str, *, max_nodes: int = MAX_NODES, too_many: str | None = None
) -> YamlDocument:
    """Check the size and encoding of ``raw``, then parse it with :func:`parse_yaml`.

    ``raw`` may be one byte longer than :data:`MAX_BYTES` (read no more than that)
    to tell that a file is too big.  ``max_nodes`` and ``too_many`` go to
    :func:`parse_yaml`.  Raise :class:`VariantError` on any problem.
    """
    if len(raw) > MAX_BYTES:
        raise VariantError(
            f"{filename}:1:1: the file is larger than {MAX_BYTES // 1024} KiB "
            f"({MAX_BYTES} bytes), the most a variant file may be; split it or shorten it"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", errors="replace")
        line, column = _position_in(before, len(before))
        raise VariantError(
            f"{filename}:{line}:{column}: byte 0x{raw[exc.start]:02x} is not UTF-8; "
            "save the file as UTF-8 text"
        ) from None
    return parse_yaml(text, filename, max_nodes=max_nodes, too_many=too_many)


def parse_yaml(
    text: str,
    filename: str,
    *,
    max_depth: int = MAX_DEPTH,
    max_nodes: int = MAX_NODES,
    too_many: str | None = None,
) -> YamlDocument:
    """Parse one YAML document from ``text`` into plain data with its positions.

    ``filename`` is only used in messages.  Reading stops at the value that
    passes ``max_nodes`` (at most :data:`MAX_NODES`), with the message
    ``too_many`` if given (a caller reading several files spends one budget on
    them).  Raise :class:`VariantError` listing every problem found (see the
    module docstring for what is refused).
    """
    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise VariantError(
            f"{filename}:1:1: the text is larger than {MAX_BYTES // 1024} KiB, "
            "the most a variant file may be; split it or shorten it"
        )
    unreadable = list(_unreadable_characters(text, filename))
    if unreadable:
        raise VariantError(unreadable)
    loader = _StrictLoader(text, filename, max_depth, min(max_nodes, MAX_NODES), too_many)
    try:
        root = loader.compose_single_document()
    except _StopReading:
        raise VariantError(_format(filename, loader.problems)) from None
    except yaml.MarkedYAMLError as exc:
        raise VariantError(_format(filename, [*loader.problems, _syntax_problem(exc)])) from None
    except yaml.YAMLError as exc:  # any other parser complaint, without a position
        raise VariantError(_format(filename, [*loader.problems, (1, 1, f"YAML: {exc}")])) from None
    finally:
        loader.dispose()
    builder = _Builder(loader)
    data = builder.build(root, ()) if root is not None else None
    problems = loader.problems + builder.problems
    if problems:
        raise VariantError(_format(filename, problems))
    return YamlDocument(
        filename=filename,
        data=data,
        value_marks=builder.value_marks,
        key_marks=builder.key_marks,
        collections=frozenset(builder.collections),
        size=loader.nodes,
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


def _mark_position(mark: Any) -> Position:
    """Return the 1-based position of a PyYAML mark (0-based), or 1:1 without one."""
    if mark is None:
        return 1, 1
    return int(mark.line) + 1, int(mark.column) + 1


def _format(filename: str, problems: list[_Problem]) -> list[str]:
    """Write positioned problems as ``FILE:LINE:COL: message`` in file order (at most 100)."""
    ordered = sorted(problems)
    shown = [f"{filename}:{line}:{column}: {message}" for line, column, message in ordered]
    if len(shown) <= MAX_PROBLEMS:
        return shown
    line, column, _ = ordered[MAX_PROBLEMS]
    rest = len(shown) - MAX_PROBLEMS
    return [*shown[:MAX_PROBLEMS], f"{filename}:{line}:{column}: {rest} more problems follow"]


def _syntax_problem(exc: yaml.MarkedYAMLError) -> _Problem:
    """Turn a PyYAML syntax error into a positioned problem."""
    line, column = _mark_position(exc.problem_mark or exc.context_mark)
    message = f"YAML syntax error: {exc.problem or exc.context or 'cannot read this'}"
    if exc.context and exc.problem:
        cline, ccolumn = _mark_position(exc.context_mark)
        message += f" ({exc.context} at line {cline}, column {ccolumn})"
    return line, column, message


def _shorten(text: str, limit: int = 40) -> str:
    """Return ``repr(text)``, cut short with '...' when it is long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def _implicit_resolvers() -> dict[Any, list[tuple[str, re.Pattern[str]]]]:
    """Return PyYAML's core implicit resolvers without timestamps and other extras."""
    return {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in _DROPPED_RESOLVERS]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


class _StopReading(Exception):
    """Raised inside the loader to stop reading a document that is too deep or too big."""


class _StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader, used only to compose nodes, refusing unsafe features."""

    yaml_implicit_resolvers = _implicit_resolvers()

    def __init__(
        self, text: str, filename: str, max_depth: int, max_nodes: int, too_many: str | None
    ) -> None:
        super().__init__(text)
        self.filename = filename
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.too_many = too_many or (
            f"the document holds more than {max_nodes} values; a variant file needs "
            "far fewer (stopped reading here)"
        )
        self.depth = 0
        self.nodes = 0
        self.problems: list[_Problem] = []

    def problem(self, mark: Any, message: str) -> None:
        """Record ``message`` at ``mark``."""
        self.problems.append((*_mark_position(mark), message))

    def next_event(self) -> Event:
        """Consume and return the next parser event."""
        event: Event = self.get_event()  # type: ignore[no-untyped-call]
        return event

    def coming_event(self) -> Event:
        """Return the next parser event without consuming it."""
        event: Event = self.peek_event()  # type: ignore[no-untyped-call]
        return event

    def compose_single_document(self) -> Node | None:
        """Compose the only document of the stream (``None`` for an empty stream)."""
        self.next_event()  # the stream start
        root = None
        if not self.check_event(StreamEndEvent):
            root = self.compose_document()
        if not self.check_event(StreamEndEvent):
            self.problem(
                self.coming_event().start_mark,
                "a second YAML document starts here; a variant file holds exactly one "
                "(remove this '---' and what follows, or move it to a file of its own)",
            )
        return root

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        """Compose one node, refusing aliases, anchors, odd tags and deep nesting."""
        if self.check_event(AliasEvent):
            return self._refuse_alias(self.next_event())
        event = self.coming_event()
        self._count_node(event)
        self._check_anchor_and_tag(event)
        if not isinstance(event, CollectionStartEvent):
            return super().compose_node(parent, index)
        if self.depth >= self.max_depth:
            return self._refuse_deep(event)
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def _refuse_alias(self, event: Event) -> Node:
        anchor = event.anchor if isinstance(event, NodeEvent) else None
        self.problem(
            event.start_mark,
            f"alias '*{anchor}' is not allowed; write the value out in full "
            "(to share a whole variant, use 'extends:')",
        )
        return _placeholder(event)

    def _check_anchor_and_tag(self, event: Event) -> None:
        if isinstance(event, NodeEvent) and event.anchor is not None:
            self.problem(
                event.start_mark,
                f"anchor '&{event.anchor}' is not allowed; remove it and write values out in full",
            )
            event.anchor = None
        if not isinstance(event, (ScalarEvent, CollectionStartEvent)):
            return
        if event.tag is not None and event.tag != "!" and event.tag not in ALLOWED_TAGS:
            self.problem(
                event.start_mark,
                f"tag {_short_tag(event.tag)} is not allowed; only plain values, "
                "lists and mappings are (remove the tag)",
            )
            event.tag = None

    def _count_node(self, event: Event) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.problem(event.start_mark, self.too_many)
            raise _StopReading

    def _refuse_deep(self, event: Event) -> NoReturn:
        """Stop at once: PyYAML's scanner slows down quadratically with depth."""
        self.problem(
            event.start_mark,
            f"mappings and lists are nested more than {self.max_depth} levels deep here; "
            "a variant file needs only a few levels",
        )
        raise _StopReading


def _placeholder(event: Event) -> Node:
    """Return a null node standing where a refused node was."""
    return ScalarNode(_CORE + "null", "", event.start_mark, event.end_mark)  # type: ignore[arg-type]


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


class _Builder:
    """Build plain Python data from composed nodes, recording marks and problems."""

    def __init__(self, loader: _StrictLoader) -> None:
        self.loader = loader
        self.problems: list[_Problem] = []
        self.value_marks: dict[JsonPath, Position] = {}
        self.key_marks: dict[JsonPath, Position] = {}
        self.collections: set[JsonPath] = set()

    def problem(self, node: Node, message: str) -> None:
        """Record ``message`` at the start of ``node``."""
        self.problems.append((*_mark_position(node.start_mark), message))

    def build(self, node: Node, path: JsonPath) -> Any:
        """Return the data of ``node`` found at ``path``."""
        self.value_marks[path] = _mark_position(node.start_mark)
        if isinstance(node, MappingNode):
            self.collections.add(path)
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            self.collections.add(path)
            return self._sequence(node, path)
        return self._scalar(node)

    def _sequence(self, node: SequenceNode, path: JsonPath) -> list[Any]:
        if node.tag != _CORE + "seq":
            self.problem(node, f"tag {_short_tag(node.tag)} does not fit a list; remove it")
        return [self.build(item, (*path, index)) for index, item in enumerate(node.value)]

    def _mapping(self, node: MappingNode, path: JsonPath) -> dict[str, Any]:
        if node.tag != _CORE + "map":
            self.problem(node, f"tag {_short_tag(node.tag)} does not fit a mapping; remove it")
        result: dict[str, Any] = {}
        first_lines: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            if key is None:
                continue
            if key in first_lines:
                self.problem(
                    key_node,
                    f"duplicate key {_shorten(key)} (first written on line {first_lines[key]}); "
                    "keep only one of them",
                )
                continue
            first_lines[key] = _mark_position(key_node.start_mark)[0]
            child = (*path, key)  # not in the subscript: mypy reads that as 3.11 syntax
            self.key_marks[child] = _mark_position(key_node.start_mark)
            result[key] = self.build(value_node, child)
        return result

    def _key(self, node: Node) -> str | None:
        """Return the text of a mapping key, or record why it is not acceptable."""
        if isinstance(node, ScalarNode) and node.tag == _CORE + "str":
            return str(node.value)
        if isinstance(node, ScalarNode) and node.tag == _MERGE_TAG:
            self.problem(node, "merge keys ('<<') are not allowed; write the keys out in full")
        elif isinstance(node, ScalarNode):
            kind = _KIND_OF_TAG.get(node.tag, "not text")
            self.problem(
                node,
                f"key {_shorten(node.value)} is read as {kind}; keys must be text, "
                f"so put it in quotes: '{node.value}'",
            )
        else:
            kind = "a mapping" if isinstance(node, MappingNode) else "a list"
            self.problem(node, f"a key must be plain text, not {kind}")
        return None

    def _scalar(self, node: Node) -> Any:
        if node.tag == _MERGE_TAG:
            self.problem(node, "'<<' is only meaningful as a merge key, which is not allowed")
            return None
        if node.tag not in SCALAR_TAGS:
            self.problem(node, f"tag {_short_tag(node.tag)} does not fit a plain value; remove it")
            return None
        try:
            value = self.loader.construct_object(node, deep=True)
        except (ValueError, KeyError, IndexError, TypeError, yaml.YAMLError):
            self.problem(
                node,
                f"{_shorten(node.value)} cannot be read as {_short_tag(node.tag)}; "
                "correct it, or make it text: quote it and drop any tag",
            )
            return None
        surprise = _surprise(node.tag, str(node.value), value)
        if surprise:
            self.problem(node, f"{_shorten(node.value)} {surprise}, or put it in quotes for text")
            return None
        return value


def _surprise(tag: str, text: str, value: Any) -> str | None:
    """Say how YAML 1.1 reads ``text`` if YAML 1.2 would not read it the same way."""
    digits = text.lstrip("+-").lower()
    if tag == _CORE + "bool" and text not in _PLAIN_BOOL:
        return _read_as(str(value).lower(), "text", "write true or false")
    if tag == _CORE + "int" and not _PLAIN_INT.fullmatch(text):
        if ":" in digits:
            return _read_as(f"the base-60 number {value}", "text", _DECIMAL)
        if digits.startswith("0b"):
            return _read_as(f"the binary number {value}", "text", f"{_DECIMAL} ({value})")
        if digits.startswith("0x"):
            return f"is the hexadecimal number {value}; {_DECIMAL} ({value})"
        if "_" in digits:
            return _read_as(str(value), "text", f"write {value} (no '_')")
        decimal = int(text, 10)
        return _read_as(
            f"the octal number {value}", str(decimal), f"write {decimal} (no leading zeros)"
        )
    if tag == _CORE + "float" and not _PLAIN_FLOAT.fullmatch(text):
        if value != value or value in (float("inf"), float("-inf")):
            return "is read as an infinite or not-a-number value; write a plain number"
        if ":" in digits:
            return _read_as(f"the base-60 number {value}", "text", _DECIMAL)
        return _read_as(str(value), "text", f"write {value} (no '_')")
    return None


def _read_as(yaml11: str, yaml12: str, advice: str) -> str:
    return f"is read as {yaml11} by YAML 1.1 but as {yaml12} by YAML 1.2; {advice}"


_DECIMAL = "write the number in plain decimal digits"

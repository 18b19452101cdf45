"""The strict YAML composer and the builder of plain data from its nodes.

:mod:`bezique.reading.yamlsafe` reads a variant file with these: :class:`StrictLoader` is
PyYAML's safe loader used only to compose nodes, refusing aliases, anchors, tags
other than the core ones, a second document, deep nesting and too many values;
:class:`Builder` turns the nodes into dicts, lists and scalars, recording where
each value and key was written, and refuses duplicate keys, keys that are not
text, merge keys, and scalars YAML 1.1 and YAML 1.2 would read differently
(:func:`_surprise`).  Problems are kept as ``(line, column, message)``, 1-based,
and the places of the plain values refused (read as a stand-in) in ``refused``.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, NoReturn, cast

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

JsonPath = tuple[str | int, ...]
"""Where a value sits in the data: mapping keys and list indices from the top."""

Position = tuple[int, int]
"""A 1-based (line, column)."""

Problem = tuple[int, int, str]
"""A problem at a 1-based line and column."""

_CORE = "tag:yaml.org,2002:"
SCALAR_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null"))
"""The scalar tags a document may use (implicitly or written out)."""
ALLOWED_TAGS = SCALAR_TAGS | {_CORE + "map", _CORE + "seq"}
"""Every tag a document may use."""
_MERGE_TAG = _CORE + "merge"
_DROPPED_RESOLVERS = frozenset(_CORE + t for t in ("timestamp", "value", "yaml"))
_PLAIN_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_PLAIN_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_PLAIN_BOOL = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
_KIND_OF_TAG = {
    _CORE + "int": "a number",
    _CORE + "float": "a number",
    _CORE + "bool": "a yes/no value",
    _CORE + "null": "null",
}


def mark_position(mark: Any) -> Position:
    """Return the 1-based position of a PyYAML mark (0-based), or 1:1 without one."""
    if mark is None:
        return 1, 1
    return int(mark.line) + 1, int(mark.column) + 1


def _shorten(text: str, limit: int = 40) -> str:
    """Return ``repr(text)``, cut short with '...' when it is long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def _implicit_resolvers() -> dict[Any, list[tuple[str, re.Pattern[str]]]]:
    """Return PyYAML's core implicit resolvers without timestamps and other extras."""
    return {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in _DROPPED_RESOLVERS]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


class StopReading(Exception):
    """Raised inside the loader to stop reading a document that is too deep or too big."""


class StrictComposing:
    """What both strict loaders do: compose nodes, refusing unsafe features (a mixin).

    :class:`StrictLoader` composes from PyYAML's own parser (in Python);
    :class:`CStrictLoader` from libyaml's events, the same composer and checks on top.
    """

    yaml_implicit_resolvers = _implicit_resolvers()

    def _start(self, filename: str, max_depth: int, max_nodes: int, too_many: str | None) -> None:
        """Set the limits and the lists of problems (the parser already started)."""
        self.filename = filename
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.too_many = too_many or (
            f"the document holds more than {max_nodes} values; a variant file needs "
            "far fewer (stopped reading here)"
        )
        self.depth = 0
        self.nodes = 0
        self.problems: list[Problem] = []
        self.refused: set[Position] = set()
        """Where a plain value's tag was refused (the value is read as if untagged)."""

    def _parser(self) -> Any:
        """The loader as the parser and composer it is made of (untyped PyYAML)."""
        return self

    def problem(self, mark: Any, message: str) -> None:
        """Record ``message`` at ``mark``."""
        self.problems.append((*mark_position(mark), message))

    def next_event(self) -> Event:
        """Consume and return the next parser event."""
        event: Event = self._parser().get_event()
        return event

    def coming_event(self) -> Event:
        """Return the next parser event without consuming it."""
        event: Event = self._parser().peek_event()
        return event

    def compose_single_document(self) -> Node | None:
        """Compose the only document of the stream (``None`` for an empty stream)."""
        self.next_event()  # the stream start
        root = None
        parser = self._parser()
        if not parser.check_event(StreamEndEvent):
            root = parser.compose_document()
        if not parser.check_event(StreamEndEvent):
            self.problem(
                self.coming_event().start_mark,
                "a second YAML document starts here; a variant file holds exactly one "
                "(remove this '---' and what follows, or move it to a file of its own)",
            )
        return root

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        """Compose one node, refusing aliases, anchors, odd tags and deep nesting."""
        if self._parser().check_event(AliasEvent):
            self._refuse_alias(self.next_event())
        event = self.coming_event()
        self._count_node(event)
        self._check_anchor_and_tag(event)
        compose: Any = super().compose_node  # type: ignore[misc]
        if not isinstance(event, CollectionStartEvent):
            return cast("Node | None", compose(parent, index))
        if self.depth >= self.max_depth:
            return self._refuse_deep(event)
        self.depth += 1
        try:
            return cast("Node | None", compose(parent, index))
        finally:
            self.depth -= 1

    def _refuse_alias(self, event: Event) -> NoReturn:
        """Stop at the first alias: a file of a great many would take long to read through."""
        anchor = event.anchor if isinstance(event, NodeEvent) else None
        self.problem(
            event.start_mark,
            f"alias '*{anchor}' is not allowed; write the value out in full "
            "(to share a whole variant, use 'extends:'; stopped reading here)",
        )
        raise StopReading

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
            if isinstance(event, ScalarEvent):
                self.refused.add(mark_position(event.start_mark))

    def _count_node(self, event: Event) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.problem(event.start_mark, self.too_many)
            raise StopReading

    def _refuse_deep(self, event: Event) -> NoReturn:
        """Stop at once: PyYAML's scanner slows down quadratically with depth."""
        self.problem(
            event.start_mark,
            f"mappings and lists are nested more than {self.max_depth} levels deep here; "
            "a variant file needs only a few levels",
        )
        raise StopReading


class StrictLoader(StrictComposing, yaml.SafeLoader):
    """PyYAML's safe loader, in Python, used only to compose nodes, refusing unsafe features.

    The reference: every problem a file has is told as this loader finds it.
    """

    def __init__(
        self, text: str, filename: str, max_depth: int, max_nodes: int, too_many: str | None
    ) -> None:
        yaml.SafeLoader.__init__(self, text)
        self._start(filename, max_depth, max_nodes, too_many)


CStrictLoader: type[StrictComposing] | None = None
"""The same composer on libyaml's parser (PyYAML built with it), or None without it.

Many times faster at reading a file; its events are those of :class:`StrictLoader`,
and its marks too for ASCII text (a column counts characters either way).  Only a
file read without any problem is taken from it: a file with one is read again by
:class:`StrictLoader`, so every message and position is the reference's
(:func:`bezique.reading.yamlsafe.parse_yaml`).
"""


def _libyaml_parser() -> Any:
    """PyYAML's parser on libyaml (``yaml.cyaml.CParser``), or None if PyYAML lacks it."""
    try:
        return importlib.import_module("yaml.cyaml").CParser
    except (ImportError, AttributeError):
        return None


_CPARSER = _libyaml_parser()


def _start_on_libyaml(
    loader: Any, text: str, filename: str, max_depth: int, max_nodes: int, too_many: str | None
) -> None:
    """Start a :data:`CStrictLoader`: libyaml's parser, the composer and the checks."""
    _CPARSER.__init__(loader, text)
    yaml.composer.Composer.__init__(loader)
    yaml.constructor.SafeConstructor.__init__(loader)
    yaml.resolver.Resolver.__init__(loader)
    loader._start(filename, max_depth, max_nodes, too_many)


if _CPARSER is not None:
    CStrictLoader = type(
        "CStrictLoader",
        (
            StrictComposing,
            yaml.composer.Composer,
            yaml.constructor.SafeConstructor,
            yaml.resolver.Resolver,
            _CPARSER,
        ),
        {"__init__": _start_on_libyaml, "__doc__": "The strict composer on libyaml's events."},
    )


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


class Builder:
    """Build plain Python data from composed nodes, recording marks and problems."""

    def __init__(self, loader: StrictComposing) -> None:
        self.loader = loader
        self.problems: list[Problem] = []
        self.refused: set[Position] = set()
        """Where a value was refused and another read in its place (see :meth:`_scalar`)."""
        self.value_marks: dict[JsonPath, Position] = {}
        self.key_marks: dict[JsonPath, Position] = {}
        self.collections: set[JsonPath] = set()

    def problem(self, node: Node, message: str) -> None:
        """Record ``message`` at the start of ``node``."""
        self.problems.append((*mark_position(node.start_mark), message))

    def build(self, node: Node, path: JsonPath) -> Any:
        """Return the data of ``node`` found at ``path``."""
        self.value_marks[path] = mark_position(node.start_mark)
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
            first_lines[key] = mark_position(key_node.start_mark)[0]
            child = (*path, key)  # not in the subscript: mypy reads that as 3.11 syntax
            self.key_marks[child] = mark_position(key_node.start_mark)
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
        """The value of a scalar node, or, when it is refused, a stand-in for it.

        The stand-in lets the rest of the file be checked: a value YAML 1.1 reads
        otherwise than YAML 1.2 stands as YAML 1.1 reads it, any other refused value
        as its text.  Its place is recorded in :attr:`refused`, so that nothing else
        is said about the stand-in.
        """
        if node.tag == _MERGE_TAG:
            return self._refuse(
                node, "'<<' is only meaningful as a merge key, which is not allowed"
            )
        if node.tag not in SCALAR_TAGS:
            return self._refuse(
                node, f"tag {_short_tag(node.tag)} does not fit a plain value; remove it"
            )
        try:
            value = self.loader._parser().construct_object(node, deep=True)
        except (ValueError, KeyError, IndexError, TypeError, yaml.YAMLError):
            return self._refuse(
                node,
                f"{_shorten(node.value)} cannot be read as {_short_tag(node.tag)}; "
                "correct it, or make it text: quote it and drop any tag",
            )
        surprise = _surprise(node.tag, str(node.value), value)
        if surprise:
            self._refuse(node, f"{_shorten(node.value)} {surprise}, or put it in quotes for text")
        return value

    def _refuse(self, node: Node, message: str) -> str:
        """Record ``message`` at ``node``, refused; return its text to stand in for it."""
        self.problem(node, message)
        self.refused.add(mark_position(node.start_mark))
        return str(node.value)


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

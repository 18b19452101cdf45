"""Where a problem of a variant is: the file that wrote each value, and ``FILE:LINE:COL``.

A merged variant is made of the files of one ``extends:`` chain and the overrides
given on top.  :class:`Origins` keeps, as a tree over the merged data's paths, which
file (or the overrides) wrote each value; a :class:`Locator` turns a path and a text
into a :class:`Message` at ``FILE:LINE:COL: path.to.key: text`` (or
``<overrides>: path.to.key: text``), and :func:`ordered` puts the messages of one
load in file order, at most :data:`~bezique.reading.yamlsafe.MAX_PROBLEMS` for each file.
The small text helpers every message uses (:func:`dotted`, :func:`kind`,
:func:`shorten`) live here too.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from bezique.reading.yamlsafe import MAX_PROBLEMS, JsonPath, YamlDocument

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10: the same protocol, before it moved to importlib.resources.abc
    from importlib.abc import Traversable

OVERRIDES = "<overrides>"
"""How messages name the overrides given to :func:`~bezique.variant.load_variant`."""

MAX_CHAIN = 16
"""The most files one ``extends:`` chain may hold."""


@dataclass(frozen=True)
class Source:
    """A variant file to read: how messages name it and how to tell it is the same file."""

    display: str
    identity: str
    resource: Traversable
    folder: Path | None  # where sibling files are; None: siblings are registered names


@dataclass(frozen=True)
class File:
    """One parsed file of an ``extends:`` chain; ``rank`` 0 is the file asked for."""

    source: Source
    doc: YamlDocument
    rank: int

    @property
    def data(self) -> dict[str, Any]:
        """The file's own mapping."""
        return self.doc.data if isinstance(self.doc.data, dict) else {}


# --- who wrote what ------------------------------------------------------------------------


@dataclass
class _OriginNode:
    """What is known about who wrote one path of the merged data, and its children."""

    children: dict[str | int, _OriginNode] = field(default_factory=dict)
    written: bool = False
    written_by: File | None = None
    touched: bool = False
    touched_by: File | None = None


class Origins:
    """Which file (None: the overrides) wrote each part of the merged data.

    A path is *written* by the file that set its whole value, and *touched* by
    the last file that merged into the mapping there (for problems about the
    mapping itself, such as a missing key).  Kept as a tree, so that replacing a
    value forgets everything under it at once.
    """

    def __init__(self, base: File | None) -> None:
        """Start with the whole data written by ``base`` (None: the overrides)."""
        self.root = _OriginNode(written=True, written_by=base)

    def write(self, path: JsonPath, origin: File | None) -> None:
        """Record that ``origin`` set the whole value at ``path`` (forgetting what was under it)."""
        self._node(path[:-1]).children[path[-1]] = _OriginNode(written=True, written_by=origin)

    def forget(self, path: JsonPath) -> None:
        """Drop what is known about ``path`` and everything under it."""
        self._node(path[:-1]).children.pop(path[-1], None)

    def touch(self, path: JsonPath, origin: File | None) -> None:
        """Record that ``origin`` merged keys into the mapping at ``path``."""
        node = self._node(path)
        node.touched, node.touched_by = True, origin

    def of(self, path: JsonPath) -> File | None:
        """Return the file that wrote the value at ``path`` (None: the overrides)."""
        node = self.root
        found = node.written_by
        for part in path:
            child = node.children.get(part)
            if child is None:
                return found
            node = child
            if node.written:
                found = node.written_by
        return node.touched_by if node.touched else found

    def _node(self, path: JsonPath) -> _OriginNode:
        node = self.root
        for part in path:
            node = node.children.setdefault(part, _OriginNode())
        return node


# --- messages ------------------------------------------------------------------------------


class Message(NamedTuple):
    """A problem with the key it sorts by: file (most derived first), line, column.

    ``where`` is ``FILE:LINE:COL`` (or ``<overrides>``).  ``render``, when given,
    writes the full text, which is costlier than ``text`` (a key suggestion
    searched through the whole schema): only the problems shown are rendered.
    """

    order: tuple[int, int, int]
    text: str
    where: str = ""
    render: Callable[[], str] | None = None


def ordered(messages: Sequence[Message]) -> list[str]:
    """Return the texts in file order, each once, at most MAX_PROBLEMS for each file.

    The problems past that of a file (or of the overrides) are counted on one
    more line, ``FILE:LINE:COL: N more problems follow`` at the first left out.
    """
    unique = {m.text: m for m in sorted(messages, key=lambda m: (m.order, m.text))}
    texts: list[str] = []
    for _, group in itertools.groupby(unique.values(), key=lambda m: m.order[0]):
        mine = list(group)
        texts += [m.render() if m.render else m.text for m in mine[:MAX_PROBLEMS]]
        if len(mine) > MAX_PROBLEMS:
            first_left_out = mine[MAX_PROBLEMS].where or mine[MAX_PROBLEMS].text.split(": ")[0]
            texts.append(f"{first_left_out}: {len(mine) - MAX_PROBLEMS} more problems follow")
    return texts


def dotted(path: JsonPath) -> str:
    """Write a path as messages show it: ``declarations.bezique_cards.S[1]``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def overrides_where(path: JsonPath) -> str:
    """Name a path of the overrides: ``<overrides>: game.target``."""
    return f"{OVERRIDES}: {dotted(path)}" if path else OVERRIDES


def file_message(
    file: File, path: JsonPath, *, key: bool = False, later: Callable[[], str] | None = None
) -> Callable[[str], Message]:
    """Return a function that writes a message about ``path`` in ``file``.

    With ``key``, the message is at the key rather than its value.  With
    ``later``, the message shown is ``later()`` (called only if it is shown).
    """
    line, column = file.doc.key_location(path) if key else file.doc.location(path)
    where = f"{file.source.display}:{line}:{column}"
    prefix = f"{where}: " + (f"{dotted(path)}: " if path else "")
    render = (lambda: prefix + later()) if later else None
    return lambda text: Message((file.rank, line, column), prefix + text, where, render)


class Locator:
    """Say where a path of the merged data was written: which file, line and column."""

    def __init__(self, origins: Origins) -> None:
        """Locate paths by ``origins``."""
        self.origins = origins

    def origin(self, path: JsonPath) -> File | None:
        """Return the file that set the value at ``path`` (None: the overrides)."""
        return self.origins.of(path)

    def message(
        self,
        path: JsonPath,
        text: str,
        *,
        key: bool = False,
        later: Callable[[], str] | None = None,
    ) -> Message:
        """Write ``text`` about ``path`` at the place that set it.

        With ``later``, the message shown is written by ``later()`` instead, and
        only if it is shown (see :func:`ordered`).
        """
        origin = self.origin(path)
        if origin is None:
            prefix = f"{overrides_where(path)}: "
            render = (lambda: prefix + later()) if later else None
            return Message((MAX_CHAIN + 1, 0, 0), prefix + text, OVERRIDES, render)
        return file_message(origin, path, key=key, later=later)(text)

    def latest(self, paths: Sequence[JsonPath]) -> JsonPath:
        """Return the one of ``paths`` set by the most derived file (or the overrides)."""
        return min(paths, key=lambda p: self._rank(p))

    def _rank(self, path: JsonPath) -> int:
        origin = self.origin(path)
        return -1 if origin is None else origin.rank


# --- describing values ---------------------------------------------------------------------


def kind(value: Any) -> str:
    """Describe a value for a message: ``text 'abc'``, ``the number 1.5``, ``a list``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the yes/no value {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {shorten(value)}"
    return "a list" if isinstance(value, list) else "a mapping"


def shorten(value: Any, limit: int = 40) -> str:
    """The ``repr`` of ``value``, cut to ``limit`` characters with ``...``."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."

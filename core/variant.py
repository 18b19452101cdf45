"""Load a variant: safe YAML, ``extends:`` merging, overrides, schema and sense checks.

A variant is named by a registered name (``ordinary``, see
:func:`bezique.registry.variant_files`), by ``builtin/NAME.yaml`` (the
:attr:`Variant.origin` of a registered variant), or by the path of a ``.yaml``
file.  A file may say ``extends: PARENT`` (a registered name, or the file name
of a ``.yaml`` file in the same folder): mappings merge key by key, lists are
replaced, and ``null`` deletes an inherited key.  Overrides from the API or a
game record merge on top the same way.

The merged data is checked against ``schemas/variant.schema.json`` and then for
sense, so that a variant that validates plays: packets add up, every rank and
card named exists, the pack holds the hands and what is left goes round the
players, some rule scores, every plugin is known and listed after the plugins it
builds on (``bezique_requires``), no two plugins answer a hook one of them keeps
to itself (``bezique_exclusive_hooks``), and each plugin finds nothing in the
data it cannot play (``bezique_variant_problems``).  Every problem is reported as
``FILE:LINE:COL: path.to.key: message`` at the file that set the offending
value, or ``<overrides>: path.to.key: message``; all of them are raised together
as one :class:`~bezique.errors.VariantError`, at most
:data:`~bezique.yamlsafe.MAX_PROBLEMS` for each file (and for the overrides),
then a line counting the rest.  A misspelt key is told the nearest key of the
schema, at its own level or anywhere else (``tarrget:`` -> ``game.target``).
Nothing is written, and the only thing kept is a small memo of parsed file
contents (keyed by the bytes), so a rejected file leaves nothing behind.
"""

from __future__ import annotations

import copy
import difflib
import functools
import itertools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from bezique import registry
from bezique.errors import VariantError
from bezique.safeio import read_regular
from bezique.yamlsafe import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_NODES,
    MAX_PROBLEMS,
    JsonPath,
    YamlDocument,
    parse_yaml_bytes,
)

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10: the same protocol, before it moved to importlib.resources.abc
    from importlib.abc import Traversable

if TYPE_CHECKING:
    from jsonschema import ValidationError
    from jsonschema.protocols import Validator

BUILTIN_PREFIX = "builtin/"
"""How the origin of a registered variant starts: ``builtin/ordinary.yaml``."""

OVERRIDES = "<overrides>"
"""How messages name the overrides given to :func:`load_variant`."""

MAX_CHAIN = 16
"""The most files one ``extends:`` chain may hold."""

MAX_CHAIN_VALUES = 20_000
"""The most values all the files of one ``extends:`` chain may hold together.

Each file may hold :data:`~bezique.yamlsafe.MAX_NODES`; this bounds the time
and memory a whole chain takes (the ordinary variant holds about 300)."""

SCHEMA_FILE = "variant.schema.json"
"""The JSON Schema of variants, in the package data ``bezique.schemas``."""

_NAME_FORM = re.compile(r"[a-z][a-z0-9_-]*")
_RANK_FORM = re.compile(r"[A-Z0-9]")
_SUIT_FORM = re.compile(r"[A-Z]")
_CARD_FORM = re.compile(r"[A-Z0-9][A-Z]")


@dataclass(frozen=True)
class Variant:
    """A loaded, merged and validated variant.

    ``data`` is the merged mapping without ``extends``; ``origin`` is the file
    it was loaded from (a path, or ``builtin/NAME.yaml`` for a registered
    variant, which :func:`load_variant` accepts back); ``chain`` lists the
    files merged, base first; ``overrides`` are those merged on top.
    """

    name: str
    data: dict[str, Any] = field(hash=False)
    origin: str
    chain: tuple[str, ...]
    overrides: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def title(self) -> str:
        """The variant's full name for people (its ``name`` when it has no title)."""
        return str(self.data.get("title", self.name))

    @property
    def summary(self) -> str:
        """The variant's one-line summary."""
        return str(self.data["summary"])

    @property
    def plugins(self) -> tuple[str, ...]:
        """The registered names of the plugins the variant needs, in order."""
        return tuple(self.data["plugins"])


def load_variant(
    spec: str | os.PathLike[str], overrides: Mapping[str, Any] | None = None
) -> Variant:
    """Load the variant ``spec`` (a registered name or a ``.yaml`` path) with ``overrides``.

    Raise :class:`VariantError` listing every problem found.
    """
    chain, problems = _load_chain(_resolve_spec(spec))
    data, origins = _merge_chain(chain)
    plain_overrides: dict[str, Any] = {}
    if overrides:
        plain_overrides = _plain_overrides(overrides)
        deleting_nothing = _deleting_nothing(data, plain_overrides, ())
        if deleting_nothing:
            raise VariantError(deleting_nothing)
        _merge_into(data, plain_overrides, (), None, origins)
    locator = _Locator(origins)
    problems += _schema_problems(data, locator)
    problems += _sense_problems(data, locator)
    if not problems:  # the plugins' own checks read well-formed data only
        problems += _plugin_problems(data, locator)
    if problems:
        raise VariantError(_ordered(problems))
    _fill_defaults(data)
    return Variant(
        name=data["name"],
        data=data,
        origin=chain[-1].source.display,
        chain=tuple(file.source.display for file in chain),
        overrides=plain_overrides,
    )


def variant_from_data(
    data: Any, where: str, *, origin: str, overrides: Mapping[str, Any] | None = None
) -> Variant:
    """Check merged variant data held outside any file (a game record's) as a file is checked.

    ``data`` is a whole merged variant, as :attr:`Variant.data` holds it: it
    extends nothing, it is copied as plain data within the YAML reader's limits
    (:data:`~bezique.yamlsafe.MAX_DEPTH` levels, :data:`~bezique.yamlsafe.MAX_NODES`
    values), then checked against the schema and for sense (plugins by
    registered name only).  Every problem is reported as ``WHERE: path.to.key:
    message``, all of them together in one :class:`VariantError`.  ``origin``
    is what the variant gives as its origin and chain (the name a record gives);
    ``overrides`` what it says was merged into the data.
    """
    if not isinstance(data, Mapping):
        raise VariantError(f"{where}: must be a mapping of a variant's keys, not {_kind(data)}")
    if _values_beyond(data, MAX_NODES):
        raise VariantError(
            f"{where}: holds more than {MAX_NODES} values, more than a variant file may"
        )
    texts: list[str] = []
    plain = _plain(data, (), texts)
    if isinstance(plain, dict) and "extends" in plain:
        texts.append(f"{OVERRIDES}: extends: merged variant data extends nothing")
    if not texts:
        locator = _Locator(_Origins(None))
        texts = _ordered(_schema_problems(plain, locator) + _sense_problems(plain, locator))
    if texts:
        raise VariantError([where + t.removeprefix(OVERRIDES) for t in texts])
    _fill_defaults(plain)
    return Variant(
        name=plain["name"],
        data=plain,
        origin=origin,
        chain=(origin,),
        overrides=_plain_overrides(overrides) if overrides else {},
    )


def _values_beyond(data: Any, limit: int) -> bool:
    """Whether ``data`` holds more than ``limit`` values (counted without recursion)."""
    count = 0
    stack = [data]
    while stack:
        value = stack.pop()
        count += 1
        if count > limit:
            return True
        if isinstance(value, Mapping):
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
    return False


def validate_paths(paths: Sequence[str]) -> list[str]:
    """Load each of ``paths`` as a variant spec; return every problem found (none: ``[]``)."""
    messages: list[str] = []
    for path in paths:
        try:
            load_variant(path)
        except VariantError as exc:
            messages.extend(exc.problems)
    return messages


def variant_summaries() -> list[tuple[str, str]]:
    """Return ``(name, summary)`` of every registered variant (see :func:`variant_listing`).

    Raise :class:`VariantError` with the problems of every variant that cannot be listed.
    """
    summaries, problems = variant_listing()
    if problems:
        raise VariantError(problems)
    return summaries


def variant_listing() -> tuple[list[tuple[str, str]], list[str]]:
    """Return ``(name, summary)`` of each registered variant, and the problems of the others.

    Cheap by design: each file's ``extends:`` chain is read and merged as
    :func:`load_variant` reads it, but neither validated nor joined to its plugins.
    Only a variant whose merged summary is not text is loaded in full, for its problems.
    """
    summaries: list[tuple[str, str]] = []
    problems: list[str] = []
    for name in _catalogue():
        try:
            chain, _ = _load_chain(_resolve_spec(name))
            summary = _merge_chain(chain)[0].get("summary")
            if not isinstance(summary, str) or not summary:
                summary = load_variant(name).summary
            summaries.append((name, summary))
        except VariantError as exc:
            problems.extend(exc.problems)
    return summaries, problems


# --- finding and reading files -------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    """A variant file to read: how messages name it and how to tell it is the same file."""

    display: str
    identity: str
    resource: Traversable
    folder: Path | None  # where sibling files are; None: siblings are registered names


@dataclass(frozen=True)
class _File:
    """One parsed file of an ``extends:`` chain; ``rank`` 0 is the file asked for."""

    source: _Source
    doc: YamlDocument
    rank: int

    @property
    def data(self) -> dict[str, Any]:
        """The file's own mapping."""
        return self.doc.data if isinstance(self.doc.data, dict) else {}


def _catalogue() -> dict[str, Traversable]:
    """Return the registered variants (a broken plugin's are missing; see registry)."""
    return registry.variant_files()


def _known_variants() -> str:
    return (", ".join(_catalogue()) or "none") + registry.missing_note()


def _resolve_spec(spec: str | os.PathLike[str]) -> _Source:
    """Return the source that ``spec`` names, or raise VariantError."""
    if isinstance(spec, str) and spec.startswith(BUILTIN_PREFIX) and spec.endswith(".yaml"):
        return _registered_source(spec[len(BUILTIN_PREFIX) : -len(".yaml")])
    if isinstance(spec, str) and not spec.endswith(".yaml") and not re.search(r"[/\\]", spec):
        return _registered_source(spec)
    path = Path(spec)
    if path.suffix != ".yaml":
        raise VariantError(f"{spec}: a variant file's name must end in .yaml")
    return _file_source(path)


def _registered_source(name: str) -> _Source:
    catalogue = _catalogue()
    if name not in catalogue:
        raise VariantError(
            f"unknown variant {name!r}; known variants: {_known_variants()} "
            "(or give the path of a .yaml file)"
        )
    resource = catalogue[name]
    identity = str(resource.resolve()) if isinstance(resource, Path) else BUILTIN_PREFIX + name
    return _Source(f"{BUILTIN_PREFIX}{name}.yaml", identity, resource, None)


def _file_source(path: Path) -> _Source:
    return _Source(os.fspath(path), os.path.abspath(path), path, path.parent)


def _read(source: _Source, budget: int = MAX_NODES) -> YamlDocument:
    """Read and parse one file, refusing anything bigger than the YAML size limit.

    ``budget`` is how many values the chain may still read (see :data:`MAX_CHAIN_VALUES`).
    """
    try:
        if isinstance(source.resource, Path):  # a FIFO or a device is refused, not waited on
            raw = read_regular(source.resource, MAX_BYTES + 1)
        else:
            with source.resource.open("rb") as stream:
                raw = stream.read(MAX_BYTES + 1)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise VariantError(f"{source.display}: cannot read the file: {reason}") from None
    if budget >= MAX_NODES:
        return _parse(raw, source.display, MAX_NODES, None)
    too_many = (
        f"the files of this extends chain hold more than {MAX_CHAIN_VALUES} values in all "
        "(stopped reading here); a variant needs far fewer"
    )
    return _parse(raw, source.display, max(budget, 0), too_many)


@functools.lru_cache(maxsize=32)
def _parse(raw: bytes, display: str, max_nodes: int, too_many: str | None) -> YamlDocument:
    """Parse a file's bytes; the same bytes read again are not parsed again.

    Only successful parses are kept (an exception is never cached), and the
    documents are never changed: merging copies what it takes from them.
    """
    return parse_yaml_bytes(raw, display, max_nodes=max_nodes, too_many=too_many)


# --- the extends chain ---------------------------------------------------------------------


def _load_chain(top: _Source) -> tuple[list[_File], list[_Message]]:
    """Read ``top`` and its ancestors; return them base first, with non-fatal problems.

    Raise VariantError (with everything found so far) when the chain cannot be built.
    """
    chain: list[_File] = []
    problems: list[_Message] = []
    source: _Source | None = top
    read = 0  # values read so far, against MAX_CHAIN_VALUES
    while source is not None:
        try:
            file = _File(source, _read(source, MAX_CHAIN_VALUES - read), len(chain))
            read += file.doc.size
            chain.append(file)
            if not isinstance(file.doc.data, dict):
                raise VariantError(_file_message(file, ())(_not_a_mapping(file.doc.data)).text)
            problems += _name_problems(file)
            source = _parent_source(file, chain)
        except VariantError as exc:
            raise VariantError([*_ordered(problems), *exc.problems]) from None
    chain.reverse()
    return chain, problems


def _name_problems(file: _File) -> list[_Message]:
    """Check that a file has its own ``name`` (the schema checks the merged one)."""
    where = _file_message(file, ())
    name = file.data.get("name")
    if "name" not in file.data and ("extends" in file.data or file.rank > 0):
        stem = Path(file.source.display).stem
        return [where("has no 'name'; every variant file needs its own, such as name: " + stem)]
    if (
        file.rank > 0
        and "name" in file.data
        and not (isinstance(name, str) and _NAME_FORM.fullmatch(name))
    ):
        return [
            _file_message(file, ("name",))(
                f"{name!r} is not a variant name; use lower-case letters, digits, '-' and '_'"
            )
        ]
    return []


def _parent_source(file: _File, chain: list[_File]) -> _Source | None:
    """Return the source ``file`` extends (None if it extends nothing), or raise."""
    if "extends" not in file.data:
        return None
    fail = _file_message(file, ("extends",))
    value = file.data["extends"]
    if not isinstance(value, str) or not value:
        raise VariantError(
            fail("must name a registered variant or a .yaml file beside this one").text
        )
    if re.search(r"[/\\]", value) or value.startswith("."):
        raise VariantError(
            fail(f"{value!r} must be a variant name or a file name without any folder part").text
        )
    parent = _sibling_or_registered(file, value, fail)
    if parent.identity in [f.source.identity for f in chain]:
        loop = " -> ".join([*(f.source.display for f in chain), parent.display])
        raise VariantError(
            fail(
                f"{value!r} leads back into its own chain ({loop}); a variant cannot extend itself"
            ).text
        )
    if len(chain) >= MAX_CHAIN:
        raise VariantError(
            fail(f"the extends chain is longer than {MAX_CHAIN} files; shorten it").text
        )
    return parent


def _sibling_or_registered(file: _File, value: str, fail: Callable[[str], _Message]) -> _Source:
    """Find the parent ``value``: a sibling ``.yaml`` file, else a registered variant."""
    folder = file.source.folder
    if value.endswith(".yaml") and folder is not None:
        if not (folder / value).is_file():
            raise VariantError(fail(f"there is no file {value!r} in {os.fspath(folder)!r}").text)
        return _file_source(folder / value)
    name = value.removesuffix(".yaml")
    if name not in _catalogue():
        raise VariantError(
            fail(
                f"unknown variant {value!r}; known variants: {_known_variants()} "
                "(or name a .yaml file in the same folder, such as 'base.yaml')"
            ).text
        )
    return _registered_source(name)


def _not_a_mapping(data: Any) -> str:
    if data is None:
        return "the file is empty; a variant file holds keys such as name:, summary: and extends:"
    return f"a variant file must be a mapping of keys (name:, summary:, ...), not {_kind(data)}"


# --- merging -------------------------------------------------------------------------------


@dataclass
class _OriginNode:
    """What is known about who wrote one path of the merged data, and its children."""

    children: dict[str | int, _OriginNode] = field(default_factory=dict)
    written: bool = False
    written_by: _File | None = None
    touched: bool = False
    touched_by: _File | None = None


class _Origins:
    """Which file (None: the overrides) wrote each part of the merged data.

    A path is *written* by the file that set its whole value, and *touched* by
    the last file that merged into the mapping there (for problems about the
    mapping itself, such as a missing key).  Kept as a tree, so that replacing a
    value forgets everything under it at once.
    """

    def __init__(self, base: _File | None) -> None:
        self.root = _OriginNode(written=True, written_by=base)

    def write(self, path: JsonPath, origin: _File | None) -> None:
        """Record that ``origin`` set the whole value at ``path`` (forgetting what was under it)."""
        self._node(path[:-1]).children[path[-1]] = _OriginNode(written=True, written_by=origin)

    def forget(self, path: JsonPath) -> None:
        """Drop what is known about ``path`` and everything under it."""
        self._node(path[:-1]).children.pop(path[-1], None)

    def touch(self, path: JsonPath, origin: _File | None) -> None:
        """Record that ``origin`` merged keys into the mapping at ``path``."""
        node = self._node(path)
        node.touched, node.touched_by = True, origin

    def of(self, path: JsonPath) -> _File | None:
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


def _merge_chain(chain: list[_File]) -> tuple[dict[str, Any], _Origins]:
    """Merge the files of ``chain`` (base first) into one mapping, tracking origins."""
    base = chain[0]
    data = copy.deepcopy(base.data)
    data.pop("extends", None)
    origins = _Origins(base)
    for file in chain[1:]:
        overlay = {k: v for k, v in file.data.items() if k != "extends"}
        _merge_into(data, overlay, (), file, origins)
    return data, origins


def _merge_into(
    target: dict[str, Any],
    overlay: Mapping[str, Any],
    path: JsonPath,
    origin: _File | None,
    origins: _Origins,
) -> None:
    """Merge ``overlay`` into ``target``: mappings recursively, anything else replaced."""
    origins.touch(path, origin)
    for key, value in overlay.items():
        child = (*path, key)
        if value is None:
            target.pop(key, None)
            origins.forget(child)
        elif isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge_into(target[key], value, child, origin, origins)
        else:
            target[key] = copy.deepcopy(value)
            origins.write(child, origin)


def apply_overrides(data: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Return a copy of a variant's merged ``data`` with ``overrides`` merged over it.

    The overrides are merged as :func:`load_variant` merges them (mappings
    recursively, ``null`` deleting a key, here whether or not ``data`` has it);
    raise :class:`VariantError` for overrides that are not plain data.
    """
    merged = copy.deepcopy(dict(data))
    _merge_into(merged, _plain_overrides(overrides), (), None, _Origins(None))
    return merged


def _deleting_nothing(
    target: Mapping[str, Any], overlay: Mapping[str, Any], path: JsonPath
) -> list[str]:
    """Name each ``null`` of the overrides that deletes a key the variant does not have.

    Such a key is most likely misspelt; deleting nothing would also let two records
    of one game differ by a key that changes nothing.
    """
    problems: list[str] = []
    for key, value in overlay.items():
        child = (*path, key)
        if value is None and key not in target:
            problems.append(
                f"{_overrides_where(child)}: null deletes a key, but the variant has no "
                f"such key to delete"
            )
        elif isinstance(value, dict) and isinstance(target.get(key), dict):
            problems += _deleting_nothing(target[key], value, child)
    return problems


def _plain_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Copy ``overrides`` into plain JSON-like data, or raise VariantError."""
    problems: list[str] = []
    plain = _plain(overrides, (), problems)
    if isinstance(plain, dict) and "extends" in plain:
        problems.append(f"{OVERRIDES}: extends: overrides cannot change the parent variant")
    if problems:
        raise VariantError(problems)
    return plain if isinstance(plain, dict) else {}


def _plain(value: Any, path: JsonPath, problems: list[str]) -> Any:
    """Return ``value`` as dicts, lists and scalars, recording what cannot be converted."""
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if len(path) > MAX_DEPTH:
        problems.append(f"{_overrides_where(path)}: nested more than {MAX_DEPTH} levels deep")
        return None
    if isinstance(value, Mapping):
        result: dict[str, Any] = {}
        for key, item in value.items():
            if isinstance(key, str):
                result[key] = _plain(item, (*path, key), problems)
            else:
                problems.append(f"{_overrides_where(path)}: key {key!r} must be a string")
        return result
    if isinstance(value, list | tuple):
        return [_plain(item, (*path, index), problems) for index, item in enumerate(value)]
    problems.append(
        f"{_overrides_where(path)}: {type(value).__name__} values cannot be given; "
        "use mappings, lists, text, numbers, true/false or null"
    )
    return None


def _overrides_where(path: JsonPath) -> str:
    return f"{OVERRIDES}: {_dotted(path)}" if path else OVERRIDES


# --- locating problems ---------------------------------------------------------------------


class _Message(NamedTuple):
    """A problem with the key it sorts by: file (most derived first), line, column.

    ``where`` is ``FILE:LINE:COL`` (or ``<overrides>``).  ``render``, when given,
    writes the full text, which is costlier than ``text`` (a key suggestion
    searched through the whole schema): only the problems shown are rendered.
    """

    order: tuple[int, int, int]
    text: str
    where: str = ""
    render: Callable[[], str] | None = None


def _ordered(messages: Sequence[_Message]) -> list[str]:
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


def _dotted(path: JsonPath) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _file_message(
    file: _File, path: JsonPath, *, key: bool = False, later: Callable[[], str] | None = None
) -> Callable[[str], _Message]:
    """Return a function that writes a message about ``path`` in ``file``.

    With ``later``, the message shown is ``later()`` (called only if it is shown).
    """
    line, column = file.doc.key_location(path) if key else file.doc.location(path)
    where = f"{file.source.display}:{line}:{column}"
    prefix = f"{where}: " + (f"{_dotted(path)}: " if path else "")
    render = (lambda: prefix + later()) if later else None
    return lambda text: _Message((file.rank, line, column), prefix + text, where, render)


class _Locator:
    """Say where a path of the merged data was written: which file, line and column."""

    def __init__(self, origins: _Origins) -> None:
        self.origins = origins

    def origin(self, path: JsonPath) -> _File | None:
        """Return the file that set the value at ``path`` (None: the overrides)."""
        return self.origins.of(path)

    def message(
        self,
        path: JsonPath,
        text: str,
        *,
        key: bool = False,
        later: Callable[[], str] | None = None,
    ) -> _Message:
        """Write ``text`` about ``path`` at the place that set it.

        With ``later``, the message shown is written by ``later()`` instead, and
        only if it is shown (see :func:`_ordered`).
        """
        origin = self.origin(path)
        if origin is None:
            prefix = f"{_overrides_where(path)}: "
            render = (lambda: prefix + later()) if later else None
            return _Message((MAX_CHAIN + 1, 0, 0), prefix + text, OVERRIDES, render)
        return _file_message(origin, path, key=key, later=later)(text)

    def latest(self, paths: Sequence[JsonPath]) -> JsonPath:
        """Return the one of ``paths`` set by the most derived file (or the overrides)."""
        return min(paths, key=lambda p: self._rank(p))

    def _rank(self, path: JsonPath) -> int:
        origin = self.origin(path)
        return -1 if origin is None else origin.rank


# --- schema --------------------------------------------------------------------------------


def variant_schema() -> dict[str, Any]:
    """Return (a fresh copy of) the JSON Schema of variants, ``schemas/variant.schema.json``."""
    text = files("bezique.schemas").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator() -> Validator:
    """Return a Draft 2020-12 validator in which a whole float is not an integer.

    jsonschema is imported here, when a variant is first validated: listing the
    variants does not pay for it.
    """
    from jsonschema import Draft202012Validator
    from jsonschema.validators import extend

    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    strict = extend(Draft202012Validator, type_checker=checker)  # type: ignore[no-untyped-call]
    validator: Validator = strict(variant_schema())
    return validator


def _schema_problems(data: dict[str, Any], locator: _Locator) -> list[_Message]:
    """Validate ``data`` against the schema and explain each error where it was written."""
    return [
        message for error in _validator().iter_errors(data) for message in _explain(error, locator)
    ]


def _explain(error: ValidationError, locator: _Locator) -> list[_Message]:
    """Turn one schema error into messages at the right places."""
    path = tuple(error.absolute_path)
    if "propertyNames" in error.relative_schema_path:
        key = str(error.instance)
        return [locator.message((*path, key), _bad_key_text(key, error), key=True)]
    if error.validator == "additionalProperties":
        schema = _schema(error)
        return [
            locator.message(
                (*path, key),
                f"unknown key {key!r}",
                key=True,
                later=functools.partial(_unknown_key_text, key, schema),
            )
            for key in _extra_keys(error.instance, schema)
        ]
    return [locator.message(path, _error_text(error))]


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


def _unknown_key_text(key: str, schema: Mapping[str, Any]) -> str:
    """Say that ``key`` is unknown here, with the nearest key of the schema and those allowed."""
    allowed = sorted(schema.get("properties", {}))
    close = _nearest_key(key, allowed)
    hint = f"did you mean {close!r}? " if close else ""
    return f"unknown key {key!r}; {hint}the keys allowed here are: {', '.join(allowed)}"


def _nearest_key(key: str, allowed: Sequence[str], cutoff: float = 0.6) -> str | None:
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
    candidates += [(_dotted((*place, name)), len(place)) for name, place in _schema_keys()]
    for shown, rank in candidates:
        matcher.set_seq1(shown.rsplit(".", 1)[-1])
        if matcher.real_quick_ratio() < cutoff or matcher.quick_ratio() < cutoff:
            continue
        score = matcher.ratio()
        if score >= cutoff and (best is None or (score, -rank) > best[:2]):
            best = (score, -rank, shown)
    return best[2] if best else None


@functools.cache
def _schema_keys() -> tuple[tuple[str, JsonPath], ...]:
    """Every key at a fixed place of the variant schema: ``(name, path of its mapping)``.

    ``$ref`` to ``#/$defs/...`` is followed (once on each path); the keys of
    user-named entries (``patternProperties``, ``additionalProperties``) and of
    list items are left out, as they have no one dotted path.
    """
    schema = variant_schema()
    found: dict[tuple[str, JsonPath], None] = {}

    def walk(node: Any, place: JsonPath, refs: frozenset[str]) -> None:
        if not isinstance(node, dict) or len(place) > MAX_DEPTH:
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and ref not in refs:
            walk(schema.get("$defs", {}).get(ref[len("#/$defs/") :]), place, refs | {ref})
        for name, sub in node.get("properties", {}).items():
            found.setdefault((name, place), None)
            walk(sub, (*place, name), refs)
        for word in ("oneOf", "anyOf", "allOf"):
            for sub in node.get(word, []):
                walk(sub, place, refs)
        for sub in node.get("dependentSchemas", {}).values():
            walk(sub, place, refs)

    walk(schema, (), frozenset())
    return tuple(found)


def _bad_key_text(key: str, error: ValidationError) -> str:
    description = _schema(error).get("description", "")
    expected = description[:1].lower() + description[1:] if description else error.message
    return f"the name {key!r} is not allowed here; expected {expected}"


_TEXTS: dict[str, Callable[[ValidationError], str]] = {
    "required": lambda e: _required_text(e),
    "enum": lambda e: _enum_text(e.instance, list(_rule(e))),
    "const": lambda e: f"must be {_rule(e)!r}",
    "type": lambda e: f"must be {_type_words(_rule(e))}, not {_kind(e.instance)}",
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
    return f"{_shorten(value)} is not allowed; use one of: {', '.join(words)}{hint}"


def _pattern_text(error: ValidationError) -> str:
    description = _schema(error).get("description", "")
    expected = description or f"text matching {_rule(error)}"
    return f"{_shorten(error.instance)} is not of the right form; expected: {expected}"


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


def _kind(value: Any) -> str:
    """Describe a value for a message: ``text 'abc'``, ``the number 1.5``, ``a list``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the yes/no value {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {_shorten(value)}"
    return "a list" if isinstance(value, list) else "a mapping"


def _shorten(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _repeated(items: Any) -> list[str]:
    seen: list[Any] = []
    repeated: list[str] = []
    for item in items if isinstance(items, list) else []:
        if item in seen and repr(item) not in repeated:
            repeated.append(repr(item))
        seen.append(item)
    return repeated


# --- sense checks --------------------------------------------------------------------------


def _sense_problems(data: dict[str, Any], locator: _Locator) -> list[_Message]:
    """Run every check the schema cannot express; each skips ill-typed data."""
    checks = (
        _check_packets,
        _check_pack_size,
        _check_ranks_named,
        _check_bezique_cards,
        _check_combination_sizes,
        _check_some_rule_scores,
        _check_plugins,
        _check_sides,
        _check_duels,
    )
    return [message for check in checks for message in check(data, locator)]


def _section(data: Any, *keys: str) -> dict[str, Any]:
    """Return the mapping at ``keys`` (an empty one if it is missing or not a mapping)."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _count(value: Any) -> int | None:
    """Return ``value`` if it is a whole number (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _letters(value: Any, form: re.Pattern[str]) -> list[str]:
    """Return the items of a list that have the right form (ill-formed ones are the schema's)."""
    return (
        [v for v in value if isinstance(v, str) and form.fullmatch(v)]
        if isinstance(value, list)
        else []
    )


def _check_packets(data: dict[str, Any], locator: _Locator) -> Iterator[_Message]:
    deal = _section(data, "deal")
    packets, hand = deal.get("packets"), _count(deal.get("hand_size"))
    if hand is None or not isinstance(packets, list) or None in map(_count, packets):
        return
    if sum(packets) != hand:
        where = locator.latest([("deal", "packets"), ("deal", "hand_size")])
        yield locator.message(
            where,
            f"the packets {packets} deal {sum(packets)} cards but deal.hand_size is {hand}; "
            f"make the packets add up to {hand}, or change hand_size",
        )


def _check_pack_size(data: dict[str, Any], locator: _Locator) -> Iterator[_Message]:
    """The pack holds the hands and a card more, and what is left goes round the players.

    After every trick each player draws one card, the turn-up last of all, so the
    cards left after the deal must be a multiple of the players.
    """
    cards = _section(data, "cards")
    players, hand = _count(data.get("players")), _count(_section(data, "deal").get("hand_size"))
    packs = _count(cards.get("packs"))
    ranks, suits = cards.get("ranks"), cards.get("suits")
    if None in (players, hand, packs) or not isinstance(ranks, list) or not isinstance(suits, list):
        return
    assert players is not None and hand is not None and packs is not None
    have, need = packs * len(ranks) * len(suits), players * hand + 1
    where = locator.latest(
        [
            ("deal", "hand_size"),
            ("players",),
            ("cards", "packs"),
            ("cards", "ranks"),
            ("cards", "suits"),
        ]
    )
    if need > have:
        yield locator.message(
            where,
            f"{players} hands of {hand} cards and one card left over need {need} cards, but the "
            f"pack holds {have} ({packs} x {len(ranks)} ranks x {len(suits)} suits); "
            "deal fewer cards or shuffle in more packs",
        )
    elif (have - players * hand) % players:
        left = have - players * hand
        turn_up = (
            " (the turn-up included)" if _section(data, "trumps").get("mode") == "turn_up" else ""
        )
        yield locator.message(
            where,
            f"{players} hands of {hand} card{'s' * (hand != 1)} leave {left} of the {have} "
            f"cards to draw{turn_up}, which do not go round {players} players one card each a "
            f"trick; make the cards left a multiple of {players} (deal.hand_size, cards.packs, "
            "players)",
        )


def _named_ranks(data: dict[str, Any]) -> Iterator[tuple[JsonPath, Any]]:
    """Yield the path and value of every rank named outside ``cards.ranks``."""
    for name, combo in _section(data, "declarations", "combinations").items():
        base: JsonPath = ("declarations", "combinations", name)
        if not isinstance(combo, dict):
            continue
        if "rank" in combo:
            yield (*base, "rank"), combo["rank"]
        if isinstance(combo.get("ranks"), list):
            yield from (((*base, "ranks", i), r) for i, r in enumerate(combo["ranks"]))
    for section, key in (
        ("brisques", "ranks"),
        ("carte_blanche", "ranks"),
        ("open_cards", "ranks"),
        ("open_cards", "trump_ranks"),
    ):
        listed = _section(data, section).get(key)
        if isinstance(listed, list):
            yield from (((section, key, i), r) for i, r in enumerate(listed))
    seven = _section(data, "seven_of_trumps")
    if "rank" in seven:
        yield ("seven_of_trumps", "rank"), seven["rank"]


def _check_ranks_named(data: dict[str, Any], locator: _Locator) -> Iterator[_Message]:
    ranks = _letters(_section(data, "cards").get("ranks"), _RANK_FORM)
    if not ranks:
        return
    for path, rank in _named_ranks(data):
        if isinstance(rank, str) and _RANK_FORM.fullmatch(rank) and rank not in ranks:
            yield locator.message(
                path, f"rank {rank!r} is not in cards.ranks; use one of: {' '.join(ranks)}"
            )


def _check_bezique_cards(data: dict[str, Any], locator: _Locator) -> Iterator[_Message]:
    cards = _section(data, "cards")
    ranks = _letters(cards.get("ranks"), _RANK_FORM)
    suits = _letters(cards.get("suits"), _SUIT_FORM)
    if not ranks or not suits or "bezique_cards" not in _section(data, "declarations"):
        return
    table = _section(data, "declarations", "bezique_cards")
    for suit, pair in table.items():
        yield from _check_bezique_suit(suit, suits, locator)
        for index, card in enumerate(pair if isinstance(pair, list) else []):
            yield from _check_card((*_BEZIQUE_CARDS, suit, index), card, ranks, suits, locator)
        if isinstance(pair, list) and len(pair) == 2 and pair[0] == pair[1]:
            yield locator.message(
                (*_BEZIQUE_CARDS, suit, 1),
                "the bezique is two different cards (a queen and a knave in S0); "
                f"{pair[0]!r} is named twice",
            )
    for suit in suits:
        if suit not in table:
            yield locator.message(
                _BEZIQUE_CARDS,
                f"trump suit {suit!r} has no entry; add one, such as {suit}: [QS, JD]",
            )


_BEZIQUE_CARDS: JsonPath = ("declarations", "bezique_cards")


def _check_bezique_suit(suit: str, suits: list[str], locator: _Locator) -> Iterator[_Message]:
    if _SUIT_FORM.fullmatch(suit) and suit not in suits:
        yield locator.message(
            (*_BEZIQUE_CARDS, suit),
            f"{suit!r} is not a suit of cards.suits; use one of: {' '.join(suits)}",
            key=True,
        )


def _check_card(
    path: JsonPath, card: Any, ranks: list[str], suits: list[str], locator: _Locator
) -> Iterator[_Message]:
    if not isinstance(card, str) or not _CARD_FORM.fullmatch(card):
        return
    if card[0] not in ranks or card[1] not in suits:
        yield locator.message(
            path,
            f"{card!r} is not a card of this pack; write a rank of {' '.join(ranks)} "
            f"then a suit of {' '.join(suits)}, as in QS",
        )


def _check_combination_sizes(data: dict[str, Any], locator: _Locator) -> Iterator[_Message]:
    cards = _section(data, "cards")
    packs, suits = _count(cards.get("packs")), cards.get("suits")
    if packs is None or not isinstance(suits, list):
        return
    for name, combo in _section(data, "declarations", "combinations").items():
        if not isinstance(combo, dict):
            continue
        base: JsonPath = ("declarations", "combinations", name)
        count, beziques = _count(combo.get("count")), _count(combo.get("beziques"))
        most = len(suits) if combo.get("distinct_suits") is True else packs * len(suits)
        if count is not None and "rank" in combo and count > most:
            yield locator.message(
                locator.latest([(*base, "count"), ("cards", "packs"), ("cards", "suits")]),
                f"combination {name!r} needs {count} cards of one rank, but at most {most} "
                f"can be held; lower its count to {most} or less",
            )
        if beziques is not None and beziques > packs:
            yield locator.message(
                locator.latest([(*base, "beziques"), ("cards", "packs")]),
                f"combination {name!r} needs {beziques} bezique pairs, but {packs} pack(s) "
                f"hold at most {packs}; lower it or shuffle in more packs",
            )


def _check_some_rule_scores(data: dict[str, Any], locator: _Locator) -> Iterator[_Message]:
    """Some rule scores points: otherwise no game could reach its target and end."""
    combinations = _section(data, "declarations", "combinations")
    paths: list[JsonPath] = []
    if _section(data, "brisques").get("ranks"):
        paths.append(("brisques", "points"))
    paths.append(("last_trick", "points"))
    if _section(data, "trumps").get("mode") != "first_marriage":  # then no seven scores
        sevens = ("turn_up_points", "declare_points", "exchange_points")
        paths += [("seven_of_trumps", key) for key in sevens]
    hand = _count(_section(data, "deal").get("hand_size")) or 0
    paths += [
        ("declarations", "combinations", name, "points")
        for name, row in combinations.items()
        if _combination_size(row) <= hand  # declared cards stay in the hand
    ]
    if _section(data, "carte_blanche").get("enabled") is True:
        paths.append(("carte_blanche", "points"))
    values = [_count(_value(data, path)) for path in paths]
    if None in values or any(values):
        return  # something scores (or the schema will say what is wrong)
    yield locator.message(
        locator.latest(paths),
        "no rule of this variant scores a point (combinations that fit in a hand, brisques, "
        "last trick, seven of trumps, carte blanche), so no one can reach game.target "
        f"{_section(data, 'game').get('target')}; give one of them points",
    )


def _combination_size(row: Any) -> int:
    """How many cards a row of the combination table takes (0 if it cannot be told)."""
    if not isinstance(row, dict):
        return 0
    ranks, count, beziques = row.get("ranks"), _count(row.get("count")), _count(row.get("beziques"))
    if isinstance(ranks, list):
        return len(ranks)
    return count if count is not None else 2 * beziques if beziques is not None else 0


def _value(data: Any, path: JsonPath) -> Any:
    """The value at ``path`` in ``data``, or None."""
    for part in path:
        data = data.get(part) if isinstance(data, dict) else None
    return data


def _check_plugins(data: dict[str, Any], locator: _Locator) -> Iterator[_Message]:
    names = data.get("plugins")
    if not isinstance(names, list):
        return
    usable = []
    for index, name in enumerate(names):
        problem = registry.plugin_problem(name) if isinstance(name, str) and name else None
        if problem is not None:
            yield locator.message(("plugins", index), problem)
        elif isinstance(name, str) and name:
            usable.append(name)
    if len(usable) == len(names) == len(set(usable)):
        yield from _check_plugin_needs(usable, locator)


def _check_plugin_needs(names: list[str], locator: _Locator) -> Iterator[_Message]:
    """What the plugins declare of each other: those they build on, the hooks they keep.

    A plugin's ``bezique_requires`` names plugins to list before it; its
    ``bezique_exclusive_hooks`` names hooks that no other plugin listed may answer,
    except those it builds on.
    """
    try:
        manager = registry.checking_manager(registry.game_plugins(names))
        requires = _plugin_answers(manager.hook.bezique_requires)
        exclusive = _plugin_answers(manager.hook.bezique_exclusive_hooks)
    except Exception as exc:  # an outside plugin failed to answer: say so, at the list
        yield locator.message(("plugins",), f"cannot ask the plugins what they need: {exc}")
        return
    for index, name in enumerate(names):
        for need in requires.get(name, ()):
            if need in names[:index]:
                continue
            order = [n for n in names if n != need]
            order.insert(order.index(name), need)
            yield locator.message(
                ("plugins", index),
                f"plugin {name!r} builds on plugin {need!r}, which must be listed before it; "
                f"write plugins: [{', '.join(order)}]",
            )
    answering = {
        hook: {impl.plugin_name for impl in getattr(manager.hook, hook).get_hookimpls()}
        for hook in {hook for hooks in exclusive.values() for hook in hooks}
        if hasattr(manager.hook, hook)
    }
    for index, second in enumerate(names):
        for first in names[:index]:
            for owner, other in ((first, second), (second, first)):
                if other in requires.get(owner, ()):
                    continue
                hooks = [h for h in exclusive.get(owner, ()) if other in answering.get(h, ())]
                if hooks:
                    yield locator.message(
                        ("plugins", index),
                        f"plugins {first!r} and {second!r} cannot be played together: "
                        f"{owner!r} answers {', '.join(hooks)} alone (beside the plugins it "
                        f"builds on), and {other!r} answers {'them' if len(hooks) > 1 else 'it'} "
                        "too; list only one of them",
                    )
                    break


def _plugin_problems(data: dict[str, Any], locator: _Locator) -> list[_Message]:
    """Ask every plugin of the variant (those that join its plugins too) what it cannot play."""
    try:
        manager = registry.checking_manager(registry.game_plugins(data["plugins"]))
        answers = manager.hook.bezique_variant_problems(data=copy.deepcopy(data))
    except Exception as exc:  # an outside plugin's check failed: say so, at the list
        return [locator.message(("plugins",), f"cannot ask the plugins to check it: {exc}")]
    messages: list[_Message] = []
    for answer in answers:
        for where, text in answer or ():
            paths = where if isinstance(where, list) else [where]
            known = [_known_part(data, tuple(path)) for path in paths] or [()]
            messages.append(locator.message(locator.latest(known), str(text)))
    return messages


def _known_part(data: Any, path: JsonPath) -> JsonPath:
    """The longest start of ``path`` that names a value in ``data`` (a plugin may name more)."""
    for index, part in enumerate(path):
        in_mapping = isinstance(data, dict) and isinstance(part, str) and part in data
        in_list = isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)
        if not (in_mapping or in_list):
            return path[:index]
        data = data[part]
    return path


def _plugin_answers(caller: Any) -> dict[str, list[str]]:
    """Ask each plugin's implementation of a hook that takes no argument: names by plugin."""
    answers: dict[str, list[str]] = {}
    for impl in caller.get_hookimpls():
        answer = impl.function()
        answers[impl.plugin_name] = [answer] if isinstance(answer, str) else list(answer or ())
    return answers


def _check_sides(data: dict[str, Any], locator: _Locator) -> Iterator[_Message]:
    sides, players = _section(data, "partnerships").get("sides"), _count(data.get("players"))
    if not isinstance(sides, list) or players is None:
        return
    seats = [s for side in sides if isinstance(side, list) for s in side if _count(s) is not None]
    if sorted(seats) != list(range(players)):
        yield locator.message(
            locator.latest([("partnerships", "sides"), ("players",)]),
            f"the partnerships {sides} must hold every seat from 0 to {players - 1} exactly once",
        )


def _check_duels(data: dict[str, Any], locator: _Locator) -> Iterator[_Message]:
    if _section(data, "endgame").get("mode") == "duels" and data.get("players") != 4:
        yield locator.message(
            locator.latest([("endgame", "mode"), ("players",)]),
            "endgame.mode duels is S0's four-hand end-game and needs players: 4",
        )


def _fill_defaults(data: dict[str, Any]) -> None:
    """Write the schema's defaults into same-rank combinations (suit any, any suits)."""
    for combo in data["declarations"]["combinations"].values():
        if "rank" in combo:
            combo.setdefault("suit", "any")
            combo.setdefault("distinct_suits", False)

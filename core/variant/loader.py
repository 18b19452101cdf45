"""Reading a variant: its file, the ``extends:`` chain, and the merge of files and overrides.

A variant is named by a registered name (``ordinary``, see
:func:`bezique.variant.registry.variant_files`), by ``builtin/NAME.yaml`` (the origin of a
registered variant), or by the path of a ``.yaml`` file.  A file may say
``extends: PARENT`` (a registered name, or the file name of a ``.yaml`` file in the
same folder): mappings merge key by key, lists are replaced, and ``null`` deletes an
inherited key.  Overrides merge on top the same way.  Nothing here validates the
merged data: see :mod:`bezique.variant.explain` and :mod:`bezique.variant.checks`.
"""

from __future__ import annotations

import copy
import difflib
import functools
import hashlib
import io
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from bezique.errors import VariantError
from bezique.reading.safeio import read_regular
from bezique.reading.yamlsafe import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_NODES,
    JsonPath,
    YamlDocument,
    parse_yaml_bytes,
)
from bezique.variant import registry
from bezique.variant.locate import (
    MAX_CHAIN,
    OVERRIDES,
    File,
    Message,
    Origins,
    Source,
    file_message,
    kind,
    ordered,
    overrides_where,
)

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10: the same protocol, before it moved to importlib.resources.abc
    from importlib.abc import Traversable

BUILTIN_PREFIX = "builtin/"
"""How the origin of a registered variant starts: ``builtin/ordinary.yaml``."""

MAX_CHAIN_VALUES = 20_000
"""The most values all the files of one ``extends:`` chain may hold together.

Each file may hold :data:`~bezique.reading.yamlsafe.MAX_NODES`; this bounds the time
and memory a whole chain takes (the ordinary variant holds about 300)."""

NAME_FORM = re.compile(r"[a-z][a-z0-9_-]*")
"""A variant's name: lower-case letters, digits, '-' and '_', starting with a letter."""


# --- finding and reading files -------------------------------------------------------------


def catalogue() -> dict[str, Traversable]:
    """Return the registered variants (a broken plugin's are missing; see registry)."""
    return registry.variant_files()


def unknown_variant(name: str, elsewhere: str) -> str:
    """Say that no variant is registered as ``name``, naming the nearest one if any is near.

    ``elsewhere`` says what else could have been given (a ``.yaml`` file); without a
    near name, the message tells how to list the variants.  A plugin that could not be
    loaded is named, as the variants it offers are missing.
    """
    close = difflib.get_close_matches(name, list(catalogue()), n=1)
    if close:
        hint = f"did you mean {close[0]!r}?"
    else:
        hint = f"`bezique variants` lists them ({elsewhere})"
    return f"no variant named {name!r}; {hint}{registry.missing_note()}"


def resolve_spec(spec: str | os.PathLike[str]) -> Source:
    """Return the source that ``spec`` names, or raise VariantError."""
    if isinstance(spec, str) and spec.startswith(BUILTIN_PREFIX) and spec.endswith(".yaml"):
        return _registered_source(spec[len(BUILTIN_PREFIX) : -len(".yaml")])
    if isinstance(spec, str) and not spec.endswith(".yaml") and not re.search(r"[/\\]", spec):
        return _registered_source(spec)
    path = Path(spec)
    if path.suffix != ".yaml":
        raise VariantError(f"{spec}: a variant file's name must end in .yaml")
    return _file_source(path)


def _registered_source(name: str) -> Source:
    found = catalogue()
    if name not in found:
        raise VariantError(unknown_variant(name, "or give the path of a .yaml file"))
    resource = found[name]
    identity = str(resource.resolve()) if isinstance(resource, Path) else BUILTIN_PREFIX + name
    return Source(f"{BUILTIN_PREFIX}{name}.yaml", identity, resource, None)


def _file_source(path: Path) -> Source:
    return Source(os.fspath(path), os.path.abspath(path), path, path.parent)


class TextResource(Traversable):
    """A variant file's text held in memory (pasted into a page): read, never written.

    It stands where a file would: its name is what messages call it, it has no
    folder (so ``extends:`` names only registered variants), and reading it gives
    its bytes.
    """

    def __init__(self, name: str, raw: bytes) -> None:
        """The text ``raw`` (its UTF-8 bytes), called ``name``."""
        self._name = name
        self._raw = raw

    @property
    def name(self) -> str:
        """What messages call the text (``house.yaml``)."""
        return self._name

    def open(self, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        """The bytes (mode ``rb``) or the text as a stream."""
        if "b" in mode:
            return io.BytesIO(self._raw)
        return io.StringIO(self._raw.decode("utf-8", errors="replace"))

    def read_bytes(self) -> bytes:
        """The bytes."""
        return self._raw

    def read_text(self, encoding: str | None = None) -> str:
        """The text."""
        return self._raw.decode(encoding or "utf-8", errors="replace")

    def iterdir(self) -> Iterator[Traversable]:
        """Nothing: a text is no folder."""
        return iter(())

    def is_dir(self) -> bool:
        """False: a text is no folder."""
        return False

    def is_file(self) -> bool:
        """True: a text reads as a file does."""
        return True

    def joinpath(self, *descendants: Any) -> Traversable:
        """Refused: a text holds no other file."""
        raise VariantError(f"{self._name}: a text holds no other file")

    def __truediv__(self, child: Any) -> Traversable:
        """Refused: a text holds no other file."""
        return self.joinpath(child)


def text_source(text: str, display: str) -> Source:
    """A variant file's text given in memory, called ``display`` in every message.

    The text is cut at one byte beyond the reader's limit, as a file would be read.
    """
    raw = text.encode("utf-8", errors="replace")[: MAX_BYTES + 1]
    identity = "text:" + hashlib.sha256(raw).hexdigest()
    return Source(display, identity, TextResource(display, raw), None)


def _read(source: Source, budget: int = MAX_NODES) -> YamlDocument:
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

    Only documents read whole are kept (an exception is never cached), with the
    problems found in them (YAML 1.1 surprises, duplicate keys...), and the
    documents are never changed: merging copies what it takes from them.
    """
    return parse_yaml_bytes(
        raw, display, max_nodes=max_nodes, too_many=too_many, keep_problems=True
    )


# --- the extends chain ---------------------------------------------------------------------


def load_chain(top: Source) -> tuple[list[File], list[Message]]:
    """Read ``top`` and its ancestors; return them base first, with non-fatal problems.

    The problems are each file's own: what its YAML reading refused (a value
    YAML 1.1 reads otherwise, a duplicate key...) and a missing or malformed name.
    Raise VariantError (with everything found so far) when the chain cannot be built.
    """
    chain: list[File] = []
    problems: list[Message] = []
    source: Source | None = top
    read = 0  # values read so far, against MAX_CHAIN_VALUES
    while source is not None:
        try:
            file = File(source, _read(source, MAX_CHAIN_VALUES - read), len(chain))
            read += file.doc.size
            chain.append(file)
            problems += yaml_problems(file)
            if not isinstance(file.doc.data, dict):
                raise VariantError(file_message(file, ())(_not_a_mapping(file.doc.data)).text)
            problems += _name_problems(file)
            source = _parent_source(file, chain)
        except VariantError as exc:
            raise VariantError([*ordered(past_refused(chain, problems)), *exc.problems]) from None
    chain.reverse()
    return chain, problems


def yaml_problems(file: File) -> list[Message]:
    """What the YAML reading of ``file`` refused, each at its place."""
    found = []
    for line, column, text in file.doc.problems:
        where = f"{file.source.display}:{line}:{column}"
        found.append(Message((file.rank, line, column), f"{where}: {text}", where))
    return found


def past_refused(chain: list[File], messages: list[Message]) -> list[Message]:
    """Leave out what ``messages`` say of the values the YAML reading refused.

    Such a value was read as a stand-in (:attr:`~bezique.reading.yamlsafe.YamlDocument.refused`)
    so that the rest of its file could be checked: the YAML problem at its place says
    what is wrong with it, and anything else said there would be about the stand-in.
    """
    refused = {
        f"{file.source.display}:{line}:{column}"
        for file in chain
        for line, column in file.doc.refused
    }
    if not refused:
        return list(messages)
    own = {message.text for file in chain for message in yaml_problems(file)}
    return [m for m in messages if m.where not in refused or m.text in own]


def _name_problems(file: File) -> list[Message]:
    """Check that a file has its own ``name`` (the schema checks the merged one)."""
    where = file_message(file, ())
    name = file.data.get("name")
    if "name" not in file.data and ("extends" in file.data or file.rank > 0):
        stem = Path(file.source.display).stem
        return [where("has no 'name'; every variant file needs its own, such as name: " + stem)]
    if (
        file.rank > 0
        and "name" in file.data
        and not (isinstance(name, str) and NAME_FORM.fullmatch(name))
    ):
        return [
            file_message(file, ("name",))(
                f"{name!r} is not a variant name; use lower-case letters, digits, '-' and '_'"
            )
        ]
    return []


def _parent_source(file: File, chain: list[File]) -> Source | None:
    """Return the source ``file`` extends (None if it extends nothing), or raise."""
    if "extends" not in file.data:
        return None
    fail = file_message(file, ("extends",))
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


def _sibling_or_registered(file: File, value: str, fail: Callable[[str], Message]) -> Source:
    """Find the parent ``value``: a sibling ``.yaml`` file, else a registered variant."""
    folder = file.source.folder
    if value.endswith(".yaml") and folder is not None:
        if not (folder / value).is_file():
            raise VariantError(fail(f"there is no file {value!r} in {os.fspath(folder)!r}").text)
        return _file_source(folder / value)
    name = value.removesuffix(".yaml")
    if name not in catalogue():
        raise VariantError(
            fail(
                unknown_variant(
                    name, "or name a .yaml file in the same folder, such as 'base.yaml'"
                )
            ).text
        )
    return _registered_source(name)


def _not_a_mapping(data: Any) -> str:
    if data is None:
        return "the file is empty; a variant file holds keys such as name:, summary: and extends:"
    return f"a variant file must be a mapping of keys (name:, summary:, ...), not {kind(data)}"


# --- merging -------------------------------------------------------------------------------


def merge_chain(chain: list[File]) -> tuple[dict[str, Any], Origins]:
    """Merge the files of ``chain`` (base first) into one mapping, tracking origins."""
    base = chain[0]
    data = copy.deepcopy(base.data)
    data.pop("extends", None)
    origins = Origins(base)
    for file in chain[1:]:
        overlay = {k: v for k, v in file.data.items() if k != "extends"}
        merge_into(data, overlay, (), file, origins)
    return data, origins


def merge_into(
    target: dict[str, Any],
    overlay: Mapping[str, Any],
    path: JsonPath,
    origin: File | None,
    origins: Origins,
) -> None:
    """Merge ``overlay`` into ``target``: mappings recursively, anything else replaced."""
    origins.touch(path, origin)
    for key, value in overlay.items():
        child = (*path, key)
        if value is None:
            target.pop(key, None)
            origins.forget(child)
        elif isinstance(value, dict) and isinstance(target.get(key), dict):
            merge_into(target[key], value, child, origin, origins)
        else:
            target[key] = copy.deepcopy(value)
            origins.write(child, origin)


def apply_overrides(data: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Return a copy of a variant's merged ``data`` with ``overrides`` merged over it.

    The overrides are merged as :func:`~bezique.variant.load_variant` merges them
    (mappings recursively, ``null`` deleting a key, here whether or not ``data`` has
    it); raise :class:`VariantError` for overrides that are not plain data.
    """
    merged = copy.deepcopy(dict(data))
    merge_into(merged, plain_overrides(overrides), (), None, Origins(None))
    return merged


def overrides_between(base: Mapping[str, Any], merged: Mapping[str, Any]) -> dict[str, Any]:
    """Return the overrides that turn a variant's data ``base`` into ``merged``.

    The inverse of :func:`apply_overrides`: ``apply_overrides(base, overrides_between(base,
    merged))`` is ``merged``.  Mappings are compared key by key, anything else as a whole
    (``true`` is not ``1``); a key ``merged`` lacks is deleted with ``null``.
    """
    found: dict[str, Any] = {}
    for key, value in merged.items():
        old = base.get(key, _ABSENT)
        if isinstance(value, Mapping) and isinstance(old, Mapping):
            inner = overrides_between(old, value)
            if inner:
                found[key] = inner
        elif old is _ABSENT or not _same_value(old, value):
            found[key] = copy.deepcopy(value)
    for key in base:
        if key not in merged:
            found[key] = None
    return found


_ABSENT = object()


def _same_value(one: Any, other: Any) -> bool:
    """Whether two plain values are equal, types included (``1``, ``1.0`` and ``true`` differ)."""
    if type(one) is not type(other):
        return False
    if isinstance(one, Mapping):
        return one.keys() == other.keys() and all(_same_value(one[k], other[k]) for k in one)
    if isinstance(one, list):
        return len(one) == len(other) and all(map(_same_value, one, other))
    return bool(one == other)


def deleting_nothing(
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
                f"{overrides_where(child)}: null deletes a key, but the variant has no "
                f"such key to delete"
            )
        elif isinstance(value, dict) and isinstance(target.get(key), dict):
            problems += deleting_nothing(target[key], value, child)
    return problems


def plain_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Copy ``overrides`` into plain JSON-like data, or raise VariantError."""
    problems: list[str] = []
    plain = plain_data(overrides, (), problems)
    if isinstance(plain, dict) and "extends" in plain:
        problems.append(f"{OVERRIDES}: extends: overrides cannot change the parent variant")
    if problems:
        raise VariantError(problems)
    return plain if isinstance(plain, dict) else {}


def plain_data(value: Any, path: JsonPath, problems: list[str]) -> Any:
    """Return ``value`` as dicts, lists and scalars, recording what cannot be converted."""
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if len(path) > MAX_DEPTH:
        problems.append(f"{overrides_where(path)}: nested more than {MAX_DEPTH} levels deep")
        return None
    if isinstance(value, Mapping):
        result: dict[str, Any] = {}
        for key, item in value.items():
            if isinstance(key, str):
                result[key] = plain_data(item, (*path, key), problems)
            else:
                problems.append(f"{overrides_where(path)}: key {key!r} must be a string")
        return result
    if isinstance(value, list | tuple):
        return [plain_data(item, (*path, index), problems) for index, item in enumerate(value)]
    problems.append(
        f"{overrides_where(path)}: {type(value).__name__} values cannot be given; "
        "use mappings, lists, text, numbers, true/false or null"
    )
    return None


def values_beyond(data: Any, limit: int) -> bool:
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

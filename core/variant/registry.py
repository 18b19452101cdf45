"""Where plugins and variant files are found.

Built-in plugins and outside plugins are found alike, through the entry-point
group ``bezique`` (``[project.entry-points.bezique] myrules = "mypkg.rules"``;
the framework's own pyproject.toml registers its built-ins so), and go through
the same checks.  A built-in is an entry point of the ``bezique`` distribution
itself: another distribution cannot take its name.  Setting
``BEZIQUE_BLOCK_PLUGINS=name,name`` hides installed plugins by name (a blocked
plugin is not even imported).  A variant names plugins by their registered
name, never by import path.

Plugins are discovered once per process (and again if the blocked names
change): each is imported, checked against the hook specifications (every
``bezique_*`` hook it implements exists, and takes only arguments the hook
offers) and asked for the variant files it ships.  A plugin that fails any of
this, or whose name two distributions register, is *broken*: it is kept aside
with a one-line description of its problem (:func:`plugin_problem`), the
variants that name it report that problem at their ``plugins:`` line, and
everything else works as if it were not installed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from importlib.metadata import EntryPoint, entry_points
from importlib.resources import files
from pathlib import Path
from traceback import walk_tb
from types import ModuleType

import pluggy

from bezique import hookspecs
from bezique.errors import PluginError
from bezique.variant.plugincheck import BLOCK_ENV as BLOCK_ENV
from bezique.variant.plugincheck import PluginEntry, check_plugin, said

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10: the same protocol, before it moved to importlib.resources.abc
    from importlib.abc import Traversable

ENTRY_POINT_GROUP = "bezique"
BUILTIN_DISTRIBUTION = "bezique"
"""The distribution whose entry points are the built-in plugins."""
MISSING_BUILTINS = (
    "the built-in plugins are not registered: the bezique distribution's entry points "
    "are not installed (install the project, e.g. pip install -e .)"
)
"""The note when no entry point of the framework itself is found (a source tree on the path)."""


@dataclass
class _Discovery:
    """What one discovery found: plugins by name, set-aside notes, the variant catalogue."""

    blocked: frozenset[str]
    entries: dict[str, PluginEntry]
    notes: list[str]
    catalogue: dict[str, Traversable]
    checkers: dict[tuple[str, ...], pluggy.PluginManager] = field(default_factory=dict)
    """Plugin managers that answer the variant checks, by plugin list (see checking_manager)."""


_added: dict[str, PluginEntry] = {}
"""Plugins given to :func:`register_plugin` (they survive a new discovery)."""
_discovery: _Discovery | None = None


def register_plugin(name: str, plugin: object) -> None:
    """Make ``plugin`` (a module or object with hook implementations) known as ``name``.

    Raise :class:`PluginError` if the name is taken by another plugin or the plugin
    does not fit the hook specifications.
    """
    global _discovery
    known = _state().entries.get(name)
    if known is not None and known.plugin is not plugin:
        raise PluginError(f"two different plugins are registered as {name!r}")
    entry = check_plugin(name, "registered by register_plugin", lambda: plugin)
    if entry.problem:
        raise PluginError(f"plugin {name!r} ({entry.origin}) cannot be used: {entry.problem}")
    _added[name] = entry
    _discovery = None


def _blocked() -> frozenset[str]:
    return frozenset(n.strip() for n in os.environ.get(BLOCK_ENV, "").split(",") if n.strip())


def _state() -> _Discovery:
    """Return the discovery for the blocked names now set, discovering again if they changed."""
    global _discovery
    blocked = _blocked()
    if _discovery is None or _discovery.blocked != blocked:
        _discovery = _discover(blocked)
    return _discovery


def _discover(blocked: frozenset[str]) -> _Discovery:
    """Import and check every plugin not blocked; build the catalogue of variant files."""
    entries: dict[str, PluginEntry] = {}
    notes: list[str] = []
    _DISTRIBUTIONS.clear()
    found = _entry_points(blocked)
    builtins = {name for name, points in found.items() if any(map(_is_builtin, points))}
    if not builtins:
        notes.append(MISSING_BUILTINS)
    for name, points in found.items():
        if name in builtins:
            builtin = next(filter(_is_builtin, points))
            entries[name] = _from(builtin, check_plugin(name, "", builtin.load))
            notes.extend(
                f"plugin {name!r} of {_origin(point)} is not used: {name!r} is the name of a "
                "built-in plugin; rename the entry point"
                for point in sorted(points, key=_origin)
                if not _is_builtin(point)
            )
        elif len(points) > 1:
            origins = sorted(_origin(point) for point in points)
            problem = f"two distributions register it: {', and '.join(origins)}"
            entries[name] = PluginEntry(name, "", None, problem, remedy="uninstall one of them")
        else:
            entries[name] = _from(points[0], check_plugin(name, _origin(points[0]), points[0].load))
    for name, entry in _added.items():
        if name not in blocked:
            entries.setdefault(name, entry)
    catalogue: dict[str, Traversable] = {}
    for resource in files("bezique.variants").iterdir():
        if resource.name.endswith(".yaml"):
            catalogue[resource.name[: -len(".yaml")]] = resource
    for name in sorted(entries):
        for variant, resource in entries[name].files.items():
            catalogue.setdefault(variant, resource)
    return _Discovery(blocked, entries, notes, dict(sorted(catalogue.items())))


def _from(point: EntryPoint, entry: PluginEntry) -> PluginEntry:
    """The ``entry`` with the name and version of the distribution of ``point``, if known."""
    facts = _distribution(point)
    return entry if facts is None else replace(entry, distribution=facts)


_DISTRIBUTIONS: dict[object, tuple[str, str]] = {}
"""Each distribution's name and version, read once from its metadata (keyed by the
distribution itself, which compares by identity)."""


def _distribution(point: EntryPoint) -> tuple[str, str] | None:
    """The name and version of the distribution of ``point`` (None if unknown).

    Reading them parses the distribution's metadata, each time it is asked; a
    discovery asks it of every entry point several times, so it is read once.
    """
    dist = getattr(point, "dist", None)
    if dist is None:
        return None
    known = _DISTRIBUTIONS.get(dist)
    if known is None:
        metadata = dist.metadata
        known = _DISTRIBUTIONS[dist] = (str(metadata["Name"]), str(metadata["Version"]))
    return known


def _is_builtin(point: EntryPoint) -> bool:
    """Whether an entry point is one of the framework's own (a built-in plugin)."""
    facts = _distribution(point)
    return facts is not None and facts[0] == BUILTIN_DISTRIBUTION


def _entry_points(blocked: frozenset[str]) -> dict[str, list[EntryPoint]]:
    """Return the ``bezique`` entry points not blocked, by name (the same one kept once)."""
    found: dict[str, list[EntryPoint]] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name in blocked:
            continue
        same = found.setdefault(point.name, [])
        if all(point.value != other.value for other in same):
            same.append(point)
    return found


def _origin(point: EntryPoint) -> str:
    facts = _distribution(point)
    where = f" of distribution {facts[0]} {facts[1]}" if facts is not None else ""
    return f"entry point {point.name} = {point.value}{where}"


def known_plugins() -> dict[str, object]:
    """Return every working plugin by name (built-ins and installed, minus blocked ones)."""
    entries = _state().entries
    return {n: e.plugin for n, e in sorted(entries.items()) if not e.problem}


def plugin_entries() -> dict[str, PluginEntry]:
    """Return every plugin found, working or broken, by name (minus blocked ones)."""
    return dict(sorted(_state().entries.items()))


def plugin_notes() -> list[str]:
    """Return one line for each entry point set aside that is not a plugin's entry (none: [])."""
    return list(_state().notes)


def plugin_in_traceback(exc: BaseException) -> tuple[str, str] | None:
    """The working plugin whose code raised ``exc``, and where: ``(name, "file:line in f")``.

    The innermost frame of the traceback that belongs to a plugin's module (or to
    the module of a plugin object's class) is the one named; None when no plugin's
    code is in the traceback.
    """
    modules: dict[str, str] = {}
    for name, plugin in known_plugins().items():
        module = plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__
        modules[module] = name
    found: tuple[str, str] | None = None
    for frame, line in walk_tb(exc.__traceback__):
        module = frame.f_globals.get("__name__", "")
        owner = modules.get(module) or next(
            (n for m, n in modules.items() if module.startswith(m + ".")), None
        )
        if owner is not None:
            where = f"{Path(frame.f_code.co_filename).name}:{line} in {frame.f_code.co_name}"
            found = (owner, where)
    return found


def plugin_problems() -> list[str]:
    """Return one line for each broken plugin and each entry point set aside (none: ``[]``)."""
    state = _state()
    broken = [e.message for _, e in sorted(state.entries.items()) if e.problem]
    return [*broken, *state.notes]


def unknown_plugin_message(name: str) -> str:
    """Say that ``name`` is not a registered plugin and list the known ones."""
    names = ", ".join(known_plugins()) or "none"
    missing = f" ({MISSING_BUILTINS})" if MISSING_BUILTINS in _state().notes else ""
    return f"unknown plugin {name!r}; known plugins: {names}{missing}"


def plugin_problem(name: str) -> str | None:
    """Say why the plugin ``name`` cannot be used (unknown, blocked, broken), or None."""
    if name in _blocked():
        return f"plugin {name!r} is blocked by {BLOCK_ENV} (take it out of that list to use it)"
    entry = _state().entries.get(name)
    if entry is None:
        return unknown_plugin_message(name)
    return entry.message if entry.problem else None


def plugin_manager(names: Iterable[str]) -> pluggy.PluginManager:
    """Build a fresh plugin manager holding exactly the plugins ``names``, in order.

    Raise :class:`PluginError` naming the first plugin that cannot be used.
    """
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    entries = _state().entries
    for name in names:
        problem = plugin_problem(name)
        if problem is not None:
            raise PluginError(problem)
        try:
            manager.register(entries[name].plugin, name=name)
        except ValueError as exc:  # one module under two names: pluggy refuses
            raise PluginError(f"plugin {name!r} cannot be used here: {said(exc)}") from None
    return manager


def game_plugins(names: Iterable[str]) -> list[str]:
    """The plugins a game of a variant listing ``names`` is played with, in order.

    The listed plugins, and each working plugin that joins one of them
    (``bezique_joins``) and is not listed, placed right after the last plugin it joins
    (several there in the order of their names), so that the variant's later plugins
    answer first.
    """
    listed = list(names)
    after: list[list[str]] = [[] for _ in listed]
    for name, entry in sorted(_state().entries.items()):
        joined = [index for index, plugin in enumerate(listed) if plugin in entry.joins]
        if joined and name not in listed and not entry.problem:
            after[joined[-1]].append(name)
    return [plugin for index, name in enumerate(listed) for plugin in (name, *after[index])]


MAX_CHECKERS = 64
"""The most plugin lists whose checking managers are kept at once."""


def checking_manager(names: Iterable[str]) -> pluggy.PluginManager:
    """Return a plugin manager of the plugins ``names`` for asking the variant checks.

    The same manager serves every variant with that plugin list (until plugins are
    discovered again), so loading variants does not build one each time; it is only
    asked, never changed.  Raise :class:`PluginError` as :func:`plugin_manager` does.
    """
    key = tuple(names)
    checkers = _state().checkers
    found = checkers.get(key)
    if found is None:
        found = plugin_manager(key)
        if len(checkers) >= MAX_CHECKERS:
            checkers.pop(next(iter(checkers)))
        checkers[key] = found
    return found


def variant_files() -> dict[str, Traversable]:
    """Return every known variant: the built-in files, then those working plugins offer."""
    return dict(_state().catalogue)


def missing_note() -> str:
    """Name the broken plugins, whose variants are missing from the catalogue ("" if none)."""
    broken = [name for name, e in sorted(_state().entries.items()) if e.problem]
    if not broken:
        return ""
    names = ", ".join(map(repr, broken))
    if len(broken) == 1:
        return f" (plugin {names} could not be loaded, and any variant it offers is missing)"
    return f" (plugins {names} could not be loaded, and any variant they offer is missing)"

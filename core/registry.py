"""Where plugins and variant files are found.

Built-in plugins and outside plugins go through the same call,
:func:`register_plugin`.  Outside plugins arrive through the entry-point group
``bezique`` (``[project.entry-points.bezique] myrules = "mypkg.rules"``); setting
``BEZIQUE_BLOCK_PLUGINS=name,name`` hides installed plugins by name.  A variant
names plugins by their registered name, never by import path.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable, Mapping
from importlib.metadata import entry_points
from importlib.resources import files

import pluggy

from bezique import hookspecs
from bezique.errors import PluginError

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10: the same protocol, before it moved to importlib.resources.abc
    from importlib.abc import Traversable

ENTRY_POINT_GROUP = "bezique"
BLOCK_ENV = "BEZIQUE_BLOCK_PLUGINS"
BUILTIN_PLUGINS: dict[str, str] = {
    "ordinary": "bezique.plugins.ordinary",
    "grand": "bezique.plugins.grand",
    "polish": "bezique.plugins.polish",
    "multihand": "bezique.plugins.multihand",
    "partnership": "bezique.plugins.partnership",
}
"""Registered name -> module of the plugins that ship with the framework."""

_registered: dict[str, object] = {}
_discovered = False


def register_plugin(name: str, plugin: object) -> None:
    """Make ``plugin`` (a module or object with hook implementations) known as ``name``."""
    if not name or not name.replace("-", "_").isidentifier():
        raise PluginError(f"plugin name {name!r} must be a word of letters, digits, '-' or '_'")
    known = _registered.get(name)
    if known is not None and known is not plugin:
        raise PluginError(f"two different plugins are registered as {name!r}")
    _registered[name] = plugin


def _blocked() -> set[str]:
    return {n.strip() for n in os.environ.get(BLOCK_ENV, "").split(",") if n.strip()}


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for name, module in BUILTIN_PLUGINS.items():
        register_plugin(name, importlib.import_module(module))
    blocked = _blocked()
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in blocked or ep.name in BUILTIN_PLUGINS:
            continue
        try:
            register_plugin(ep.name, ep.load())
        except PluginError:
            raise
        except Exception as exc:  # an outside plugin's import failed: say which one
            raise PluginError(f"plugin {ep.name!r} ({ep.value}) failed to load: {exc}") from exc


def known_plugins() -> dict[str, object]:
    """Return every registered plugin by name (built-ins and installed, minus blocked)."""
    _discover()
    blocked = _blocked()
    return {n: p for n, p in sorted(_registered.items()) if n not in blocked}


def unknown_plugin_message(name: str) -> str:
    """Say that ``name`` is not a registered plugin and list the known ones."""
    names = ", ".join(known_plugins()) or "none"
    return f"unknown plugin {name!r}; known plugins: {names}"


def plugin_manager(names: Iterable[str]) -> pluggy.PluginManager:
    """Build a fresh plugin manager holding exactly the plugins ``names``, in order."""
    plugins = known_plugins()
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    for name in names:
        if name not in plugins:
            raise PluginError(unknown_plugin_message(name))
        manager.register(plugins[name], name=name)
    return manager


def variant_files() -> dict[str, Traversable]:
    """Return every known variant: the built-in files, then those plugins offer."""
    catalogue: dict[str, Traversable] = {}
    for entry in files("bezique.variants").iterdir():
        if entry.name.endswith(".yaml"):
            catalogue[entry.name[: -len(".yaml")]] = entry
    manager = plugin_manager(known_plugins())
    offered: list[Mapping[str, Traversable] | None] = manager.hook.bezique_variant_files()
    for mapping in offered:
        for name, path in (mapping or {}).items():
            catalogue.setdefault(name, path)
    return dict(sorted(catalogue.items()))

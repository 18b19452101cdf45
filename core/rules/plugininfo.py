"""What each installed plugin is, for ``bezique plugins``: its origin, its hooks, its variants.

Every plugin the registry found (the built-ins and those of other distributions, in
the ``bezique`` entry-point group, and those given to ``register_plugin``) is
described by a :class:`PluginInfo`, a broken one with the problem that set it aside
and whatever of it could still be read.  :func:`plugins_json` is the stable JSON
form, :func:`plugins_table` the text one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pluggy

from bezique import hookspecs
from bezique.variant import registry
from bezique.variant.plugincheck import PluginEntry, implementations

FORMAT = "bezique-plugins/1"
"""The ``format`` of :func:`plugins_json`'s answer."""


@dataclass(frozen=True)
class PluginInfo:
    """One plugin as ``bezique plugins`` shows it.

    ``distribution`` and ``version`` are those of the one distribution whose entry
    point registers it (None for a plugin given to ``register_plugin``, or a name two
    distributions register); ``hooks`` are ``(hook, kind)`` pairs, the kind None for a
    name that is no hook; ``variants`` are the names its ``bezique_variant_files()``
    offers; ``error`` is empty for a working plugin, else why it cannot be used.
    """

    name: str
    distribution: str | None
    version: str | None
    hooks: tuple[tuple[str, str | None], ...]
    variants: tuple[str, ...]
    error: str

    def to_json(self) -> dict[str, Any]:
        """Return the plugin as plain JSON data (see :func:`plugins_json`)."""
        return {
            "name": self.name,
            "distribution": self.distribution,
            "version": self.version,
            "ok": not self.error,
            "error": self.error or None,
            "hooks": [{"name": name, "kind": kind} for name, kind in self.hooks],
            "variants": list(self.variants),
        }


def hook_kind(name: str) -> str | None:
    """The kind of the hook ``name`` (decide, collect, notify), or None if it is no hook.

    A game hook's kind is in :data:`bezique.hookspecs.GAME_HOOKS`; every other hook's
    is the first word of its spec's docstring (``Collect: ...``).
    """
    if name in hookspecs.GAME_HOOKS:
        return hookspecs.GAME_HOOKS[name]
    spec = getattr(hookspecs, name, None) if name.startswith("bezique_") else None
    doc = getattr(spec, "__doc__", None) or ""
    word = doc.split(":", 1)[0].split()[:1]
    kinds = (hookspecs.DECIDE, hookspecs.COLLECT, hookspecs.NOTIFY)
    return word[0].lower() if word and word[0].lower() in kinds else None


def describe(entry: PluginEntry) -> PluginInfo:
    """Describe the plugin of one registry entry."""
    hooks: list[tuple[str, str | None]] = []
    if entry.plugin is not None:
        manager = pluggy.PluginManager(hookspecs.PROJECT)
        try:
            found = {hook for _, hook, _ in implementations(manager, entry.plugin)}
        except Exception:  # a broken plugin whose attributes cannot be read: no hooks shown
            found = set()
        hooks = [(hook, hook_kind(hook)) for hook in sorted(found)]
    distribution, version = entry.distribution or (None, None)
    return PluginInfo(
        entry.name, distribution, version, tuple(hooks), tuple(sorted(entry.files)), entry.problem
    )


def plugin_infos() -> list[PluginInfo]:
    """Describe every plugin found (blocked ones are not: they are not even imported)."""
    return [describe(entry) for entry in registry.plugin_entries().values()]


def plugins_json(infos: list[PluginInfo]) -> dict[str, Any]:
    """The JSON answer of ``bezique plugins --json``: ``format``, ``plugins`` and ``notes``.

    ``plugins`` holds one object per plugin, by name (:meth:`PluginInfo.to_json`:
    ``name``, ``distribution``, ``version``, ``ok``, ``error``, ``hooks`` as
    ``{"name", "kind"}`` objects, ``variants``); ``notes`` the entry points set aside
    (a distribution's entry point taking a built-in plugin's name).
    """
    return {
        "format": FORMAT,
        "plugins": [info.to_json() for info in infos],
        "notes": registry.plugin_notes(),
    }


HEADINGS = ("plugin", "distribution", "version", "variants", "hooks")


def plugins_table(infos: list[PluginInfo]) -> list[str]:
    """The lines of ``bezique plugins``: one row per plugin, its hooks one a line.

    The columns are plugin, distribution, version, variants and hooks (``kind name``;
    a broken plugin's first line there is ``broken: PROBLEM``); ``-`` marks nothing.
    """
    rows: list[list[str]] = [list(HEADINGS)]
    for info in infos:
        lines = [f"broken: {info.error}"] if info.error else []
        lines += [f"{kind or '-':<7}  {hook}" for hook, kind in info.hooks]
        first = [
            info.name,
            info.distribution or "-",
            info.version or "-",
            ", ".join(info.variants) or "-",
        ]
        rows.append([*first, lines[0] if lines else "-"])
        rows += [["", "", "", "", line] for line in lines[1:]]
    widths = [max(len(row[column]) for row in rows) for column in range(len(HEADINGS) - 1)]
    return [
        "  ".join(
            [*(cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=True)), row[-1]]
        ).rstrip()
        for row in rows
    ]

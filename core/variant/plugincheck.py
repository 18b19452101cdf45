"""Checking one plugin, alone, against the hook specifications, before any variant uses it.

:func:`check_plugin` loads a plugin and checks it: every ``bezique_*`` hook it
implements exists and takes only arguments the hook offers (pluggy's own checks
run too), and its answers to the discovery hooks (the variant files it ships,
the plugins it joins) are sound.  A plugin that fails is kept as a
:class:`PluginEntry` with a one-line problem, which :mod:`bezique.variant.registry` shows
wherever the plugin is named.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pluggy

from bezique import hookspecs

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10: the same protocol, before it moved to importlib.resources.abc
    from importlib.abc import Traversable

BLOCK_ENV = "BEZIQUE_BLOCK_PLUGINS"
"""The environment variable that hides installed plugins by name."""


@dataclass(frozen=True)
class PluginEntry:
    """One plugin the registry knows: where it comes from and, if it is broken, why.

    ``origin`` says where it comes from for messages (``entry point NAME = MODULE of
    distribution DIST VERSION``); ``plugin`` is the module or object (None when it could
    not be loaded); ``problem`` is empty for a working plugin; ``files`` are the variant
    files it ships.
    """

    name: str
    origin: str
    plugin: object | None
    problem: str = ""
    files: Mapping[str, Traversable] = field(default_factory=dict)
    remedy: str = "fix or uninstall it"
    joins: tuple[str, ...] = ()
    """The plugins whose games it joins unlisted (its ``bezique_joins()``)."""
    distribution: tuple[str, str] | None = None
    """The name and version of the one distribution whose entry point registers it."""

    @property
    def message(self) -> str:
        """Say, in one line, that this plugin cannot be used, why, and how to hide it."""
        where = f" ({self.origin})" if self.origin else ""
        return (
            f"plugin {self.name!r}{where} cannot be used: {self.problem}; "
            f"{self.remedy}, or set {BLOCK_ENV}={self.name} to hide it"
        )


def check_plugin(name: str, origin: str, load: Callable[[], object]) -> PluginEntry:
    """Load one plugin and check it against the hook specifications, alone."""
    if not name or not name.replace("-", "_").isidentifier():
        problem = f"its name {name!r} must be a word of letters, digits, '-' or '_'"
        return PluginEntry(name, origin, None, problem)
    try:
        plugin = load()
    except (Exception, SystemExit) as exc:  # any failure at import: say which plugin
        return PluginEntry(name, origin, None, f"its module failed to import: {said(exc)}")
    if plugin is None:
        return PluginEntry(name, origin, None, "it names None, not a module or an object")
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    problem = ""
    try:
        problem = _hook_problem(manager, name, plugin)
        if not problem:
            manager.register(plugin, name=name)
            manager.check_pending()
    except (Exception, SystemExit) as exc:  # pluggy refused it, or inspecting it failed
        problem = problem or f"the hooks cannot be registered: {said(exc)}"
    if problem:
        return PluginEntry(name, origin, plugin, problem)
    try:
        offered = manager.hook.bezique_variant_files()
        shipped = _shipped_files(offered)
    except (Exception, SystemExit) as exc:
        return PluginEntry(name, origin, plugin, f"its bezique_variant_files() failed: {said(exc)}")
    if isinstance(shipped, str):
        return PluginEntry(name, origin, plugin, shipped)
    try:
        joins = _joined(manager.hook.bezique_joins())
    except (Exception, SystemExit) as exc:
        return PluginEntry(name, origin, plugin, f"its bezique_joins() failed: {said(exc)}")
    if isinstance(joins, str):
        return PluginEntry(name, origin, plugin, joins)
    return PluginEntry(name, origin, plugin, "", shipped, joins=joins)


def _joined(offered: list[Any]) -> tuple[str, ...] | str:
    """Return the plugin names a plugin's ``bezique_joins()`` answers, or the problem."""
    names: list[str] = []
    for answer in offered:
        if answer is None:
            continue
        if isinstance(answer, str) or not isinstance(answer, list | tuple):
            return f"its bezique_joins() returned {_kind(answer)}, not a list of plugin names"
        for name in answer:
            if not isinstance(name, str) or not name:
                return f"its bezique_joins() names {name!r}, which is not a plugin name"
            names.append(name)
    return tuple(dict.fromkeys(names))


def said(exc: BaseException) -> str:
    """One line naming the exception and its message."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def implementations(
    manager: pluggy.PluginManager, plugin: object
) -> Iterator[tuple[str, str, pluggy.HookimplOpts]]:
    """Each function of ``plugin`` marked ``@hookimpl``: its attribute, hook name and options.

    The hook name is the one it implements (its ``specname``, else its own name), whether
    or not such a hook exists; in the order of the attributes' names.
    """
    for attribute in sorted(dir(plugin)):
        opts = manager.parse_hookimpl_opts(plugin, attribute)
        if opts is not None:
            yield attribute, opts.get("specname") or attribute, opts


def _hook_problem(manager: pluggy.PluginManager, name: str, plugin: object) -> str:
    """Explain the first hook implementation that pluggy would refuse, in the plugin's words.

    A ``bezique_*`` name that is not a hook (pluggy's ``check_pending``), and an argument
    the hook does not offer (pluggy's registration check); pluggy's own checks still run.
    """
    for attribute, hook_name, opts in implementations(manager, plugin):
        caller = getattr(manager.hook, hook_name, None)
        if caller is None or caller.spec is None:
            if opts.get("optionalhook"):
                continue
            hooks = [n for n, c in vars(manager.hook).items() if getattr(c, "spec", None)]
            close = difflib.get_close_matches(hook_name, hooks, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            return f"it implements {hook_name!r}, which is not a bezique hook{hint}"
        impl = pluggy.HookImpl(plugin, name, getattr(plugin, attribute), opts)
        offered = [*caller.spec.argnames, *caller.spec.kwargnames]
        extra = [arg for arg in impl.argnames if arg not in offered]
        if extra:
            return (
                f"its {hook_name} takes {', '.join(map(repr, extra))}, which the hook does "
                f"not offer (it offers: {', '.join(offered)})"
            )
    return ""


def _shipped_files(offered: list[Any]) -> dict[str, Traversable] | str:
    """Return the variant files a plugin's answers offer, or the problem with them."""
    shipped: dict[str, Traversable] = {}
    for mapping in offered:
        if mapping is None:
            continue
        if not isinstance(mapping, Mapping):
            return f"its bezique_variant_files() returned {_kind(mapping)}, not a mapping"
        for variant, resource in mapping.items():
            if (
                not isinstance(variant, str)
                or not variant
                or variant.endswith(".yaml")
                or any(c in variant for c in "/\\")
            ):
                return (
                    f"its bezique_variant_files() offers {variant!r}, which is not a variant "
                    "name (a word without '/' or '.yaml')"
                )
            if isinstance(resource, str | os.PathLike):
                shipped[variant] = Path(resource)
            elif callable(getattr(resource, "open", None)) and isinstance(
                getattr(resource, "name", None), str
            ):
                shipped[variant] = resource
            else:
                return (
                    f"its bezique_variant_files() offers {variant!r} as {_kind(resource)}; "
                    "offer a path or a package resource"
                )
    return shipped


def _kind(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"the number {value}"
    return f"a {type(value).__name__}"

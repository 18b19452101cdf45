"""Declaring roles composed: the one declaring procedure of a ruleset, made of its plugins' classes.

Each plugin may offer declaring role classes (``bezique_declaring_roles``); a
variant's role is those classes composed into one, the plugin listed last first
in the method order, so that a plugin's overrides call ``super()`` to reach the
rules of the plugins listed before it (python-chess's variant boards, schnapsen's
roles).  The kernel knows only the :class:`~bezique.hookspecs.DeclaringRole`
protocol (:mod:`bezique.hookspecs`); the classes are the plugins'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

from bezique.errors import PluginError
from bezique.hookspecs import DeclaringRole

if TYPE_CHECKING:
    from bezique.actions import Action
    from bezique.hookstate import HookState
    from bezique.rules.ruleset import Ruleset


class _NoDeclarations:
    """The declaring role of a variant whose plugins offer none: no turn action."""

    def __init__(self, rules: Ruleset) -> None:
        """No role to build."""

    def turn_actions(self, state: HookState, player: int) -> list[Action]:
        """Nothing to do after a trick but end the turn."""
        return []

    def refusal(self, state: HookState, player: int, action: Action) -> str | None:
        """No reason beyond the kernel's."""
        return None

    def apply(self, state: HookState, player: int, action: Action) -> None:
        """Never asked: no turn action is ever legal."""
        raise PluginError(f"no plugin of this variant carries out {action!r}")


def declaring_role(rules: Ruleset) -> DeclaringRole:
    """Compose the declaring roles the plugins of ``rules`` offer, and make the one role.

    The classes are taken from the plugin listed last to the first (each
    plugin's in the order it answers, a class answered twice kept once), so
    that the plugin listed last comes first in the method order.  A class
    that is not a :class:`~bezique.hookspecs.DeclaringRole`, or classes with
    no consistent method order, are a :class:`PluginError` naming the plugins.
    """
    offered: dict[type[DeclaringRole], str] = {}
    caller = rules.manager.hook.bezique_declaring_roles
    for impl in reversed(caller.get_hookimpls()):
        for role in _roles_of(impl):
            offered.setdefault(role, impl.plugin_name)
    if not offered:
        return _NoDeclarations(rules)
    classes = tuple(offered)
    composed = classes[0]
    if len(classes) > 1:
        try:
            composed = type("+".join(c.__name__ for c in classes), classes, {})
        except TypeError:
            owners = ", ".join(f"{c.__name__} of {offered[c]!r}" for c in classes)
            raise PluginError(
                f"the declaring roles of the plugins cannot be composed ({owners}, the plugin "
                "listed last first): they have no consistent method order; a plugin whose role "
                "subclasses another plugin's must be listed after it"
            ) from None
        if composed.__mro__[1:] == classes[0].__mro__:  # the others are its bases already
            composed = classes[0]
    return composed(rules)


def _roles_of(impl: pluggy.HookImpl) -> list[type[DeclaringRole]]:
    """The role classes one plugin's ``bezique_declaring_roles`` answers, checked."""
    name = impl.plugin_name
    try:
        answer = impl.function()
    except Exception as exc:
        raise PluginError(
            f"plugin {name!r}: its bezique_declaring_roles() failed: {type(exc).__name__}: {exc}"
        ) from exc
    if answer is None:
        return []
    if not isinstance(answer, list | tuple):
        raise PluginError(
            f"plugin {name!r}: its bezique_declaring_roles() returned a "
            f"{type(answer).__name__}, not a list of classes"
        )
    for role in answer:
        if not isinstance(role, type) or not issubclass(role, DeclaringRole):
            raise PluginError(
                f"plugin {name!r}: its bezique_declaring_roles() offers {role!r}, which is not "
                "a declaring role (a class with turn_actions, refusal and apply: "
                "bezique.hookspecs.DeclaringRole)"
            )
    return list(answer)

"""A variant's data joined to its plugins' hooks, resolved once into plain callables.

pluggy costs one to two microseconds a call; the card loop calls the trick and
play hooks tens of thousands of times a second.  :class:`Ruleset` asks pluggy
once, when a game is built, for each hook's implementations in call order and
binds them into an ordinary Python function with the ``firstresult`` semantics,
so the kernel pays a plain function call and nothing more.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

import pluggy

from bezique import hookspecs
from bezique.actions import Action, Kind
from bezique.cards import Deck
from bezique.errors import PluginError
from bezique.hookspecs import DeclaringRole
from bezique.registry import plugin_manager
from bezique.variant import Variant, load_variant

if TYPE_CHECKING:
    from bezique.game import GameState

HookFunction = Callable[..., Any]
T = TypeVar("T")


def _bind(impl: pluggy.HookImpl, argnames: tuple[str, ...]) -> HookFunction:
    """Adapt one implementation (which may take a subset of the arguments) to all of them."""
    wanted = tuple(argnames.index(name) for name in impl.argnames)
    function = impl.function
    if wanted == tuple(range(len(argnames))):
        return function

    def call(*args: Any) -> Any:
        return function(*(args[i] for i in wanted))

    return call


def _first_result(functions: list[HookFunction]) -> HookFunction:
    """Chain implementations: the first one that returns something other than None wins."""
    if len(functions) == 1:
        return functions[0]

    def call(*args: Any) -> Any:
        for function in functions:
            result = function(*args)
            if result is not None:
                return result
        return None

    return call


def resolve_hook(manager: pluggy.PluginManager, name: str) -> HookFunction:
    """Return one plain callable that does what ``manager.hook.<name>(...)`` would do."""
    caller = getattr(manager.hook, name)
    spec = caller.spec
    if spec is None:  # pragma: no cover - every game hook has a spec
        raise PluginError(f"hook {name} has no specification")
    argnames = tuple(spec.argnames)
    impls = caller.get_hookimpls()
    if any(impl.hookwrapper or impl.wrapper for impl in impls):
        return lambda *args: caller(**dict(zip(argnames, args, strict=True)))
    # pluggy calls the implementations registered last first.
    functions = [_bind(impl, argnames) for impl in reversed(impls)]
    if not functions:
        return lambda *args: None
    return _first_result(functions)


class _NoDeclarations:
    """The declaring role of a variant whose plugins offer none: no turn action."""

    def __init__(self, rules: Ruleset) -> None:
        """No role to build."""

    def turn_actions(self, state: GameState, player: int) -> list[Action]:
        """Nothing to do after a trick but end the turn."""
        return []

    def refusal(self, state: GameState, player: int, action: Action) -> str | None:
        """No reason beyond the kernel's."""
        return None

    def apply(self, state: GameState, player: int, action: Action) -> None:
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


class Ruleset:
    """Everything a game needs from its variant: data, deck and resolved hooks.

    Attributes named after the hooks without the ``bezique_`` prefix are the
    resolved callables; call them with positional arguments in the order the
    hook specification declares.
    """

    def __init__(self, variant: Variant) -> None:
        """Build the plugin manager of ``variant`` and resolve every game hook."""
        self.variant = variant
        self.data: dict[str, Any] = variant.data
        self.deck = Deck.from_variant(variant.data)
        self.play_actions: tuple[Action, ...] = tuple(
            Action(Kind.PLAY, (card,)) for card in range(self.deck.size)
        )
        """The action of playing each card, made once (actions are immutable)."""
        self.players: int = variant.data["players"]
        self.target: int = variant.data["game"]["target"]
        """Points that win the game; the kernel asks the game-winner hook mid-hand only
        once a score reaches them (and always at a hand's end)."""
        self.manager = plugin_manager(variant.data["plugins"])
        self.tables: dict[object, Any] = {}
        """Memo where plugins keep tables they compile from the data (shared by games)."""
        combinations: dict[str, Any] = variant.data["declarations"]["combinations"]
        self.combo_names: tuple[str, ...] = tuple(combinations)
        """Combination names in the order of the variant's table."""
        self.classes: tuple[str, ...] = tuple(
            dict.fromkeys(c["class"] for c in combinations.values())
        )
        """Combination classes; a card's ``levels`` keeps four bits per class, in this order."""
        hooks = {name: resolve_hook(self.manager, name) for name in hookspecs.GAME_HOOKS}
        self.deal_scores: HookFunction = hooks["bezique_deal_scores"]
        self.trick_winner: HookFunction = hooks["bezique_trick_winner"]
        self.legal_plays: HookFunction = hooks["bezique_legal_plays"]
        self.trick_scores: HookFunction = hooks["bezique_trick_scores"]
        self.stock_exhausted: HookFunction = hooks["bezique_stock_exhausted"]
        self.hand_scores: HookFunction = hooks["bezique_hand_scores"]
        self.game_winner: HookFunction = hooks["bezique_game_winner"]
        self.next_declarer: HookFunction | None = self._optional("bezique_next_declarer", hooks)
        """None when no plugin implements it: only the trick's winner declares."""
        self.trick_players: HookFunction | None = self._optional("bezique_trick_players", hooks)
        """None when no plugin implements it: every seat plays every trick."""
        self.declaring: DeclaringRole = declaring_role(self)
        """The variant's declaring procedure: its plugins' roles composed, made once."""
        sides = variant.data.get("partnerships", {}).get("sides")
        self.side_of: tuple[int, ...] = tuple(
            next(i for i, side in enumerate(sides) if seat in side) if sides else seat
            for seat in range(self.players)
        )
        """For each seat, its side: the seat itself, or its partnership's index."""

    def _optional(self, name: str, hooks: dict[str, HookFunction]) -> HookFunction | None:
        """The resolved hook, or None when no plugin implements it (the kernel's default)."""
        return hooks[name] if getattr(self.manager.hook, name).get_hookimpls() else None

    def compiled(self, key: object, build: Callable[[], T]) -> T:
        """Return what ``build()`` makes, made once per ruleset and kept under ``key``.

        Plugins keep the tables they compile from the variant's data here.
        """
        found = self.tables.get(key)
        if found is None:
            found = self.tables[key] = build()
        return cast(T, found)


def ruleset_for(
    variant: str | os.PathLike[str] | Variant | Ruleset,
    overrides: Mapping[str, Any] | None = None,
) -> Ruleset:
    """Return the ruleset of a variant name, a YAML path, a loaded variant or a ruleset."""
    if isinstance(variant, Ruleset):
        if not overrides:
            return variant
        variant = variant.variant
    if isinstance(variant, Variant):
        if not overrides:
            return Ruleset(variant)
        return Ruleset(load_variant(variant.origin, _merged(variant.overrides, overrides)))
    if isinstance(variant, str) and _is_registered_name(variant):
        return _registered_ruleset(variant, overrides)
    return Ruleset(load_variant(variant, overrides))


MAX_CACHED_RULESETS = 32
"""The most rulesets of registered variants kept (the least recently used goes first)."""

_REGISTERED: OrderedDict[tuple[str, str], Ruleset] = OrderedDict()
"""Rulesets of registered variants by name and overrides, most recently used last.

Registered variants do not change while the process runs; each distinct set of
overrides is another ruleset, so at most :data:`MAX_CACHED_RULESETS` are kept."""


def _is_registered_name(spec: str) -> bool:
    """Whether ``spec`` names a registered variant rather than a file (as the loader reads it)."""
    return not spec.endswith(".yaml") and "/" not in spec and "\\" not in spec


def _registered_ruleset(name: str, overrides: Mapping[str, Any] | None) -> Ruleset:
    """Load a registered variant once per set of overrides (of the last few used).

    Replays and saved states rebuild rulesets often, and loading and validating
    one takes tens of milliseconds.
    """
    try:
        key = (name, json.dumps(overrides or {}, sort_keys=True))
    except (TypeError, ValueError):  # not plain data: let the loader say what is wrong
        return Ruleset(load_variant(name, overrides))
    found = _REGISTERED.get(key)
    if found is None:
        found = _REGISTERED[key] = Ruleset(load_variant(name, overrides))
        while len(_REGISTERED) > MAX_CACHED_RULESETS:
            _REGISTERED.popitem(last=False)
    else:
        _REGISTERED.move_to_end(key)
    return found


def _merged(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """Merge two override mappings the way ``extends:`` merges files."""
    result = dict(base)
    for key, value in extra.items():
        old = result.get(key)
        if isinstance(old, Mapping) and isinstance(value, Mapping):
            result[key] = _merged(old, value)
        else:
            result[key] = value
    return result

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
from bezique.registry import game_plugins, plugin_manager
from bezique.variant import Variant, load_variant

if TYPE_CHECKING:
    pass

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
    if not spec.opts.get("firstresult"):  # a notify hook: every implementation hears it
        return _every(functions)
    return _first_result(functions)


def _every(functions: list[HookFunction]) -> HookFunction:
    """Call every implementation in turn (a notify hook: what they return is ignored)."""
    if len(functions) == 1:
        return functions[0]

    def call(*args: Any) -> None:
        for function in functions:
            function(*args)

    return call


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
        self.manager = plugin_manager(game_plugins(variant.data["plugins"]))
        """The variant's plugins and those that join them (see ``bezique_joins``)."""
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
        self.turn_actions: HookFunction = hooks["bezique_turn_actions"]
        self.refusal: HookFunction = hooks["bezique_refusal"]
        self.apply_turn_action: HookFunction = hooks["bezique_apply_turn_action"]
        self.trick_scores: HookFunction = hooks["bezique_trick_scores"]
        self.stock_exhausted: HookFunction = hooks["bezique_stock_exhausted"]
        self.hand_scores: HookFunction = hooks["bezique_hand_scores"]
        self.game_winner: HookFunction = hooks["bezique_game_winner"]
        self.next_declarer: HookFunction | None = self._optional("bezique_next_declarer", hooks)
        """None when no plugin implements it: only the trick's winner declares."""
        self.trick_players: HookFunction | None = self._optional("bezique_trick_players", hooks)
        """None when no plugin implements it: every seat plays every trick."""
        self.table_action: HookFunction | None = self._optional("bezique_table_action", hooks)
        """None when no plugin implements it: every table action is refused."""
        self.phase_choices: HookFunction = hooks["bezique_phase_choices"]
        # The table hooks: asked only in a hand with a table action, and only if
        # implemented (None otherwise), so that the card loop pays nothing for them.
        self.adjust_plays: HookFunction | None = self._optional("bezique_adjust_plays", hooks)
        self.before_play: HookFunction | None = self._optional("bezique_before_play", hooks)
        self.trick_owner: HookFunction | None = self._optional("bezique_trick_owner", hooks)
        self.draw: HookFunction | None = self._optional("bezique_draw", hooks)
        self.after_deal: HookFunction | None = self._optional("bezique_after_deal", hooks)
        """None when no plugin implements it: nothing is told of a deal."""
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

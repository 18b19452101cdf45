"""A variant's data joined to its plugins' hooks, resolved once into plain callables.

pluggy costs one to two microseconds a call; the card loop calls the trick and
play hooks tens of thousands of times a second.  :class:`Ruleset` asks pluggy
once, when a game is built, for each hook's implementations and binds them, by
the hook's kind (:mod:`bezique.rules.hooks`), into an ordinary Python function that
the kernel calls through a typed facade: a plain function call and nothing more.
"""

from __future__ import annotations

import copy
import functools
import json
import os
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from bezique import hookspecs
from bezique.actions import Action, Kind
from bezique.cards import Deck
from bezique.errors import PluginHookError
from bezique.rules.answers import CHECKS
from bezique.rules.hooks import (
    AfterTrick,
    Answer,
    BeforePlay,
    Declaring,
    Draw,
    DrawScores,
    GameWinner,
    HandQuestion,
    LegalPlays,
    NextDeclarer,
    Notify,
    PhaseChoicesOf,
    PlayOption,
    PlayOptions,
    ScoresOf,
    TableAction,
    TrickOwner,
    TrickPlayers,
    TrickScores,
    TrickWinner,
    WaitBeforeDraw,
    answering,
    hook_failure,
    resolve_hook,
    resolve_unguarded,
    wrong_answer,
)
from bezique.rules.roles import declaring_role
from bezique.rules.words import Words, merged
from bezique.variant import Variant, game_target, load_variant
from bezique.variant.registry import game_plugins, plugin_manager

T = TypeVar("T")


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
        self.target: int | None = game_target(variant.data)
        """Points that win the game, or None where one deal is the game (``game.end:
        one_deal``); the kernel asks the game-winner hook mid-hand only once a score
        reaches them (never in a game of one deal), and always at a hand's end."""
        self.manager = plugin_manager(game_plugins(variant.data["plugins"]))
        """The variant's plugins and those that join them (see ``bezique_joins``)."""
        self.tables: dict[object, Any] = {}
        """Memo where plugins keep tables they compile from the data (shared by games)."""
        # The combination table is the ordinary plugin's section (a variant without it
        # declares nothing); its names and classes give the notation and the level bits.
        combinations: dict[str, Any] = variant.data.get("declarations", {}).get("combinations", {})
        self.combo_names: tuple[str, ...] = tuple(combinations)
        """Combination names in the order of the variant's table."""
        self.classes: tuple[str, ...] = tuple(
            dict.fromkeys(c["class"] for c in combinations.values())
        )
        """Combination classes; a card's ``levels`` keeps four bits per class, in this order."""
        self._resolve_hooks()
        # The roles' methods take the state as hooks see it (bezique.hookstate.HookState,
        # a GameState); the kernel's parts call them as they know it (hooks.Declaring).
        self.declaring = cast(Declaring, declaring_role(self))
        """The variant's declaring procedure: its plugins' roles composed, made once."""
        sides = variant.data.get("partnerships", {}).get("sides")
        self.side_of: tuple[int, ...] = tuple(
            next(i for i, side in enumerate(sides) if seat in side) if sides else seat
            for seat in range(self.players)
        )
        """For each seat, its side: the seat itself, or its partnership's index."""
        self.partners_of: tuple[tuple[int, ...], ...] = tuple(
            tuple(other for other, s in enumerate(self.side_of) if s == side and other != seat)
            for seat, side in enumerate(self.side_of)
        )
        """For each seat, the other seats of its side by seat (none without partnerships)."""

    @property
    def one_deal(self) -> bool:
        """Whether one deal is the game (``game.end: one_deal``): it is over when the hand is."""
        return self.target is None

    @functools.cached_property
    def words(self) -> Words:
        """The words a player reads for the variant's keys (:mod:`bezique.rules.words`), made once.

        The kernel's words with every plugin's answer to ``bezique_words`` merged over
        them, in the order the plugins are listed (a later one overrides).
        """
        caller = self.manager.hook.bezique_words
        answers = []
        for impl in caller.get_hookimpls():  # in the order the plugins are listed
            arguments = {"data": copy.deepcopy(self.data)}
            answers.append(
                (impl.plugin_name, impl.function(**{n: arguments[n] for n in impl.argnames}))
            )
        return merged(answers)

    def _resolve_hooks(self) -> None:
        """Resolve every game hook of the variant's plugins into the typed facade below."""
        data = self.data
        hooks = {name: resolve_hook(self.manager, name, data) for name in hookspecs.GAME_HOOKS}

        def optional(name: str) -> Any:
            """None when no plugin can answer it here: the kernel does without (and pays nothing).

            An implementation marked :func:`~bezique.hookspecs.answers_when` whose
            predicate is false of the variant's data does not count (:func:`.hooks.answering`).
            """
            return hooks[name] if answering(self.manager, name, data) else None

        self.after_deal: Notify = hooks["bezique_after_deal"]
        self.deal_scores: ScoresOf = hooks["bezique_deal_scores"]
        self.hand_question: HandQuestion | None = optional("bezique_hand_question")
        """None when no plugin implements it: play begins at once after the deal."""
        self.answer: Answer | None = optional("bezique_answer")
        self.play_options: PlayOptions | None = optional("bezique_play_options")
        """None when no plugin implements it: the seat to play may only play a card."""
        self.play_option: PlayOption | None = optional("bezique_play_option")
        self.trick_winner: TrickWinner = hooks["bezique_trick_winner"]
        self.legal_plays: LegalPlays = hooks["bezique_legal_plays"]
        self.trick_scores: TrickScores = hooks["bezique_trick_scores"]
        self.after_trick: AfterTrick | None = optional("bezique_after_trick")
        self.draw_scores: DrawScores | None = optional("bezique_draw_scores")
        """None when no plugin implements it: the draw asks nothing."""
        self.stock_exhausted: Notify = hooks["bezique_stock_exhausted"]
        self.hand_scores: ScoresOf = hooks["bezique_hand_scores"]
        self.game_winner: GameWinner = hooks["bezique_game_winner"]
        self.settlement: ScoresOf = hooks["bezique_settlement"]
        self.next_declarer: NextDeclarer | None = optional("bezique_next_declarer")
        """None when no plugin implements it: only the trick's winner declares."""
        self.trick_players: TrickPlayers | None = optional("bezique_trick_players")
        """None when no plugin implements it: every seat plays every trick."""
        self.table_action: TableAction | None = optional("bezique_table_action")
        """None when no plugin implements it: every table action is refused."""
        self.phase_choices: PhaseChoicesOf = hooks["bezique_phase_choices"]
        self.wait_before_draw: WaitBeforeDraw | None = optional("bezique_wait_before_draw")
        """None when no plugin implements it: the draw follows a trick no one declares after."""
        # The table hooks: asked only in a hand with a table action, and only if
        # implemented (None otherwise), so that the card loop pays nothing for them.
        self.adjust_plays: LegalPlays | None = optional("bezique_adjust_plays")
        self.before_play: BeforePlay | None = optional("bezique_before_play")
        self.trick_owner: TrickOwner | None = optional("bezique_trick_owner")
        self.draw: Draw | None = optional("bezique_draw")
        # The hooks of every card and every trick as the kernel's own loop calls them: a
        # plugin's function as it is when it alone answers (the loop catches its failures
        # and checks its answers, with hook_failed and check_answer, at no cost per call).
        self.owners: dict[str, str] = {}
        """For each of the kernel's fast hooks, the plugins that answer it."""
        self.fast_trick_winner: TrickWinner = self._unguarded("bezique_trick_winner")
        self.fast_legal_plays: LegalPlays = self._unguarded("bezique_legal_plays")
        self.fast_trick_scores: TrickScores = self._unguarded("bezique_trick_scores")

    def _unguarded(self, name: str) -> Any:
        """The hook ``name`` for the kernel's loop (:func:`.hooks.resolve_unguarded`)."""
        function, self.owners[name] = resolve_unguarded(self.manager, name, self.data)
        return function

    def hook_failed(self, hook: str, exc: Exception) -> PluginHookError:
        """The error naming the plugin of the fast hook ``hook`` for the exception it raised."""
        return hook_failure(self.owners[hook], hook, exc)

    def check_answer(self, hook: str, answer: Any, args: tuple[Any, ...]) -> None:
        """Refuse, naming the plugin, an answer of the fast hook ``hook`` its check finds wrong."""
        problem = CHECKS[hook](answer, args)
        if problem is not None:
            raise wrong_answer(self.owners[hook], hook, problem)

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
    if isinstance(variant, str) and is_variant_name(variant):
        return _registered_ruleset(variant, overrides)
    return Ruleset(load_variant(variant, overrides))


MAX_CACHED_RULESETS = 32
"""The most rulesets of registered variants kept (the least recently used goes first)."""

_REGISTERED: OrderedDict[tuple[str, str], Ruleset] = OrderedDict()
"""Rulesets of registered variants by name and overrides, most recently used last.

Registered variants do not change while the process runs; each distinct set of
overrides is another ruleset, so at most :data:`MAX_CACHED_RULESETS` are kept."""


def is_variant_name(spec: str) -> bool:
    """Whether ``spec`` is a variant's name rather than a file's path (as the loader reads it).

    A name is looked up among the registered variants only: no file it names is read.
    """
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

"""The kernel: a trick-taking game state and its phase machine.

The kernel knows cards, hands, the stock, tricks, turns and scores, and the order
of play: deal, tricks with drawing, the end-game once the stock is gone, the
hand's end and the game's end.  It knows no number from a rulebook: those come
from the variant's data, and every decision that differs between games (who
wins a trick, which cards may be played, what a trick's winner may declare, what
scores) is asked of the variant's plugins through a :class:`~bezique.rules.ruleset.Ruleset`.

A game is fully determined by its variant (with overrides), its seed or stacked
decks, the first dealer and the list of actions.
"""

from __future__ import annotations

import os
import random
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from bezique.actions import Action, ScoreEvent
from bezique.cards import CardError
from bezique.engine import saved
from bezique.engine.phases import Phases
from bezique.engine.saved import MAX_HISTORY, STATE
from bezique.engine.state import (
    GAME_OVER,
    MAX_SEED,
    NO_TURN,
    NOT_COPIED,
    PLAY,
    QUESTION,
    STATE_FORMAT,
    STATE_FORMAT_V1,
    TURN,
    NotCopied,
    RandomSource,
    TurnState,
    fields_of,
    json_copy,
    set_fields,
)
from bezique.errors import BeziqueError, PluginError, RecordError
from bezique.rules.pinned import RECORDED, recorded_as
from bezique.rules.ruleset import MAX_CACHED_RULESETS, Ruleset, is_variant_name, ruleset_for
from bezique.variant import Variant

__all__ = [
    "GAME_OVER",
    "MAX_CACHED_RULESETS",
    "MAX_HISTORY",
    "NO_TURN",
    "PLAY",
    "QUESTION",
    "STATE_FORMAT",
    "STATE_FORMAT_V1",
    "TURN",
    "GameState",
    "ScoreEvent",
    "TurnState",
    "from_json",
    "new_game",
    "ruleset_for",
]
"""The public face of the kernel: what user code and plugins import from ``bezique.game``."""


class _Unrestored:
    """The type of :data:`_UNRESTORED`."""

    __slots__ = ()

    def __repr__(self) -> str:
        """``UNRESTORED``."""
        return "UNRESTORED"


_UNRESTORED = _Unrestored()
"""``_origin`` of a throwaway state (a search's world): not restored after a failed action,
but left broken (see :meth:`GameState._unrestored`)."""

Origin = tuple["GameState", int] | str | NotCopied | _Unrestored | None
"""What a state replays from to restore it after a failed action (see ``StateData._origin``)."""


def __getattr__(name: str) -> object:
    """The deprecated names of this module (``REMEDY``: the referee plugin's phase now)."""
    if name == "REMEDY":
        warnings.warn(
            "bezique.game.REMEDY is deprecated: the phase is the referee plugin's "
            "(bezique.plugins.referee.REMEDY)",
            DeprecationWarning,
            stacklevel=2,
        )
        return "remedy"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class GameState(Phases):
    """A game of bezique (or any variant), from the first deal to the game's end.

    Build one with :func:`new_game`.  Use :meth:`legal_actions`, :meth:`apply`,
    :meth:`observation`, :meth:`to_json` / :func:`from_json` and :meth:`clone`.
    Attributes are public for plugins and tests to read; change them only
    through :meth:`apply` (plugins: through the hooks that say so).  The data
    and its copies are :class:`~bezique.engine.state.StateData`'s; this class carries
    out actions or refuses them all or nothing (:meth:`apply`), restoring the state
    after a failure.  Its other methods are those of the parts of :mod:`bezique.engine`
    it inherits: the phase machine (:class:`~bezique.engine.phases.Phases`: legal
    actions, actions carried out, tricks), turns (:class:`~bezique.engine.turns.Turns`),
    the deal and the draw (:class:`~bezique.engine.stock.Stock`), refusals, views,
    questions before the first lead, scores and the game's end, the board (``str``),
    the notation and random play;
    :class:`~bezique.engine.machine.Machine` declares what they call of this class.
    """

    def __init__(
        self,
        rules: Ruleset,
        *,
        seed: int | None = None,
        decks: Sequence[Sequence[int]] = (),
        first_dealer: int = 0,
        overrides: Mapping[str, Any] | None = None,
        variant_spec: str = "",
        at_table: bool = False,
    ) -> None:
        """Set up a game and deal its first hand (see :func:`new_game`)."""
        self.rules = rules
        self.deck = rules.deck
        self.players = rules.players
        if not 0 <= first_dealer < self.players:
            raise BeziqueError(f"first dealer must be a seat from 0 to {self.players - 1}")
        self.variant_spec = variant_spec or rules.variant.origin
        self.overrides: dict[str, Any] = dict(overrides or {})
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.seed = _checked_seed(seed)
        self._random = RandomSource(random.Random(self.seed))
        self.decks: list[list[int]] = [list(d) for d in decks]
        self.first_dealer = first_dealer
        self.at_table = at_table
        self.history: list[Action] = []
        self.events: list[ScoreEvent] = []
        self.event_hands: list[int] = []
        self.side_of = rules.side_of
        self.scores = [0] * (max(self.side_of) + 1)
        self.hand_no = -1
        self.dealer = (first_dealer - 1) % self.players
        self.winner = -1
        self.extra: dict[str, Any] = {}
        self._play_actions = rules.play_actions
        self._others = _others(self.players)
        self._orders = _orders(self._others)
        self._legal: list[Action] | None = None
        self._origin: Origin = None
        self._deal_next_hand()

    # ------------------------------------------------------------------ queries

    # ------------------------------------------------------------------ acting

    def apply(self, action: Action | str) -> None:
        """Carry out ``action`` (an :class:`Action` or its text) for the player to act.

        All or nothing: raise :class:`IllegalActionError`, naming the rule, for
        anything that is not legal now (or that is not an action), changing nothing;
        and if anything raises while the action is carried out (a plugin's hook:
        :class:`~bezique.errors.PluginHookError`; ``KeyboardInterrupt``), the state is
        first restored exactly as it was, then the exception goes on.
        """
        legal = self._legal
        if action.__class__ is not Action or legal is None or action not in legal:
            action = self._accepted(action)
        assert isinstance(action, Action)
        mark = len(self.history)
        if self._origin is not None:
            self._replays_from(mark)
        try:
            self._carry_out(action)
        except BaseException:
            self._roll_back(mark)
            raise

    # ------------------------------------------------------------------ all or nothing

    def _unrestored(self) -> None:
        """Make this state a throwaway one: no copy of it is kept to restore it from.

        A search's world, discarded after its iteration, need not pay for the copy a
        sampled world keeps at its first action (:meth:`_replays_from`): an action that
        fails in it leaves it broken (it refuses every action after, saying why) instead
        of restored.  A clone of it is a throwaway state too.
        """
        self._origin = _UNRESTORED

    def _replays_from(self, mark: int) -> None:
        """Make sure this state can be rebuilt as it is now, before an action changes it.

        A state that did not come from its inputs (a world a bot sampled) keeps a
        copy of itself at its first action, to replay from; a state left broken by
        a failed restore refuses every action.
        """
        origin = self._origin
        if origin is NOT_COPIED:
            self._origin = (self.clone(), mark)
        elif origin is _UNRESTORED:
            return
        elif isinstance(origin, str):
            raise PluginError(origin)

    def _roll_back(self, mark: int) -> None:
        """Restore the state as it was with ``mark`` actions in its history, after a failure.

        The state is replayed from its inputs (variant, seed, stacked decks, first
        dealer: as :func:`from_json` rebuilds a saved state), or from the copy it
        keeps, through the actions before ``mark``; its fields are then replaced all
        at once.  Nothing is copied on the normal path: only a failure pays.  Should
        the replay itself fail (a plugin that answers otherwise the second time), the
        state is marked broken and refuses every action after, saying why.
        """
        if self._origin is _UNRESTORED:
            self._origin = (
                "this game cannot go on: an action failed in a throwaway state (a search's "
                "world), which is not restored"
            )
            return
        try:
            rebuilt = self._rebuilt(mark)
        except BaseException as exc:  # the first failure is the one that goes on
            self._origin = (
                f"this game cannot go on: after an action failed, replaying its "
                f"{mark} actions to restore it failed too ({type(exc).__name__}: {exc}); "
                "a plugin answered otherwise the second time"
            )
            return
        old = self._random
        if old.holders > 1:  # shared with clones, and not drawn from: this state lets go
            old.holders -= 1
        set_fields(self, fields_of(rebuilt))

    def _rebuilt(self, mark: int) -> GameState:
        """A new state: this one's inputs or kept copy, and its actions before ``mark``."""
        origin = self._origin
        if isinstance(origin, tuple):
            copy, start = origin
            state = copy.clone()
        else:
            start = 0
            state = GameState(
                self.rules,
                seed=self.seed,
                decks=self.decks,
                first_dealer=self.first_dealer,
                overrides=self.overrides,
                variant_spec=self.variant_spec,
                at_table=self.at_table,
            )
        for action in self.history[start:mark]:
            state._carry_out(state._accepted(action))
        state._origin = origin
        return state


def _checked_seed(seed: object) -> int:
    """``seed`` if it is a seed a record can hold: a whole number from 0 to :data:`MAX_SEED`."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise BeziqueError(
            f"seed {saved.short(seed)}: a seed is a whole number from 0 to 2**64 - 1 "
            "(records hold no other)"
        )
    return int(seed)


def _others(players: int) -> list[tuple[int, ...]]:
    """For each seat, the other seats in playing order (to the left)."""
    return [tuple((seat + i) % players for i in range(1, players)) for seat in range(players)]


def _orders(others: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """For each leader, every seat in playing order from him."""
    return [(seat, *rest) for seat, rest in enumerate(others)]


def new_game(
    variant: str | os.PathLike[str] | Variant | Ruleset = "ordinary",
    *,
    overrides: Mapping[str, Any] | None = None,
    seed: int | None = None,
    decks: Sequence[Sequence[str]] | None = None,
    first_dealer: int = 0,
    referee: bool = False,
) -> GameState:
    """Start a game.

    ``variant`` is a registered variant name, a path to a YAML file, a loaded
    :class:`Variant` or a :class:`Ruleset` (reuse one to start many games
    cheaply); ``overrides`` is a nested mapping merged over the variant.  The
    game's record and saved state name a variant by registered name, never by a
    path: a YAML file's game by the registered variant the file builds on, with
    the overrides that make the file's rules (:func:`bezique.rules.pinned.recorded_as`).
    ``seed`` (a whole number from 0 to :data:`~bezique.engine.state.MAX_SEED`, as records hold
    it; None: one drawn at random) fixes every shuffle; ``decks`` stacks the decks of
    the first hands, each a list of card texts, top card first (the first card dealt is the top
    one; the card after the deal is the turn-up; the rest is the stock, drawn
    in order).  Hands after the stacked ones are shuffled from the seed.
    ``referee`` makes it a refereed game, the record of a game at a real table
    (:attr:`~bezique.engine.state.StateData.at_table`), where table actions (an
    irregularity reported, a claim) may come at any moment: the plugins that take
    them say where play stops for them.  The referee's stop: after every trick that
    a draw follows, the winner ends his turn with ``draw`` even when he has nothing
    to declare, so that a report may come before his draw.
    """
    rules = ruleset_for(variant, overrides)
    try:
        orders = [rules.deck.parse_order(d) for d in (decks or ())]
    except CardError as exc:
        raise BeziqueError(f"stacked deck: {exc}") from exc
    spec, named_overrides = _named_as(variant, rules)
    return GameState(
        rules,
        seed=seed,
        decks=orders,
        first_dealer=first_dealer,
        overrides=named_overrides,
        at_table=referee,
        variant_spec=spec,
    )


def _named_as(variant: object, rules: Ruleset) -> tuple[str, dict[str, Any]]:
    """What a record names the variant by: a registered name and overrides, never a path.

    A house-rule file is named by the registered variant it builds on with the
    overrides that make it (:func:`bezique.rules.pinned.recorded_as`).
    """
    if isinstance(variant, (str, os.PathLike)):
        return recorded_as(rules.variant, os.fspath(variant), rules.variant.overrides)
    if is_variant_name(rules.variant.origin):  # rules a record carried, named as it names them
        return rules.variant.origin, dict(rules.variant.overrides)
    return recorded_as(rules.variant)


def from_json(data: Mapping[str, Any], *, rules: str = RECORDED) -> GameState:
    """Rebuild a state written by :meth:`GameState.to_json`, refusing one damaged or edited.

    A saved state is untrusted input.  What rebuilds it is the variant (as
    named, with its merged rules pinned by digest), the seed, the stacked
    decks, the first dealer and the history of actions; the game is replayed
    from them through :meth:`GameState.apply`, and every other key (hands,
    stock, tricks, table, scores and score events, phase, seat to act, the
    random generator...) must then hold exactly what the replay gives, types
    included.  So a duplicated or missing card, an edited score or hand, a
    wrong phase or seat to act, or an illegal history is refused with a
    :class:`RecordError` naming the key (or ``history[INDEX]``), and the state
    returned is the replayed one: nothing is taken on trust.

    ``rules`` is the policy of :mod:`bezique.rules.pinned` for when the variant
    named now merges to other rules than those carried (default: play by the
    rules carried, with a :class:`~bezique.rules.pinned.RulesWarning`).  A
    ``bezique-state/1`` state (no rules carried) is rebuilt from the variant as
    it loads now, with a :class:`DeprecationWarning`.
    """
    data = saved.upgraded(data)
    inputs = saved.read_inputs(data, rules)
    try:
        state = GameState(
            inputs.ruleset,
            seed=inputs.seed,
            decks=inputs.decks,
            first_dealer=inputs.first_dealer,
            overrides=json_copy(inputs.overrides),
            variant_spec=inputs.spec,
            at_table=saved.saved_at_table(data),
        )
    except BeziqueError as exc:
        raise RecordError(f"{STATE}: {exc}") from exc
    saved.replay(state, inputs.history)
    wrong = saved.edited_keys(data, state.to_json())
    if wrong:
        raise RecordError("\n".join(wrong))
    return state

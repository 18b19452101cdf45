"""Bezique as an OpenSpiel Python game (``python_bezique``), for every variant.

Importing the module registers the game: ``pyspiel.load_game("python_bezique",
{"variant": "rubicon"})``.  Its actions are the indices of :mod:`bezique.rl.actions`;
its observations :mod:`bezique.rl.observation`'s arrays.  It is a game of imperfect
information with chance: the one chance node, at the start, chooses the deal among
``deals`` equally likely ones (parameter, default 4096), each the game of that seed
(:func:`bezique.game.new_game`: every shuffle of every hand follows from it).  The
deals and the draws are so sampled from a seed rather than dealt card by card: a
chance node per card dealt would give OpenSpiel's tree tools nothing they could use
(the orders of even the two-pack deck number 64!/2**32, about 10**79), and the seed
replays the game exactly.

:meth:`BeziqueState.resample_from_infostate` deals the cards a seat has not seen at
random, consistently with everything it has seen (:func:`bezique.players.worlds.sample_world`),
so OpenSpiel's IS-MCTS bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) plays
the game.  The returns: -1 to each seat of a losing side and to each of the winning
side what makes the sum 0 (1 where two sides play, 2 in a game of three, 3 in a game of
four played each for himself), 0 to all in a drawn game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from bezique.game import GAME_OVER, GameState, from_json, new_game, ruleset_for
from bezique.players.worlds import sample_world
from bezique.rl.actions import space_for
from bezique.rl.observation import encode, size

__all__ = ["GAME_TYPE", "BeziqueGame", "BeziqueState"]

DEALS = 4096
"""The deals the chance node chooses among, unless the ``deals`` parameter says otherwise."""

MAX_GAME_LENGTH = 100_000
"""A bound on a game's actions that no game of a shipped variant comes near."""

ONE_DEAL = {"game": {"end": "one_deal", "target": None}}
"""The overrides of the ``one_deal`` parameter: the game is one deal, the higher total wins
(a variant played to a target; one of one deal already is left as it is)."""

GAME_TYPE = pyspiel.GameType(
    short_name="python_bezique",
    long_name="Python Bezique (every variant of the bezique project)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "ordinary", "deals": DEALS, "one_deal": False},
)
"""The game's type: registered as ``python_bezique``."""


class BeziqueGame(pyspiel.Game):  # type: ignore[misc]
    """A variant's game (parameters ``variant``, a registered name, and ``deals``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """The game of ``params`` (see the module)."""
        params = dict(params or {})
        variant = str(params.get("variant", "ordinary"))
        deals = int(params.get("deals", DEALS))
        one_deal = bool(params.get("one_deal", False))
        self.rules = ruleset_for(variant)
        if one_deal and not self.rules.one_deal:  # (a variant of one deal already stays)
            self.rules = ruleset_for(variant, ONE_DEAL)
        self.space = space_for(self.rules)
        self.deals = deals
        players = self.rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.space),
            max_chance_outcomes=deals,
            num_players=players,
            min_utility=-1.0,
            max_utility=float(len(set(self.rules.side_of)) - 1),
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(
            GAME_TYPE, info, {"variant": variant, "deals": deals, "one_deal": one_deal}
        )

    def new_initial_state(self) -> BeziqueState:
        """A game before its deal (a chance node)."""
        return BeziqueState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BeziqueObserver:
        """The observer: a seat's observation array, its information state as text."""
        return BeziqueObserver(self, iig_obs_type)


class BeziqueState(pyspiel.State):  # type: ignore[misc]
    """A game under way: the project's :class:`~bezique.game.GameState` inside."""

    def __init__(self, game: BeziqueGame, inner: GameState | None = None) -> None:
        """The state before the deal, or around ``inner``."""
        super().__init__(game)
        self.play = _Play(game, inner)
        """The game under way (OpenSpiel clones a state by deep-copying its fields)."""

    @property
    def inner(self) -> GameState | None:
        """The game's state (None before the deal)."""
        return self.play.inner

    @property
    def texts(self) -> list[str]:
        """The text of every action so far (public: the notation names only cards shown)."""
        return self.play.texts

    def current_player(self) -> int:
        """The seat to act, or chance before the deal, or terminal."""
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.inner.phase == GAME_OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.inner.to_act

    def _legal_actions(self, player: int) -> list[int]:
        """The legal indices of the seat to act, ascending."""
        assert self.inner is not None
        return self.play.game.space.legal_indices(self.inner)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals, each alike."""
        deals = self.play.game.deals
        return [(deal, 1.0 / deals) for deal in range(deals)]

    def _apply_action(self, action: int) -> None:
        """Deal the game of the chosen seed, or carry out a seat's action."""
        if self.inner is None:
            self.play.inner = new_game(self.play.game.rules, seed=int(action))
            self.texts.append("deal")
            return
        chosen = self.play.game.space.action(self.inner, int(action))
        self.texts.append(self.inner.action_text(chosen))
        self.inner.apply(chosen)

    def _action_to_string(self, player: int, action: int) -> str:
        """An action's text: ``deal N`` or the notation's (``declare bezique QS JD*``)."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.play.game.space.text(int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.inner is not None and self.inner.phase == GAME_OVER

    def returns(self) -> list[float]:
        """Each seat's return: nothing until the game's end (see the module)."""
        players = self.play.game.rules.players
        state = self.inner
        if state is None or state.phase != GAME_OVER or state.winner < 0:
            return [0.0] * players
        winners = [state.side_of[seat] == state.winner for seat in range(players)]
        losers = winners.count(False)
        won = losers / winners.count(True)
        return [won if w else -1.0 for w in winners]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BeziqueState:
        """A state the seat cannot tell from this one, its unseen cards dealt at random.

        ``probability_sampler`` (OpenSpiel's: a call giving a number from 0 to 1) seeds
        the deal.
        """
        copy = BeziqueState(self.play.game)
        copy.play.texts = list(self.texts)
        if self.inner is not None:
            seed = int(probability_sampler() * 2**53)
            view = self.inner.view(player_id)
            copy.play.inner = sample_world(view, random.Random(seed))
        return copy

    def __str__(self) -> str:
        """The table as text (the game's board), or the wait for the deal."""
        return "before the deal" if self.inner is None else str(self.inner)


class _Play:
    """A state's game under way, copied as OpenSpiel clones a state: the rules shared."""

    def __init__(self, game: BeziqueGame, inner: GameState | None) -> None:
        self.game = game
        self.inner = inner
        self.texts: list[str] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        copy = _Play(self.game, None if self.inner is None else self.inner.clone())
        copy.texts = list(self.texts)
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel's serialization) as the game's parameters and saved state."""
        saved = None if self.inner is None else self.inner.to_json()
        return (_unpickled, (self.game.get_parameters(), list(self.texts), saved))


def _unpickled(params: dict[str, Any], texts: list[str], saved: dict[str, Any] | None) -> _Play:
    """A pickled :class:`_Play` rebuilt: its game loaded, its state replayed (from_json)."""
    game = pyspiel.load_game(GAME_TYPE.short_name, params)
    play = _Play(game, None if saved is None else from_json(saved))
    play.texts = texts
    return play


class BeziqueObserver:
    """OpenSpiel's observer of a seat: its observation array, its information state as text."""

    def __init__(self, game: BeziqueGame, iig_obs_type: Any) -> None:
        """An observer of ``game``; with perfect recall its text holds the actions so far."""
        self.rules = game.rules
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(size(game.rules), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BeziqueState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into :attr:`tensor`."""
        if state.inner is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = encode(state.inner, player)

    def string_from(self, state: BeziqueState, player: int) -> str:
        """``player``'s observation as JSON; with perfect recall, the actions before it."""
        seen = "before the deal" if state.inner is None else _seen_text(state.inner, player)
        if not self.recall:
            return seen
        return "\n".join([*state.texts, seen])


def _seen_text(state: GameState, player: int) -> str:
    """The seat's observation as JSON text (the score events left out: the texts hold them)."""
    seen = state.observation(player)
    seen.pop("events", None)
    return json.dumps(seen, sort_keys=True)


pyspiel.register_game(GAME_TYPE, BeziqueGame)

"""What the web table tells a player of his choices: their values, in points.

Three analyses, each for one seat, each as JSON-able data (the server sends it to the
pages as it is):

- :func:`exact_values`: in the two-hand end-game (the stock and the turn-up gone) each
  player knows the other's hand (every card not his own and not played), so the rest of
  the hand is solved exactly (:mod:`bezique.players.endgame`): each legal action is
  given its value under best play by both sides.  What the seat is told is what it
  could work out itself.
- :func:`estimates`: while the stock lasts, each legal action's worth is estimated from
  the seat's view only: worlds are dealt at random consistent with it
  (:class:`~bezique.players.worlds.WorldSampler`, as the ``search`` player deals them),
  and in each the action is played and the hand played out by the ``heuristic`` in
  every seat (:func:`~bezique.bench.decisions.action_worths`).  The hidden cards are
  never read.
- :func:`review`: after the game (or during it, of the moves made so far), the seat's
  decisions set against a bot's, asked from the same view; where they differ, the
  difference is costed as ``bezique bench --decisions`` costs one (both actions played
  in the real position, the heuristic playing on, over orders of the stock): the
  costliest first.  A reviewed game is over, so its hands are no secret.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from bezique.actions import Action
from bezique.bench.decisions import action_worths, mean_and_error
from bezique.engine.state import PLAY
from bezique.engine.tricks import hand_tricks
from bezique.errors import BeziqueError
from bezique.game import GameState, from_json
from bezique.players import Player, decide, player_for
from bezique.players.endgame import TooLarge, action_values, solvable
from bezique.players.search import SOLVER_NODES
from bezique.players.worlds import WorldSampler
from bezique.records.record import record_of, replay
from bezique.records.recordcheck import check_record

__all__ = [
    "MAX_PLAYOUTS",
    "REVIEW_ORDERS",
    "AnalysisError",
    "ReviewItem",
    "estimates",
    "exact_values",
    "review",
]

MAX_PLAYOUTS = 100_000
"""The most play-outs one call of :func:`estimates` may ask for (some twenty minutes)."""
REVIEW_ORDERS = 20
"""Orders of the stock a reviewed decision's cost is averaged over unless told."""


class AnalysisError(BeziqueError):
    """An analysis asked of a position or a game it cannot be made of (said in words)."""


class ReviewItem(TypedDict):
    """One decision of the reviewed seat where the bot would have chosen otherwise."""

    index: int
    """The action's number in the game's history (from 0): the position before it."""
    hand: int
    """The hand it was played in (from 0)."""
    trick: int
    """The trick of the hand it was taken at (from 1): the trick being played, or, after
    a trick (a declaration, an exchange, the end of the winner's turn), the trick just
    won; 0 before the hand's first trick."""
    when: str
    """When, as the log of the table counts (``hand 1, trick 5``, ``hand 1, after trick
    4``), so that a player finds the move."""
    played: str
    """The action played, in the text notation (``play AS``)."""
    played_words: str
    """The action played, in words, as the log tells it (``played AS``)."""
    bot: str
    """The bot's choice in the same position, in the text notation."""
    bot_words: str
    """The bot's choice, in words, as a choice is offered (``play 9H``)."""
    cost: float
    """The points the choice cost against the bot's: the bot's action's mean lead at the
    hand's end less the played one's (negative: the played action did better)."""
    error: float
    """The cost's standard error."""


def exact_values(
    state: GameState, seat: int, max_nodes: int = SOLVER_NODES
) -> dict[str, int] | None:
    """Each legal action of ``seat`` (to act) in a two-hand end-game, with its exact value.

    The value of an action is, when it is played and then both sides play best, the
    points ``seat``'s side scores in the rest of the hand less the points the other
    side scores (the brisques counted at the hand's end included, the next deal's
    scores not); or :data:`~bezique.players.endgame.WON` (1,000,000) when best play
    wins the game in this hand, and minus that when it loses it
    (:func:`~bezique.players.endgame.solve`'s value).  Keyed by the action's text.

    None when the hand is not an end-game of two hands (more than two players, the
    stock or the turn-up still to be drawn) or when the solver would search more than
    ``max_nodes`` positions.  ``state`` is not changed.
    """
    _check_to_act(state, seat)
    if state.players != 2 or not solvable(state):
        return None
    try:
        values = action_values(state, state.side_of[seat], max_nodes)
    except TooLarge:
        return None
    return {state.action_text(action): value for action, value in values}


def estimates(
    state: GameState, seat: int, iterations: int, seed: int
) -> dict[str, tuple[float, float]]:
    """Each legal action of ``seat`` (to act), with its estimated worth from the seat's view.

    An action's worth in one world is ``seat``'s side's lead at the hand's end (its
    points scored from now less the mean of the other sides') when it is played and the
    ``heuristic`` plays on in every seat.  Worlds are dealt from ``state.view(seat)``;
    each is played out once for every action (so the actions are compared on the same
    worlds), until ``iterations`` play-outs in all (the first actions get one more when
    they do not divide evenly).  Keyed by the action's text: the mean worth and its
    standard error (0.0 for an action played out once: no spread is measured).  The
    same ``seed`` gives the same estimates; ``state`` is not changed.
    """
    _check_to_act(state, seat)
    legal = state.legal_actions()
    if not len(legal) <= iterations <= MAX_PLAYOUTS:
        raise AnalysisError(
            f"estimates need from {len(legal)} play-outs (one for each legal action) "
            f"to {MAX_PLAYOUTS}, not {iterations}"
        )
    sampler = WorldSampler(state.view(seat))
    rng = random.Random(seed)
    worths: list[list[float]] = [[] for _ in legal]
    for first in range(0, iterations, len(legal)):
        world, order = sampler.sample(rng), rng.randrange(1 << 62)
        for index, action in enumerate(legal[: iterations - first]):
            worths[index].extend(action_worths(world, action, 1, order))
    return {
        state.action_text(action): _mean_and_spread(found)
        for action, found in zip(legal, worths, strict=True)
    }


def review(
    game: GameState | Mapping[str, Any],
    seat: int,
    spec: str = "search",
    limit: int = 10,
    orders: int = REVIEW_ORDERS,
    seed: int = 0,
) -> list[ReviewItem]:
    """``seat``'s decisions in ``game`` that the bot ``spec`` would have made otherwise.

    ``game`` is a game state (its history is reviewed) or a game record
    (:mod:`bezique.records`, checked first).  At each position where ``seat`` was to
    act with a choice, the bot decides from the seat's view (its generator seeded
    ``seed`` plus the position's index); where its choice differs from the action played,
    both are played in the real position and the ``heuristic`` plays on to the hand's
    end, over ``orders`` orders of the stock drawn from ``seed`` plus the index (the same
    orders for both, :func:`~bezique.bench.decisions.action_worths`): the cost is the
    bot's lead less the played action's, with its standard error.  The ``limit``
    costliest, the costliest first (ties: the earlier first).

    The budget: one bot decision for each of the seat's choices, and ``2 * orders``
    play-outs of a hand for each that differs.
    """
    record = _record_of(game)
    position = replay({**record, "actions": []})
    _check_review(position, seat, limit, orders)
    bot = player_for(spec)
    items: list[ReviewItem] = []
    for index, text in enumerate(record["actions"]):
        played = position.parse_action(text)
        if position.to_act == seat and _has_choice(position):
            item = _reviewed(position, played, bot, index, (orders, seed + index))
            if item is not None:
                items.append(item)
        position.apply(played)
    items.sort(key=lambda item: (-item["cost"], item["index"]))
    return items[:limit]


def _record_of(game: GameState | Mapping[str, Any]) -> dict[str, Any]:
    """The record of ``game``: written from a state, or checked and replayed once."""
    if isinstance(game, GameState):
        return record_of(game)
    check_record(game)
    replay(game)  # (an illegal action is refused here, with its index)
    return dict(game)


def _reviewed(
    position: GameState, played: Action, bot: Player, index: int, budget: tuple[int, int]
) -> ReviewItem | None:
    """The review of one decision, or None where the bot chooses the action played."""
    orders, seed = budget
    chosen = decide(bot, position, random.Random(seed))
    if chosen == played:
        return None
    better = action_worths(position, chosen, orders, seed)
    worse = action_worths(position, played, orders, seed)
    cost, error = _mean_and_spread([b - w for b, w in zip(better, worse, strict=True)])
    words = position.rules.words.action
    played_text, bot_text = position.action_text(played), position.action_text(chosen)
    trick, when = _when(position)
    return ReviewItem(
        index=index,
        hand=position.hand_no,
        trick=trick,
        when=when,
        played=played_text,
        played_words=words(played_text, past=True),
        bot=bot_text,
        bot_words=words(bot_text),
        cost=cost,
        error=error,
    )


def _when(position: GameState) -> tuple[int, str]:
    """The trick a decision is taken at (see :attr:`ReviewItem.trick`), and it in words."""
    hand = position.hand_no
    won = len(hand_tricks(position.tricks, hand))
    if position.phase == PLAY:
        return won + 1, f"hand {hand + 1}, trick {won + 1}"
    if won:
        return won, f"hand {hand + 1}, after trick {won}"
    return 0, f"hand {hand + 1}, before the first trick"


def _mean_and_spread(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (0.0 for a single value)."""
    mean, error = mean_and_error(values)
    return mean, 0.0 if error is None else error


def _has_choice(state: GameState) -> bool:
    """Whether the game goes on and the seat to act has more than one legal action."""
    return not state.is_over() and len(state.legal_actions()) > 1


def _check_to_act(state: GameState, seat: int) -> None:
    """Refuse a finished game, a refereed one, or a seat that is not to act, in words."""
    if state.is_over():
        raise AnalysisError("the game is over: there is no action to value")
    if state.at_table:
        raise AnalysisError("a refereed game (the record of a real table) is not analysed")
    if seat != state.to_act:
        raise AnalysisError(f"seat {seat} is not to act (seat {state.to_act} is)")


def _check_review(position: GameState, seat: int, limit: int, orders: int) -> None:
    """Refuse a refereed game, a seat not at the table, or a budget out of bounds, in words."""
    if position.at_table:
        raise AnalysisError("a refereed game (the record of a real table) is not reviewed")
    if not 0 <= seat < position.players:
        raise AnalysisError(f"seat {seat}: the game's seats are 0 to {position.players - 1}")
    if limit < 1 or not 2 <= orders <= MAX_PLAYOUTS:
        raise AnalysisError(
            f"a review lists at least 1 decision (not {limit}) and costs each over "
            f"2 to {MAX_PLAYOUTS} orders of the stock (not {orders})"
        )


REVIEW_SPEC = "search:iterations=200"
"""The bot a page's review compares the seat's play with (a budget a request can bear)."""


def estimates_of_saved(
    saved: Mapping[str, Any], seat: int, iterations: int, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """:func:`estimates` of a saved state (what a worker process is sent)."""
    return estimates(from_json(saved), seat, iterations, seed)


def review_of_record(record: Mapping[str, Any], seat: int, limit: int) -> list[ReviewItem]:
    """:func:`review` of a record against :data:`REVIEW_SPEC` (what a worker process is sent)."""
    return review(record, seat, REVIEW_SPEC, limit, orders=8)

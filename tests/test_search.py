"""The search player and its exact end-game solver.

* End-games of two-hand play (stock gone, four tricks or fewer left) set up from
  seeded random games, with the game's target set so that the end-game decides it:
  wherever a brute-force minimax (every line, no memo, no pruning, through the
  kernel) shows the game won for the seat to act, the ``search`` player, choosing
  from its view only, wins it against every reply the other side can make.
* The solver's value is the brute force's (points and the game's result alike).
* The player's options, its determinism, and its answer when one action is legal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bezique.actions import Action
from bezique.bench.search import format_search_bench, search_bench
from bezique.engine.views import View
from bezique.errors import PlayerError
from bezique.game import GameState, new_game
from bezique.players import decide, player_for
from bezique.players.calibration import HELD_WEIGHTS, UNIT_WEIGHTS
from bezique.players.endgame import WON, solve
from bezique.players.search import DEFAULT_LATE_MARGIN, LATE_TRICKS, SearchPlayer

SEEDS = range(40)
TRICKS_LEFT = 4


def end_game(seed: int, lead: int, variant: str = "ordinary") -> GameState | None:
    """A two-hand end-game of a random game, its target ``lead`` above the higher score.

    The random game is played until at most :data:`TRICKS_LEFT` tricks remain; it is
    then replayed with the target set just above the scores, so that the end-game
    decides the game (the replay is the same game: nobody reached the new target).
    """
    rng = random.Random(seed)
    state = new_game(variant, seed=seed)
    while not state.is_over() and (state.stock_left() or len(state.hands[0]) > TRICKS_LEFT):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    if state.is_over() or state.hand_no != 0 or state.trick:
        return None
    target = max(state.scores) + lead
    replayed = new_game(variant, seed=seed, overrides={"game": {"target": target}})
    for action in state.history:
        replayed.apply(action)
    assert replayed.hands == state.hands and not replayed.is_over()
    return replayed


def outcome(state: GameState, side: int, hand_no: int) -> int:
    """+1 if ``side`` has won the game, -1 if lost, 0 if the hand ended without a winner."""
    if state.is_over():
        return 0 if state.winner < 0 else (1 if state.winner == side else -1)
    assert state.hand_no != hand_no
    return 0


def brute_force(state: GameState, side: int, hand_no: int) -> int:
    """The game's result for ``side`` by plain minimax over every line of play."""
    if state.is_over() or state.hand_no != hand_no:
        return outcome(state, side, hand_no)
    results = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        results.append(brute_force(child, side, hand_no))
    return max(results) if state.side_of[state.to_act] == side else min(results)


def brute_points(state: GameState, side: int, hand_no: int, start: list[int]) -> int:
    """The solver's value by plain minimax: the result first, else the lead in points."""
    if state.is_over():
        return 0 if state.winner < 0 else (WON if state.winner == side else -WON)
    if state.hand_no != hand_no:
        gained = [a - b for a, b in zip(state.scores, start, strict=True)]
        return gained[side] - gained[1 - side]
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append(brute_points(child, side, hand_no, start))
    return max(values) if state.side_of[state.to_act] == side else min(values)


def always_wins(state: GameState, player: SearchPlayer, side: int, hand_no: int) -> bool:
    """Whether ``player`` playing ``side`` wins against every reply of the other side."""
    if state.is_over() or state.hand_no != hand_no:
        return outcome(state, side, hand_no) == 1
    if state.side_of[state.to_act] == side:
        child = state.clone()
        child.apply(decide(player, state, random.Random(0)))
        return always_wins(child, player, side, hand_no)
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        if not always_wins(child, player, side, hand_no):
            return False
    return True


@pytest.mark.slow
def test_the_solver_never_loses_an_end_game_brute_force_shows_won() -> None:
    player = SearchPlayer("search")
    won = 0
    for seed in SEEDS:
        for lead in (10, 20, 30):
            state = end_game(seed, lead)
            if state is None:
                continue
            side = state.side_of[state.to_act]
            if brute_force(state, side, state.hand_no) == 1:
                won += 1
                assert always_wins(state, player, side, state.hand_no), (seed, lead)
    assert won >= 10  # enough won end-games were found to test


@pytest.mark.parametrize("variant", ["ordinary", "house-brisques-at-end"])
@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8])
def test_the_solver_values_an_end_game_as_brute_force_does(variant: str, seed: int) -> None:
    """Also where the brisques are counted at the hand's end, from the cards won."""
    for lead in (20, 200):  # the game decided in the hand, and points only
        state = end_game(seed, lead, variant)
        if state is None:
            continue
        side = state.side_of[state.to_act]
        value, action = solve(state, side)
        assert value == brute_points(state, side, state.hand_no, list(state.scores))
        assert action in state.legal_actions()


@pytest.mark.slow
def test_a_seeded_search_is_deterministic() -> None:
    state = new_game("ordinary", seed=12)
    rng = random.Random(0)
    for _ in range(9):
        state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
    player = player_for("search:iterations=200")
    first = [decide(player, state, random.Random(s)) for s in (1, 2, 3)]
    again = [decide(player, state, random.Random(s)) for s in (1, 2, 3)]
    assert first == again
    assert player.last_iterations == 200 or len(state.legal_actions()) == 1  # type: ignore[attr-defined]


def test_with_one_legal_action_it_does_not_search() -> None:
    state = new_game("ordinary", seed=1)
    player = SearchPlayer("search", iterations=10**6)
    while len(state.legal_actions()) != 1:
        state.apply(state.legal_actions()[0])
    assert decide(player, state, random.Random(0)) == state.legal_actions()[0]
    assert player.last_iterations == 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:iterations=0", "iterations must be from 1 to 10000000, not 0"),
        ("search:iterations=lots", "iterations must be a whole number, not 'lots'"),
        ("search:seconds=-1", "seconds must be from 0.001 to 3600.0, not -1.0"),
        (
            "search:depth=3",
            "no option 'depth' (it takes iterations, seconds, c, horizon, playouts, prior, "
            "margin, late_margin, model, worth)",
        ),
        ("search:worth=guessed", "worth must be fitted or counted, not 'guessed'"),
        ("search:playouts=clever", "playouts must be greedy or random, not 'clever'"),
        ("search:prior=search", "the prior may not be a search"),
        ("search:model=search:iterations=9", "the model may not be a search"),
        ("search:model=nobody", "unknown player 'nobody'"),
        ("search:prior=nobody", "unknown player 'nobody'"),
        ("search:margin=2", "margin must be from 0.0 to 1.0, not 2.0"),
        ("search:late_margin=-0.5", "late_margin must be from 0.0 to 1.0, not -0.5"),
    ],
)
def test_bad_options_are_refused_in_words(spec: str, message: str) -> None:
    with pytest.raises(PlayerError, match=message.replace("(", r"\(").replace(")", r"\)")):
        player_for(spec)


def test_the_options_set_the_budget() -> None:
    player = player_for("search:iterations=300,c=1.5,horizon=6,playouts=random")
    assert isinstance(player, SearchPlayer)
    assert (player.iterations, player.seconds, player.c, player.horizon) == (300, None, 1.5, 6)
    assert not player.greedy
    assert player.prior is not None and player.prior.name == "heuristic"
    assert (player.margin, player.late_margin) == (0.06, DEFAULT_LATE_MARGIN) == (0.06, 0.0)
    late = player_for("search:late_margin=0.1")
    assert isinstance(late, SearchPlayer)
    assert (late.margin, late.late_margin) == (0.06, 0.1)
    assert player.model is not None and player.model.name == "heuristic"
    assert player.weights == HELD_WEIGHTS
    counted = player_for("search:worth=counted")
    assert isinstance(counted, SearchPlayer)
    assert counted.weights == UNIT_WEIGHTS
    plain = player_for("search:prior=none,margin=0.2,model=none")
    assert isinstance(plain, SearchPlayer)
    assert (plain.prior, plain.margin, plain.model) == (None, 0.2, None)
    modelled = player_for("search:model=random")
    assert isinstance(modelled, SearchPlayer)
    assert modelled.model is not None and modelled.model.name == "random"
    whole = player_for("search:horizon=0")
    assert isinstance(whole, SearchPlayer)
    assert (whole.iterations, whole.horizon, whole.greedy) == (1000, None, True)
    timed = player_for("search:seconds=0.5")
    assert isinstance(timed, SearchPlayer)
    assert (timed.iterations, timed.seconds) == (None, 0.5)


class Recording:
    """A model player that records the seats and views it is asked for, and plays first."""

    name = "recording"

    def __init__(self) -> None:
        self.asked: list[tuple[int, View]] = []

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        self.asked.append((view.seat, view))
        return legal[0]


@pytest.mark.parametrize("variant", ["ordinary", "three-hand", "four-hand-partners"])
def test_the_model_chooses_for_the_other_sides_only_from_their_views(variant: str) -> None:
    """In the tree, each seat of another side is asked from its own view, never the searcher's."""
    state = new_game(variant, seed=4)
    rng = random.Random(4)
    while len(state.legal_actions()) < 2 or state.trick:
        state.apply(rng.choice(state.legal_actions()))
    model = Recording()
    player = SearchPlayer("search", iterations=200, model=model)
    seat = state.to_act
    decide(player, state, random.Random(0))
    mine = state.side_of[seat]
    assert model.asked  # the tree reached the other sides' choices
    assert {state.side_of[asked] for asked, _ in model.asked} <= set(range(state.players)) - {mine}
    bits = state.deck.bits
    for asked, view in model.asked:
        assert view.seat == asked
        # of the searcher's hand it knows only what was shown before or declared in the tree
        for card in view.known[seat]:
            assert state.exposed & bits[card] or view.on_table[card], (asked, card)


def test_the_search_benchmark_runs_the_budget_on_every_position() -> None:
    """``bench --search``: each position searched with the budget given, its parts timed."""
    found = search_bench("ordinary", 3, 7, 1)
    assert (found["variant"], found["positions"], found["iterations"]) == ("ordinary", 3, 21)
    for key in ("cpu_seconds", "iterations_per_s", "random_deals_per_s", "world_us", "clone_us"):
        assert found[key] > 0, key
    text = format_search_bench(found)
    assert text.startswith("ordinary search: 21 iterations on 3 positions in ")
    assert "a play-out (4 tricks, greedy turns)" in text


class MarginRecording(SearchPlayer):
    """A search that records the margin each decision weighs the prior's choice by."""

    def __init__(self) -> None:
        prior = player_for("heuristic")
        super().__init__("search", iterations=30, prior=prior, margin=0.25, late_margin=0.125)
        self.margins: list[float | None] = []

    def prefer_prior(
        self,
        root: object,
        best: Action,
        hint: Action,
        card_key: list[int],
        margin: float | None = None,
    ) -> Action:
        self.margins.append(margin)
        return super().prefer_prior(root, best, hint, card_key, margin)  # type: ignore[arg-type]


@pytest.mark.parametrize(("variant", "seed"), [("ordinary", 3), ("three-hand", 5)])
def test_the_late_margin_holds_in_the_last_tricks_before_the_stock_runs_out(
    variant: str, seed: int
) -> None:
    """The prior's choice is weighed by ``late_margin`` while the stock (turn-up counted)
    lasts at most ``LATE_TRICKS`` more tricks, a card to every seat each, else by ``margin``."""
    state = new_game(variant, seed=seed)
    player = MarginRecording()
    rng = random.Random(seed)
    seen = set()
    while state.stock_left() > 0:
        if len(state.legal_actions()) > 1:
            cards = len(state.stock) + (state.turn_up >= 0)
            late = cards <= LATE_TRICKS * state.players
            player.margins.clear()
            decide(player, state, random.Random(1))
            assert player.margins == [0.125 if late else 0.25], (cards, late)
            seen.add(late)
        state.apply(rng.choice(state.legal_actions()))
    assert seen == {True, False}

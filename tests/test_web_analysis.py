"""The web table's analysis: exact end-game values, estimates from a view, a game's review.

* The exact values of a stacked end-game (ordinary rules: in the last eight tricks
  only the brisques score, the last trick's ten having gone with the stock) are the
  ones worked out by hand below, and a plain minimax over the kernel's legal actions
  gives the same; the best of them is the solver's.
* The estimates read the seat's view only: two deals that differ in the other's hand
  and the stock alone, and look the same to the seat, give the same estimates.
* The review finds an ace thrown away where a low card would do, and costs it as the
  decision benchmark costs a choice.
"""

from __future__ import annotations

import json
import math
import random
import statistics

import pytest
from stacked import through_stock

from bezique.bench.decisions import action_worths
from bezique.errors import RecordError
from bezique.game import GameState, new_game
from bezique.players import decide, player_for
from bezique.players.endgame import solve
from bezique.players.worlds import WorldSampler
from bezique.records.record import record_of
from bezique.testing import play_out, scenario
from bezique.web.analysis import AnalysisError, estimates, exact_values, review

# ---------------------------------------------------------------------- exact values

END1 = ["AS", "7S", "7C", "KD", "QD", "JD", "KD", "QD"]
"""Seat 1's hand once the stock is gone (it won every trick of the stock)."""
END0 = ["TS", "8C", "TH", "9D", "8D", "9D", "8D", "7D"]
"""Seat 0's: the seven of diamonds is the turn-up it took last (diamonds are trumps)."""


def after_the_stock() -> GameState:
    """Seat 1 has won every trick of the stock, declaring nothing, and leads."""
    hands, turn_up, stock, leads, follows = through_stock(END1, END0)
    state = scenario("ordinary", hands=hands, turn_up=turn_up, stock=stock)
    for lead, follow in zip(leads, follows, strict=True):
        play_out(state, [f"play {lead}", f"play {follow}"])
        while state.phase == "turn":
            state.apply("draw")
    assert state.stock_left() == 0 and state.to_act == 1
    return state


def three_cards_each() -> GameState:
    """Five trump tricks later: seat 1 holds AS 7S 7C, seat 0 TS 8C TH; seat 1 leads."""
    state = after_the_stock()
    leads, follows = ["KD", "QD", "JD", "KD", "QD"], ["9D", "8D", "9D", "8D", "7D"]
    for lead, follow in zip(leads, follows, strict=True):
        play_out(state, [f"play {lead}", f"play {follow}"])
    return state


def minimax(state: GameState, side: int, hand_no: int, start: list[int]) -> int:
    """The lead in points ``side`` gains to the hand's end by plain minimax (no memo)."""
    if state.is_over() or state.hand_no != hand_no:
        gained = [now - before for now, before in zip(state.scores, start, strict=True)]
        return gained[side] - gained[1 - side]
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append(minimax(child, side, hand_no, start))
    return max(values) if state.side_of[state.to_act] == side else min(values)


def test_the_end_game_values_are_worked_out_by_hand() -> None:
    """The duties: follow suit, and win the trick if able (S0's last eight tricks).

    AS: TS must fall to it (+20); then 7S, which TH or 8C cannot beat, and 7C, which
    takes whichever is left: TH falls either way (+10): +30.
    7S: TS must take it (-10); seat 0 keeps the lead and makes the ace fall (leading
    8C then TH, or TH then 8C): -20 more: -30.
    7C: 8C must take it; seat 0 then leads TS (the ace takes it, +20, and TH falls to
    7S, +10: +30) or TH (7S thrown on it, -10, then the ace takes TS, +20: +10): +10.
    """
    state = three_cards_each()
    before = state.to_json()
    values = exact_values(state, 1)
    assert values == {"play AS": 30, "play 7S": -30, "play 7C": 10}
    assert state.to_json() == before  # the actions were tried on copies
    start = list(state.scores)
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        assert values[state.action_text(action)] == minimax(child, 1, state.hand_no, start)
    best_value, best = solve(state, 1)
    assert (best_value, state.action_text(best)) == (30, "play AS")


def test_the_whole_end_game_is_solved_as_the_solver_solves_it() -> None:
    state = after_the_stock()
    values = exact_values(state, 1)
    assert values is not None
    assert sorted(values) == sorted(state.action_text(a) for a in state.legal_actions())
    best_value, best = solve(state, 1)
    assert max(values.values()) == best_value == values[state.action_text(best)]


def test_no_exact_values_before_the_stock_is_gone_or_beyond_the_budget() -> None:
    fresh = new_game("ordinary", seed=4)
    assert exact_values(fresh, fresh.to_act) is None  # the stock lasts
    assert exact_values(after_the_stock(), 1, max_nodes=10) is None  # too large for 10


def test_no_exact_values_with_more_than_two_hands() -> None:
    """Four hands in two partnerships: the unseen cards lie in three hands, not one."""
    state = new_game("four-hand-partners", seed=2)
    rng = random.Random(2)
    while state.stock_left() or state.phase != "play" or state.turn_up >= 0:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert not state.is_over() and state.hand_no == 0
    assert exact_values(state, state.to_act) is None


def test_the_seat_must_be_to_act() -> None:
    with pytest.raises(AnalysisError, match=r"seat 0 is not to act \(seat 1 is\)"):
        exact_values(three_cards_each(), 0)
    with pytest.raises(AnalysisError, match="seat 0 is not to act"):
        estimates(three_cards_each(), 0, 10, 1)


# ---------------------------------------------------------------------- estimates

SEAT0 = ["AS", "7C", "KH", "QS", "JD", "9H", "8C", "TD"]


def seat0_leads(other: list[str], stock: list[str]) -> GameState:
    """Seat 0 holds :data:`SEAT0` and leads; the nine of diamonds is turned up."""
    return scenario("ordinary", hands=[SEAT0, other], turn_up="9D", stock=stock, dealer=1)


def test_estimates_read_only_the_view() -> None:
    """The other's hand and the stock differ; seat 0 sees the same, and estimates the same."""
    one = seat0_leads(["7S", "8S", "9S", "7H", "8H", "9C", "7D", "8D"], ["AC", "TC"])
    two = seat0_leads(["AC", "TC", "9S", "KC", "8H", "QC", "7D", "8D"], ["7S", "8S", "7H"])
    assert one.hands[1] != two.hands[1] and one.stock != two.stock
    assert one.view(0).observation == two.view(0).observation
    before = one.to_json()
    found = estimates(one, 0, 17, 3)
    assert found == estimates(two, 0, 17, 3)
    assert one.to_json() == before
    assert sorted(found) == sorted(one.action_text(a) for a in one.legal_actions())
    assert len(found) == 8
    assert all(error > 0 for _, error in found.values())  # two or three play-outs each
    assert found != estimates(one, 0, 17, 4)  # another seed, other worlds
    json.dumps(found)


def test_an_estimate_is_the_leads_of_the_actions_played_out_in_the_views_worlds() -> None:
    """With one play-out an action, each is the lead in one world dealt from the view."""
    state = seat0_leads(["7S", "8S", "9S", "7H", "8H", "9C", "7D", "8D"], ["AC", "TC"])
    legal = state.legal_actions()
    rng = random.Random(5)
    world = WorldSampler(state.view(0)).sample(rng)
    order = rng.randrange(1 << 62)
    expected = {
        state.action_text(action): (action_worths(world, action, 1, order)[0], 0.0)
        for action in legal
    }
    assert estimates(state, 0, len(legal), 5) == expected


def test_the_estimates_budget_is_bounded_in_words() -> None:
    state = seat0_leads(["7S", "8S", "9S", "7H", "8H", "9C", "7D", "8D"], ["AC", "TC"])
    said = r"from 8 play-outs \(one for each legal action\) to 100000, not 7"
    with pytest.raises(AnalysisError, match=said):
        estimates(state, 0, 7, 1)


# ---------------------------------------------------------------------- review


OTHER = ["7S", "8S", "9S", "7H", "8H", "9C", "7D", "8D"]


def game_with_an_ace_thrown() -> GameState:
    """Seat 1 leads the seven of hearts and seat 0 throws the ace of spades on it, giving
    the ace away (the heuristic plays 9H); then the heuristic plays both seats on for
    twenty actions (its choices are the same whatever its generator draws)."""
    state = scenario("ordinary", hands=[SEAT0, OTHER], turn_up="9D", stock=["AC", "TC"])
    play_out(state, ["play 7H", "play AS"])
    heuristic, rng = player_for("heuristic"), random.Random(0)
    for _ in range(20):
        state.apply(decide(heuristic, state, rng))
    return state


def test_the_review_finds_the_ace_thrown_away() -> None:
    """Against the heuristic, the ace is the one choice apart, costed as the decision
    benchmark costs a choice: the paired difference of the two actions' leads at the
    hand's end over the same orders of the stock.  (While the stock lasts a lead's
    spread over the orders is hundreds of points, the draws following the tricks'
    winners: the cost of one such choice is told with its error.)"""
    state = game_with_an_ace_thrown()
    before = state.to_json()
    items = review(state, 0, "heuristic", orders=6, seed=10)
    assert state.to_json() == before
    assert [(item["index"], item["hand"], item["played"], item["bot"]) for item in items] == [
        (1, 0, "play AS", "play 9H")
    ]
    # found as the log counts (the first trick of the first hand), the move played told
    # as the log tells it, the bot's as a choice is offered
    assert (items[0]["trick"], items[0]["when"]) == (1, "hand 1, trick 1")
    assert (items[0]["played_words"], items[0]["bot_words"]) == ("played AS", "play 9H")
    position = scenario("ordinary", hands=[SEAT0, OTHER], turn_up="9D", stock=["AC", "TC"])
    play_out(position, ["play 7H"])
    seed = 10 + 1  # the seed plus the position's index
    better = action_worths(position, position.parse_action("play 9H"), 6, seed)
    worse = action_worths(position, position.parse_action("play AS"), 6, seed)
    costs = [b - w for b, w in zip(better, worse, strict=True)]
    assert items[0]["cost"] == statistics.mean(costs)
    assert items[0]["error"] == pytest.approx(statistics.stdev(costs) / math.sqrt(6))


SEARCH = "search:iterations=60"


def game_with_end_game_blunders() -> tuple[GameState, list[int]]:
    """Seeded hand 0 of an ordinary game: seat 0 plays the search's choices (its generator
    seeded by the position's index, as the review seeds it), seat 1 the heuristic's,
    but at seat 0's first two end-game choices with unequal exact values it plays
    the worst.  Returns the hand played out, and the blunders' indices."""
    state, rng = new_game("ordinary", seed=1), random.Random(0)
    bot, heuristic = player_for(SEARCH), player_for("heuristic")
    blunders: list[int] = []
    while not state.is_over() and state.hand_no == 0:
        values = exact_values(state, 0) if state.to_act == 0 and len(blunders) < 2 else None
        if values is not None and len(set(values.values())) > 1:
            blunders.append(len(state.history))
            state.apply(min(values, key=lambda text: values[text]))
        elif state.to_act == 0:
            state.apply(decide(bot, state, random.Random(len(state.history))))
        else:
            state.apply(decide(heuristic, state, rng))
    return state, blunders


@pytest.mark.slow  # the quick run reviews one game: the ace thrown away
def test_the_review_ranks_the_end_game_blunders_costliest_first() -> None:
    """After the stock the play-outs leave nothing to chance: each cost is exact (error
    nought), the heuristic's play to the hand's end after each action.  A record of the
    game is reviewed as the game is; the items are JSON data."""
    state, blunders = game_with_end_game_blunders()
    assert len(blunders) == 2
    items = review(state, 0, SEARCH, orders=3)
    assert sorted(item["index"] for item in items) == blunders  # every other choice the bot's
    replayed = new_game("ordinary", seed=1)
    costs = {}
    for index, action in enumerate(state.history):
        if index in blunders:
            best = solve(replayed, 0)[1]  # the search's choice: the end-game solved
            better, worse = (action_worths(replayed, a, 3, index) for a in (best, action))
            costs[index] = statistics.mean(b - w for b, w in zip(better, worse, strict=True))
            assert better == [better[0]] * 3 and worse == [worse[0]] * 3
        replayed.apply(action)
    assert [(item["index"], item["cost"], item["error"]) for item in items] == sorted(
        ((index, cost, 0.0) for index, cost in costs.items()), key=lambda found: -found[1]
    )
    assert items[0]["cost"] > items[1]["cost"] > 0
    assert review(record_of(state), 0, SEARCH, orders=3) == items
    assert review(state, 0, SEARCH, limit=1, orders=3) == items[:1]
    assert json.loads(json.dumps(items)) == items


def test_the_review_refuses_bad_requests_in_words() -> None:
    state = game_with_an_ace_thrown()
    with pytest.raises(AnalysisError, match="seat 2: the game's seats are 0 to 1"):
        review(state, 2, "heuristic")
    with pytest.raises(AnalysisError, match=r"2 to 100000 orders of the stock \(not 1\)"):
        review(state, 0, "heuristic", orders=1)
    record = record_of(state)
    record["actions"][3] = "play AS"
    with pytest.raises(RecordError, match="action 3"):
        review(record, 0, "heuristic")

"""Random games of every shipped variant, checked at every action (OpenSpiel's random_sim_test).

Every variant file in ``variants/`` and the third-party eight-pack plays seeded games
between random players through ``bezique.testing.check_random_games``:

* ``GAMES`` games of each to their end, and the first ``REFEREED_HANDS`` hands of a refereed game
  with irregularities reported at random, with every check at every action: the
  invariants, the legal actions listed without repeats
  (no two equal, no two of the same text or id), a clone equal to the state, listing the
  same legal actions and going on alike under the next action (and leaving the state as
  it was), and the game's length within ``game_length_bound``; at the first
  ``THOROUGH`` actions, every ``EVERY``-th after and at the end, the state saved and
  loaded again too (``from_json(state.to_json())``, checked as the clone is), each text
  read back as its action, and every seat's view and observation against the cards that
  seat has seen by the public record of the hand (``SeenCards``);
* ``MORE_GAMES`` more games of each, checked only for their length and for a legal
  action, listed once, at every decision to the end.

The tests after them plant each kind of defect (an action listed twice, a clone that
differs or shares the original's lists, a view that knows an unseen card, a game longer
than its bound) and see the check catch it.

``from_json`` replays the whole history, so saving and loading at every action of a
whole game would cost its length squared: about 3 CPU-seconds for one game of the
ordinary game, 40 for four-hand.  Clones are checked at every action instead; the saved
copy at about 40 points of each game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from quick import quick_for_one

from bezique.actions import Kind
from bezique.game import GameState, new_game, ruleset_for
from bezique.testing import (
    GameLength,
    SeenCards,
    check_legal_actions,
    check_random_games,
    check_round_trip,
    check_views,
    game_length_bound,
    scenario,
)
from bezique.variant import variant_summaries

VARIANTS = [name for name, _ in variant_summaries()]
SHIPPED = sorted(path.stem for path in (Path(__file__).parent.parent / "variants").glob("*.yaml"))
THOROUGH = 24
EVERY = 48
GAMES = 2
MORE_GAMES = 3
REFEREED_HANDS = 3
SEED = 27


def test_every_shipped_variant_and_the_eight_pack_are_simulated() -> None:
    assert set(SHIPPED) | {"eight-pack"} <= set(VARIANTS)


@pytest.mark.parametrize("variant", quick_for_one(VARIANTS))
def test_a_random_game_conforms_at_every_action(variant: str) -> None:
    games = check_random_games(variant, games=GAMES, seed=SEED, thorough=THOROUGH, every=EVERY)
    assert len(games) == GAMES and all(state.is_over() for state in games)


@pytest.mark.parametrize("variant", quick_for_one(VARIANTS))
def test_a_refereed_random_game_conforms_at_every_action(variant: str) -> None:
    (state,) = check_random_games(
        variant,
        games=1,
        seed=SEED,
        referee=True,
        thorough=THOROUGH,
        every=EVERY,
        hands=REFEREED_HANDS,
    )
    assert state.at_table and (state.is_over() or state.hand_no == REFEREED_HANDS)
    assert any(action.kind == Kind.IRREGULAR for action in state.history)


@pytest.mark.parametrize("variant", quick_for_one(VARIANTS))
def test_random_games_end_within_their_bound(variant: str) -> None:
    rules = ruleset_for(variant)
    bound = game_length_bound(rules)
    assert bound is not None
    rng = random.Random(f"{variant} {SEED}")
    for _ in range(MORE_GAMES):
        state = new_game(rules, seed=rng.randrange(2**63))
        while not state.is_over():
            legal = state.legal_actions()
            assert legal, f"no legal action before the end (seed {state.seed})"
            assert len(set(legal)) == len(legal), f"an action listed twice (seed {state.seed})"
            state.apply(legal[rng.randrange(len(legal))])
            assert len(state.history) <= bound.actions, f"seed {state.seed}"
        assert state.hand_no < bound.hands and state.legal_actions() == []


# --------------------------------------------------------------------------- the bounds


def test_the_length_bound_counts_the_points_every_hand_scores() -> None:
    # Ordinary: 16 brisques of 10 and the last trick's 10 make 170 a hand; two players
    # hold 2000 between them by the 12th hand, so one has 1000.  A hand: at most three
    # actions a card, and a question for each seat.
    assert game_length_bound(ruleset_for("ordinary")) == GameLength(12, 12 * (3 * 64 + 2))
    # Four-hand partnerships: 32 brisques and the last trick, 330 a hand, two sides to 2000.
    assert game_length_bound(ruleset_for("four-hand-partners")).hands == 13  # type: ignore[union-attr]
    # Rubicon counts the brisques only at the settlement: the last trick's 50 ends it.
    assert game_length_bound(ruleset_for("rubicon")).hands == 1  # type: ignore[union-attr]
    nothing = {"brisques": {"timing": "settlement"}, "last_trick": {"points": 0}}
    assert game_length_bound(ruleset_for("ordinary", nothing)) is None


def test_a_game_longer_than_its_bound_is_caught() -> None:
    with pytest.raises(AssertionError, match="longer than its bound: 2 hands"):
        check_random_games("ordinary", games=1, seed=1, length=GameLength(1, 10_000))


def test_rules_without_a_bound_must_be_given_one() -> None:
    nothing = {"brisques": {"timing": "settlement"}, "last_trick": {"points": 0}}
    with pytest.raises(ValueError, match="no bound"):
        check_random_games("ordinary", overrides=nothing, games=1)


# --------------------------------------------------------------------------- planted defects


def _position(variant: str = "ordinary", actions: int = 40) -> GameState:
    state = new_game(variant, seed=5)
    rng = random.Random(5)
    for _ in range(actions):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def test_a_legal_action_listed_twice_is_caught() -> None:
    state = _position()
    legal = check_legal_actions(state)
    state._legal = [*legal, legal[0]]  # the cache the kernel answers from
    with pytest.raises(AssertionError, match="listed twice"):
        check_legal_actions(state)


def test_a_clone_that_differs_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _position()
    clone = GameState.clone

    def faulty(self: GameState) -> GameState:
        copy = clone(self)
        copy.scores = [score + 10 for score in copy.scores]
        return copy

    monkeypatch.setattr(GameState, "clone", faulty)
    with pytest.raises(AssertionError, match="a copy differs"):
        check_round_trip(state, state.legal_actions()[0])


def test_a_clone_sharing_the_original_s_hands_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _position()
    while state.phase != "play":
        state.apply(state.legal_actions()[-1])
    clone = GameState.clone

    def shallow(self: GameState) -> GameState:
        copy = clone(self)
        copy.hands = self.hands
        return copy

    monkeypatch.setattr(GameState, "clone", shallow)
    with pytest.raises(AssertionError, match="changed the original"):
        check_round_trip(state, state.legal_actions()[0])


def test_a_view_showing_an_unseen_card_is_caught() -> None:
    state = new_game("ordinary", seed=5)
    seen = SeenCards(state)  # (from the deal on)
    check_views(state, seen)
    state.expose(state.hands[1][3])  # as if every seat had seen it
    with pytest.raises(AssertionError, match="knows unseen cards of seat 1"):
        check_views(state, seen)


def test_the_seen_cards_follow_the_public_record() -> None:
    """Seat 0 declares a bezique: both cards are seen in his hand until he plays them."""
    state = scenario(
        "ordinary",
        hands=[
            ["QS", "JD", "KS", "AH", "7C", "8C", "9C", "TD"],
            ["KH", "QH", "JS", "JH", "JC", "9D", "8D", "7S"],
        ],
        turn_up="9H",
        stock=["AS", "7H"],
    )
    seen = SeenCards(state)
    for text in ("play JS", "play KS", "declare bezique QS JD", "draw", "play QS*"):
        before = seen.before(state)
        state.apply(text)
        seen.after(state, state.history[-1], before)
        check_views(state, seen)
    faces = [state.deck.card_text(c) for c in seen.seen[0]]
    assert faces == ["JD"] and not seen.seen[1]
    assert [state.deck.card_text(c) for c in state.view(1).known[0]] == ["JD"]


def test_the_turn_up_taken_by_the_exchange_is_seen() -> None:
    state = scenario(
        "ordinary",
        hands=[
            ["7H", "JD", "KS", "AH", "7C", "8C", "9C", "TD"],
            ["KH", "QH", "JS", "JH", "JC", "9D", "8D", "7S"],
        ],
        turn_up="AH",
        stock=["AS", "7D"],
    )
    seen = SeenCards(state)
    for text in ("play JS", "play KS", "exchange 7H"):
        before = seen.before(state)
        state.apply(text)
        seen.after(state, state.history[-1], before)
    assert sorted(state.deck.card_text(c) for c in seen.seen[0]) == ["AH"]
    check_views(state, seen)

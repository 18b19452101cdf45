"""Random-simulation conformance of ``ordinary`` (OpenSpiel's ``random_sim_test`` idea).

Random players pick uniformly from ``legal_actions()`` and ``apply()`` the pick.  Which
checks run where (hands counted per run; a run is one seed of one rules setting):

* ``check_invariants`` after every action of every game: the default variant plays
  4 seeds x at least 500 hands (at least 2,000 hands, about 240 games); each of the
  four switches, and all four at once, at least 50 hands (at least 250 more).
* ``from_json(to_json())`` equal to ``to_json()`` after every action of the first hand
  in the first game of every run (``FULL_ROUND_TRIP_EVERY``: games 0, 60, ...), and in
  every game at about ``ROUND_TRIPS_PER_GAME`` random points and at its end.
  ``from_json`` replays the whole history to check the saved state against it, about
  twenty microseconds an action of the history, hence the share.
* ``replay(record_of(state))`` equal to the state, and ``clone()`` equal and
  independent (an action applied to the clone leaves the original's JSON as it was),
  at the end of every game (about 270 games) and at a random midpoint of about every
  third game (``REPLAYS_PER_GAME``).

``from_json`` and ``replay`` rebuild the ruleset from the variant's name and overrides
(and compare it with the rules the state or record carries); the library keeps the
ruleset of a registered variant once loaded; ``test_round_trip_rebuilds_the_rules_from_the_file``
checks the path through a variant file, which is loaded every time.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from bezique.errors import IllegalActionError
from bezique.game import GameState, from_json, new_game
from bezique.records.record import record_of, replay
from bezique.testing import check_invariants

VARIANT = "ordinary"
DEFAULT_SEEDS = (11, 22, 33, 44)
DEFAULT_HANDS_PER_SEED = 500
SWITCH_HANDS = 50
FULL_ROUND_TRIP_EVERY = 60
ROUND_TRIPS_PER_GAME = 3
REPLAYS_PER_GAME = 0.3
ACTIONS_PER_GAME = 600
"""Roughly how many actions a game of ordinary takes (to pace the midpoint samples)."""

SWITCHES: dict[str, dict[str, Any]] = {
    "per_trick_one": {"declarations": {"per_trick": "one"}},
    "brisques_end_of_hand": {"brisques": {"timing": "end_of_hand"}},
    "last_trick_final": {"last_trick": {"which": "final"}},
    "check_hand_end": {"game": {"check": "hand_end"}},
    "all_switches": {
        "declarations": {"per_trick": "one"},
        "brisques": {"timing": "end_of_hand"},
        "last_trick": {"which": "final"},
        "game": {"check": "hand_end"},
    },
}


# --------------------------------------------------------------------------- the checks


def assert_json_round_trip(state: GameState, through_text: bool = False) -> None:
    data = state.to_json()
    rebuilt = from_json(data)
    assert rebuilt.to_json() == data
    assert rebuilt.rules.data == state.rules.data
    if through_text:  # saved as JSON text and read back, as a file would be
        assert from_json(json.loads(json.dumps(data))).to_json() == data


def assert_replay_reproduces(state: GameState) -> None:
    record = record_of(state)
    json.dumps(record)
    assert replay(record).to_json() == state.to_json()


def assert_clone_equal_and_independent(state: GameState, rng: random.Random) -> None:
    before = state.to_json()
    copy = state.clone()
    assert copy.to_json() == before
    assert copy == state
    if state.is_over():
        return
    action = rng.choice(copy.legal_actions())
    twin = state.clone()
    copy.apply(action)
    check_invariants(copy)
    assert state.to_json() == before, "applying an action to a clone changed the original"
    assert state.legal_actions() == twin.legal_actions()
    # The clone is a full game: the same action on another clone gives the same state.
    twin.apply(action)
    assert twin.to_json() == copy.to_json()
    assert state.to_json() == before


def assert_finished(state: GameState) -> None:
    assert state.is_over()
    assert state.legal_actions() == []
    assert 0 <= state.winner < state.players
    if state.rules.one_deal:  # over with its one hand, the higher total winning
        assert state.hand_no == 0 and state.scores[state.winner] == max(state.scores)
    else:
        assert state.scores[state.winner] >= state.rules.data["game"]["target"]
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply("draw")
    assert state.to_json() == before


def random_game(
    overrides: Mapping[str, Any] | None,
    seed: int,
    rng: random.Random,
    *,
    round_trip_every_action: bool,
) -> GameState:
    """Play one game between uniformly random players, checking as the module says."""
    state = new_game(VARIANT, overrides=overrides, seed=seed)
    check_invariants(state)
    assert_json_round_trip(state)
    round_trip_rate = ROUND_TRIPS_PER_GAME / ACTIONS_PER_GAME
    replay_rate = REPLAYS_PER_GAME / ACTIONS_PER_GAME
    while not state.is_over():
        legal = state.legal_actions()
        assert legal, "no legal action before the game's end"
        assert len(set(legal)) == len(legal), "an action is listed twice"
        state.apply(rng.choice(legal))
        check_invariants(state)
        if (round_trip_every_action and state.hand_no == 0) or rng.random() < round_trip_rate:
            assert_json_round_trip(state)
        if rng.random() < replay_rate:
            assert_json_round_trip(state, through_text=True)
            assert_replay_reproduces(state)
            assert_clone_equal_and_independent(state, rng)
    assert_finished(state)
    check_invariants(state)
    assert_json_round_trip(state, through_text=True)
    assert_replay_reproduces(state)
    assert_clone_equal_and_independent(state, rng)
    return state


def simulate(overrides: Mapping[str, Any] | None, seed: int, hands: int) -> int:
    """Play games until ``hands`` hands are done; return the hands played."""
    rng = random.Random(seed)
    played = games = 0
    while played < hands:
        full = games % FULL_ROUND_TRIP_EVERY == 0
        state = random_game(overrides, rng.randrange(2**63), rng, round_trip_every_action=full)
        played += state.hand_no + 1
        games += 1
    return played


# --------------------------------------------------------------------------- the runs


@pytest.mark.slow  # the quick run's random games of the ordinary game: tests/test_random_sim.py
@pytest.mark.parametrize("seed", DEFAULT_SEEDS)
def test_random_games_default_rules(seed: int) -> None:
    assert simulate(None, seed, DEFAULT_HANDS_PER_SEED) >= DEFAULT_HANDS_PER_SEED


@pytest.mark.slow
@pytest.mark.parametrize("switch", sorted(SWITCHES))
def test_random_games_with_switches(switch: str) -> None:
    overrides = SWITCHES[switch]
    state = new_game(VARIANT, overrides=overrides, seed=0)
    for section, values in overrides.items():
        for key, value in values.items():
            assert state.rules.data[section][key] == value
    assert simulate(overrides, 1000 + len(switch), SWITCH_HANDS) >= SWITCH_HANDS


def test_round_trip_rebuilds_the_rules_from_the_file() -> None:
    """The real from_json / replay path, with the variant reloaded from its file each time."""
    overrides = SWITCHES["all_switches"]
    rng = random.Random(7)
    for seed in (1, 2):
        state = new_game(VARIANT, overrides=overrides, seed=seed)
        while not state.is_over() and state.hand_no < 1:
            state.apply(rng.choice(state.legal_actions()))
            if rng.random() < 0.02:
                assert_json_round_trip(state)
        assert_json_round_trip(state)
        assert from_json(state.to_json()).rules.data["game"]["check"] == "hand_end"
        assert_replay_reproduces(state)


# --------------------------------------------------------------------------- determinism


def play_random(state: GameState, rng: random.Random, limit: int) -> list[str]:
    texts = []
    for _ in range(limit):
        if state.is_over():
            break
        action = rng.choice(state.legal_actions())
        texts.append(state.action_text(action))
        state.apply(action)
    return texts


@pytest.mark.parametrize("seed", [0, 5, 2**40 + 3])
def test_same_seed_and_actions_give_the_same_game(seed: int) -> None:
    random.seed(1)  # the global generator must play no part
    first = new_game(VARIANT, seed=seed)
    random.seed(2)
    second = new_game(VARIANT, seed=seed)
    assert first.to_json() == second.to_json()
    texts = play_random(first, random.Random(seed), 2_000)
    random.seed(3)
    for text in texts:
        second.apply(text)
    assert second.to_json() == first.to_json()
    # The same random players with the same generator make the same game again.
    third = new_game(VARIANT, seed=seed)
    assert play_random(third, random.Random(seed), 2_000) == texts
    assert third.to_json() == first.to_json()


def test_different_seeds_deal_differently() -> None:
    deals = {json.dumps(new_game(VARIANT, seed=seed).to_json()["hands"]) for seed in range(5)}
    assert len(deals) == 5


def test_no_seed_still_replays() -> None:
    state = new_game(VARIANT)
    play_random(state, random.Random(0), 300)
    assert isinstance(state.seed, int)
    assert_replay_reproduces(state)


# --------------------------------------------------------------------------- playout


def rebuilt_by_apply(state: GameState) -> GameState:
    fresh = new_game(VARIANT, overrides=state.overrides or None, seed=state.seed)
    for action in state.history:
        fresh.apply(action)
    return fresh


@pytest.mark.parametrize("switch", ["default", *sorted(SWITCHES)])
def test_playout_history_replays_through_apply(switch: str) -> None:
    overrides = SWITCHES.get(switch)
    for seed in range(8):
        state = new_game(VARIANT, overrides=overrides, seed=seed)
        decisions = state.playout(random.Random(seed), hands=None)
        assert decisions == len(state.history)
        assert_finished(state)
        check_invariants(state)
        assert rebuilt_by_apply(state).to_json() == state.to_json()
    assert_replay_reproduces(state)


def test_playout_one_hand_at_a_time() -> None:
    rng = random.Random(99)
    for seed in range(6):
        state = new_game(VARIANT, seed=seed)
        while not state.is_over():
            hand, length = state.hand_no, len(state.history)
            decisions = state.playout(rng, hands=1)
            assert decisions == len(state.history) - length > 0
            assert state.is_over() or state.hand_no == hand + 1
            check_invariants(state)
            if not state.is_over():
                assert state.tricks_done == 0 and not state.trick
                # Mix in some moves through the public API, then go on with playout.
                play_random(state, rng, rng.randrange(0, 30))
                check_invariants(state)
        assert rebuilt_by_apply(state).to_json() == state.to_json()


def test_playout_is_deterministic() -> None:
    first = new_game(VARIANT, seed=4)
    second = first.clone()
    first.playout(random.Random(8), hands=None)
    second.playout(random.Random(8), hands=None)
    assert first.to_json() == second.to_json()


def test_clones_share_the_generator_until_one_shuffles_and_stay_independent() -> None:
    """A clone and its original each deal their next hands as if the other never existed."""

    def first_hand() -> tuple[GameState, random.Random]:
        state, players = new_game("ordinary", seed=11), random.Random(1)
        state.playout(players, hands=1)  # the first hand, and the second one dealt
        return state, players

    reference, players = first_hand()
    reference.playout(players, hands=None)
    assert reference.hand_no >= 2  # a hand was shuffled after the point of the clones
    other, _ = first_hand()
    other.playout(random.Random(99), hands=None)  # the same game, played on otherwise
    for first in ("original", "clone"):
        state, players = first_hand()
        copy = state.clone()
        if first == "clone":
            copy.playout(random.Random(99), hands=None)
        state.playout(players, hands=None)
        copy.playout(random.Random(99), hands=None)
        assert state.to_json() == reference.to_json(), first
        assert copy.to_json() == other.to_json(), first

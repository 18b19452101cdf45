"""A game of one deal in the data (``game.end: one_deal``): the schema, the checks, compare,
and the rules earlier versions recorded with a placeholder ``game.target: 1``."""

from __future__ import annotations

import copy
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

from bezique.compare.comparison import NOT_USED, compare
from bezique.errors import VariantError
from bezique.game import from_json, new_game, ruleset_for
from bezique.records.record import record_of, replay
from bezique.rules.pinned import POLICIES, digest_of, same_rules
from bezique.variant import load_variant

ONE_DEAL_VARIANTS = ("rubicon", "six-pack", "six-pack-lift", "eight-pack")


def problem(overrides: dict[str, Any], name: str = "ordinary") -> str:
    with pytest.raises(VariantError) as info:
        load_variant(name, overrides)
    return str(info.value)


@pytest.mark.parametrize("name", ONE_DEAL_VARIANTS)
def test_the_one_deal_games_say_so_and_hold_no_target(name: str) -> None:
    rules = ruleset_for(name)
    assert rules.data["game"]["end"] == "one_deal" and "target" not in rules.data["game"]
    assert (rules.target, rules.one_deal) == (None, True)


def test_a_house_rule_of_one_deal_without_a_target_validates_and_plays_one_hand(
    tmp_path: Path,
) -> None:
    path = tmp_path / "once.yaml"
    path.write_text(
        "name: once\nextends: ordinary\nsummary: One deal.\ngame:\n  end: one_deal\n"
        "  target: null\n",
        encoding="utf-8",
    )
    state = new_game(str(path), seed=4)
    assert state.rules.target is None
    state.playout(random.Random(4))
    assert state.is_over() and state.hand_no == 0
    best = max(state.scores)
    assert state.winner == (state.scores.index(best) if state.scores.count(best) == 1 else -1)


def test_a_game_to_a_target_needs_its_target() -> None:
    assert problem({"game": {"target": None}}) == (
        "<overrides>: game: the key 'target' is missing (the score that wins the game; a game "
        "of one deal says game.end: one_deal instead)"
    )


def test_a_game_of_one_deal_has_no_target() -> None:
    expected = (
        "<overrides>: game: a game of one deal (game.end: one_deal) has no target: leave "
        "game.target out (write target: null to delete an inherited one)"
    )
    assert problem({"game": {"end": "one_deal"}}) == expected
    assert problem({"game": {"target": 1}}, "rubicon") == expected
    assert "is not allowed; use one of: target, one_deal" in problem({"game": {"end": "once"}})


def test_the_rubicon_settlement_needs_a_game_of_one_deal() -> None:
    assert problem({"game": {"end": "target", "target": 1500}}, "rubicon") == (
        "<overrides>: game.end: the Rubicon settlement ends a game of one deal (R20), not one "
        "to a target; set game.end: one_deal and leave game.target out (target: null)"
    )


def test_a_game_of_one_deal_that_scores_nothing_still_ends() -> None:
    nothing = {"last_trick": {"points": 0}, "game": {"end": "one_deal", "target": None}}
    rules = ruleset_for("ordinary", nothing | {"brisques": {"points": 0}})
    assert rules.one_deal  # no "no one can reach game.target" problem: one deal ends anyway


def test_compare_leaves_out_the_target_figure_of_a_game_of_one_deal() -> None:
    done = compare(("ordinary", "rubicon"), 2, 1, players="random")
    ordinary, rubicon = done.result["per_variant"]
    assert rubicon["figures"]["both_over_target"] == NOT_USED
    assert ordinary["figures"]["both_over_target"]["value"] is not None
    assert [g.both_over for g in done.games[1]] == [0, 0] and {g.hands for g in done.games[1]} == {
        1
    }
    (pair,) = done.result["pairs"]
    assert pair["figures"]["both_over_target"]["difference"] is None


# --------------------------------------------------------------- rules recorded before game.end


def as_recorded_before(data: dict[str, Any]) -> dict[str, Any]:
    """A one-deal variant's data as earlier versions merged it: ``game.target: 1``, no ``end``."""
    old = copy.deepcopy(data)
    del old["game"]["end"]
    old["game"]["target"] = 1
    return old


def rubicon_game() -> Any:
    state = new_game("rubicon", seed=6)
    state.playout(random.Random(6))
    assert state.is_over()
    return state


def test_a_recorded_placeholder_target_is_the_same_rules_as_one_deal() -> None:
    now = ruleset_for("rubicon").data
    from bezique.rules.pinned import in_current_form

    old = as_recorded_before(now)
    assert not same_rules(old, now)  # as written: a target of 1 ...
    assert same_rules(in_current_form(old), now)  # ... which meant one deal
    ordinary = ruleset_for("ordinary").data
    assert in_current_form(ordinary) is ordinary  # no rubicon plugin: a target game as it was


@pytest.mark.parametrize("policy", POLICIES)
def test_a_record_of_an_earlier_version_replays_without_a_word(policy: str) -> None:
    state = rubicon_game()
    record = record_of(state)
    record["variant_data"] = as_recorded_before(record["variant_data"])
    record["variant_digest"] = digest_of(record["variant_data"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rebuilt = replay(record, "game.json", rules=policy)
    assert rebuilt.scores == state.scores and rebuilt.winner == state.winner
    assert rebuilt.rules.one_deal and rebuilt.to_json() == state.to_json()


def test_a_saved_state_of_an_earlier_version_loads_without_a_word() -> None:
    state = new_game("six-pack", seed=2)
    state.playout(random.Random(2), tricks=5)
    saved = state.to_json()
    saved["variant_data"] = as_recorded_before(saved["variant_data"])
    saved["variant_digest"] = digest_of(saved["variant_data"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = from_json(saved)
    assert loaded.rules.one_deal and loaded.to_json() == state.to_json()

"""The decision benchmark (``bezique bench --decisions``): its positions, an action's
worth, and the figures it reports."""

from __future__ import annotations

import math
import random

import pytest

from bezique.bench.decisions import (
    _paired,
    _summary,
    action_worth,
    decision_bench,
    decision_positions,
    format_decisions,
)
from bezique.commands.cli import main
from bezique.players import decide, player_for
from bezique.players.calibration import ahead
from bezique.players.endgame import hand_gains


def test_positions_are_heuristic_self_play_with_a_choice_and_stock() -> None:
    found = decision_positions("ordinary", 12, 5)
    again = decision_positions("ordinary", 12, 5)
    assert len(found) == 12
    assert [state.to_json() for state in found] == [state.to_json() for state in again]
    for state in found:
        assert state.stock_left() > 0
        assert len(state.legal_actions()) > 1


def test_an_action_is_worth_its_mean_lead_at_the_hands_end() -> None:
    """Over one stock order, the worth is the lead the heuristic's play to the hand's end gives."""
    state = decision_positions("ordinary", 3, 9)[2]
    action = state.legal_actions()[1]
    side = state.side_of[state.to_act]
    world = state.clone()
    rng = random.Random(4)
    rng.shuffle(world.stock)
    world.apply(action)
    hand_no, heuristic = state.hand_no, player_for("heuristic")
    while not world.is_over() and world.hand_no == hand_no:
        world.apply(decide(heuristic, world, rng))
    lead = ahead(hand_gains(world, hand_no, list(state.scores)), side)
    assert action_worth(state, action, 1, 4) == lead
    # the two sides' leads are opposite: the worth for one is the other's loss
    assert ahead(hand_gains(world, hand_no, list(state.scores)), 1 - side) == -lead


def test_the_summary_counts_choices_and_averages_gains() -> None:
    found = _summary([None, 6.0, -2.0, None])
    assert (found["decisions"], found["differing"], found["gained"]) == (4, 2, 1)
    assert found["mean_gain"] == 1.0
    # gains 0, 6, -2, 0 about their mean 1: squares 1, 25, 9, 1 over 3, per decision
    assert found["standard_error"] == pytest.approx(math.sqrt(12 / 4))
    assert _summary([None])["standard_error"] is None


def test_a_player_is_set_against_the_first_position_by_position() -> None:
    # gains less the first's: 0, 4, -2, 0 (a choice like the heuristic's gains nought)
    found = _paired([None, 6.0, -2.0, 1.0], [None, 2.0, None, 1.0])
    assert (found["apart"], found["mean_difference"]) == (2, 0.5)
    # about the mean 0.5: squares 0.25, 12.25, 6.25, 0.25 over 3, per decision
    assert found["standard_error"] == pytest.approx(math.sqrt(19 / 3 / 4))
    assert _paired([3.0], [None])["standard_error"] is None


def test_the_heuristic_never_differs_from_itself() -> None:
    result = decision_bench("ordinary", ["heuristic", "random"], 6, 2, orders=2)
    assert (result["positions"], result["orders"], result["seed"]) == (6, 2, 2)
    mirror, random_row = result["players"]
    assert mirror["all"] == {
        "decisions": 6,
        "differing": 0,
        "gained": 0,
        "mean_gain": 0.0,
        "standard_error": 0.0,
    }
    assert random_row["all"]["decisions"] == 6
    parts = random_row["late"]["decisions"] + random_row["rest"]["decisions"]
    assert parts == 6 and random_row["late"]["decisions"] == result["late_positions"]
    # the heuristic, first, gains nought everywhere: random's difference is its gain
    assert mirror["against_first"] is None
    against = random_row["against_first"]
    assert against["mean_difference"] == random_row["all"]["mean_gain"]
    assert against["standard_error"] == random_row["all"]["standard_error"]
    assert against["apart"] <= random_row["all"]["differing"]
    text = format_decisions(result)
    assert text.splitlines()[1].split()[:3] == ["player", "differs", "gained"]
    assert text.splitlines()[1].endswith("against the first (se)")
    assert text.splitlines()[2].split()[:4] == ["heuristic", "0", "0", "+0.00"]
    assert text.splitlines()[2].endswith(" -")


def test_the_command_judges_players_and_refuses_bad_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["bench", "--decisions", "--players", "heuristic", "--positions", "2"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith("ordinary decisions: 2 positions of heuristic self-play (seed 0)")
    assert main(["bench", "--decisions", "--players", "nobody", "--positions", "2"]) == 1
    assert "unknown player 'nobody'" in capsys.readouterr().err
    assert main(["bench", "--decisions", "--api"]) == 1
    assert "leave it out of --decisions" in capsys.readouterr().err

"""``bezique tournament``: paired deals, how games count, the tables, --jobs and errors.

Random players only (the other bots are tested on their own), on short games: the
ordinary game and three-hand played to 300 instead of 1000 and 2000.
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from clirun import run

from bezique.commands.cli import main
from bezique.errors import BeziqueError, PlayerError
from bezique.game import new_game
from bezique.players import decide, player_for
from bezique.simulation.ratings import PairResult, fit_elo, wilson
from bezique.simulation.simulate import game_seeds
from bezique.simulation.tournament import (
    anchor_of,
    format_tournament,
    labels,
    planned_games,
    seat_seed,
    seatings,
    split_players,
    tournament,
)

SHORT = {"game": {"target": 300}}
"""Games to 300: a random game of ordinary bezique is then a few dozen tricks."""


@pytest.fixture
def short_variant(tmp_path: Path) -> str:
    """A house-rule file: the ordinary game to 300."""
    path = tmp_path / "short.yaml"
    path.write_text(
        "name: short\nsummary: Ordinary bezique to 300.\nextends: ordinary\ngame:\n  target: 300\n",
        encoding="utf-8",
    )
    return str(path)


# --------------------------------------------------------------------------- seatings


def test_seatings_two_hand_and_partnerships_are_a_b_then_b_a() -> None:
    assert seatings((0, 1)) == [(0, 1), (1, 0)]
    assert seatings((0, 1, 0, 1)) == [(0, 1), (1, 0)]  # by side: A holds 0+2, then 1+3


def test_seatings_without_partnerships_put_each_player_alone_in_every_seat() -> None:
    assert seatings((0, 1, 2)) == [
        (0, 1, 1),
        (1, 0, 1),
        (1, 1, 0),
        (1, 0, 0),
        (0, 1, 0),
        (0, 0, 1),
    ]
    four = seatings((0, 1, 2, 3))
    assert len(four) == 8 and len(set(four)) == 8
    assert four[0] == (0, 1, 1, 1) and four[4] == (1, 0, 0, 0)


def test_games_are_rounded_up_to_whole_deals() -> None:
    assert planned_games("ordinary", ["random", "random"], 3) == 4
    assert planned_games("three-hand", ["random", "random", "random"], 7) == 3 * 12
    assert planned_games("four-hand-partners", ["random", "random"], 2) == 2


# --------------------------------------------------------------------------- names


def test_a_spec_given_twice_is_numbered() -> None:
    assert labels(["random", "heuristic", " random"]) == ["random#1", "heuristic", "random#2"]
    assert labels(["random", "search:iterations=9"]) == ["random", "search:iterations=9"]


def test_players_split_at_commas_but_options_stay_with_their_player() -> None:
    assert split_players("random, random") == ["random", "random"]
    assert split_players("search:iterations=9,seconds=1,random") == [
        "search:iterations=9,seconds=1",
        "random",
    ]
    assert split_players("random,") == ["random", ""]


def test_the_anchor_is_the_first_random_player_or_else_the_first() -> None:
    assert anchor_of(["heuristic", "random", "random"]) == 1
    assert anchor_of(["heuristic", "search:iterations=9"]) == 0
    assert anchor_of(["random:x=1", "heuristic"]) == 0


def test_seat_seeds_are_fixed_and_distinct() -> None:
    assert seat_seed(0, 0, 0) == seat_seed(0, 0, 0)
    seeds = {seat_seed(s, g, t) for s in range(3) for g in range(3) for t in range(3)}
    assert len(seeds) == 27


# --------------------------------------------------------------------------- counting


def replayed(variant: str, seed: int, deals: int) -> list[tuple[int, list[int]]]:
    """Two random players' games, played here as the module docstring says they are."""
    rules_seatings = seatings(new_game(variant, overrides=SHORT).side_of)
    games = []
    number = 0
    for deal_seed in game_seeds(seed, deals):
        for _ in rules_seatings:
            state = new_game(variant, seed=deal_seed, overrides=SHORT)
            seats = len(state.side_of)
            rngs = [random.Random(seat_seed(seed, number, seat)) for seat in range(seats)]
            player = player_for("random")
            while not state.is_over():
                seat = state.to_act
                state.apply(decide(player, state, rngs[seat]))
            games.append((state.winner, list(state.scores)))
            number += 1
    return games


def expected_pair(variant: str, seed: int, deals: int) -> dict[str, Any]:
    ways = seatings(new_game(variant, overrides=SHORT).side_of)
    wins, drawn, points = [0, 0], 0, [0.0, 0.0]
    for index, (winner, scores) in enumerate(replayed(variant, seed, deals)):
        holders = ways[index % len(ways)]
        if winner < 0:
            drawn += 1
        else:
            wins[holders[winner]] += 1
        for who in (0, 1):
            held = [s for side, s in enumerate(scores) if holders[side] == who]
            points[who] += sum(held) / len(held)
    n = deals * len(ways)
    return {"wins": wins, "drawn": drawn, "points": [p / n for p in points], "games": n}


@pytest.mark.parametrize(("variant", "games", "deals"), [("ordinary", 5, 3), ("three-hand", 6, 1)])
def test_a_game_is_won_by_the_player_holding_the_winning_side(
    variant: str, games: int, deals: int
) -> None:
    result = tournament(variant, ["random", "random"], games, 11, overrides=SHORT)
    expected = expected_pair(variant, 11, deals)
    (pair,) = result["pairs"]
    assert pair["players"] == ["random#1", "random#2"]
    assert result["deals"] == deals and result["games_per_pair"] == expected["games"]
    assert pair["games"] == expected["games"]
    assert pair["wins"] == expected["wins"] and pair["drawn"] == expected["drawn"]
    assert pair["points_per_game"] == pytest.approx(expected["points"])
    assert pair["points_difference"] == pytest.approx(expected["points"][0] - expected["points"][1])
    share = (expected["wins"][0] + expected["drawn"] / 2) / expected["games"]
    assert pair["share"] == share
    assert pair["interval"] == list(wilson(share * expected["games"], expected["games"]))


def test_every_pair_plays_the_same_deals_and_elo_is_fitted_from_all_pairs() -> None:
    result = tournament("ordinary", ["random"] * 3, 4, 3, overrides=SHORT)
    assert result["players"] == ["random#1", "random#2", "random#3"]
    assert [p["players"] for p in result["pairs"]] == [
        ["random#1", "random#2"],
        ["random#1", "random#3"],
        ["random#2", "random#3"],
    ]
    assert all(p["games"] == 4 for p in result["pairs"])
    pairs = [(0, 1), (0, 2), (1, 2)]
    fit = fit_elo(
        3,
        [
            PairResult(a, b, p["share"] * p["games"], p["games"])
            for (a, b), p in zip(pairs, result["pairs"], strict=True)
        ],
    )
    elo = result["elo"]
    assert elo["anchor"] == "random#1" and elo["finite"] is True
    assert fit.ratings is not None and fit.errors is not None
    assert [r["elo"] for r in elo["ratings"]] == list(fit.ratings)
    assert [r["error"] for r in elo["ratings"]] == list(fit.errors)
    assert [r["interval"] for r in elo["ratings"]] == [
        list(fit.interval(i) or ()) for i in range(3)
    ]
    assert elo["ratings"][0] == {"player": "random#1", "elo": 0.0, "error": 0.0, "interval": [0, 0]}
    assert "anchor: random#1 = 0\nplayer " in format_tournament(result)


def test_no_finite_elo_when_a_player_lost_every_game() -> None:
    result = tournament("ordinary", ["random"] * 3, 4, 7, overrides=SHORT)
    assert [p["wins"] for p in result["pairs"]] == [[0, 4], [0, 4], [1, 3]]
    assert result["elo"]["finite"] is False
    assert {r["elo"] for r in result["elo"]["ratings"]} == {None}
    assert result["pairs"][0]["elo_difference"] is None
    text = format_tournament(result)
    assert "no finite Elo estimate" in text
    assert [line.split()[8] for line in text.splitlines()[6:8]] == ["-inf", "-inf"]


def test_a_tournament_is_reproducible_and_another_seed_deals_otherwise() -> None:
    first = tournament("ordinary", ["random", "random"], 4, 5, overrides=SHORT)
    assert tournament("ordinary", ["random", "random"], 4, 5, overrides=SHORT) == first
    other = tournament("ordinary", ["random", "random"], 4, 6, overrides=SHORT)
    assert other["pairs"][0]["points_per_game"] != first["pairs"][0]["points_per_game"]


def test_progress_is_called_after_every_game_in_order() -> None:
    calls: list[tuple[int, int]] = []
    tournament(
        "ordinary",
        ["random", "random"],
        2,
        0,
        overrides=SHORT,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(1, 2), (2, 2)]


def test_the_api_refuses_bad_players_games_and_jobs() -> None:
    with pytest.raises(PlayerError, match="from 2 to 12 players, not 1"):
        tournament("ordinary", ["random"], 2, 0)
    with pytest.raises(PlayerError, match="unknown player 'nobody'"):
        tournament("ordinary", ["random", "nobody"], 2, 0)
    with pytest.raises(BeziqueError, match="games must be at least 1"):
        tournament("ordinary", ["random", "random"], 0, 0)
    with pytest.raises(BeziqueError, match="jobs must be at least 1"):
        tournament("ordinary", ["random", "random"], 2, 0, jobs=0)


# --------------------------------------------------------------------------- the command


def test_the_tables_line_up(capsys: pytest.CaptureFixture[str], short_variant: str) -> None:
    status, out, err = run(
        capsys,
        "tournament",
        "--variant",
        short_variant,
        "--players",
        "random,random,random",
        "--games",
        "3",
        "--seed",
        "2",
    )
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "tournament: variant short, seed 2, players random#1, random#2, random#3"
    assert lines[1] == (
        "4 games a pair (3 asked, rounded up to whole deals): 2 deals, each played in "
        "2 seatings of the pair"
    )
    pair_table = lines[lines.index("") + 1 :][:4]
    assert pair_table[0].split() == [
        "A",
        "B",
        "games",
        "won",
        "A",
        "won",
        "B",
        "drawn",
        "A's",
        "share",
        "95%",
        "interval",
        "Elo",
        "A-B",
        "points",
        "A",
        "points",
        "B",
        "A-B",
    ]
    assert len({len(line) for line in pair_table}) == 1  # right-aligned to one width
    assert [line.split()[:3] for line in pair_table[1:]] == [
        ["random#1", "random#2", "4"],
        ["random#1", "random#3", "4"],
        ["random#2", "random#3", "4"],
    ]
    assert "anchor: random#1 = 0" in out


@pytest.mark.slow
def test_json_is_one_document_and_jobs_2_gives_the_same(
    capsys: pytest.CaptureFixture[str], short_variant: str
) -> None:
    argv = [
        "tournament",
        "--variant",
        short_variant,
        "--players",
        "random,random",
        "--games",
        "4",
        "--seed",
        "9",
        "--json",
    ]
    status, out, err = run(capsys, *argv)
    assert status == 0 and err == ""
    one = json.loads(out)
    assert one["variant"] == "short" and one["seed"] == 9 and one["games_per_pair"] == 4
    assert one["players"] == ["random#1", "random#2"] and one["specs"] == ["random", "random"]
    status, out, err = run(capsys, *argv, "--jobs", "2")
    assert status == 0 and err == ""
    assert json.loads(out) == one
    assert format_tournament(one).startswith("tournament: variant short, seed 9")


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_progress_bar_on_a_terminal_and_never_in_the_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, short_variant: str
) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    argv = ["tournament", "--variant", short_variant, "--players", "random,random", "--games", "2"]
    assert main([*argv, "--json"]) == 0
    drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", terminal.getvalue())
    assert "tournament short" in drawn and "0/2 games" in drawn and "2/2 games" in drawn
    assert json.loads(capsys.readouterr().out)["games_per_pair"] == 2


def test_no_progress_bar_off_a_terminal(
    capsys: pytest.CaptureFixture[str], short_variant: str
) -> None:
    status, out, err = run(
        capsys,
        "tournament",
        "--variant",
        short_variant,
        "--players",
        "random,random",
        "--games",
        "2",
    )
    assert status == 0 and err == "" and out.startswith("tournament: variant short")


def test_help_says_how_a_game_counts(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tournament", "--help")
    flat = " ".join(out.split())
    assert status == 0
    assert "a drawn game counts half to each" in flat
    assert "three-hand: 6 games a deal" in flat
    assert "rounded up to whole deals" in flat


@pytest.mark.parametrize(
    ("argv", "status", "says"),
    [
        (["--players", "random,nobody"], 1, "bezique: unknown player 'nobody': the registered"),
        (["--players", "random,random:depth=3"], 1, "bezique: player 'random:depth=3' takes no"),
        (["--players", "random,"], 1, "bezique: player '': no name"),
        (["--players", "random"], 1, "bezique: a tournament takes from 2 to 12 players, not 1"),
        (["--players", "random,random", "--variant", "nowhere"], 1, "no variant named 'nowhere'"),
        (["--players", "random,random", "--games", "0"], 2, "--games: '0' must be at least 1"),
        (["--players", "random,random", "--games", "100001"], 2, "must be at most 100000"),
        (["--players", "random,random", "--jobs", "0"], 2, "--jobs: '0' must be at least 1"),
        (["--players", "random,random", "--jobs", "65"], 2, "--jobs: '65' must be at most 64"),
        (["--players", "random,random", "--seed", "x"], 2, "'x' is not a whole number"),
        (
            ["--players", "random,random", "--scheduler", "x"],
            1,
            "bezique: --scheduler 'x': give the scheduler's address as tcp://HOST:PORT",
        ),
        (
            ["--players", "random,random", "--scheduler", "tcp://127.0.0.1:9", "--jobs", "2"],
            1,
            "bezique: --jobs counts processes on this machine; leave it out with --scheduler",
        ),
    ],
)
def test_bad_arguments_get_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], status: int, says: str
) -> None:
    got, out, err = run(capsys, "tournament", *argv)
    assert got == status and out == ""
    assert says in err
    if status == 1:
        assert len(err.splitlines()) == 1
    else:  # argparse: the usage, then the one line of the error
        assert err.splitlines()[-1].startswith("bezique tournament: error: argument")

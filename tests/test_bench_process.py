"""``bezique bench --startup`` and ``bezique bench --records``: the shape of what they print.

The figures themselves are the machine's (CPU times and their ratios); the tests
check the lines and keys, and that arguments the two do not read are refused.
"""

from __future__ import annotations

import json
import re

import pytest
from clirun import run

from bezique.bench.records import RECORD_GAMES, RECORD_VARIANTS, random_games
from bezique.game import from_json

NUMBER = r"[0-9]+\.[0-9]+"


def test_startup_prints_python_then_each_command_with_its_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "bench", "--startup", "--rounds", "1")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "start-up: CPU time of whole processes, median of 1 alternated rounds"
    assert re.fullmatch(
        r"bytecode caches: (written|not written \(PYTHONDONTWRITEBYTECODE\))", lines[1]
    )
    assert re.fullmatch(rf"python -c pass +{NUMBER} ms", lines[2])
    for line, command in zip(lines[3:], ["--help", "variants"], strict=True):
        assert re.fullmatch(rf"bezique {command} +{NUMBER} ms +{NUMBER}x python -c pass", line), (
            line
        )


def test_startup_json_holds_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "bench", "--startup", "--rounds", "1", "--json")
    found = json.loads(out)
    assert status == 0
    assert sorted(found) == ["bytecode_cached", "commands", "python_seconds", "rounds"]
    assert [c["command"] for c in found["commands"]] == ["bezique --help", "bezique variants"]
    assert all(sorted(c) == ["command", "ratio", "seconds"] for c in found["commands"])
    assert all(c["ratio"] > 0 for c in found["commands"]) and found["rounds"] == 1


def test_records_prints_both_times_and_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "bench", "--records", "--rounds", "1", "--seed", "2")
    assert status == 0 and err == ""
    lines = out.splitlines()
    games = RECORD_GAMES * len(RECORD_VARIANTS)
    assert re.fullmatch(
        rf"saved games: {games} random games of {', '.join(RECORD_VARIANTS)} "
        r"\(seed 2, [0-9]+ actions\)",
        lines[0],
    )
    assert lines[1] == "CPU time, median of 1 alternated rounds"
    assert re.fullmatch(rf"to_json +{NUMBER} ms a game", lines[2])
    assert re.fullmatch(rf"from_json +{NUMBER} ms a game", lines[3])
    assert re.fullmatch(rf"from_json / to_json  {NUMBER}x", lines[4])
    assert len(lines) == 5


def test_the_saved_games_read_back_to_the_games_played() -> None:
    states = random_games(["ordinary", "polish"], 1, 3)
    assert [from_json(state.to_json()) for state in states] == states
    assert all(state.is_over() for state in states)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--startup", "--deals", "3"], "--deals is not read with --startup; leave it out"),
        (["--records", "--positions", "3"], "--positions is not read with --records; leave it out"),
        (["--startup", "--seed", "3"], "--seed is not read with --startup; leave it out"),
        (["--records", "--api"], "--api is not read with --records; leave it out"),
        (["--startup", "--variant", "grand"], "--variant is not read with --startup; leave it out"),
        (["--rounds", "3"], "--rounds is read only with --startup or --records"),
        (["--search", "--rounds", "3"], "--rounds is not read with --search; leave it out"),
    ],
)
def test_an_option_the_mode_does_not_read_is_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    status, out, err = run(capsys, "bench", *argv)
    assert status == 1 and out == ""
    assert err == f"bezique: {says}\n"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--startup", "--records"], "argument --records: not allowed with argument --startup"),
        (["--startup", "--rounds", "0"], "argument --rounds: '0' must be at least 1"),
        (["--records", "--rounds", "101"], "argument --rounds: '101' must be at most 100"),
    ],
)
def test_bad_usage_is_one_line_of_argparse(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    status, out, err = run(capsys, "bench", *argv)
    assert status == 2 and out == ""
    assert err.splitlines()[-1] == f"bezique bench: error: {says}"

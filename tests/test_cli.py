"""The ``bezique`` command line, through ``bezique.commands.cli.main`` and once as a process."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bezique.commands.cli import main
from bezique.game import GameState, new_game
from bezique.records.record import hand_summaries, load_record, record_of, replay
from bezique.testing import play_out, scenario

FILE_LINE_COL = re.compile(r"^.+:\d+:\d+: \S")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line; return its exit status, stdout and stderr."""
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse: usage errors, --help, --version
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def played(seed: int, hands: int | None) -> GameState:
    state = new_game("ordinary", seed=seed)
    state.playout(random.Random(seed), hands=hands)
    return state


def write_record(folder: Path, state: GameState, name: str = "game.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(record_of(state), indent=1), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- variants


def test_variants_lists_ordinary(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "variants")
    assert status == 0 and err == ""
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert "ordinary" in names
    line = next(line for line in out.splitlines() if line.startswith("ordinary "))
    assert "1000" in line


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--version")
    assert status == 0
    assert out.startswith("bezique ")


# --------------------------------------------------------------------------- validate


def test_validate_ok(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(
        "name: house\nextends: ordinary\nsummary: To 500.\ngame:\n  target: 500\n",
        encoding="utf-8",
    )
    status, out, err = run(capsys, "validate", "ordinary", str(path))
    assert status == 0, err
    assert out.splitlines() == ["ordinary: ok", f"{path}: ok"]
    assert err == ""


def test_validate_bad_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(
        "name: house\nextends: ordinary\nsummary: Bad.\ngame:\n  target: -5\n  chek: 1\n",
        encoding="utf-8",
    )
    status, out, err = run(capsys, "validate", str(path))
    assert status == 1
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 2
    assert all(FILE_LINE_COL.match(line) and line.startswith(f"{path}:") for line in lines), lines
    assert lines[0].startswith(f"{path}:5:11: game.target: ")
    assert lines[1].startswith(f"{path}:6:3: game.chek: ")
    assert "'check'" in lines[1]


def test_validate_reports_every_bad_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nextends: ordinary\nsummary: x\nplayers: two\n", encoding="utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [unclosed\n", encoding="utf-8")
    status, out, err = run(capsys, "validate", "ordinary", str(bad), str(broken))
    assert status == 1
    assert out == ""
    assert any(line.startswith(f"{bad}:4:") for line in err.splitlines())
    assert any(line.startswith(f"{broken}:") for line in err.splitlines())
    assert all(FILE_LINE_COL.match(line) for line in err.splitlines()), err


def test_validate_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "validate", str(tmp_path / "nowhere.yaml"))
    assert status == 1
    assert "nowhere.yaml" in err


# --------------------------------------------------------------------------- replay


def test_replay_prints_hand_and_game_scores(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = played(3, hands=2)
    path = write_record(tmp_path, state)
    status, out, err = run(capsys, "replay", str(path))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"variant ordinary: {len(state.history)} actions replayed"
    for summary in hand_summaries(state):
        points = ", ".join(f"seat {s}: {p}" for s, p in enumerate(summary["points"]))
        assert f"hand {summary['hand'] + 1}: {points}" in lines  # counted from 1
    assert f"game: seat 0: {state.scores[0]}, seat 1: {state.scores[1]}" in lines
    doing = state.rules.words.phase(state.phase)
    assert lines[-1] == f"game not finished: seat {state.to_act} to act ({doing})"


def test_replay_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    state = played(5, hands=None)
    path = write_record(tmp_path, state)
    status, out, err = run(capsys, "replay", str(path), "--json")
    assert status == 0 and err == ""
    result: dict[str, Any] = json.loads(out)
    assert result["variant"] == "ordinary"
    assert result["actions"] == len(state.history)
    assert result["scores"] == state.scores
    assert result["hands"] == hand_summaries(state)
    assert [sum(h["points"][s] for h in result["hands"]) for s in range(2)] == state.scores
    assert result["over"] is True
    assert result["winner"] == state.winner


def test_replay_finished_game_names_the_winner(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = played(6, hands=None)
    status, out, _ = run(capsys, "replay", str(write_record(tmp_path, state)))
    assert status == 0
    assert out.splitlines()[-1] == f"winner: seat {state.winner}"


def test_replay_illegal_action(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = record_of(played(3, hands=1))
    data["actions"][4] = "draw"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(capsys, "replay", str(path))
    assert status == 1
    assert out == ""
    assert err.startswith(f"bezique: {path}: action 4 ('draw', seat ")
    assert "only the winner of a trick may declare" in err


def test_replay_bad_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{\n  "format": ,\n}\n', encoding="utf-8")
    status, _, err = run(capsys, "replay", str(path))
    assert status == 1
    assert err.startswith(f"bezique: {path}:2:13: not JSON")


def test_replay_schema_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "bezique-record/1", "seed": "x"}), encoding="utf-8")
    status, _, err = run(capsys, "replay", str(path))
    assert status == 1
    lines = err.splitlines()
    assert len(lines) == 3
    assert all(line.startswith(f"bezique: {path}: $") for line in lines)


def test_replay_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "replay", str(tmp_path / "nowhere.json"))
    assert status == 1
    assert "nowhere.json" in err


# --------------------------------------------------------------------------- simulate and bench


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "simulate", "--games", "5", "--seed", "3", "--json")
    assert status == 0 and err == ""
    stats: dict[str, Any] = json.loads(out)
    for key in (
        "variant",
        "games",
        "seed",
        "hands",
        "hands_per_game",
        "decisions_per_game",
        "wins",
        "mean_final_score",
        "mean_points_per_hand",
        "times_per_hand",
    ):
        assert key in stats
    assert stats["variant"] == "ordinary"
    assert stats["games"] == 5 and stats["seed"] == 3
    assert len(stats["wins"]) == 2 and sum(stats["wins"]) == 5
    assert stats["hands"] >= 5
    assert stats["hands_per_game"] == pytest.approx(stats["hands"] / 5)
    assert all(score >= 0 for score in stats["mean_final_score"])
    assert max(stats["mean_final_score"]) >= 1000 / 2
    assert set(stats["mean_points_per_hand"]) == set(stats["times_per_hand"])
    assert "brisques" in stats["mean_points_per_hand"]
    # The same seed gives the same statistics.
    assert run(capsys, "simulate", "--games", "5", "--seed", "3", "--json")[1] == out


def test_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "simulate", "--games", "2", "--seed", "1")
    assert status == 0
    assert out.startswith("variant ordinary: 2 games, seed 1")
    assert "wins by seat: " in out


def test_simulate_save_writes_replayable_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    status, out, _ = run(
        capsys, "simulate", "--games", "5", "--seed", "3", "--json", "--save", str(folder)
    )
    assert status == 0
    stats = json.loads(out)
    files = sorted(folder.glob("*.json"))
    assert [f.name for f in files] == [f"game-{n:04d}.json" for n in range(5)]
    finals = []
    wins = [0, 0]
    hands = 0
    for path in files:
        state = replay(load_record(path), str(path))
        assert state.is_over()
        finals.append(state.scores)
        wins[state.winner] += 1
        hands += state.hand_no + 1
    assert wins == stats["wins"]
    assert hands == stats["hands"]
    assert [sum(f[s] for f in finals) / 5 for s in range(2)] == pytest.approx(
        stats["mean_final_score"]
    )
    status, out, _ = run(capsys, "replay", str(files[0]), "--json")
    assert status == 0 and json.loads(out)["scores"] == finals[0]


def test_simulate_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "simulate", "--variant", "no-such-variant", "--games", "1")
    assert status == 1
    assert out == ""
    assert err.startswith("bezique: no variant named 'no-such-variant'")


def test_simulate_misspelt_variant_is_told_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "simulate", "--variant", "ordinery", "--games", "1")
    assert (status, out) == (1, "")
    assert err == "bezique: no variant named 'ordinery'; did you mean 'ordinary'?\n"


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "bench", "--deals", "50", "--json")
    assert status == 0 and err == ""
    result = json.loads(out)
    assert result["deals"] == 50
    assert result["deals_per_s"] > 0
    assert result["decisions_per_s"] > 0
    assert result["decisions"] > 50
    assert result["mode"] == "playout"


def test_bench_card_by_card_is_deprecated_and_changes_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "bench", "--deals", "3", "--card-by-card")
    assert status == 0
    assert out.startswith("ordinary (playout): 3 deals in ")
    assert "--card-by-card is deprecated" in err
    status, out, _ = run(capsys, "bench", "--deals", "3", "--variant", "polish")
    assert status == 0
    assert out.startswith("polish (playout): 3 deals in ")


def test_bench_baseline_alternates_and_prints_a_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "bench", "--deals", "4", "--baseline", "--json")
    assert status == 0
    result = json.loads(out)
    assert (result["variant"], result["reference"]) == ("ordinary", "baseline")
    assert result["measure"] == "deals per CPU-second"
    assert len(result["ratios"]) == result["rounds"] == 5
    assert result["ratio"] == sorted(result["ratios"])[2]


def test_bench_reference_compares_two_variants(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "bench", "--deals", "2", "--variant", "grand", "--reference", "ordinary"
    )
    assert status == 0
    assert out.startswith("grand / ordinary: ")
    assert "decisions per CPU-second" in out
    status, _, err = run(capsys, "bench", "--deals", "2", "--baseline", "--api")
    assert status == 1
    assert "--api" in err


def test_playout_compiled_is_deprecated() -> None:
    game = new_game("ordinary", seed=3)
    with pytest.warns(DeprecationWarning, match="compiled"):
        game.playout(random.Random(3), compiled=False)


def test_bench_api_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "bench", "--deals", "3", "--api")
    assert status == 0
    assert out.startswith("ordinary (api): 3 deals in ")


@pytest.mark.parametrize(
    ("argv", "told"),
    [
        (["bench", "--players", "heuristic"], "--players is read only with --decisions"),
        (["bench", "--search", "--players", "heuristic"], "--players is not read with --search"),
        (
            ["bench", "--decisions", "--iterations", "5"],
            "--iterations is not read with --decisions",
        ),
        (["bench", "--search", "--deals", "3"], "--deals is not read with --search"),
        (["bench", "--positions", "3"], "--positions is read only with --search or --decisions"),
    ],
)
def test_bench_refuses_an_option_its_mode_does_not_read(
    capsys: pytest.CaptureFixture[str], argv: list[str], told: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (1, "")
    assert err.startswith(f"bezique: {told}")


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "0"],
        ["simulate", "--games", "x"],
        ["simulate", "--games", "-3"],
        ["simulate", "--seed", "-1"],
        ["bench", "--deals", "0"],
        ["bench", "--deals", "1.5"],
        ["replay"],
        ["validate"],
        ["frobnicate"],
        [],
        ["simulate", "--no-such-option"],
    ],
)
def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert "usage: bezique" in err
    assert "error:" in err


def test_games_zero_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "simulate", "--games", "0")
    assert "'0' must be at least 1" in err
    _, _, err = run(capsys, "simulate", "--games", "x")
    assert "'x' is not a whole number" in err


# --------------------------------------------------------------------------- as a process


def test_python_m_bezique_variants(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run(
        [sys.executable, "-m", "bezique", "variants"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert any(line.startswith("ordinary ") for line in done.stdout.splitlines())
    assert done.stderr == ""


# --------------------------------------------------------------------------- real games


def refereed_record() -> dict[str, Any]:
    """A stacked two-hand game where seat 0 is found with nine cards and pays 200."""
    dealer = ["7C", "8C", "9C", "7D", "8D", "9D", "7S", "8S"]
    eldest = ["AH", "AH", "9S", "9S", "JC", "TC", "TD", "8D"]
    state = scenario("ordinary", hands=[dealer, eldest], turn_up="9H", stock=["KS", "QD", "JS"])
    found = ["irregular overdrew 0", "irregular nine_cards 0", "claim nine_cards deduct"]
    play_out(state, ["play AH", "play 7C", *found])
    return record_of(state)


def test_replay_a_real_game_with_a_penalty(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(refereed_record()), encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    assert "hand 1: seat 0: -200, seat 1: 10" in out


def test_replay_refuses_a_late_claim_with_its_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = refereed_record()
    data["actions"][4:] = ["play AH", "claim nine_cards deduct"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(capsys, "replay", str(path))
    assert status == 1 and out == ""
    assert err.startswith(f"bezique: {path}: action 5 ('claim nine_cards deduct', seat ")
    assert "no such claim is open now" in err


def test_validate_a_bad_penalty_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(
        "name: club\nextends: ordinary\nsummary: Club.\npenalties:\n  award: fine\n"
        "  nine_cards: -100\n",
        encoding="utf-8",
    )
    status, _, err = run(capsys, "validate", str(path))
    assert status == 1
    lines = err.splitlines()
    assert lines[0].startswith(f"{path}:5:10: penalties.award: ")
    assert "injured_chooses" in lines[0]
    assert lines[1].startswith(f"{path}:6:15: penalties.nine_cards: ")


def test_simulate_partnerships_reports_per_side(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "simulate", "--variant", "four-hand-partners", "--games", "1")
    assert status == 0
    assert re.search(r"wins by seat: 0\+2: \d, 1\+3: \d", out)

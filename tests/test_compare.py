"""``bezique compare``: figures recomputed from the games' records, jobs, bad arguments, Ctrl-C.

The reference figures are worked out here from records of games played by this
test (the seeds the command documents) and replayed, with the statistics module:
never numbers copied from the command's output.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import signal
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pexpect
import pytest
from clirun import run

from bezique.compare.bench import format_bench, run_bench
from bezique.compare.comparison import compare
from bezique.compare.games import GameSummary, decision_seed
from bezique.compare.page import page
from bezique.compare.stats import Figures, estimate, t95
from bezique.compare.text import text
from bezique.game import GameState, new_game, ruleset_for
from bezique.players import decide, player_for
from bezique.records.record import record_of, replay
from bezique.rulebook import diff_html
from bezique.simulation.simulate import game_seeds

VARIANTS = ("eb1875", "modern-article")
SEED = 11
GAMES = 4
T3 = 3.182446305
"""Student's t, 97.5% point, 3 degrees of freedom (tables)."""
Z = 1.959963984540054


@pytest.fixture(scope="module")
def small() -> Any:
    return compare(VARIANTS, GAMES, SEED, players="random")


# ------------------------------------------------------------------ the reference figures


def records(variant: str) -> list[dict[str, Any]]:
    """Play the games as the command documents them; return their records."""
    rules = ruleset_for(variant)
    seats = len(rules.side_of)
    found = []
    for game_seed in game_seeds(SEED, GAMES):
        state = new_game(rules, seed=game_seed)
        rngs = [random.Random(decision_seed(game_seed, seat)) for seat in range(seats)]
        player = player_for("random")
        while not state.is_over():
            state.apply(decide(player, state, rngs[state.to_act]))
        found.append(json.loads(json.dumps(record_of(state))))
    return found


def game_facts(record: dict[str, Any]) -> dict[str, Any]:
    """What the figures need from one game, read from its record and its replay."""
    state: GameState = replay(record)
    seats = len(state.side_of)
    target = state.rules.target
    combos = set(record["variant_data"]["declarations"]["combinations"])
    totals = [0, 0]
    ahead: int | None = None
    changes = 0
    at_hand_end: dict[int, list[int]] = {}
    for event, hand in zip(state.events, state.event_hands, strict=True):
        totals[state.side_of[event.player]] += event.points
        if totals[0] != totals[1]:
            now = 0 if totals[0] > totals[1] else 1
            changes += ahead is not None and now != ahead
            ahead = now
        at_hand_end[hand] = list(totals)
    hands = state.hand_no + 1
    ends, last = [], [0, 0]
    for hand in range(hands):
        last = at_hand_end.get(hand, last)
        ends.append(target is not None and min(last) >= target)
    by_rule = Counter[str]()
    for event in state.events:
        by_rule[event.rule] += event.points
    first_seat = (record["first_dealer"] + 1) % seats
    declared = sum(p for r, p in by_rule.items() if r in combos or r.startswith("carte_blanche"))
    return {
        "hands": hands,
        "tricks": sum(a.split()[0] == "play" for a in record["actions"]) // seats,
        "side_mean": sum(state.scores) / 2,
        "first_won": 0.5 if state.winner < 0 else float(state.winner == state.side_of[first_seat]),
        "changes": changes,
        "both_over": sum(ends),
        "by_rule": by_rule,
        "declared": declared,
        "counted": sum(p for r, p in by_rule.items() if not r.startswith("penalties.")),
    }


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    m = statistics.mean(values)
    half = T3 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def ratio_interval(tops: list[float], bottoms: list[float]) -> tuple[float, float, float]:
    r = sum(tops) / sum(bottoms)
    mean_bottom = statistics.mean(bottoms)
    u = [(y - r * x) / mean_bottom for y, x in zip(tops, bottoms, strict=True)]
    half = T3 * statistics.stdev(u) / math.sqrt(len(u))
    return r, r - half, r + half


def wilson_interval(hits: float, n: float) -> tuple[float, float, float]:
    p = hits / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return p, max(0.0, centre - half), min(1.0, centre + half)


def hands_share_interval(hits: list[float], hands: list[float]) -> tuple[float, float, float]:
    """A share of hands: Wilson over the hands' effective number (the games' design effect)."""
    p = sum(hits) / sum(hands)
    units = float(sum(hands))
    if 0 < p < 1:
        mean_hands = statistics.mean(hands)
        u = [(y - p * x) / mean_hands for y, x in zip(hits, hands, strict=True)]
        clustered = statistics.variance(u) / len(u)
        units /= max(1.0, clustered / (p * (1 - p) / units))
    return wilson_interval(p * units, units)


def triple(estimate: dict[str, Any]) -> tuple[float, float, float]:
    return estimate["value"], estimate["low"], estimate["high"]


@pytest.fixture(scope="module")
def facts() -> dict[str, list[dict[str, Any]]]:
    return {variant: [game_facts(r) for r in records(variant)] for variant in VARIANTS}


def test_each_figure_is_recomputed_from_the_records(small: Any, facts: Any) -> None:
    result = small.result
    assert (result["games"], result["interrupted"], result["variants"]) == (
        4,
        False,
        list(VARIANTS),
    )
    for variant, found in zip(VARIANTS, result["per_variant"], strict=True):
        games = facts[variant]
        hands = [g["hands"] for g in games]
        figures = found["figures"]
        expect = {
            "hands_per_game": mean_interval(hands),
            "points_per_game": mean_interval([g["side_mean"] for g in games]),
            "lead_changes_per_game": mean_interval([g["changes"] for g in games]),
            "tricks_per_hand": ratio_interval([g["tricks"] for g in games], hands),
            "declaration_share": ratio_interval(
                [g["declared"] for g in games], [g["counted"] for g in games]
            ),
            "first_player_wins": wilson_interval(sum(g["first_won"] for g in games), GAMES),
            "both_over_target": hands_share_interval([g["both_over"] for g in games], hands),
        }
        for key, wanted in expect.items():
            assert triple(figures[key]) == pytest.approx(wanted, rel=1e-9), (variant, key)
        rules = set().union(*(g["by_rule"] for g in games))
        assert rules <= set(found["points_per_hand_by_rule"])
        for rule in rules:
            wanted = ratio_interval([g["by_rule"][rule] for g in games], hands)
            got = triple(found["points_per_hand_by_rule"][rule])
            assert got == pytest.approx(wanted, rel=1e-9, abs=1e-9), (variant, rule)
    # the check means something: the games changed lead and scored under many rules
    assert sum(g["changes"] for g in facts["eb1875"]) > 0
    assert len(result["per_variant"][0]["points_per_hand_by_rule"]) >= 8


def test_a_share_of_hands_counts_the_hands_of_a_game_as_alike() -> None:
    def game(hands: int, both_over: int) -> GameSummary:
        return GameSummary(hands, 0, (0, 0), 0, 0, (), (0,) * hands, 0, both_over)

    figure = next(f for f in Figures([frozenset()]).main() if f.key == "both_over_target")
    clustered = [game(4, 4), game(4, 0), game(4, 4), game(4, 0), game(4, 0)]  # all or none
    spread = [game(4, 1), game(4, 2), game(4, 1), game(4, 2), game(4, 2)]  # a few in each
    for games in (clustered, spread):
        found = estimate(games, figure)
        wanted = hands_share_interval([g.both_over for g in games], [g.hands for g in games])
        assert (found.value, found.low, found.high) == pytest.approx(wanted, rel=1e-12)
    wide, narrow = estimate(clustered, figure), estimate(spread, figure)
    pooled = wilson_interval(8, 20)  # (as if the 20 hands were drawn alone)
    assert wide.value == narrow.value == 0.4
    assert wide.low is not None and wide.high is not None
    assert wide.high - wide.low > pooled[2] - pooled[1]  # all-or-none games are worth fewer
    assert (narrow.low, narrow.high) == pytest.approx(pooled[1:])  # (never below 1: as pooled)


def test_pair_differences_are_paired_game_by_game(small: Any, facts: Any) -> None:
    (pair,) = small.result["pairs"]
    assert (pair["a"], pair["b"]) == VARIANTS
    a, b = (facts[v] for v in VARIANTS)
    d = [y["hands"] - x["hands"] for x, y in zip(a, b, strict=True)]
    got = pair["figures"]["hands_per_game"]
    assert (got["difference"], got["low"], got["high"]) == pytest.approx(mean_interval(d))
    assert got["excludes_zero"] == (got["low"] > 0 or got["high"] < 0)
    changes = [y["changes"] - x["changes"] for x, y in zip(a, b, strict=True)]
    got = pair["figures"]["lead_changes_per_game"]
    assert (got["difference"], got["low"], got["high"]) == pytest.approx(mean_interval(changes))
    got = pair["figures"]["tricks_per_hand"]  # a ratio: its linearized values are paired
    wanted = paired_ratio_difference(
        [(x["tricks"], x["hands"]) for x in a], [(y["tricks"], y["hands"]) for y in b]
    )
    assert (got["difference"], got["low"], got["high"]) == pytest.approx(wanted, rel=1e-9)
    got = pair["figures"]["first_player_wins"]  # a share of games: the same, X = 1
    wanted = paired_ratio_difference(
        [(x["first_won"], 1) for x in a], [(y["first_won"], 1) for y in b]
    )
    assert (got["difference"], got["low"], got["high"]) == pytest.approx(wanted, abs=1e-12)


def paired_ratio_difference(
    a: list[tuple[float, float]], b: list[tuple[float, float]]
) -> tuple[float, float, float]:
    """R_B - R_A with the t interval of the games' paired linearized differences."""

    def linearized(games: list[tuple[float, float]]) -> tuple[float, list[float]]:
        r = sum(y for y, _ in games) / sum(x for _, x in games)
        mean_x = statistics.mean(x for _, x in games)
        return r, [(y - r * x) / mean_x for y, x in games]

    (ra, ua), (rb, ub) = linearized(a), linearized(b)
    d = [q - p for p, q in zip(ua, ub, strict=True)]
    half = T3 * statistics.stdev(d) / math.sqrt(len(d))
    return rb - ra, rb - ra - half, rb - ra + half


def test_student_t_points() -> None:
    published = {1: 12.7062, 3: 3.1824, 5: 2.5706, 10: 2.2281, 12: 2.1788, 30: 2.0423, 1000: 1.9623}
    for df, value in published.items():
        assert t95(df) == pytest.approx(value, abs=1e-4), df


def test_the_text_and_the_page_say_the_same(small: Any) -> None:
    report = text(small.result)
    assert report.splitlines()[0] == (
        "compare eb1875, modern-article: 4 games each on the same seeds (seed 11), players random"
    )
    hands = small.result["per_variant"][0]["figures"]["hands_per_game"]
    assert f"{hands['value']:.2f} ({hands['low']:.2f}..{hands['high']:.2f})" in report
    assert "modern-article - eb1875" in report
    html = page(small)
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html
    assert "<h3>modern-article - eb1875</h3>" in html


def test_plot_files(small: Any, tmp_path: Path) -> None:
    from bezique.compare.plot import write_plot

    write_plot(small, tmp_path / "p.png")
    write_plot(small, tmp_path / "p.svg")
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (tmp_path / "p.svg").read_text(encoding="utf-8")


def test_the_bars_by_class_are_drawn_whole_a_deduction_below_zero() -> None:
    from types import SimpleNamespace

    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    from bezique.compare.plot import _by_class

    def classes(**values: float) -> dict[str, Any]:
        return {"points_per_hand_by_class": {k: {"value": v} for k, v in values.items()}}

    done: Any = SimpleNamespace(
        labels=["ordinary", "rubicon"],
        result={
            "per_variant": [
                classes(declarations=380.0, brisques=130.0, settlement=0.0),
                classes(declarations=2077.0, brisques=114.0, settlement=-41.0),
            ]
        },
    )
    axes = Figure().subplots()
    _by_class(axes, done)
    bars = [
        (p.get_y(), p.get_y() + p.get_height()) for p in axes.patches if isinstance(p, Rectangle)
    ]
    assert (0.0, 2077.0) in bars and (2077.0, 2191.0) in bars
    assert (0.0, -41.0) in bars  # the settlement's deduction, below zero, not cut to nothing
    low, high = axes.get_ylim()
    assert low < -41.0 and high > 2191.0  # no bar ends at the frame
    legend = axes.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["declarations", "brisques", "settlement"]


def test_the_tables_name_each_rule_in_words(small: Any) -> None:
    report = text(small.result)
    # eb1875 scores the trick that empties the stock (S0), modern-article the final one
    said = small.result["labels"]["last_trick"]
    assert said == "the last trick of the stock / the last trick"
    assert "\n  the last trick " in report and "last_trick" not in report
    assert "seven_of_trumps" not in report and "double_bezique" not in report


def test_the_rule_differences_of_the_page_read_left_aligned(small: Any) -> None:
    html = page(small)
    assert ".rule-diff td { text-align: left;" in html and '<section class="rule-diff">' in html


# ------------------------------------------------------------------ processes, Ctrl-C


@pytest.mark.slow
def test_jobs_give_the_result_of_one_process(small: Any) -> None:
    spread = compare(VARIANTS, GAMES, SEED, players="random", jobs=2)
    assert spread.result == small.result
    assert spread.games == small.games


def test_an_interrupt_keeps_the_first_games_whole() -> None:
    def stop(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    cut = compare(VARIANTS, 50, 3, players="random", progress=stop)
    assert (cut.result["games"], cut.result["interrupted"]) == (2, True)
    whole = compare(VARIANTS, 2, 3, players="random")
    assert cut.games == whole.games
    assert cut.result["per_variant"] == whole.result["per_variant"]
    assert "(interrupted: 2 of the 50 asked for)" in text(cut.result).splitlines()[0]


def default_sigint() -> None:
    """In the child: Ctrl-C as at a shell, whatever the test process inherited."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.slow
def test_ctrl_c_at_a_terminal_reports_the_games_finished(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    command = (
        f"exec '{sys.executable}' -m bezique compare eb1875 modern-article --games 100000 "
        f"--seed 5 --players random --json > '{out}'"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", COLUMNS="160", LINES="30")  # (the count must fit)
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", command],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=120,
        dimensions=(30, 160),
        preexec_fn=default_sigint,
    )
    try:
        child.expect(re.compile(r"\b([3-9]|[1-9][0-9]+)/100000"))  # the progress bar
        child.sendintr()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["interrupted"] is True and result["games_requested"] == 100000
    assert 3 <= result["games"] < 100000
    whole = compare(("eb1875", "modern-article"), result["games"], 5, players="random").result
    assert result["per_variant"] == whole["per_variant"]


# ------------------------------------------------------------------ bad arguments, the bench


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["eb1875"], "compare takes from 2 to 8 variants, not 1"),
        (["eb1875", "eb1875"], "variant eb1875 is named twice; name each variant once"),
        (["eb1875", "nosuch"], "no variant named 'nosuch'"),
        (["eb1875", "ordinary", "--players", "nosuch"], "unknown player 'nosuch'"),
        (
            ["eb1875", "three-hand", "--players", "random,random"],
            "three-hand: --players names 2 players for 3 seats",
        ),
        (["eb1875", "ordinary", "--plot", "x.pdf"], "--plot x.pdf: the file must end in"),
        (["eb1875", "ordinary", "--scheduler", "x"], "--scheduler 'x': give the scheduler's"),
        (["eb1875", "ordinary", "--bench", "--plot", "a.png"], "leave out --plot"),
    ],
)
def test_bad_arguments_get_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    status, out, err = run(capsys, "compare", *argv, "--games", "1")
    assert status == 1 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("bezique: ")
    assert says in err


@pytest.mark.parametrize(
    ("option", "path", "says"),
    [
        (
            "--plot",
            "no-such-folder/x.png",
            "--plot no-such-folder/x.png: no folder 'no-such-folder'",
        ),
        ("--html", "no-such-folder/x.html", "--html no-such-folder/x.html: no folder"),
        ("--html", ".", "--html .: is a folder; name a file to write"),
        ("--html", "same.svg", "--plot and --html name the same file same.svg"),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_any_game(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    option: str,
    path: str,
    says: str,
) -> None:
    monkeypatch.chdir(tmp_path)

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("games were played before the outputs were checked")

    monkeypatch.setattr("bezique.compare.comparison.compare", no_games)
    extra = ["--plot", "same.svg"] if path == "same.svg" else []
    status, out, err = run(capsys, "compare", "eb1875", "ordinary", *extra, option, path)
    assert (status, out) == (1, "")
    assert len(err.splitlines()) == 1 and err.startswith(f"bezique: {says}")


def test_a_bad_game_count_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "compare", "eb1875", "ordinary", "--games", "0")
    assert status == 2 and "argument --games: '0' must be at least 1" in err


def test_the_bench_alternates_and_checks_the_results() -> None:
    found = run_bench(["eb1875", "ordinary"], 1, 0, "random", 2, rounds=1)
    assert found["jobs"] == [1, 2] and found["identical"] is True
    assert [len(found["seconds"][k]) for k in ("1", "2")] == [1, 1]
    assert set(found["per_variant_games_per_second"]) == {"eb1875", "ordinary"}
    lines = format_bench(found).splitlines()
    assert lines[0].startswith("compare eb1875, ordinary: 1 game a variant a round")
    assert any(line.startswith("ratio ") for line in lines)


def test_the_help_texts_print(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "figures with 95% intervals" in " ".join(out.split())
    status, out, _ = run(capsys, "compare", "--help")
    assert status == 0 and "with 95% intervals (points per" in " ".join(out.split())


def test_the_page_holds_the_rule_by_rule_diff(small: Any) -> None:
    html = page(small)
    fragment = diff_html([ruleset_for(v) for v in VARIANTS])
    assert fragment in html
    assert "declarations.per_trick" in fragment  # (eb1875 and modern-article differ there)


def test_plain_tables_off_a_terminal(small: Any) -> None:
    import io

    from bezique.compare.text import print_tables

    stream = io.StringIO()
    print_tables(small.result, stream)
    assert stream.getvalue() == text(small.result) + "\n"
    assert "\x1b" not in stream.getvalue()

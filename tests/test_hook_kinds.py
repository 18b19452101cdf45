"""Hooks by kind (decide, collect, notify), the built-ins' entry points, and the seams.

Each test plugin here is registered under a name for the test's duration and listed
by a small house-rule file, exactly as a third party's plugin would be.
"""

from __future__ import annotations

import os
import random
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from bezique.actions import ScoreEvent
from bezique.errors import PluginError, PluginHookError
from bezique.game import GameState, new_game
from bezique.hookspecs import answers_when, hookimpl
from bezique.testing import points_by_rule, scenario
from bezique.variant import registry

BUILT_INS = {"ordinary", "grand", "polish", "multihand", "partnership"}


# Plugins registered by a test are forgotten after it (the fixture is conftest's).
pytestmark = pytest.mark.usefixtures("fresh_registry")


def house(tmp_path: Path, *plugins: str, extends: str = "ordinary", extra: str = "") -> str:
    """Write a house rule extending ``extends`` with the plugins listed; return its path."""
    path = tmp_path / f"house-{'-'.join(plugins) or 'none'}.yaml"
    listed = ", ".join(plugins)
    path.write_text(
        f"name: house\nextends: {extends}\nsummary: A house rule.\nplugins: [{listed}]\n{extra}",
        encoding="utf-8",
    )
    return os.fspath(path)


# The ordinary game with seat 1 dealing: seat 0 leads 7S, seat 1 follows 7D and
# seat 0 wins the trick (no trump in it); neither can declare after it.
BLANK_HANDS = [
    ["7S", "8S", "9S", "7C", "8C", "9C", "AS", "TS"],
    ["7D", "8D", "9D", "8H", "9H", "AD", "TD", "AC"],
]


def blank_deal(variant: str, stock: list[str]) -> GameState:
    return scenario(variant, hands=BLANK_HANDS, turn_up="8H", stock=stock, dealer=1)


# --------------------------------------------------------------------------- the kinds


class Tagger:
    """Collect: one event per trick, tagged with this plugin's name."""

    def __init__(self, tag: str) -> None:
        self.tag = tag

    @hookimpl
    def bezique_trick_scores(self, winner: int) -> list[ScoreEvent]:
        return [ScoreEvent(winner, 1, self.tag)]


def test_collect_joins_every_plugins_answer_in_the_order_listed(tmp_path: Path) -> None:
    registry.register_plugin("tag-a", Tagger("a"))
    registry.register_plugin("tag-b", Tagger("b"))
    for listed in (["tag-a", "tag-b"], ["tag-b", "tag-a"]):
        game = blank_deal(house(tmp_path, "ordinary", *listed), ["8C", "KS"])
        game.apply("play 7S")
        game.apply("play 7D")
        trick = [e.rule for e in game.events]
        # The ordinary plugin's answer (nothing: no brisque, not the last trick) and
        # then each tagger's, in the order of the plugins: list.
        assert trick == ["a", "b"] if listed[0] == "tag-a" else ["b", "a"]
        assert game.scores == [2, 0]


class Recorder:
    """Notify: writes down each deal and trick it is told of."""

    def __init__(self) -> None:
        self.told: list[tuple[str, int, tuple[int, ...]]] = []

    @hookimpl
    def bezique_after_deal(self, state: GameState) -> None:
        self.told.append(("deal", state.dealer, ()))

    @hookimpl
    def bezique_after_trick(self, state: GameState, winner: int, cards: list[int]) -> str:
        self.told.append(("trick", winner, tuple(cards)))
        return "ignored"  # a notify hook's answer counts for nothing


def test_notify_tells_every_plugin_of_the_deal_and_each_trick(tmp_path: Path) -> None:
    recorder = Recorder()
    registry.register_plugin("recorder", recorder)
    game = blank_deal(house(tmp_path, "ordinary", "recorder"), ["8C", "KS"])
    assert recorder.told == [("deal", 1, ())]
    game.apply("play 7S")
    game.apply("play 7D")
    seven_spades, seven_diamonds = game.won[0]
    assert recorder.told[1] == ("trick", 0, (seven_spades, seven_diamonds))
    assert game.deck.card_text(seven_spades) == "7S"
    assert game.to_act == 0 and len(game.hands[0]) == 8  # "ignored" changed nothing


class Winner:
    """Decide: whoever played the second card wins every trick."""

    @hookimpl
    def bezique_trick_winner(self) -> int:
        return 1


def test_decide_asks_the_plugin_listed_last_first(tmp_path: Path) -> None:
    registry.register_plugin("second-wins", Winner())
    game = blank_deal(house(tmp_path, "ordinary", "second-wins"), ["8C", "KS"])
    game.apply("play 7S")
    game.apply("play 7D")
    assert game.leader == 1  # the plugin's answer, not the ordinary rule's (7S wins)


class WinnerInFours:
    """Decide, only where four play: whoever played the second card wins every trick."""

    asked = 0

    @answers_when(lambda data: data["players"] == 4)
    @hookimpl
    def bezique_trick_winner(self) -> int:
        WinnerInFours.asked += 1
        return 1


def test_an_implementation_that_cannot_answer_in_a_variant_is_not_asked(tmp_path: Path) -> None:
    registry.register_plugin("second-wins-in-fours", WinnerInFours())
    game = blank_deal(house(tmp_path, "ordinary", "second-wins-in-fours"), ["8C", "KS"])
    game.apply("play 7S")
    game.apply("play 7D")
    assert game.leader == 0 and WinnerInFours.asked == 0  # the ordinary rule: 7S wins
    assert game.rules.owners["bezique_trick_winner"] == "ordinary"


def test_a_failing_answers_when_predicate_is_named_with_its_plugin(tmp_path: Path) -> None:
    class Broken:
        @answers_when(lambda data: data["no such key"])
        @hookimpl
        def bezique_trick_winner(self) -> int:
            return 1

    registry.register_plugin("broken-predicate", Broken())
    with pytest.raises(PluginHookError, match="'broken-predicate' failed in bezique_trick_winner"):
        new_game(house(tmp_path, "ordinary", "broken-predicate"))


def test_the_carte_blanche_offer_is_asked_only_where_carte_blanche_is_played() -> None:
    assert new_game("ordinary").rules.play_options is None
    assert new_game("ordinary").rules.play_option is None
    assert new_game("house-carte-blanche").rules.play_options is not None
    assert new_game("six-pack").rules.play_option is not None


# --------------------------------------------------------------------------- the seams


class BlankDraws:
    """Scores 50 each time a card drawn leaves the drawer's hand without a court card."""

    @hookimpl
    def bezique_draw_scores(self, state: GameState, player: int, card: int) -> list[ScoreEvent]:
        ranks = state.deck.card_rank
        courts = {state.deck.rank_index(r) for r in "KQJ"}
        if any(ranks[c] in courts for c in state.hands[player]):
            return []
        return [ScoreEvent(player, 50, "carte_blanche.repeated", state.deck.card_text(card))]


def test_draw_scores_score_each_card_as_it_is_drawn(tmp_path: Path) -> None:
    registry.register_plugin("blank-draws", BlankDraws())
    game = blank_deal(
        house(tmp_path, "ordinary", "blank-draws"), ["8C", "KS", "9D", "7C", "QS", "8D"]
    )
    game.apply("play 7S")
    game.apply("play 7D")
    # Seat 0 won the trick and draws first: 8C keeps his hand blank; seat 1's KS does not.
    assert [(e.player, e.points, e.rule, e.detail) for e in game.events] == [
        (0, 50, "carte_blanche.repeated", "8C")
    ]
    game.apply("play 8S")
    game.apply("play 8D")
    assert points_by_rule(game, 0) == {"carte_blanche.repeated": 100}  # 9D: still blank
    game.apply("play 9S")
    game.apply("play 9D")
    assert game.deck.card_text(game.hands[0][-1]) == "QS"
    assert points_by_rule(game, 0) == {"carte_blanche.repeated": 100}  # QS: blank no more


def test_a_draw_that_scores_the_last_points_ends_the_game_there(tmp_path: Path) -> None:
    registry.register_plugin("blank-draws", BlankDraws())
    short = "game:\n  target: 50\n"
    path = house(tmp_path, "ordinary", "blank-draws", extra=short)
    game = blank_deal(path, ["8C", "KS", "9D", "7C"])
    game.apply("play 7S")
    game.apply("play 7D")
    assert game.scores == [50, 0] and game.winner == 0
    assert game.is_over() and game.legal_actions() == []
    assert len(game.hands[1]) == 7  # seat 1 never drew: the game ended at seat 0's card


def test_without_a_draw_scores_hook_the_draw_asks_nothing() -> None:
    assert new_game("ordinary", seed=1).rules.draw_scores is None


class Settlement:
    """Settles a finished game: 500 to the winner, and 2000 to the loser (which wins nothing)."""

    @hookimpl
    def bezique_settlement(self, state: GameState) -> list[ScoreEvent]:
        loser = 1 - state.winner
        return [ScoreEvent(state.winner, 500, "game_bonus"), ScoreEvent(loser, 2000, "solace")]


def test_settlement_scores_once_the_game_is_won_and_the_winner_stands(tmp_path: Path) -> None:
    registry.register_plugin("settlement", Settlement())
    short = "game:\n  target: 300\n"
    plain = new_game(house(tmp_path, "ordinary", extra=short), seed=7)
    settled = new_game(house(tmp_path, "ordinary", "settlement", extra=short), seed=7)
    for game in (plain, settled):
        game.playout(random.Random(7), hands=None)
    assert settled.history == plain.history
    winner = plain.winner
    assert settled.winner == winner
    assert [(e.player, e.points, e.rule) for e in settled.events[-2:]] == [
        (winner, 500, "game_bonus"),
        (1 - winner, 2000, "solace"),
    ]
    assert settled.events[:-2] == plain.events
    expected = list(plain.scores)
    expected[winner] += 500
    expected[1 - winner] += 2000
    assert settled.scores == expected
    assert settled.is_over() and settled.legal_actions() == []


def test_trumps_fixed_by_a_declaration_in_a_three_hand_game() -> None:
    # Trumps by the first marriage (S0 footnote 1) in a variant of the multihand plugin.
    game = scenario(
        "three-hand",
        hands=[
            ["KS", "QS", "7C", "8C", "9C", "7D", "8D", "AC"],
            ["7S", "8S", "9S", "TD", "TC", "8H", "9H", "JC"],
            ["7H", "TH", "AH", "JH", "JD", "QC", "KC", "QD"],
        ],
        stock=["AS", "TS", "JS"],
        dealer=2,
        overrides={"trumps": {"mode": "first_marriage"}},
    )
    assert game.trump == -1 and game.turn_up == -1
    for card in ("AC", "8S", "7H"):  # seat 0 wins with the only ace
        game.apply(f"play {card}")
    assert game.to_act == 0
    game.apply("declare royal_marriage KS QS")
    assert game.deck.suits[game.trump] == "S"
    assert points_by_rule(game, 0) == {"brisques": 10, "royal_marriage": 40}  # AC won


def test_fix_trump_refuses_a_second_suit_and_a_suit_that_is_not() -> None:
    game = new_game("ordinary", seed=3)
    with pytest.raises(ValueError, match="trumps are fixed already"):
        game.fix_trump((game.trump + 1) % 4)
    fresh = new_game("ordinary", seed=3, overrides={"trumps": {"mode": "first_marriage"}})
    with pytest.raises(ValueError, match="no suit 4"):
        fresh.fix_trump(4)


# --------------------------------------------------------------------------- registration


def test_the_built_in_plugins_are_the_frameworks_own_entry_points() -> None:
    points = {p.name: p for p in entry_points(group="bezique")}
    assert set(points) >= BUILT_INS
    for name in BUILT_INS:
        dist = points[name].dist
        assert dist is not None and dist.name == "bezique"
        assert points[name].value == f"bezique.plugins.{name}"
    assert set(registry.known_plugins()) >= BUILT_INS


def test_without_the_frameworks_entry_points_an_error_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(registry, "_entry_points", lambda blocked: {})
    assert registry.MISSING_BUILTINS in registry.plugin_problems()
    with pytest.raises(PluginError, match="entry points are not installed"):
        registry.plugin_manager(["ordinary"])


def test_a_misspelt_hook_is_refused_naming_the_plugin_and_the_near_hook() -> None:
    class Misspelt:
        @hookimpl
        def bezique_after_trik(self) -> None:
            return None

    with pytest.raises(PluginError) as error:
        registry.register_plugin("misspelt", Misspelt())
    assert "plugin 'misspelt'" in str(error.value)
    assert "did you mean 'bezique_after_trick'?" in str(error.value)


# --------------------------------------------------------------------------- failures


class Faulty:
    """A plugin with a defect: its trick winner divides by zero."""

    @hookimpl
    def bezique_trick_winner(self, cards: list[int]) -> int:
        return len(cards) // 0


def test_a_plugin_failing_during_play_is_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from bezique.commands.cli import main

    registry.register_plugin("faulty", Faulty())
    path = house(tmp_path, "ordinary", "faulty")
    monkeypatch.delenv("BEZIQUE_TRACEBACK", raising=False)
    assert main(["simulate", "--variant", path, "--games", "1"]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    line = Faulty.bezique_trick_winner.__code__.co_firstlineno + 2
    assert err == (
        "bezique: plugin 'faulty' failed in bezique_trick_winner (test_hook_kinds.py:"
        f"{line} in bezique_trick_winner): ZeroDivisionError: integer division or modulo by "
        "zero; fix or uninstall it, or set BEZIQUE_BLOCK_PLUGINS=faulty to hide it "
        "(BEZIQUE_TRACEBACK=1 shows the traceback)\n"
    )
    monkeypatch.setenv("BEZIQUE_TRACEBACK", "1")
    with pytest.raises(PluginHookError) as error:
        main(["simulate", "--variant", path, "--games", "1"])
    assert isinstance(error.value.__cause__, ZeroDivisionError)


def test_an_error_of_the_framework_itself_is_one_line_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from bezique.commands import cli

    def broken(args: object) -> int:
        raise RuntimeError("a defect\nover two lines")

    monkeypatch.delenv("BEZIQUE_TRACEBACK", raising=False)
    monkeypatch.setattr(cli, "_variants", broken)
    assert cli.main(["variants"]) == 1
    _, err = capsys.readouterr()
    assert err == (
        "bezique: internal error: RuntimeError: a defect over two lines; please report it "
        "(BEZIQUE_TRACEBACK=1 shows the traceback)\n"
    )

"""The table-action hooks, through a tiny plugin of their own, and the referee on them.

``Tally`` is a plugin of the test: ``claim tally`` scores a point to the seat to act,
``claim tally vote`` opens a phase of its own (``vote``), and switches make its table
hooks answer (the cards a seat may play, a card played, who takes a trick, the draw).
Each test would fail without the hook it uses. The referee (``bezique.plugins.referee``)
is reached through the same hooks and joins the ordinary game (``bezique_joins``).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import bezique.plugins.referee.play as referee_play
from bezique import actions, game
from bezique.actions import TABLE_KINDS, Action, Kind, ScoreEvent
from bezique.errors import IllegalActionError, PluginError
from bezique.game import GameState, new_game
from bezique.hookspecs import DRAWN, HELD, PhaseChoices, hookimpl
from bezique.plugins.referee import REMEDY
from bezique.records.record import record_of, replay
from bezique.rules import ruleset
from bezique.testing import play_out, points_by_rule, refuse, scenario
from bezique.variant import registry

CORE = Path(__file__).resolve().parent.parent / "core"
VARIANTS = Path(__file__).resolve().parent.parent / "variants"
DEALER = ["7C", "8C", "9C", "7D", "8D", "9D", "7S", "8S"]
ELDEST = ["AH", "AH", "9S", "9S", "JC", "TC", "TD", "8D"]
"""Seat 1 (the non-dealer) leads; neither hand can declare anything under hearts."""
STOCK = ["KS", "QD", "JS", "8H", "7H", "9D"]


class Tally:
    """A table plugin of the test; its switches say which of its table hooks answer."""

    def __init__(self) -> None:
        self.adjust = False
        self.owner_other = False
        self.draw_mode = ""
        self.played: list[tuple[int, int]] = []
        self.deals = 0

    @hookimpl
    def bezique_table_action(self, state: GameState, action: Action) -> bool | None:
        words = action.combo.split()
        if words[0] != "tally":
            return None  # the referee's, or nobody's
        if words[1:] == ["vote"]:
            state.extra["tally_vote"] = state.phase
            state.phase = "vote"
        elif words[1:] in (["yes"], ["no"]) and state.phase == "vote":
            held = state.extra.pop("tally_vote") == "held"
            state.phase = "play"
            if held:
                state.draw_round()
        elif words[1:]:
            raise IllegalActionError(f"tally: {' '.join(words[1:])!r} is no tally", "tally")
        else:
            state.score([ScoreEvent(state.to_act, 1, "tally")])
        return True

    @hookimpl
    def bezique_phase_choices(self, state: GameState) -> PhaseChoices | None:
        if state.phase != "vote":
            return None
        choices = [Action(Kind.CLAIM, (), f"tally {word}") for word in ("yes", "no")]
        return PhaseChoices(choices, "play waits for the vote", "tally")

    @hookimpl
    def bezique_adjust_plays(self, state: GameState, player: int, cards: list[int]) -> Any:
        return [max(cards)] if self.adjust else None

    @hookimpl
    def bezique_before_play(self, state: GameState, player: int, card: int) -> None:
        assert card in state.hands[player] and card not in state.trick
        self.played.append((player, card))

    @hookimpl
    def bezique_trick_owner(self, state: GameState, winner: int) -> int | None:
        return 1 - winner if self.owner_other else None

    @hookimpl
    def bezique_draw(self, state: GameState) -> str | None:
        if self.draw_mode == "hold":
            self.draw_mode = ""
            state.extra["tally_vote"] = "held"
            state.phase = "vote"
            return HELD
        if self.draw_mode == "leader only":
            state.draw_card(state.leader)
            return DRAWN
        return None

    @hookimpl
    def bezique_after_deal(self, state: GameState) -> None:
        self.deals += 1


class Joiner:
    """A plugin that joins the games of the tally plugin."""

    @hookimpl
    def bezique_joins(self) -> list[str]:
        return ["tally"]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fresh discovery of the plugins, forgotten after the test."""
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    monkeypatch.delenv(registry.BLOCK_ENV, raising=False)
    yield


@pytest.fixture
def tally(fresh: None, tmp_path: Path) -> Iterator[tuple[Tally, str]]:
    """The tally plugin, registered, and a house variant that lists it (no penalty table)."""
    plugin = Tally()
    registry.register_plugin("tally", plugin)
    path = tmp_path / "house.yaml"
    path.write_text(
        "name: house\nextends: ordinary\nsummary: A house rule.\n"
        "plugins: [ordinary, tally]\npenalties: null\n",
        encoding="utf-8",
    )
    yield plugin, os.fspath(path)


def stacked(variant: str, *, referee: bool = False) -> GameState:
    """Seat 0 deals; seat 1 leads AH and wins the first trick; hearts are trumps."""
    return scenario(variant, hands=[DEALER, ELDEST], turn_up="9H", stock=STOCK, referee=referee)


def texts(state: GameState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


# ------------------------------------------------------------------ taking table actions


def test_a_plugin_takes_its_table_actions_through_the_hook(tally: tuple[Tally, str]) -> None:
    _, house = tally
    state = stacked(house)
    assert not state.table_acted
    state.apply("claim tally")
    assert points_by_rule(state, 1) == {"tally": 1} and state.table_acted
    assert state.history[-1] == Action(Kind.CLAIM, (), "tally")
    error = refuse(state, "claim tally twice")
    assert str(error) == "tally: 'twice' is no tally" and error.rule == "tally"
    # What it does not take falls through to the referee (who joined): no penalty table.
    assert "no penalty table" in str(refuse(state, "irregular nine_cards 0"))
    play_out(state, ["play AH", "claim tally", "play 7C"])
    assert replay(record_of(state)).to_json() == state.to_json()


def test_a_table_action_no_plugin_takes_is_refused(
    fresh: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(registry.BLOCK_ENV, "referee")
    path = tmp_path / "plain.yaml"
    path.write_text("name: plain\nextends: ordinary\nsummary: Plain.\n", encoding="utf-8")
    state = stacked(os.fspath(path))
    assert state.rules.table_action is None
    for text in ("irregular nine_cards 0", "claim nine_cards add"):
        error = refuse(state, text)
        assert str(error) == (
            f"{text!r}: no plugin of this variant takes table actions (irregular, claim)"
        )
        assert error.rule == "plugins"
    assert not state.table_acted


def test_a_table_action_refused_leaves_the_hand_without_table_hooks(
    tally: tuple[Tally, str],
) -> None:
    plugin, house = tally
    plugin.adjust = True
    state = stacked(house)
    refuse(state, "claim tally twice")
    assert not state.table_acted
    assert len(state.legal_actions()) == 6  # the hook is not asked: AH AH 9S 9S ... once each


def test_at_the_game_end_no_table_action_is_taken(tally: tuple[Tally, str]) -> None:
    _, house = tally
    state = new_game(house, seed=3, overrides={"game": {"target": 100}})
    state.playout(random.Random(3), hands=None)
    assert state.is_over()
    assert str(refuse(state, "claim tally")) == "the game is over"


# ------------------------------------------------------------------ a phase of a plugin


def test_a_phase_a_plugin_opened_lists_its_choices_and_refuses_the_rest(
    tally: tuple[Tally, str],
) -> None:
    _, house = tally
    state = stacked(house)
    state.apply("claim tally vote")
    assert state.phase == "vote" and texts(state) == ["claim tally yes", "claim tally no"]
    assert state.observation(1)["legal"] == ["claim tally yes", "claim tally no"]
    error = refuse(state, "play AH")
    assert str(error) == "play waits for the vote: claim tally yes, claim tally no"
    assert error.rule == "tally"
    state.apply("claim tally no")
    assert state.phase == "play" and texts(state)[0] == "play AH"


# ------------------------------------------------------------------ the table hooks


def test_the_table_hooks_are_asked_only_after_a_table_action(tally: tuple[Tally, str]) -> None:
    plugin, house = tally
    plugin.adjust = True
    state = stacked(house)
    assert texts(state) == ["play AH", "play 9S", "play JC", "play TC", "play TD", "play 8D"]
    play_out(state, ["play AH", "play 7C"])
    assert plugin.played == []
    state.apply("claim tally")
    seat, top = state.to_act, max(state.hands[state.to_act])
    assert [a.cards for a in state.legal_actions()] == [(top,)]
    state.apply(state.legal_actions()[0])
    assert plugin.played == [(seat, top)]


def test_the_trick_owner_hook_gives_the_trick_to_another_seat(
    tally: tuple[Tally, str],
) -> None:
    plugin, house = tally
    plugin.owner_other = True
    state = stacked(house)
    state.apply("claim tally")
    play_out(state, ["play AH", "play 7C"])
    # Seat 1 won it and leads, but seat 0 took the cards and the ace's brisque.
    assert state.leader == 1 and len(state.won[0]) == 2 and not state.won[1]
    assert points_by_rule(state, 0) == {"brisques": 10}
    # The trick record says both: seat 1 led and won it, seat 0 took it and its points.
    (trick,) = state.tricks
    assert [state.deck.card_text(c) for c in trick.cards] == ["AH", "7C"]
    assert (trick.seats, trick.winner, trick.owner, trick.points) == ((1, 0), 1, 0, (10, 0))


def test_the_draw_hook_draws_itself_or_holds_the_draw(tally: tuple[Tally, str]) -> None:
    plugin, house = tally
    state = stacked(house)
    state.apply("claim tally")
    plugin.draw_mode = "leader only"
    play_out(state, ["play AH", "play 7C"])
    assert [len(hand) for hand in state.hands] == [7, 8]
    plugin.draw_mode = "hold"
    play_out(state, ["play AH", "play 8C"])
    assert state.phase == "vote" and [len(hand) for hand in state.hands] == [6, 7]
    state.apply("claim tally yes")  # the draw goes on: one card each
    assert state.phase == "play" and [len(hand) for hand in state.hands] == [7, 8]


def test_the_after_deal_hook_hears_every_deal(tally: tuple[Tally, str]) -> None:
    plugin, house = tally
    state = new_game(house, seed=5)
    assert plugin.deals == 1
    state.playout(random.Random(5), hands=2)
    assert plugin.deals == 3 and state.hand_no == 2


# ------------------------------------------------------------------ joining


def test_a_plugin_joins_the_games_of_the_plugins_it_names(fresh: None) -> None:
    registry.register_plugin("tally", Tally())
    registry.register_plugin("tally-joiner", Joiner())
    assert registry.game_plugins(["ordinary"]) == ["ordinary", "referee"]
    assert registry.game_plugins(["ordinary", "grand"]) == ["ordinary", "referee", "grand"]
    assert registry.game_plugins(["ordinary", "tally"]) == [
        "ordinary",
        "referee",
        "tally",
        "tally-joiner",
    ]
    assert registry.game_plugins(["ordinary", "referee"]) == ["ordinary", "referee"]


def test_a_blocked_referee_joins_nothing(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(registry.BLOCK_ENV, "referee")
    assert registry.game_plugins(["ordinary", "polish"]) == ["ordinary", "polish"]


def test_a_plugin_whose_joins_answer_is_wrong_is_refused(fresh: None) -> None:
    class Wrong:
        @hookimpl
        def bezique_joins(self) -> str:
            return "ordinary"

    with pytest.raises(PluginError) as info:
        registry.register_plugin("wrong", Wrong())
    assert str(info.value) == (
        "plugin 'wrong' (registered by register_plugin) cannot be used: its bezique_joins() "
        "returned a str, not a list of plugin names"
    )


@pytest.mark.parametrize("variant", sorted(path.stem for path in VARIANTS.glob("*.yaml")))
def test_every_shipped_variant_is_refereed_without_listing_the_referee(variant: str) -> None:
    rules = ruleset.ruleset_for(variant)
    assert "referee" not in rules.data["plugins"]
    names = [name for name, _ in rules.manager.list_name_plugin()]
    assert names == registry.game_plugins(rules.data["plugins"])
    assert names[: names.index("referee")] == ["ordinary"]
    assert rules.table_action is not None and rules.draw is not None


# ------------------------------------------------------------------ the referee on the hooks


def test_the_referees_play_hooks_wait_for_a_report(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    for name in ("on_play", "draw_round", "adjust_plays", "trick_owner"):
        real = getattr(referee_play, name)

        def spy(*args: Any, real: Any = real, name: str = name) -> Any:
            calls.append(name)
            return real(*args)

        monkeypatch.setattr(referee_play, name, spy)
    state = stacked("ordinary")
    play_out(state, ["play AH", "play 7C"])
    assert calls == []
    state.apply("irregular overdrew 0")
    assert state.table_acted and state.extra["referee"]["skip"] == [0, 0]
    play_out(state, ["play AH", "play 8C"])
    both = ["adjust_plays", "on_play"]
    assert calls == [*both, *both, "trick_owner", "draw_round"]
    state.playout(random.Random(1), hands=1)  # the next hand: no report in it
    calls.clear()
    assert not state.table_acted and "referee" not in state.extra
    play_out(state, [state.action_text(state.legal_actions()[0])])
    assert calls == []


def test_a_new_deal_within_a_claim_starts_a_hand_without_table_hooks() -> None:
    state = stacked("ordinary")
    state.apply("irregular exposed_card 9S")
    assert state.phase == REMEDY and state.table_acted
    state.apply("claim exposed_card new_deal")
    assert state.hand_no == 0 and state.phase == "play"
    assert not state.table_acted and "referee" not in state.extra


# ------------------------------------------------------------------ the kernel's side


def test_the_kernel_imports_no_plugin() -> None:
    for path in sorted(CORE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                plugin = name == "bezique.plugins" or name.startswith("bezique.plugins.")
                assert not plugin, f"{path.name} imports {name}"
                assert "referee" not in name.split("."), f"{path.name} imports {name}"
    assert importlib.util.find_spec("bezique.referee") is None


def test_the_old_names_still_work_with_a_warning() -> None:
    with pytest.warns(DeprecationWarning, match="bezique.game.REMEDY is deprecated"):
        assert game.REMEDY == REMEDY == "remedy"
    with pytest.warns(DeprecationWarning, match="REFEREE_KINDS is deprecated: use TABLE_KINDS"):
        assert actions.REFEREE_KINDS == TABLE_KINDS == (Kind.IRREGULAR, Kind.CLAIM)
    with pytest.raises(AttributeError):
        game.NO_SUCH_NAME  # noqa: B018

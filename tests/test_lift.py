"""The six-pack dealer's lift (plugin ``lift``) and the kernel's questions before the first lead.

PW6 and HER (S04, X-C4, M05a): the dealer lifts a packet
without counting it, his adversary guesses its size, a right guess scores the
guesser 150 and a packet of exactly 24 the dealer 250.  The tests play a test
variant over ``ordinary`` (the six-pack preset is the lead's); the packet's size is
chance, drawn from the seed, so a test "stacks" it by the seed that draws it.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bezique.actions import END_TURN, Action, Kind, ScoreEvent
from bezique.commands.cli import main
from bezique.errors import BeziqueError, IllegalActionError, PluginError, VariantError
from bezique.game import PLAY, QUESTION, GameState, from_json, new_game
from bezique.hookspecs import Question, hookimpl
from bezique.plugins.lift import LiftState, lift_state
from bezique.records.record import record_of, replay
from bezique.rules.ruleset import Ruleset, ruleset_for
from bezique.testing import points_by_rule, random_conformance, refuse, scenario
from bezique.variant.registry import register_plugin

LIFT = """\
name: lift-test
summary: Ordinary bezique with the six-pack dealer's lift (a test variant).
extends: ordinary
plugins: [ordinary, lift]
lift:
  enabled: true
  target: 24
  exact_bonus: 250
  guess_bonus: 150
  sizes: [20, 28]
"""

HANDS = [
    ["KH", "QH", "KH", "AH", "TH", "JH", "AS", "AC"],
    ["7S", "8S", "7C", "8C", "9S", "9C", "8D", "7D"],
]
"""Seat 0 deals; seat 1, the dealer's adversary, guesses and leads; no deal scores."""

ANSWERS = [f"choose lift {size}" for size in range(20, 29)]


@pytest.fixture(scope="module")
def variant(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("lift") / "lift-test.yaml"
    path.write_text(LIFT, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def rules(variant: str) -> Ruleset:
    return ruleset_for(variant)


def lifted(rules: Ruleset, packet: int, turn_up: str = "9H") -> GameState:
    """The stacked deal, with the first seed whose lift holds ``packet`` cards."""
    for seed in range(500):
        state = scenario(rules, hands=HANDS, turn_up=turn_up, seed=seed)
        lift = lift_state(state)
        assert lift is not None
        if lift.packet == packet:
            return state
    raise AssertionError(f"no seed below 500 lifts {packet} cards")


def texts(state: GameState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


# --------------------------------------------------------------------------- the scores


def test_a_packet_of_24_and_a_wrong_guess_scores_the_dealer_250_only(rules: Ruleset) -> None:
    state = lifted(rules, 24)
    state.apply("choose lift 23")
    assert state.events == [ScoreEvent(0, 250, "lift.exact", "seat 0 lifted exactly 24 cards")]
    assert state.scores == [250, 0]
    assert points_by_rule(state, 1) == {}


def test_a_right_guess_of_24_scores_both(rules: Ruleset) -> None:
    state = lifted(rules, 24)
    state.apply("choose lift 24")
    assert state.events == [
        ScoreEvent(0, 250, "lift.exact", "seat 0 lifted exactly 24 cards"),
        ScoreEvent(1, 150, "lift.guessed", "seat 1 guessed the 24 cards the dealer lifted"),
    ]
    assert state.scores == [250, 150]


def test_a_right_guess_of_23_scores_the_non_dealer_150_only(rules: Ruleset) -> None:
    state = lifted(rules, 23)
    state.apply("choose lift 23")
    assert state.events == [
        ScoreEvent(1, 150, "lift.guessed", "seat 1 guessed the 23 cards the dealer lifted")
    ]
    assert state.scores == [0, 150]


def test_a_wrong_guess_of_another_packet_scores_nothing(rules: Ruleset) -> None:
    state = lifted(rules, 27)
    state.apply("choose lift 24")
    assert state.events == [] and state.scores == [0, 0]
    assert lift_state(state) == LiftState(dealer=0, guesser=1, packet=27, guess=24)


def test_the_lift_scores_before_the_deal_and_play_then_begins(rules: Ruleset) -> None:
    """A seven turned up scores the dealer 10 once the packet is counted, after the lift."""
    state = lifted(rules, 24, turn_up="7H")
    assert state.events == []  # the deal waits for the guess
    state.apply("choose lift 20")
    assert [(e.player, e.points, e.rule) for e in state.events] == [
        (0, 250, "lift.exact"),
        (0, 10, "seven_of_trumps.turn_up_points"),
    ]
    assert (state.phase, state.to_act, state.leader) == (PLAY, 1, 1)
    assert texts(state) == [f"play {c}" for c in ("7S", "8S", "7C", "8C", "9S", "9C", "8D", "7D")]


# --------------------------------------------------------------------------- the question


def test_before_the_guess_the_legal_actions_are_exactly_the_answers(rules: Ruleset) -> None:
    state = lifted(rules, 22)
    assert (state.phase, state.to_act, state.dealer) == (QUESTION, 1, 0)
    assert texts(state) == ANSWERS
    assert state.legal_actions() == [
        Action(Kind.CHOOSE, (), f"lift {size}") for size in range(20, 29)
    ]
    assert [state.parse_action(t) for t in ANSWERS] == state.legal_actions()
    ids = state.legal_action_ids()
    assert len(set(ids)) == 9 and state.action_id(END_TURN) not in ids and min(ids) > 0


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("choose lift 29", "lift"),  # outside the sizes
        ("choose lift 19", "lift"),
        ("choose weather fine", "lift"),  # no such question
        ("play 7S", "lift"),  # the lead waits for the guess
        ("draw", "lift"),
    ],
)
def test_an_action_outside_the_menu_is_refused_naming_the_rule(
    rules: Ruleset, text: str, rule: str
) -> None:
    state = lifted(rules, 22)
    error = refuse(state, text)
    assert error.rule == rule
    assert str(error) == (
        "play waits for seat 1 to guess how many cards the dealer lifted: " + ", ".join(ANSWERS)
    )


def test_a_choice_with_no_question_open_is_refused(rules: Ruleset) -> None:
    state = lifted(rules, 22)
    state.apply("choose lift 22")
    error = refuse(state, "choose lift 22")
    assert error.rule == "play"
    assert str(error) == (
        "'choose lift 22': no question is open ('choose' answers a question a plugin "
        "asks before the hand's first lead)"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("choose lift", "'choose lift': write 'choose QUESTION ANSWER' (two words after 'choose')"),
        ("choose", "'choose': write 'choose QUESTION ANSWER' (two words after 'choose')"),
        ("choose lift 2 4", "'choose lift 2 4': write 'choose QUESTION ANSWER' (two words"),
    ],
)
def test_a_choice_not_written_as_two_words_is_a_notation_error(
    rules: Ruleset, text: str, message: str
) -> None:
    state = lifted(rules, 22)
    error = refuse(state, text)
    assert error.rule == "notation" and str(error).startswith(message)


def test_the_observation_shows_the_question_and_never_the_packet(rules: Ruleset) -> None:
    """Two games dealt alike whose packets differ look alike to both seats."""
    small, large = lifted(rules, 20), lifted(rules, 28)
    for seat in (0, 1):
        view = small.observation(seat)
        assert view == large.observation(seat)
        assert view["phase"] == "question" and view["to_act"] == 1
        assert view["question"] == {
            "name": "lift",
            "seat": 1,
            "answers": [str(size) for size in range(20, 29)],
        }
    assert small.observation(1)["legal"] == ANSWERS
    assert "legal" not in small.observation(0)


def test_the_deal_is_the_one_without_the_lift(variant: str) -> None:
    for seed in (1, 2, 3):
        with_lift, without = new_game(variant, seed=seed), new_game("ordinary", seed=seed)
        assert with_lift.hands == without.hands
        assert (with_lift.turn_up, with_lift.stock) == (without.turn_up, without.stock)


# --------------------------------------------------------------------------- records and saves


def test_a_record_with_the_lift_replays_with_bezique_replay(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = new_game(variant, seed=11)
    state.playout(random.Random(11), hands=2)
    assert [a.kind for a in state.history].count(Kind.CHOOSE) == 2  # hands 0 and 1
    assert state.phase == QUESTION and state.hand_no == 2  # the next hand waits for its guess
    assert replay(record_of(state)).to_json() == state.to_json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(state), indent=1), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    result: dict[str, Any] = json.loads(out)
    assert result["actions"] == len(state.history) and result["scores"] == state.scores


def test_a_game_saved_mid_question_loads_and_plays_on_alike(rules: Ruleset) -> None:
    state = lifted(rules, 24)
    saved = json.loads(json.dumps(state.to_json()))
    assert saved["phase"] == "question"
    assert saved["extra"]["lift"] == {"dealer": 0, "guesser": 1, "packet": 24, "guess": None}
    loaded, copy = from_json(saved), state.clone()
    for other in (loaded, copy):
        assert other.to_json() == state.to_json()
        assert texts(other) == ANSWERS
        other.apply("choose lift 24")
        assert other.scores == [250, 150] and other.phase == PLAY
    assert state.phase == QUESTION and state.scores == [0, 0]  # the original is untouched


def test_random_play_simulates_the_lift(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert random_conformance(variant, hands=6, seed=3) >= 6
    assert main(["simulate", "--variant", variant, "--games", "2", "--seed", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 2 and result["hands"] > 2


def test_the_lift_switched_off_asks_nothing(variant: str) -> None:
    state = new_game(variant, seed=5, overrides={"lift": {"enabled": False}})
    assert state.phase == PLAY and "lift" not in state.extra
    assert state.to_json()["history"] == []


# --------------------------------------------------------------------------- the variant's section


BONUSES = "enabled: true, exact_bonus: 250, guess_bonus: 150"


def write(tmp_path: Path, lift: str) -> str:
    text = LIFT.split("lift:\n")[0] + lift
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("lift", "message"),
    [
        (
            f"lift: {{{BONUSES}, target: 24, sizes: [28, 20]}}\n",
            ":5:71: lift.sizes: the smallest packet (28) is larger than the largest",
        ),
        (
            f"lift: {{{BONUSES}, target: 30, sizes: [20, 28]}}\n",
            ":5:67: lift.target: the target 30 lies outside the sizes 20 to 28: the dealer "
            "could never lift it",
        ),
        ("", ":1:1: the plugin 'lift' is listed, but the variant has no 'lift' section"),
    ],
)
def test_a_lift_section_that_cannot_be_played_is_refused_where_it_is_written(
    tmp_path: Path, lift: str, message: str
) -> None:
    path = write(tmp_path, lift)
    with pytest.raises(VariantError) as info:
        ruleset_for(path)
    assert [str(p) for p in info.value.problems] == [path + message]


# --------------------------------------------------------------------------- the seam


_serial = itertools.count()


class Asker:
    """A plugin that asks the seat named ``seat`` the question it is given, once a hand."""

    def __init__(self, name: str, question: Question) -> None:
        self.name, self.question = name, question

    @hookimpl
    def bezique_hand_question(self, state: GameState) -> Question | None:
        return None if state.extra.get(self.name) else self.question

    @hookimpl
    def bezique_answer(
        self, state: GameState, player: int, question: str, answer: str
    ) -> list[ScoreEvent] | None:
        if question != self.question.name:
            return None
        state.extra[self.name] = answer
        return []


@pytest.mark.parametrize(
    ("question", "message"),
    [
        (
            Question("Mood", 1, ["up"], "w", "r"),
            "the question 'Mood': a question's name is one word",
        ),
        (
            Question("mood", 2, ["up"], "w", "r"),
            "the question 'mood': seat 2 is no seat of this game",
        ),
        (Question("mood", 1, [], "w", "r"), "the question 'mood': it has no answers"),
        (Question("mood", 1, ["so so"], "w", "r"), "the question 'mood': every answer is one word"),
        (Question("mood", 1, ["up", "up"], "w", "r"), "the question 'mood': two answers are alike"),
    ],
)
def test_a_question_the_kernel_cannot_ask_is_a_plugin_error(
    question: Question, message: str
) -> None:
    name = f"asker-bad-{next(_serial)}"
    register_plugin(name, Asker(name, question))
    with pytest.raises(PluginError) as info:
        new_game("ordinary", overrides={"plugins": ["ordinary", name]}, seed=1)
    assert str(info.value).startswith(
        f"plugin {name!r} gave a wrong answer to bezique_hand_question: {message}"
    )


def test_two_plugins_ask_in_turn_the_one_listed_last_first() -> None:
    register_plugin(
        "asker-first", Asker("asker-first", Question("first", 0, ["a", "b"], "w0", "r0"))
    )
    register_plugin("asker-last", Asker("asker-last", Question("last", 1, ["c"], "w1", "r1")))
    state = new_game(
        "ordinary", overrides={"plugins": ["ordinary", "asker-first", "asker-last"]}, seed=2
    )
    assert (state.to_act, texts(state)) == (1, ["choose last c"])
    assert refuse(state, "choose first a").rule == "r1"
    state.apply("choose last c")
    assert (state.phase, state.to_act, texts(state)) == (
        QUESTION,
        0,
        ["choose first a", "choose first b"],
    )
    state.apply("choose first b")
    assert state.phase == PLAY and state.to_act == state.leader
    assert [state.action_text(a) for a in state.history] == ["choose last c", "choose first b"]
    assert replay(record_of(state)).to_json() == state.to_json()


def test_a_plugin_that_takes_no_answer_is_an_error_and_nothing_is_recorded() -> None:
    class Mute(Asker):
        @hookimpl
        def bezique_answer(
            self, state: GameState, player: int, question: str, answer: str
        ) -> list[ScoreEvent] | None:
            return None

    register_plugin("asker-mute", Mute("asker-mute", Question("mute", 1, ["x"], "w", "r")))
    state = new_game("ordinary", overrides={"plugins": ["ordinary", "asker-mute"]}, seed=3)
    before = state.to_json()
    with pytest.raises(
        BeziqueError, match="no plugin of this variant takes the answer to question 'mute'"
    ):
        state.apply("choose mute x")
    assert state.to_json() == before


def test_an_ordinary_game_asks_no_question() -> None:
    rules = ruleset_for("ordinary")
    assert rules.hand_question is None and rules.answer is None
    assert new_game(rules, seed=1).phase == PLAY
    with pytest.raises(IllegalActionError):
        new_game(rules, seed=1).apply("choose lift 24")


def test_the_lift_plays_on_six_pack_bezique() -> None:
    """The six-pack deal of twelve each is what the target of 24 stands for (S02, S04)."""
    section = {"enabled": True, "target": 24, "exact_bonus": 250, "guess_bonus": 150}
    overrides = {
        "plugins": ["ordinary", "grand", "rubicon", "lift"],
        "lift": {**section, "sizes": [20, 28]},
    }
    rules = ruleset_for("six-pack", overrides)
    assert rules.data["deal"]["hand_size"] * rules.players == 24
    state = next(
        s
        for s in (new_game(rules, seed=seed) for seed in range(500))
        if (lift := lift_state(s)) is not None and lift.packet == 24
    )
    assert state.hands == new_game("six-pack", seed=state.seed).hands
    state.apply("choose lift 24")
    assert [(e.player, e.points, e.rule) for e in state.events[:2]] == [
        (0, 250, "lift.exact"),
        (1, 150, "lift.guessed"),
    ]
    state.playout(random.Random(1), None)
    assert replay(record_of(state)).to_json() == state.to_json()

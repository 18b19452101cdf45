"""Faults injected at every hook the kernel calls during play: the action changes nothing.

For each game hook a test plugin, listed last (so it answers first), misbehaves once when
armed: it raises ``ValueError``, ``KeyboardInterrupt`` or ``SystemExit``, or answers
nonsense.  A seeded game is played on, at random, until the fault fires; then the error
must name the plugin and the hook (a ``PluginHookError``; the interruptions go on as
they are), the state must be exactly what it was before (its JSON form, ``==`` and its
legal actions, against a copy taken before), the game must go on as the copy does, and
the state must still save, load and replay from its record.  The hooks that may change
the state (notify hooks, the answer, the table hooks that act) change it before they
fail, and that change must be undone too.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bezique.actions import Action, Kind, ScoreEvent
from bezique.errors import BeziqueError, IllegalActionError, PluginHookError
from bezique.game import PLAY, GameState, from_json, new_game
from bezique.hookspecs import GAME_HOOKS, NOTIFY, PhaseChoices, Question, hookimpl
from bezique.records.record import record_of, replay
from bezique.variant import registry

# Plugins registered by a test are forgotten after it (the fixture is conftest's).
pytestmark = pytest.mark.usefixtures("fresh_registry")


FAULT_PHASE = "fault_phase"


FAULT_OPTION = Action(Kind.DECLARE, (), "fault_option")
"""An option before a card, ``declare fault_option``, offered once a hand by the helper."""


class Helper:
    """What some hooks need to be asked at all: a question each hand, table actions, a phase.

    It asks seat to lead a question after each deal (so ``bezique_answer`` is asked), takes
    ``irregular fault`` (after which the hand's table hooks are asked), and opens and closes
    a phase of its own (``irregular fault_phase``, ``irregular fault_resume``), whose
    choices ``bezique_phase_choices`` lists, and offers an option before a card once a hand
    (``declare fault_option``), so that ``bezique_play_option`` is asked to carry it out.
    """

    @hookimpl
    def bezique_hand_question(self, state: GameState) -> Question | None:
        if state.extra.get("fault_answered") == state.hand_no:
            return None
        return Question("fault", state.leader, ("yes", "no"), "play waits for a fault", "fault")

    @hookimpl
    def bezique_answer(self, state: GameState, question: str) -> list[ScoreEvent] | None:
        if question != "fault":
            return None
        state.extra["fault_answered"] = state.hand_no
        return []

    @hookimpl
    def bezique_play_options(self, state: GameState, player: int) -> list[Action] | None:
        if state.extra.get("fault_option") == state.hand_no:
            return None
        return [FAULT_OPTION]

    @hookimpl
    def bezique_play_option(
        self, state: GameState, player: int, action: Action
    ) -> list[ScoreEvent] | None:
        if action != FAULT_OPTION:
            return None
        state.extra["fault_option"] = state.hand_no
        return []

    @hookimpl
    def bezique_table_action(self, state: GameState, action: Action) -> bool | None:
        if action.combo == FAULT_PHASE:
            state.phase = FAULT_PHASE
        elif action.combo == "fault_resume":
            state.phase = PLAY
        elif action.combo != "fault":
            return None
        state.mark_changed()
        return True

    @hookimpl
    def bezique_phase_choices(self, state: GameState) -> PhaseChoices | None:
        if state.phase != FAULT_PHASE:
            return None
        resume = Action(Kind.IRREGULAR, (), "fault_resume")
        return PhaseChoices([resume], "play waits for the fault to be resumed", "fault")


NONSENSE: dict[str, Any] = {
    "bezique_deal_scores": [("ten", "points")],
    "bezique_hand_question": Question("fault", 99, ("yes",), "waits", "fault"),
    "bezique_answer": ["yes"],
    "bezique_trick_winner": 99,
    "bezique_legal_plays": [999],
    "bezique_trick_scores": [ScoreEvent(0, 1.5, "brisques")],  # type: ignore[arg-type]
    "bezique_draw_scores": [ScoreEvent(7, 10, "carte_blanche")],
    "bezique_hand_scores": "ten points",
    "bezique_game_winner": 99,
    "bezique_settlement": [ScoreEvent(0, True, "game_bonus")],
    "bezique_next_declarer": 5,
    "bezique_trick_players": [0, 0],
    "bezique_table_action": "yes",
    "bezique_phase_choices": PhaseChoices(["play QS"], "waits", "fault"),  # type: ignore[list-item]
    "bezique_wait_before_draw": "yes",
    "bezique_adjust_plays": [999],
    "bezique_trick_owner": -1,
    "bezique_draw": "maybe",
    "bezique_play_options": ["declare fault_option"],
    "bezique_play_option": [ScoreEvent(0, 10, "")],
}
"""For each hook whose answer the kernel uses, an answer it must refuse."""

WHAT_IS_WRONG = {
    "bezique_deal_scores": "('ten', 'points') is not a ScoreEvent",
    "bezique_hand_question": "seat 99 is no seat of this game",
    "bezique_answer": "'yes' is not a ScoreEvent",
    "bezique_trick_winner": "99 is not the position of a card in the trick (0 to 1)",
    "bezique_legal_plays": "999 is not one of the cards offered",
    "bezique_trick_scores": "points 1.5 are not a whole number",
    "bezique_draw_scores": "seat 7 is no seat (0 to 1)",
    "bezique_hand_scores": "'ten points' is not a list of score events",
    "bezique_game_winner": "99 is not a side (0 to 1)",
    "bezique_settlement": "points True are not a whole number",
    "bezique_next_declarer": "5 is no seat (-1 to 1)",
    "bezique_trick_players": "[0, 0] is not a list of seats (0 to 1), each at most once",
    "bezique_table_action": "'yes' is not True or False",
    "bezique_phase_choices": "its actions ['play QS'] are not a list of Action",
    "bezique_wait_before_draw": "'yes' is not True or False",
    "bezique_adjust_plays": "999 is not one of seat ",
    "bezique_trick_owner": "-1 is no seat (0 to 1)",
    "bezique_draw": "'maybe' is not 'drawn' or 'held'",
    "bezique_play_options": "['declare fault_option'] is not a list of actions",
    "bezique_play_option": "the rule and the detail must be text (the rule not empty)",
}

CHANGES_THE_STATE = {
    "bezique_after_deal",
    "bezique_play_option",
    "bezique_answer",
    "bezique_after_trick",
    "bezique_stock_exhausted",
    "bezique_table_action",
    "bezique_before_play",
    "bezique_draw",
}
"""The hooks that may change the state: the fault scribbles on it before it fails."""

TABLE_HOOKS = {
    "bezique_adjust_plays",
    "bezique_before_play",
    "bezique_trick_owner",
    "bezique_draw",
}
"""Asked only in a hand where a table action was taken: ``irregular fault`` comes first."""

BEFORE_ARMING = {**dict.fromkeys(TABLE_HOOKS, "irregular fault")}
BEFORE_ARMING["bezique_phase_choices"] = f"irregular {FAULT_PHASE}"
SHORT_GAME = {"bezique_settlement"}
"""Hooks asked once the game is over: played to 150 points."""
AT_TABLE = {"bezique_wait_before_draw"}
"""Hooks asked only in a game at a real table: a refereed game."""


def fault_plugin(hook: str, fault: str) -> Any:
    """A plugin whose ``hook`` misbehaves once, when armed: raises ``fault``, or answers nonsense.

    Disarmed (and once it has fired) it answers None: no answer, or nothing to add.
    """

    def misbehave(self: Any, state: GameState) -> Any:
        if not self.armed:
            return None
        self.armed = False
        self.fired = True
        if hook in CHANGES_THE_STATE:
            state.extra["fault_scribble"] = len(state.history)
            state.turn_up, state.scores[0] = -1, state.scores[0] + 1000
        if fault == "nonsense":
            return NONSENSE[hook]
        raise {
            "ValueError": ValueError("boom"),
            "KeyboardInterrupt": KeyboardInterrupt(),
            "SystemExit": SystemExit(3),
        }[fault]

    misbehave.__name__ = hook
    plugin_class = type("Fault", (), {hook: hookimpl(misbehave), "armed": False, "fired": False})
    return plugin_class()


def house(tmp_path: Path, short: bool) -> str:
    """A house rule of the ordinary game with the helper and the fault listed last."""
    path = tmp_path / "house-faults.yaml"
    target = "game:\n  target: 150\n" if short else ""
    path.write_text(
        "name: house-faults\nextends: ordinary\nsummary: Faults injected.\n"
        f"plugins: [ordinary, fault-helper, fault]\n{target}",
        encoding="utf-8",
    )
    return os.fspath(path)


CASES = [
    (hook, fault)
    for hook, kind in GAME_HOOKS.items()
    for fault in ("ValueError", "KeyboardInterrupt", "SystemExit", "nonsense")
    if fault != "nonsense" or kind != NOTIFY
]


def quick_cases() -> list[Any]:
    """CASES for parametrize: one fault a hook in the quick run, the fault kinds in turn."""
    kept = {hook: [f for h, f in CASES if h == hook] for hook in GAME_HOOKS}
    quick = {hook: faults[index % len(faults)] for index, (hook, faults) in enumerate(kept.items())}
    return [
        pytest.param(
            hook,
            fault,
            id=f"{hook[8:]}-{fault}",
            marks=() if quick[hook] == fault else pytest.mark.slow,
        )
        for hook, fault in CASES
    ]


@pytest.mark.parametrize(("hook", "fault"), quick_cases())
def test_a_fault_at_a_hook_changes_nothing_and_names_the_plugin(
    tmp_path: Path, hook: str, fault: str
) -> None:
    plugin = fault_plugin(hook, fault)
    registry.register_plugin("fault-helper", Helper())
    registry.register_plugin("fault", plugin)
    game = new_game(house(tmp_path, hook in SHORT_GAME), seed=11, referee=hook in AT_TABLE)
    rng = random.Random(5)
    if hook in BEFORE_ARMING:
        game.apply(BEFORE_ARMING[hook])
    plugin.armed = True
    if hook == "bezique_table_action":
        error, before, action = step(game, "irregular fault")
    else:
        for _ in range(2000):
            error, before, action = step(game, rng)
            if error is not None or game.is_over():
                break
    assert plugin.fired and error is not None, f"{hook} was never asked"

    if fault in ("KeyboardInterrupt", "SystemExit"):  # not the plugin's error: as it was
        assert type(error).__name__ == fault
    else:
        assert isinstance(error, PluginHookError)
        assert (error.plugin, error.hook) == ("fault", hook)
        message = str(error)
        if fault == "ValueError":
            assert message.startswith(f"plugin 'fault' failed in {hook} (test_hook_faults.py:")
            assert message.endswith("): ValueError: boom")
            assert isinstance(error.__cause__, ValueError)
        else:
            assert message.startswith(f"plugin 'fault' gave a wrong answer to {hook}: ")
            assert WHAT_IS_WRONG[hook] in message

    # Exactly as before: the JSON form, equality and the legal actions.
    assert game.to_json() == before.to_json()
    assert game == before
    assert game.legal_actions() == before.legal_actions()
    # The game goes on as the copy taken before does.
    retry = action if action is not None else before.legal_actions()[0]
    for state in (game, before):
        state.apply(retry)
    assert game == before
    while not game.is_over() and len(game.history) < len(before.history) + 30:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    # It saves, loads and replays from its record.
    assert from_json(game.to_json()) == game
    assert replay(record_of(game)) == game


def step(
    game: GameState, choice: random.Random | str
) -> tuple[BaseException | None, GameState, Action | str | None]:
    """One action (the text given, or one at random): the error it raised, if any.

    Also the copy of the game taken before, and the action (None when listing the legal
    actions failed before one was chosen).
    """
    before = game.clone()
    action: Action | str | None = None
    try:
        if isinstance(choice, str):
            action = choice
        else:
            legal = game.legal_actions()
            action = legal[choice.randrange(len(legal))]
        game.apply(action)
    except (BeziqueError, KeyboardInterrupt, SystemExit) as exc:
        return exc, before, action
    return None, before, action


# --------------------------------------------------------------------------- before a hook


def test_a_table_action_refused_after_a_change_changes_nothing(tmp_path: Path) -> None:
    class Sloppy:
        """Lays a card aside, then refuses the report (against the hook's word)."""

        @hookimpl
        def bezique_table_action(self, state: GameState, action: Action) -> bool:
            state.take(0, state.hands[0][0])
            raise IllegalActionError("no such irregularity here", "penalties")

    registry.register_plugin("sloppy", Sloppy())
    path = tmp_path / "sloppy.yaml"
    path.write_text(
        "name: sloppy\nextends: ordinary\nsummary: Sloppy.\nplugins: [ordinary, sloppy]\n",
        encoding="utf-8",
    )
    game = new_game(os.fspath(path), seed=3)
    before = game.clone()
    with pytest.raises(IllegalActionError, match="no such irregularity here"):
        game.apply("irregular nine_cards 1")
    assert game == before and game.hands == before.hands and not game.table_acted


@pytest.mark.parametrize("seed", [-5, "abc", 2**64, 2**70, True, 1.0, [1]])
def test_new_game_refuses_a_seed_no_record_can_hold(seed: Any) -> None:
    with pytest.raises(BeziqueError) as error:
        new_game("ordinary", seed=seed)
    assert str(error.value).startswith("seed ")
    assert "a seed is a whole number from 0 to 2**64 - 1 (records hold no other)" in str(
        error.value
    )


def test_the_largest_seed_is_the_records_largest() -> None:
    from bezique.engine.state import MAX_SEED
    from bezique.records.recordcheck import record_schema

    assert record_schema()["properties"]["seed"]["maximum"] == MAX_SEED
    game = new_game("ordinary", seed=MAX_SEED)
    game.apply(game.legal_actions()[0])
    assert replay(record_of(game)) == game
    assert from_json(game.to_json()) == game


@pytest.mark.parametrize(
    "action",
    [("play", "QS"), ["play QS"], None, 3, Action],
    ids=["tuple", "list", "none", "int", "class"],
)
def test_apply_says_what_it_takes(action: Any) -> None:
    game = new_game("ordinary", seed=1)
    before = game.clone()
    with pytest.raises(IllegalActionError) as error:
        game.apply(action)
    assert str(error.value).startswith(
        "apply takes an Action or an action's text (such as 'play QS'), not "
    )
    assert error.value.rule == "notation"
    assert game == before


# --------------------------------------------------------------------------- the card loop

FAST_HOOKS = ("bezique_trick_winner", "bezique_legal_plays", "bezique_trick_scores")
"""The hooks the kernel's card loop calls as the plugin's own function when it alone
answers (``Ruleset.fast_...``): the loop names the plugin and checks the answer itself."""


@pytest.mark.parametrize("fault", ["ValueError", "nonsense", "KeyboardInterrupt"])
@pytest.mark.parametrize("hook", FAST_HOOKS)
def test_a_fault_of_the_only_plugin_answering_a_hook_of_the_card_loop(
    monkeypatch: pytest.MonkeyPatch, hook: str, fault: str
) -> None:
    import bezique.plugins.ordinary as ordinary

    rules_of = getattr(ordinary, hook)
    armed = [False]

    def misbehaves() -> bool:
        if not armed[0]:
            return False
        armed[0] = False
        if fault == "ValueError":
            raise ValueError("boom")
        if fault == "KeyboardInterrupt":
            raise KeyboardInterrupt
        return True

    # Each with the ordinary plugin's arguments, so that it is bound as that one is.
    def trick_winner(state: GameState, cards: list[int]) -> Any:
        return NONSENSE[hook] if misbehaves() else rules_of(state, cards)

    def legal_plays(state: GameState, player: int, cards: list[int]) -> Any:
        return NONSENSE[hook] if misbehaves() else rules_of(state, player, cards)

    def trick_scores(state: GameState, winner: int, cards: list[int]) -> Any:
        return NONSENSE[hook] if misbehaves() else rules_of(state, winner, cards)

    functions: dict[str, Callable[..., Any]] = {
        "bezique_trick_winner": trick_winner,
        "bezique_legal_plays": legal_plays,
        "bezique_trick_scores": trick_scores,
    }
    faulty = functions[hook]
    monkeypatch.setattr(ordinary, hook, hookimpl(faulty))
    game = new_game("ordinary", seed=4)
    assert game.rules.owners[hook] == "ordinary"
    rng = random.Random(2)
    armed[0] = True
    for _ in range(300):
        error, before, _ = step(game, rng)
        if error is not None:
            break
    assert error is not None
    if fault == "KeyboardInterrupt":
        assert isinstance(error, KeyboardInterrupt)
    else:
        assert isinstance(error, PluginHookError)
        assert (error.plugin, error.hook) == ("ordinary", hook)
        if fault == "ValueError":
            assert str(error).startswith(f"plugin 'ordinary' failed in {hook} (test_hook_faults")
        else:
            assert str(error).startswith(f"plugin 'ordinary' gave a wrong answer to {hook}: ")
            assert WHAT_IS_WRONG[hook] in str(error)
    assert game == before and game.legal_actions() == before.legal_actions()
    legal = game.legal_actions()
    game.apply(legal[0])
    before.apply(legal[0])
    assert game == before
    assert from_json(game.to_json()) == game


def test_a_random_play_out_names_the_plugin_of_a_card_that_may_not_be_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bezique.plugins.ordinary as ordinary

    def nothing_playable(state: GameState, player: int, cards: list[int]) -> list[int]:
        return []

    monkeypatch.setattr(ordinary, "bezique_legal_plays", hookimpl(nothing_playable))
    game = new_game("ordinary", seed=4)
    with pytest.raises(PluginHookError) as error:
        game.playout(random.Random(1))
    assert str(error.value) == (
        "plugin 'ordinary' gave a wrong answer to bezique_legal_plays: no card may be "
        "played, though the hand holds some"
    )

"""Saved states: ``to_json`` / ``from_json`` round trips, and tampered states refused.

``from_json`` rebuilds a state by replaying its history from the variant (its rules
pinned by digest), seed, decks and first dealer, and every other key must then be
exactly what the replay gives.  Each tampering below is refused with a RecordError
that names the key (or ``history[INDEX]``).
"""

from __future__ import annotations

import copy
import json
import random
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from stacked import royal_deal

from bezique import __version__
from bezique.actions import Action, Kind
from bezique.engine.saved import saved_history
from bezique.errors import IllegalActionError, RecordError
from bezique.game import STATE_FORMAT, GameState, from_json, new_game
from bezique.hookspecs import hookimpl
from bezique.records.record import record_of, replay
from bezique.rules import ruleset
from bezique.rules.pinned import RulesWarning, digest_of
from bezique.rules.ruleset import ruleset_for
from bezique.variant import registry


@pytest.fixture(scope="module")
def state() -> GameState:
    """Seat 0 has won two tricks, declared a royal marriage and a sequence (on the table)."""
    game = royal_deal()
    for text in (
        "play AS",
        "play 7S",
        "declare royal_marriage KH QH",
        "draw",
        "play AC",
        "play 7C",
        "declare sequence AH TH KH QH* JH",
        "draw",
        "play TH*",
    ):
        game.apply(text)
    return game


@pytest.fixture()
def saved(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(state.to_json()))
    return data


def test_the_fixture_has_what_the_tamperings_need(state: GameState) -> None:
    assert [e.rule for e in state.events] == [
        "brisques",
        "royal_marriage",
        "brisques",
        "sequence",
    ]
    assert state.phase == "play" and state.to_act == 1
    assert sum(state.on_table) == 5  # both marriages' cards, the ace and knave, not the ten
    assert state.trick == [state.history[-1].cards[0]]


def test_round_trip_through_text_is_exact(state: GameState, saved: dict[str, Any]) -> None:
    assert saved["format"] == STATE_FORMAT == "bezique-state/2"
    rebuilt = from_json(saved)
    assert rebuilt.to_json() == state.to_json()
    assert rebuilt.legal_actions() == state.legal_actions()
    assert rebuilt.held == state.held and rebuilt.card_key == state.card_key
    assert rebuilt.declared_bits == state.declared_bits


def _swap_hand_and_stock(d: dict[str, Any]) -> None:
    d["hands"][1][0], d["stock"][0] = d["stock"][0], d["hands"][1][0]


def _card_from_won_to_won(d: dict[str, Any]) -> None:
    d["won"][1].append(d["won"][0].pop())


def _edit_event(d: dict[str, Any]) -> None:
    d["events"][1][1] += 210  # the royal marriage as 250, the score to match
    d["scores"][0] += 210
    d["hand_points"][0] += 210


def _not_played_cards(d: dict[str, Any]) -> list[int]:
    return [c for c in d["hands"][0] if c not in d["played"]]


TAMPERINGS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("duplicated card", lambda d: d["hands"][1].__setitem__(0, d["hands"][0][0]), "hands"),
    ("missing card", lambda d: d["hands"][1].pop(), "hands"),
    ("card added to the stock", lambda d: d["stock"].append(d["stock"][0]), "stock"),
    ("card swapped between hand and stock", _swap_hand_and_stock, "hands"),
    ("won card moved", _card_from_won_to_won, "won"),
    ("score edited", lambda d: d["scores"].__setitem__(0, d["scores"][0] + 10), "scores"),
    ("score event edited with its totals", _edit_event, "events"),
    ("score event dropped", lambda d: d["events"].pop(), "events"),
    ("hand points edited", lambda d: d["hand_points"].__setitem__(1, 20), "hand_points"),
    ("phase", lambda d: d.__setitem__("phase", "turn"), "phase"),
    ("seat to act", lambda d: d.__setitem__("to_act", 0), "to_act"),
    ("leader", lambda d: d.__setitem__("leader", 1), "leader"),
    ("trump", lambda d: d.__setitem__("trump", 0), "trump"),
    ("turn-up", lambda d: d.__setitem__("turn_up", d["stock"][0]), "turn_up"),
    ("card laid on the table", lambda d: d["on_table"].__setitem__(_held_card(d), 1), "on_table"),
    ("declared levels", lambda d: d["levels"].__setitem__(_held_card(d), 1), "levels"),
    ("winner", lambda d: d.__setitem__("winner", 0), "winner"),
    ("hand number", lambda d: d.__setitem__("hand_no", 3), "hand_no"),
    ("dealer", lambda d: d.__setitem__("dealer", 0), "dealer"),
    ("tricks done", lambda d: d.__setitem__("tricks_done", 7), "tricks_done"),
    ("trick", lambda d: d.__setitem__("trick", []), "trick"),
    ("random generator", lambda d: d["rng"][1].__setitem__(5, d["rng"][1][5] ^ 1), "rng"),
    ("plugin state", lambda d: d["extra"].__setitem__("places", {"x": [1]}), "extra"),
    (
        "pending announcements",
        lambda d: d["extra"]["pending"][0].append(["bezique", [3, 4]]),
        "extra",
    ),
    ("score as true/false", lambda d: d.__setitem__("tricks_done", True), "tricks_done"),
    ("score as a float", lambda d: d["scores"].__setitem__(1, float(d["scores"][1])), "scores"),
    ("seed changed (the deck is stacked)", lambda d: d.__setitem__("seed", d["seed"] + 1), "rng"),
]


def _held_card(d: dict[str, Any]) -> int:
    """A card in seat 1's hand (never on the table there)."""
    card: int = d["hands"][1][0]
    return card


@pytest.mark.parametrize(("what", "tamper", "key"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_a_tampered_state_is_refused_naming_the_key(
    saved: dict[str, Any], what: str, tamper: Callable[[dict[str, Any]], Any], key: str
) -> None:
    before = copy.deepcopy(saved)
    tamper(saved)
    assert json.dumps(saved) != json.dumps(before), what
    with pytest.raises(RecordError) as info:
        from_json(saved)
    lines = str(info.value).splitlines()
    assert any(
        line.startswith(
            f"saved game state: {key}: the saved value is not what the history replays to (saved "
        )
        and line.endswith("); the state was edited or damaged")
        for line in lines
    ), lines


@pytest.mark.parametrize(
    ("what", "tamper", "expected"),
    [
        (
            "an illegal action in the history",
            lambda d: d["history"].insert(1, [5, [], ""]),
            "saved game state: history[1] ([<Kind.END_TURN: 5>, (), ''], seat 1, hand 0): "
            "seat 1 must play a card to the trick",
        ),
        (
            "a float card number",
            lambda d: d["history"][0].__setitem__(1, [float(d["history"][0][1][0])]),
            "saved game state: history[0]: not an action: card 0.0 is not a card number",
        ),
        (
            "a true/false card number",
            lambda d: d["history"][0].__setitem__(1, [True]),
            "saved game state: history[0]: not an action: card True is not a card number",
        ),
        (
            "a kind that is no kind",
            lambda d: d["history"][0].__setitem__(0, 9),
            "saved game state: history[0]: not an action: kind 9 is not one of 0, 1, 2",
        ),
        (
            "a history entry that is no action",
            lambda d: d["history"].__setitem__(2, "play AS"),
            "saved game state: history[2]: 'play AS' is not [kind, [cards...], combination]",
        ),
        (
            "a key missing",
            lambda d: d.pop("scores"),
            "saved game state: scores: missing",
        ),
        (
            "a key added",
            lambda d: d.__setitem__("cheat", 1),
            "saved game state: 'cheat': not a key of a saved state",
        ),
        (
            "a whole float as the first dealer",
            lambda d: d.__setitem__("first_dealer", 1.0),
            "saved game state: first_dealer: 1.0 is not a whole number from 0 below 1000",
        ),
        (
            "a seed as text",
            lambda d: d.__setitem__("seed", "7"),
            "saved game state: seed: '7' is not a whole number",
        ),
        (
            "a deck with a card twice",
            lambda d: d["decks"][0].__setitem__(0, d["decks"][0][1]),
            "saved game state: decks[0]: must hold every card number from 0 to 63 once",
        ),
        (
            "the rules edited",
            lambda d: d["variant_data"]["game"].__setitem__("target", 100),
            "saved game state: variant_digest: ",
        ),
        (
            "a NUL in the variant",
            lambda d: d.__setitem__("variant", "ordinary\x00"),
            "saved game state: variant: 'ordinary\\x00' is not a variant name or path",
        ),
        (
            "not a saved state",
            lambda d: d.__setitem__("format", "bezique-state/9"),
            "not a saved game state (expected format 'bezique-state/2')",
        ),
    ],
)
def test_a_bad_input_of_a_state_is_refused_naming_where(
    saved: dict[str, Any], what: str, tamper: Callable[[dict[str, Any]], Any], expected: str
) -> None:
    tamper(saved)
    with pytest.raises(RecordError) as info:
        from_json(saved)
    assert str(info.value).startswith(expected), (what, str(info.value))


def test_rules_edited_with_a_matching_digest_are_checked_as_a_variant(
    saved: dict[str, Any],
) -> None:
    saved["variant_data"]["plugins"] = ["ordinary", "os.system"]
    saved["variant_digest"] = digest_of(saved["variant_data"])
    with pytest.warns(RulesWarning), pytest.raises(RecordError) as info:
        from_json(saved)
    assert str(info.value).startswith(
        "saved game state: variant_data: plugins[1]: unknown plugin 'os.system'"
    )


def test_a_state_of_a_house_rule_rebuilds_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "club.yaml").write_text(
        "name: club\nsummary: Ours.\nextends: ordinary\ngame:\n  target: 700\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    game = new_game("club.yaml", seed=9)
    game.playout(random.Random(9), hands=1)
    data = json.loads(json.dumps(game.to_json()))
    assert (data["variant"], data["overrides"]) == (
        "ordinary",
        {"name": "club", "summary": "Ours.", "game": {"target": 700}},
    )
    monkeypatch.chdir(tmp_path.parent)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rebuilt = from_json(data)
    assert rebuilt.rules.target == 700
    assert rebuilt.to_json() == game.to_json()


def test_a_state_that_names_a_file_loads_by_its_rules_and_never_reads_it(
    state: GameState, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "club.yaml").write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    data = {**state.to_json(), "variant": "club.yaml"}
    with pytest.warns(RulesWarning, match="the file is not read") as caught:
        rebuilt = from_json(data)
    assert all("root:" not in str(w.message) for w in caught)
    assert rebuilt.variant_spec == "ordinary"  # reported as the rules it carries are
    assert rebuilt.to_json() == state.to_json()
    old = {k: v for k, v in data.items() if k not in _PINNED}
    old["format"] = "bezique-state/1"
    with pytest.warns(DeprecationWarning), pytest.raises(RecordError) as info:
        from_json(old)
    assert str(info.value) == (
        "saved game state: variant: 'club.yaml' is a file's path, not a registered variant "
        "name; a record names its variant by registered name and the file is not read, and "
        "this one carries no rules (variant_data) to replay by"
    )


def test_a_state_renamed_to_another_variant_is_told_and_loads_as_what_it_plays(
    state: GameState,
) -> None:
    renamed = {**state.to_json(), "variant": "grand"}
    with pytest.warns(RulesWarning) as caught:
        rebuilt = from_json(renamed)
    assert [str(w.message) for w in caught] == [
        "saved game state: variant: names 'grand', but the rules carried (variant_data) are "
        "those of 'ordinary'; replaying with the rules recorded, as the variant 'ordinary'"
    ]
    assert (rebuilt.variant_spec, rebuilt.rules.variant.name) == ("ordinary", "ordinary")
    assert rebuilt.to_json() == state.to_json()
    with pytest.raises(RecordError) as info:
        from_json(renamed, rules="strict")
    assert str(info.value) == (
        "saved game state: variant: names 'grand', but the rules carried (variant_data) are "
        "those of 'ordinary'; refusing to replay (the file was edited, or names another "
        "variant than the one played)"
    )
    # The rules of grand as they are now cannot replay a game of ordinary.
    with pytest.warns(RulesWarning, match="as it is now"), pytest.raises(RecordError):
        from_json(renamed, rules="current")


TEA_ROOM = """\
name: tea-room
title: The tea room's bezique
summary: Ordinary bezique to 1500.
extends: ordinary
source: S0 for the whole game.
game:
  target: 1500
  source: The tea room's notice board.
"""


@pytest.fixture()
def tea_room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file of a registered variant, 'tea-room', that a test may edit (a test registry)."""
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    path = tmp_path / "tea-room.yaml"
    path.write_text(TEA_ROOM, encoding="utf-8")

    class TeaRoom:
        @staticmethod
        @hookimpl
        def bezique_variant_files() -> dict[str, Path]:
            return {"tea-room": path}

    registry.register_plugin("tea_room", TeaRoom)
    return path


def edit(path: Path, old: str, new: str) -> None:
    """Change the registered variant's file (and forget the rules loaded from it)."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    ruleset._REGISTERED.clear()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The tea room's notice board.", "The notice board of the tea room."),
        ("S0 for the whole game.", "S0 (EB9) for the whole game."),
        ("title: The tea room's bezique", "title: Bezique at the tea room"),
        ("summary: Ordinary bezique to 1500.", "summary: Ordinary bezique, game 1500."),
        ("  source: The tea room's notice board.\n", ""),
    ],
)
def test_reworded_prose_of_the_variant_is_no_change_of_rules(
    tea_room: Path, old: str, new: str
) -> None:
    game = new_game("tea-room", seed=4)
    game.playout(random.Random(4), hands=1)
    saved = json.loads(json.dumps(game.to_json()))
    record = record_of(game)
    edit(tea_room, old, new)
    assert ruleset_for("tea-room").variant.data != game.rules.variant.data
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for policy in ("recorded", "strict", "current"):
            assert from_json(saved, rules=policy).to_json()["history"] == saved["history"]
            assert replay(record, rules=policy).to_json()["history"] == saved["history"]
        # Played and saved again by the rules carried, prose and all: the same state.
        assert from_json(saved).to_json() == saved


def test_a_changed_rule_of_the_variant_is_told_beside_reworded_prose(tea_room: Path) -> None:
    game = new_game("tea-room", seed=4)
    game.playout(random.Random(4), hands=1)
    saved = json.loads(json.dumps(game.to_json()))
    edit(tea_room, "The tea room's notice board.", "The notice board.")
    edit(tea_room, "target: 1500", "target: 1200")
    with pytest.warns(RulesWarning) as caught:
        rebuilt = from_json(saved)
    (message,) = [str(w.message) for w in caught]
    assert message.startswith(
        "saved game state: the variant 'tea-room' now merges to different rules than those "
        "recorded (game.target: 1500 recorded, 1200 now; recorded sha256:"
    )
    assert rebuilt.rules.target == 1500
    with pytest.raises(RecordError, match="now merges to different rules"):
        from_json(saved, rules="strict")


def _as_written_before_the_ladder(saved: dict[str, Any]) -> dict[str, Any]:
    """``saved`` as written before variants said declarations.bezique_ladder (its rules lack it)."""
    data = copy.deepcopy(saved)
    del data["variant_data"]["declarations"]["bezique_ladder"]
    data["variant_digest"] = digest_of(data["variant_data"])
    return data


LADDER = "game:\n  target: 1500\n"
"""Where the tea room's file is edited to set declarations.bezique_ladder."""


def test_a_key_recorded_absent_and_now_at_its_default_is_no_change_of_rules(
    tea_room: Path,
) -> None:
    game = new_game("tea-room", seed=4)
    game.playout(random.Random(4), hands=1)
    saved = _as_written_before_the_ladder(json.loads(json.dumps(game.to_json())))
    assert ruleset_for("tea-room").variant.data["declarations"]["bezique_ladder"] == "additive"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for policy in ("recorded", "strict", "current"):
            assert from_json(saved, rules=policy).to_json()["history"] == saved["history"]
        # The rules recorded are played, and saved again as they were recorded.
        assert from_json(saved).to_json() == saved


def test_a_key_recorded_absent_and_now_set_otherwise_is_told(tea_room: Path) -> None:
    game = new_game("tea-room", seed=4)
    game.playout(random.Random(4), hands=1)
    saved = _as_written_before_the_ladder(json.loads(json.dumps(game.to_json())))
    edit(tea_room, LADDER, LADDER + "declarations:\n  bezique_ladder: difference\n")
    with pytest.warns(RulesWarning) as caught:
        rebuilt = from_json(saved)
    (message,) = [str(w.message) for w in caught]
    assert message.startswith(
        "saved game state: the variant 'tea-room' now merges to different rules than those "
        "recorded (declarations.bezique_ladder: 'additive' recorded, 'difference' now; "
        "recorded sha256:"
    )
    assert "bezique_ladder" not in rebuilt.rules.variant.data["declarations"]
    with pytest.raises(RecordError, match=r"declarations\.bezique_ladder: 'additive' recorded"):
        from_json(saved, rules="strict")


def test_a_key_recorded_otherwise_and_now_absent_is_told(tea_room: Path) -> None:
    edit(tea_room, LADDER, LADDER + "declarations:\n  bezique_ladder: difference\n")
    game = new_game("tea-room", seed=4)
    game.playout(random.Random(4), hands=1)
    saved = json.loads(json.dumps(game.to_json()))
    assert saved["variant_data"]["declarations"]["bezique_ladder"] == "difference"
    edit(tea_room, "bezique_ladder: difference", "bezique_ladder: null")
    assert "bezique_ladder" not in ruleset_for("tea-room").variant.data["declarations"]
    with pytest.warns(RulesWarning) as caught:
        rebuilt = from_json(saved)
    (message,) = [str(w.message) for w in caught]
    assert message.startswith(
        "saved game state: the variant 'tea-room' now merges to different rules than those "
        "recorded (declarations.bezique_ladder: 'difference' recorded, 'additive' now; "
        "recorded sha256:"
    )
    assert rebuilt.rules.variant.data["declarations"]["bezique_ladder"] == "difference"


def test_a_v1_state_still_loads_with_a_deprecation_warning(state: GameState) -> None:
    data = {k: v for k, v in state.to_json().items() if k not in _PINNED}
    data["format"] = "bezique-state/1"
    with pytest.warns(DeprecationWarning, match="bezique-state/1"):
        rebuilt = from_json(data)
    assert rebuilt.to_json() == state.to_json()
    del data["trick_order"], data["won_at_exhaustion"]  # the earliest states lacked them
    with pytest.warns(DeprecationWarning):
        assert from_json(data).to_json() == state.to_json()


_PINNED = ("bezique", "variant_digest", "variant_data")


def test_the_state_round_trips_without_a_warning(state: GameState) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert from_json(state.to_json()) == state


def test_a_finished_game_round_trips() -> None:
    game = new_game("ordinary", seed=8)
    game.playout(random.Random(8), hands=None)
    assert game.is_over()
    assert from_json(json.loads(json.dumps(game.to_json()))).to_json() == game.to_json()


# --------------------------------------------------------------------------- actions


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ((Kind.PLAY, (22.0,)), "not an action: card 22.0 is not a card number (a whole number)"),
        ((Kind.PLAY, (True,)), "not an action: card True is not a card number (a whole number)"),
        ((Kind.PLAY, ("22",)), "not an action: card '22' is not a card number (a whole number)"),
        ((Kind.PLAY, "QS"), "not an action: cards 'QS' must be a tuple of card numbers"),
        ((Kind.DECLARE, (1, 2), None), "not an action: combination None is not a name"),
        ((9, ()), "not an action: kind 9 is not one of 0, 1, 2, 3, 4, 5, 6, 7, 8"),
        ((False, ()), "not an action: kind False is not one of 0, 1, 2, 3, 4, 5, 6, 7, 8"),
    ],
)
def test_an_action_checks_its_fields(fields: tuple[Any, ...], expected: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        Action(*fields)
    assert str(info.value) == expected
    assert info.value.rule == "notation"


def test_a_float_card_is_not_lost() -> None:
    game = new_game("ordinary", seed=1)
    before = game.to_json()
    card = game.legal_actions()[0].cards[0]
    with pytest.raises(IllegalActionError):
        game.apply(Action(Kind.PLAY, (float(card),)))  # type: ignore[arg-type]
    assert game.to_json() == before
    assert card in game.hands[game.to_act]


def test_an_action_keeps_its_forms() -> None:
    action = Action(Kind.PLAY, (3,))
    assert action == (Kind.PLAY, (3,), "") and hash(action) == hash((Kind.PLAY, (3,), ""))
    assert Action(0, [3]) == action  # type: ignore[arg-type]
    assert type(Action(0, [3]).kind) is Kind  # type: ignore[arg-type]
    assert action._replace(combo="x") == (Kind.PLAY, (3,), "x")
    with pytest.raises(IllegalActionError):
        action._replace(cards=(3.0,))  # type: ignore[arg-type]
    assert repr(action) == "Action(Kind.PLAY, (3,))" and str(action) == "play #3"


SAVED_BY_0_1_0 = sorted((Path(__file__).parent / "saved_states").glob("*.json"))
"""States written by ``to_json`` before the split of ``GameState`` (the first format): an
ordinary game in the middle of a turn, a Polish game with open rows, a refereed four-hand game."""


def test_the_saved_states_are_there() -> None:
    assert [p.stem for p in SAVED_BY_0_1_0] == [
        "ordinary_mid_turn",
        "partners_refereed",
        "polish_mid_hand",
    ]


@pytest.mark.parametrize("path", SAVED_BY_0_1_0, ids=lambda p: p.stem)
def test_a_state_saved_by_an_earlier_version_loads_and_saves_the_same(path: Path) -> None:
    # The same but for what the ordinary plugin keeps in its typed states now: the announced
    # combinations inside "extra", the cards taken for the seven inside "turn" (the saved
    # layout before that is mapped by bezique.engine.saved.upgraded).
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    # Keys added to the variants since (declarations.bezique_ladder, partnerships.partners_table)
    # are absent from the rules recorded, which meant their defaults: no change of rules.
    # The one note is of the version that saved it (0.1.0), not of any change of rules.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RulesWarning)
        state = from_json(data)
    notes = [str(w.message) for w in caught if issubclass(w.category, RulesWarning)]
    version_note = f"saved game state: recorded with bezique 0.1.0; this is bezique {__version__}"
    assert notes[0] == version_note
    # The polish and four-hand variants have since taken S0's swapped bezique cards (A11):
    # the state keeps the rules it recorded, with a note that names the key.
    swapped = ("polish_mid_hand", "partners_refereed")
    changed = ["declarations.bezique_cards"] if path.stem in swapped else []
    assert len(notes) == 1 + len(changed)
    for key, note in zip(changed, notes[1:], strict=True):
        assert "now merges to different rules than those recorded" in note and key in note
        assert note.endswith("replaying with the rules recorded")
    moved = dict(data)
    moved["bezique"] = __version__  # saved again by this version
    moved["extra"] = {**data["extra"], "pending": moved.pop("pending")}
    old_turn = ("declared", "scored", "blocked", "first_declared")
    moved["turn"] = dict(zip(old_turn, data["turn"], strict=True)) if any(data["turn"]) else {}
    # The trick record came since: the replay rebuilds it, and this hand's part of it is the
    # tricks the state saved (its count, and its cards played, the open trick's after them).
    saved = state.to_json()
    this_hand = [t for t in saved.pop("tricks") if t[0] == data["hand_no"]]
    assert len(this_hand) == data["tricks_done"] > 0
    assert [c for t in this_hand for c in t[2]] + data["trick"] == data["played"]
    # each trick's winner leads the next; the last one's leads now
    assert [t[3] for t in this_hand] == [t[1][0] for t in this_hand[1:]] + [data["leader"]]
    assert json.dumps(saved, sort_keys=True) == json.dumps(moved, sort_keys=True)
    assert state.clone() == state
    assert state.clone().to_json() == state.to_json()
    with warnings.catch_warnings(record=True) as again:  # saved again: the same rules note
        warnings.simplefilter("always", RulesWarning)
        assert from_json(state.to_json()) == state
    assert [str(w.message) for w in again if issubclass(w.category, RulesWarning)] == notes[1:]


def test_the_field_table_names_every_attribute_of_a_state() -> None:
    # clone, to_json and from_json's key checks are driven by bezique.engine.state.FIELDS: an
    # attribute it does not name would be shared by clones and lost by saving.
    # The compiled build (setup.py) keeps the attributes in slots: vars() is then empty.
    from bezique.engine.state import COMPUTED, FIELDS, KEPT, STORED

    assert set(COMPUTED) == {"state_format", "bezique_version", "variant_digest", "variant_data"}
    assert set(STORED) == {f.name for f in FIELDS} - set(COMPUTED)
    for state in (new_game("ordinary", seed=1), new_game("polish", seed=2, referee=True)):
        assert set(vars(state)) in ({*STORED}, set())
        assert all(hasattr(state, name) for name in STORED)
        saved = [f.key or f.name for f in FIELDS if f.role != KEPT]
        assert list(state.to_json()) == saved


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("variant_data", None, "variant_data: None is not the variant's merged data, a mapping"),
        ("variant_digest", None, "variant_digest: None is not sha256: and 64 hexadecimal digits"),
        ("bezique", 5, "bezique: 5 is not the bezique version, as text"),
        ("seed", 10**5000, "seed: a number too long to show is not a whole number from"),
    ],
    ids=["variant_data", "variant_digest", "bezique", "huge_seed"],
)
def test_pins_and_numbers_of_the_wrong_kind_are_refused_cleanly(
    key: str, value: Any, message: str
) -> None:
    saved = {**new_game("ordinary", seed=1).to_json(), key: value}
    with pytest.raises(RecordError) as info:
        from_json(saved)
    assert str(info.value).startswith(f"saved game state: {message}")


@pytest.mark.parametrize("version", ["", "0.1", "x.y", "1.0 ", "1..2", "v" * 80])
def test_a_version_that_is_not_one_is_refused(state: GameState, version: str) -> None:
    data = state.to_json()
    data["bezique"] = version
    if version == "0.1":  # another version: told, and the game loads
        with pytest.warns(RulesWarning, match="recorded with bezique 0.1; this is bezique"):
            assert from_json(data) == state
        return
    with pytest.raises(RecordError, match=r"bezique: .* is not a bezique version"):
        from_json(data)


@pytest.mark.parametrize("twin", [[1, [True], ""], [1, [1.0], ""], [True, [1], ""]])
def test_a_history_item_equal_to_an_earlier_one_but_of_other_types_is_refused(
    twin: list[object],
) -> None:
    first = saved_history([[1, [1], ""], [1, [1], ""]])
    assert first == [Action(Kind.DECLARE, (1,), "")] * 2
    with pytest.raises(RecordError, match=r"history\[1\]: not an action: (card|kind) "):
        saved_history([[1, [1], ""], twin])

"""Game records: writing, schema validation with where and what, and replay."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from stacked import royal_deal

from bezique.errors import IllegalActionError, RecordError
from bezique.game import GameState, new_game, ruleset_for
from bezique.record import (
    MAX_RECORD_BYTES,
    RECORD_FORMAT,
    check_record,
    hand_summaries,
    load_record,
    record_of,
    record_schema,
    replay,
)

RULES = ruleset_for("ordinary")


def played(seed: int, hands: int | None = 1) -> GameState:
    state = new_game("ordinary", seed=seed)
    state.playout(random.Random(seed), hands=hands)
    return state


@pytest.fixture(scope="module")
def one_hand() -> GameState:
    return played(3)


@pytest.fixture(scope="module")
def record(one_hand: GameState) -> dict[str, Any]:
    return record_of(one_hand)


def write(folder: Path, data: Any, name: str = "game.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(RecordError) as info:
        load_record(path)
    message = str(info.value)
    assert message.startswith(str(path)), message
    return message


# --------------------------------------------------------------------------- writing


def test_record_is_valid_and_plain_json(record: dict[str, Any], one_hand: GameState) -> None:
    check_record(record)
    jsonschema.Draft202012Validator(record_schema()).validate(record)
    assert record["format"] == RECORD_FORMAT
    assert record["variant"] == "ordinary"
    assert record["seed"] == one_hand.seed
    assert len(record["actions"]) == len(one_hand.history)
    assert all(isinstance(a, str) and a for a in record["actions"])
    assert json.loads(json.dumps(record)) == record


def test_record_file_round_trip(
    tmp_path: Path, record: dict[str, Any], one_hand: GameState
) -> None:
    path = write(tmp_path, record)
    loaded = load_record(path)
    assert loaded == record
    assert replay(loaded, str(path)).to_json() == one_hand.to_json()


def test_record_of_a_finished_game_replays() -> None:
    state = played(8, hands=None)
    rebuilt = replay(record_of(state))
    assert rebuilt.is_over()
    assert rebuilt.to_json() == state.to_json()


def test_record_with_stacked_deck_and_dealer_replays() -> None:
    state = royal_deal()
    state.playout(random.Random(1), hands=2)
    data = record_of(state)
    assert data["first_dealer"] == 1
    assert len(data["decks"]) == 1 and len(data["decks"][0]) == 64
    check_record(data)
    assert replay(data).to_json() == state.to_json()


def test_record_with_overrides_replays() -> None:
    state = new_game("ordinary", overrides={"declarations": {"per_trick": "one"}}, seed=12)
    state.playout(random.Random(12), hands=2)
    data = record_of(state)
    assert data["overrides"] == {"declarations": {"per_trick": "one"}}
    rebuilt = replay(data)
    assert rebuilt.rules.data["declarations"]["per_trick"] == "one"
    assert rebuilt.to_json() == state.to_json()


def test_record_defaults_seed_zero_and_dealer_zero() -> None:
    state = new_game("ordinary", seed=0)
    state.playout(random.Random(0), hands=1)
    minimal = {
        "format": RECORD_FORMAT,
        "variant": "ordinary",
        "actions": record_of(state)["actions"],
    }
    check_record(minimal)
    assert replay(minimal).to_json() == state.to_json()


def test_hand_summaries_add_up() -> None:
    state = played(21, hands=None)
    summaries = hand_summaries(state)
    assert [s["hand"] for s in summaries] == list(range(state.hand_no + 1))
    totals = [sum(s["points"][p] for s in summaries) for p in range(state.players)]
    assert totals == state.scores


def test_record_replays_the_copy_that_was_played() -> None:
    """Two kings of trumps on the table, one from a royal marriage, one from a sequence:
    the record must say which was played, so that the replay plays the same one."""
    state = royal_deal()
    for text in (
        "play AS",
        "play 7S",
        "declare royal_marriage KH QH",
        "draw",
        "play AC",
        "play 7C",
        "declare sequence AH TH KH QH* JH",
        "draw",
    ):
        state.apply(text)
    kings = [a for a in state.legal_actions() if state.deck.card_text(a.cards[0]) == "KH"]
    assert len(kings) == 2
    for king in kings:
        copy = state.clone()
        copy.apply(king)
        assert replay(record_of(copy)).to_json() == copy.to_json()


# --------------------------------------------------------------------------- bad files


@pytest.mark.parametrize("key", ["format", "variant", "actions"])
def test_missing_required_key(tmp_path: Path, record: dict[str, Any], key: str) -> None:
    data = {k: v for k, v in record.items() if k != key}
    message = load_error(write(tmp_path, data))
    assert f"'{key}' is a required property" in message
    assert ": $: " in message


@pytest.mark.parametrize(
    ("key", "value", "where", "what"),
    [
        ("actions", "play QS", "$.actions", "is not of type 'array'"),
        ("actions", [1, 2], "$.actions[0]", "1 is not of type 'string'"),
        ("actions", ["play QS", ""], "$.actions[1]", "should be non-empty"),
        ("seed", "seven", "$.seed", "'seven' is not of type 'integer'"),
        ("seed", -1, "$.seed", "-1 is less than the minimum of 0"),
        ("seed", 1.5, "$.seed", "1.5 is not of type 'integer'"),
        ("first_dealer", True, "$.first_dealer", "True is not of type 'integer'"),
        ("first_dealer", -2, "$.first_dealer", "-2 is less than the minimum of 0"),
        ("variant", 7, "$.variant", "7 is not of type 'string'"),
        ("variant", "", "$.variant", "should be non-empty"),
        ("overrides", ["game"], "$.overrides", "is not of type 'object'"),
        ("decks", "AS TS", "$.decks", "is not of type 'array'"),
        ("decks", [["AS", 5]], "$.decks[0][1]", "5 is not of type 'string'"),
        ("decks", [["AS", "ACES"]], "$.decks[0][1]", "'ACES' is too long"),
        ("format", "bezique-record/2", "$.format", "'bezique-record/1' was expected"),
        ("format", None, "$.format", "'bezique-record/1' was expected"),
    ],
)
def test_wrong_type_or_value(
    tmp_path: Path, record: dict[str, Any], key: str, value: Any, where: str, what: str
) -> None:
    path = write(tmp_path, {**record, key: value})
    message = load_error(path)
    assert f"{path}: {where}: " in message
    assert what in message


def test_every_problem_is_listed(tmp_path: Path, record: dict[str, Any]) -> None:
    data = {**record, "seed": "x", "first_dealer": "y"}
    del data["variant"]
    lines = load_error(write(tmp_path, data)).splitlines()
    assert len(lines) == 3
    assert all(line.startswith(str(tmp_path)) for line in lines)


def test_unknown_key(tmp_path: Path, record: dict[str, Any]) -> None:
    message = load_error(write(tmp_path, {**record, "comment": "hi"}))
    assert "comment" in message


@pytest.mark.parametrize("top", [[], "record", 3, None])
def test_not_an_object(tmp_path: Path, top: Any) -> None:
    message = load_error(write(tmp_path, top))
    assert ": $: " in message


def test_not_json(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(
        '{\n  "format": "bezique-record/1",\n  "variant": ordinary\n}\n', encoding="utf-8"
    )
    message = load_error(path)
    assert message.startswith(f"{path}:3:14: not JSON")


@pytest.mark.parametrize("raw", [b"", b"\x00", b"{", b"[1, 2", b"NaN is not", b'{"a": 1,}'])
def test_broken_json(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(raw)
    assert "not JSON" in load_error(path)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b'{"format": "bezique-record/1", "variant": "ordin\xe4ry", "actions": []}')
    message = load_error(path)
    assert "not UTF-8" in message
    assert "byte 48" in message


def test_too_big(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    text = json.dumps(record)
    path.write_text(text[:-1] + ', "pad": "' + "x" * MAX_RECORD_BYTES + '"}', encoding="utf-8")
    message = load_error(path)
    assert "larger than" in message


def test_too_deep(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    load_error(path)


def test_missing_file(tmp_path: Path) -> None:
    message = load_error(tmp_path / "nowhere.json")
    assert "cannot read" in message


def test_a_folder_is_not_a_record(tmp_path: Path) -> None:
    load_error(tmp_path)


def test_check_record_names_the_place() -> None:
    with pytest.raises(RecordError) as info:
        check_record({"format": RECORD_FORMAT, "variant": "ordinary", "actions": [3]}, "here")
    assert str(info.value).startswith("here: $.actions[0]: ")


# --------------------------------------------------------------------------- bad replays


def replay_error(data: dict[str, Any]) -> RecordError:
    check_record(data)
    with pytest.raises(RecordError) as info:
        replay(data, "game.json")
    assert str(info.value).startswith("game.json: ")
    return info.value


@pytest.mark.parametrize("index", [0, 1, 5, 40])
def test_illegal_action_reports_index_and_rule(record: dict[str, Any], index: int) -> None:
    actions = list(record["actions"])
    state = replay({**record, "actions": actions[:index]})
    assert state.phase == "play", "the index must fall on a card to play"
    actions[index] = "draw"
    error = replay_error({**record, "actions": actions})
    message = str(error)
    assert f"action {index} ('draw', seat {state.to_act}, hand 0)" in message
    assert "only the winner of a trick may declare" in message
    assert isinstance(error.__cause__, IllegalActionError)
    assert error.__cause__.rule == "declarations.after_winning"


def test_garbled_action_reports_index(record: dict[str, Any]) -> None:
    actions = list(record["actions"])
    actions[3] = "play XX"
    message = str(replay_error({**record, "actions": actions}))
    assert "action 3 ('play XX'" in message
    assert "'XX' is not a card" in message


def test_card_not_held_reports_index(record: dict[str, Any]) -> None:
    state = replay({**record, "actions": record["actions"][:2]})
    held = {state.deck.card_text(c) for c in state.hands[state.to_act]}
    absent = next(f"{r}{s}" for s in "SHDC" for r in "ATKQJ987" if f"{r}{s}" not in held)
    actions = [*record["actions"][:2], f"play {absent}", *record["actions"][3:]]
    message = str(replay_error({**record, "actions": actions}))
    assert f"action 2 ('play {absent}'" in message
    assert f"has no {absent}" in message


def test_actions_after_the_game_ends(tmp_path: Path) -> None:
    state = played(4, hands=None)
    data = record_of(state)
    data["actions"].append("draw")
    message = str(replay_error(data))
    assert f"action {len(state.history)} " in message
    assert "game is over" in message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"variant": "no-such-variant"}, "unknown variant"),
        ({"variant": "missing/file.yaml"}, "cannot read"),
        ({"overrides": {"game": {"target": "lots"}}}, "game.target"),
        ({"overrides": {"nonsense": 1}}, "nonsense"),
        ({"decks": [["AS"] * 64]}, "stacked deck"),
        ({"decks": [["ZZ"] * 64]}, "stacked deck"),
        ({"first_dealer": 2}, "dealer"),
    ],
)
def test_bad_setup_is_a_record_error(
    record: dict[str, Any], change: dict[str, Any], words: str
) -> None:
    message = str(replay_error({**record, **change}))
    assert words in message

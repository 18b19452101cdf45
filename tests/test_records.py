"""Game records: writing, schema validation with where and what, and replay."""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import re
import threading
import time
import tracemalloc
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from stacked import royal_deal

from bezique import __version__
from bezique.commands.cli import main
from bezique.errors import IllegalActionError, RecordError
from bezique.game import GameState, from_json, new_game, ruleset_for
from bezique.records.record import (
    MAX_RECORD_BYTES,
    RECORD_FORMAT,
    RECORD_FORMAT_V1,
    check_record,
    hand_summaries,
    load_record,
    parse_record,
    record_of,
    record_schema,
    replay,
)
from bezique.rules.pinned import POLICIES, RulesWarning, digest_of

RECORDS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "play" / "records.md"

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


def test_a_record_saved_with_a_byte_order_mark_is_read(
    tmp_path: Path, record: dict[str, Any], one_hand: GameState
) -> None:
    # Some editors (Notepad among them) start a UTF-8 file with the mark U+FEFF.
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(record, indent=1).encode("utf-8"))
    loaded = load_record(path)
    assert loaded == record
    assert replay(loaded, str(path)).to_json() == one_hand.to_json()
    assert parse_record("\ufeff" + json.dumps(record)) == record
    # Only one mark, at the start: a second one is not JSON.
    path.write_bytes(b"\xef\xbb\xbf" * 2 + json.dumps(record).encode("utf-8"))
    assert load_error(path).startswith(f"{path}:1:1: not JSON")


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
    full = record_of(state)
    minimal = {
        key: full[key]
        for key in ("format", "bezique", "variant", "variant_digest", "variant_data", "actions")
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
        ("format", "bezique-record/3", "$.format", "is not one of ['bezique-record/2', "),
        ("format", None, "$.format", "None is not one of ['bezique-record/2', 'bezique-record/1']"),
        ("first_dealer", 1.0, "$.first_dealer", "1.0 is not of type 'integer'"),
        ("seed", 3.0, "$.seed", "3.0 is not of type 'integer'"),
        ("seed", 2**64, "$.seed", "is greater than the maximum of 18446744073709551615"),
        ("variant", "ordinary\u0000", "$.variant", "does not match"),
        ("variant", "a\u0000.yaml", "$.variant", "does not match"),
        ("variant_digest", "sha256:abc", "$.variant_digest", "does not match"),
        ("variant_data", [], "$.variant_data", "is not of type 'object'"),
        ("bezique", "", "$.bezique", "does not match"),
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


def test_check_record_names_the_place(record: dict[str, Any]) -> None:
    with pytest.raises(RecordError) as info:
        check_record({**record, "actions": [3]}, "here")
    assert str(info.value) == "here: $.actions[0]: 3 is not of type 'string'"


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


def as_v1(record: dict[str, Any]) -> dict[str, Any]:
    """The same game as an old bezique-record/1 record (the variant named only)."""
    old = {k: v for k, v in record.items() if k not in PINNED_KEYS}
    return {**old, "format": RECORD_FORMAT_V1}


PINNED_KEYS = ("bezique", "variant_digest", "variant_data", "headers")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"variant": "no-such-variant"}, "no variant named 'no-such-variant'"),
        ({"variant": "missing/file.yaml"}, "'missing/file.yaml' is a file's path, not a"),
        ({"overrides": {"game": {"target": "lots"}}}, "game.target: must be a whole number"),
        ({"overrides": {"nonsense": 1}}, "nonsense: unknown key 'nonsense'"),
        ({"decks": [["AS"] * 64]}, "stacked deck"),
        ({"decks": [["ZZ"] * 64]}, "stacked deck: 'ZZ'"),
        ({"first_dealer": 2}, "first dealer must be a seat from 0 to 1"),
    ],
)
def test_bad_setup_of_a_v1_record_is_a_record_error(
    record: dict[str, Any], change: dict[str, Any], words: str
) -> None:
    with pytest.warns(DeprecationWarning, match="bezique-record/1"):
        message = str(replay_error({**as_v1(record), **change}))
    assert words in message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"decks": [["AS"] * 64]}, "stacked deck"),
        ({"decks": [["ZZ"] * 64]}, "stacked deck: 'ZZ'"),
        ({"first_dealer": 2}, "first dealer must be a seat from 0 to 1"),
    ],
)
def test_bad_deal_is_a_record_error(
    record: dict[str, Any], change: dict[str, Any], words: str
) -> None:
    assert words in str(replay_error({**record, **change}))


# --------------------------------------------------------------------------- pinned rules

CLUB = """name: club-rules
summary: Our club's bezique.
extends: ordinary
brisques:
  timing: end_of_hand
game:
  target: 1500
"""


def club_game(folder: Path, monkeypatch: pytest.MonkeyPatch, hands: int | None = 2) -> GameState:
    """A game of a house-rule file named by a relative path, played in ``folder``."""
    (folder / "club.yaml").write_text(CLUB, encoding="utf-8")
    monkeypatch.chdir(folder)
    state = new_game("club.yaml", seed=5)
    state.playout(random.Random(5), hands=hands)
    return state


CLUB_OVERRIDES = {
    "name": "club-rules",
    "summary": "Our club's bezique.",
    "brisques": {"timing": "end_of_hand"},
    "game": {"target": 1500},
}
"""What the club's file changes of ordinary: a record of its game names ordinary with these."""


def test_record_carries_the_merged_rules_their_digest_and_the_version(
    record: dict[str, Any], one_hand: GameState
) -> None:
    assert record["format"] == "bezique-record/2"
    assert record["bezique"] == __version__
    assert record["variant_data"] == one_hand.rules.variant.data
    assert record["variant_data"] is not one_hand.rules.variant.data
    canonical = json.dumps(
        record["variant_data"], sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")
    assert record["variant_digest"] == "sha256:" + hashlib.sha256(canonical).hexdigest()
    assert "headers" not in record


def test_a_house_rule_game_is_recorded_as_its_base_and_replays_without_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "made").mkdir()
    (tmp_path / "elsewhere").mkdir()
    state = club_game(tmp_path / "made", monkeypatch)
    data = record_of(state)
    assert (data["variant"], data["overrides"]) == ("ordinary", CLUB_OVERRIDES)
    assert data["variant_data"] == state.rules.variant.data
    assert data["variant_data"]["name"] == "club-rules"
    path = write(tmp_path / "elsewhere", data)
    monkeypatch.chdir(tmp_path / "elsewhere")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for policy in POLICIES:
            rebuilt = replay(load_record(path), str(path), rules=policy)
            assert rebuilt.to_json() == state.to_json()
            assert rebuilt.rules.variant.name == "club-rules"
            assert record_of(rebuilt) == data


def test_a_house_rule_extending_a_sibling_is_recorded_as_the_registered_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "base.yaml").write_text(
        "name: base\nsummary: Ours.\nextends: three-hand\ngame:\n  target: 2500\n",
        encoding="utf-8",
    )
    (tmp_path / "top.yaml").write_text(
        "name: top\nsummary: Ours too.\nextends: base.yaml\ntrumps:\n  source: null\n",
        encoding="utf-8",
    )
    changes = {"brisques": {"timing": "end_of_hand"}}
    state = new_game(tmp_path / "top.yaml", seed=3, overrides=changes)
    data = record_of(state)
    assert data["variant"] == "three-hand"
    assert data["overrides"] == {
        "name": "top",
        "summary": "Ours too.",
        "game": {"target": 2500},
        "trumps": {"source": None},
        "brisques": {"timing": "end_of_hand"},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert replay(data).rules.variant.data == state.rules.variant.data


def test_a_house_rule_that_extends_nothing_is_recorded_by_a_registered_variant(
    tmp_path: Path,
) -> None:
    whole = ruleset_for("ordinary").variant.data
    whole = {**whole, "name": "parlour", "game": {**whole["game"], "target": 1200}}
    (tmp_path / "parlour.yaml").write_text(json.dumps(whole), encoding="utf-8")
    state = new_game(tmp_path / "parlour.yaml", seed=3)
    data = record_of(state)
    assert data["variant"] == "ordinary"  # the variant of its plugin
    assert data["overrides"] == {"name": "parlour", "game": {"target": 1200}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert replay(data, "game.json").to_json() == state.to_json()


def test_a_record_that_names_a_file_replays_by_its_rules_and_never_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Records written before names their house-rule file by its path as typed.
    state = club_game(tmp_path, monkeypatch)
    old = {**record_of(state), "variant": "club.yaml", "overrides": {}}
    (tmp_path / "club.yaml").write_text("this is not read", encoding="utf-8")
    with pytest.warns(RulesWarning) as caught:
        rebuilt = replay(old, "game.json")
    assert [str(w.message) for w in caught] == [
        "game.json: the variant 'club.yaml' cannot be loaded here (it is a file's path, and a "
        "record names its variant by registered name: the file is not read); replaying with "
        f"the rules recorded ({old['variant_digest'][:19]}...)"
    ]
    assert rebuilt.to_json() == state.to_json()
    assert record_of(rebuilt) == record_of(state)  # written again, by the registered base
    with pytest.raises(RecordError, match="its rules cannot be checked"):
        replay(old, "game.json", rules="strict")
    with pytest.raises(RecordError, match="cannot be loaded here"):
        replay(old, "game.json", rules="current")


@pytest.mark.parametrize("path", ["/etc/passwd", "/etc/hostname.yaml", "../club.yaml", "C:\\x"])
def test_a_path_is_never_read_nor_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: dict[str, Any], path: str
) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for named in (path, str(secret)):
        with pytest.warns(RulesWarning) as caught:
            replay({**record, "variant": named}, "game.json")
        assert "the file is not read" in str(caught[0].message)
        short = {k: v for k, v in record.items() if k != "variant_data"}
        with pytest.warns(DeprecationWarning):
            old = str(replay_error({**as_v1(record), "variant": named}))
        messages = [str(replay_error({**short, "variant": named})), old]
        assert messages[1] == (
            f"game.json: variant: {named!r} is a file's path, not a registered variant name; a "
            "record names its variant by registered name and the file is not read, and this "
            "one carries no rules (variant_data) to replay by"
        )
        assert all("root:" not in message for message in messages)


def test_unchanged_house_rule_replays_without_a_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = club_game(tmp_path, monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for policy in POLICIES:
            assert replay(record_of(state), rules=policy).to_json() == state.to_json()


def recorded_before_a_change(changes: dict[str, Any], hands: int | None = 2) -> dict[str, Any]:
    """A record of ordinary as written when ordinary's rules were ``changes`` merged over it.

    (The game is played by those rules; its record then names ordinary without overrides.)
    """
    state = new_game("ordinary", overrides=changes, seed=5)
    state.playout(random.Random(5), hands=hands)
    return {**record_of(state), "overrides": {}}


def test_rules_changed_since_are_told_and_the_recorded_rules_replay() -> None:
    data = recorded_before_a_change({"game": {"target": 1500}}, hands=None)
    with pytest.warns(RulesWarning) as caught:
        rebuilt = replay(data, "game.json")
    (message,) = [str(w.message) for w in caught]
    assert message.startswith(
        "game.json: the variant 'ordinary' now merges to different rules than those recorded "
        "(game.target: 1500 recorded, 1000 now; recorded sha256:"
    )
    assert message.endswith("; replaying with the rules recorded")
    assert rebuilt.is_over() and max(rebuilt.scores) >= 1500
    assert rebuilt.rules.target == 1500
    assert (rebuilt.variant_spec, rebuilt.overrides) == ("ordinary", {})


def test_rules_changed_since_strict_refuses() -> None:
    data = recorded_before_a_change({"brisques": {"timing": "end_of_hand"}})
    with pytest.raises(RecordError) as info:
        replay(data, "game.json", rules="strict")
    message = str(info.value)
    assert message.startswith(
        "game.json: the variant 'ordinary' now merges to different rules than those recorded "
        "(brisques.timing: 'end_of_hand' recorded, 'immediate' now; recorded sha256:"
    )
    assert message.endswith(
        "; refusing to replay (the rules 'recorded' replay by the recorded rules, 'current' by "
        "the variant as it is now)"
    )


def test_rules_changed_since_current_plays_the_rules_as_they_are_now() -> None:
    data = recorded_before_a_change({"game": {"target": 1500}}, hands=None)
    state = replay({**data, "overrides": {"game": {"target": 1500}}})
    # Under the rules as they are now the game ends at 1000, before the record does.
    ends = next(i for i in range(len(state.history)) if _score_after(state, i) >= 1000)
    with pytest.warns(RulesWarning, match="replaying with the variant as it is now"):
        error = replay_error_with(data, rules="current")
    assert f"action {ends + 1} (" in str(error)
    assert "the game is over" in str(error)


def _score_after(state: GameState, index: int) -> int:
    fresh = new_game(state.rules, seed=state.seed)
    for action in state.history[: index + 1]:
        fresh.apply(action)
    return max(fresh.scores)


def replay_error_with(data: dict[str, Any], **options: Any) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(data, "game.json", **options)
    return info.value


def test_a_digest_that_is_not_the_datas_is_refused(record: dict[str, Any]) -> None:
    edited = json.loads(json.dumps(record))
    edited["variant_data"]["game"]["target"] = 10
    message = str(replay_error_with(edited))
    assert message.startswith(
        f"game.json: variant_digest: {record['variant_digest']!r} is not the digest of "
        "variant_data (sha256:"
    )
    assert message.endswith("the rules were edited after they were recorded")


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def repinned(record: dict[str, Any], change: Any) -> dict[str, Any]:
    """The record with its carried rules changed by ``change`` and the digest made to match."""
    edited: dict[str, Any] = json.loads(json.dumps(record))
    change(edited["variant_data"])
    edited["variant_digest"] = digest_of(edited["variant_data"])
    return edited


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["game"].update(target="lots"),
            "game.json: variant_data: game.target: must be a whole number, not the text 'lots'",
        ),
        (
            lambda d: d["game"].update(target=1.0),
            "game.json: variant_data: game.target: must be a whole number, not the number 1.0",
        ),
        (
            lambda d: d.update(plugins=["ordinary", "os.path"]),
            "game.json: variant_data: plugins[1]: unknown plugin 'os.path'",
        ),
        (
            lambda d: d.update(plugins=["bezique.plugins.ordinary"]),
            "game.json: variant_data: plugins[0]: unknown plugin 'bezique.plugins.ordinary'",
        ),
        (
            lambda d: d.update(extends="ordinary"),
            "game.json: variant_data: extends: merged variant data extends nothing",
        ),
        (
            lambda d: d.update(timing="end"),
            "game.json: variant_data: timing: unknown key 'timing'",
        ),
        (
            lambda d: d["deal"].update(packets=[3, 2, 2]),
            "game.json: variant_data: deal.packets: the packets [3, 2, 2] deal 7 cards but "
            "deal.hand_size is 8",
        ),
        (
            lambda d: d.pop("cards"),
            "game.json: variant_data: the key 'cards' is missing",
        ),
        (
            lambda d: d.update(source={"x": nested(33)}),
            "game.json: variant_data: source.x" + "[0]" * 31 + ": nested more than 32 levels deep",
        ),
        (
            lambda d: d.update(source={"notes": list(range(10_001))}),
            "game.json: variant_data: holds more than 10000 values, more than a variant file may",
        ),
    ],
)
def test_carried_rules_are_checked_as_a_variant_file_is(
    record: dict[str, Any], change: Any, expected: str
) -> None:
    with pytest.warns(RulesWarning, match="now merges to different rules than those recorded"):
        message = str(replay_error_with(repinned(record, change)))
    assert message.splitlines()[0].startswith(expected), message


def test_rules_policy_must_be_known(record: dict[str, Any]) -> None:
    message = str(replay_error_with(record, rules="lenient"))
    assert message == "rules policy 'lenient': use one of recorded, strict, current"


def test_v1_record_still_replays_with_a_deprecation_warning(
    record: dict[str, Any], one_hand: GameState
) -> None:
    old = as_v1(record)
    check_record(old)
    with pytest.warns(DeprecationWarning) as caught:
        rebuilt = replay(old, "old.json")
    assert str(caught[0].message).startswith(
        "old.json: a bezique-record/1 record names its variant without its rules"
    )
    assert rebuilt.to_json() == one_hand.to_json()
    assert record_of(rebuilt) == record  # converted to bezique-record/2
    with pytest.warns(DeprecationWarning), pytest.raises(RecordError) as info:
        replay(old, "old.json", rules="strict")
    assert str(info.value) == (
        "old.json: a bezique-record/1 record carries no rules to check the variant 'ordinary' "
        "against; replay it with the rules 'recorded' or 'current'"
    )


@pytest.mark.parametrize("key", ["bezique", "variant_digest", "variant_data", "headers"])
def test_v1_record_has_none_of_the_new_keys(record: dict[str, Any], key: str) -> None:
    old = {**as_v1(record), key: record.get(key, {"event": "x"})}
    with pytest.raises(RecordError) as info:
        check_record(old, "old.json")
    assert str(info.value) == (
        f"old.json: $.{key}: is not a key of bezique-record/1 records (it came with "
        "bezique-record/2); write format 'bezique-record/2'"
    )


@pytest.mark.parametrize("key", ["bezique", "variant_digest"])
def test_v2_record_needs_its_rules(record: dict[str, Any], key: str) -> None:
    with pytest.raises(RecordError) as info:
        check_record({k: v for k, v in record.items() if k != key}, "game.json")
    assert str(info.value) == f"game.json: $: '{key}' is a required property"


HEADERS = {
    "players": ["Ann", "Bob"],
    "date": "1875-02-28",
    "event": "Club night",
    "place": "The Portland",
    "comment": "Played with two packs.\nBob dealt first.",
}


def test_headers_are_kept_and_replayed(tmp_path: Path, one_hand: GameState) -> None:
    data = record_of(one_hand, headers=HEADERS)
    assert data["headers"] == HEADERS
    path = write(tmp_path, data)
    loaded = load_record(path)
    assert loaded["headers"] == HEADERS
    assert replay(loaded).to_json() == one_hand.to_json()
    for partial in ("1875", "1875-02"):
        check_record({**data, "headers": {"date": partial}})


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"players": ["Ann"]}, "$.headers.players: names 1 player(s), but the variant seats 2"),
        ({"date": "28/02/1875"}, "$.headers.date: '28/02/1875' does not match"),
        ({"date": "1875-13-01"}, "$.headers.date: '1875-13-01' does not match"),
        ({"round": 3}, "$.headers: Additional properties are not allowed ('round' was"),
        ({"event": "a\u0000b"}, "$.headers.event: 'a\\x00b' does not match"),
        ({"players": ["Ann", ""]}, "$.headers.players[1]: '' should be non-empty"),
    ],
)
def test_bad_headers_are_refused(
    record: dict[str, Any], one_hand: GameState, headers: dict[str, Any], expected: str
) -> None:
    with pytest.raises(RecordError) as info:
        record_of(one_hand, headers=headers)
    assert str(info.value).startswith(f"<headers>: {expected}"), str(info.value)
    with pytest.raises(RecordError) as info:
        check_record({**record, "headers": headers}, "game.json")
        replay({**record, "headers": headers}, "game.json")
    assert str(info.value).startswith(f"game.json: {expected}"), str(info.value)


def test_the_records_page_example_is_a_record_of_this_version() -> None:
    section = RECORDS_PAGE.read_text(encoding="utf-8")
    example = json.loads(re.search(r"```json\n(.*?)```", section, re.S).group(1))  # type: ignore[union-attr]
    real = record_of(new_game("ordinary", seed=example["seed"]))
    assert example["format"] == RECORD_FORMAT
    assert set(example) == {*real, "headers"} - {"variant_data"}
    assert example["variant_digest"] == real["variant_digest"]
    check_record(example)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(replay(example).history) == len(example["actions"])


def test_a_record_pinned_by_its_digest_alone_replays_where_the_rules_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = club_game(tmp_path, monkeypatch)
    short = {k: v for k, v in record_of(state).items() if k != "variant_data"}
    check_record(short)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for policy in POLICIES:
            assert replay(short, rules=policy).to_json() == state.to_json()


def test_a_record_pinned_by_its_digest_alone_cannot_replay_rules_changed_since() -> None:
    data = recorded_before_a_change({"brisques": {"timing": "end_of_hand"}})
    short = {k: v for k, v in data.items() if k != "variant_data"}
    now = record_of(new_game("ordinary", seed=1))["variant_digest"]
    for policy in ("recorded", "strict"):
        with pytest.raises(RecordError) as info:
            replay(short, "game.json", rules=policy)
        assert str(info.value) == (
            "game.json: the variant 'ordinary' now merges to different rules than those "
            f"recorded (recorded {data['variant_digest'][:19]}..., now {now[:19]}...), and the "
            "record carries only their digest, not the rules (variant_data); the rules "
            "'current' replay it by the variant as it is now"
        )
    with pytest.warns(RulesWarning, match="replaying with the variant as it is now"):
        rebuilt = replay(short, "game.json", rules="current")
    assert rebuilt.rules.data["brisques"]["timing"] == "immediate"
    with pytest.raises(RecordError, match="pins its rules by variant_digest without carrying"):
        replay({**short, "variant": "club.yaml"}, "game.json", rules="current")


# --------------------------------------------------------------------------- hostile files


def test_whole_floats_are_not_integers_in_a_file(tmp_path: Path, record: dict[str, Any]) -> None:
    path = write(tmp_path, {**record, "first_dealer": 1.0})
    assert load_error(path) == f"{path}: $.first_dealer: 1.0 is not of type 'integer'"


@pytest.mark.parametrize("digits", [41, 4300, 5000, 100_000])
def test_huge_numbers_are_refused_with_their_place(
    tmp_path: Path, record: dict[str, Any], digits: int
) -> None:
    path = tmp_path / "game.json"
    text = json.dumps({**record, "seed": 0, "overrides": {"game": {"target": 0}}})
    text = text.replace('"seed": 0', '"seed": ' + "7" * digits, 1)
    text = text.replace('"target": 0', '"target": -' + "1" * digits, 1)
    path.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    message = load_error(path)
    assert time.perf_counter() - started < 5
    assert message.splitlines() == [
        f"{path}: $.overrides.game.target: a number of {digits} digits (a record's numbers "
        "have 40 at most)",
        f"{path}: $.seed: a number of {digits} digits (a record's numbers have 40 at most)",
    ]


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("NaN", "NaN is not a number a record may hold (JSON has no NaN)"),
        ("Infinity", "Infinity is not a number a record may hold (JSON has no Infinity)"),
        ("-Infinity", "-Infinity is not a number a record may hold (JSON has no -Infinity)"),
        ("1e400", "1e400 is too large a number"),
        ("-1.5e999", "-1.5e999 is too large a number"),
    ],
)
def test_nan_and_infinity_are_refused_with_their_place(
    tmp_path: Path, record: dict[str, Any], value: str, shown: str
) -> None:
    path = tmp_path / "game.json"
    text = json.dumps({**record, "overrides": {"game": {"target": 0}}})
    path.write_text(text.replace('"target": 0', f'"target": {value}', 1), encoding="utf-8")
    assert load_error(path) == f"{path}: $.overrides.game.target: {shown}"


def test_python_nan_and_huge_ints_are_refused_too(record: dict[str, Any]) -> None:
    with pytest.raises(RecordError) as info:
        check_record({**record, "overrides": {"game": {"target": math.nan}}, "seed": 10**50})
    assert str(info.value).splitlines() == [
        "<record>: $.overrides.game.target: nan is not a number a record may hold",
        "<record>: $.seed: a number of more than 40 digits",
    ]


def test_duplicate_keys_are_refused_with_the_key(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    text = json.dumps({**record, "overrides": {"game": {"target": 1500}}})
    text = text.replace('"seed": ', '"seed": 1, "seed": ', 1)
    text = text.replace('"target": 1500', '"target": 1500, "check": "at_once", "target": 900', 1)
    path.write_text(text, encoding="utf-8")
    assert load_error(path).splitlines() == [
        f"{path}: $: the key 'seed' is given more than once",
        f"{path}: $.overrides.game: the key 'target' is given more than once",
    ]


@pytest.mark.parametrize("depth", [41, 500])
def test_deep_nesting_is_refused_with_its_place(
    tmp_path: Path, record: dict[str, Any], depth: int
) -> None:
    path = tmp_path / "game.json"
    text = json.dumps({**record, "overrides": {"source": 0}})
    nested = "[" * depth + "]" * depth
    path.write_text(text.replace('"source": 0', f'"source": {nested}', 1), encoding="utf-8")
    message = load_error(path)
    assert message == (
        f"{path}: $.overrides.source" + "[0]" * 38 + ": nested more than 40 levels deep"
    )


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"overrides": {"source": [{}] * 10_001}},
            "$.overrides: holds more than 10000 values, more than a variant file may",
        ),
        (
            {"variant_data": {"source": list(range(10_001))}},
            "$.variant_data: holds more than 10000 values, more than a variant file may",
        ),
        ({"actions": [[]] * 30_001}, "$: holds more than 30000 lists and objects"),
        ({"decks": [[]] * 300_000}, "$: holds more than 30000 lists and objects"),
    ],
)
def test_too_many_values_are_refused_in_bounded_time(
    tmp_path: Path, record: dict[str, Any], change: dict[str, Any], expected: str
) -> None:
    path = write(tmp_path, {**record, **change})
    started = time.perf_counter()
    assert load_error(path) == f"{path}: {expected}"
    assert time.perf_counter() - started < 5


def test_nesting_past_the_parsers_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert load_error(path) == (
        f"{path}: JSON nested too deeply (a record nests 40 levels at most)"
    )


def test_load_reads_at_most_the_limit_and_one_byte(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as stream:  # a sparse file: 64 MiB that take no room on disk
        stream.truncate(64 * 1024 * 1024)
    tracemalloc.start()
    try:
        message = load_error(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert message == f"{path}: record is larger than {MAX_RECORD_BYTES} bytes"
    assert peak < 2 * MAX_RECORD_BYTES + 1024 * 1024, peak


def _in_time(call: Any, seconds: float = 10.0) -> Any:
    """Run ``call`` in a thread; fail (and unblock a FIFO it waits on) if it takes too long."""
    result: list[Any] = []

    def run() -> None:
        try:
            result.append(call())
        except BaseException as exc:
            result.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "still waiting after {seconds} seconds"
    return result[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    try:
        error = _in_time(lambda: load_record(fifo))
    finally:
        _unblock(fifo)
    assert isinstance(error, RecordError)
    assert str(error) == f"{fifo}: cannot read: a FIFO (named pipe), not a regular file"


def _unblock(fifo: Path) -> None:
    """Open the FIFO's other end, so that a reader stuck on it (before the fix) goes on."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
    except OSError:
        pass


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_record_naming_a_fifo_as_its_variant_never_opens_it(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    fifo = tmp_path / "rules.yaml"
    os.mkfifo(fifo)
    old = {**as_v1(record), "variant": str(fifo)}
    try:
        with pytest.warns(DeprecationWarning):
            error = _in_time(lambda: replay(old, "game.json"))
        with pytest.warns(RulesWarning) as caught:
            _in_time(lambda: replay({**record, "variant": str(fifo)}, "game.json"))
    finally:
        _unblock(fifo)
    assert isinstance(error, RecordError)
    assert str(error).startswith(f"game.json: variant: {str(fifo)!r} is a file's path")
    assert "the file is not read" in str(caught[0].message)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused(tmp_path: Path) -> None:
    error = _in_time(lambda: load_record("/dev/zero"))
    assert str(error) == "/dev/zero: cannot read: a character device, not a regular file"


# --------------------------------------------------------------------------- the command line


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_cli_replay_tells_of_changed_rules_and_can_refuse(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = recorded_before_a_change({"game": {"target": 1200}})
    path = write(tmp_path, data)
    status, out, err = cli(capsys, "replay", str(path))
    assert status == 0
    assert out.splitlines()[0] == f"variant ordinary: {len(data['actions'])} actions replayed"
    assert err.startswith(
        f"bezique: note: {path}: the variant 'ordinary' now merges to different rules than "
        "those recorded (game.target: 1200 recorded, 1000 now; recorded sha256:"
    )
    status, out, err = cli(capsys, "replay", str(path), "--rules", "strict")
    assert status == 1 and out == ""
    assert err.startswith(f"bezique: {path}: the variant 'ordinary' now merges to different")
    status, out, _ = cli(capsys, "replay", str(path), "--json")
    result = json.loads(out)
    assert result["notes"][0].startswith(f"{path}: the variant 'ordinary' now merges")
    assert result["rules"] == {"digest": data["variant_digest"], "recorded_with": __version__}


def test_cli_replay_of_a_v1_record_notes_the_old_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: dict[str, Any]
) -> None:
    path = write(tmp_path, as_v1(record))
    status, _out, err = cli(capsys, "replay", str(path))
    assert status == 0
    assert err.startswith(
        f"bezique: note: {path}: a bezique-record/1 record names its variant without its rules"
    )


def test_cli_replay_prints_the_headers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, one_hand: GameState
) -> None:
    path = write(tmp_path, record_of(one_hand, headers=HEADERS))
    status, out, err = cli(capsys, "replay", str(path))
    assert status == 0 and err == ""
    assert out.splitlines()[:6] == [
        "players: Ann, Bob",
        "date: 1875-02-28",
        "event: Club night",
        "place: The Portland",
        "comment: Played with two packs. / Bob dealt first.",
        f"variant ordinary: {len(one_hand.history)} actions replayed",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"first_dealer": 1.0', "$.first_dealer: 1.0 is not of type 'integer'"),
        ('"seed": ' + "9" * 4300, "$.seed: a number of 4300 digits"),
        ('"variant": "ordi\\u0000nary"', "$.variant: 'ordi\\x00nary' does not match"),
        ('"seed": NaN', "$.seed: NaN is not a number a record may hold"),
        ('"seed": 1, "seed": 2', "$: the key 'seed' is given more than once"),
    ],
)
def test_cli_replay_of_hostile_values_is_one_clean_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    record: dict[str, Any],
    text: str,
    expected: str,
) -> None:
    path = tmp_path / "game.json"
    body = json.dumps({k: v for k, v in record.items() if k not in ("seed", "first_dealer")})
    path.write_text(body[:-1] + ", " + text + "}", encoding="utf-8")
    if "variant" in text:
        path.write_text(
            json.dumps({**record, "variant": "X"}).replace('"variant": "X"', text, 1),
            encoding="utf-8",
        )
    status, out, err = cli(capsys, "replay", str(path))
    assert status == 1 and out == ""
    assert err.startswith(f"bezique: {path}: {expected}"), err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_cli_validate_refuses_a_fifo(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fifo = tmp_path / "rules.yaml"
    os.mkfifo(fifo)
    try:
        status, _, err = _in_time(lambda: cli(capsys, "validate", str(fifo)))
    finally:
        _unblock(fifo)
    assert status == 1
    assert err == f"{fifo}: cannot read the file: a FIFO (named pipe), not a regular file\n"


@pytest.mark.parametrize(
    "overrides", [{"game": {"target": 2000}}, {"brisques": {"timing": "end_of_hand"}}]
)
def test_overrides_that_the_carried_rules_do_not_hold_are_refused(
    record: dict[str, Any], overrides: dict[str, Any]
) -> None:
    with pytest.raises(RecordError) as info:
        replay({**record, "overrides": overrides}, "game.json")
    assert str(info.value).startswith("game.json: overrides: ")
    with pytest.raises(RecordError) as saved:
        from_json({**replay(record).to_json(), "overrides": overrides})
    assert str(saved.value).startswith("saved game state: overrides: ")

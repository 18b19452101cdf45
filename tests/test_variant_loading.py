"""The hardened variant loader: safe YAML, extends, overrides, schema and sense checks."""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from bezique.errors import VariantError
from bezique.reading.yamlsafe import MAX_BYTES, MAX_DEPTH, MAX_NODES, MAX_PROBLEMS, parse_yaml
from bezique.variant import (
    Variant,
    apply_overrides,
    load_variant,
    overrides_between,
    validate_paths,
    variant_schema,
    variant_summaries,
)

HEADER = "name: house\nextends: ordinary\nsummary: A house rule.\n"
"""Three lines that start every house-rule file below (so line numbers start at 4)."""


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return os.fspath(path)


def house(folder: Path, body: str, name: str = "house.yaml") -> str:
    return write(folder, name, HEADER + textwrap.dedent(body))


def problems(spec: str, overrides: dict[str, Any] | None = None) -> list[str]:
    with pytest.raises(VariantError) as info:
        load_variant(spec, overrides)
    assert info.value.problems, "a VariantError must list its problems"
    return info.value.problems


def cases(table: dict[str, tuple[Any, ...]]) -> list[Any]:
    """The cases of a table for parametrize (each a tuple), each under its key as its id."""
    return [pytest.param(case, id=name) for name, case in table.items()]


def only_problem(spec: str, overrides: dict[str, Any] | None = None) -> str:
    found = problems(spec, overrides)
    assert len(found) == 1, found
    return found[0]


# --- loading and merging -------------------------------------------------------------------


def test_ordinary_loads() -> None:
    variant = load_variant("ordinary")
    assert isinstance(variant, Variant)
    assert variant.name == "ordinary"
    assert variant.origin == "builtin/ordinary.yaml"
    assert variant.chain == ("builtin/ordinary.yaml",)
    assert variant.data["deal"]["packets"] == [3, 2, 3]
    assert variant.data["players"] == 2
    assert variant.plugins == ("ordinary",)
    assert "extends" not in variant.data


def test_each_load_gets_its_own_data() -> None:
    first = load_variant("ordinary")
    first.data["deal"]["packets"].append(99)
    first.data["players"] = 7
    second = load_variant("ordinary")
    assert second.data["deal"]["packets"] == [3, 2, 3]
    assert second.data["players"] == 2


def test_origin_of_a_registered_variant_loads_it_back() -> None:
    variant = load_variant("ordinary")
    assert load_variant(variant.origin) == variant


def test_same_rank_combinations_get_their_defaults() -> None:
    aces = load_variant("ordinary").data["declarations"]["combinations"]["four_aces"]
    assert aces["suit"] == "any"
    assert aces["distinct_suits"] is False


def test_house_rule_overrides_a_number(tmp_path: Path) -> None:
    path = house(tmp_path, "game:\n  target: 1500\n")
    variant = load_variant(path)
    assert variant.name == "house"
    assert variant.data["game"]["target"] == 1500
    assert variant.data["game"]["check"] == "at_once"  # the rest of the mapping is inherited
    assert variant.data["summary"] == "A house rule."
    assert variant.origin == path
    assert variant.chain == ("builtin/ordinary.yaml", path)


def test_lists_are_replaced(tmp_path: Path) -> None:
    path = house(tmp_path, "deal:\n  hand_size: 9\n  packets: [3, 3, 3]\nbrisques:\n  ranks: [A]\n")
    data = load_variant(path).data
    assert data["deal"]["packets"] == [3, 3, 3]
    assert data["brisques"]["ranks"] == ["A"]


def test_null_deletes_an_inherited_key(tmp_path: Path) -> None:
    path = house(
        tmp_path,
        """\
        title: null
        declarations:
          combinations:
            four_knaves: null
        """,
    )
    data = load_variant(path).data
    assert "title" not in data
    assert "four_knaves" not in data["declarations"]["combinations"]
    assert "four_queens" in data["declarations"]["combinations"]


def test_extends_a_sibling_file(tmp_path: Path) -> None:
    base = house(tmp_path, "game:\n  target: 1200\n", name="base.yaml")
    path = write(
        tmp_path,
        "child.yaml",
        "name: child\nextends: base.yaml\nsummary: Child.\ngame:\n  check: hand_end\n",
    )
    variant = load_variant(path)
    assert variant.chain == ("builtin/ordinary.yaml", base, path)
    assert variant.data["game"]["target"] == 1200
    assert variant.data["game"]["check"] == "hand_end"
    assert variant.data["name"] == "child"


def test_dates_stay_text(tmp_path: Path) -> None:
    path = write(tmp_path, "house.yaml", "name: house\nextends: ordinary\nsummary: 2024-01-01\n")
    assert load_variant(path).data["summary"] == "2024-01-01"


def test_overrides_merge_on_top() -> None:
    overrides = {"game": {"target": 1500}, "title": None}
    variant = load_variant("ordinary", overrides)
    assert variant.data["game"]["target"] == 1500
    assert "title" not in variant.data
    assert variant.overrides == overrides
    assert overrides == {"game": {"target": 1500}, "title": None}  # not changed


@pytest.mark.parametrize(
    ("base", "merged", "overrides"),
    [
        ({"a": 1, "b": {"c": 2, "d": 3}}, {"a": 1, "b": {"c": 2, "d": 3}}, {}),
        ({"a": 1, "b": {"c": 2, "d": 3}}, {"a": 1, "b": {"c": 5, "d": 3}}, {"b": {"c": 5}}),
        ({"a": 1, "b": {"c": 2}}, {"b": {}}, {"a": None, "b": {"c": None}}),
        ({"a": [1, 2]}, {"a": [1, 2, 3], "e": {"f": 1}}, {"a": [1, 2, 3], "e": {"f": 1}}),
        (
            {"a": 1, "b": 1.0, "c": [1]},
            {"a": True, "b": 1, "c": [True]},
            {"a": True, "b": 1, "c": [True]},
        ),
        ({"a": {"b": 1}}, {"a": 7}, {"a": 7}),
        ({"a": 7}, {"a": {"b": 1}}, {"a": {"b": 1}}),
    ],
)
def test_the_overrides_between_two_variants_merge_one_into_the_other(
    base: dict[str, Any], merged: dict[str, Any], overrides: dict[str, Any]
) -> None:
    assert overrides_between(base, merged) == overrides
    assert json.dumps(apply_overrides(base, overrides)) == json.dumps(merged)


def test_validate_paths_reports_only_bad_files(tmp_path: Path) -> None:
    good = house(tmp_path, "game:\n  target: 1200\n", name="good.yaml")
    bad = house(tmp_path, "players: 1\n", name="bad.yaml")
    messages = validate_paths([good, bad, "ordinary"])
    assert messages == [f"{bad}:4:10: players: must be at least 2 (it is 1)"]
    assert validate_paths([good]) == []


def test_variant_summaries_lists_ordinary() -> None:
    summaries = dict(variant_summaries())
    assert summaries["ordinary"] == load_variant("ordinary").summary


# --- unsafe or malformed YAML --------------------------------------------------------------


# Each case: the body of a house-rule file (after HEADER, so its first line is line 4) and
# every problem it must give, in order, with {path} for the file's path.
HOUSE_PROBLEMS = {
    "misspelt_key_has_line_column_and_suggestion": (
        "deal:\n  hand_sise: 9\n",
        "{path}:5:3: deal.hand_sise: unknown key 'hand_sise'; did you mean 'hand_size'? "
        "the keys allowed here are: first_lead, hand_size, next_dealer, packets, source",
    ),
    "misspelt_switch_value_suggests_the_choice": (
        "trumps:\n  mode: turnup\n",
        "{path}:5:9: trumps.mode: 'turnup' is not allowed; use one of: turn_up, "
        "first_marriage; did you mean 'turn_up'?",
    ),
    "duplicate_keys": (
        "players: 2\nplayers: 3\n",
        "{path}:5:1: duplicate key 'players' (first written on line 4); keep only one of them",
    ),
    "anchors_and_aliases": (
        "deal:\n  packets: &three [3, 2, 3]\ntrick: *three\n",
        "{path}:5:12: anchor '&three' is not allowed; remove it and write values out in full",
        "{path}:6:8: alias '*three' is not allowed; write the value out in full "
        "(to share a whole variant, use 'extends:'; stopped reading here)",
    ),
    "non_string_keys": (
        "1: one\n[a, b]: two\n",
        "{path}:4:1: key '1' is read as a number; keys must be text, so put it in quotes: '1'",
        "{path}:5:1: a key must be plain text, not a list",
    ),
    "tags_other_than_core_ones": (
        "players: !!python/object:os.system ls\ntitle: !!str Fine\n",
        "{path}:4:10: tag !!python/object:os.system is not allowed; only plain values, "
        "lists and mappings are (remove the tag)",
    ),
    "merge_keys": (
        "deal:\n  <<: {hand_size: 8}\n",
        "{path}:5:3: merge keys ('<<') are not allowed; write the keys out in full",
    ),
    "too_deep": (
        "title: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n",
        f"{{path}}:4:{8 + MAX_DEPTH - 1}: mappings and lists are nested more than "
        f"{MAX_DEPTH} levels deep here; a variant file needs only a few levels",
    ),
    "too_big": (
        "title: " + "x" * MAX_BYTES + "\n",
        f"{{path}}:1:1: the file is larger than 256 KiB ({MAX_BYTES} bytes), "
        "the most a variant file may be; split it or shorten it",
    ),
    "syntax_error": (
        "title: [unclosed\ngame:\n  target: 1\n",
        "{path}:5:5: YAML syntax error: expected ',' or ']', but got ':' "
        "(while parsing a flow sequence at line 4, column 8)",
    ),
    "control_characters": (
        "title: a\x01b\n",
        "{path}:4:9: character U+0001 is not allowed in YAML; remove it or write it "
        "as an escape inside double quotes",
    ),
    "packets_must_add_up": (
        "deal:\n  packets: [3, 2, 2]\n",
        "{path}:5:3: deal.packets: the packets [3, 2, 2] deal 7 cards but deal.hand_size "
        "is 8; make the packets add up to 8, or change hand_size",
    ),
    "bad_bezique_cards": (
        """\
        declarations:
          bezique_cards:
            S: [QS, JX]
            X: [QS, JD]
            C: null
        """,
        "{path}:5:3: declarations.bezique_cards: trump suit 'C' has no entry; "
        "add one, such as C: [QS, JD]",
        "{path}:6:13: declarations.bezique_cards.S[1]: 'JX' is not a card of this pack; "
        "write a rank of A T K Q J 9 8 7 then a suit of S H D C, as in QS",
        "{path}:7:5: declarations.bezique_cards.X: 'X' is not a suit of cards.suits; "
        "use one of: S H D C",
    ),
    "unknown_rank": (
        "brisques:\n  ranks: [A, Z]\n",
        "{path}:5:14: brisques.ranks[1]: rank 'Z' is not in cards.ranks; "
        "use one of: A T K Q J 9 8 7",
    ),
    "pack_too_small": (
        "players: 8\n",
        "{path}:4:10: players: 8 hands of 8 cards and one card left over need 65 cards, "
        "but the pack holds 64 (2 x 8 ranks x 4 suits); deal fewer cards or shuffle in "
        "more packs",
    ),
    "whole_float_is_not_an_integer": (
        "players: 2.0\n",
        "{path}:4:10: players: must be a whole number, not the number 2.0",
    ),
    "combination_kinds": (
        """\
        declarations:
          combinations:
            mixed: {points: 1, class: x, level: 1, ranks: [K], rank: K, count: 2}
            nokind: {points: 1, class: x, level: 0}
            lone_suit: {points: 1, class: x, level: 1, beziques: 1, suit: any}
            Bad: {points: 1, class: x, level: 1, rank: K, count: 2, suit: plain}
        """,
        "{path}:6:5: declarations.combinations.mixed: 'ranks' needs 'suit' beside it",
        "{path}:6:5: declarations.combinations.mixed: has 'ranks' and 'rank', but only one "
        "of 'ranks', 'rank' or 'beziques' may be given",
        "{path}:7:5: declarations.combinations.nokind: needs one of the keys 'ranks', "
        "'rank' or 'beziques'",
        "{path}:7:42: declarations.combinations.nokind.level: must be at least 1 (it is 0)",
        "{path}:8:5: declarations.combinations.lone_suit: 'suit' needs one of 'ranks' or "
        "'rank' beside it",
        "{path}:9:5: declarations.combinations.Bad: the name 'Bad' is not allowed here; "
        "expected a combination name: lower-case letters, digits and '_', starting with "
        "a letter.",
        "{path}:9:67: declarations.combinations.Bad.suit: 'plain' is not allowed; "
        "use one of: any, trump",
    ),
}


@pytest.mark.parametrize("case", cases(HOUSE_PROBLEMS))
def test_a_house_file_gives_exactly_its_problems(tmp_path: Path, case: tuple[str, ...]) -> None:
    body, *expected = case
    path = house(tmp_path, body)
    assert problems(path) == [message.format(path=path) for message in expected]


# Each case: the body of a house-rule file and how its one problem starts.
HOUSE_PROBLEM_STARTS = {
    "misspelt_top_level_key": (
        "\nplayrs: 3\n",
        "{path}:5:1: playrs: unknown key 'playrs'; did you mean 'players'?",
    ),
    "multiple_documents": (
        "---\nname: other\n",
        "{path}:4:1: a second YAML document starts here; a variant file holds exactly one",
    ),
    "tab_indentation_is_a_syntax_error": (
        "game:\n\ttarget: 1\n",
        "{path}:5:1: YAML syntax error: found character '\\t'",
    ),
    "packets_problem_points_at_the_file_that_changed_hand_size": (
        "deal:\n  hand_size: 9\n",
        "{path}:5:14: deal.hand_size: the packets [3, 2, 3]",
    ),
    "deleting_a_required_key_points_at_the_mapping": (
        "deal:\n  hand_size: null\n",
        "{path}:4:1: deal: the key 'hand_size' is missing (Cards in each hand",
    ),
}


@pytest.mark.parametrize("case", cases(HOUSE_PROBLEM_STARTS))
def test_a_house_file_gives_one_problem_that_starts_so(
    tmp_path: Path, case: tuple[str, str]
) -> None:
    body, start = case
    path = house(tmp_path, body)
    assert only_problem(path).startswith(start.format(path=path))


# Each case: a whole file (no HEADER) and its one problem, with {path} for the file's path
# and {folder!r} for its folder's.
WHOLE_FILE_PROBLEMS = {
    "empty_file": (
        "# nothing\n",
        "{path}:1:1: the file is empty; a variant file holds keys such as name:, "
        "summary: and extends:",
    ),
    "not_a_mapping": (
        "- a\n- b\n",
        "{path}:1:1: a variant file must be a mapping of keys (name:, summary:, ...), not a list",
    ),
    "a_misspelt_extends_is_told_the_nearest_variant": (
        "name: house\nextends: ordinery\nsummary: x\n",
        "{path}:2:10: extends: no variant named 'ordinery'; did you mean 'ordinary'?",
    ),
    "an_unknown_extends_tells_how_to_list_the_variants": (
        "name: house\nextends: qqqq\nsummary: x\n",
        "{path}:2:10: extends: no variant named 'qqqq'; `bezique variants` lists them "
        "(or name a .yaml file in the same folder, such as 'base.yaml')",
    ),
    "missing_sibling": (
        "name: house\nextends: base.yaml\nsummary: x\n",
        "{path}:2:10: extends: there is no file 'base.yaml' in {folder!r}",
    ),
    "every_file_needs_its_own_name": (
        "extends: ordinary\nsummary: x\n",
        "{path}:1:1: has no 'name'; every variant file needs its own, such as name: house",
    ),
}


@pytest.mark.parametrize("case", cases(WHOLE_FILE_PROBLEMS))
def test_a_variant_file_gives_exactly_its_one_problem(
    tmp_path: Path, case: tuple[str, str]
) -> None:
    text, expected = case
    path = write(tmp_path, "house.yaml", text)
    assert only_problem(path) == expected.format(path=path, folder=os.fspath(tmp_path))


# Each case: a variant name that is none and its one problem.
NAME_PROBLEMS = {
    "an_unknown_variant_name_tells_how_to_list_them": (
        "zzzz",
        "no variant named 'zzzz'; `bezique variants` lists them (or give the path of a .yaml file)",
    ),
    "a_misspelt_variant_name_is_told_the_nearest": (
        "hoyle",
        "no variant named 'hoyle'; did you mean 'hoyle1909'?",
    ),
}


@pytest.mark.parametrize("case", cases(NAME_PROBLEMS))
def test_a_variant_name_not_found(case: tuple[str, str]) -> None:
    name, expected = case
    assert only_problem(name) == expected


def test_deep_but_allowed_nesting_is_parsed() -> None:
    text = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    assert parse_yaml(text, "x.yaml").data is not None


def test_too_many_values(tmp_path: Path) -> None:
    path = house(tmp_path, "title: [" + "1, " * MAX_NODES + "1]\n")
    message = only_problem(path)
    assert message.startswith(f"{path}:4:")
    assert message.endswith(
        f"the document holds more than {MAX_NODES} values; a variant file needs far fewer "
        "(stopped reading here)"
    )


def test_long_problem_lists_are_cut_short(tmp_path: Path) -> None:
    path = house(tmp_path, "players: 2\n" * (MAX_PROBLEMS + 11))
    found = problems(path)
    assert len(found) == MAX_PROBLEMS + 1
    assert found[-1] == f"{path}:{MAX_PROBLEMS + 5}:1: 10 more problems follow"


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_bytes(HEADER.encode() + b"title: caf\xe9\n")
    assert only_problem(os.fspath(path)) == (
        f"{path}:4:11: byte 0xe9 is not UTF-8; save the file as UTF-8 text"
    )


def test_a_byte_order_mark_is_not_part_of_the_file(tmp_path: Path) -> None:
    # Some editors start a UTF-8 file with the mark U+FEFF; lines and columns stay the file's.
    path = tmp_path / "house.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + HEADER.encode() + b"game:\n  target: 1500\n")
    assert load_variant(os.fspath(path)).data["game"]["target"] == 1500
    path.write_bytes(b"\xef\xbb\xbf" + HEADER.encode() + b"game:\n  tarrget: 1500\n")
    problem = only_problem(os.fspath(path))
    assert problem.startswith(f"{path}:5:3: game.tarrget: unknown key 'tarrget'")
    path.write_bytes(b"\xef\xbb\xbf" + HEADER.encode() + b"source: S0 and Z9.\n")
    assert validate_paths([os.fspath(path)]) == [
        f"{path}:4:16: source: 'Z9' is not a source or reading of the bibliography "
        "(`bezique sources` lists them)"
    ]


def test_missing_file_and_wrong_suffix(tmp_path: Path) -> None:
    missing = os.fspath(tmp_path / "nothing.yaml")
    assert only_problem(missing) == f"{missing}: cannot read the file: No such file or directory"
    assert only_problem(os.fspath(tmp_path / "house.yml")).endswith(
        "a variant file's name must end in .yaml"
    )


# --- extends -------------------------------------------------------------------------------


@pytest.mark.parametrize("parent", ["../base.yaml", "sub/base.yaml", ".hidden.yaml"])
def test_extends_refuses_folders(tmp_path: Path, parent: str) -> None:
    path = write(tmp_path, "house.yaml", f"name: house\nextends: {parent}\nsummary: x\n")
    assert only_problem(path) == (
        f"{path}:2:10: extends: {parent!r} must be a variant name or a file name without "
        "any folder part"
    )


def test_extends_cycle(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "name: a\nsummary: x\nextends: b.yaml\n")
    b = write(tmp_path, "b.yaml", "name: b\nextends: a.yaml\n")
    assert only_problem(a) == (
        f"{b}:2:10: extends: 'a.yaml' leads back into its own chain ({a} -> {b} -> {a}); "
        "a variant cannot extend itself"
    )


def test_extends_itself(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "name: a\nextends: a.yaml\n")
    assert "leads back into its own chain" in only_problem(a)


def test_error_in_a_parent_points_at_the_parent(tmp_path: Path) -> None:
    base = house(tmp_path, "game:\n  target: lots\n", name="base.yaml")
    path = write(tmp_path, "child.yaml", "name: child\nextends: base.yaml\nsummary: x\n")
    assert only_problem(path) == (
        f"{base}:5:11: game.target: must be a whole number, not the text 'lots'"
    )


# --- schema and sense checks ---------------------------------------------------------------


def test_unknown_plugin_lists_known_plugins(tmp_path: Path) -> None:
    path = house(tmp_path, "plugins: [ordinary, nosuch]\n")
    message = only_problem(path)
    assert message.startswith(f"{path}:4:21: plugins[1]: unknown plugin 'nosuch'; known plugins: ")
    assert "ordinary" in message


def test_all_problems_of_a_file_at_once(tmp_path: Path) -> None:
    path = house(
        tmp_path,
        """\
        players: 1
        deal:
          packets: [3, 3, 3]
        game:
          taget: 1500
        plugins: [nosuch]
        """,
    )
    found = problems(path)
    assert [message.split(": ")[0] for message in found] == [
        f"{path}:4:10",
        f"{path}:6:3",
        f"{path}:8:3",
        f"{path}:9:11",
    ]
    assert "must be at least 2" in found[0]
    assert "add up to 8" in found[1]
    assert "did you mean 'target'?" in found[2]
    assert "unknown plugin 'nosuch'" in found[3]


# --- overrides -----------------------------------------------------------------------------


# Each case: overrides of the ordinary game and every problem they must give, in order.
OVERRIDES_PROBLEMS: dict[str, tuple[Any, ...]] = {
    "overrides_errors_name_the_path": (
        {"deal": {"hand_size": "eight"}, "game": {"taget": 1}, "players": 1},
        "<overrides>: deal.hand_size: must be a whole number, not the text 'eight'",
        "<overrides>: game.taget: unknown key 'taget'; did you mean 'target'? the keys allowed "
        "here are: both_over, check, end, source, target",
        "<overrides>: players: must be at least 2 (it is 1)",
    ),
    "overrides_that_are_not_plain_data": (
        {"game": {1: "x", "target": {1, 2}}, "extends": "x"},
        "<overrides>: game: key 1 must be a string",
        "<overrides>: game.target: set values cannot be given; use mappings, lists, "
        "text, numbers, true/false or null",
        "<overrides>: extends: overrides cannot change the parent variant",
    ),
    "overrides_problem_caused_elsewhere_points_at_overrides": (
        {"cards": {"packs": 1}},
        "<overrides>: cards.packs: combination 'double_bezique' needs 2 bezique pairs, "
        "but 1 pack(s) hold at most 1; lower it or shuffle in more packs",
    ),
}


@pytest.mark.parametrize("case", cases(OVERRIDES_PROBLEMS))
def test_overrides_give_exactly_their_problems(case: tuple[Any, ...]) -> None:
    overrides, *expected = case
    assert problems("ordinary", overrides) == expected


def test_overrides_that_contain_themselves() -> None:
    loop: dict[str, Any] = {}
    loop["game"] = loop
    assert only_problem("ordinary", loop).startswith("<overrides>: game.game.game.game")


# --- nothing left behind -------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def test_rejected_file_leaves_nothing_behind(tmp_path: Path) -> None:
    before_variant = load_variant("ordinary")
    path = house(tmp_path, "deal:\n  hand_sise: 9\n  packets: [1]\n")
    before = snapshot(tmp_path)
    problems(path)
    problems("ordinary", {"deal": {"packets": [1]}})
    assert snapshot(tmp_path) == before
    assert load_variant("ordinary") == before_variant
    assert load_variant("ordinary").data["deal"]["packets"] == [3, 2, 3]


# --- the schema itself ---------------------------------------------------------------------


def walk(node: Any, where: str = "#") -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{where}/{index}")


def test_schema_is_valid_draft_2020_12() -> None:
    schema = variant_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_every_schema_property_has_a_description() -> None:
    undescribed = [
        f"{where}/properties/{name}"
        for where, node in walk(variant_schema())
        if isinstance(node.get("properties"), dict)
        for name, prop in node["properties"].items()
        if not (isinstance(prop, dict) and str(prop.get("description", "")).strip())
    ]
    undescribed += [
        f"#/$defs/{name}"
        for name, definition in variant_schema()["$defs"].items()
        if not str(definition.get("description", "")).strip()
    ]
    assert undescribed == []


def test_objects_are_closed_except_user_keyed_mappings() -> None:
    open_objects = [
        where
        for where, node in walk(variant_schema())
        if node.get("type") == "object" and node.get("additionalProperties") is not False
    ]
    assert open_objects == [
        "#/$defs/declarations/properties/bezique_cards",
        "#/$defs/declarations/properties/combinations",
    ]


def test_every_section_allows_a_source() -> None:
    schema = variant_schema()
    sections = [name for name, prop in schema["properties"].items() if "$ref" in prop]
    sections.remove("source")
    for name in [*sections, "combination"]:
        assert "source" in schema["$defs"][name]["properties"], name


def test_schema_switches() -> None:
    defs = variant_schema()["$defs"]
    enum = {
        "trumps.mode": defs["trumps"]["properties"]["mode"]["enum"],
        "seven_of_trumps.scoring": defs["seven_of_trumps"]["properties"]["scoring"]["enum"],
        "trick.identical_cards": defs["trick"]["properties"]["identical_cards"]["enum"],
        "declarations.per_trick": defs["declarations"]["properties"]["per_trick"]["enum"],
        "brisques.timing": defs["brisques"]["properties"]["timing"]["enum"],
        "last_trick.which": defs["last_trick"]["properties"]["which"]["enum"],
        "game.check": defs["game"]["properties"]["check"]["enum"],
        "game.both_over": defs["game"]["properties"]["both_over"]["enum"],
        "deal.first_lead": defs["deal"]["properties"]["first_lead"]["enum"],
        "deal.next_dealer": defs["deal"]["properties"]["next_dealer"]["enum"],
    }
    assert enum == {
        "trumps.mode": ["turn_up", "first_marriage"],
        "seven_of_trumps.scoring": [
            "declare_or_exchange",
            "on_play",
            "on_play_or_exchange",
            "trick_winner",
        ],
        "trick.identical_cards": ["first_played"],
        "declarations.per_trick": ["several", "one", "compound"],
        "brisques.timing": ["immediate", "end_of_hand", "settlement"],
        "last_trick.which": ["stock_exhausting", "final"],
        "game.check": ["at_once", "hand_end"],
        "game.both_over": ["last_trick_winner", "higher_score"],
        "deal.first_lead": ["left_of_dealer"],
        "deal.next_dealer": ["left_of_dealer"],
    }


def test_shipped_schema_file_matches_the_loaded_one() -> None:
    text = files("bezique.schemas").joinpath("variant.schema.json").read_text(encoding="utf-8")
    assert json.loads(text) == variant_schema()


@pytest.mark.parametrize(
    ("overrides", "where"),
    [({"tarrget": None}, "tarrget"), ({"game": {"tarrget": None}}, "game.tarrget")],
)
def test_a_null_override_must_delete_a_key_the_variant_has(
    overrides: dict[str, Any], where: str
) -> None:
    with pytest.raises(VariantError) as info:
        load_variant("ordinary", overrides)
    assert info.value.problems == [
        f"<overrides>: {where}: null deletes a key, but the variant has no such key to delete"
    ]
    assert "carte_blanche" not in load_variant("ordinary", {"carte_blanche": None}).data

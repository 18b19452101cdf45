"""Loader answers that stay useful and bounded: key suggestions, problem caps, chain limits."""

from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from bezique.errors import VariantError
from bezique.reading.yamlsafe import MAX_BYTES, MAX_NODES, MAX_PROBLEMS, parse_yaml
from bezique.variant import MAX_CHAIN, MAX_CHAIN_VALUES, load_variant, loader

HEADER = "name: house\nextends: ordinary\nsummary: A house rule.\n"
"""Three lines that start every house-rule file below (so line numbers start at 4)."""


def house(folder: Path, body: str, name: str = "house.yaml") -> str:
    path = folder / name
    path.write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    return os.fspath(path)


def problems(spec: str, overrides: dict[str, Any] | None = None) -> list[str]:
    with pytest.raises(VariantError) as info:
        load_variant(spec, overrides)
    assert info.value.problems
    return info.value.problems


# --------------------------------------------------------------------------- key suggestions


@pytest.mark.parametrize(
    ("body", "where", "suggestion"),
    [
        ("tarrget: 1500\n", "4:1: tarrget: unknown key 'tarrget'", "game.target"),
        ("target: 1500\n", "4:1: target: unknown key 'target'", "game.target"),
        ("hand_size: 9\n", "4:1: hand_size: unknown key 'hand_size'", "deal.hand_size"),
        (
            "game:\n  hand_sise: 9\n",
            "5:3: game.hand_sise: unknown key 'hand_sise'",
            "deal.hand_size",
        ),
        ("brisques:\n  timeing: x\n", "5:3: brisques.timeing: unknown key 'timeing'", "timing"),
        ("\nplayrs: 3\n", "5:1: playrs: unknown key 'playrs'", "players"),
    ],
)
def test_a_misspelt_key_suggests_the_nearest_key_anywhere_in_the_schema(
    tmp_path: Path, body: str, where: str, suggestion: str
) -> None:
    path = house(tmp_path, body)
    [found] = problems(path)
    assert found.startswith(f"{path}:{where}; did you mean {suggestion!r}? the keys allowed here")


def test_a_key_like_none_in_the_schema_gets_no_suggestion(tmp_path: Path) -> None:
    path = house(tmp_path, "deal:\n  zzqx: 1\n")
    assert problems(path) == [
        f"{path}:5:3: deal.zzqx: unknown key 'zzqx'; the keys allowed here are: "
        "first_lead, hand_size, next_dealer, packets, source"
    ]


def test_overrides_get_the_same_suggestion() -> None:
    [found] = problems("ordinary", {"tarrget": 1500})
    assert found.startswith(
        "<overrides>: tarrget: unknown key 'tarrget'; did you mean 'game.target'?"
    )


# --------------------------------------------------------------------------- problem caps


def chain(folder: Path, files: int, body: str = "", base: str = "ordinary") -> str:
    """Write f0.yaml extends f1.yaml ... extends ``base``; each file gets ``body``."""
    for index in range(files):
        parent = f"f{index + 1}.yaml" if index + 1 < files else base
        text = f"name: f{index}\nsummary: s\nextends: {parent}\n" + body.format(i=index)
        (folder / f"f{index}.yaml").write_text(text, encoding="utf-8")
    return os.fspath(folder / "f0.yaml")


def test_problems_are_capped_per_file_of_an_extends_chain(tmp_path: Path) -> None:
    keys = 3 * MAX_PROBLEMS
    top = chain(tmp_path, 3, "".join(f"k{{i}}_{j}: {j}\n" for j in range(keys)))
    started = time.monotonic()
    found = problems(top)
    assert time.monotonic() - started < 30
    assert len(found) == 3 * (MAX_PROBLEMS + 1)
    for index in range(3):
        name = os.fspath(tmp_path / f"f{index}.yaml")
        mine = [p for p in found if p.startswith(f"{name}:")]
        assert len(mine) == MAX_PROBLEMS + 1
        assert mine[0] == (
            f"{name}:4:1: k{index}_0: unknown key 'k{index}_0'; the keys allowed here are: "
            + mine[0].split("the keys allowed here are: ")[1]
        )
        assert mine[MAX_PROBLEMS - 1].startswith(f"{name}:{MAX_PROBLEMS + 3}:1: ")
        assert mine[-1] == (
            f"{name}:{MAX_PROBLEMS + 4}:1: {keys - MAX_PROBLEMS} more problems follow"
        )


def test_overrides_problems_are_capped_too() -> None:
    found = problems("ordinary", {f"k{j}": j for j in range(MAX_PROBLEMS + 7)})
    assert len(found) == MAX_PROBLEMS + 1
    assert found[-1] == "<overrides>: 7 more problems follow"


# --------------------------------------------------------------------------- chain bounds


def test_a_long_generated_chain_stops_at_the_limit_at_once(tmp_path: Path) -> None:
    top = chain(tmp_path, 500)
    started = time.monotonic()
    assert problems(top) == [
        f"{tmp_path / f'f{MAX_CHAIN - 1}.yaml'}:3:10: extends: the extends chain is longer "
        f"than {MAX_CHAIN} files; shorten it"
    ]
    assert time.monotonic() - started < 10


def test_a_long_generated_cycle_is_found(tmp_path: Path) -> None:
    top = chain(tmp_path, 12, base="f0.yaml")
    loop = " -> ".join(os.fspath(tmp_path / f"f{i}.yaml") for i in [*range(12), 0])
    assert problems(top) == [
        f"{tmp_path / 'f11.yaml'}:3:10: extends: 'f0.yaml' leads back into its own chain "
        f"({loop}); a variant cannot extend itself"
    ]


def test_the_values_of_a_whole_chain_are_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chain of MAX_CHAIN files of nearly MAX_NODES values each is not read whole."""
    per_file = MAX_NODES - 100
    body = "extra:\n" + "".join(f"  - {j}\n" for j in range(per_file - 10))
    top = chain(tmp_path, MAX_CHAIN - 1, body)
    parsed: list[str] = []
    real_parse = loader._parse

    def counting_parse(raw: bytes, display: str, *rest: Any) -> Any:
        parsed.append(display)
        return real_parse(raw, display, *rest)

    monkeypatch.setattr(loader, "_parse", counting_parse)
    started = time.monotonic()
    found = problems(top)
    took = time.monotonic() - started
    passing = MAX_CHAIN_VALUES // per_file  # f0 ... f1 fit; f2 passes the bound
    assert parsed == [os.fspath(tmp_path / f"f{i}.yaml") for i in range(passing + 1)]
    assert len(found) == 1, found[:3]
    assert found[0].startswith(f"{tmp_path / f'f{passing}.yaml'}:")
    assert found[0].endswith(
        f": the files of this extends chain hold more than {MAX_CHAIN_VALUES} values in all "
        "(stopped reading here); a variant needs far fewer"
    )
    assert took < 60


def test_a_file_of_aliases_is_refused_at_the_first(tmp_path: Path) -> None:
    """As many aliases as a file may hold (about 87,000) are not read one by one."""
    body = "a: &a 1\nl: [" + ",".join(["*a"] * (MAX_BYTES // 3 - 100)) + "]\n"
    path = house(tmp_path, body)
    assert os.path.getsize(path) <= MAX_BYTES
    assert problems(path) == [
        f"{path}:4:4: anchor '&a' is not allowed; remove it and write values out in full",
        f"{path}:5:5: alias '*a' is not allowed; write the value out in full (to share a "
        "whole variant, use 'extends:'; stopped reading here)",
    ]


# --------------------------------------------------------------------------- YAML 1.1 surprises


def test_a_leading_zero_target_is_refused_not_read_as_octal(tmp_path: Path) -> None:
    path = house(tmp_path, "game:\n  target: 01000\n")
    assert problems(path) == [
        f"{path}:5:11: '01000' is read as the octal number 512 by YAML 1.1 but as 1000 by "
        "YAML 1.2; write 1000 (no leading zeros), or put it in quotes for text"
    ]


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (
            "0755",
            "'0755' is read as the octal number 493 by YAML 1.1 but as 755 by YAML 1.2; "
            "write 755 (no leading zeros)",
        ),
        (
            "00",
            "'00' is read as the octal number 0 by YAML 1.1 but as 0 by YAML 1.2; write 0 "
            "(no leading zeros)",
        ),
        (
            "1:30",
            "'1:30' is read as the base-60 number 90 by YAML 1.1 but as text by YAML 1.2; "
            "write the number in plain decimal digits",
        ),
        (
            "1:30.5",
            "'1:30.5' is read as the base-60 number 90.5 by YAML 1.1 but as text by "
            "YAML 1.2; write the number in plain decimal digits",
        ),
        (
            "1_000",
            "'1_000' is read as 1000 by YAML 1.1 but as text by YAML 1.2; write 1000 (no '_')",
        ),
        (
            "-2_5.5",
            "'-2_5.5' is read as -25.5 by YAML 1.1 but as text by YAML 1.2; write -25.5 (no '_')",
        ),
        (
            "0b101",
            "'0b101' is read as the binary number 5 by YAML 1.1 but as text by YAML 1.2; "
            "write the number in plain decimal digits (5)",
        ),
        (
            "0x1F",
            "'0x1F' is the hexadecimal number 31; write the number in plain decimal digits (31)",
        ),
        (".inf", "'.inf' is read as an infinite or not-a-number value; write a plain number"),
        ("-.Inf", "'-.Inf' is read as an infinite or not-a-number value; write a plain number"),
        (".NaN", "'.NaN' is read as an infinite or not-a-number value; write a plain number"),
        ("yes", "'yes' is read as true by YAML 1.1 but as text by YAML 1.2; write true or false"),
        ("Off", "'Off' is read as false by YAML 1.1 but as text by YAML 1.2; write true or false"),
        ("NO", "'NO' is read as false by YAML 1.1 but as text by YAML 1.2; write true or false"),
    ],
)
def test_yaml_1_1_surprises_are_refused_with_their_place(value: str, says: str) -> None:
    with pytest.raises(VariantError) as info:
        parse_yaml(f"top:\n  - 1\n  - {value}\n", "x.yaml")
    assert info.value.problems == [f"x.yaml:3:5: {says}, or put it in quotes for text"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1000", 1000),
        ("-12", -12),
        ("+7", 7),
        ("0", 0),
        ("2.5", 2.5),
        ("-0.25", -0.25),
        ("1.5e+3", 1500.0),
        ("true", True),
        ("False", False),
        ("TRUE", True),
        ("null", None),
        ("~", None),
        ("'01000'", "01000"),
        ('"yes"', "yes"),
        ("'1:30'", "1:30"),
        ("on_play", "on_play"),
        ("no_trumps", "no_trumps"),
        ("1e3", "1e3"),
        ("09", "09"),
    ],
)
def test_plain_numbers_booleans_and_quoted_text_read_as_before(text: str, value: object) -> None:
    assert parse_yaml(f"top: {text}\n", "x.yaml").data == {"top": value}


def test_every_surprise_in_a_file_is_listed(tmp_path: Path) -> None:
    path = house(tmp_path, "game:\n  target: 01000\nplayers: 0b10\ncarte_blanche:\n  enabled: on\n")
    found = problems(path)
    assert [p.split(": ")[0] for p in found] == [f"{path}:5:11", f"{path}:6:10", f"{path}:8:12"]


def test_a_surprise_and_the_schema_errors_of_a_file_are_reported_together(
    tmp_path: Path,
) -> None:
    path = house(tmp_path, "brisques:\n  timeing: end_of_hand\ngame:\n  target: -5\nplayers: no\n")
    assert problems(path) == [
        f"{path}:5:3: brisques.timeing: unknown key 'timeing'; did you mean 'timing'? the keys "
        "allowed here are: points, ranks, source, timing",
        f"{path}:7:11: game.target: must be at least 1 (it is -5)",
        f"{path}:8:10: 'no' is read as false by YAML 1.1 but as text by YAML 1.2; write true or "
        "false, or put it in quotes for text",
    ]


def test_a_refused_value_is_not_judged_again_by_the_schema(tmp_path: Path) -> None:
    """The stand-in read for a surprise (false, for 'no') is a wrong type: not said twice."""
    path = house(tmp_path, "players: no\ntitle: !!binary aGk=\n")
    assert problems(path) == [
        f"{path}:4:10: 'no' is read as false by YAML 1.1 but as text by YAML 1.2; write true or "
        "false, or put it in quotes for text",
        f"{path}:5:8: tag !!binary is not allowed; only plain values, lists and mappings are "
        "(remove the tag)",
    ]


def test_validate_reports_the_surprises_schema_and_sense_problems_in_file_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bezique.commands.cli import main

    path = house(
        tmp_path,
        "players: 3\ngame:\n  target: 0x10\nbrisques:\n  timing: at_the_end\n",
    )
    assert main(["validate", path]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{path}:4:10: players: 3 hands of 8 cards leave 40 of the 64 cards to draw (the "
        "turn-up included), which do not go round 3 players one card each a trick; make the "
        "cards left a multiple of 3 (deal.hand_size, cards.packs, players)",
        f"{path}:6:11: '0x10' is the hexadecimal number 16; write the number in plain decimal "
        "digits (16), or put it in quotes for text",
        f"{path}:8:11: brisques.timing: 'at_the_end' is not allowed; use one of: immediate, "
        "end_of_hand, settlement",
    ]


# --------------------------------------------------------------------------- the ruleset cache


def test_the_ruleset_cache_keeps_only_the_most_recently_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bezique.rules import ruleset

    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    size = ruleset.MAX_CACHED_RULESETS
    first = [ruleset.ruleset_for("ordinary", {"game": {"target": 500 + i}}) for i in range(size)]
    again = ruleset.ruleset_for("ordinary", {"game": {"target": 500}})  # used: now the newest
    assert again is first[0]
    newer = [
        ruleset.ruleset_for("ordinary", {"game": {"target": 2000 + i}}) for i in range(size - 1)
    ]
    assert len(ruleset._REGISTERED) == size
    assert ruleset.ruleset_for("ordinary", {"game": {"target": 500}}) is first[0]  # kept
    assert ruleset.ruleset_for("ordinary", {"game": {"target": 2000 + size - 2}}) is newer[-1]
    rebuilt = ruleset.ruleset_for("ordinary", {"game": {"target": 501}})  # the oldest: dropped
    assert rebuilt is not first[1]
    assert rebuilt.target == 501
    assert len(ruleset._REGISTERED) == size

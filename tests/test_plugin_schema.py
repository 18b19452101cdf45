"""A plugin's own schema section: the kernel's schema holds only kernel keys, plugins add theirs.

Each plugin answers ``bezique_variant_schema()`` with the fragment of its sections; a
variant is validated against the kernel's schema merged with the fragments of the
plugins it lists.  The test plugin below (registered through ``register_plugin`` in a
fresh discovery) owns a top-level ``tallies`` section and adds ``game.rubicon``.
"""

from __future__ import annotations

import copy
import os
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bezique.errors import VariantError
from bezique.game import new_game
from bezique.hookspecs import KeyPath, hookimpl
from bezique.plugins.ordinary import checks as ordinary_checks
from bezique.plugins.ordinary.combinations import BEZIQUE_LADDER_DEFAULT
from bezique.plugins.partnership import PARTNERS_TABLE_DEFAULT
from bezique.rules import ruleset
from bezique.variant import (
    declared_default,
    load_variant,
    registry,
    variant_from_data,
    variant_schema,
    variant_summaries,
)
from bezique.variant.schema import (
    OVERLAY_FILE,
    full_schema,
    kernel_schema,
    load_fragment,
    render,
    schema_for,
    shipped_schema_text,
    variant_overlay_schema,
    with_defaults,
)

TALLIES: dict[str, Any] = {
    "description": "A house plugin's section: a tally of points for a rank.",
    "properties": {
        "tallies": {
            "description": "Points for each card of one rank taken in tricks.",
            "type": "object",
            "additionalProperties": False,
            "required": ["rank", "points"],
            "properties": {
                "rank": {"$ref": "#/$defs/rank", "description": "The rank tallied."},
                "points": {"$ref": "#/$defs/points", "description": "Points for each."},
                "source": {"$ref": "#/$defs/source", "description": "Where it comes from."},
            },
        }
    },
    "required": ["tallies"],
    "adds": {
        "game": {
            "properties": {
                "rubicon": {"$ref": "#/$defs/points", "description": "Points short of it."}
            }
        }
    },
}
"""The test plugin's fragment: its own section, and a key it adds to the kernel's ``game``."""


class Tallies:
    """A plugin that builds on the ordinary one and brings its own section."""

    def __init__(self, fragment: Any = None) -> None:
        self.fragment = TALLIES if fragment is None else fragment

    @hookimpl
    def bezique_requires(self) -> list[str]:
        return ["ordinary"]

    @hookimpl
    def bezique_variant_schema(self) -> Any:
        if isinstance(self.fragment, Exception):
            raise self.fragment
        return copy.deepcopy(self.fragment)

    @hookimpl
    def bezique_variant_problems(self, data: dict[str, Any]) -> list[tuple[KeyPath, str]]:
        if data["tallies"]["rank"] in data["brisques"]["ranks"]:
            return [(("tallies", "rank"), "a brisque rank scores already; tally another rank")]
        return []


@pytest.fixture
def fresh() -> Iterator[None]:
    """A fresh discovery of the plugins, without any registered by other tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "_discovery", None)
        patch.setattr(registry, "_added", {})
        patch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
        patch.delenv(registry.BLOCK_ENV, raising=False)
        yield


@pytest.fixture
def tallies(fresh: None) -> None:
    registry.register_plugin("tallies", Tallies())


def house(folder: Path, body: str, plugins: str = "[ordinary, tallies]") -> str:
    """A house rule over ordinary: three lines, ``plugins:`` on line 4, the body from line 5."""
    path = folder / "house.yaml"
    text = f"name: house\nextends: ordinary\nsummary: A house rule.\nplugins: {plugins}\n"
    path.write_text(text + textwrap.dedent(body), encoding="utf-8")
    return os.fspath(path)


def problems(path: str) -> list[str]:
    with pytest.raises(VariantError) as info:
        load_variant(path)
    return info.value.problems


TALLY = "tallies:\n  rank: '9'\n  points: 10\n"


# ------------------------------------------------------------------ the plugin's section


def test_a_variant_listing_the_plugin_validates_with_its_section(
    tallies: None, tmp_path: Path
) -> None:
    path = house(tmp_path, TALLY + "game:\n  rubicon: 100\n")
    variant = load_variant(path)
    assert variant.data["tallies"] == {"rank": "9", "points": 10}
    assert variant.data["game"]["rubicon"] == 100
    assert new_game(variant, seed=1).rules.data["tallies"]["points"] == 10


def test_a_wrong_value_in_the_section_is_refused_at_its_place(
    tallies: None, tmp_path: Path
) -> None:
    path = house(tmp_path, "tallies:\n  rank: Z\n  points: -5\n  pionts: 1\ngame:\n  rubicon: x\n")
    assert problems(path) == [
        f"{path}:6:9: tallies.rank: rank 'Z' is not in cards.ranks; use one of: A T K Q J 9 8 7",
        f"{path}:7:11: tallies.points: must be at least 0 (it is -5)",
        f"{path}:8:3: tallies.pionts: unknown key 'pionts'; did you mean 'points'? the keys "
        "allowed here are: points, rank, source",
        f"{path}:10:12: game.rubicon: must be a whole number, not the text 'x'",
    ]


def test_the_section_is_required_of_a_variant_listing_the_plugin(
    tallies: None, tmp_path: Path
) -> None:
    path = house(tmp_path, "")
    assert problems(path) == [
        f"{path}:1:1: the key 'tallies' is missing (Points for each card of one rank taken in "
        "tricks.)"
    ]


def test_the_plugins_own_check_reads_its_section(tallies: None, tmp_path: Path) -> None:
    path = house(tmp_path, "tallies:\n  rank: T\n  points: 10\n")
    assert problems(path) == [
        f"{path}:6:9: tallies.rank: a brisque rank scores already; tally another rank"
    ]


def test_the_section_in_a_variant_not_listing_the_plugin_is_refused(
    tallies: None, tmp_path: Path
) -> None:
    path = house(tmp_path, TALLY + "game:\n  rubicon: 100\n", plugins="[ordinary]")
    assert problems(path) == [
        f"{path}:5:1: tallies: the key 'tallies' belongs to plugin 'tallies', which this variant "
        "does not list; add 'tallies' to plugins, or take the key out",
        f"{path}:9:3: game.rubicon: the key 'rubicon' belongs to plugin 'tallies', which this "
        "variant does not list; add 'tallies' to plugins, or take the key out",
    ]


def test_without_the_plugin_installed_the_section_is_an_unknown_key(
    fresh: None, tmp_path: Path
) -> None:
    path = house(tmp_path, TALLY, plugins="[ordinary]")
    [problem] = problems(path)
    assert problem.startswith(f"{path}:5:1: tallies: unknown key 'tallies'; ")
    assert "belongs to plugin" not in problem


def test_a_built_in_plugins_section_names_its_plugin(fresh: None, tmp_path: Path) -> None:
    path = house(tmp_path, "endgame:\n  mode: tricks\n", plugins="[ordinary]")
    assert problems(path) == [
        f"{path}:6:3: endgame.mode: the key 'mode' belongs to plugin 'multihand', which this "
        "variant does not list; add 'multihand' to plugins, or take the key out"
    ]


def test_data_a_record_carries_is_checked_by_the_plugins_too(fresh: None) -> None:
    data = load_variant("polish").data
    data["seven_of_trumps"]["rank"] = "J"
    with pytest.raises(VariantError) as info:
        variant_from_data(data, "game.json: variant_data", origin="polish")
    assert info.value.problems == [
        "game.json: variant_data: open_cards.ranks[3]: open_cards.ranks names 'J', the rank "
        "of the seven of trumps, which is never an open card: it is exchanged for the turn-up "
        "or scores where it lies (S0 Polish section, A20b); leave it out of the open ranks"
    ]
    data = load_variant("ordinary").data
    data["open_cards"] = {"ranks": ["A"], "trump_ranks": []}
    with pytest.raises(VariantError) as info:
        variant_from_data(data, "game.json: variant_data", origin="ordinary")
    assert info.value.problems == [
        "game.json: variant_data: open_cards: the key 'open_cards' belongs to plugin 'polish', "
        "which this variant does not list; add 'polish' to plugins, or take the key out"
    ]


# ------------------------------------------------------------------ bad fragments


@pytest.mark.parametrize(
    ("fragment", "says"),
    [
        (
            {"properties": {"players": {"type": "integer"}}},
            "claims the key 'players', which the kernel owns",
        ),
        (
            {"properties": {"brisques": {"type": "object"}}},
            "claims the key 'brisques', which plugin 'ordinary' owns",
        ),
        (
            {"adds": {"game": {"properties": {"check": {"type": "string"}}}}},
            "adds game.check, which plugin 'ordinary' owns already",
        ),
        (
            {"adds": {"game": {"properties": {"target": {"type": "string"}}}}},
            "adds game.target, which the kernel owns already",
        ),
        (
            {"adds": {"nowhere": {"properties": {}}}},
            "adds keys to 'nowhere', which is not a "
            "section of the kernel or of a plugin listed with it",
        ),
        (
            {"properties": {"odd": {"type": "nonsense"}}},
            "its schema fragment's properties is not a JSON Schema at 'odd/type': ",
        ),
        (
            {"properties": {"odd": {"$ref": "#/$defs/nowhere"}}},
            "refers to '#/$defs/nowhere', which no schema defines",
        ),
        (
            {"$defs": {"rank": {"type": "string"}}},
            "defines '#/$defs/rank', which is defined already",
        ),
        ({"required": ["odd"]}, "'required' must list keys of its own 'properties'"),
        ({"sections": {}}, "has 'sections', which a fragment does not hold"),
        (["not", "a", "mapping"], "returned a list, not a mapping"),
        (
            {"properties": {"odd": {"minimum": float("nan")}}},
            "its schema fragment is not plain "
            "JSON data (Out of range float values are not JSON compliant",
        ),
        (
            RuntimeError("no schema today"),
            "its bezique_variant_schema() failed: RuntimeError: no schema today",
        ),
    ],
)
def test_a_bad_fragment_is_refused_at_the_plugins_entry(
    fresh: None, tmp_path: Path, fragment: Any, says: str
) -> None:
    registry.register_plugin("tallies", Tallies(fragment))
    path = house(tmp_path, "")
    [problem] = problems(path)
    prefix = f"{path}:4:21: plugins[1]: plugin 'tallies' cannot be used: its "
    assert problem.startswith(prefix), problem
    assert says in problem, problem


class Silent:
    """A plugin that answers the schema hook with None: no section of its own."""

    @hookimpl
    def bezique_variant_schema(self) -> None:
        return None


def test_a_plugin_without_a_fragment_brings_no_key(fresh: None) -> None:
    registry.register_plugin("silent", Silent())
    schema, bad = schema_for(["ordinary", "grand", "silent"])
    assert bad == {}
    assert schema == schema_for(["ordinary"])[0]


# ------------------------------------------------------------------ the schemas


KERNEL_KEYS = [
    "name",
    "extends",
    "title",
    "summary",
    "plugins",
    "players",
    "source",
    "partnerships",
    "cards",
    "deal",
    "trumps",
    "game",
]
"""What the kernel reads: the variant's names and plugins, the table, pack, deal, trumps, end."""


def test_the_kernels_schema_holds_only_the_kernels_keys() -> None:
    kernel = kernel_schema()
    assert list(kernel["properties"]) == KERNEL_KEYS
    assert list(kernel["$defs"]["game"]["properties"]) == ["end", "target", "source"]
    assert list(kernel["properties"]["partnerships"]["properties"]) == ["sides", "source"]


def test_each_built_in_plugin_owns_its_sections(fresh: None) -> None:
    owners = schema_for(["ordinary", "grand", "polish", "multihand", "partnership"])[0].owners
    by_plugin: dict[str, list[str]] = {}
    for path, plugin in owners.items():
        by_plugin.setdefault(plugin, []).append(".".join(map(str, path)))
    assert by_plugin == {
        "ordinary": [
            "penalties",
            "seven_of_trumps",
            "trick",
            "declarations",
            "brisques",
            "last_trick",
            "endgame",
            "carte_blanche",
            "game.check",
            "game.both_over",
            "trumps.fixed_by",
        ],
        "polish": ["open_cards"],
        "multihand": ["endgame.mode"],
        "partnership": [
            "partnerships.declarer",
            "partnerships.shared_beziques",
            "partnerships.partners_table",
        ],
    }


def test_the_shipped_schema_is_the_merge_of_the_kernel_and_the_built_in_plugins(
    tallies: None,
) -> None:
    # Regenerate both with: python -m bezique.variant --write schemas
    assert shipped_schema_text() == render(variant_schema())
    overlay = shipped_schema_text(OVERLAY_FILE)
    assert overlay == render(variant_overlay_schema(variant_schema()))
    assert "tallies" not in variant_schema()["properties"]  # built-ins only
    ordinary = load_fragment("bezique.plugins.ordinary", "schema.json")
    assert set(ordinary["properties"]) <= set(variant_schema()["properties"])


def test_the_ordinary_checks_answer_through_the_plugin(fresh: None) -> None:
    data = load_variant("ordinary").data
    data["declarations"]["bezique_cards"]["H"] = ["QS", "QS"]
    del data["declarations"]["bezique_cards"]["C"]
    data["cards"]["packs"] = 1
    assert ordinary_checks.problems(data) == [
        (
            ("declarations", "bezique_cards", "H", 1),
            "the bezique is two different cards (a queen and a knave in S0); 'QS' is named twice",
        ),
        (
            ("declarations", "bezique_cards"),
            "trump suit 'C' has no entry; add one, such as C: [QS, JD]",
        ),
        (
            [
                ("declarations", "combinations", "double_bezique", "beziques"),
                ("cards", "packs"),
            ],
            "combination 'double_bezique' needs 2 bezique pairs, but 1 pack(s) hold at most 1; "
            "lower it or shuffle in more packs",
        ),
    ]


def test_the_tutorial_quotes_the_real_message(fresh: None, tmp_path: Path) -> None:
    readme = (
        Path(__file__).resolve().parent.parent / "docs" / "plugins" / "tutorial.md"
    ).read_text(encoding="utf-8")
    quoted = " ".join(readme.split("(`house.yaml:", 1)[1].split("; ...`)", 1)[0].split())
    registry.register_plugin("myrules", Tallies())
    path = house(tmp_path, TALLY, plugins="[ordinary]")
    [problem] = problems(path)
    assert problem.startswith(f"{path}:{quoted};"), (quoted, problem)


# ------------------------------------------------------------------------ declared defaults


def test_the_defaults_are_written_only_for_keys_absent_from_mappings_there(fresh: None) -> None:
    schema = full_schema()
    data = {
        "declarations": {"per_trick": "one"},
        "partnerships": {"partners_table": True},
        "trumps": {"mode": "first_marriage", "fixed_by": "marriage"},
    }
    before = copy.deepcopy(data)
    assert with_defaults(data, schema) == {
        "declarations": {"per_trick": "one", "bezique_ladder": "additive"},
        "partnerships": {"partners_table": True},
        "trumps": {"mode": "first_marriage", "fixed_by": "marriage"},
    }
    assert data == before  # a copy is filled
    assert with_defaults({"endgame": {}, "penalties": {}}, schema) == {
        "endgame": {"mode": "tricks"},
        "penalties": {"seen_cards": "choice"},
    }
    assert with_defaults([1], schema) == [1]


def test_a_default_is_read_from_the_schema_or_a_plugins_fragment(fresh: None) -> None:
    document = variant_schema()
    assert declared_default(document, ("declarations", "bezique_ladder")) == "additive"
    assert declared_default(document, ("trumps", "fixed_by")) == "marriage_or_sequence"
    partnership = load_fragment("bezique.plugins", "partnership.schema.json")
    assert declared_default(partnership, ("partnerships", "partners_table")) is False
    multihand = load_fragment("bezique.plugins", "multihand.schema.json")
    assert declared_default(multihand, ("endgame", "mode")) == "tricks"
    with pytest.raises(LookupError, match=r"no default for declarations\.per_trick"):
        declared_default(document, ("declarations", "per_trick"))
    with pytest.raises(LookupError, match=r"no default for declarations\.no_such_key"):
        declared_default(document, ("declarations", "no_such_key"))
    # The plugins read an absent key as the one default their schema declares.
    assert (BEZIQUE_LADDER_DEFAULT, PARTNERS_TABLE_DEFAULT) == ("additive", False)


def _described_defaults(node: Any) -> Iterator[tuple[str, bool]]:
    """Each key whose description speaks of its default, and whether the schema declares it."""
    if isinstance(node, list):
        for item in node:
            yield from _described_defaults(item)
    if not isinstance(node, dict):
        return
    properties = node.get("properties")
    for key, sub in properties.items() if isinstance(properties, dict) else ():
        if "default" in str(sub.get("description", "")).lower():
            declared = "default" in sub or any(
                "default" in branch.get("properties", {}).get(key, {})
                for branch in node.get("dependentSchemas", {}).values()
            )
            yield key, declared
    for value in node.values():
        yield from _described_defaults(value)


def test_every_default_a_description_tells_is_declared(fresh: None) -> None:
    described = dict(_described_defaults(variant_schema()))
    assert described == {
        "seen_cards": True,
        "bezique_ladder": True,
        "suit": True,
        "distinct_suits": True,
        "fixed_by": True,
        "mode": True,
        "partners_table": True,
        "end": True,
    }


@pytest.mark.parametrize("name", [name for name, _ in variant_summaries()])
def test_a_variant_with_its_defaults_written_still_validates(name: str) -> None:
    # Every declared default is a value its key accepts.
    data = load_variant(name).data
    schema = schema_for(data["plugins"])[0]
    filled = with_defaults(data, schema)
    assert not list(schema.validator().iter_errors(filled))

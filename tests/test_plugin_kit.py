"""The plugin author's kit: ``bezique plugins``, ``bezique schema`` and the files' modelines.

``bezique plugins`` lists every plugin found, a broken one with its problem; ``bezique
schema`` prints the schema of variant files with every installed plugin's sections, and
``--overlay`` the schema of a house-rule file; every shipped variant file names the
schema it satisfies in a ``yaml-language-server`` modeline that resolves in a checkout
and in the installed package alike.  Fake installed distributions come from
tests/test_plugins.py (``site``).
"""

from __future__ import annotations

import importlib.metadata
import json
import posixpath
import re
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pluggy
import pytest
import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from test_plugins import BROKEN, PROBLEM, Site, run, site

from bezique import hookspecs
from bezique.hookspecs import hookimpl
from bezique.rules.pinned import digest_of
from bezique.rules.plugininfo import hook_kind
from bezique.variant import load_variant, registry
from bezique.variant.overlay import overlay_schema
from bezique.variant.schema import (
    OVERLAY_FILE,
    SCHEMA_FILE,
    is_builtin,
    shipped_schema_text,
)

__all__ = ["site"]  # the fixture of fake installed distributions, used below

ROOT = Path(__file__).resolve().parent.parent
BUILTINS = ("grand", "multihand", "ordinary", "partnership", "polish", "referee")
"""The built-in plugins (``[project.entry-points.bezique]`` of pyproject.toml)."""

VERSION = importlib.metadata.version("bezique")


def listing(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    status, out, err = run(capsys, "plugins", "--json")
    assert (status, err) == (0, "")
    answer = json.loads(out)
    assert answer["format"] == "bezique-plugins/1"
    assert set(answer) == {"format", "plugins", "notes"}
    names = [plugin["name"] for plugin in answer["plugins"]]
    assert names == sorted(names)
    return {plugin["name"]: plugin for plugin in answer["plugins"]}


def pluggy_hooks(plugin: object) -> list[dict[str, str | None]]:
    """The hooks pluggy itself registers for ``plugin``, each kind as its spec says it."""
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    manager.register(plugin)
    found: list[dict[str, str | None]] = []
    for caller in manager.get_hookcallers(plugin) or []:
        assert caller.spec is not None
        word = (caller.spec.function.__doc__ or "").split()[0].rstrip(":").lower()
        kind = hookspecs.DECIDE if caller.spec.opts.get("firstresult") else word
        found.append({"name": caller.name, "kind": kind})
    return sorted(found, key=lambda hook: str(hook["name"]))


def table(out: str) -> list[list[str]]:
    """The cells of ``bezique plugins``'s lines, cut where the header's words start."""
    lines = out.splitlines()
    assert lines[0].split() == ["plugin", "distribution", "version", "variants", "hooks"]
    starts = [lines[0].index(word) for word in lines[0].split()]
    ends = [*starts[1:], None]
    for line in lines:  # every cell but the last ends in two spaces before the next
        assert all(line[end - 2 : end] == "  " for end in starts[1:] if len(line) > end), line
    return [[line[a:b].strip() for a, b in zip(starts, ends, strict=True)] for line in lines]


def cell(kind: str | None, hook: str) -> str:
    return f"{kind or '-':<7}  {hook}"


# --------------------------------------------------------------------------- bezique plugins


def test_plugins_lists_the_built_ins_of_the_bezique_distribution_with_their_hooks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    plugins = listing(capsys)
    assert set(BUILTINS) <= set(plugins)
    for name in BUILTINS:
        plugin = plugins[name]
        assert plugin["distribution"] == "bezique" and plugin["version"] == VERSION, name
        assert (plugin["ok"], plugin["error"], plugin["variants"]) == (True, None, []), name
        assert plugin["hooks"] == pluggy_hooks(registry.known_plugins()[name]), name
    assert plugins["grand"]["hooks"] == [
        {"name": "bezique_after_deal", "kind": "notify"},
        {"name": "bezique_after_trick", "kind": "notify"},
        {"name": "bezique_declaring_roles", "kind": "collect"},
        {"name": "bezique_describe_rules", "kind": "collect"},
        {"name": "bezique_requires", "kind": "collect"},
        {"name": "bezique_sheet_declaration_problem", "kind": "decide"},
    ]
    assert {"name": "bezique_joins", "kind": "collect"} in plugins["referee"]["hooks"]
    assert {"name": "bezique_trick_winner", "kind": "decide"} in plugins["ordinary"]["hooks"]


def test_plugins_text_lines_up_in_columns(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "plugins")
    assert (status, err) == (0, "")
    rows = table(out)
    where = {row[0]: index for index, row in enumerate(rows) if row[0]}
    for name in BUILTINS:
        hooks = pluggy_hooks(registry.known_plugins()[name])
        first, *rest = [cell(hook["kind"], str(hook["name"])) for hook in hooks]
        start = where[name]
        assert rows[start] == [name, "bezique", VERSION, "-", first]
        # the other hooks, one a line, under the first
        assert rows[start + 1 : start + len(hooks)] == [["", "", "", "", hook] for hook in rest]
    assert [row[4] for row in rows[where["grand"] :][:5]] == [
        "notify   bezique_after_deal",
        "notify   bezique_after_trick",
        "collect  bezique_declaring_roles",
        "collect  bezique_describe_rules",
        "collect  bezique_requires",
    ]


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_plugin_is_listed_with_its_error_and_the_rest_still_are(
    kind: str, site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    good, _ = site.plugin("good")
    name, _ = site.plugin(kind)
    plugins = listing(capsys)
    assert set(BUILTINS) | {good, name} <= set(plugins)
    assert plugins[good] == {
        "name": good,
        "distribution": f"dist-{good}",
        "version": "1.0",
        "ok": True,
        "error": None,
        "hooks": [
            {"name": "bezique_trick_winner", "kind": "decide"},
            {"name": "bezique_variant_files", "kind": "collect"},
        ],
        "variants": [f"shipped-{good.split('-')[1]}"],
    }
    broken = plugins[name]
    assert (broken["distribution"], broken["version"], broken["ok"]) == (
        f"dist-{name}",
        "1.0",
        False,
    )
    assert broken["error"] == PROBLEM[kind] or (
        kind == "syntax_error" and broken["error"].startswith(PROBLEM[kind])
    )
    hooks = {
        "misspelt_hook": [{"name": "bezique_trik_winner", "kind": None}],
        "bad_argument": [{"name": "bezique_trick_winner", "kind": "decide"}],
    }
    assert broken["hooks"] == hooks.get(kind, [])  # a module that did not import shows none
    assert broken["variants"] == []

    status, out, err = run(capsys, "plugins")
    assert (status, err) == (0, "")
    rows = table(out)
    start = [row[0] for row in rows].index(name)
    shown = [f"broken: {broken['error']}", *(cell(h["kind"], h["name"]) for h in broken["hooks"])]
    assert rows[start : start + len(shown)] == [
        [name, f"dist-{name}", "1.0", "-", shown[0]],
        *(["", "", "", "", line] for line in shown[1:]),
    ]
    assert [f"shipped-{good.split('-')[1]}", cell("decide", "bezique_trick_winner")] == (
        rows[[row[0] for row in rows].index(good)][3:]
    )


def test_plugins_without_one_distribution_and_the_entry_points_set_aside(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    site.install("first-dist", {"fake_twin_a.py": "\n"}, {"twin": "fake_twin_a"})
    site.install("second-dist", {"fake_twin_b.py": "\n"}, {"twin": "fake_twin_b"})
    site.install("usurper", {"fake_usurper.py": "\n"}, {"ordinary": "fake_usurper"})

    class Lenient:
        @hookimpl
        def bezique_legal_plays(self, cards: list[int]) -> list[int]:
            return cards

    registry.register_plugin("lenient", Lenient())
    plugins = listing(capsys)
    twin = plugins["twin"]
    assert (twin["distribution"], twin["version"], twin["hooks"]) == (None, None, [])
    assert twin["error"] == (
        "two distributions register it: entry point twin = fake_twin_a of distribution "
        "first-dist 1.0, and entry point twin = fake_twin_b of distribution second-dist 1.0"
    )
    lenient = plugins["lenient"]
    assert (lenient["distribution"], lenient["version"], lenient["ok"]) == (None, None, True)
    assert lenient["hooks"] == [{"name": "bezique_legal_plays", "kind": "decide"}]
    assert plugins["ordinary"]["distribution"] == "bezique"

    status, out, err = run(capsys, "plugins", "--json")
    note = (
        "plugin 'ordinary' of entry point ordinary = fake_usurper of distribution usurper 1.0 "
        "is not used: 'ordinary' is the name of a built-in plugin; rename the entry point"
    )
    assert json.loads(out)["notes"] == [note]
    status, out, err = run(capsys, "plugins")
    assert (status, err) == (0, f"bezique: {note}\n")
    assert ["lenient", "-", "-", "-", cell("decide", "bezique_legal_plays")] in table(out)


def test_hook_kinds_come_from_the_game_hooks_and_the_docstrings() -> None:
    assert hook_kind("bezique_trick_winner") == "decide"
    assert hook_kind("bezique_variant_files") == "collect"
    assert hook_kind("bezique_before_play") == "notify"  # "Notify (table hook): ..."
    assert hook_kind("bezique_trik_winner") is None
    assert hook_kind("DECIDE") is None


# --------------------------------------------------------------------------- bezique schema


@pytest.fixture
def builtins_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Only the built-in plugins: any other installed one is blocked for the test."""
    monkeypatch.delenv(registry.BLOCK_ENV, raising=False)
    others = [name for name, plugin in registry.known_plugins().items() if not is_builtin(plugin)]
    broken = [name for name, entry in registry.plugin_entries().items() if entry.problem]
    monkeypatch.setenv(registry.BLOCK_ENV, ",".join([*others, *broken]))
    yield


def test_schema_prints_the_shipped_files_when_only_built_ins_are_installed(
    builtins_only: None, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "schema")
    assert (status, err, out) == (0, "", shipped_schema_text(SCHEMA_FILE))
    status, out, err = run(capsys, "schema", "--overlay")
    assert (status, err, out) == (0, "", shipped_schema_text(OVERLAY_FILE))


TALLIES: dict[str, Any] = {
    "description": "A house plugin's section.",
    "properties": {
        "tallies": {
            "type": "object",
            "additionalProperties": False,
            "required": ["rank"],
            "properties": {"rank": {"$ref": "#/$defs/rank"}},
        }
    },
}


def test_schema_holds_every_installed_plugin_s_sections(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    class Tallies:
        @hookimpl
        def bezique_variant_schema(self) -> dict[str, Any]:
            return TALLIES

    registry.register_plugin("tallies", Tallies())
    status, out, err = run(capsys, "schema")
    assert (status, err) == (0, "")
    full = json.loads(out)
    assert full["properties"]["tallies"] == TALLIES["properties"]["tallies"]
    shipped = json.loads(shipped_schema_text())
    assert {k: v for k, v in full["properties"].items() if k != "tallies"} == shipped["properties"]
    status, out, err = run(capsys, "schema", "--overlay")
    assert (status, err) == (0, "")
    assert json.loads(out)["properties"]["tallies"] == {
        "anyOf": [
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "rank": {"anyOf": [{"$ref": "#/$defs/rank"}, NULL]},
                },
            },
            NULL,
        ]
    }


NULL = {"type": "null", "description": "Deletes the key."}


def shipped_variants() -> list[str]:
    return sorted(p.name for p in files("bezique.variants").iterdir() if p.name.endswith(".yaml"))


def schema_of(data: dict[str, Any]) -> str:
    """The schema a variant file satisfies: the overlay's when it extends another."""
    return OVERLAY_FILE if "extends" in data else SCHEMA_FILE


def validator(name: str) -> Draft202012Validator:
    document = json.loads(shipped_schema_text(name))
    Draft202012Validator.check_schema(document)
    return Draft202012Validator(document)


@pytest.mark.parametrize("name", shipped_variants())
def test_every_shipped_variant_file_validates_against_its_schema(name: str) -> None:
    data = yaml.safe_load(files("bezique.variants").joinpath(name).read_text(encoding="utf-8"))
    errors = [e.message for e in validator(schema_of(data)).iter_errors(data)]
    assert errors == [], name
    if "extends" not in data:  # a complete file written as a house rule is one too
        assert list(validator(OVERLAY_FILE).iter_errors({**data, "extends": "ordinary"})) == []


HOUSE = {
    "name": "club-rules",
    "extends": "ordinary",
    "brisques": {"timing": "end_of_hand"},
    "game": {"target": 1500},
    "carte_blanche": None,  # null deletes an inherited key
    "declarations": {"combinations": {"four_aces": {"distinct_suits": True}}},
}


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (
            {"brisques": {"timeing": "end_of_hand"}},
            ["brisques"],
            "Additional properties are not allowed ('timeing' was unexpected)",
        ),
        ({"tarrget": 1500}, [], "Additional properties are not allowed ('tarrget' was unexpected)"),
        (
            {"declarations": {"combinations": {"four_aces": {"distinct_suit": True}}}},
            ["declarations", "combinations", "four_aces"],
            "Additional properties are not allowed ('distinct_suit' was unexpected)",
        ),
        ({"brisques": {"timing": "later"}}, ["brisques", "timing"], None),
        ({"game": {"target": "1500"}}, ["game", "target"], None),
        ({"extends": None}, [], "'extends' is a required property"),
    ],
)
def test_the_overlay_refuses_a_misspelt_key_or_a_wrong_value(
    change: dict[str, Any], where: list[str], message: str | None
) -> None:
    overlay = validator(OVERLAY_FILE)
    assert list(overlay.iter_errors(HOUSE)) == []
    house = {k: v for k, v in {**HOUSE, **change}.items() if v is not None or k != "extends"}
    error = best_match(overlay.iter_errors(house))
    assert error is not None and list(error.absolute_path) == where
    if message is not None:
        assert error.message == message
    # the full schema refuses the house file as a whole: it is not a complete variant
    assert list(validator(SCHEMA_FILE).iter_errors(HOUSE))


def test_the_overlay_keeps_required_keys_of_list_items_and_drops_the_others() -> None:
    overlay = json.loads(shipped_schema_text(OVERLAY_FILE))
    full = json.loads(shipped_schema_text(SCHEMA_FILE))
    assert overlay["required"] == ["extends"]
    assert overlay["properties"]["extends"] == full["properties"]["extends"]
    assert overlay["$defs"]["combination"] == full["$defs"]["combination"]  # complete, kept
    partial = overlay["$defs"]["combination.overlay"]
    assert not {"required", "oneOf", "dependentRequired", "dependentSchemas"} & set(partial)
    assert partial["additionalProperties"] is False
    assert overlay["properties"]["declarations"] == {
        "description": full["properties"]["declarations"]["description"],
        "anyOf": [
            {**full["properties"]["declarations"], "$ref": "#/$defs/declarations.overlay"},
            NULL,
        ],
    }


# --------------------------------------------------------------------------- modelines

MODELINE = re.compile(r"# yaml-language-server: \$schema=(\S+)\n")


def modeline(text: str) -> str:
    found = MODELINE.match(text)
    assert found, "the first line is a yaml-language-server modeline"
    return found.group(1)


@pytest.mark.parametrize("name", shipped_variants())
def test_the_modeline_resolves_in_a_checkout_and_in_the_installed_package(name: str) -> None:
    installed = files("bezique.variants").joinpath(name)
    text = installed.read_text(encoding="utf-8")
    target = modeline(text)
    wanted = schema_of(yaml.safe_load(text))
    assert target == f"../schemas/{wanted}"
    # in a checkout: variants/ and schemas/ are siblings at the top
    assert (ROOT / "variants" / name).read_text(encoding="utf-8") == text
    assert (ROOT / "variants" / target).resolve() == (ROOT / "schemas" / wanted).resolve()
    assert (ROOT / "schemas" / wanted).is_file()
    # installed: the packages bezique.variants and bezique.schemas as this venv maps them
    here = Path(str(files("bezique.variants")))
    there = Path(str(files("bezique.schemas").joinpath(wanted)))
    assert there.is_file() and (here / target).resolve() == there.resolve()
    # in a wheel each package is the folder of its dotted name
    assert posixpath.normpath(posixpath.join("bezique/variants", target)) == (
        f"bezique/schemas/{wanted}"
    )


@pytest.mark.parametrize("name", shipped_variants())
def test_the_modeline_changes_neither_the_variant_nor_its_digest(name: str, tmp_path: Path) -> None:
    text = files("bezique.variants").joinpath(name).read_text(encoding="utf-8")
    bare = tmp_path / name
    bare.write_text(MODELINE.sub("", text, count=1), encoding="utf-8")
    assert bare.read_text(encoding="utf-8") != text
    shipped, stripped = load_variant(name[: -len(".yaml")]), load_variant(bare)
    assert stripped.data == shipped.data
    assert digest_of(stripped.data) == digest_of(shipped.data)


def test_the_overlay_of_a_definition_that_refers_to_itself() -> None:
    tree = {
        "type": "object",
        "additionalProperties": False,
        "required": ["leaf"],
        "properties": {"leaf": {"type": "integer"}, "more": {"$ref": "#/$defs/tree"}},
    }
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["tree"],
        "properties": {"extends": {"type": "string"}, "tree": {"$ref": "#/$defs/tree"}},
        "$defs": {"tree": tree, "leaf": {"type": "integer"}},
    }
    overlay = overlay_schema(document)
    assert overlay["$defs"]["tree"] == tree
    assert overlay["$defs"]["tree.overlay"]["properties"]["more"] == {
        "anyOf": [{"$ref": "#/$defs/tree.overlay"}, NULL]
    }
    valid = Draft202012Validator(overlay)
    assert list(valid.iter_errors({"extends": "x", "tree": {"more": {"more": None}}})) == []
    assert list(valid.iter_errors({"extends": "x", "tree": {"more": {"leef": 1}}}))

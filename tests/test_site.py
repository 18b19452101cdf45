"""The documentation site: it builds with no warning; its generated pages say what the code does.

The site is ``docs/`` (Sphinx, MyST Markdown, the furo theme).  Its reference pages are
written at each build by :mod:`bezique.commands.reference`; here each is checked against
what it is written from (the parser, the schemas, the rulebook renderer, ``bezique diff``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bezique.commands.arguments import build_parser
from bezique.commands.cli import main
from bezique.commands.reference import (
    bibliography_page,
    command_reference,
    differences_page,
    linked_citations,
    rulebook_page,
    rulebooks_index,
    schema_reference,
    shipped_variants,
)
from bezique.errors import VariantError
from bezique.rules import ruleset
from bezique.variant import load_variant, registry
from bezique.variant.bibliography import anchor, bibliography

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def test_the_command_reference_gives_every_command_and_option() -> None:
    text = command_reference()
    parser = build_parser()
    commands = subparsers(parser)
    assert len(commands) >= 15
    for name, command in commands.items():
        assert f"\n### `bezique {name}`\n" in text, name
        for action in command._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert f"`{option}" in text, (name, option)
        for sub in subparsers(command):
            assert f"\n#### `bezique {name} {sub}`\n" in text, (name, sub)
    # the usage is argparse's own, at a width that does not depend on the terminal
    assert "```text\nbezique plugins [-h] [--json]\n```" in text


@pytest.mark.parametrize("name", ["variant", "record"])
def test_the_format_pages_give_every_property_with_its_description(name: str) -> None:
    schema = json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
    text = schema_reference(schema)
    for key, node in schema["properties"].items():
        line = next(line for line in text.splitlines() if line.startswith(f"- `{key}` ("))
        described = node.get("description") or schema["$defs"].get(key, {}).get("description")
        if described:
            assert " ".join(described.split()) in line, key
    if name == "variant":
        assert "  - `deal.hand_size` (integer, at least 1; required): " in text


def test_every_shipped_variant_has_its_rulebook_page(capsys: pytest.CaptureFixture[str]) -> None:
    names = shipped_variants()
    assert names == sorted(path.stem for path in (ROOT / "variants").glob("*.yaml"))
    for name in ("ordinary", "rubicon"):  # as `bezique rules NAME --format markdown` prints it
        assert main(["rules", name, "--format", "markdown"]) == 0
        assert rulebook_page(name) == capsys.readouterr().out


def test_a_rulebook_page_links_each_citation_to_its_entry() -> None:
    text = "# S0 in a heading\n- A rule. [1]\n[1] S0 and EB9, A02; QS JD are cards, F325-F326.\n"
    assert linked_citations(text) == (
        "# S0 in a heading\n- A rule. [1]\n"
        "[1] {ref}`S0 <src-S0>` and {ref}`EB9 <src-S0>`, {ref}`A02 <reading-A02>`; QS JD are "
        "cards, {ref}`F325 <src-F325>`-{ref}`F326 <src-F326>`.\n"
    )


def test_the_rulebooks_page_lists_every_variant_with_what_it_builds_on() -> None:
    names = shipped_variants()
    page = rulebooks_index(names, "variants")
    rows = [line for line in page.splitlines() if line.startswith("| [")]
    assert [row.split("]")[0][3:] for row in rows] == names
    assert "| [ordinary](variants/ordinary.md) | - | " in page
    assert "| [six-pack](variants/six-pack.md) | rubicon | " in page


def test_the_differences_page_is_what_bezique_diff_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    variants = ["eb1875", "hoyle1909", "cards-encyclopedia", "modern-article"]
    page = differences_page(variants, "The two-hand game's source presets")
    assert main(["diff", *variants]) == 1  # they differ
    printed = capsys.readouterr().out
    assert page.startswith("## The two-hand game's source presets\n")
    assert f"\n```text\n{printed.rstrip()}\n```\n" in page


def test_the_bibliography_page_holds_every_entry_at_its_anchor() -> None:
    page = bibliography_page()
    known = bibliography()
    for code in [*known.sources, *known.readings]:
        assert f"({anchor(code)})=\n### {code}\n" in page, code


@pytest.mark.slow
def test_the_site_builds_with_no_warning(tmp_path: Path) -> None:
    """The documented command, warnings as errors, into a temporary folder."""
    out = tmp_path / "html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            "-d",
            str(tmp_path / "doctrees"),
            str(DOCS),
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr[-5000:]
    hooks = (out / "plugins" / "hooks.html").read_text(encoding="utf-8")
    assert 'id="bezique.hookspecs.bezique_trick_winner"' in hooks
    # a docstring's cross-reference to a class of the public API became a link to it
    assert 'href="../reference/api.html#bezique.hookspecs.RuleProse"' in hooks
    api = (out / "reference" / "api.html").read_text(encoding="utf-8")
    assert 'id="bezique.game.GameState"' in api and 'id="bezique.testing.scenario"' in api
    assert (out / "generated" / "rulebooks" / "index.html").is_file()
    book = out / "generated" / "rulebooks" / "variants" / "eb1875.html"
    assert 'href="../bibliography.html#reading-a02"' in book.read_text(encoding="utf-8")
    for name in shipped_variants():
        assert (out / "generated" / "rulebooks" / "variants" / f"{name}.html").is_file(), name
    commands = (out / "reference" / "commands.html").read_text(encoding="utf-8")
    assert "bezique tournament" in commands
    index = (out / "index.html").read_text(encoding="utf-8")
    for page in ("play/terminal", "plugins/tutorial", "compare/sources", "results/ladder"):
        assert f'href="{page}.html"' in index, page


def template_files() -> dict[str, str]:
    """The minimal plugin's files, as the tutorial shows them: each block under the path
    that begins the paragraph before it (a paragraph beginning `` `PATH`: ``)."""
    text = (DOCS / "plugins" / "tutorial.md").read_text(encoding="utf-8")
    start = text.index("## A minimal plugin, from an empty folder")
    lines = text[start : text.index("\n## ", start + 1)].splitlines()
    files: dict[str, str] = {}
    path: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```"):
            end = lines.index("```", index + 1)
            if path is not None:
                files[path] = "\n".join(lines[index + 1 : end]) + "\n"
            path, index = None, end + 1
            continue
        if line and not lines[index - 1]:  # a paragraph begins
            named = re.match(r"`([\w./-]+)`:", line)
            path = named[1] if named else None
        index += 1
    return files


def test_the_tutorial_template_is_a_plugin_that_plays_its_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tutorial's files written into a folder: its plugin, registered as its entry
    point would register it, offers its variant, which validates and plays, and the
    distribution's own test passes."""
    shown = template_files()
    tree = (DOCS / "plugins" / "tutorial.md").read_text(encoding="utf-8")
    assert sorted(shown) == sorted(
        line.strip() for line in tree.split("bezique-ninebonus/\n", 1)[1].split("```")[0].split()
    )
    folder = tmp_path / "bezique-ninebonus"
    for path, body in shown.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(body, encoding="utf-8")
    entry = re.search(r'^ninebonus = "([\w.]+)"$', shown["pyproject.toml"], re.M)
    assert entry is not None
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    try:
        registry.register_plugin("ninebonus", importlib.import_module(entry[1]))
        assert "nine-bonus" in registry.variant_files()
        assert load_variant("nine-bonus").data["nine_bonus"] == 10
        test_module: dict[str, object] = {"__name__": "test_nine_bonus"}
        test_file = folder / "tests" / "test_nine_bonus.py"
        exec(compile(test_file.read_text(encoding="utf-8"), str(test_file), "exec"), test_module)
        tests = [value for key, value in test_module.items() if key.startswith("test_")]
        assert len(tests) == 1
        for test in tests:
            assert callable(test)
            test()
        # the schema fragment refuses a wrong value at its place
        bad = tmp_path / "bad.yaml"
        bad.write_text("name: bad\nextends: nine-bonus\nsummary: Bad.\nnine_bonus: ten\n", "utf-8")
        with pytest.raises(VariantError) as info:
            load_variant(bad)
        assert any(f"{bad}:4:13: nine_bonus" in problem for problem in info.value.problems)
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] == "bezique_ninebonus"]:
            del sys.modules[name]

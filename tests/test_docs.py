"""The documentation says what the code does: hooks, README examples, schema descriptions."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from bezique import hookspecs
from bezique.errors import VariantError
from bezique.game import new_game
from bezique.variant import load_variant

README = Path(__file__).resolve().parent.parent / "README.md"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def hook_names() -> list[str]:
    return [name for name, _ in inspect.getmembers(hookspecs) if name.startswith("bezique_")]


def test_every_hook_is_prefixed_documented_and_listed_in_the_readme() -> None:
    names = hook_names()
    assert len(names) >= 10
    text = readme()
    for name in names:
        function = getattr(hookspecs, name)
        assert function.__doc__ and len(function.__doc__.split()) >= 8, name
        assert f"`{name}(" in text, f"{name} is missing from the README's hook table"


def test_every_game_hook_is_firstresult() -> None:
    for name in hookspecs.GAME_HOOKS:
        options = getattr(hookspecs, name).bezique_spec
        assert options["firstresult"], name


def house_rule_text() -> str:
    match = re.search(r"```yaml\n(.*?)```", readme(), re.S)
    assert match, "the README shows a house-rule file"
    return match.group(1)


def test_readme_house_rule_loads_and_changes_the_game(tmp_path: Path) -> None:
    path = tmp_path / "club-rules.yaml"
    path.write_text(house_rule_text(), encoding="utf-8")
    variant = load_variant(path)
    assert variant.data["brisques"]["timing"] == "end_of_hand"
    assert variant.data["last_trick"]["which"] == "final"
    assert variant.data["game"]["target"] == 1500
    assert new_game(path, seed=1).rules.target == 1500


def test_readme_misspelt_key_message_is_the_real_one(tmp_path: Path) -> None:
    path = tmp_path / "club-rules.yaml"
    path.write_text(house_rule_text().replace("timing:", "timeing:"), encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    shown = re.search(r"\(`club-rules\.yaml(:\d+:\d+: [^`]*?) \.\.\.`\)", readme())
    assert shown, "the README quotes the message"
    assert any(p.startswith(f"{path}{shown.group(1)}") for p in info.value.problems), (
        info.value.problems
    )


def test_readme_notation_examples_parse_in_a_game() -> None:
    actions = re.findall(r"^\| `((?:play|declare|announce|exchange|show) [^`]*)`", readme(), re.M)
    assert len(actions) >= 6
    game = new_game("ordinary", seed=1)
    for text in actions:
        words = text.split()
        assert words[0] in {"play", "declare", "announce", "exchange", "show"}
        # every card token reads as a card of the pack
        for token in words[2 if words[0] in {"declare", "announce"} else 1 :]:
            game.deck.parse_face(token.partition("*")[0].partition("@")[0])


ROOT = README.parent


def test_the_licence_pyproject_names_is_there_and_ships() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the bezique authors\n")
    assert "THE SOFTWARE IS PROVIDED \"AS IS\"" in text
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    # PEP 639: the SPDX expression and the file that goes into every wheel and sdist
    assert re.search(r'^license = "MIT"$', pyproject, re.M)
    assert re.search(r'^license-files = \["LICENSE"\]$', pyproject, re.M)

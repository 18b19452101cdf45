"""The documentation says what the code does: hooks, README examples, schema descriptions."""

from __future__ import annotations

import inspect
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from bezique import hookspecs
from bezique.commands.cli import main
from bezique.errors import VariantError
from bezique.game import GameState, new_game
from bezique.rules import ruleset
from bezique.sheet import Sheet
from bezique.variant import load_variant, registry

README = Path(__file__).resolve().parent.parent / "README.md"
ROOT = README.parent


def readme() -> str:
    return README.read_text(encoding="utf-8")


def hook_names() -> list[str]:
    return [name for name, _ in inspect.getmembers(hookspecs) if name.startswith("bezique_")]


def hook_kind(name: str) -> str:
    """The kind a hook's docstring names first ("Decide (table hook): ...")."""
    return str(getattr(hookspecs, name).__doc__).split(":", 1)[0].split()[0].lower()


def readme_hooks() -> dict[str, tuple[list[str], str]]:
    """The rows of the README's hook tables: each hook's arguments and kind, by name.

    A row is ``| `bezique_NAME(arg, arg)` | kind | ...``, in the section "## Hooks".
    """
    text = readme()
    section = text[text.index("\n## Hooks\n") :]
    section = section[: section.index("\n## ", 1)]
    rows: dict[str, tuple[list[str], str]] = {}
    for name, args, kind in re.findall(r"^\| `(\w+)\(([^`)]*)\)` \| (\w+) \|", section, re.M):
        assert name not in rows, f"the README's hook tables give {name} twice"
        rows[name] = ([arg.strip() for arg in args.split(",") if arg.strip()], kind)
    return rows


def test_every_hook_is_prefixed_and_documented() -> None:
    names = hook_names()
    assert len(names) >= 10
    for name in names:
        function = getattr(hookspecs, name)
        assert function.__doc__ and len(function.__doc__.split()) >= 8, name


def test_every_hook_says_its_kind_in_its_docstring() -> None:
    for name in hook_names():
        function = getattr(hookspecs, name)
        kind = hook_kind(name)
        assert kind in (hookspecs.DECIDE, hookspecs.COLLECT, hookspecs.NOTIFY), name
        assert function.bezique_spec.get("firstresult", False) == (kind == hookspecs.DECIDE), name
        assert hookspecs.GAME_HOOKS.get(name, kind) == kind, name


def test_every_hook_is_documented_in_the_readme_with_its_kind_and_arguments() -> None:
    """As datasette's test_plugin_hooks_are_documented: the README's tables against the specs."""
    rows = readme_hooks()
    for name in hook_names():
        assert name in rows, f"hook {name} is missing from the README's hook tables"
        args, kind = rows[name]
        spec = list(inspect.signature(getattr(hookspecs, name)).parameters)
        assert args == spec, (
            f"the README documents {name}({', '.join(args)}); the hook takes ({', '.join(spec)})"
        )
        assert kind == hook_kind(name), f"the README gives {name} the kind {kind}, not its own"
    stale = sorted(set(rows) - set(hook_names()))
    assert not stale, f"the README documents hooks that do not exist: {', '.join(stale)}"


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


def test_the_licence_pyproject_names_is_there_and_ships() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the bezique authors\n")
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    # PEP 639: the SPDX expression and the file that goes into every wheel and sdist
    assert re.search(r'^license = "MIT"$', pyproject, re.M)
    assert re.search(r'^license-files = \["LICENSE"\]$', pyproject, re.M)


# --------------------------------------------------------------------------- README examples
#
# Every ```python, ```sh and ```json block of the README is run as it is shown, unless
# the line just before it says why not: <!-- not run by tests/test_docs.py: REASON -->.

RUN_LANGUAGES = ("python", "sh", "json")
NOT_RUN = re.compile(r"<!-- not run by tests/test_docs\.py: (.+?) -->")


class Example(NamedTuple):
    """One fenced block of the README: its language, first line (1-based) and text."""

    language: str
    line: int
    text: str
    not_run: str | None  # the reason given, when the README says it is not run


def examples(language: str | None = None) -> list[Example]:
    lines = readme().splitlines()
    found: list[Example] = []
    index = 0
    while index < len(lines):
        fence = re.fullmatch(r"```(\w*)", lines[index])
        if not fence:
            index += 1
            continue
        end = lines.index("```", index + 1)
        marker = NOT_RUN.fullmatch(lines[index - 1]) if index else None
        found.append(
            Example(
                fence.group(1),
                index + 2,
                "\n".join(lines[index + 1 : end]) + "\n",
                marker.group(1) if marker else None,
            )
        )
        index = end + 1
    return [e for e in found if language is None or e.language == language]


def runnable(language: str) -> list[Example]:
    return [e for e in examples(language) if e.not_run is None]


def quick_unless_searching(examples: list[Example]) -> list[Any]:
    """The examples as cases; one that plays a game with the search bot is left to the full run."""
    return [pytest.param(e, marks=pytest.mark.slow) if "search:" in e.text else e for e in examples]


def test_every_runnable_example_is_run_here() -> None:
    languages = {e.language for e in examples()}
    # a shell block is tagged sh, so the test below finds it
    assert not languages & {"bash", "shell", "console", "shell-session", "py", "python3"}
    blocks = [e for e in examples() if e.language in RUN_LANGUAGES]
    # the quick start, the API, the record at least
    assert all(runnable(language) for language in RUN_LANGUAGES)
    # a block left out says why
    assert all(e.not_run is None or len(e.not_run.split()) >= 4 for e in blocks)
    assert len([e for e in blocks if e.not_run is None]) >= 3


@pytest.mark.parametrize(
    "example", quick_unless_searching(runnable("python")), ids=lambda e: f"README.md:{e.line}"
)
def test_readme_python_example_runs(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # An example may register a plugin: it is forgotten after the example.
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    code = compile(example.text, f"README.md:{example.line}", "exec")
    namespace: dict[str, object] = {"__name__": "readme_example"}
    exec(code, namespace)
    if "sheet" in namespace:  # the score sheet's example: the totals its comment says
        sheet = namespace["sheet"]
        assert isinstance(sheet, Sheet)
        said = re.search(r"print\(sheet\.tally\(\)\.scores\)  # (\[.*\])", example.text)
        assert said is not None and str(sheet.tally().scores) == said[1]
        return
    game = namespace["game"]
    assert isinstance(game, GameState)
    if 'apply("declare bezique QS JD")' in example.text:  # the bezique scores 40 (S0)
        assert game.scores == [40, 0]


@pytest.mark.parametrize("example", runnable("json"), ids=lambda e: f"README.md:{e.line}")
def test_readme_json_record_replays(
    example: Example, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(example.text)
    assert str(data["format"]).startswith("bezique-record/"), "a README json block is a record"
    path = tmp_path / "game.json"
    path.write_text(example.text, encoding="utf-8")
    status = main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), err
    result = json.loads(out)
    assert result["actions"] == len(data["actions"])


def source_copy(into: Path) -> Path:
    """Copy the repository as a fresh clone would have it (no caches, builds or venvs)."""
    ignore = shutil.ignore_patterns(
        ".git", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", ".venv", "build", "dist"
    )
    return Path(shutil.copytree(ROOT, into / "bezique", ignore=ignore))


@pytest.mark.slow
@pytest.mark.parametrize("example", runnable("sh"), ids=lambda e: f"README.md:{e.line}")
def test_readme_shell_example_runs_in_a_fresh_clone(example: Example, tmp_path: Path) -> None:
    """Run the block with bash in a copy of the repository, python3 being this interpreter."""
    clone = source_copy(tmp_path)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"):
        env.pop(name, None)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", example.text],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    venv_python = clone / ".venv" / "bin" / "python"
    shown = subprocess.run(
        [str(venv_python), "-c", SHIPPED_LICENCE],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (shown.returncode, shown.stdout) == (0, "MIT\n"), shown.stderr
    # each simulation the block runs printed its heading
    simulations = SIMULATES.findall(example.text)
    assert len(simulations) == example.text.count("bezique simulate")
    for variant, games, seed in simulations:
        assert f"variant {variant}: {games} games, seed {seed}" in done.stdout


SIMULATES = re.compile(r"bezique simulate --variant (\S+) --games (\d+) --seed (\d+)")


SHIPPED_LICENCE = """
import importlib.metadata as m
d = m.distribution("bezique")
assert any(str(f).endswith("licenses/LICENSE") for f in d.files or []), d.files
assert (d.locate_file(next(f for f in d.files or [] if str(f).endswith("licenses/LICENSE")))
        .read_text(encoding="utf-8").startswith("MIT License"))
print(d.metadata["License-Expression"])
"""

"""The documentation says what the code does: hooks, the examples of the README and the site."""

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
from bezique.commands.reference import hook_reference, hooks_in_order
from bezique.errors import VariantError
from bezique.game import GameState, new_game
from bezique.rules import ruleset
from bezique.sheet import Sheet
from bezique.variant import load_variant, registry

README = Path(__file__).resolve().parent.parent / "README.md"
ROOT = README.parent
DOCS = ROOT / "docs"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def page(name: str) -> str:
    """A page of the site, by its path under docs/."""
    return (DOCS / name).read_text(encoding="utf-8")


def documents() -> list[Path]:
    """The README and every Markdown page of the site (not what a build writes)."""
    pages = [
        path
        for path in sorted(DOCS.rglob("*.md"))
        if not {"_build", "generated"} & set(path.relative_to(DOCS).parts)
    ]
    return [README, *pages]


def hook_names() -> list[str]:
    return [name for name, _ in inspect.getmembers(hookspecs) if name.startswith("bezique_")]


def hook_kind(name: str) -> str:
    """The kind a hook's docstring names first ("Decide (table hook): ...")."""
    return str(getattr(hookspecs, name).__doc__).split(":", 1)[0].split()[0].lower()


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


def test_the_hook_reference_gives_every_hook_with_its_kind_and_arguments() -> None:
    """The site's hook reference is written from the specs: each hook once, in their order."""
    text = hook_reference()
    names = hook_names()
    assert sorted(hooks_in_order()) == sorted(names)
    for name in names:
        spec = ", ".join(inspect.signature(getattr(hookspecs, name)).parameters)
        assert text.count(f".. py:function:: {name}({spec})\n") == 1, name
        arguments = ", ".join(
            f"`{a}`" for a in inspect.signature(getattr(hookspecs, name)).parameters
        )
        row = f"| {{py:func}}`{name} <bezique.hookspecs.{name}>` | {hook_kind(name)} | "
        assert f"{row}{arguments or '-'} |" in text, name
        first = str(getattr(hookspecs, name).__doc__).strip().splitlines()[0]
        assert f"   {first}" in text, name
    assert "{include} ../generated/hooks.md" in page("plugins/hooks.md")


def house_rule_text() -> str:
    match = re.search(r"```yaml\n(.*?)```", page("play/house-rules.md"), re.S)
    assert match, "the house rules' page shows a house-rule file"
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
    shown = re.search(
        r"\(`club-rules\.yaml(:\d+:\d+: [^`]*?) \.\.\.`\)", page("play/house-rules.md")
    )
    assert shown, "the house rules' page quotes the message"
    assert any(p.startswith(f"{path}{shown.group(1)}") for p in info.value.problems), (
        info.value.problems
    )


def test_the_notation_examples_parse_in_a_game() -> None:
    text = page("reference/notation.md")
    actions = re.findall(r"^\| `((?:play|declare|announce|exchange|show) [^`]*)`", text, re.M)
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


# --------------------------------------------------------------------------- examples
#
# Every ```python, ```sh, ```json and ```console block of the README and of the site's
# pages is run as it is shown, unless the line just before it says why not:
# <!-- not run by tests/test_docs.py: REASON -->.  A page's console blocks run in order
# in one folder, as a reader types them one after the other; a block of another kind
# whose line before is <!-- file: NAME --> is written there as NAME first (a house-rule
# file the commands name, say).

RUN_LANGUAGES = ("python", "sh", "json", "console")
NOT_RUN = re.compile(r"<!-- not run by tests/test_docs\.py: (.+?) -->")
SAVED_AS = re.compile(r"<!-- file: ([\w.-]+) -->")


class Example(NamedTuple):
    """One fenced block of a document: its file, language, first line (1-based) and text."""

    where: str
    language: str
    line: int
    text: str
    not_run: str | None  # the reason given, when the document says it is not run
    saved_as: str | None = None  # the file name it is saved as, when the document says so

    def __str__(self) -> str:
        return f"{self.where}:{self.line}"


def examples_of(path: Path) -> list[Example]:
    """The fenced blocks of one Markdown file (fences of backticks at the margin; a MyST
    directive's block, such as ```{include}, is one with the directive as its language)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    where = path.relative_to(ROOT).as_posix()
    found: list[Example] = []
    index = 0
    while index < len(lines):
        fence = re.fullmatch(r"(`{3,})(\{[\w:-]+\}|[\w-]*).*", lines[index])
        if not fence:
            index += 1
            continue
        end = lines.index(fence.group(1), index + 1)
        marker = NOT_RUN.fullmatch(lines[index - 1]) if index else None
        saved = SAVED_AS.fullmatch(lines[index - 1]) if index else None
        found.append(
            Example(
                where,
                fence.group(2),
                index + 2,
                "\n".join(lines[index + 1 : end]) + "\n",
                marker.group(1) if marker else None,
                saved.group(1) if saved else None,
            )
        )
        index = end + 1
    return found


def examples(language: str | None = None) -> list[Example]:
    found = [example for path in documents() for example in examples_of(path)]
    return [e for e in found if language is None or e.language == language]


def runnable(language: str) -> list[Example]:
    return [e for e in examples(language) if e.not_run is None]


def quick_unless_searching(examples: list[Example]) -> list[Any]:
    """The examples as cases; one that plays a game with the search bot is left to the full run."""
    return [pytest.param(e, marks=pytest.mark.slow) if "search:" in e.text else e for e in examples]


def test_every_runnable_example_is_run_here() -> None:
    languages = {e.language for e in examples()}
    # a shell block is tagged sh (a script) or console ($ commands), so a test below finds it
    assert not languages & {"bash", "shell", "shell-session", "py", "python3"}
    blocks = [e for e in examples() if e.language in RUN_LANGUAGES]
    # the quick start, the API, the record at least
    assert all(runnable(language) for language in ("python", "sh", "json"))
    # a block left out says why
    assert all(e.not_run is None or len(e.not_run.split()) >= 4 for e in blocks)
    assert len([e for e in blocks if e.not_run is None]) >= 3
    # the README's own are run too
    assert [e for e in runnable("python") if e.where == "README.md"]
    assert [e for e in runnable("sh") if e.where == "README.md"]


def test_every_page_the_readme_links_to_is_there() -> None:
    """Every page the README links to is there (GitHub shows them as they are)."""
    links = re.findall(r"\]\((docs/[^)#]+\.md)(?:#[^)]*)?\)", readme())
    assert len(links) >= 10
    missing = sorted({link for link in links if not (ROOT / link).is_file()})
    assert not missing, missing


@pytest.mark.parametrize("example", quick_unless_searching(runnable("python")), ids=str)
def test_python_example_runs(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # An example may register a plugin: it is forgotten after the example.
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    code = compile(example.text, str(example), "exec")
    namespace: dict[str, object] = {"__name__": "docs_example"}
    exec(code, namespace)
    if "sheet" in namespace:  # the score sheet's example: the totals its comment says
        sheet = namespace["sheet"]
        assert isinstance(sheet, Sheet)
        said = re.search(r"print\(sheet\.tally\(\)\.scores\)  # (\[.*\])", example.text)
        assert said is not None and str(sheet.tally().scores) == said[1]
        return
    if "game" in namespace:
        assert isinstance(namespace["game"], GameState)
    if 'apply("declare bezique QS JD")' in example.text:  # the bezique scores 40 (S0)
        assert isinstance(namespace["game"], GameState) and namespace["game"].scores == [40, 0]


@pytest.mark.parametrize("example", runnable("json"), ids=str)
def test_json_record_replays(
    example: Example, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(example.text)
    assert str(data["format"]).startswith("bezique-record/"), "a json block is a record"
    path = tmp_path / "game.json"
    path.write_text(example.text, encoding="utf-8")
    status = main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), err
    result = json.loads(out)
    assert result["actions"] == len(data["actions"])


def transcript(example: Example) -> list[tuple[str, list[str]]]:
    """A console block's commands (the lines after ``$ ``), each with the lines it shows."""
    found: list[tuple[str, list[str]]] = []
    for line in example.text.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        else:
            assert found, f"{example}: a console block begins with a $ command"
            found[-1][1].append(line)
    return found


def console_pages() -> list[str]:
    """The documents with a console block to run."""
    return sorted({e.where for e in runnable("console")})


@pytest.mark.parametrize("where", console_pages())
def test_console_examples_run_and_print_what_they_show(where: str, tmp_path: Path) -> None:
    """A page's console blocks, in order, in one temporary folder (its files saved there
    first): each ``$`` command run by bash, this interpreter's bezique first on the path.
    A command succeeds, or fails with status 1 where the page shows its ``bezique: ...``
    error line; every line shown under it is in its output, in order (a line ``...``
    stands for lines left out)."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["COLUMNS"] = "88"
    for example in examples_of(ROOT / where):
        if example.saved_as is not None:
            (tmp_path / example.saved_as).write_text(example.text, encoding="utf-8")
        if example.language == "console" and example.not_run is None:
            run_transcript(example, tmp_path, env)


def run_transcript(example: Example, folder: Path, env: dict[str, str]) -> None:
    """Run one console block's commands in ``folder``; check what each prints."""
    for command, shown in transcript(example):
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", command],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        refused = any(line.startswith("bezique: ") for line in shown)
        output = done.stdout[-2000:] + done.stderr[-2000:]
        assert done.returncode == (1 if refused else 0), (str(example), command, output)
        printed = (done.stdout + done.stderr).splitlines()
        at = 0
        for line in (line for line in shown if line.strip() not in ("", "...")):
            assert line in printed[at:], (str(example), command, line, printed)
            at = printed.index(line, at) + 1


def source_copy(into: Path) -> Path:
    """Copy the repository as a fresh clone would have it (no caches, builds or venvs)."""
    ignore = shutil.ignore_patterns(
        ".git",
        "*.egg-info",
        "__pycache__",
        ".*_cache",
        ".hypothesis",
        ".venv",
        "build",
        "_build",
        "dist",
    )
    return Path(shutil.copytree(ROOT, into / "bezique", ignore=ignore))


@pytest.mark.slow
@pytest.mark.parametrize("example", runnable("sh"), ids=str)
def test_shell_example_runs_in_a_fresh_clone(example: Example, tmp_path: Path) -> None:
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

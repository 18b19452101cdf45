"""The third-party path: eight-pack bezique, a distribution of its own under tests/thirdparty/.

The development install (the README's quick start, ``.ci/run``) installs it beside
bezique; its own tests, in its folder, hold its rules.  Here: that it is installed and
found as any outside plugin is, that it uses only what the documentation lists (its import
contract is checked by ``.ci/imports``; its tests are checked here), and that the
tutorial's walkthrough (docs/plugins/tutorial.md) shows its files as they are.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest

from bezique.variant import load_variant, registry

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "tests" / "thirdparty" / "bezique-eightpack"
PACKAGE = DIST / "bezique_eightpack"
INSTALL = "pip install -e tests/thirdparty/bezique-eightpack (the README's development install)"


def test_the_distribution_is_installed_with_its_entry_point() -> None:
    try:
        dist = distribution("bezique-eightpack")
    except PackageNotFoundError:
        pytest.fail(f"the eight-pack distribution is not installed: {INSTALL}")
    assert dist.requires == ["bezique"]
    [point] = [p for p in dist.entry_points if p.group == "bezique"]
    assert (point.name, point.value) == ("eightpack", "bezique_eightpack.plugin")
    assert "eightpack" in registry.known_plugins()
    assert registry.plugin_problems() == []


def test_its_variant_is_the_file_its_plugin_ships() -> None:
    shipped = registry.variant_files()["eight-pack"]
    assert shipped.read_text(encoding="utf-8") == (PACKAGE / "eight-pack.yaml").read_text("utf-8")
    variant = load_variant("eight-pack")
    assert variant.data["name"] == "eight-pack"
    assert variant.plugins == ("ordinary", "grand", "rubicon")  # six-pack's: none of its own


PUBLIC = {"bezique.game", "bezique.testing"}
"""What the distribution's tests may import from bezique: the game and the test kit."""


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_its_tests_use_only_the_game_and_the_test_kit() -> None:
    modules = sorted(DIST.glob("tests/test_*.py"))
    assert modules
    for path in modules:
        used = {m for m in imported_modules(path) if m.split(".")[0] == "bezique"}
        assert used and used <= PUBLIC, (path.name, used - PUBLIC)


def readme_block(language: str, after: str) -> str:
    text = (ROOT / "docs" / "plugins" / "tutorial.md").read_text(encoding="utf-8")
    start = text.index("## From an empty folder: eight-pack bezique")
    found = re.compile(rf"{re.escape(after)}.*?```{language}\n(.*?)```", re.S).search(text, start)
    assert found, f"no {language} block after {after!r} in the tutorial's walkthrough"
    return found.group(1)


def generated(part: str) -> bool:
    """A file or folder that installing or testing makes (caches, builds, egg-info)."""
    return part.startswith(".") or part.endswith(".egg-info") or part in GENERATED


GENERATED = {"__pycache__", "build", "dist"}


def test_the_readme_walkthrough_shows_the_files_as_they_are() -> None:
    assert readme_block("toml", "`pyproject.toml` depends") == (DIST / "pyproject.toml").read_text(
        "utf-8"
    )
    assert readme_block("python", "The plugin offers") == (PACKAGE / "plugin.py").read_text("utf-8")
    excerpt = readme_block("yaml", "The variant file")
    assert excerpt.startswith("name: eight-pack\nextends: six-pack\n")
    assert excerpt in (PACKAGE / "eight-pack.yaml").read_text("utf-8")
    tree = readme_block("", "The folder holds")
    listed = {line.split()[0] for line in tree.splitlines()[1:]}
    shipped = {
        str(path.relative_to(DIST))
        for path in DIST.rglob("*")
        if path.is_file() and not any(map(generated, path.relative_to(DIST).parts))
    }
    assert listed == shipped


INSTALL_LINE = (
    "python3 -m venv .venv && "
    ".venv/bin/pip install -q -e . -e tests/thirdparty/bezique-eightpack pytest"
)
"""The walkthrough's install: bezique and the distribution, as the README's development
install and ``.ci/run`` install them (``.ci/run`` also runs the suite collecting its tests)."""


@pytest.mark.slow
def test_the_readme_walkthrough_commands_run() -> None:
    """The walkthrough's commands after the install, with the installed bezique-eightpack.

    Its last line runs the distribution's tests in its folder; this suite runs those
    tests itself, so here that line only collects them (with the folder's own config).
    """
    install, *commands, last = readme_block("sh", "Install it beside bezique").splitlines()
    assert install == INSTALL_LINE
    assert "-e tests/thirdparty/bezique-eightpack" in (ROOT / ".ci" / "run").read_text("utf-8")
    assert last.startswith("cd tests/thirdparty/bezique-eightpack && ") and last.endswith(
        " -m pytest -q -p no:cacheprovider"
    )
    here = f"{Path(sys.executable).parent}/"
    lines = [*commands, f"{last} --collect-only"]
    script = "\n".join(re.sub(r"(\.\./)*\.venv/bin/", here, line) for line in lines)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout.splitlines()
    assert out[0].split()[0] == "eight-pack"
    assert out[1].split() == [
        "eightpack",
        "bezique-eightpack",
        "0.1.0",
        "eight-pack",
        "collect",
        "bezique_variant_files",
    ]
    assert out[2:4] == [
        "eight-pack: ok",
        "tests/thirdparty/bezique-eightpack/bezique_eightpack/eight-pack.yaml: ok",
    ]
    assert out[4] == "variant eight-pack: 2 games, seed 1"
    collected = [line for line in out if line.startswith("tests/test_eight_pack_bezique.py::")]
    source = (DIST / "tests" / "test_eight_pack_bezique.py").read_text("utf-8")
    tests = re.findall(r"^def (test_\w+)", source, re.M)
    assert {line.split("::")[1].split("[")[0] for line in collected} == set(tests)

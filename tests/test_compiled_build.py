"""The optional compiled build (setup.py, ``BEZIQUE_COMPILE=1``): what the plain suite can check.

The compiled wheel itself is built and played by ``.ci/compiled-check`` (the golden
playthroughs against it); here: setup.py's list of modules names real modules of the
package, none of the public face or of what plugins subclass, and ``bezique.COMPILED``
says which build is installed.
"""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
from pathlib import Path

import pytest
from clirun import run

import bezique

ROOT = Path(__file__).resolve().parent.parent


def compiled_modules() -> tuple[str, ...]:
    """setup.py's COMPILED_MODULES, read from its source (running it would call setup())."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and getattr(node.targets[0], "id", "") == "COMPILED_MODULES"
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return value
    raise AssertionError("setup.py has no COMPILED_MODULES")


def test_the_compiled_modules_are_modules_of_the_kernel_with_a_source_in_core() -> None:
    names = compiled_modules()
    assert len(names) == len(set(names)) >= 10
    for name in names:
        assert name.startswith("bezique.") and not name.startswith("bezique.plugins")
        assert (ROOT / "core" / (name.removeprefix("bezique.").replace(".", "/") + ".py")).is_file()


@pytest.mark.parametrize("name", compiled_modules())
def test_every_compiled_module_imports(name: str) -> None:
    assert importlib.import_module(name).__name__ == name


def test_the_public_face_and_what_plugins_subclass_stay_interpreted() -> None:
    names = set(compiled_modules())
    assert not names & {"bezique.game", "bezique.rules.roles", "bezique.rules.answers"}


def test_compiled_says_whether_the_kernel_is_the_compiled_build() -> None:
    # The plain install (the development one, CI's suite): False; the compiled wheel: True.
    state = importlib.import_module("bezique.engine.state")
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert bezique.COMPILED is str(state.__file__).endswith(suffixes)
    assert bezique.COMPILED is not str(state.__file__).endswith(".py")


def test_the_version_says_compiled_in_the_compiled_build(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "--version")
    built = " (compiled)" if bezique.COMPILED else ""
    assert (status, out) == (0, f"bezique {bezique.__version__}{built}\n")

"""The optional compiled build (setup.py, ``BEZIQUE_COMPILE=1``): what the plain suite can check.

The compiled wheel itself is built and played by ``.ci/compiled-check`` (the golden
playthroughs and the bots' choices against it); here: setup.py's list of modules names
real modules of the package, none of the public face, every compiled class that
interpreted code subclasses is marked to allow it, and ``bezique.COMPILED`` says which
build is installed.
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


def source_of(name: str) -> Path:
    """The source file of the package's module ``name`` (``bezique.plugins`` is plugins/)."""
    if name.startswith("bezique.plugins."):
        return ROOT / "plugins" / (name.removeprefix("bezique.plugins.").replace(".", "/") + ".py")
    return ROOT / "core" / (name.removeprefix("bezique.").replace(".", "/") + ".py")


def test_the_compiled_modules_are_modules_of_the_package_with_a_source() -> None:
    names = compiled_modules()
    assert len(names) == len(set(names)) >= 10
    for name in names:
        assert name.startswith("bezique."), name
        assert source_of(name).is_file(), name


def allows_interpreted_subclasses(node: ast.ClassDef) -> bool:
    """Whether the class is marked ``@mypyc_attr(allow_interpreted_subclasses=True)``."""
    return any(
        isinstance(decorator, ast.Call)
        and getattr(decorator.func, "id", "") == "mypyc_attr"
        and any(
            keyword.arg == "allow_interpreted_subclasses"
            and isinstance(keyword.value, ast.Constant)
            and keyword.value.value is True
            for keyword in decorator.keywords
        )
        for decorator in node.decorator_list
    )


def test_every_compiled_class_that_interpreted_code_subclasses_allows_it() -> None:
    # A compiled class refuses interpreted subclasses unless marked: plugins subclass the
    # declaring role and the engine's parts, tests the search player.
    compiled = {source_of(name) for name in compiled_modules()}
    marked: dict[str, bool] = {}
    for path in compiled:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                marked[node.name] = marked.get(node.name, True) and allows_interpreted_subclasses(
                    node
                )
    sources = [
        *ROOT.glob("core/**/*.py"),
        *ROOT.glob("plugins/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
    ]
    unmarked: set[str] = set()
    for path in sources:
        if path in compiled:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    name = getattr(base, "id", getattr(base, "attr", ""))
                    if marked.get(name) is False:
                        unmarked.add(f"{path.relative_to(ROOT)}: {node.name}({name})")
    assert not unmarked, sorted(unmarked)


def test_every_compiled_declaring_role_allows_interpreted_subclasses() -> None:
    # The kernel composes the roles of a variant's plugins into one class at run time
    # (bezique.rules.roles.declaring_role: an interpreted subclass of each), whose
    # overrides a compiled role's own calls must see.
    roles = [
        node
        for path in {source_of(name) for name in compiled_modules()}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name.endswith("Declarations")
    ]
    assert [node.name for node in roles if not allows_interpreted_subclasses(node)] == []
    # Only the root role: an object of a class composed as (an interpreted role, a compiled
    # subclass of the root) is made by the root's allocator, with the root's table of
    # methods, which the compiled subclass's own methods read past (a Polish role compiled
    # so raised a SystemError, a Grand one crashed the process; docs/results/speed.md).
    assert {node.name for node in roles} == {"OrdinaryDeclarations"}


def test_no_compiled_class_calls_super() -> None:
    # mypyc settles the method a super() call reaches when it compiles; in a role the
    # kernel composes at run time (several plugins' roles as one class's bases) that would
    # skip the roles between, where the interpreted call reaches the next in the method
    # order.  So a role that calls super(), as every variant plugin's does, stays
    # interpreted.
    calls = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted({source_of(name) for name in compiled_modules()})
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "super"
    ]
    assert calls == []


@pytest.mark.parametrize("name", compiled_modules())
def test_every_compiled_module_imports(name: str) -> None:
    # ... and in the compiled build is compiled (an extension module, not its source).
    module = importlib.import_module(name)
    assert module.__name__ == name
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert str(module.__file__).endswith(suffixes) is bezique.COMPILED


def test_the_public_face_and_the_answers_checks_stay_interpreted() -> None:
    names = set(compiled_modules())
    public = {"bezique.game", "bezique.players", "bezique.testing", "bezique.hookspecs"}
    assert not names & (public | {"bezique.rules.roles", "bezique.rules.answers"})


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

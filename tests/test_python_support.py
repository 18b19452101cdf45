"""The oldest Python the project promises (3.10) can read and import every module.

``requires-python`` and the README promise Python 3.10.  Nothing here needs a
3.10 interpreter: every source file is parsed with Python 3.10's grammar, and
every import is checked against the standard-library modules and names that
only appeared in 3.11 or later (unless the import sits under an
``if sys.version_info >= (3, N):`` test, or under ``if TYPE_CHECKING:``, which
never runs).  ``.ci/run`` also runs the quick run (``-m "not slow"``, every
module) on a 3.10 interpreter where the machine has one.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    path for folder in ("core", "plugins", "tests") for path in (ROOT / folder).rglob("*.py")
)
LOWEST = (3, 10)

NEWER_MODULES = {
    "tomllib": (3, 11),
    "wsgiref.types": (3, 11),
    "importlib.resources.abc": (3, 11),
}
"""Standard-library modules and the version that added them."""

NEWER_NAMES = {
    ("typing", "Self"): (3, 11),
    ("typing", "LiteralString"): (3, 11),
    ("typing", "Never"): (3, 11),
    ("typing", "assert_never"): (3, 11),
    ("typing", "reveal_type"): (3, 11),
    ("typing", "Required"): (3, 11),
    ("typing", "NotRequired"): (3, 11),
    ("typing", "TypeVarTuple"): (3, 11),
    ("typing", "Unpack"): (3, 11),
    ("typing", "override"): (3, 12),
    ("enum", "StrEnum"): (3, 11),
    ("datetime", "UTC"): (3, 11),
    ("contextlib", "chdir"): (3, 11),
    ("hashlib", "file_digest"): (3, 11),
    ("itertools", "batched"): (3, 12),
}
"""Names added to standard-library modules after 3.10, with the version."""

NEWER_ATTRIBUTES = {"ExceptionGroup", "BaseExceptionGroup", "TaskGroup", "batched", "UTC"}


def _version_guarded(node: ast.If) -> tuple[int, int] | None:
    """The version an ``if sys.version_info >= (3, N):`` test asks for, else None."""
    test = node.test
    if not (isinstance(test, ast.Compare) and isinstance(test.ops[0], ast.GtE)):
        return None
    left = test.left
    if not (isinstance(left, ast.Attribute) and left.attr == "version_info"):
        return None
    right = test.comparators[0]
    if isinstance(right, ast.Tuple):
        parts = [e.value for e in right.elts if isinstance(e, ast.Constant)]
        if len(parts) >= 2 and isinstance(parts[0], int) and isinstance(parts[1], int):
            return parts[0], parts[1]
    return None


def _type_checking_only(node: ast.If) -> bool:
    """Whether ``node`` is ``if TYPE_CHECKING:`` (its body never runs)."""
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, guard: tuple[int, int] = LOWEST) -> Iterator[tuple[ast.stmt, str]]:
    """Yield each import outside a version guard that the guard's version lacks."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking_only(node):
            yield from _imports(ast.Module(body=node.orelse, type_ignores=[]), guard)
            continue
        if isinstance(node, ast.If) and (needed := _version_guarded(node)):
            yield from _imports(ast.Module(body=node.body, type_ignores=[]), needed)
            yield from _imports(ast.Module(body=node.orelse, type_ignores=[]), guard)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if NEWER_MODULES.get(alias.name, LOWEST) > guard:
                    yield node, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if NEWER_MODULES.get(node.module, LOWEST) > guard:
                yield node, node.module
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                added = NEWER_NAMES.get((node.module, alias.name), LOWEST)
                if max(NEWER_MODULES.get(full, LOWEST), added) > guard:
                    yield node, full
        else:
            yield from _imports(node, guard)


def test_there_are_sources_to_check() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in SOURCES}
    assert {"core/game.py", "core/variant/registry.py", "plugins/ordinary/__init__.py"} <= names


def test_every_source_file_parses_with_the_python_3_10_grammar() -> None:
    for path in SOURCES:
        ast.parse(path.read_text(encoding="utf-8"), str(path), feature_version=LOWEST)


def test_no_module_imports_what_python_3_10_lacks() -> None:
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, name in _imports(tree):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert found == []


def test_no_source_uses_builtins_python_3_10_lacks() -> None:
    found = []
    for path in SOURCES:
        if path.name == "test_python_support.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
            if name in NEWER_ATTRIBUTES:
                found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}: {name}")
    assert found == []


def test_the_promise_is_python_3_10() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^requires-python = ">=3\.10"$', pyproject, re.M)
    assert 'target-version = "py310"' in pyproject
    assert "Python 3.10 or newer" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_guard_reader_sees_the_version_tests() -> None:
    tree = ast.parse(
        "import sys\n"
        "if sys.version_info >= (3, 11):\n"
        "    from importlib.resources.abc import Traversable\n"
        "else:\n"
        "    from importlib.abc import Traversable\n"
        "from typing import Self\n"
        "import tomllib\n"
        "if TYPE_CHECKING:\n"
        "    import tomllib\n"
        "else:\n"
        "    from importlib.resources.abc import Traversable\n"
    )
    assert [(node.lineno, name) for node, name in _imports(tree)] == [
        (6, "typing.Self"),
        (7, "tomllib"),
        (11, "importlib.resources.abc"),
    ]

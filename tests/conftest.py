"""The quick run's choice of variants (``pytest -m "not slow"``), and shared fixtures.

A test parametrized over the registered variants (by name, or by file) runs, in the quick
run, only for a few of them: the ordinary game and as few others as name every plugin a
variant uses (:func:`quick_variants`).  Its other cases are marked ``slow``; the full run
keeps them all.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

import pytest

from bezique.rules import ruleset
from bezique.rules.ruleset import ruleset_for
from bezique.variant import registry, variant_summaries

if TYPE_CHECKING:
    from starlette.testclient import TestClient


@cache
def registered_variants() -> frozenset[str]:
    """The names of every registered variant."""
    return frozenset(name for name, _ in variant_summaries())


@cache
def quick_variants() -> frozenset[str]:
    """The ordinary game, then, greedily, the variant naming most plugins not yet named."""
    plugins = {name: set(ruleset_for(name).data["plugins"]) for name in registered_variants()}
    chosen = ["ordinary"]
    named = set(plugins["ordinary"])
    while True:
        best = max(sorted(plugins), key=lambda name: len(plugins[name] - named))
        if not plugins[best] - named:
            return frozenset(chosen)
        chosen.append(best)
        named |= plugins[best]


def variant_named(value: object) -> str | None:
    """The variant a parameter names: a variant's name, or its file's (``ordinary.yaml``)."""
    if isinstance(value, PurePath):
        value = value.name
    if not isinstance(value, str):
        return None
    return value.removesuffix(".yaml")


QUICK_CASES = 1
"""The most cases of one parametrized test the quick run keeps (its first ones)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` what the quick run leaves to the full run (see the module's docstring).

    Of a test written for every variant, the cases of variants not in the quick set; of
    any parametrized test, the cases after its first :data:`QUICK_CASES` kept.
    """
    variants = registered_variants()
    quick = quick_variants()
    kept: dict[tuple[str, str], int] = {}
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None or item.get_closest_marker("slow") is not None:
            continue
        named = {variant_named(value) for value in callspec.params.values()}
        key = (str(item.path), item.originalname)  # type: ignore[attr-defined]
        if (named & variants and not named & quick) or kept.get(key, 0) >= QUICK_CASES:
            item.add_marker(pytest.mark.slow)
        else:
            kept[key] = kept.get(key, 0) + 1


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Plugins a test registers are forgotten after it (and no plugin is blocked during it)."""
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    monkeypatch.delenv(registry.BLOCK_ENV, raising=False)
    yield


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A web store's file in the test's own folder (not made until a store opens it)."""
    return str(tmp_path / "tables.sqlite")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    """The web application on ``db``, in process (Starlette's test client), started and stopped."""
    from starlette.testclient import TestClient

    from bezique.web.app import make_app

    with TestClient(make_app(db, workers=1)) as running:
        yield running

"""The quick run's choice of variants (``pytest -m "not slow"``).

A test parametrized over the registered variants (by name, or by file) runs, in the quick
run, only for a few of them: the ordinary game and as few others as name every plugin a
variant uses (:func:`quick_variants`).  Its other cases are marked ``slow``; the full run
keeps them all.
"""

from __future__ import annotations

from functools import cache
from pathlib import PurePath

import pytest

from bezique.rules.ruleset import ruleset_for
from bezique.variant import variant_summaries


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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` the cases of a per-variant test for a variant not in the quick set."""
    variants = registered_variants()
    quick = quick_variants()
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None:
            continue
        named = {variant_named(value) for value in callspec.params.values()}
        if named & variants and not named & quick:
            item.add_marker(pytest.mark.slow)

"""The quick run (``pytest -m "not slow"``): which cases of a per-variant test it keeps."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

QUICK_VARIANT = "ordinary"
"""The variant whose goldens, random games and perft counts the quick run keeps."""


def quick_for_one(variants: Iterable[str], quick: str = QUICK_VARIANT) -> list[Any]:
    """The variants as parametrize cases, every one but ``quick`` marked slow."""
    return [
        pytest.param(variant, marks=() if variant == quick else pytest.mark.slow)
        for variant in variants
    ]

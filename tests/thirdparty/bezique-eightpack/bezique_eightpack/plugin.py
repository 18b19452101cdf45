"""The plugin: it ships the eight-pack variant file and answers no rule of its own."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from importlib.resources import files

from bezique.hookspecs import hookimpl

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10: the same protocol, before it moved to importlib.resources.abc
    from importlib.abc import Traversable


@hookimpl
def bezique_variant_files() -> Mapping[str, Traversable]:
    """Offer ``eight-pack`` (``bezique variants`` lists it; ``new_game("eight-pack")``)."""
    return {"eight-pack": files("bezique_eightpack") / "eight-pack.yaml"}

"""bezique: play, referee and compare the rules of Bezique and its family.

A generic trick-taking kernel (this package) loads YAML variant definitions
(:mod:`bezique.variant`), and pluggy plugins (:mod:`bezique.plugins`) supply the
variant-specific declaration and scoring logic.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util

__version__ = "0.2.0"


def _compiled() -> bool:
    """Whether the kernel's hot modules are the compiled build's (setup.py, mypyc)."""
    spec = importlib.util.find_spec("bezique.engine.state")
    origin = spec.origin if spec is not None else None
    return bool(origin) and str(origin).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


COMPILED = _compiled()
"""True when the compiled build is installed: the kernel's hot modules compiled by mypyc
(``BEZIQUE_COMPILE=1 pip install .``, see setup.py), False for the plain package."""

MAX_SEED = 2**64 - 1
"""The largest seed a game takes: a seed is a whole number from 0 to this, as records
(``schemas/record.schema.json``) and saved states hold it; the commands' ``--seed`` takes
the same (here, at the package's root, so that the command line reads it without
importing the engine)."""

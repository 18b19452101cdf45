"""bezique: play, referee and compare the rules of Bezique and its family.

A generic trick-taking kernel (this package) loads YAML variant definitions
(:mod:`bezique.variant`), and pluggy plugins (:mod:`bezique.plugins`) supply the
variant-specific declaration and scoring logic.
"""

from __future__ import annotations

__version__ = "0.2.0"

MAX_SEED = 2**64 - 1
"""The largest seed a game takes: a seed is a whole number from 0 to this, as records
(``schemas/record.schema.json``) and saved states hold it; the commands' ``--seed`` takes
the same (here, at the package's root, so that the command line reads it without
importing the engine)."""

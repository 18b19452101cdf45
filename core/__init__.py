"""bezique: play, referee and compare the rules of Bezique and its family.

A generic trick-taking kernel (this package) loads YAML variant definitions
(:mod:`bezique.variant`), and pluggy plugins (:mod:`bezique.plugins`) supply the
variant-specific declaration and scoring logic.
"""

from __future__ import annotations

__version__ = "0.2.0"

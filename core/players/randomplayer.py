"""The ``random`` player: each legal action alike."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bezique.actions import Action
from bezique.engine.views import View
from bezique.players import Options, no_options


class RandomPlayer:
    """Chooses among the legal actions uniformly at random."""

    def __init__(self, name: str = "random") -> None:
        """A random player named ``name``."""
        self.name = name

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal``, each alike."""
        return legal[int(rng.random() * len(legal))]

    def __repr__(self) -> str:
        """``RandomPlayer('random')``."""
        return f"RandomPlayer({self.name!r})"


def factory(spec: str, options: Options) -> RandomPlayer:
    """The ``random`` player (no options)."""
    no_options(spec, options)
    return RandomPlayer(spec)

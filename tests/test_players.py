"""Players by registered name: the built-ins, an outside distribution's bot, bad specs.

* ``player_for`` finds a bot that an installed distribution registers in the
  ``bezique.players`` entry-point group (a fake distribution on ``sys.path``: a
  ``dist-info`` folder with ``entry_points.txt``), passes it its options, and the
  bot plays a whole game through ``decide``; a broken one is refused in words.
* The ``search`` player plays a whole game of every shipped variant (a small budget:
  what is checked is that every phase and question of every variant is searched
  through legal actions only), and seeded bots play the same game twice.
* ``decide`` refuses, naming it, an answer that is not legal.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import bezique.players as players
from bezique.actions import Action
from bezique.errors import PlayerError
from bezique.game import GameState, new_game, ruleset_for
from bezique.players import Player, decide, player_for, player_names
from bezique.variant import variant_summaries

BOT = """
import random

class FirstPlayer:
    def __init__(self, name, last):
        self.name = name
        self.last = last

    def choose(self, view, legal, rng):
        return legal[-1] if self.last else legal[0]


def factory(spec, options):
    return FirstPlayer(spec, options.get("pick") == "last")


not_a_factory = 3
"""


@pytest.fixture
def outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A distribution ``outside-bots`` registering ``first`` and ``broken`` players."""
    (tmp_path / "outsidebots.py").write_text(BOT, encoding="utf-8")
    info = tmp_path / "outside_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: outside-bots\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[bezique.players]\nfirst = outsidebots:factory\nbroken = outsidebots:not_a_factory\n"
        "missing = outsidebots_gone:factory\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(os.fspath(tmp_path))
    players._factory.cache_clear()
    players._entry_point_names.cache_clear()
    yield tmp_path
    players._factory.cache_clear()
    players._entry_point_names.cache_clear()
    sys.modules.pop("outsidebots", None)


def play_out(state: GameState, seats: list[Player], seed: int) -> GameState:
    """Play ``state`` to the game's end, each seat by its player."""
    rngs = [random.Random(seed + seat) for seat in range(state.players)]
    while not state.is_over():
        seat = state.to_act
        state.apply(decide(seats[seat], state, rngs[seat]))
    return state


def test_an_outside_distribution_ships_a_bot(outside: Path) -> None:
    assert {"first", "broken", "random", "heuristic", "search"} <= set(player_names())
    bot = player_for("first:pick=last")
    assert bot.name == "first:pick=last"
    state = new_game("ordinary", seed=3, overrides={"game": {"target": 300}})
    legal = state.legal_actions()
    assert decide(bot, state, random.Random(0)) == legal[-1]
    played = play_out(state, [bot, player_for("first")], 0)
    assert played.is_over()


def test_a_broken_outside_bot_is_refused_in_words(outside: Path) -> None:
    with pytest.raises(
        PlayerError, match=r"player 'broken' \(outsidebots:not_a_factory\) is not a factory"
    ):
        player_for("broken")
    with pytest.raises(PlayerError, match=r"player .missing. .* could not be loaded: No module"):
        player_for("missing")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody", "unknown player 'nobody': the registered players are heuristic, random, search"),
        ("random:x=1", "player 'random:x=1' takes no options"),
        ("random:x", "options are KEY=VALUE, not 'x'"),
        ("search:iterations=1,iterations=2", "option 'iterations' given twice"),
        (":", "no name"),
        ("heuristic:depth=2", "takes no options"),
    ],
)
def test_bad_specs_are_refused_in_words(spec: str, message: str) -> None:
    with pytest.raises(PlayerError, match=message):
        player_for(spec)


class Cheat:
    """Answers with an action that is not legal."""

    name = "cheat"

    def choose(self, view: object, legal: object, rng: random.Random) -> object:
        return new_game("ordinary", seed=1).parse_action("draw")


def test_an_illegal_answer_is_refused_naming_the_bot() -> None:
    state = new_game("ordinary", seed=1)
    with pytest.raises(PlayerError, match="player 'cheat' chose 'draw' for seat 1"):
        decide(Cheat(), state, random.Random(0))  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", [name for name, _ in variant_summaries()])
def test_search_plays_a_whole_game_of_every_variant(variant: str) -> None:
    short = {} if ruleset_for(variant).one_deal else {"game": {"target": 300}}  # one deal: as it is
    state = new_game(variant, seed=5, overrides=short)
    bot = player_for("search:iterations=3,horizon=1")
    played = play_out(state, [bot] * state.players, 1)
    assert played.is_over()


@pytest.mark.slow
def test_seeded_bots_play_the_same_game_twice() -> None:
    def game() -> list[Action]:
        state = new_game("grand", seed=8, overrides={"game": {"target": 600}})
        seats = [player_for("search:iterations=20"), player_for("heuristic")]
        return play_out(state, seats, 4).history

    assert game() == game()

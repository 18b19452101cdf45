"""Players: what decides a seat's actions, from that seat's view only.

A player is any object with ``choose(view, legal, rng) -> Action``: given the
seat's :class:`~bezique.engine.views.View` (what the seat has seen, never the game
state), the legal actions and a random generator of its own, it returns one of
the legal actions.  Players are found by registered name, as plugins are: the
built-ins (``random``, ``heuristic``, ``search``) and any outside distribution's
register a factory in the ``bezique.players`` entry-point group, and
:func:`player_for` makes one from a spec such as ``search:iterations=2000``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from bezique.actions import Action
from bezique.engine.views import View
from bezique.errors import PlayerError

if TYPE_CHECKING:
    from bezique.game import GameState

__all__ = [
    "ENTRY_POINT_GROUP",
    "Options",
    "Player",
    "PlayerFactory",
    "decide",
    "parse_spec",
    "player_for",
    "player_names",
]

ENTRY_POINT_GROUP = "bezique.players"
"""The entry-point group where distributions register player factories by name."""

Options = Mapping[str, str]
"""A player's options as a spec gives them: ``search:iterations=2000`` gives
``{"iterations": "2000"}``."""


@runtime_checkable
class Player(Protocol):
    """Anything that chooses a seat's actions from the seat's view."""

    name: str
    """The spec it was made from (``heuristic``, ``search:iterations=500``)."""

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Return one of ``legal`` for the seat of ``view``, drawing chance from ``rng`` only."""
        ...


PlayerFactory = Callable[[str, Options], Player]
"""What the entry-point group registers: called with the spec and its options, it makes
a player, or raises :class:`~bezique.errors.PlayerError` for an option it does not take."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``NAME[:KEY=VALUE[,KEY=VALUE...]]`` into the name and its options."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip() or not value.strip():
            raise PlayerError(f"player {spec!r}: options are KEY=VALUE, not {item!r}")
        if key.strip() in options:
            raise PlayerError(f"player {spec!r}: option {key.strip()!r} given twice")
        options[key.strip()] = value.strip()
    if not name:
        raise PlayerError(f"player {spec!r}: no name (one of {', '.join(player_names())})")
    return name, options


@cache
def _factory(name: str) -> PlayerFactory:
    """The factory registered under ``name`` (the first distribution to register it).

    Loaded once; an outside distribution's import error is told in words.
    """
    point = next(p for p in entry_points(group=ENTRY_POINT_GROUP) if p.name == name)
    try:
        factory = point.load()
    except Exception as exc:
        raise PlayerError(f"player {name!r} ({point.value}) could not be loaded: {exc}") from exc
    if not callable(factory):
        raise PlayerError(f"player {name!r} ({point.value}) is not a factory")
    return factory  # type: ignore[no-any-return]


def player_names() -> list[str]:
    """The names of the registered players, sorted."""
    return sorted(_entry_point_names())


@lru_cache(maxsize=1)
def _entry_point_names() -> tuple[str, ...]:
    return tuple(dict.fromkeys(point.name for point in entry_points(group=ENTRY_POINT_GROUP)))


def player_for(spec: str) -> Player:
    """Make the player a spec names: ``random``, ``heuristic``, ``search:iterations=2000``...

    Raise :class:`~bezique.errors.PlayerError` naming the registered players for an
    unknown name, and the option for a bad one.
    """
    name, options = parse_spec(spec)
    if name not in _entry_point_names():
        raise PlayerError(
            f"unknown player {name!r}: the registered players are {', '.join(player_names())}"
        )
    player = _factory(name)(spec.strip(), options)
    if not isinstance(player, Player):
        raise PlayerError(f"player {name!r}: its factory made no player (no choose method)")
    return player


def no_options(spec: str, options: Options) -> None:
    """Refuse every option, for a player that takes none."""
    if options:
        raise PlayerError(f"player {spec!r} takes no options (given {', '.join(options)})")


N = TypeVar("N", int, float)
"""An option's number type."""


def int_option(spec: str, options: Options, key: str, low: int, high: int) -> int | None:
    """Read an integer option from ``low`` to ``high``, or None when it is not given."""
    return _number_option(spec, options, key, (low, high), int, "a whole number")


def float_option(spec: str, options: Options, key: str, low: float, high: float) -> float | None:
    """Read a number option from ``low`` to ``high``, or None when it is not given."""
    return _number_option(spec, options, key, (low, high), float, "a number")


def _number_option(
    spec: str, options: Options, key: str, bounds: tuple[N, N], kind: Callable[[str], N], what: str
) -> N | None:
    """Read option ``key`` as ``kind`` within ``bounds``; None when it is not given."""
    text = options.get(key)
    if text is None:
        return None
    try:
        value = kind(text)
    except ValueError:
        raise PlayerError(f"player {spec!r}: {key} must be {what}, not {text!r}") from None
    low, high = bounds
    if not low <= value <= high:  # (nan fails too)
        raise PlayerError(f"player {spec!r}: {key} must be from {low} to {high}, not {value}")
    return value


def unknown_options(spec: str, options: Options, known: Sequence[str]) -> None:
    """Refuse an option the player does not take, naming those it does."""
    for key in options:
        if key not in known:
            raise PlayerError(f"player {spec!r}: no option {key!r} (it takes {', '.join(known)})")


def decide(player: Player, state: GameState, rng: random.Random) -> Action:
    """Ask ``player`` for the action of the seat to act in ``state``, from that seat's view.

    The player sees :meth:`GameState.view` and the legal actions, never the state.
    Raise :class:`~bezique.errors.PlayerError` if it answers with an action that is
    not legal (a bot's defect, named with the action's text).
    """
    legal = state.legal_actions()
    action = player.choose(state.view(state.to_act), tuple(legal), rng)
    if action not in legal:
        shown = state.action_text(action) if isinstance(action, Action) else repr(action)
        raise PlayerError(
            f"player {player.name!r} chose {shown!r} for seat {state.to_act}, "
            "which is not one of the legal actions"
        )
    return action

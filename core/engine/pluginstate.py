"""What plugins keep in a game state: their typed state of a hand and of a turn.

:class:`PluginStates` holds the methods a game state
(:class:`~bezique.engine.state.StateData`) offers plugins to keep and read their
:class:`~bezique.hookstate.PluginState` (for a hand) and what they keep in the
:class:`~bezique.hookstate.TurnState` under way (for one turn); those value types are
:mod:`bezique.hookstate`'s, beside the protocol of the state the hooks see.  The helpers
at the end copy and write them for the state's one table of fields
(:data:`bezique.engine.state.FIELDS`).
"""

from __future__ import annotations

from typing import Any, TypeVar

from mypy_extensions import mypyc_attr

from bezique.hookstate import NO_TURN, PluginState, TurnState

_T = TypeVar("_T")


@mypyc_attr(allow_interpreted_subclasses=True)
class PluginStates:
    """The methods a game state offers plugins to keep their typed states (a mixin)."""

    extra: dict[str, Any]
    """Plugin-owned state: :class:`PluginState` values, or plain JSON data."""
    turn: TurnState
    _legal: list[Any] | None

    def plugin_state(self, key: str, kind: type[_T]) -> _T:
        """Return the :class:`PluginState` of type ``kind`` a plugin keeps under ``key``.

        Raise :class:`KeyError` if there is none this hand, :class:`TypeError` if
        what is kept there is of another type.
        """
        found = self.extra[key]
        if not isinstance(found, kind):
            raise TypeError(f"state.extra[{key!r}] holds a {type(found).__name__}, not {kind}")
        return found

    def set_plugin_state(self, key: str, value: PluginState) -> None:
        """Keep ``value`` as the plugin state under ``key`` (a plugin's own name, say)."""
        self.extra[key] = value
        self._legal = None

    def turn_state(self, key: str, kind: type[_T]) -> _T | None:
        """Return the :class:`PluginState` a plugin keeps under ``key`` for this turn, if any.

        Raise :class:`TypeError` if what is kept there is of another type than ``kind``.
        """
        found = self.turn.plugins.get(key)
        if found is not None and not isinstance(found, kind):
            raise TypeError(f"state.turn.plugins[{key!r}] holds a {type(found).__name__}")
        return found

    def set_turn_state(self, key: str, value: PluginState) -> None:
        """Keep ``value`` under ``key`` for the turn under way only (a new turn starts empty).

        It is saved in the state's ``turn`` mapping (:meth:`PluginState.to_json`'s keys).  Raise
        :class:`ValueError` between turns.
        """
        if self.turn is NO_TURN:
            raise ValueError("no turn is under way: there is no turn to keep a state for")
        self.turn.plugins[key] = value
        self._legal = None

    def drop_plugin_state(self, key: str) -> None:
        """Forget the plugin state under ``key`` (what it kept is over)."""
        del self.extra[key]
        self._legal = None

    def places(self) -> dict[str, list[int]]:
        """Cards plugins keep face up outside hands, tricks and stock, by place (Polish rows)."""
        found: dict[str, list[int]] = {}
        for key, value in self.extra.items():
            if isinstance(value, PluginState):
                found.update(value.places)
            elif key == "places":  # a plugin's plain JSON state, as before typed states
                found.update(value)
        return found

    def extra_cards(self) -> list[int]:
        """Return cards a plugin keeps outside hands, tricks and stock (see :meth:`places`)."""
        return [card for cards in self.places().values() for card in cards]


def json_copy(value: Any) -> Any:
    """Copy plain JSON data (dicts, lists; tuples become lists)."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_copy(v) for v in value]
    return value


def copy_extra(extra: dict[str, Any]) -> dict[str, Any]:
    """Copy ``state.extra``: plugin states by their ``copy``, plain data as JSON."""
    return {
        key: value.copy() if isinstance(value, PluginState) else json_copy(value)
        for key, value in extra.items()
    }


def write_extra(extra: dict[str, Any]) -> dict[str, Any]:
    """Write ``state.extra``: the keys each plugin state writes, plain data as it is.

    The keys are sorted, so the form does not depend on the order the plugins set
    their states up in.
    """
    written: dict[str, Any] = {}
    for key, value in extra.items():
        if isinstance(value, PluginState):
            written.update(value.to_json())
        else:
            written[key] = json_copy(value)
    return dict(sorted(written.items()))


def copy_turn(turn: TurnState) -> TurnState:
    """Copy the turn under way (:data:`NO_TURN`, never changed, is shared)."""
    if turn is NO_TURN:
        return turn
    copy = TurnState()
    copy.plugins = {key: value.copy() for key, value in turn.plugins.items()}
    return copy


def write_turn(turn: TurnState) -> dict[str, Any]:
    """Write the turn: the keys its plugins' states write (``{}`` when they keep nothing)."""
    kept: dict[str, Any] = {}
    for value in turn.plugins.values():
        kept.update(value.to_json())
    return kept

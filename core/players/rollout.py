"""The search's play-out policy for the turn: declare what scores most.

Random play-outs judge a position by how two random players would go on from
it; a random player declares at random, wasting what he holds (a greedy
declarer alone scores about 40% more declaration points a hand).  The cards are
still played at random (rules of thumb for them, tried, made the search no
stronger against the ``heuristic`` player and cost time).  The policy is kept
once per ruleset.
"""

from __future__ import annotations

from collections.abc import Callable

from bezique.actions import END_TURN, Action, Kind
from bezique.players.cardvalues import tables_of
from bezique.rules.ruleset import Ruleset

__all__ = ["TurnPolicy", "greedy_turns"]

TurnPolicy = Callable[[list[Action], Callable[[], float]], Action]
"""Chooses a turn action from the legal ones (and the generator's ``random``)."""

_KEY = ("search", "greedy turns")


def greedy_turns(rules: Ruleset) -> TurnPolicy:
    """The turn policy: the action that scores most by the variant's table.

    A declaration or an announcement is worth its combination's points, the seven
    of trumps what exchanging or showing it scores; with nothing worth a point the
    turn ends (or, where it cannot, a legal action is drawn at random).
    """
    found = rules.tables.get(_KEY)
    if found is None:
        found = rules.tables[_KEY] = _greedy(rules)
    return found


def _greedy(rules: Ruleset) -> TurnPolicy:
    points = tables_of(rules).points
    seven = rules.data.get("seven_of_trumps", {})
    kind_points = {
        Kind.EXCHANGE: int(seven.get("exchange_points", 0)),
        Kind.SHOW: int(seven.get("declare_points", 0)),
    }
    declaring = (Kind.DECLARE, Kind.ANNOUNCE)

    def worth(action: Action) -> int:
        if action.kind in declaring:
            return points(action.combo)
        return kind_points.get(action.kind, 0)

    def choose(legal: list[Action], draw: Callable[[], float]) -> Action:
        best = max(legal, key=worth)
        if worth(best) > 0:
            return best
        if END_TURN in legal:
            return END_TURN
        return legal[int(draw() * len(legal))]

    return choose

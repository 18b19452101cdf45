"""A penalty entered on a score sheet (:mod:`bezique.sheet`), awarded as at the table.

The points are the variant's penalty table's, claimed as ``penalties.award`` allows
(:func:`~bezique.plugins.referee.book.award_options`) and scored as a claim at the
table is (:func:`~bezique.plugins.referee.book.award_event`).  Only the penalties that
are points are entered so; the procedures (a fresh deal, a card returned, tricks
forfeited by a revoke) change the cards, which a sheet does not hold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bezique.actions import ScoreEvent
from bezique.errors import IllegalActionError
from bezique.hookspecs import hookimpl
from bezique.plugins.referee.book import award_event, award_options

if TYPE_CHECKING:
    from bezique.hookstate import HookRules


@hookimpl
def bezique_sheet_penalty(
    rules: HookRules, name: str, offender: int, claimant: int, option: str
) -> list[ScoreEvent] | None:
    """The penalty ``name``'s points, claimed by ``claimant`` as ``option`` (see the hook)."""
    penalties = rules.data.get("penalties")
    if penalties is None:
        raise IllegalActionError(
            "this variant has no penalty table: it awards no penalty", "penalties"
        )
    points = penalties.get(name)
    if not isinstance(points, int) or isinstance(points, bool) or name == "award":
        raise IllegalActionError(
            f"{name.replace('_', ' ')} is not a penalty of points in this variant's table "
            f"(those are: {', '.join(_of_points(penalties))})",
            "penalties",
        )
    if points == 0:
        raise IllegalActionError(
            f"{name.replace('_', ' ')} carries no points in this variant", f"penalties.{name}"
        )
    options = award_options(penalties["award"])
    chosen = option or (options[0] if len(options) == 1 else "")
    if chosen not in options:
        raise IllegalActionError(
            f"{name.replace('_', ' ')}: say how it is claimed, {' or '.join(options)} "
            "(penalties.award)",
            "penalties.award",
        )
    return [award_event(name, points, offender, claimant, chosen)]


def _of_points(penalties: dict[str, object]) -> list[str]:
    return [
        key.replace("_", " ")
        for key, value in penalties.items()
        if isinstance(value, int) and not isinstance(value, bool) and value
    ]

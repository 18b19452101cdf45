"""The hooks a rules plugin implements.

Every hook is prefixed ``bezique_``.  A variant file lists its plugins by
registered name; each game builds its own plugin manager from that list, and the
kernel resolves every game hook **once per game** into a plain callable (see
:mod:`bezique.ruleset`), so pluggy's per-call cost is never paid in the card loop.

Plugins listed later in a variant's ``plugins:`` override earlier ones: pluggy
calls the implementation registered last first, and every game hook is
``firstresult``, so a plugin answers what it changes and returns ``None`` for the
rest, which falls through to the plugins listed before it.

Arguments, named exactly as below, that an implementation may take (any subset):

``state``
    the :class:`bezique.game.GameState` (read it; change it only where the hook says).
``player``
    a seat number, ``0 .. players - 1``.
``action``
    a :class:`bezique.actions.Action`.
``cards``
    physical card ids (see :mod:`bezique.cards`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import pluggy

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10: the same protocol, before it moved to importlib.resources.abc
    from importlib.abc import Traversable

if TYPE_CHECKING:
    from bezique.actions import Action, ScoreEvent
    from bezique.game import GameState
    from bezique.ruleset import Ruleset

KeyPath = tuple[str | int, ...]
"""Where a value is in a variant's data: its keys and list indexes, outermost first."""

PROJECT = "bezique"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@runtime_checkable
class DeclaringRole(Protocol):
    """What the kernel asks of a variant's declaring procedure (:func:`bezique_declaring_roles`).

    One instance per ruleset, made with the ruleset (``Role(ruleset)``); every method
    takes the game state, so one role serves every game of the ruleset.
    """

    def __init__(self, rules: Ruleset) -> None:
        """The role of ``rules``' variant."""

    def turn_actions(self, state: GameState, player: int) -> list[Action]:
        """What ``player``, a trick's winner, may do before drawing, besides ending his turn.

        Declarations, announcements and the seven of trumps, for instance.  Asked once
        for each decision of the turn; the kernel adds the action that ends the turn
        (``draw``, or ``pass`` once the stock is gone).  Plugins must not change
        ``state`` here.
        """
        ...

    def refusal(self, state: GameState, player: int, action: Action) -> str | None:
        """Say why ``action`` (a card played, or a turn action) is not legal now.

        Asked only when :meth:`GameState.apply` refuses an action, after the kernel's
        own reasons (the phase, a card not held), so it may be slow.  Return a sentence
        that names the rule, or ``None`` for the kernel's general refusal.
        """
        ...

    def apply(self, state: GameState, player: int, action: Action) -> None:
        """Carry out ``action``, one of :meth:`turn_actions`' (score it, lay cards on the table)."""
        ...


@hookspec
def bezique_variant_files() -> Mapping[str, Traversable] | None:
    """Offer variant files that this plugin ships.

    Called on every installed plugin (not ``firstresult``) when the catalogue of
    variants is built.  Return a mapping from variant name to the YAML file (a
    path or an :mod:`importlib.resources` traversable), or ``None``.
    """


@hookspec
def bezique_requires() -> Sequence[str] | None:
    """Name the plugins this plugin builds on, which a variant must list before it.

    Asked of each plugin a variant lists, on its own, when the variant is checked (not
    ``firstresult``; not a game hook).  Return registered plugin names (a plugin that
    answers only what it changes, falling through to the ordinary rules for the rest,
    returns ``["ordinary"]``), or ``None``.  A variant whose ``plugins:`` leaves one out,
    or lists it after, is refused at that entry.
    """


@hookspec
def bezique_exclusive_hooks() -> Sequence[str] | None:
    """Name the hooks this plugin answers alone: no other plugin of a variant may answer them.

    Asked of each plugin a variant lists, when the variant is checked (not
    ``firstresult``; not a game hook).  The plugins it builds on (see
    :func:`bezique_requires`) may still answer them: it falls through to them.  A
    plugin whose procedure another plugin's answers would break (Polish bezique's
    declarations from the open rows, say) names those hooks here, so that a variant
    listing both is refused rather than played by a silent last-wins.  Return hook
    names, or ``None``.
    """


@hookspec
def bezique_variant_problems(
    data: Mapping[str, Any],
) -> Sequence[tuple[KeyPath | list[KeyPath], str]] | None:
    """Say what in a variant's data this plugin cannot play, before any game is built.

    Asked of every plugin a variant lists (not ``firstresult``; not a game hook),
    once its merged ``data`` (a copy) satisfies the schema and the loader's own
    checks.  Return ``(path, message)`` pairs: ``path`` is the tuple of keys and
    list indexes of the offending value (``("open_cards", "ranks", 2)``), or a list
    of such tuples when values clash (the message goes to the one set last); the
    loader reports each message at the file, line and column that set it.  Return
    ``None`` or ``[]`` when all is well.
    """


@hookspec(firstresult=True)
def bezique_deal_scores(state: GameState) -> list[ScoreEvent] | None:
    """Return the scores earned by the deal itself (a seven turned up, say).

    Called once after each deal, before the first lead.
    """


@hookspec(firstresult=True)
def bezique_trick_winner(state: GameState, cards: list[int]) -> int | None:
    """Return the position, in order of play, of the card that wins ``cards``.

    ``cards`` is the finished trick, the lead first.
    """


@hookspec(firstresult=True)
def bezique_legal_plays(state: GameState, player: int, cards: list[int]) -> list[int] | None:
    """Return the cards ``player`` may play to the current trick.

    ``cards`` is everything in the player's hand; return a sub-list (the duties
    of the end-game, for instance), or ``cards`` itself when play is free.
    """


@hookspec
def bezique_declaring_roles() -> Sequence[type[DeclaringRole]] | None:
    """Collect: the declaring role classes this plugin offers (asked once per ruleset).

    Every plugin a variant lists is asked (not ``firstresult``).  The ruleset
    composes the classes answered into one class, the plugin listed last first in
    its method order (``type(name, (Last, ..., First), {})``), and makes one
    instance of it with the ruleset; the kernel calls it through
    :class:`DeclaringRole`.  A plugin that changes how its variant declares
    subclasses the role of a plugin it builds on, overrides what its rules change
    and calls ``super()`` for the rest, so that two plugins that each relax a rule
    compose into a role that applies both.  Classes that cannot be composed (no
    consistent method order) or that are not roles are a :class:`PluginError`
    naming the plugins.  When no plugin answers, a trick's winner has no turn
    action.  Return classes, or ``None``.
    """


@hookspec(firstresult=True)
def bezique_trick_scores(
    state: GameState, winner: int, cards: list[int]
) -> list[ScoreEvent] | None:
    """Return the scores earned by the finished trick ``cards`` won by ``winner``."""


@hookspec(firstresult=True)
def bezique_stock_exhausted(state: GameState) -> bool | None:
    """Prepare the end-game once the last card of the stock has been drawn.

    In the ordinary game the declared cards go back to the hands and any
    announced combination lapses.  Return ``True`` when handled.
    """


@hookspec(firstresult=True)
def bezique_hand_scores(state: GameState) -> list[ScoreEvent] | None:
    """Return the scores earned when the hand's last trick has been played."""


@hookspec(firstresult=True)
def bezique_game_winner(state: GameState, hand_over: bool) -> int | None:
    """Return the winner of the game if it is over now, else ``None``.

    Called after every score (``hand_over`` false) and after each hand
    (``hand_over`` true).  The winner is a side: a seat, or with partnerships
    the index of a partnership in ``state.side_of``.  Return ``-1`` for "not
    over" to stop the fall-through.
    """


@hookspec(firstresult=True)
def bezique_next_declarer(state: GameState, player: int, declared: bool) -> int | None:
    """Return the seat that may declare next after ``player`` ends his turn, or ``-1``.

    Asked after a trick when its winner (then each seat this hook names) has
    no turn action or ends his turn; ``declared`` says whether ``player`` did
    anything in his turn.  The trick's winner is ``state.leader``.  Without an
    implementation only the winner declares; partnerships name the partner.
    The draw follows once this returns ``-1``.
    """


@hookspec(firstresult=True)
def bezique_trick_players(state: GameState) -> list[int] | None:
    """Return the seats that play the next trick, in order, the leader first.

    Asked before each trick once the stock is exhausted (the end-game), and only
    if a plugin implements it; an empty list ends the hand, ``None`` keeps the
    default.  Without an
    implementation every seat plays, from ``state.leader`` to the left, until
    the hands are empty.  S0's four-hand end-game plays two duels this way.
    """


GAME_HOOKS: tuple[str, ...] = (
    "bezique_deal_scores",
    "bezique_trick_winner",
    "bezique_legal_plays",
    "bezique_trick_scores",
    "bezique_stock_exhausted",
    "bezique_hand_scores",
    "bezique_game_winner",
    "bezique_next_declarer",
    "bezique_trick_players",
)
"""The hooks a game resolves into plain callables when it is built."""

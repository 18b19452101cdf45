"""The hooks a rules plugin implements.

Every hook is prefixed ``bezique_``.  A variant file lists its plugins by
registered name; each game builds its own plugin manager from that list, and the
kernel resolves every game hook **once per game** into a plain callable (see
:mod:`bezique.rules.ruleset`), so pluggy's per-call cost is never paid in the card loop.

Every hook is of one of three kinds, which its docstring names first (as in
pytest):

*Decide* (``firstresult``)
    one answer: the plugin listed last in a variant's ``plugins:`` is asked
    first, and ``None`` falls through to the plugins listed before it (who wins
    a trick, which cards may be played, whether the game is won).
*Collect*
    every plugin answers and the kernel combines the answers, the lists joined
    in the order the plugins are listed (score events, variant problems, schema
    fragments); ``None`` is an empty answer.
*Notify*
    every plugin is told of an event (the deal, a trick, the stock exhausted)
    and may update the state it keeps; what it returns is ignored.

The specs below are grouped by when they are asked: when plugins are found,
when a variant is checked, then each moment of a game.

Arguments, named exactly as below, that an implementation may take (any subset):

``state``
    the game's state, as the protocol :class:`bezique.hookstate.HookState` describes it:
    the attributes a plugin reads, the changes it makes through the state's methods,
    and the moves of the game it may call.  The kernel passes its
    :class:`bezique.game.GameState`, which has all of them.  Read it; change it only
    where the hook says.
``rules``
    the variant's rules, as the protocol :class:`bezique.hookstate.HookRules` describes
    them (the kernel passes its :class:`bezique.rules.ruleset.Ruleset`); given to the
    score sheet's hooks and to a declaring role, which have no game state.
``player``
    a seat number, ``0 .. players - 1``.
``action``
    a :class:`bezique.actions.Action`.
``cards``
    physical card ids (see :mod:`bezique.cards`).
``question``, ``answer``
    a question's name and one of its answers (see :class:`Question`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar, runtime_checkable

import pluggy

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10: the same protocol, before it moved to importlib.resources.abc
    from importlib.abc import Traversable

if TYPE_CHECKING:
    from bezique.actions import Action, ScoreEvent
    from bezique.hookstate import HookRules, HookState

KeyPath = tuple[str | int, ...]
"""Where a value is in a variant's data: its keys and list indexes, outermost first."""

PROJECT = "bezique"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

ANSWERS_WHEN = "bezique_answers_when"
"""The attribute :func:`answers_when` sets on an implementation: its predicate."""

_Function = TypeVar("_Function", bound=Callable[..., Any])


def answers_when(
    predicate: Callable[[Mapping[str, Any]], bool],
) -> Callable[[_Function], _Function]:
    """Mark a game hook's implementation that can answer only in some variants.

    ``predicate(data)`` is asked once, when a variant's hooks are resolved, with the
    variant's data; where it is false the implementation is left out as if its plugin
    did not implement the hook, so that a hook asked before every card costs nothing in
    the variants where it could only answer ``None`` (the carte blanche's offer, where
    the variant plays none).  The implementation must then answer ``None`` (or nothing,
    for a collect hook) in every game of such a variant: the predicate says only when
    it need not be asked.  Put it above or below ``@hookimpl``.
    """

    def mark(function: _Function) -> _Function:
        setattr(function, ANSWERS_WHEN, predicate)
        return function

    return mark


# ====================================================================== the declaring role


@runtime_checkable
class DeclaringRole(Protocol):
    """What the kernel asks of a variant's declaring procedure (:func:`bezique_declaring_roles`).

    One instance per ruleset, made with the ruleset (``Role(ruleset)``); every method
    takes the game state, so one role serves every game of the ruleset.
    """

    def __init__(self, rules: HookRules) -> None:
        """The role of ``rules``' variant."""

    def turn_actions(self, state: HookState, player: int) -> list[Action]:
        """What ``player``, a trick's winner, may do before drawing, besides ending his turn.

        Declarations, announcements and the seven of trumps, for instance.  Asked once
        for each decision of the turn; the kernel adds the action that ends the turn
        (``draw``, or ``pass`` once the stock is gone).  Plugins must not change
        ``state`` here.
        """
        ...

    def refusal(self, state: HookState, player: int, action: Action) -> str | None:
        """Say why ``action`` (a card played, or a turn action) is not legal now.

        Asked only when :meth:`bezique.game.GameState.apply` refuses an action, after the kernel's
        own reasons (the phase, a card not held), so it may be slow.  Return a sentence
        that names the rule, or ``None`` for the kernel's general refusal.
        """
        ...

    def apply(self, state: HookState, player: int, action: Action) -> None:
        """Carry out ``action``, one of :meth:`turn_actions`' (score it, lay cards on the table)."""
        ...


# ====================================================================== finding and checking


@hookspec
def bezique_variant_files() -> Mapping[str, Traversable] | None:
    """Collect: the variant files that this plugin ships.

    Asked of every installed plugin when the catalogue of
    variants is built.  Return a mapping from variant name to the YAML file (a
    path or an :mod:`importlib.resources` traversable), or ``None``.
    """


@hookspec
def bezique_joins() -> Sequence[str] | None:
    """Collect: name the plugins whose games this plugin joins without being listed.

    Asked of every installed plugin once, when plugins are discovered (not a game
    hook).  A variant that lists one of them is played, and checked, with this plugin
    too, placed right after the last of them (unless the variant lists it itself), so
    that the variant's later plugins still answer first.  The referee of irregularities
    joins the ordinary game so: every variant built on it takes table actions without
    naming the referee, and the rules that records carry stay as they were written.
    A blocked or broken plugin joins nothing.  Return registered plugin names, or
    ``None``.
    """


@hookspec
def bezique_requires() -> Sequence[str] | None:
    """Collect: the plugins this plugin builds on, which a variant must list before it.

    Asked of each plugin a variant lists, on its own, when the variant is checked
    (not a game hook).  Return registered plugin names (a plugin that
    answers only what it changes, falling through to the ordinary rules for the rest,
    returns ``["ordinary"]``), or ``None``.  A variant whose ``plugins:`` leaves one out,
    or lists it after, is refused at that entry.
    """


@hookspec
def bezique_exclusive_hooks() -> Sequence[str] | None:
    """Collect: the hooks this plugin answers alone: no other plugin of a variant may answer them.

    Asked of each plugin a variant lists, when the variant is checked (not a
    game hook).  The plugins it builds on (see
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
    """Collect: what in a variant's data this plugin cannot play, before any game is built.

    Asked of every plugin a variant lists (not a game hook),
    once its plugin list is sound and its merged ``data`` (a copy) satisfies the
    schema of those plugins (the kernel's sense checks run beside, so this may see
    packets that do not add up, say, but never ill-typed data).  Return
    ``(path, message)`` pairs: ``path`` is the tuple of keys and list indexes of the
    offending value (``("open_cards", "ranks", 2)``), or a list of such tuples when
    values clash (the message goes to the one set last); the loader reports each
    message at the file, line and column that set it.  Return ``None`` or ``[]``
    when all is well.
    """


@hookspec
def bezique_variant_schema() -> Mapping[str, Any] | None:
    """Collect: the JSON Schema fragment of this plugin's own sections of a variant file.

    Asked of every plugin a variant lists when the variant is validated (and of
    every installed plugin to build the full schema; not a game hook): the fragments
    are merged into the kernel's schema, which holds only the kernel's keys, so a
    variant may hold a plugin's sections only if it lists that plugin.  Return a
    mapping with ``properties`` (the top-level keys the plugin owns), ``required``
    (those a variant listing it must have), ``$defs`` (what they refer to as
    ``#/$defs/NAME``, beside the kernel's ``rank``, ``suit``, ``card``, ``points`` and
    ``source``), ``adds`` (``{SECTION: {"properties": ..., "required": ...}}``: keys it
    adds to a section of the kernel or of a plugin it builds on) and a
    ``description``, or ``None``.  See :mod:`bezique.variant.schema`; a plugin ships
    its fragment as package data and returns
    :func:`bezique.variant.load_fragment` of it.
    """


# ====================================================================== describing the rules


class RuleProse(NamedTuple):
    """A rulebook sentence a plugin says of its procedure (:func:`bezique_describe_rules`).

    The rulebook (``bezique rules``) prints it in its :attr:`section`, after the
    sentences the kernel makes from the variant's data, and ``bezique diff`` compares
    it by :attr:`section` and :attr:`key` as it compares those.  A :attr:`setting`
    states the values of the plugin's own part of the data (the Rubicon settlement's
    numbers, the penalty table): it is printed as the kernel prints its sentences of
    the data, beside them.
    """

    section: str
    """The rulebook section it belongs to: ``table``, ``deal``, ``trumps``, ``play``,
    ``declarations``, ``score_table``, ``carte_blanche``, ``seven``, ``brisques``,
    ``endgame``, ``game``, ``penalties``, ``open_cards``, ``partnerships``, ``rubicon``,
    ``lift``; any other name makes a section of its own at the end."""
    key: str
    """What the sentence is about, unique in the plugin's answer (``grand.reform``)."""
    text: str
    """The sentence(s), in the plugin author's own words."""
    source: str | None = None
    """Its citation: source codes and sections (``S0 Grand section; A24``)."""
    covers: tuple[str, ...] = ()
    """The dotted paths of the variant's data the sentence states (``lift.sizes``), if any."""
    setting: bool = False
    """Whether it states the values of :attr:`covers` (a rule of the data) rather than
    the plugin's procedure: it then comes before the procedures of its section, is
    marked inherited from the parent file that set those values (not as the plugin's
    procedure), and takes the place of any sentence the kernel makes of them alone."""
    value: str = ""
    """A setting's values in short (a cell of ``bezique diff``'s matrix)."""
    cited: tuple[str, ...] = ()
    """A setting's citation as the path of a ``source:`` text of the data
    (``("rubicon", "source")``), read in the file that set what it covers; instead of
    :attr:`source`."""


@hookspec
def bezique_describe_rules(data: Mapping[str, Any]) -> Sequence[RuleProse] | None:
    """Collect: the rules this plugin's code carries out, in words, for a variant's rulebook.

    Asked of every plugin a game of the variant is played with (the listed ones and
    those that join them), in that order, when ``bezique rules`` or ``bezique diff``
    reads a variant (not a game hook).  ``data`` is the merged variant data.  Return
    one :class:`RuleProse` for each procedure (what the numbers of the data cannot
    say: how a combination is formed again, who declares after a partner's trick)
    and for each rule of the plugin's own part of the data (a ``setting``: the
    Rubicon settlement's bonuses, the penalty table), written from ``data`` so that it
    says what this variant plays; or ``None``.  A plugin that answers nothing still
    plays: its rulebook has the kernel's sentences and a plain line for each value
    of its own.
    """


@hookspec
def bezique_words(data: Mapping[str, Any]) -> Mapping[str, str] | None:
    """Collect: the words a player reads for this plugin's keys (:mod:`bezique.rules.words`).

    Asked of every plugin a game of the variant is played with, in order, once per
    ruleset (:attr:`bezique.rules.ruleset.Ruleset.words`; not a game hook).  ``data`` is the
    merged variant data.  Return a mapping from key to words: a score event's rule
    (``seven_of_trumps.exchange_points`` -> ``the seven of trumps exchanged for the
    turn-up``), a combination's name (``four_knaves`` -> ``four knaves``), a declared
    card's class as ``class.NAME``, a phase the plugin opens as ``phase.NAME``; or
    ``None``.  The kernel merges the answers over its own words, a plugin listed later
    overriding one listed before; a key nobody gives words to is shown in a readable
    form of itself (underscores as spaces), never raw.
    """


# ====================================================================== the deal


@hookspec
def bezique_after_deal(state: HookState) -> None:
    """Notify: a hand has been dealt (the turn-up turned), before anything scores.

    A plugin sets up what it keeps for the hand (its rows of open cards, its
    record of declarations).  Called once after each deal, before
    :func:`bezique_deal_scores`.
    """


@hookspec
def bezique_deal_scores(state: HookState) -> list[ScoreEvent] | None:
    """Collect: the scores earned by the deal itself (a seven turned up, a carte blanche).

    Called once after each deal, after :func:`bezique_after_deal` and before
    the first lead.
    """


class Question(NamedTuple):
    """A question a seat answers before the first lead (:func:`bezique_hand_question`).

    While it is open the phase is ``question``, ``state.to_act`` is :attr:`seat`, and
    the legal actions are ``choose NAME ANSWER`` for each of :attr:`answers`, in order.
    """

    name: str
    """One word (``lift``): the second word of each answer's text."""
    seat: int
    answers: Sequence[str]
    """Each one word, no two alike."""
    waiting: str
    """What play waits for, which starts the refusal of any other action."""
    rule: str
    """The rule a refusal names."""


@hookspec(firstresult=True)
def bezique_hand_question(state: HookState) -> Question | None:
    """Decide: the question a seat must answer now, before the hand's first lead, if any.

    Asked after each deal (after :func:`bezique_after_deal`, before
    :func:`bezique_deal_scores`) and after each answer until no plugin asks, and
    whenever the legal actions are listed while one is open: answer from the plugin's
    state.  Only if implemented.  The answer, ``choose NAME ANSWER``, is a recorded
    action, carried out by :func:`bezique_answer` (a dealer's lift guessed, say).
    """


@hookspec(firstresult=True)
def bezique_answer(
    state: HookState, player: int, question: str, answer: str
) -> list[ScoreEvent] | None:
    """Decide: carry out ``player``'s ``answer`` (one of those listed) to ``question``.

    The plugin that asked records it (so that it asks no more, or its next question)
    and returns the scores it earns (``[]`` for none), which the kernel adds; ``None``
    lets a plugin listed before answer.
    """


# ====================================================================== before a card is played


@hookspec(firstresult=True)
def bezique_play_options(state: HookState, player: int) -> Sequence[Action] | None:
    """Decide: what ``player``, the seat to play a card, may do now instead, if anything.

    Asked whenever the legal actions of the ``play`` phase are listed, and only if
    implemented.  The actions answered (never plays or table actions) are listed after
    his plays, and playing a card passes them by: an announcement he may make before
    his card, such as a carte blanche shown at the deal or again after a draw (the
    ordinary and Rubicon rules, F334, A19).  Answer from the state alone, changing
    nothing; return ``None`` or ``[]`` for nothing.  A chosen one is carried out by
    :func:`bezique_play_option`, and the seat still plays his card after it.
    """


@hookspec(firstresult=True)
def bezique_play_option(state: HookState, player: int, action: Action) -> list[ScoreEvent] | None:
    """Decide: carry out ``action``, one of the options :func:`bezique_play_options` listed.

    The plugin that offered it records it (so that it is not offered again) and
    returns the scores it earns (``[]`` for none), which the kernel adds; ``None``
    lets a plugin listed before take it.
    """


# ====================================================================== the tricks


@hookspec(firstresult=True)
def bezique_trick_winner(state: HookState, cards: list[int]) -> int | None:
    """Decide: the position, in order of play, of the card that wins ``cards``.

    ``cards`` is the finished trick, the lead first.
    """


@hookspec(firstresult=True)
def bezique_legal_plays(state: HookState, player: int, cards: list[int]) -> list[int] | None:
    """Decide: the cards ``player`` may play to the current trick.

    ``cards`` is everything in the player's hand; return a sub-list (the duties
    of the end-game, for instance), or ``cards`` itself when play is free.
    """


# ====================================================================== the winner's turn


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


@hookspec
def bezique_trick_scores(
    state: HookState, winner: int, cards: list[int]
) -> list[ScoreEvent] | None:
    """Collect: the scores earned by the finished trick ``cards`` won by ``winner``.

    The trick is still in ``state.trick`` and ``state.trick_seats``, and in
    ``state.won[winner]``.
    """


@hookspec
def bezique_after_trick(state: HookState, winner: int, cards: list[int]) -> None:
    """Notify: the trick ``cards`` has been won by ``winner`` and scored.

    Called after :func:`bezique_trick_scores`, before the winner's turn; the
    trick is still in ``state.trick``.  A plugin updates what it keeps (a
    combination broken by a card played away, cards laid open).
    """


# ====================================================================== the draw and the end-game


@hookspec
def bezique_draw_scores(state: HookState, player: int, card: int) -> list[ScoreEvent] | None:
    """Collect: the scores earned as ``player`` draws ``card`` from the stock.

    Called after each card drawn after a trick, once the card is in the hand,
    and only if some plugin implements it (a game without pays nothing).  Rubicon
    offers a carte blanche again here for each card drawn that keeps the hand blank (as
    PAR gives six-pack bezique), for its holder to announce before his next card.
    """


@hookspec
def bezique_stock_exhausted(state: HookState) -> None:
    """Notify: the last card of the stock (and the turn-up) has been drawn.

    The end-game begins: in the ordinary game the declared cards go back to the
    hands and any announced combination lapses.
    """


# ====================================================================== the hand's, the game's end


@hookspec
def bezique_hand_scores(state: HookState) -> list[ScoreEvent] | None:
    """Collect: the scores earned when the hand's last trick has been played."""


DRAWN_GAME = -2
"""``bezique_game_winner``'s answer for a game over with no winner (a Rubicon tie that
the brisques leave tied, A22e); the state's ``winner`` is then -1 with the game over
(importable from :mod:`bezique.engine.state` too)."""


@hookspec(firstresult=True)
def bezique_game_winner(state: HookState, hand_over: bool) -> int | None:
    """Decide: the winner of the game if it is over now.

    Called after a score that brings a side to ``state.rules.target``
    (``hand_over`` false; never in a game of one deal) and after each hand
    (``hand_over`` true).  The winner is a side: a seat, or with partnerships
    the index of a partnership in ``state.side_of``.  Return ``-1`` for "not
    over" to stop the fall-through, or :data:`DRAWN_GAME` for a game
    over that no side has won (``state.winner`` is then -1, and the game is over).
    Where one deal is the game (``state.rules.one_deal``) it is over when the
    hand is: a hand's end that names no winner is a drawn game.
    """


@hookspec
def bezique_settlement(state: HookState) -> list[ScoreEvent] | None:
    """Collect: the scores settled once the game is won (a game bonus, a rubicon).

    Called once, when the game is over: ``state.winner`` is the winning side (-1 for a
    drawn game).
    The events are added to the scores and the ledger without asking
    :func:`bezique_game_winner` again.
    """


# ====================================================================== who plays and who declares


@hookspec(firstresult=True)
def bezique_next_declarer(state: HookState, player: int, declared: bool) -> int | None:
    """Decide: the seat that may declare next after ``player`` ends his turn, or ``-1``.

    Asked after a trick when its winner (then each seat this hook names) has
    no turn action or ends his turn; ``declared`` says whether ``player`` did
    anything in his turn.  The trick's winner is ``state.leader``.  Without an
    implementation only the winner declares; partnerships name the partner.
    The draw follows once this returns ``-1``.
    """


@hookspec(firstresult=True)
def bezique_trick_players(state: HookState) -> list[int] | None:
    """Decide: the seats that play the next trick, in order, the leader first.

    Asked before each trick once the stock is exhausted (the end-game), and only
    if a plugin implements it; an empty list ends the hand, ``None`` keeps the
    default.  Without an
    implementation every seat plays, from ``state.leader`` to the left, until
    the hands are empty.  S0's four-hand end-game plays two duels this way.
    """


# ====================================================================== table actions
#
# Table actions (``irregular ...``, ``claim ...``; :data:`bezique.actions.TABLE_KINDS`)
# are what happens at a real table beside the rules: anyone may take one at any time.
# The kernel knows only their notation; a plugin carries them out.  What follows one
# in play is asked through the *table hooks* below (adjust_plays, before_play,
# trick_owner, draw), which the kernel asks only in a hand where a table action has
# been accepted (``state.table_acted``, from that action to the next deal) and only
# if a plugin implements them: a hand without one pays nothing for them.

DRAWN = "drawn"
""":func:`bezique_draw`'s answer: the plugin drew the round itself; play goes on."""
HELD = "held"
""":func:`bezique_draw`'s answer: the draw waits (in a phase the plugin opened)."""


class PhaseChoices(NamedTuple):
    """What a phase a plugin opened allows: :func:`bezique_phase_choices`'s answer."""

    actions: Sequence[Action]
    """The legal actions, in the order :meth:`~bezique.game.GameState.legal_actions` lists."""
    waiting: str
    """What play waits for, which starts the refusal of any other action
    (``play waits for seat 1 to choose``; the kernel adds the choices)."""
    rule: str
    """The rule a refusal names (:attr:`bezique.errors.IllegalActionError.rule`)."""
    shown: Sequence[str] | None = None
    """The choices as the seat to act sees them in his observation, when the actions
    name cards he may not see (another seat's concealed cards); None: their texts."""


@hookspec(firstresult=True)
def bezique_table_action(state: HookState, action: Action) -> bool | None:
    """Decide: carry out a table action (``irregular ...`` or ``claim ...``).

    Asked for every table action taken, in any phase but the game's end, whoever
    takes it (it is not checked against the legal actions).  Carry it out and return
    ``True``; or raise :class:`~bezique.errors.IllegalActionError`, leaving the state
    exactly as it was; or return ``None`` to let a plugin listed before answer.  An
    action no plugin takes is refused.  The hand's table hooks are asked from then on.
    """


@hookspec(firstresult=True)
def bezique_phase_choices(state: HookState) -> PhaseChoices | None:
    """Decide: the legal actions of a phase a plugin opened, and what play waits for.

    Asked in any phase but ``play``, ``turn`` and ``game_over``: a phase that a
    plugin set (the referee's ``remedy``, where the injured player chooses).  Its
    actions are table actions, which reach :func:`bezique_table_action`.
    """


@hookspec(firstresult=True)
def bezique_wait_before_draw(state: HookState) -> bool | None:
    """Decide: whether the trick's winner ends his turn with ``draw`` though he has nothing to do.

    Asked only in a game at a real table (``state.at_table``: ``new_game(...,
    referee=True)``, a record's ``"referee": true``), after every trick a draw
    follows when no one may declare, and only if implemented.  ``True`` gives the
    winner a turn whose only action is ``draw``, so that a table action may come
    before his draw (the referee's: drawing out of turn is reported, and claimed,
    before the injured player draws); ``None`` or ``False``: the draw follows at once.
    """


@hookspec(firstresult=True)
def bezique_adjust_plays(state: HookState, player: int, cards: list[int]) -> list[int] | None:
    """Decide (table hook): the cards ``player`` may play now, if not ``cards``.

    ``cards`` are those the rules allow (:func:`bezique_legal_plays`); return other
    cards of his hand (a reported revoke: those the rules forbid), or ``None`` (an
    empty answer keeps ``cards`` too).
    """


@hookspec
def bezique_before_play(state: HookState, player: int, card: int) -> None:
    """Notify (table hook): ``player`` plays ``card``, which is still in his hand.

    Called before the card goes to the trick (so ``state.trick`` does not hold it).
    """


@hookspec(firstresult=True)
def bezique_trick_owner(state: HookState, winner: int) -> int | None:
    """Decide (table hook): the seat that takes a trick ``winner`` won, if not he.

    The trick's scores go to that seat; ``winner`` still leads the next trick.
    """


@hookspec(firstresult=True)
def bezique_draw(state: HookState) -> str | None:
    """Decide (table hook): carry out the round of drawing after a trick, or hold it.

    Asked while cards can be drawn.  Return :data:`DRAWN` when the plugin drew (the
    kernel goes on to the next trick), :data:`HELD` when the draw waits in a phase
    the plugin opened (it calls ``state.draw_round()`` to carry on), or ``None`` for
    the kernel's draw: one card each, the trick's winner first.
    """


# ====================================================================== the score sheet
#
# The score sheet of a game played with real cards (:mod:`bezique.sheet`) asks these;
# none is a game hook: each is asked with the variant's ruleset, never a game state.


class SheetEntryKind(NamedTuple):
    """An entry a score sheet may hold, named as the engine's score events name it.

    :func:`bezique_sheet_entries` answers these; the sheet scores an entry by its
    :attr:`points`, so that its totals are the variant's table's.
    """

    key: str
    """The rule as :attr:`bezique.actions.ScoreEvent.rule` gives it (``royal_marriage``)."""
    words: str
    """What a player calls it (``royal marriage``): the sheet accepts these or the key."""
    points: int
    """What it scores (for each card counted, with :attr:`per_card`)."""
    cards: int = 0
    """How many cards a declaration of it names (0: it names none)."""
    per_card: bool = False
    """The entry gives a count of cards (brisques), each scoring :attr:`points`."""
    most: int = 0
    """How many (cards counted, or entries) the hand can hold in all seats; 0: no bound."""
    after_stock: bool = False
    """It may be entered once the stock is gone (declarations only where the variant's
    declaring goes on then, as Polish bezique's does)."""
    pool: str = ""
    """Kinds of one pool share :attr:`most` (the seven of trumps shown or exchanged)."""


@hookspec
def bezique_sheet_entries(rules: HookRules) -> Sequence[SheetEntryKind] | None:
    """Collect: the entries of a score sheet this plugin scores (:mod:`bezique.sheet`).

    Asked of every plugin a game of the variant is played with, once per sheet.
    Return one :class:`SheetEntryKind` for each of its score events' rules (each
    combination of the table, the seven of trumps, the brisques, the last trick),
    its points read from ``rules.data``; or ``None``.  A later plugin's kind
    replaces one of the same key.
    """


@hookspec(firstresult=True)
def bezique_sheet_declaration_problem(
    rules: HookRules,
    declared: Sequence[tuple[str, tuple[int, ...]]],
    name: str,
    faces: tuple[int, ...],
    trump: int,
) -> str | None:
    """Decide: why a score sheet may not hold the declaration ``name`` of ``faces``.

    ``declared`` are the declarations (combination name and faces, see
    :meth:`bezique.cards.Deck.face`) that the same player has entered in the hand so
    far; ``trump`` is the trump suit entered for the hand (-1: not entered).  Return
    a sentence naming the rule (the cards do not form the combination, a card
    declared again in the same class), ``""`` when it may stand, or ``None`` to let
    a plugin listed before answer.
    """


@hookspec(firstresult=True)
def bezique_sheet_scores(
    rules: HookRules,
    player: int,
    name: str,
    count: int,
    declared: Sequence[tuple[str, tuple[int, ...]]],
    faces: tuple[int, ...],
    trump: int,
) -> list[ScoreEvent] | None:
    """Decide: the score events of ``player``'s entry ``name`` on a score sheet.

    Asked once the entry has passed its checks; ``count`` is its count (brisques),
    ``faces`` the cards it names (empty: none), ``declared`` and ``trump`` as for
    :func:`bezique_sheet_declaration_problem` (without this entry).  Return the
    events where the game scores it otherwise than the table's points, ``count``
    times, to the player (a higher bezique built on a lower one where the variant
    scores the difference; a carte blanche paid by each opponent), or ``None`` for
    the table's points or to let a plugin listed before answer.
    """


@hookspec(firstresult=True)
def bezique_sheet_penalty(
    rules: HookRules, name: str, offender: int, claimant: int, option: str
) -> list[ScoreEvent] | None:
    """Decide: the scores of the penalty ``name`` entered on a score sheet.

    ``offender`` committed the irregularity; ``claimant``, of another side, claims it;
    ``option`` is how (``add`` to the claimant, ``deduct`` from the offender; ``""``:
    the only way the variant allows).  Return the score events (the penalty table's
    points, given as the table awards them), or raise
    :class:`~bezique.errors.IllegalActionError` naming the rule when the variant
    does not award it so, or ``None`` to let a plugin listed before answer.
    """


@hookspec(firstresult=True)
def bezique_sheet_winner(
    rules: HookRules, scores: Sequence[int], hand_over: bool, last_trick: int
) -> int | None:
    """Decide: the side that has won a game on a score sheet at these ``scores``, if any.

    Asked after each entry (``hand_over`` false) and at each hand's end (true);
    ``last_trick`` is the side that took the hand's last trick, or -1.  Answer as
    :func:`bezique_game_winner` does: a side, -1 for not over, or
    :data:`DRAWN_GAME`.
    """


@hookspec
def bezique_sheet_hand_end(
    rules: HookRules, scores: Sequence[int], brisques: Sequence[int]
) -> list[ScoreEvent] | None:
    """Collect: the scores a score sheet adds at a hand's end, from the entries' totals.

    ``scores`` are the sides' totals so far; ``brisques`` the brisques each seat
    was entered as taking in the hand, when they are not scored as entered (brisques
    counted at the settlement: the Rubicon's).  Return score events, or ``None``.
    """


@hookspec
def bezique_sheet_settlement(
    rules: HookRules, scores: Sequence[int], winner: int, counted: int
) -> list[ScoreEvent] | None:
    """Collect: the scores a score sheet settles once the game is won by side ``winner``.

    As :func:`bezique_settlement`, from the totals alone; ``counted`` is the
    brisque points already in ``scores``.  Return score events, or ``None``.
    """


DECIDE, COLLECT, NOTIFY = "decide", "collect", "notify"
"""The kinds of hook (see the module's docstring)."""

GAME_HOOKS: dict[str, str] = {
    "bezique_after_deal": NOTIFY,
    "bezique_deal_scores": COLLECT,
    "bezique_hand_question": DECIDE,
    "bezique_answer": DECIDE,
    "bezique_play_options": DECIDE,
    "bezique_play_option": DECIDE,
    "bezique_trick_winner": DECIDE,
    "bezique_legal_plays": DECIDE,
    "bezique_trick_scores": COLLECT,
    "bezique_after_trick": NOTIFY,
    "bezique_draw_scores": COLLECT,
    "bezique_stock_exhausted": NOTIFY,
    "bezique_hand_scores": COLLECT,
    "bezique_game_winner": DECIDE,
    "bezique_settlement": COLLECT,
    "bezique_next_declarer": DECIDE,
    "bezique_trick_players": DECIDE,
    "bezique_table_action": DECIDE,
    "bezique_phase_choices": DECIDE,
    "bezique_wait_before_draw": DECIDE,
    "bezique_adjust_plays": DECIDE,
    "bezique_before_play": NOTIFY,
    "bezique_trick_owner": DECIDE,
    "bezique_draw": DECIDE,
}
"""The hooks a game resolves, once per ruleset, into plain callables, with their kinds."""

SHEET_HOOKS: dict[str, str] = {
    "bezique_sheet_entries": COLLECT,
    "bezique_sheet_declaration_problem": DECIDE,
    "bezique_sheet_scores": DECIDE,
    "bezique_sheet_penalty": DECIDE,
    "bezique_sheet_winner": DECIDE,
    "bezique_sheet_hand_end": COLLECT,
    "bezique_sheet_settlement": COLLECT,
}
"""The hooks a score sheet (:mod:`bezique.sheet`) resolves, once per ruleset, with their kinds.

They are resolved as the game's are (:func:`bezique.rules.hooks.resolve_hook`): a
plugin's failure names it, and its answer is checked (:mod:`bezique.rules.answers`).
"""

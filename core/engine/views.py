"""What a player may see of a game.

:meth:`Views.observation` gives it as plain JSON-able data; :class:`View` (of
:meth:`Views.view`) gives the same as the position a bot decides from.
:class:`~bezique.game.GameState` inherits :class:`Views`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from mypy_extensions import mypyc_attr

from bezique.engine.refusals import Refusals
from bezique.engine.state import (
    FIELDS,
    GAME_OVER,
    NOT_COPIED,
    PLAY,
    QUESTION,
    TURN,
    RandomSource,
    StateData,
    blank,
    fields_of,
    set_fields,
)
from bezique.engine.tricks import hand_tricks
from bezique.hookstate import NO_TURN, PluginState, TurnState

if TYPE_CHECKING:
    from bezique.actions import Action
    from bezique.cards import Deck
    from bezique.rules.ruleset import Ruleset


@mypyc_attr(allow_interpreted_subclasses=True)
class Views(Refusals):
    """What a seat may see of a game state: its observation and its view (a mixin)."""

    def observation(self, player: int) -> dict[str, Any]:
        """Return what ``player`` may see now, as plain JSON-able data.

        His own hand, every player's declared cards on the table, the turn-up,
        the cards played this hand (they were seen face up: the trick record's and the
        trick's), the cards plugins lay face up elsewhere (``places``: Polish open rows),
        the number of cards in each hand and in the stock, scores and score events, the
        question open before the first lead (``question``: its name, the seat asked, the answers),
        and his legal actions when it is his turn.  Never another player's concealed cards or
        the order of the stock (a choice among another player's unseen cards is
        shown as the plugin that opened it says).
        """
        seen = self._observed(player, self.places())
        if self.phase == QUESTION:  # every seat sees what is asked, and of whom
            seen["question"] = self._asked()
        if self.phase != GAME_OVER and self.to_act == player:
            seen["legal"] = self._legal_shown()
        return seen

    def _observed(self, player: int, places: Mapping[str, Sequence[int]]) -> dict[str, Any]:
        """:meth:`observation` but the question and the legal actions, ``places`` given.

        It reads only what ``player`` has seen of the hands (his own, and the cards on the
        table), so that a :class:`View`'s state (:func:`view_state`) gives the same but for
        the number of cards in each hand, which the view sets.
        """
        deck = self.deck
        own = [self.card_token(c, player) for c in self.hands[player]]
        table = [
            [self.card_token(c, seat) for c in hand if self.on_table[c]]
            for seat, hand in enumerate(self.hands)
        ]
        tricks = hand_tricks(self.tricks, self.hand_no)  # the hand's tricks, public
        played = [card for trick in tricks for card in trick.cards] + self.trick
        return {
            "player": player,
            "variant": self.rules.variant.name,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "trump": deck.suits[self.trump] if self.trump >= 0 else None,
            "turn_up": deck.card_text(self.turn_up) if self.turn_up >= 0 else None,
            "stock": self.stock_left(),
            "hand": own,
            "table": table,
            "hand_sizes": [len(h) for h in self.hands],
            "side_of": list(self.side_of),
            "trick": [
                [s, deck.card_text(c)] for s, c in zip(self.trick_seats, self.trick, strict=True)
            ],
            "places": {name: [deck.card_text(c) for c in cards] for name, cards in places.items()},
            "played": [deck.card_text(c) for c in played],
            "tricks_done": len(tricks),
            "phase": self.phase,
            "to_act": self.to_act,
            "scores": list(self.scores),
            "hand_points": list(self.hand_points),
            "events": [list(e) for e in self.events],
            "winner": self.winner,
        }

    def _asked(self) -> dict[str, Any]:
        """The question open before the first lead: its name, the seat asked, the answers."""
        question = self._open_question()
        return {"name": question.name, "seat": question.seat, "answers": list(question.answers)}

    def _legal_shown(self) -> list[str]:
        """The legal actions' texts, as the seat to act may see them.

        In a phase a plugin opened, the plugin may show choices that name cards the
        seat may not see otherwise (the dealer's surplus he draws from unseen).
        """
        if self.phase not in (PLAY, TURN):
            choices = self.rules.phase_choices(self)
            if choices is not None and choices.shown is not None:
                return list(choices.shown)
        return [self.action_text(a) for a in self.legal_actions()]

    def view(self, seat: int) -> View:
        """Return ``seat``'s :class:`View` of the state now: what a bot decides from."""
        return View(self, seat)


_S = TypeVar("_S", bound=StateData)


def _turn_seen_by(turn: TurnState, seat: int) -> TurnState:
    """The turn under way as ``seat`` may see it (its plugins' states' :meth:`seen_by`)."""
    if turn is NO_TURN:
        return turn
    seen = TurnState()
    seen.plugins = {key: value.seen_by(seat) for key, value in turn.plugins.items()}
    return seen


VIEW_HIDDEN = ("hands", "stock", "_random", "seed", "decks", "extra", "turn", "_legal", "_origin")
"""The fields of a state a :class:`View` does not copy as they are: the hands and the
stock (each seat sees only what it has seen of them), what shuffles the next deals,
the plugins' states of the hand and of the turn (copied as
:meth:`~bezique.engine.state.PluginState.seen_by` says; plain JSON states not at all), and
what the state is restored from after a failed action."""

SHARED_FIELDS = ("rules", "deck", "players", "side_of", "_play_actions", "_others", "_orders")
"""The fields that are the rules' (shared by every state of a variant, never changed)."""

_VIEW_COPIED = tuple(
    (f.name, f.copy)
    for f in FIELDS
    if f.name not in VIEW_HIDDEN and f.name not in SHARED_FIELDS and f.name != "held"
)
"""The fields a view copies: the public position (not the hands' bitboards, which follow
the hands)."""


class View:
    """What one seat sees of a game, as plain data: the position a bot decides from.

    It holds no game state and no card the seat has not seen: its own hand, the
    cards every seat has seen in each hand (:attr:`known`: laid on the table,
    shown, taken from the turn-up), how many cards each hand and the stock hold,
    the turn-up, the tricks played (:attr:`position` ``tricks``, the game's trick record
    of :mod:`bezique.engine.tricks`, and ``played`` and ``played_by``), the
    cards won, the scores and score events, the turn, the public history, and the
    plugins' typed states as each shows a seat (:meth:`PluginState.seen_by`; a
    plugin's plain JSON state, such as the referee's book, is not in it).  The rules
    are public and come with it (:attr:`rules`).  :func:`bezique.players.worlds.sample_world`
    deals the cards it does not place, at random, into a state to search.

    Its :attr:`observation` (the same as JSON-able data) is written only when read:
    bots do not read it.  For it the view keeps, besides, what the position does not
    say: the cards plugins lay face up elsewhere, the question open, and the seat's
    legal actions when it is to act (their texts, in a phase a plugin opened).
    """

    __slots__ = (
        "_actions",
        "_observation",
        "_places",
        "_question",
        "_shown",
        "hidden",
        "known",
        "position",
        "rules",
        "seat",
        "unseen",
    )

    def __init__(self, state: Views, seat: int) -> None:
        """The view of ``seat`` of ``state`` now (see :meth:`GameState.view`)."""
        self.seat = seat
        """The seat whose view it is."""
        self.rules: Ruleset = state.rules
        """The variant's rules (public, shared, never changed)."""
        fields = fields_of(state)
        self.position: dict[str, Any] = {
            name: fields[name] if copy is None else copy(fields[name])
            for name, copy in _VIEW_COPIED
            if name in fields  # (not the JSON form's computed keys)
        }
        """The public fields of the state, copied (every field but :data:`VIEW_HIDDEN`)."""
        self.position["extra"] = {
            key: value.seen_by(seat)
            for key, value in state.extra.items()
            if isinstance(value, PluginState)  # (a plain JSON state says nothing of who sees it)
        }
        self.position["turn"] = _turn_seen_by(state.turn, seat)
        seen = state.exposed
        bits = state.deck.bits
        self.known: tuple[tuple[int, ...], ...] = tuple(
            tuple(hand) if other == seat else tuple(c for c in hand if seen & bits[c])
            for other, hand in enumerate(state.hands)
        )
        """For each seat, the cards in its hand this seat has seen (its own: the whole hand)."""
        self.hidden: tuple[int, ...] = tuple(
            len(hand) - len(known) for hand, known in zip(state.hands, self.known, strict=True)
        )
        """For each seat, how many cards of its hand this seat has not seen."""
        placed = {card for hand in self.known for card in hand}
        hidden = [card for hand in state.hands for card in hand if card not in placed]
        self.unseen: tuple[int, ...] = tuple(sorted(hidden + state.stock))
        """The cards whose place this seat does not know: in the others' hands or the stock."""
        # What the observation shows that the position does not say, kept as the state
        # says it (see :attr:`observation`): the places (a plain JSON state may keep some),
        # the question, and the legal actions, as the seat to act sees them (in a phase a
        # plugin opened, only its texts: the actions may name cards the seat has not seen).
        places = state.places()
        self._places: dict[str, tuple[int, ...]] = {
            name: tuple(cards) for name, cards in places.items()
        }
        phase = state.phase
        self._question: dict[str, Any] | None = state._asked() if phase == QUESTION else None
        self._actions: tuple[Action, ...] | None = None
        self._shown: tuple[str, ...] | None = None
        if phase != GAME_OVER and state.to_act == seat:
            if phase in (PLAY, TURN):
                self._actions = tuple(state.legal_actions())
            else:
                self._shown = tuple(state._legal_shown())
        self._observation: dict[str, Any] | None = None

    @property
    def observation(self) -> dict[str, Any]:
        """The seat's observation (:meth:`Views.observation`), the same view as JSON-able data.

        Written from the view itself when first read (never from the game's state), then
        kept.
        """
        seen = self._observation
        if seen is None:
            seen = self._observation = self._observe()
        return seen

    def _observe(self) -> dict[str, Any]:
        """Write :attr:`observation` from the view: its state, every unseen card left out."""
        rules = self.rules
        shared = {
            "rules": rules,
            "deck": rules.deck,
            "players": rules.players,
            "side_of": rules.side_of,
        }  # (the notation and the observation read no other of the shared fields)
        state = view_state(self, Views, shared)
        state.stock = list(self.unseen[: self.stock_size])  # (only how many is read)
        seen = state._observed(self.seat, self._places)
        seen["hand_sizes"] = [
            len(known) + hidden for known, hidden in zip(self.known, self.hidden, strict=True)
        ]
        if self._question is not None:
            seen["question"] = dict(self._question, answers=list(self._question["answers"]))
        if self._actions is not None:
            seen["legal"] = [state.action_text(action) for action in self._actions]
        elif self._shown is not None:
            seen["legal"] = list(self._shown)
        return seen

    @property
    def deck(self) -> Deck:
        """The variant's deck: faces, suits, ranks and texts of the card numbers."""
        return self.rules.deck

    @property
    def hand(self) -> tuple[int, ...]:
        """The seat's own hand."""
        return self.known[self.seat]

    @property
    def stock_size(self) -> int:
        """How many concealed cards the stock holds (the turn-up not counted)."""
        return len(self.unseen) - sum(self.hidden)

    def __getattr__(self, name: str) -> Any:
        """A public field of the position (``phase``, ``to_act``, ``trump``, ``turn_up``...)."""
        try:
            return self.position[name]
        except KeyError:
            raise AttributeError(f"a view has no {name!r}") from None

    def __repr__(self) -> str:
        """``<View seat 0: hand 3 of 9, stock 22, phase play>``."""
        return (
            f"<View seat {self.seat}: hand {self.position['hand_no']}, "
            f"stock {self.stock_size}, phase {self.position['phase']}>"
        )


def view_state(view: View, kind: type[_S], shared: Mapping[str, object]) -> _S:
    """The view's position as a state of class ``kind``, every unseen card left out.

    Its fields are copies of the view's (a view may give many states, which must not
    share its lists), its hands hold the cards the seat has seen, its stock is empty,
    its plugins' states are as the seat sees them, and ``shared`` gives the fields every
    state of the rules shares (:data:`SHARED_FIELDS`).  Its seed and stacked decks are
    nobody's, and its generator is seeded with 0.
    """
    state = blank(kind)
    fields: dict[str, Any] = {}
    copiers = _COPIERS
    for name, value in view.position.items():
        copier = copiers.get(name)
        fields[name] = value if copier is None else copier(value)
    fields["extra"] = dict(view.position["extra"])  # as the seat sees them
    fields.update(shared)
    fields["hands"] = [list(cards) for cards in view.known]
    fields["stock"] = []
    fields["seed"] = 0
    fields["decks"] = []
    fields["_random"] = RandomSource(seed=0)  # (made if it is read)
    fields["_legal"] = None
    fields["_origin"] = NOT_COPIED  # its inputs do not rebuild it: it copies itself to restore
    set_fields(state, fields)
    state._count_hands()
    return state


_COPIERS = {f.name: f.copy for f in FIELDS if f.copy is not None}
"""How :func:`view_state` copies the view's fields."""


def card_order(deck: Deck, trump: int, card: int) -> tuple[int, int, int]:
    """Where ``card`` goes in a hand shown to a player: trumps first, then by suit and rank."""
    suit = deck.card_suit[card]
    return (suit != trump, suit, deck.card_rank[card])


def sorted_hand(view: View) -> list[str]:
    """The seat's own cards as tokens, trumps first, then by suit and rank (high first)."""
    return in_hand_order(view.deck, view.trump, view.hand, view.observation["hand"])


def in_hand_order(deck: Deck, trump: int, cards: Sequence[int], tokens: Sequence[str]) -> list[str]:
    """``tokens`` (one a card of ``cards``) in the order a hand is shown (:func:`card_order`)."""
    order = sorted(range(len(cards)), key=lambda i: (*card_order(deck, trump, cards[i]), cards[i]))
    return [tokens[i] for i in order]

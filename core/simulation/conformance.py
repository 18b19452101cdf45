"""Random-simulation conformance of any variant, and perft counts (the test kit's checks).

The checks OpenSpiel's ``random_sim_test`` makes of a game, and chess engines' perft,
for any variant, a plugin author's own included (:mod:`bezique.testing` offers them):

* :func:`check_invariants`: what must hold after every action of any variant;
* :func:`check_legal_actions`: a list of legal actions, never empty before the game's
  end, with no two actions alike, nor two of the same text or id, each text read back
  as its action;
* :func:`check_round_trip`: a clone and the state saved and loaded again are the
  state, with the same legal actions, and go on alike under the same next action;
* :class:`SeenCards` and :func:`check_views`: no seat's view shows a card of another
  hand that the seat has not seen, the seen cards worked out from the public record of
  the hand rather than by the view's code;
* :func:`game_length_bound`: how many hands and actions a game of a variant may take;
* :func:`check_random_games`: seeded games between random players making every check
  above, refereed games with irregularities reported at random
  (:func:`random_table_action`);
* :func:`perft`: the number of legal actions at a depth below a position, summed over
  the tree of the game, a regression count like chess perft.
"""

from __future__ import annotations

import math
import os
import random
import re
import warnings
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from bezique.actions import TABLE_KINDS, Action
from bezique.cards import CardError
from bezique.engine.state import SAVED
from bezique.errors import BeziqueError
from bezique.game import GameState, from_json, new_game, ruleset_for
from bezique.rules.ruleset import Ruleset
from bezique.variant import Variant

__all__ = [
    "ACTIONS_PER_CARD",
    "SHOWING_RULES",
    "TABLE_CLAIMS",
    "TABLE_REPORTS",
    "GameLength",
    "SeenCards",
    "check_invariants",
    "check_legal_actions",
    "check_random_games",
    "check_round_trip",
    "check_views",
    "game_length_bound",
    "note_table_action",
    "perft",
    "random_table_action",
]

TABLE_REPORTS = (
    "irregular nine_cards {seat}",
    "irregular drew_out_of_turn {seat}",
    "irregular played_with_seven {seat}",
    "irregular led_out_of_turn {seat}",
    "irregular revoke {seat}",
    "irregular drew_two {seat}",
    "irregular dealt_too_few {seat} 1",
    "irregular dealt_too_many {seat} 1",
    "irregular dealt_too_many {seat} 1 unnoticed",
    "irregular overdrew {seat}",
    "irregular both_too_many",
    "irregular exposed_card {card}",
)
"""Reports :func:`random_table_action` tries; the rules refuse those that do not fit."""
TABLE_CLAIMS = ("add", "deduct", "take_back", "complete", "new_deal", "play_on")
"""Options :func:`random_table_action` tries for a claim on the last report accepted."""
ACTIONS_PER_CARD = 3
"""The generous cap of :func:`game_length_bound` on a hand's actions, per card of the deck.

Each card is played once a hand, and each trick opens at most one turn, ended by one
action; what a turn holds besides (declarations, an exchange) is not bounded by the
rules' numbers, so the cap is stated: random games take about 1.1 actions a card."""
REFEREED_LENGTH_FACTOR = 2
"""How many times :func:`game_length_bound` a refereed game with random reports may take:
a penalty deducted, or a hand dealt again, gives back what the bound counts on."""
SHOWING_RULES = ("carte_blanche",)
"""The rules (and their sub-rules, ``carte_blanche.drawn``) whose scores show the cards
their detail lists: :class:`SeenCards` counts them seen."""
REPORT_CHANCE = 0.1
"""In a refereed game of :func:`check_random_games`, the chance before each action of
trying a report or a claim."""


# --------------------------------------------------------------------------- invariants


def check_invariants(state: GameState) -> None:
    """Assert what must hold after every action of any variant (for conformance tests).

    Every physical card is in exactly one place; hand sizes are what the deal
    and the draws make them (unless a table action was accepted this hand: an
    irregularity reported may leave a hand short or long); the scores equal the
    sum of the score events; a game not over has a legal action.
    """
    places: list[int] = []
    for hand in state.hands:
        places.extend(hand)
    for won in state.won:
        places.extend(won)
    places.extend(state.trick)
    places.extend(state.stock)
    if state.turn_up >= 0:
        places.append(state.turn_up)
    places.extend(state.extra_cards())
    if sorted(places) != list(range(state.deck.size)):
        counts = Counter(places)
        wrong = sorted(c for c in range(state.deck.size) if counts[c] != 1)
        raise AssertionError(f"cards not in exactly one place: {wrong[:8]}")
    totals = [0] * len(state.scores)
    for event in state.events:
        totals[state.side_of[event.player]] += event.points
    if totals != state.scores:
        raise AssertionError(f"scores {state.scores} differ from their events {totals}")
    if not state.is_over() and not state.legal_actions():
        raise AssertionError("no legal action in a game that is not over")
    if not state.table_acted:
        _check_hand_sizes(state)
    for seat, hand in enumerate(state.hands):
        if not all(state.on_table[c] is False for c in state.won[seat]):
            raise AssertionError("a card won in a trick lies on the table")
        for card in hand:
            if state.on_table[card] and not state.stock_left():
                raise AssertionError("a card lies on the table after the stock is gone")


def _check_hand_sizes(state: GameState) -> None:
    """Between draws every hand is full; a card played to the trick is missing till the draw.

    In the end-game every seat that plays the tricks loses a card a trick; when
    only some seats play them (S0's duels), the cards in hand are those dealt
    less those played since the stock ran out.
    """
    if state.is_over():
        return
    size = state.rules.data["deal"]["hand_size"]
    played_in_trick = set(state.trick_seats)
    if not state.stock_left() and len(state.trick_order) < state.players:
        played = len(state.played) - _endgame_start(state) * state.players
        held = sum(map(len, state.hands))
        if held != size * state.players - played:
            raise AssertionError(f"{held} cards in hand, {played} played in the end-game")
        return
    for seat, hand in enumerate(state.hands):
        if state.stock_left():
            expected = size - (seat in played_in_trick or state.phase == "turn")
        else:
            left = size - state.tricks_done + _endgame_start(state)
            expected = left - (seat in played_in_trick)
        if len(hand) != expected:
            raise AssertionError(f"seat {seat} holds {len(hand)} cards, expected {expected}")


def _endgame_start(state: GameState) -> int:
    """The number of tricks played before the end-game began."""
    dealt: int = state.rules.data["deal"]["hand_size"] * state.players
    return (state.deck.size - dealt) // state.players


# --------------------------------------------------------------------------- legal actions


def check_legal_actions(state: GameState, *, read_back: bool = True) -> list[Action]:
    """Assert that the legal actions are a list without repeats; return it.

    Before the game's end the list is not empty; no two actions are equal, no two
    have the same text or the same id (:meth:`GameState.action_id`), and
    (``read_back``) each text reads back as its action.  At the game's end it is empty.
    """
    legal = state.legal_actions()
    if state.is_over():
        if legal:
            raise AssertionError(f"legal actions after the game's end: {legal[:4]}")
        return legal
    if not legal:
        raise AssertionError(f"no legal action before the game's end (phase {state.phase})")
    texts = [state.action_text(action) for action in legal]
    for what, values in (
        ("action", legal),
        ("text", texts),
        ("id", state.legal_action_ids()),
    ):
        repeated = [value for value, count in Counter(values).items() if count > 1]
        if repeated:
            raise AssertionError(f"an {what} is listed twice: {repeated[0]!r} in {texts}")
    for action, text in zip(legal, texts, strict=True):
        if read_back and state.parse_action(text) != action:
            raise AssertionError(f"{text!r} reads back as {state.parse_action(text)!r}")
    return legal


# --------------------------------------------------------------------------- round trips


_RULES_FIELDS = ("variant_data", "variant_digest", "bezique_version")
"""The saved fields that are the rules' (compared once a copy, not at every action)."""
_QUICKER: dict[str, Callable[[Any], Any]] = {"history": tuple, "events": tuple, "on_table": list}
"""Snapshots of fields equal exactly when the JSON form's are, quicker to take."""
_COMPARED = tuple(
    (f.name, _QUICKER.get(f.name, f.write))
    for f in SAVED
    if f.name not in (*_RULES_FIELDS, "_random")
)
"""The fields :func:`_fingerprint` takes: all the JSON form's but the rules' and the
generator's (which a clone shares until one of them shuffles, and which decides no more
than the next hand's deal: compared where the saved copy is)."""


def _fingerprint(state: GameState) -> list[Any]:
    """The state's JSON form but the rules and the generator: equal when their fields are."""
    values = [getattr(state, name) for name, _ in _COMPARED]
    return [
        value if take is None else take(value)
        for value, (_, take) in zip(values, _COMPARED, strict=True)
    ]


def _generator_state(state: GameState) -> object:
    """The state of the generator that shuffles the next hands."""
    return state._random.generator.getstate()


def _accepts(state: GameState, action: Action | str) -> bool:
    """Apply ``action`` if the rules accept it; a refusal must leave the state as it was."""
    if not isinstance(action, str) and action.kind not in TABLE_KINDS:
        state.apply(action)  # (a legal action: refused, it raises)
        return True
    before = _fingerprint(state)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # old report forms too
            state.apply(action)
    except BeziqueError:
        if _fingerprint(state) != before:
            raise AssertionError(f"refused {action!r} changed the state") from None
        return False
    return True


def _load(state: GameState) -> GameState:
    """``from_json(state.to_json())``, quiet about the old report forms its history may hold."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return from_json(state.to_json())


def check_round_trip(state: GameState, action: Action | str, *, load: bool = True) -> bool:
    """Apply ``action`` to ``state``, checking its copies against it; return if accepted.

    Before it, a clone and (``load``) ``from_json(state.to_json())`` equal the state
    and list the same legal actions; the action applied to the clone leaves the state
    as it was; then the action is applied to each of them, and they accept or refuse
    it alike and end equal.  ``action`` may be a table action the rules refuse (a
    refusal changes nothing); a legal action must be accepted.
    """
    return _round_trip(state, action, load, _fingerprint(state))[0]


def _round_trip(
    state: GameState, action: Action | str, load: bool, before: list[Any]
) -> tuple[bool, list[Any]]:
    """:func:`check_round_trip`, given the state's fingerprint; return its fingerprint after.

    Equal means equal JSON forms: the saved copy is compared whole (``==``), then,
    like the clone, which shares the rules, by its fingerprint.
    """
    twins = [state.clone()]
    if load:
        loaded = _load(state)
        if loaded != state:
            raise AssertionError("the state saved and loaded again differs from it")
        if _generator_state(twins[0]) != _generator_state(state):
            raise AssertionError("a clone shuffles otherwise than the state")
        twins.append(loaded)
    legal = state.legal_actions()
    for twin in twins:
        if _fingerprint(twin) != before:
            raise AssertionError("a copy differs from the state")
        if twin.legal_actions() != legal:
            raise AssertionError("a copy lists other legal actions")
    accepted = _accepts(twins[0], action)
    if _fingerprint(state) != before:
        raise AssertionError("an action applied to a clone changed the original")
    if _accepts(state, action) != accepted:
        raise AssertionError(f"the state and its clone judge {action!r} differently")
    if not accepted and action in legal:
        raise AssertionError(f"a legal action {action!r} was refused")
    after = _fingerprint(state) if accepted else before
    for twin in twins[1:]:
        if _accepts(twin, action) != accepted:
            raise AssertionError(f"the state and its saved copy judge {action!r} differently")
    for twin in twins:
        if _fingerprint(twin) != after:
            raise AssertionError(f"a copy went on otherwise than the state after {action!r}")
    return accepted, after


# --------------------------------------------------------------------------- views


_SHOWN_DRAWS = re.compile(r"irregular (drew_two|drew_out_of_turn) ")
"""The reports after which the Portland laws 28 and 29 show cards drawn (``seen_cards``)."""


class _Before(NamedTuple):
    """What :class:`SeenCards` notes of a state before an action."""

    public: frozenset[int]
    events: int
    stock: int
    hands: tuple[frozenset[int], ...]


class SeenCards:
    """The cards of each hand that every seat has seen, worked out from the public record.

    Built from what happens at the table, not from the views: a card is seen in a
    hand, until it leaves that hand or the hand is dealt again, when

    * an action names it (declared, announced, shown, exchanged) and it is then in a hand;
    * it was face up (the turn-up, a card played to a trick, on a table, in a plugin's
      open places) and goes into a hand (the turn-up taken or drawn, a lead taken back);
    * it went back on the stock from a hand, seen there or named by the report or claim
      that sent it back (a surplus returned), and is drawn again;
    * a seat scores points by a rule of :data:`SHOWING_RULES` (a carte blanche shown, a
      card drawn shown to score it again): the cards its detail lists, every one of them
      dealt to him or come into his hand with the action that scored;
    * with the Portland laws (``penalties.seen_cards: shown``), after a report that two
      cards were lifted or a card drawn out of turn: the cards last drawn and those of
      the next draw (more than the laws show at times; never less).

    Call :meth:`before` before each action and :meth:`after` after it.
    """

    def __init__(self, state: GameState) -> None:
        """Start from ``state`` just dealt (or anywhere in its first moments)."""
        self.seen: list[set[int]] = [set() for _ in range(state.players)]
        """For each seat, the cards of its hand that every seat has seen."""
        self._deal = (state.hand_no, 0)
        self._shown_draw = False
        self._stock: set[int] = set()
        """Cards in the stock whose faces all know (seen, or named, as they went back)."""
        self._read_events(state, 0)

    def before(self, state: GameState) -> _Before:
        """Note what the next action may reveal."""
        public = {*state.played, *state.trick, *state.extra_cards(), state.turn_up, *self._stock}
        public.update(c for hand in state.hands for c in hand if state.on_table[c])
        hands = tuple(frozenset(hand) for hand in state.hands)
        return _Before(frozenset(public), len(state.events), len(state.stock), hands)

    def after(self, state: GameState, action: Action | str, before: _Before) -> None:
        """Bring the seen cards up to date after ``action`` (its text or its value)."""
        text = action if isinstance(action, str) else state.action_text(action)
        named = set() if isinstance(action, str) or action.kind in TABLE_KINDS else action.cards
        deal = (state.hand_no, text.endswith(" new_deal") + self._deal[1])
        if deal != self._deal:  # a new hand, or the hand dealt again: nothing is seen
            self._deal = deal
            self.seen = [set() for _ in range(state.players)]
            self._shown_draw = False
            self._stock = set()
            self._read_events(state, before.events)
            return
        self._note_stock(state, text, before)
        drawn = len(state.stock) < before.stock
        for seat, hand in enumerate(state.hands):
            seen = self.seen[seat]
            seen.intersection_update(hand)
            seen.update(c for c in hand if c in before.public or c in named)
            if self._shown_draw and drawn:
                seen.update(set(hand) - before.hands[seat])
        if drawn:
            self._shown_draw = False
        if _SHOWN_DRAWS.match(text) and _laws_show_draws(state):
            self._shown_draw = True
            for seat, hand in enumerate(state.hands):
                self.seen[seat].update(hand[-1:])
        self._read_events(state, before.events, before)

    def _note_stock(self, state: GameState, text: str, before: _Before) -> None:
        """Keep the cards of the stock whose faces all know: seen or named as they went back."""
        stock = set(state.stock)
        named = _card_faces(state, " ".join(w for w in text.split() if len(w) == 2)) or []
        for seat, hand in enumerate(before.hands):
            for card in hand & stock:
                if card in self.seen[seat] or state.deck.card_face[card] in named:
                    self._stock.add(card)
        self._stock &= stock

    def _read_events(self, state: GameState, start: int, before: _Before | None = None) -> None:
        """Mark the cards that the score events of this hand from ``start`` on show.

        A score by a rule of :data:`SHOWING_RULES` shows the cards its detail lists, when
        all of them came into the seat's hand with the action (``before``; else at the
        deal), the latest come first.
        """
        for index in range(start, len(state.events)):
            event = state.events[index]
            if state.event_hands[index] != state.hand_no or event.points <= 0:
                continue
            if event.rule.split(".")[0] not in SHOWING_RULES:
                continue
            faces = _card_faces(state, event.detail)
            if faces is None:
                continue
            hand = state.hands[event.player]
            if before is not None:
                hand = [c for c in hand if c not in before.hands[event.player]]
            chosen: set[int] = set()
            for face in faces:
                match = next(
                    (
                        c
                        for c in reversed(hand)
                        if c not in chosen and state.deck.card_face[c] == face
                    ),
                    None,
                )
                if match is not None:
                    chosen.add(match)
            if len(chosen) == len(faces):  # (a detail naming cards elsewhere shows none)
                self.seen[event.player].update(chosen)


def _card_faces(state: GameState, detail: str) -> list[int] | None:
    """The faces ``detail`` lists, when it is made of card texts only; else None."""
    words = detail.split()
    if not words:
        return None
    try:
        return [state.deck.parse_face(word) for word in words]
    except CardError:
        return None


def _laws_show_draws(state: GameState) -> bool:
    penalties = state.rules.data.get("penalties") or {}
    return bool(penalties.get("seen_cards") == "shown")


def _face_of_token(state: GameState, token: str) -> int:
    """The face of a card token of an observation (``QS``, ``QS*``, ``QS@beziques``)."""
    return state.deck.parse_face(re.split(r"[*@]", token, maxsplit=1)[0])


def check_views(state: GameState, seen: SeenCards) -> None:
    """Assert that no seat's view or observation shows a card of another hand it has not seen.

    For each seat: its view's hand is exactly its hand, and so is its observation's;
    the cards the view knows in each other hand are cards seen there (``seen``), the
    rest counted as hidden; its unseen cards are exactly the stock and the hidden
    cards; the observation's table of each other seat shows only cards seen there, and
    the sizes of the hands as they are.
    """
    faces = state.deck.card_face
    for seat, hand in enumerate(state.hands):
        view = state.view(seat)
        shown = state.observation(seat)
        if sorted(view.hand) != sorted(hand):
            raise AssertionError(f"seat {seat}'s view holds another hand than his")
        if sorted(_face_of_token(state, t) for t in shown["hand"]) != sorted(
            faces[c] for c in hand
        ):
            raise AssertionError(f"seat {seat}'s observation shows another hand than his")
        if shown["hand_sizes"] != [len(h) for h in state.hands]:
            raise AssertionError(f"seat {seat}'s observation counts the hands wrong")
        hidden: list[int] = list(state.stock)
        for other, cards in enumerate(state.hands):
            if other == seat:
                continue
            known = set(view.known[other])
            leaked = known - seen.seen[other]
            if leaked or not known <= set(cards):
                texts = sorted(state.deck.card_text(c) for c in leaked or known)
                raise AssertionError(
                    f"seat {seat}'s view knows unseen cards of seat {other}: {texts}"
                )
            if view.hidden[other] != len(cards) - len(known):
                raise AssertionError(f"seat {seat}'s view counts seat {other}'s hidden cards wrong")
            hidden.extend(c for c in cards if c not in known)
            table = Counter(_face_of_token(state, t) for t in shown["table"][other])
            if table - Counter(faces[c] for c in seen.seen[other]):
                raise AssertionError(f"seat {seat} is shown unseen cards of seat {other}'s table")
        if sorted(view.unseen) != sorted(hidden):
            raise AssertionError(f"seat {seat}'s view has other unseen cards than the game")


# --------------------------------------------------------------------------- game length


class GameLength(NamedTuple):
    """The most hands, and actions, a game may take (:func:`game_length_bound`)."""

    hands: int
    actions: int


def game_length_bound(rules: Ruleset) -> GameLength | None:
    """The most hands and actions a game of ``rules`` can take, or None if the rules set none.

    Every hand scores at least its brisques (unless they count only at the game's
    settlement) and its last trick, shared among the sides; so after ``n`` hands the
    sides hold at least ``n`` times that between them, and one of them has reached the
    target once ``n`` times it makes the target once for each side.  A hand takes at
    most :data:`ACTIONS_PER_CARD` actions a card of the deck (a stated cap), and one
    more for each question before its first lead.  A game of one deal takes one hand.
    """
    data = rules.data
    per_hand_actions = ACTIONS_PER_CARD * rules.deck.size + rules.players
    if rules.target is None:  # one deal is the game
        return GameLength(1, per_hand_actions)
    per_hand = int((data.get("last_trick") or {}).get("points", 0))
    brisques = data.get("brisques") or {}
    if brisques.get("timing") in ("immediate", "end_of_hand"):
        ranks = set(brisques.get("ranks", ()))
        count = sum(rules.deck.ranks[rank] in ranks for rank in rules.deck.card_rank)
        per_hand += count * int(brisques.get("points", 0))
    if per_hand <= 0:
        return None
    sides = max(rules.side_of) + 1
    hands = math.ceil(rules.target * sides / per_hand)
    return GameLength(hands, hands * per_hand_actions)


def _check_length(state: GameState, bound: GameLength) -> None:
    hands = state.hand_no + 1
    if hands > bound.hands or len(state.history) > bound.actions:
        raise AssertionError(
            f"the game is longer than its bound: {hands} hands and {len(state.history)} "
            f"actions, at most {bound.hands} and {bound.actions}"
        )


# --------------------------------------------------------------------------- random games


def random_table_action(state: GameState, rng: random.Random, last: list[str]) -> str:
    """A random report (:data:`TABLE_REPORTS`) or claim on the last report, as text.

    ``last`` holds the name of the last report accepted, if any (the caller keeps it
    up to date with :func:`note_table_action`): a claim on it is drawn six times in
    ten.  The rules judge it when it is applied.
    """
    if last and rng.random() < 0.6:
        return f"claim {last[0]} {rng.choice(TABLE_CLAIMS)}"
    card = state.deck.card_text(rng.randrange(state.deck.size))
    return rng.choice(TABLE_REPORTS).format(seat=rng.randrange(state.players), card=card)


def note_table_action(text: str, accepted: bool, last: list[str]) -> None:
    """Keep ``last`` (see :func:`random_table_action`) after ``text`` was applied or refused."""
    if not accepted:
        return
    if text.startswith("claim "):
        last.clear()
    else:
        last[:] = [text.split()[1]]


def check_random_games(
    variant: str | os.PathLike[str] | Variant | Ruleset,
    games: int = 2,
    seed: int = 0,
    *,
    referee: bool = False,
    overrides: Mapping[str, Any] | None = None,
    thorough: int = 120,
    every: int = 40,
    length: GameLength | None = None,
    hands: int | None = None,
) -> list[GameState]:
    """Play ``games`` seeded games between random players, checking them; return them.

    At every action: :func:`check_invariants`, :func:`check_legal_actions`, a clone
    by :func:`check_round_trip`, and the game's length against ``length`` (default
    :func:`game_length_bound`, times :data:`REFEREED_LENGTH_FACTOR` in a refereed
    game; a variant whose rules set no bound must give one).  At each of a game's
    first ``thorough`` actions and every ``every``-th after, and at its end: the state
    saved and loaded again too, and :func:`check_views` against :class:`SeenCards`.
    ``referee`` plays refereed games (``new_game(..., referee=True)``) where, before
    each action, a report or claim is tried at random (:func:`random_table_action`)
    one time in ten.  ``hands`` stops each game after that many hands, its end
    unchecked.  Raise ``AssertionError`` naming the game's seed and the action.
    """
    rules = ruleset_for(variant, overrides)
    bound = length or game_length_bound(rules)
    if bound is None:
        raise ValueError(f"{rules.variant.name}: no bound on a game's length; give one")
    if referee and length is None:
        bound = GameLength(*(REFEREED_LENGTH_FACTOR * n for n in bound))
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        game_seed = rng.randrange(2**63)
        state = new_game(rules, seed=game_seed, referee=referee)
        try:
            _play_checked(state, rng, bound, referee, (thorough, every, hands))
        except AssertionError as error:
            where = f"seed {game_seed}, action {len(state.history)}"
            raise AssertionError(f"{rules.variant.name} ({where}): {error}") from error
        played.append(state)
    return played


def _play_checked(
    state: GameState,
    rng: random.Random,
    bound: GameLength,
    referee: bool,
    pace: tuple[int, int, int | None],
) -> None:
    """Play ``state`` at random, checking it as :func:`check_random_games` says.

    ``pace`` is its ``thorough``, ``every`` and ``hands``.
    """
    thorough, every, hands = pace
    seen = SeenCards(state)
    last: list[str] = []
    steps = 0
    fingerprint = _fingerprint(state)
    while True:
        full = steps < thorough or steps % every == 0 or state.is_over()
        check_invariants(state)
        legal = check_legal_actions(state, read_back=full)
        _check_length(state, bound)
        if full:
            check_views(state, seen)
        if state.is_over():
            break
        if hands is not None and state.hand_no >= hands:
            return
        action: Action | str = rng.choice(legal)
        if referee and rng.random() < REPORT_CHANCE:
            action = random_table_action(state, rng, last)
        before = seen.before(state)
        accepted, fingerprint = _round_trip(state, action, full, fingerprint)
        if isinstance(action, str):
            note_table_action(action, accepted, last)
        if accepted:
            seen.after(state, action, before)
            steps += 1
    check_round_trip_at_end(state)


def check_round_trip_at_end(state: GameState) -> None:
    """Assert that a finished game saves, loads and clones to itself, and takes no action."""
    data = state.to_json()
    if _load(state).to_json() != data or state.clone().to_json() != data:
        raise AssertionError("a finished game does not copy to itself")
    if _accepts(state, "draw"):
        raise AssertionError("a finished game took an action")


# --------------------------------------------------------------------------- perft


def perft(state: GameState, depth: int) -> int:
    """The number of legal actions ``depth`` actions deep below ``state``, summed over the tree.

    Depth 1 is the number of legal actions now; depth 2 the sum, over them, of the
    number legal after each; and so on (chess perft's count of the leaves).  Chance
    goes as the state's seed and stock say, so the count is a function of the
    position.  A finished game counts nothing.
    """
    legal = state.legal_actions()
    if depth <= 1:
        return len(legal) if depth == 1 else 1
    total = 0
    for action in legal:
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total

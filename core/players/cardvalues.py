"""What the ``heuristic`` player knows of a variant's cards, compiled once per ruleset.

:class:`CardTables` reads the merged variant data (``view.rules.data``): the
brisques and what they are worth, the combination table as forms to collect
(same-suit runs, same-rank fours, bezique pairs), the bezique cards of each
trump suit, the seven of trumps and the last trick.  :func:`keep_values` then
says, for each card of a hand, what holding it is worth: the combinations it
helps towards (its share of their points), and its strength for the end-game.
It is the card-counting half of the player; :mod:`bezique.players.heuristic`
decides from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, cast

from bezique.engine.views import View
from bezique.game import GameState
from bezique.rules.ruleset import Ruleset

TABLES_KEY = ("heuristic", "tables")
"""Where the tables are kept in the ruleset's memo (``Ruleset.tables``)."""


CARTE_BLANCHE = "carte_blanche"
"""The variant's section of carte blanche, and the name its announcement declares
(``declare carte_blanche``, offered before a card)."""


class Form(NamedTuple):
    """One way of scoring a combination: the faces it needs and how many copies of each."""

    name: str
    points: int
    shift: int
    """Bit offset of the combination's class in a card's ``levels``."""
    level: int
    faces: tuple[int, ...]
    """The faces that count towards it."""
    copies: int
    """Same-suit and bezique forms: copies needed of each face; fours: 0 (see ``size``)."""
    size: int
    """How many cards in all."""


class CardTables:
    """The variant's card facts the player reads, compiled once per ruleset."""

    def __init__(self, rules: Ruleset) -> None:
        """Read ``rules.data`` (see the module)."""
        data: dict[str, Any] = rules.data
        deck = rules.deck
        self.deck = deck
        self.probe = GameState(rules, seed=0)
        """A game of the variant, to ask its own rules of a trick (the trumps set each time)."""
        self.rules = rules
        self.ranks = len(deck.ranks)
        self.suits = len(deck.suits)
        brisques = data["brisques"]
        self.brisque_ranks = frozenset(deck.rank_index(r) for r in brisques["ranks"])
        worth = float(brisques["points"])
        if brisques["timing"] == "settlement":  # counted only to break a tie (Rubicon)
            worth *= 0.3
        if data.get("rubicon", {}).get("brisques") == "never":
            worth = 0.0
        self.brisque_worth = worth
        self.brisque = [
            worth if deck.card_rank[c] in self.brisque_ranks else 0.0 for c in range(deck.size)
        ]
        """For each card, what winning it in a trick scores."""
        seven = data["seven_of_trumps"]
        self.seven_rank = deck.rank_index(seven["rank"])
        self.seven_points = int(seven["exchange_points"]) + int(seven["declare_points"])
        self.show_scores = int(seven["declare_points"]) > 0
        last = data["last_trick"]
        self.last_trick_points = float(last["points"])
        self.last_at_exhaustion = last["which"] == "stock_exhausting"
        self.open_cards = "open_cards" in data
        """Polish: declarations come from cards won in tricks, never from the hand."""
        opened = data.get("open_cards", {})
        self.open_ranks = frozenset(deck.rank_index(r) for r in opened.get("ranks", ()))
        self.open_trump_ranks = frozenset(deck.rank_index(r) for r in opened.get("trump_ranks", ()))
        self.classes = rules.classes
        self.rows: dict[str, dict[str, Any]] = data.get("declarations", {}).get("combinations", {})
        blank = data.get(CARTE_BLANCHE, {})
        self.carte_blanche = int(blank["points"]) if blank.get("enabled") else 0
        """What a carte blanche announced scores its holder (0 where none is played)."""
        self.bezique_faces = {
            deck.suit_index(suit): tuple(deck.parse_face(card) for card in cards)
            for suit, cards in data.get("declarations", {}).get("bezique_cards", {}).items()
            if suit in deck.suits
        }
        self._forms: dict[int, tuple[Form, ...]] = {}
        self._forms_of_faces: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.stakes: dict[int, list[float]] = {}
        """Memo of :func:`stakes` by trump suit."""
        self._strengths: dict[int, list[float]] = {}
        self._facts: dict[int, _FormFacts] = {}

    def facts(self, trump: int) -> _FormFacts:
        """The forms of ``trump`` as the valuation reads them (made once per trump suit)."""
        found = self._facts.get(trump)
        if found is None:
            found = self._facts[trump] = _facts(self, trump)
        return found

    def strengths(self, trump: int) -> list[float]:
        """For each card, its :func:`power` with ``trump`` (made once per trump suit)."""
        found = self._strengths.get(trump)
        if found is None:
            found = self._strengths[trump] = [power(self, c, trump) for c in range(self.deck.size)]
        return found

    def points(self, name: str) -> int:
        """What the combination ``name`` scores, or a carte blanche announced (``carte_blanche``).

        0 for a name the table does not hold.
        """
        row = self.rows.get(name)
        if row:
            return int(row["points"])
        return self.carte_blanche if name == CARTE_BLANCHE else 0

    def forms(self, trump: int) -> tuple[Form, ...]:
        """The combination table as forms to collect with ``trump`` (-1: not yet fixed)."""
        found = self._forms.get(trump)
        if found is None:
            found = self._forms[trump] = tuple(
                form for name, row in self.rows.items() for form in self._compile(trump, name, row)
            )
        return found

    def forms_of_faces(self, trump: int) -> tuple[tuple[int, ...], ...]:
        """For each face, the indices in :meth:`forms` of the forms that have it."""
        found = self._forms_of_faces.get(trump)
        if found is None:
            forms = self.forms(trump)
            found = self._forms_of_faces[trump] = tuple(
                tuple(index for index, form in enumerate(forms) if face in form.faces)
                for face in range(self.deck.faces)
            )
        return found

    def _compile(self, trump: int, name: str, row: dict[str, Any]) -> list[Form]:
        deck = self.deck
        shift = 4 * self.classes.index(row["class"]) if row["class"] in self.classes else 0
        points, level = int(row["points"]), int(row.get("level", 1))
        rule = row.get("suit", "any")
        if rule == "trump":
            suits = [trump] if trump >= 0 else list(range(self.suits))
        elif rule == "plain":
            suits = [s for s in range(self.suits) if s != trump]
        else:
            suits = list(range(self.suits))
        if "beziques" in row:
            pair = self.bezique_faces.get(trump) or next(iter(self.bezique_faces.values()), ())
            pairs = int(row["beziques"])
            if not pair:
                return []
            return [Form(name, points, shift, level, pair, pairs, pairs * len(pair))]
        if "ranks" in row:
            ranks = [deck.rank_index(r) for r in row["ranks"]]
            runs = [tuple(deck.face(r, s) for r in ranks) for s in suits]
            return [Form(name, points, shift, level, run, 1, len(ranks)) for run in runs]
        if "rank" in row:
            rank = deck.rank_index(row["rank"])
            faces = tuple(deck.face(rank, s) for s in suits)
            if row.get("distinct_suits"):  # one of each suit
                return [Form(name, points, shift, level, faces, 1, len(faces))]
            return [Form(name, points, shift, level, faces, 0, int(row.get("count", 4)))]
        return []


def tables_of(rules: Ruleset) -> CardTables:
    """The player's tables of ``rules``, made once and kept in its memo."""
    found = rules.tables.get(TABLES_KEY)
    if found is None:
        found = rules.compiled(TABLES_KEY, lambda: CardTables(rules))
    return cast(CardTables, found)


OPEN_WORTH = 6.0
"""What a card that goes to the winner's open rows is worth to him (Polish: the rows are
what he declares from)."""


def stakes(tables: CardTables, trump: int) -> list[float]:
    """For each card, what winning it in a trick is worth (made once per trump suit).

    Its brisque and, in Polish, its place in the winner's open rows (S0 Polish section).
    """
    if not tables.open_cards:
        return tables.brisque
    found = tables.stakes.get(trump)
    if found is None:
        found = tables.stakes[trump] = _open_stakes(tables, trump)
    return found


def _open_stakes(tables: CardTables, trump: int) -> list[float]:
    rank_of, suit_of = tables.deck.card_rank, tables.deck.card_suit
    return [
        worth
        + OPEN_WORTH
        * (
            rank_of[c] in tables.open_ranks
            or (suit_of[c] == trump and rank_of[c] in tables.open_trump_ranks)
        )
        for c, worth in enumerate(tables.brisque)
    ]


def beats(tables: CardTables, card: int, best: int, trump: int) -> bool:
    """Whether ``card`` played after ``best`` takes the trick from it, with ``trump``.

    The variant's own trick rule says (its ``bezique_trick_winner``, asked of the two
    cards): in the ordinary game a higher card of the same suit, or a trump on a plain
    card, and of two identical cards the first played stays (S0 on play).
    """
    probe = tables.probe
    probe.trump = trump
    return tables.rules.trick_winner(probe, [best, card]) == 1


def answers(tables: CardTables, lead: int, cards: Sequence[int], trump: int) -> list[int]:
    """The cards of ``cards`` the end-game duties allow in answer to ``lead``, with ``trump``.

    The variant's own rule says (its ``bezique_legal_plays`` once the stock is gone,
    asked as if one hand held them all): in the ordinary game follow suit, win if able,
    trump if void (S0 on the last tricks).
    """
    probe = tables.probe
    probe.trump, probe.stock, probe.turn_up = trump, [], -1
    probe.trick, probe.trick_seats = [lead], [probe.leader]
    seat = (probe.leader + 1) % probe.players
    return tables.rules.legal_plays(probe, seat, list(cards))


def power(tables: CardTables, card: int, trump: int) -> float:
    """How much a card is worth for taking tricks later: trumps most, then aces.

    S0's hints to players (the paragraph on small cards and the one on aces and
    tens) keep small trumps for winning the lead back and aces for capturing
    tens; plain sevens to nines and knaves are worth nothing.
    """
    rank = tables.deck.card_rank[card]
    if tables.deck.card_suit[card] == trump:
        return 5.0 + (tables.ranks - rank) * 1.5
    if rank == 0:
        return 5.0
    return 1.5 if rank == 1 else 0.0


def keep_values(view: View, cards: Sequence[int]) -> dict[int, float]:
    """What holding each of ``cards`` (the seat's hand) is worth while the stock lasts.

    Each card gets its share of the combinations it helps towards: what the
    combination's expected value loses if the card goes, the value growing with
    the square of how much of it is held (S0's hints: a third bezique card is
    worth sacrificing much for; four aces are worth trying for only with three).
    A card already declared in a form's class at that level adds nothing to it,
    nor does a form whose cards are no longer all to be had.  Its end-game
    strength (:func:`power`) is added.
    """
    return held_values(view.rules, view.trump, view.turn_up, view.levels, view.unseen, cards)


def held_values(
    rules: Ruleset,
    trump: int,
    turn_up: int,
    levels: Sequence[int],
    unseen: Sequence[int],
    cards: Sequence[int],
) -> dict[int, float]:
    """:func:`keep_values` from the position's parts.

    The trumps, the turn-up, each card's declared levels, the cards still to be had
    (``unseen``) and the hand (``cards``).
    """
    tables = tables_of(rules)
    strength = tables.strengths(trump)
    values = {c: strength[c] for c in cards}
    available = face_counts(tables, unseen, cards)
    _add_combinations(tables, trump, turn_up, levels, available, cards, values)
    return values


class HeldWorth(NamedTuple):
    """What a hand is worth to hold, in its two parts (:func:`held_worth`)."""

    combinations: float
    """The cards' shares of the combinations they build towards (the exchange of the
    seven of trumps included)."""
    strength: float
    """Their strength for taking tricks later (:func:`power`)."""


def held_worth(
    rules: Ruleset,
    trump: int,
    turn_up: int,
    levels: Sequence[int],
    available: Sequence[int],
    cards: Sequence[int],
) -> HeldWorth:
    """The sum of :func:`held_values` over ``cards``, its two parts apart.

    ``available`` counts, face by face, the cards still to be had, the hand's
    included (:func:`face_counts`).  A search values the hands of its worlds so,
    weighing the parts by what they turned out to be worth in play
    (:mod:`bezique.players.calibration`).
    """
    tables = tables_of(rules)
    values = dict.fromkeys(cards, 0.0)
    _add_combinations(tables, trump, turn_up, levels, available, cards, values)
    strength = tables.strengths(trump)
    return HeldWorth(sum(values.values()), sum(map(strength.__getitem__, cards)))


def face_counts(tables: CardTables, *groups: Sequence[int]) -> list[int]:
    """How many of each face the groups of cards hold between them."""
    face_of = tables.deck.card_face
    counts = [0] * tables.deck.faces
    for group in groups:
        for card in group:
            counts[face_of[card]] += 1
    return counts


class _Shape(NamedTuple):
    """A form as :func:`_add_combinations` reads it (made once per trump suit)."""

    faces: tuple[int, ...]
    copies: int
    size: int
    gains: tuple[float, ...]
    """What each card needed adds with ``held`` cards of it held: ``gains[held]``."""


class _FormFacts(NamedTuple):
    """The forms of one trump suit as the valuation reads them (:meth:`CardTables.facts`)."""

    of_face: tuple[tuple[tuple[int, int, int], ...], ...]
    """For each face, each form that has it: its index, its class's shift and its level."""
    shapes: tuple[_Shape, ...]
    """Each form's shape, by index."""
    sevens: frozenset[int]
    """The cards that are the seven of trumps."""


def _facts(tables: CardTables, trump: int) -> _FormFacts:
    """The forms of ``trump`` as :func:`_add_combinations` and :func:`declarable` read them."""
    forms = tables.forms(trump)
    of_face = tuple(
        tuple((index, forms[index].shift, forms[index].level) for index in indices)
        for indices in tables.forms_of_faces(trump)
    )
    shapes = tuple(
        _Shape(
            form.faces,
            form.copies,
            form.size,
            tuple(
                form.points * ((held / form.size) ** 2 - ((held - 1) / form.size) ** 2)
                for held in range(form.size + 1)
            ),
        )
        for form in forms
    )
    deck = tables.deck
    sevens = frozenset(
        card
        for card in range(deck.size)
        if deck.card_rank[card] == tables.seven_rank and deck.card_suit[card] == trump
    )
    return _FormFacts(of_face, shapes, sevens)


def _add_combinations(
    tables: CardTables,
    trump: int,
    turn_up: int,
    levels: Sequence[int],
    available: Sequence[int],
    cards: Sequence[int],
    values: dict[int, float],
) -> None:
    """Add to ``values`` each card's share of the combinations and of the seven's exchange.

    ``available`` counts the cards still to be had by face, the hand's included.
    """
    if tables.open_cards:
        return
    facts = tables.facts(trump)
    eligible = _eligible(facts.of_face, tables.deck.card_face, levels, cards)
    shapes = facts.shapes
    for index in sorted(eligible):
        faces, copies, size, gains = shapes[index]
        needed = _needed(faces, copies, size, eligible[index], available)
        if needed is not None:
            gain = gains[needed[0]]
            for card in needed[1]:
                values[card] += gain
    if trump >= 0 and turn_up >= 0 and tables.seven_points:
        sevens = facts.sevens
        for card in cards:
            if card in sevens:
                values[card] += tables.seven_points + 2.0


def _eligible(
    of_face: Sequence[Sequence[tuple[int, int, int]]],
    face_of: Sequence[int],
    levels: Sequence[int],
    cards: Sequence[int],
) -> dict[int, dict[int, list[int]]]:
    """For each form some card counts towards (by index), those cards of ``cards``, by face.

    A card counts unless it was declared in the form's class at its level; a card is
    offered only to the forms that have its face (``of_face``, :class:`_FormFacts`).
    """
    eligible: dict[int, dict[int, list[int]]] = {}
    for card in cards:
        face = face_of[card]
        declared = levels[card]
        for index, shift, level in of_face[face]:
            if (declared >> shift) & 15 < level:
                found = eligible.get(index)
                if found is None:
                    eligible[index] = {face: [card]}
                elif face in found:
                    found[face].append(card)
                else:
                    found[face] = [card]
    return eligible


def _needed(
    faces: tuple[int, ...],
    copies: int,
    size: int,
    eligible: dict[int, list[int]],
    available: Sequence[int],
) -> tuple[int, list[int]] | None:
    """How many of a form's cards the hand holds, and which of them it needs (each shares).

    The form is ``faces``, ``copies`` of each (0: any ``size`` of them); ``eligible``
    holds the hand's cards that count towards it, by face (:func:`_eligible`).  None when
    it cannot be completed from the cards still to be had, or the hand has cards to
    spare (a form of any ``size``: no card is needed).
    """
    if copies:  # each face, copies times
        for face in faces:
            if available[face] < copies:
                return None
        held = 0
        needed: list[int] = []
        for found in eligible.values():
            count = len(found)
            if count <= copies:
                held += count
                needed.extend(found)
            else:
                held += copies
        return held, needed
    total = 0
    for face in faces:
        total += available[face]
    if total < size:
        return None
    needed = [card for found in eligible.values() for card in found]
    return (len(needed), needed) if len(needed) <= size else None


def declarable(view: View, cards: Sequence[int]) -> int:
    """The most a seat holding ``cards`` could declare now, by a rough count.

    A form whose every card it holds, not yet declared in the form's class at
    that level, with at least one card never declared: what winning a trick
    would let it score (the rules' own checks may refuse some of them).
    """
    return Declarable(view, cards).without(-1)


class Declarable:
    """:func:`declarable` of a hand with any one of its cards played, counted once."""

    def __init__(self, view: View, cards: Sequence[int]) -> None:
        """Count, for each form the cards of ``cards`` count towards, what it holds of it."""
        tables = tables_of(view.rules)
        self.levels = levels = view.levels
        self.face_of = face_of = tables.deck.card_face
        forms = tables.forms(view.trump)
        eligible = (
            {}
            if tables.open_cards
            else _eligible(tables.facts(view.trump).of_face, face_of, levels, cards)
        )
        self.rows: list[tuple[Form, dict[int, int], int, set[int]]] = []
        """Each form the whole hand completes with a card never declared (a card played
        only takes from it): the form, its cards held by face, how many never declared,
        which."""
        for index, found in eligible.items():
            form = forms[index]
            if form.copies:
                if any(len(found.get(face, ())) < form.copies for face in form.faces):
                    continue
            elif sum(map(len, found.values())) < form.size:
                continue
            counts = {face: len(group) for face, group in found.items()}
            fresh = sum(1 for group in found.values() for card in group if levels[card] == 0)
            if fresh:
                members = {card for group in found.values() for card in group}
                self.rows.append((form, counts, fresh, members))

    def without(self, played: int) -> int:
        """:func:`declarable` of the hand without the card ``played`` (-1: the whole hand)."""
        best = 0
        fresh_played = played >= 0 and self.levels[played] == 0
        face_played = self.face_of[played] if played >= 0 else -1
        for form, counts, fresh, members in self.rows:  # (the most points: any order)
            if form.points <= best:
                continue
            inside = played in members
            if fresh - (inside and fresh_played) <= 0:
                continue
            if form.copies:
                complete = all(
                    counts.get(f, 0) - (inside and f == face_played) >= form.copies
                    for f in form.faces
                )
            else:
                complete = sum(counts.values()) - inside >= form.size
            if complete:
                best = form.points
        return best

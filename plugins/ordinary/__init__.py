"""The rules of ordinary bezique, as a plugin registered like any other.

Everything a rulebook states as a number lives in the variant's YAML; this
module holds the procedures a table cannot say:

* the trick: the higher card of the suit led or a trump wins, and of two
  identical cards the first played (S0 and S2 on play);
* the end-game duties once the stock is gone: follow suit, win if able, trump if
  void and able (S0 on the last eight tricks);
* declaring after a won trick and before drawing: which combinations the winner
  may declare, the class rule (a declared card may join only a combination of
  another class or a higher one of its own), the one-new-card rule, several
  disjoint combinations per trick or one with the others announced for later
  (S0 declaring paragraph; Foster, S3, S4);
* the seven of trumps: turned up, exchanged, shown (S0, S2);
* brisques, the last trick, and who has won the game (S0 footnotes 4 and 5).

Cards a player has declared lie on the table but stay in his hand.  A card's
``state.levels`` entry keeps, four bits per combination class (in the order of
``ruleset.classes``), the highest level it has been declared at in that class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from bezique.actions import Action, Kind
from bezique.game import GameState, ScoreEvent, TurnState
from bezique.hookspecs import KeyPath, hookimpl
from bezique.plugins.ordinary import checks
from bezique.ruleset import Ruleset


@dataclass(frozen=True, slots=True, eq=False)
class Combination:
    """One row of the combination table, compiled for one trump suit.

    A slotted class rather than a named tuple: the declaration search reads
    its fields often, and slot reads are several times cheaper.  Each is made
    once per trump suit, so identity is equality.
    """

    name: str
    points: int
    shift: int
    """Bit offset of the combination's class in a card's ``levels``."""
    level: int
    faces: tuple[int, ...]
    """Same-suit combinations: the faces needed (one card of each)."""
    rank_faces: tuple[int, ...]
    """Same-rank combinations: the faces that count, and ``count`` cards of them."""
    size: int
    """How many cards: the same-suit combination's ranks, or the same-rank count."""
    distinct_suits: bool
    pairs: int
    """Bezique combinations: how many bezique pairs."""
    mask: int
    """Bit ``1 << face`` set for every face the combination can use."""
    rank: int
    """Same-rank combinations: the rank index."""
    fixes_trumps: bool
    """Declaring it names the trump suit (trumps by first marriage, before they are fixed)."""
    grows_in_one_trick: bool
    """Cards declared after the same trick in a lower combination of its class may complete it."""
    suit_forms: tuple[tuple[tuple[int, ...], int], ...] = ()
    """Same-suit combinations: for each suit's form, its faces and their mask."""
    taken_off: tuple[int, ...] = ()
    """Beziques kind under ``declarations.bezique_ladder: difference``: by the highest
    level its cards already hold in its class, the points taken off its value (empty:
    none ever)."""


CountTest = tuple[int, int, int, Combination]
"""(cards of one kind, how many, cards of a second kind needed as many times or 0, combination)."""


@dataclass(frozen=True, slots=True, eq=False)
class QuickTests:
    """Cheap first tests, for one trump suit, of what a trick's winner might declare."""

    fold: int
    """Two packs: the shift that folds a bitboard of cards onto faces (else 0)."""
    face_mask: int
    gap: int
    keys: int
    """Every form of a same-suit combination holds a face of ``keys`` and the face ``gap``
    above it: no such pair in hand, no same-suit form (see :func:`_pair_test`)."""
    forms: list[tuple[int, Combination]]
    """(face mask, combination): a form of the same-suit combination needs every face."""
    counted: list[CountTest]
    """Counting tests of same-rank and bezique combinations (see :meth:`Tables._counted`)."""
    sevens: int
    """Bit ``1 << card`` for each seven of trumps that may be exchanged or shown."""
    faces_of: Callable[[int], int]
    """:meth:`Tables.faces_of`."""
    cards: int
    """Bit ``1 << card`` for every card that some combination can use."""
    by_card: list[tuple[list[list[int]], list[tuple[int, int, int]]]]
    """For each card, the same tests restricted to the combinations it can join: for
    each form, the copies of each other face it needs; and the counting tests."""
    partners: list[int]
    """For each card, bit ``1 << card`` for every card its ``by_card`` tests read."""
    bits: list[int]
    """:attr:`Deck.bits <bezique.cards.Deck.bits>`."""
    verdicts: list[dict[int, bool]] = field(init=False, default_factory=list)
    """For each card, a memo of its ``by_card`` tests by the partners held."""

    def possible(self, held: int, fresh_cards: int) -> list[Combination]:
        """The combinations whose tests ``held`` passes with a card of ``fresh_cards``.

        The others cannot be declared; these are worth enumerating.  In table
        order, same-suit combinations first.
        """
        fold = self.fold
        present = (held | held >> fold) & self.face_mask if fold else self.faces_of(held)
        possible: list[Combination] = []
        if present & present >> self.gap & self.keys:
            if fresh_cards == held:
                fresh = present
            elif fold:
                fresh = (fresh_cards | fresh_cards >> fold) & self.face_mask
            else:
                fresh = self.faces_of(fresh_cards)
            for mask, combo in self.forms:
                if present & mask == mask and fresh & mask and combo not in possible:
                    possible.append(combo)  # a combination may have several suits' forms
        for cards, needed, others, combo in self.counted:
            if (
                (held & cards).bit_count() >= needed
                and (not others or (held & others).bit_count() >= needed)
                and fresh_cards & (cards | others)
            ):
                possible.append(combo)
        return possible

    def any_with(self, held: int, fresh_cards: int) -> bool:
        """Whether :meth:`possible` finds anything, where ``fresh_cards`` are held.

        Only the tests of the combinations each fresh card can join, read in
        card space: the yes-or-no test after a trick, when a player has drawn
        a card or two since his hand last showed nothing.  Those tests read
        only the card's partners, so their verdict is kept by the partners held.
        """
        partners, verdicts, bits = self.partners, self.verdicts, self.bits
        while fresh_cards:
            card = fresh_cards.bit_length() - 1  # the highest first
            fresh_cards ^= bits[card]
            key = held & partners[card]
            verdict = verdicts[card].get(key)
            if verdict is None:
                verdict = self.joins(card, key)
                if len(verdicts[card]) < _VERDICT_LIMIT:
                    verdicts[card][key] = verdict
            if verdict:
                return True
        return False

    def joins(self, card: int, held: int) -> bool:
        """Whether ``card``, held with ``held``, passes the tests of a combination it can join."""
        forms, counts = self.by_card[card]
        for needs in forms:
            for copies in needs:
                if not held & copies:
                    break
            else:
                return True
        for cards, needed, others in counts:
            if (held & cards).bit_count() >= needed and (
                not others or (held & others).bit_count() >= needed
            ):
                return True
        return False

    def __post_init__(self) -> None:
        """Start each card's empty memo."""
        self.verdicts.extend({} for _ in self.by_card)


_MEMO_LIMIT = 1 << 16
"""Most entries a memo of :class:`Tables` keeps (tricks of more than two cards are many)."""
_VERDICT_LIMIT = 1 << 12
"""Most verdicts :class:`QuickTests` keeps for one card (a few hundred fill in a
long benchmark; the cap bounds the memory of the 64 or more memos)."""


class Tables:
    """What the plugin compiles from a variant once, shared by every game of it."""

    def __init__(self, rules: Ruleset) -> None:
        """Compile the tables of ``rules``' variant."""
        data = rules.data
        deck = rules.deck
        self.deck = deck
        self.data = data
        self.classes = rules.classes
        self.brisque_ranks = frozenset(deck.rank_index(r) for r in data["brisques"]["ranks"])
        self.brisque_points: int = data["brisques"]["points"]
        self.brisques_now = data["brisques"]["timing"] == "immediate"
        seven = data["seven_of_trumps"]
        self.seven_rank = deck.rank_index(seven["rank"])
        self.seven = seven
        per_trick = data["declarations"]["per_trick"]
        self.one_per_trick = per_trick == "one"
        """Only one combination scores per trick won; the others are announced."""
        self.compound = per_trick == "compound"
        """Combinations declared after one trick may share cards (the class rule still holds)."""
        self.new_card_required: bool = data["declarations"]["new_card_required"]
        self.endgame = data["endgame"]
        self.game = data["game"]
        self.last_trick = data["last_trick"]
        self.last_trick_exhausts = self.last_trick["which"] == "stock_exhausting"
        self.last_trick_points: int = self.last_trick["points"]
        self.sevens_on_play = seven["scoring"] == "on_play" and data["trumps"]["mode"] == "turn_up"
        self.carte_blanche: dict[str, Any] = data.get("carte_blanche", {"enabled": False})
        self.trumps_by_marriage = data["trumps"]["mode"] == "first_marriage"
        """Trumps are named by the first marriage or sequence declared; no seven scores."""
        self.sevens_declared = (
            seven["scoring"] == "declare_or_exchange" and not self.trumps_by_marriage
        )
        self.brisque = [r in self.brisque_ranks for r in deck.card_rank]
        """For each card, whether it is a brisque."""
        self.brisque_events: dict[tuple[int, ...], tuple[ScoreEvent, ...]] = {}
        """Memo of :meth:`brisques_won`, by winner and trick."""
        self.target: int = data["game"]["target"]
        self.packs = deck.packs
        self.seven_bits = sum(1 << deck.face(self.seven_rank, s) for s in range(len(deck.suits)))
        self.by_trump: dict[int, list[Combination]] = {}
        self.show_actions = [Action(Kind.SHOW, (card,)) for card in range(deck.size)]
        self.exchange_actions = [Action(Kind.EXCHANGE, (card,)) for card in range(deck.size)]
        """The seven of trumps' actions for each card, made once (actions are immutable)."""
        self.face_mask = (1 << deck.faces) - 1
        self.face_copies = [self._copies([face]) for face in range(deck.faces)]
        """For each face, bit ``1 << card`` for each of its copies."""
        self.fold = deck.faces if self.packs == 2 else 0
        """Two packs: the shift that folds a bitboard of cards onto faces (else 0)."""
        self.tests_by_trump: dict[int, QuickTests] = {}
        self.by_name: dict[int, dict[str, Combination]] = {}
        ladder = data["declarations"].get("bezique_ladder", "additive")
        self.multiple_beziques: dict[tuple[str, int], int] = {}
        """Under ``bezique_ladder: difference``, the value of each double or higher (two or
        more bezique pairs) by class and level: what a higher one built on it takes off."""
        if ladder == "difference":
            for row in data["declarations"]["combinations"].values():
                if row.get("beziques", 0) >= 2:
                    key = (row["class"], row["level"])
                    self.multiple_beziques[key] = max(
                        row["points"], self.multiple_beziques.get(key, 0)
                    )

    def brisques_won(self, winner: int, cards: Sequence[int]) -> tuple[ScoreEvent, ...]:
        """Return the score of the brisques in the trick ``cards`` won by ``winner``, if any.

        Remembered per winner and trick (a two-hand game has a few thousand).
        """
        key = (winner, *cards)
        found = self.brisque_events.get(key)
        if found is None:
            brisques = [c for c in cards if self.brisque[c]]
            found = ()
            if brisques:
                detail = " ".join([self.deck.card_texts[c] for c in brisques])
                points = self.brisque_points * len(brisques)
                found = (ScoreEvent(winner, points, "brisques", detail),)
            if len(self.brisque_events) < _MEMO_LIMIT:
                self.brisque_events[key] = found
        return found

    def combinations(self, state: GameState) -> list[Combination]:
        """Return the combination table compiled for the current trump suit."""
        return self.combinations_for(state.trump)

    def combinations_for(self, trump: int) -> list[Combination]:
        """Return the combination table compiled for ``trump`` (-1: trumps not yet fixed)."""
        table = self.by_trump.get(trump)
        if table is None:
            table = [self._compile(trump, name, row) for name, row in self._rows()]
            self.by_trump[trump] = table
            self.by_name[trump] = {c.name: c for c in table}
        return table

    def quick_tests(self, state: GameState) -> QuickTests:
        """Return the quick tests of the current trump suit (:meth:`quick_tests_for`)."""
        return self.quick_tests_for(state.trump)

    def quick_tests_for(self, trump: int) -> QuickTests:
        """Return cheap first tests of the combinations under ``trump``.

        A list of (face mask, combination): a form of the combination needs every
        face of the mask; and, for same-rank and bezique combinations, the masks
        of :meth:`_counted`.  A combination that passes neither cannot be declared.
        And the sevens of trumps that :func:`seven_actions` looks for.
        """
        tests = self.tests_by_trump.get(trump)
        if tests is None:
            combos = self.combinations_for(trump)
            forms = [
                (mask, c)
                for c in combos
                if not c.rank_faces and not c.pairs
                for mask in _form_masks(c)
            ]
            counted = [self._counted(c) for c in combos if c.rank_faces or (c.pairs and c.faces)]
            sevens = 0
            if self.sevens_declared and trump >= 0:
                sevens = self.face_copies[self.deck.face(self.seven_rank, trump)]
            gap, keys = _pair_test([mask for mask, _ in forms], self.deck.faces)
            form_faces = 0
            for mask, _ in forms:
                form_faces |= mask
            cards = self._copies([f for f in range(self.deck.faces) if form_faces >> f & 1])
            for some, _, others, _ in counted:
                cards |= some | others
            by_card = [self._card_tests(card, forms, counted) for card in range(self.deck.size)]
            tests = QuickTests(
                self.fold,
                self.face_mask,
                gap,
                keys,
                forms,
                counted,
                sevens,
                self.faces_of,
                cards,
                by_card,
                [_partners(needs, counts) for needs, counts in by_card],
                self.deck.bits,
            )
            self.tests_by_trump[trump] = tests
        return tests

    def _card_tests(
        self, card: int, forms: list[tuple[int, Combination]], counted: list[CountTest]
    ) -> tuple[list[list[int]], list[tuple[int, int, int]]]:
        """:attr:`QuickTests.by_card` for ``card``: the tests of what it can join."""
        face = self.deck.card_face[card]
        needs = [
            [self.face_copies[other] for other in range(self.deck.faces) if mask >> other & 1]
            for mask, _ in forms
            if mask >> face & 1
        ]
        counts = [
            (some, needed, others)
            for some, needed, others, _ in counted
            if (some | others) >> card & 1
        ]
        return needs, counts

    def _counted(self, combo: Combination) -> CountTest:
        """A same-rank form needs ``size`` of its cards; a bezique form ``pairs`` of each card."""
        if combo.rank_faces:
            return self._copies(combo.rank_faces), combo.size, 0, combo
        queen, knave = (self.face_copies[face] for face in combo.faces)
        return queen, combo.pairs, knave, combo

    def _copies(self, faces: Sequence[int]) -> int:
        """Bit ``1 << card`` for every copy of ``faces``."""
        return sum(
            1 << (copy * self.deck.faces + face) for face in faces for copy in range(self.packs)
        )

    def faces_of(self, cards: int) -> int:
        """Fold a bitboard of cards into a bitboard of the faces they show."""
        faces = self.deck.faces
        if self.packs == 2:
            return (cards | cards >> faces) & self.face_mask
        found = 0
        while cards:
            found |= cards & self.face_mask
            cards >>= faces
        return found

    def combination(self, state: GameState, name: str) -> Combination | None:
        """Return the compiled combination called ``name``, if the variant has one."""
        self.combinations_for(state.trump)
        return self.by_name[state.trump].get(name)

    def _rows(self) -> Iterator[tuple[str, dict[str, Any]]]:
        yield from self.data["declarations"]["combinations"].items()

    def _compile(self, trump: int, name: str, row: dict[str, Any]) -> Combination:
        deck = self.deck
        shift = 4 * self.classes.index(row["class"])
        suit_rule = row.get("suit", "any")
        undecided = trump < 0 and self.trumps_by_marriage
        suits = _suits_for(suit_rule, len(deck.suits), trump, undecided)
        faces: tuple[int, ...] = ()
        rank_faces: tuple[int, ...] = ()
        pairs = 0
        count: int = row.get("count", 0)
        if "ranks" in row:
            count = len(row["ranks"])
            faces = tuple(deck.face(deck.rank_index(r), s) for s in suits for r in row["ranks"])
        elif "rank" in row:
            rank_faces = tuple(deck.face(deck.rank_index(row["rank"]), s) for s in suits)
        else:
            pairs = row["beziques"]
            pair = self._bezique_pair(trump)
            if pair is not None:
                faces = (deck.parse_face(pair[0]), deck.parse_face(pair[1]))
        mask = sum(1 << f for f in set(faces + rank_faces))
        rank_index = deck.rank_index(row["rank"]) if "rank" in row else -1
        suit_forms: tuple[tuple[tuple[int, ...], int], ...] = ()
        if "ranks" in row:  # one form of ``count`` faces per suit
            suit_forms = tuple(
                (form, sum(1 << f for f in form))
                for form in (faces[i : i + count] for i in range(0, len(faces), count))
            )
        return Combination(
            name,
            row["points"],
            shift,
            row["level"],
            faces,
            rank_faces,
            count,
            row.get("distinct_suits", False),
            pairs,
            mask,
            rank_index,
            undecided and suit_rule == "trump",
            row.get("grows_in_one_trick", True),
            suit_forms,
            self._taken_off(row) if pairs >= 2 else (),
        )

    def _taken_off(self, row: dict[str, Any]) -> tuple[int, ...]:
        """What a double or higher built on a lower one of its class takes off its value.

        Indexed by the highest level its cards already hold: the value of the double
        (or higher) at that level, if one is below it (``bezique_ladder: difference``);
        nothing for a single (S0 footnote 3) or under ``additive`` (A15).
        """
        found = self.multiple_beziques
        lower = [found.get((row["class"], level), 0) for level in range(row["level"])]
        return tuple(lower) if any(lower) else ()

    def _bezique_pair(self, trump: int) -> list[str] | None:
        """Return the bezique cards under ``trump``.

        Before trumps are fixed, only a pair that no trump suit changes (A11, A37).
        """
        table: dict[str, list[str]] = self.data["declarations"]["bezique_cards"]
        if trump >= 0:
            return table[self.deck.suits[trump]]
        pairs = {tuple(pair) for pair in table.values()}
        return list(pairs.pop()) if len(pairs) == 1 else None


def _partners(needs: list[list[int]], counts: list[tuple[int, int, int]]) -> int:
    """Every card that one card's tests (:attr:`QuickTests.by_card`) read."""
    partners = 0
    for copies in needs:
        for some in copies:
            partners |= some
    for cards, _, others in counts:
        partners |= cards | others
    return partners


def _form_masks(combo: Combination) -> tuple[int, ...]:
    """Masks of faces that must all be present; empty for same-rank combinations."""
    if combo.rank_faces:
        return ()
    if combo.pairs:
        return (combo.mask,) if combo.faces else ()
    return tuple(mask for _, mask in combo.suit_forms)


def _pair_test(masks: Sequence[int], faces: int) -> tuple[int, int]:
    """Return ``(gap, keys)``: each mask holds a face of ``keys`` and the face ``gap`` above it.

    Then a hand whose faces ``present`` make ``present & present >> gap & keys`` zero
    holds no whole mask.  The smallest gap that every mask has (between king and
    queen in bezique), keys chosen so that masks share them; ``(0, all faces)``
    when the masks have no common gap.
    """
    ordered = sorted(masks, key=int.bit_count)
    for gap in range(1, faces):
        keys = 0
        for mask in ordered:
            pairs = mask & mask >> gap
            if not pairs:
                break
            if not pairs & keys:
                keys |= pairs & -pairs
        else:
            return gap, keys
    return 0, (1 << faces) - 1


def _suits_for(rule: str, suits: int, trump: int, undecided: bool) -> list[int]:
    """The suits a combination can be formed in.

    ``undecided``: trumps are fixed by the first marriage and are not yet, so a
    marriage or sequence in any suit would be in trumps (A37), and none is plain.
    """
    if rule == "trump":
        return list(range(suits)) if undecided else [trump] if trump >= 0 else []
    if rule == "plain":
        return [] if undecided else [s for s in range(suits) if s != trump]
    return list(range(suits))


_KEY = __name__
"""Where this plugin keeps its tables in ``ruleset.tables``."""


def tables(state: GameState) -> Tables:
    """Return this plugin's compiled tables for ``state``'s variant."""
    found: Tables | None = state.rules.tables.get(_KEY)
    return tables_of(state.rules) if found is None else found


def tables_of(rules: Ruleset) -> Tables:
    """Return this plugin's compiled tables for ``rules``' variant (made once)."""
    return rules.compiled(_KEY, lambda: Tables(rules))


@hookimpl
def bezique_variant_problems(data: dict[str, Any]) -> list[tuple[list[KeyPath], str]]:
    """What in a variant's data these rules cannot play."""
    players: int = data["players"]
    carte_blanche = data.get("carte_blanche", {})
    if carte_blanche.get("enabled") and carte_blanche.get("from_opponent") and players > 2:
        return [
            (
                [("carte_blanche", "from_opponent"), ("players",)],
                "carte blanche taken from the opponent is S4's two-hand reading (A18); with "
                f"{players} players no source says who pays, and taken from every other player "
                "the scores may fall hand after hand so that the game never ends; set it false, "
                "or play two hands",
            )
        ]
    return []


# ---------------------------------------------------------------------- the deal


@hookimpl
def bezique_after_deal(state: GameState) -> None:
    """No seven of trumps has scored yet in the new hand."""
    state.extra["sevens_scored"] = []


@hookimpl
def bezique_deal_scores(state: GameState) -> list[ScoreEvent]:
    """A seven of trumps turned up scores for the dealer (S0 and S2 tables); carte blanche."""
    t = tables(state)
    events = []
    if state.turn_up >= 0 and state.deck.card_rank[state.turn_up] == t.seven_rank:
        state.extra["sevens_scored"].append(state.turn_up)
        points = t.seven["turn_up_points"]
        events.append(
            ScoreEvent(state.dealer, points, "seven_of_trumps.turn_up_points", "turned up")
        )
    if t.carte_blanche["enabled"]:
        events.extend(_cartes_blanches(state, t))
    return events


def _cartes_blanches(state: GameState, t: Tables) -> list[ScoreEvent]:
    """Each hand dealt without any of the carte blanche ranks is shown and scores.

    The hand is shown before the first trick (F334, A19), so the claim is made at
    the deal; the event lists the cards shown.
    """
    rule = t.carte_blanche
    barred = {state.deck.rank_index(r) for r in rule["ranks"]}
    events = []
    for seat, hand in enumerate(state.hands):
        if any(state.deck.card_rank[c] in barred for c in hand):
            continue
        shown = " ".join(state.deck.card_text(c) for c in hand)
        events.append(ScoreEvent(seat, rule["points"], "carte_blanche", shown))
        if rule["from_opponent"]:
            for other in range(state.players):
                if other != seat:
                    events.append(
                        ScoreEvent(other, -rule["points"], "carte_blanche.from_opponent", shown)
                    )
    return events


# ---------------------------------------------------------------------- tricks


@hookimpl
def bezique_trick_winner(state: GameState, cards: list[int]) -> int:
    """Return the position of the winning card: highest of the suit led, or highest trump."""
    suit_of = state.deck.card_suit
    rank_of = state.deck.card_rank
    trump = state.trump
    if len(cards) == 2:  # the two-hand game's every trick, spelt out for speed
        lead, second = cards
        if suit_of[second] == suit_of[lead]:
            return 1 if rank_of[second] < rank_of[lead] else 0
        return 1 if suit_of[second] == trump else 0
    best = 0
    best_suit = suit_of[cards[0]]
    best_rank = rank_of[cards[0]]
    for position in range(1, len(cards)):
        card = cards[position]
        suit = suit_of[card]
        if suit == best_suit:
            if rank_of[card] < best_rank:  # identical cards: the first played stays
                best, best_rank = position, rank_of[card]
        elif suit == trump:
            best, best_suit, best_rank = position, suit, rank_of[card]
    return best


@hookimpl
def bezique_legal_plays(state: GameState, player: int, cards: list[int]) -> list[int]:
    """Free play while the stock lasts; the end-game duties once it is gone."""
    if state.stock or state.turn_up >= 0 or not state.trick:
        return cards
    return endgame_plays(state, cards)


def endgame_plays(state: GameState, cards: list[int]) -> list[int]:
    """Return the cards that meet the end-game duties: follow, win if able, trump if void."""
    duties = tables(state).endgame
    suit_of = state.deck.card_suit
    rank_of = state.deck.card_rank
    trick = state.trick
    led = suit_of[trick[0]]
    best = trick[bezique_trick_winner(state, trick)]
    best_suit, best_rank = suit_of[best], rank_of[best]
    follow = [c for c in cards if suit_of[c] == led]
    if follow and duties["follow_suit"]:
        if duties["must_win"] and best_suit == led:
            beating = [c for c in follow if rank_of[c] < best_rank]
            if beating:
                return beating
        return follow
    trump = state.trump
    if not follow and duties["must_trump"] and trump >= 0 and led != trump:
        trumps = [c for c in cards if suit_of[c] == trump]
        if best_suit == trump:
            trumps = [c for c in trumps if rank_of[c] < best_rank]
        if trumps:
            return trumps
    return cards


@hookimpl
def bezique_trick_scores(state: GameState, winner: int, cards: list[int]) -> list[ScoreEvent]:
    """Brisques won (when scored at once), the last trick, and sevens scored on play."""
    t = state.rules.tables.get(_KEY) or tables(state)
    events: list[ScoreEvent] = []
    if t.brisques_now:
        brisques = t.brisque_events.get((winner, *cards))
        if brisques is None:
            brisques = t.brisques_won(winner, cards)
        if brisques:
            events.extend(brisques)
    if t.sevens_on_play and (state.stock or state.turn_up >= 0):
        events.extend(_sevens_played(state, t))
    if (
        # The trick whose draws take the last of the stock (fewer cards than players are
        # left only where a surplus went unnoticed at a refereed table).
        0 < len(state.stock) + (state.turn_up >= 0) <= state.players
        if t.last_trick_exhausts
        else not any(state.hands)
    ):
        state.last_trick_winner = winner
        events.append(ScoreEvent(winner, t.last_trick_points, "last_trick"))
    return events


def _sevens_played(state: GameState, t: Tables) -> list[ScoreEvent]:
    """The seven of trumps scores for whoever plays it while the stock lasts (A12 reading)."""
    events = []
    scored: list[int] = state.extra["sevens_scored"]
    for card, seat in zip(state.trick, state.trick_seats, strict=True):
        if _is_trump_seven(state, t, card) and card not in scored:
            scored.append(card)
            events.append(ScoreEvent(seat, t.seven["declare_points"], "seven_of_trumps.on_play"))
    return events


def _is_trump_seven(state: GameState, t: Tables, card: int) -> bool:
    deck = state.deck
    return deck.card_rank[card] == t.seven_rank and deck.card_suit[card] == state.trump


@hookimpl
def bezique_stock_exhausted(state: GameState) -> None:
    """Declared cards go back into the hands; announced combinations lapse (A38)."""
    for hand in state.hands:
        for card in hand:
            if state.on_table[card]:
                state.set_card(card, False, state.levels[card])
    state.pending = [[] for _ in range(state.players)]


@hookimpl
def bezique_hand_scores(state: GameState) -> list[ScoreEvent]:
    """Brisques counted at the end of the hand, when the variant counts them then."""
    t = tables(state)
    if t.brisques_now:
        return []
    events = []
    for seat, won in enumerate(state.won):
        count = sum(map(t.brisque.__getitem__, won))
        if count:
            events.append(ScoreEvent(seat, count * t.brisque_points, "brisques", "end of hand"))
    return events


@hookimpl
def bezique_game_winner(state: GameState, hand_over: bool) -> int:
    """The first side to reach the target wins; if several reach it at once, precedence decides."""
    t = state.rules.tables.get(_KEY) or tables(state)
    game = t.game
    if max(state.scores) < t.target or (not hand_over and game["check"] == "hand_end"):
        return -1
    scores = state.scores
    over = [side for side, score in enumerate(scores) if score >= game["target"]]
    if not over:
        return -1
    precedence = len(over) > 1 and game["both_over"] == "last_trick_winner"
    last = state.side_of[state.last_trick_winner] if state.last_trick_winner >= 0 else -1
    if precedence and last in over:
        return last
    return max(over, key=lambda side: scores[side])


# ---------------------------------------------------------------------- declaring


@hookimpl
def bezique_turn_actions(state: GameState, player: int) -> list[Action]:
    """What the trick's winner may do before drawing: the seven, then combinations."""
    return turn_actions(state, player)


Refusal = Callable[[GameState, Tables, int, Combination, tuple[int, ...], Kind], str | None]
"""The signature of :func:`declaration_refusal`, for plugins that decide declarations otherwise."""


def turn_actions(
    state: GameState,
    player: int,
    *,
    declared_bits: int | None = None,
    refusal: Refusal | None = None,
    table_cards_apart: bool = False,
) -> list[Action]:
    """The seven of trumps, then the legal combinations (:func:`bezique_turn_actions`).

    For plugins that change the declaring rules: ``declared_bits`` (bit ``1 << card``)
    are the cards that count as declared before, for the one-new-card rule (default
    ``state.declared_bits``); ``refusal`` replaces :func:`declaration_refusal`; with
    ``table_cards_apart`` each card on the table is tried on its own rather than one
    copy per ``state.card_key``.
    """
    if not state.stock and state.turn_up < 0:
        return []
    t = state.rules.tables.get(_KEY) or tables(state)
    tests = t.tests_by_trump.get(state.trump) or t.quick_tests(state)
    held = state.held[player]
    pending = state.pending[player]
    # Cards never declared; any card counts when the rules need no new card, or may
    # score an announced combination.
    declared = state.declared_bits if declared_bits is None else declared_bits
    fresh_cards = held if not t.new_card_required or pending else held & ~declared
    first_declared = state.turn.first_declared
    if first_declared:  # new when the turn began (see declaration_refusal)
        fresh_cards |= sum(1 << c for c in first_declared)
    possible = tests.possible(held, fresh_cards)
    actions = seven_actions(state, t, player) if held & tests.sevens else []
    if not possible and not pending:
        return actions
    kind = Kind.ANNOUNCE if t.one_per_trick and state.turn.scored else Kind.DECLARE
    legal = _legal_combinations(state, t, player, kind, possible, refusal, table_cards_apart)
    for combo, cards in legal:
        actions.append(Action(kind, cards, combo.name))
    return actions


def seven_actions(state: GameState, t: Tables, player: int) -> list[Action]:
    """Exchange and show for the player's first seven of trumps that has not scored."""
    if not t.sevens_declared or state.trump < 0:
        return []
    sevens = (t.tests_by_trump.get(state.trump) or t.quick_tests(state)).sevens
    unscored = state.held[player] & unscored_sevens(state, sevens)
    if not unscored:
        return []
    if unscored & (unscored - 1):  # both copies: the first in hand
        card = next(c for c in state.hands[player] if unscored >> c & 1)
    else:
        card = unscored.bit_length() - 1
    turn_up = state.turn_up
    if turn_up >= 0 and not sevens >> turn_up & 1:
        return [t.exchange_actions[card], t.show_actions[card]]
    return [t.show_actions[card]]


def unscored_sevens(state: GameState, sevens: int) -> int:
    """``sevens`` (a bitboard of sevens of trumps) less those that have scored this hand."""
    bits = state.deck.bits
    for card in state.extra["sevens_scored"]:
        sevens &= ~bits[card]
    return sevens


def _legal_combinations(
    state: GameState,
    t: Tables,
    player: int,
    kind: Kind,
    combos: list[Combination],
    refusal: Refusal | None = None,
    table_cards_apart: bool = False,
) -> list[tuple[Combination, tuple[int, ...]]]:
    """Return each distinct legal combination (one per choice that the rules tell apart)."""
    candidates = _candidates(state, t, player, combos, table_cards_apart)
    pending = state.pending[player]
    turn = state.turn
    if (
        refusal is None
        and not (turn.scored or turn.blocked or state.declared_bits & state.held[player])
        and kind == Kind.DECLARE
    ):
        # Nothing declared this turn and none of his cards ever declared: no rule of
        # declaration_refusal can refuse a form.
        legal = candidates
    else:
        refuse = refusal or declaration_refusal
        legal = [
            (combo, cards)
            for combo, cards in candidates
            if not (kind == Kind.ANNOUNCE and (combo.name, cards) in pending)
            and refuse(state, t, player, combo, cards, kind) is None
        ]
    if not (pending or table_cards_apart):
        # Each group of interchangeable copies has a key of its own (copy_groups), so
        # forms that choose differently from the groups differ in keys: no duplicates.
        return legal
    seen: set[tuple[str, tuple[int, ...]]] = set()
    distinct = []
    card_key = state.card_key
    for combo, cards in legal:
        key = (combo.name, tuple(sorted([card_key[c] for c in cards])))
        if key not in seen:
            seen.add(key)
            distinct.append((combo, cards))
    return distinct


def _candidates(
    state: GameState,
    t: Tables,
    player: int,
    combos: list[Combination],
    table_cards_apart: bool = False,
) -> list[tuple[Combination, tuple[int, ...]]]:
    """The forms of ``combos`` in the player's cards, legal or not, and announced ones."""
    hand = state.hands[player]
    held = state.held[player]
    found: list[tuple[Combination, tuple[int, ...]]] = []
    groups: dict[int, dict[int, list[int]]] | None = None
    present = 0
    for combo in combos:
        forms = _forms_of_single_copies(t, combo, held)
        if forms is None:  # some face held twice: its copies may or may not be interchangeable
            if groups is None:
                faces = 0
                for each in combos:
                    faces |= each.mask
                groups = copy_groups(state, hand, table_cards_apart, faces)
                for face in groups:
                    present |= 1 << face
            forms = combination_forms(state, combo, groups, present)
        found += forms
    for combo_name, cards in state.pending[player]:
        pending = t.combination(state, combo_name)
        if (
            pending is not None
            and all(c in hand and state.on_table[c] for c in cards)
            and forms_combination(state, pending, cards)  # trumps may have been named since
        ):
            found.append((pending, cards))
    return found


def _forms_of_single_copies(
    t: Tables, combo: Combination, held: int
) -> list[tuple[Combination, tuple[int, ...]]] | None:
    """:func:`combination_forms` read off the hand's bitboard, or None where it cannot be.

    Where the hand holds at most one copy of each face a same-suit or single
    bezique form needs, each face is one group whatever the copy keys, and
    each form one set of cards.  None where some such face is held twice, and
    for same-rank and double bezique combinations (their copies matter).
    """
    face_copies = t.face_copies
    forms: list[tuple[Combination, tuple[int, ...]]] = []
    if combo.pairs:
        if combo.pairs != 1 or len(combo.faces) != 2:
            return None
        queens, knaves = held & face_copies[combo.faces[0]], held & face_copies[combo.faces[1]]
        if queens and knaves:
            if queens & (queens - 1) or knaves & (knaves - 1):
                return None
            queen, knave = queens.bit_length() - 1, knaves.bit_length() - 1
            forms.append((combo, (queen, knave) if queen < knave else (knave, queen)))
        return forms
    if combo.rank_faces:
        return None
    for faces, _ in combo.suit_forms:
        cards = []
        for face in faces:
            copies = held & face_copies[face]
            if not copies:
                break
            if copies & (copies - 1):
                return None
            cards.append(copies.bit_length() - 1)
        else:
            cards.sort()
            forms.append((combo, tuple(cards)))
    return forms


def copy_groups(
    state: GameState, hand: list[int], table_cards_apart: bool = False, faces: int = -1
) -> dict[int, dict[int, list[int]]]:
    """Group a hand: face -> key of interchangeable copies -> those cards, in hand order.

    With ``table_cards_apart`` every card on the table is a group of its own.  Only
    the faces with a bit ``1 << face`` in ``faces`` are grouped (default: all).
    """
    groups: dict[int, dict[int, list[int]]] = {}
    face_of = state.deck.card_face
    card_key = state.card_key
    apart = state.on_table if table_cards_apart else None
    size = state.deck.size
    for card in hand:
        face = face_of[card]
        if faces >> face & 1:
            key = size + card if apart is not None and apart[card] else card_key[card]
            copies = groups.get(face)
            if copies is None:
                groups[face] = {key: [card]}
            elif key in copies:
                copies[key].append(card)
            else:
                copies[key] = [card]
    return groups


def combination_forms(
    state: GameState,
    combo: Combination,
    groups: dict[int, dict[int, list[int]]],
    present: int = -1,
) -> list[tuple[Combination, tuple[int, ...]]]:
    """Return every distinct set of the player's cards that forms ``combo``.

    ``present``: bit ``1 << face`` for each face in ``groups``, where the caller
    has it (it only saves looking).
    """
    forms: list[tuple[Combination, tuple[int, ...]]] = []
    if combo.pairs:
        queen, knave = combo.faces
        if queen not in groups or knave not in groups:
            return forms
        for queens in choose_copies(list(groups[queen].values()), combo.pairs):
            for knaves in choose_copies(list(groups[knave].values()), combo.pairs):
                forms.append((combo, tuple(sorted(queens + knaves))))
    elif combo.rank_faces:
        units = [cards for f in combo.rank_faces if f in groups for cards in groups[f].values()]
        for chosen in choose_copies(units, combo.size):
            if combo.distinct_suits and len({state.deck.card_suit[c] for c in chosen}) < combo.size:
                continue
            forms.append((combo, tuple(sorted(chosen))))
    else:
        for faces, mask in combo.suit_forms:
            if present & mask != mask:
                continue
            copies = []
            for face in faces:
                by_key = groups.get(face)
                if by_key is None:
                    break
                copies.append(by_key)
            else:
                firsts = [cards[0] for by_key in copies for cards in by_key.values()]
                if len(firsts) == len(faces):  # one group of each face: one form
                    forms.append((combo, tuple(sorted(firsts))))
                    continue
                for picks in product(*[list(by_key.values()) for by_key in copies]):
                    forms.append((combo, tuple(sorted([cards[0] for cards in picks]))))
    return forms


def forms_combination(state: GameState, combo: Combination, cards: Sequence[int]) -> bool:
    """Return whether the faces of ``cards`` make up ``combo`` (legality aside)."""
    faces = sorted(state.deck.card_face[c] for c in cards)
    if combo.pairs:
        return faces == sorted(combo.faces * combo.pairs)
    if combo.rank_faces:
        suits = {state.deck.card_suit[c] for c in cards}
        return (
            len(faces) == combo.size
            and all(f in combo.rank_faces for f in faces)
            and (not combo.distinct_suits or len(suits) == combo.size)
        )
    return any(faces == sorted(form) for form, _ in combo.suit_forms)


def choose_copies(units: Sequence[list[int]], count: int) -> Iterator[list[int]]:
    """Yield each way to take ``count`` cards from groups of interchangeable cards.

    As many as possible from the first group first, then from the next: each
    choice is the first cards of each group, in the groups' order.
    """
    if count == 1:  # one card: the first of each group
        for unit in units:
            yield unit[:1]
        return
    room = [0] * (len(units) + 1)  # cards in the groups from each one on
    for index in range(len(units) - 1, -1, -1):
        room[index] = room[index + 1] + len(units[index])
    yield from _take_from(units, room, 0, count)


def _take_from(
    units: Sequence[list[int]], room: list[int], start: int, count: int
) -> Iterator[list[int]]:
    """The choices of ``count`` cards from ``units[start:]`` (see :func:`choose_copies`)."""
    if count == 0:
        yield []
        return
    if room[start] < count:
        return
    unit = units[start]
    for take in range(min(len(unit), count), max(count - room[start + 1], 0) - 1, -1):
        for rest in _take_from(units, room, start + 1, count - take):
            yield unit[:take] + rest


def declaration_refusal(
    state: GameState,
    t: Tables,
    player: int,
    combo: Combination,
    cards: tuple[int, ...],
    kind: Kind,
) -> str | None:
    """Return why ``cards`` may not be declared (or announced) as ``combo`` now, or None.

    The one place the declaring rules are decided: candidate enumeration keeps
    the forms this returns None for, and a refused action quotes its answer.
    """
    turn = state.turn
    if turn.blocked and not turn.blocked_set().isdisjoint(cards):
        return (
            "a card just taken in exchange for the seven of trumps may not be declared in "
            "the same turn (A13)"
        )
    if kind == Kind.DECLARE and turn.scored:
        if t.one_per_trick:
            return (
                "only one combination may be scored for each trick won (declarations.per_trick: "
                "one); 'announce' it to score it after a later trick"
            )
        if not t.compound and not turn.declared_set().isdisjoint(cards):
            return (
                "no card may serve in two combinations declared after the same trick "
                "(declarations.per_trick: several, S0)"
            )
    levels = [state.levels[c] for c in cards]
    if t.compound and not combo.grows_in_one_trick and _grows_this_turn(turn, combo, cards, levels):
        return (
            f"{combo.name} may not be completed from cards declared after this same trick in a "
            "lower combination of its class: declared together they score only once (S0 "
            "footnote 3)"
        )
    if t.new_card_required and 0 not in levels:
        pending = state.pending[player]
        announced = bool(pending) and (combo.name, cards) in pending
        # An announcement, or a compound declaration, may lean on a card that was new
        # when this turn began.
        renewed = (kind == Kind.ANNOUNCE or t.compound) and not frozenset(
            turn.first_declared
        ).isdisjoint(cards)
        if not announced and not renewed:
            return (
                "every declaration needs at least one card never declared before "
                "(declarations.new_card_required, S0)"
            )
    if any(levels):
        shift, level = combo.shift, combo.level
        for card, card_levels in zip(cards, levels, strict=True):
            if (card_levels >> shift) & 15 >= level:
                return (
                    f"{state.deck.card_text(card)} was already declared in a combination of the "
                    "same class and at least as high: a declared card may join only a higher "
                    "combination of its class, or one of another class (S0)"
                )
    return None


def _grows_this_turn(
    turn: TurnState, combo: Combination, cards: tuple[int, ...], levels: list[int]
) -> bool:
    """Whether some of ``cards`` entered ``combo``'s class in this very turn."""
    first = turn.first_declared
    return bool(first) and any(
        card in first and (card_levels >> combo.shift) & 15
        for card, card_levels in zip(cards, levels, strict=True)
    )


@hookimpl
def bezique_apply_turn_action(state: GameState, player: int, action: Action) -> bool:
    """Carry out a declaration, an announcement, or the seven of trumps."""
    t = tables(state)
    if action.kind == Kind.DECLARE:
        combo = t.combination(state, action.combo)
        assert combo is not None
        declare_combination(state, player, combo, action.cards)
    elif action.kind == Kind.ANNOUNCE:
        for card in action.cards:
            state.set_card(card, True, state.levels[card])
        state.pending[player].append((action.combo, action.cards))
    elif action.kind == Kind.EXCHANGE:
        seven = action.cards[0]
        state.take(player, seven)
        state.give(player, state.turn_up)
        state.turn.blocked.append(state.turn_up)
        state.turn_up = seven
        state.extra["sevens_scored"].append(seven)
        points = t.seven["exchange_points"]
        state.score([ScoreEvent(player, points, "seven_of_trumps.exchange_points", "exchanged")])
    elif action.kind == Kind.SHOW:
        state.extra["sevens_scored"].append(action.cards[0])
        points = t.seven["declare_points"]
        state.score([ScoreEvent(player, points, "seven_of_trumps.declare_points", "shown")])
    else:
        return False
    return True


def declare_combination(
    state: GameState,
    player: int,
    combo: Combination,
    cards: tuple[int, ...],
    new_cards: Sequence[int] | None = None,
) -> None:
    """Score ``cards`` as ``combo`` and lay them on the table with their class levels.

    ``new_cards`` are those never declared before (default: those at level 0).  A
    double or higher built on a lower one scores its value, less that lower one's under
    ``declarations.bezique_ladder: difference`` (see :attr:`Combination.taken_off`).
    """
    mask = 15 << combo.shift
    points = combo.points
    if combo.taken_off:  # bezique_ladder: difference
        reached = max((state.levels[c] >> combo.shift) & 15 for c in cards)
        if reached < combo.level:
            points -= combo.taken_off[reached]
    if new_cards is None:
        new_cards = [c for c in cards if not state.levels[c]]
    state.turn.first_declared.extend(new_cards)
    for card in cards:
        levels = state.levels[card]
        old = (levels >> combo.shift) & 15
        state.set_card(card, True, (levels & ~mask) | (max(old, combo.level) << combo.shift))
    state.turn.declared.extend(cards)
    state.turn.scored += 1
    if combo.fixes_trumps:
        state.fix_trump(state.deck.card_suit[cards[0]])
    pending = state.pending[player]
    if (combo.name, cards) in pending:
        pending.remove((combo.name, cards))
    texts = state.deck.card_texts
    detail = " ".join([texts[c] for c in cards])
    state.score([ScoreEvent(player, points, combo.name, detail)])


@hookimpl
def bezique_refusal(state: GameState, player: int, action: Action) -> str | None:
    """Explain why a play or turn action is refused."""
    t = tables(state)
    deck = state.deck
    if action.kind == Kind.PLAY:
        if state.stock_left() or not state.trick:
            return None
        allowed = " ".join(deck.card_text(c) for c in endgame_plays(state, state.hands[player]))
        return (
            "once the stock is gone the second player must follow suit, win the trick if "
            f"able, and trump if void and able (endgame, S0): play one of {allowed}"
        )
    if not state.stock_left():
        return "declarations cease once the stock is exhausted (S0)"
    if action.kind in (Kind.EXCHANGE, Kind.SHOW):
        return _seven_refusal(state, t, player, action)
    if action.kind in (Kind.DECLARE, Kind.ANNOUNCE):
        return _combination_refusal(state, t, player, action)
    return None


def refusal_of_declaration(
    state: GameState, player: int, action: Action, refusal: Refusal
) -> str | None:
    """The reason ``refusal`` gives for a well-formed declaration or announcement.

    ``None`` when the action is not one (another kind, the stock gone, a card not
    the player's, cards that do not form the combination, an announcement out of
    place): the ordinary plugin's :func:`bezique_refusal` explains those.  For
    plugins that decide declarations with their own ``refusal``.
    """
    if action.kind not in (Kind.DECLARE, Kind.ANNOUNCE) or not state.stock_left():
        return None
    t = tables(state)
    combo = t.combination(state, action.combo)
    hand = state.hands[player]
    if (
        combo is None
        or not all(c in hand for c in action.cards)
        or not forms_combination(state, combo, action.cards)
        or (action.kind == Kind.ANNOUNCE and (not t.one_per_trick or not state.turn.scored))
    ):
        return None
    return refusal(state, t, player, combo, tuple(sorted(action.cards)), action.kind)


def _seven_refusal(state: GameState, t: Tables, player: int, action: Action) -> str:
    card = action.cards[0] if action.cards else -1
    if card < 0 or not _is_trump_seven(state, t, card) or card not in state.hands[player]:
        return "exchange and show take the seven of trumps from the player's own hand"
    if t.seven["scoring"] != "declare_or_exchange":
        return "in this variant the seven of trumps scores when played (seven_of_trumps.scoring)"
    if card in state.extra["sevens_scored"]:
        return "that seven of trumps has already scored this hand"
    return (
        "the turn-up is already a seven of trumps: exchanging one seven for another gains "
        "nothing, show it instead (S0)"
    )


def _combination_refusal(state: GameState, t: Tables, player: int, action: Action) -> str:
    combo = t.combination(state, action.combo)
    if combo is None:
        names = ", ".join(state.rules.combo_names)
        return f"{action.combo!r} is not a combination of this variant; its combinations: {names}"
    if action.kind == Kind.ANNOUNCE and (not t.one_per_trick or not state.turn.scored):
        return (
            "'announce' shows a second combination after one has been scored this turn, "
            "and only under declarations.per_trick: one"
        )
    hand = state.hands[player]
    if not all(c in hand for c in action.cards):
        return "a declaration uses only the player's own cards, in hand or on the table"
    if not forms_combination(state, combo, action.cards):
        return f"those cards do not form {combo.name}"
    reason = declaration_refusal(state, t, player, combo, tuple(sorted(action.cards)), action.kind)
    return reason or "that declaration is not legal now"


# ---------------------------------------------------------------------- the variant's data


@hookimpl
def bezique_variant_schema() -> dict[str, Any]:
    """The sections these rules read (``schema.json``; see :mod:`.checks`)."""
    return checks.schema_fragment()


@hookimpl(specname="bezique_variant_problems")
def bezique_variant_problems_of_the_table(data: dict[str, Any]) -> list[checks.Problem]:
    """What in a variant's data these rules cannot play (see :mod:`.checks`)."""
    return checks.problems(data)

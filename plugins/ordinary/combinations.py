"""The combination table and the rest of a variant's data, compiled once per ruleset.

:class:`Tables` is what the ordinary plugin reads from a variant's data, made
once per ruleset (:func:`tables_of`) and shared by every game of it; the
combination table is compiled per trump suit into :class:`Combination` rows.  The
class rule read on a card's levels by class (:func:`class_refusal`) is here too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bezique.actions import Action, Kind
from bezique.hookstate import HookRules
from bezique.plugins.ordinary.checks import schema_fragment
from bezique.variant import declared_default

if TYPE_CHECKING:
    from bezique.actions import ScoreEvent
    from bezique.hookstate import HookState
    from bezique.plugins.ordinary.quicktests import QuickTests

KEY = "bezique.plugins.ordinary"
"""Where this plugin keeps its tables in ``ruleset.tables``."""

BEZIQUE_LADDER_DEFAULT: str = declared_default(
    schema_fragment(), ("declarations", "bezique_ladder")
)
"""``declarations.bezique_ladder`` when a variant leaves it out: the default its schema declares."""


@dataclass(frozen=True, eq=False)
class Combination:
    """One row of the combination table, compiled for one trump suit.

    A class rather than a named tuple: the declaration search reads its fields
    often, and an attribute read is several times cheaper than a named tuple's
    (and in the compiled build a struct's field; mypyc cannot compile it with
    ``slots=True``).  Each is made once per trump suit, so identity is equality.
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


class Tables:
    """What the plugin compiles from a variant once, shared by every game of it."""

    def __init__(self, rules: HookRules) -> None:
        """Compile the tables of ``rules``' variant."""
        data = rules.data
        deck = rules.deck
        self.deck = deck
        self.data = data
        self.classes = rules.classes
        self.brisque_ranks = frozenset(deck.rank_index(r) for r in data["brisques"]["ranks"])
        self.brisque_points: int = data["brisques"]["points"]
        self.brisques_now = data["brisques"]["timing"] == "immediate"
        self.brisques_at_settlement = data["brisques"]["timing"] == "settlement"
        """Brisques are left to the plugin that settles the game (Rubicon, R18)."""
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
        scoring = seven["scoring"]
        self.sevens_on_play = (
            scoring in ("on_play", "on_play_or_exchange") and data["trumps"]["mode"] == "turn_up"
        )
        """The seven of trumps scores for whoever plays it while the stock lasts (A12)."""
        self.carte_blanche: dict[str, Any] = data.get("carte_blanche", {"enabled": False})
        self.carte_blanche_on: bool = carte_blanche_played(data)
        """Carte blanche is played: its announcement is offered (the play loop asks this)."""
        self.carte_blanche_barred = frozenset(
            deck.rank_index(r) for r in self.carte_blanche.get("ranks", ())
        )
        """The ranks that spoil a carte blanche (see :meth:`blank`)."""
        self.trumps_by_marriage = data["trumps"]["mode"] == "first_marriage"
        """Trumps are named by the first marriage or sequence declared; no seven scores."""
        self.sequence_fixes_trumps = data["trumps"].get("fixed_by") != "marriage"
        """A sequence declared before any marriage fixes trumps (``trumps.fixed_by``, R-C3)."""
        self.sevens_declared = scoring == "declare_or_exchange" and not self.trumps_by_marriage
        """A trick's winner may show (declare) his seven of trumps, which scores."""
        self.sevens_exchanged = (
            scoring in ("declare_or_exchange", "on_play_or_exchange")
            and not self.trumps_by_marriage
        )
        """A trick's winner may exchange his seven of trumps for the turn-up, which scores."""
        self.brisque = [r in self.brisque_ranks for r in deck.card_rank]
        """For each card, whether it is a brisque."""
        self.brisque_events: dict[tuple[int, ...], tuple[ScoreEvent, ...]] = {}
        """Memo of :func:`~bezique.plugins.ordinary.cardplay.brisques_won`, by winner and trick."""
        self.packs = deck.packs
        self.seven_bits = sum(1 << deck.face(self.seven_rank, s) for s in range(len(deck.suits)))
        self.by_trump: dict[int, list[Combination]] = {}
        self.show_actions = [Action(Kind.SHOW, (card,)) for card in range(deck.size)]
        self.exchange_actions = [Action(Kind.EXCHANGE, (card,)) for card in range(deck.size)]
        """The seven of trumps' actions for each card, made once (actions are immutable)."""
        self.face_mask = (1 << deck.faces) - 1
        self.face_copies = [self.copies([face]) for face in range(deck.faces)]
        """For each face, bit ``1 << card`` for each of its copies."""
        self.fold = deck.faces if self.packs == 2 else 0
        """Two packs: the shift that folds a bitboard of cards onto faces (else 0)."""
        self.fold_shifts = _fold_shifts(self.packs, deck.faces)
        """The shifts that fold a bitboard of cards onto faces in halves (see :meth:`faces_of`)."""
        self.tests_by_trump: dict[int, QuickTests] = {}
        """The quick tests of each trump suit (:func:`~bezique.plugins.ordinary.quick_tests`)."""
        self.by_name: dict[int, dict[str, Combination]] = {}
        ladder = data["declarations"].get("bezique_ladder", BEZIQUE_LADDER_DEFAULT)
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

    def blank(self, cards: Sequence[int]) -> bool:
        """Whether ``cards`` hold none of the ranks that spoil a carte blanche."""
        rank_of = self.deck.card_rank
        barred = self.carte_blanche_barred
        return not any(rank_of[c] in barred for c in cards)

    def combinations(self, state: HookState) -> list[Combination]:
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

    def combination(self, state: HookState, name: str) -> Combination | None:
        """Return the compiled combination called ``name``, if the variant has one."""
        self.combinations_for(state.trump)
        return self.by_name[state.trump].get(name)

    def by_name_table(self, trump: int) -> dict[str, Combination]:
        """The combinations compiled for ``trump``, by name."""
        self.combinations_for(trump)
        return self.by_name[trump]

    def by_name_for(self, trump: int, name: str) -> Combination | None:
        """Return the combination called ``name`` compiled for ``trump``, if the variant has one."""
        self.combinations_for(trump)
        return self.by_name[trump].get(name)

    def copies(self, faces: Sequence[int]) -> int:
        """Bit ``1 << card`` for every copy of ``faces``."""
        return sum(
            1 << (copy * self.deck.faces + face) for face in faces for copy in range(self.packs)
        )

    def faces_of(self, cards: int) -> int:
        """Fold a bitboard of cards into a bitboard of the faces they show."""
        for shift in self.fold_shifts:  # three shifts for eight packs, not eight
            cards |= cards >> shift
        return cards & self.face_mask

    def _rows(self) -> Iterator[tuple[str, dict[str, Any]]]:
        yield from self.data["declarations"]["combinations"].items()

    def _compile(self, trump: int, name: str, row: dict[str, Any]) -> Combination:
        deck = self.deck
        shift = 4 * self.classes.index(row["class"])
        suit_rule = row.get("suit", "any")
        undecided = trump < 0 and self.trumps_by_marriage
        suits = _suits_for(suit_rule, len(deck.suits), trump, undecided)
        if (
            undecided
            and suit_rule == "trump"
            and (
                "rank" in row or (len(row.get("ranks", ())) > 2 and not self.sequence_fixes_trumps)
            )
        ):
            # Only a marriage (or, unless trumps.fixed_by: marriage, a sequence) names
            # trumps; four of a kind in trumps waits for them (A37).
            suits = []
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
            undecided and suit_rule == "trump" and "ranks" in row,
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


def class_refusal(
    state: HookState, combo: Combination, cards: tuple[int, ...], levels: list[int]
) -> str | None:
    """The class rule: a declared card joins only a higher combination of its class (S0).

    ``levels`` are the cards' class levels as the rules read them
    (:meth:`~bezique.plugins.ordinary.OrdinaryDeclarations.class_levels`).
    """
    if not any(levels):
        return None
    clash = class_clash(combo, levels)
    if clash < 0:
        return None
    return class_rule_words(state.deck.card_text(cards[clash]))


def class_clash(combo: Combination, levels: Sequence[int]) -> int:
    """The first position in ``levels`` whose card the class rule bars from ``combo``, or -1."""
    shift, level = combo.shift, combo.level
    for position, card_levels in enumerate(levels):
        if (card_levels >> shift) & 15 >= level:
            return position
    return -1


def raised_levels(levels: int, combo: Combination) -> int:
    """A card's class ``levels`` once it is declared in ``combo``: its class at least that level."""
    mask = 15 << combo.shift
    old = (levels >> combo.shift) & 15
    return (levels & ~mask) | (max(old, combo.level) << combo.shift)


def class_rule_words(card: str) -> str:
    """The class rule's refusal of ``card`` (its text), already declared too high in the class."""
    return (
        f"{card} was already declared in a combination of the "
        "same class and at least as high: a declared card may join only a higher "
        "combination of its class, or one of another class (S0)"
    )


NEW_CARD_RULE = (
    "every declaration needs at least one card never declared before "
    "(declarations.new_card_required, S0)"
)
"""The one-new-card rule's refusal."""


def needs_new_card(t: Tables, levels: Sequence[int]) -> bool:
    """Whether the one-new-card rule bars cards of these class ``levels``: none is new (S0).

    A card never declared has no level in any class; the rule holds only where the
    variant says so (``declarations.new_card_required``).
    """
    return t.new_card_required and 0 not in levels


def ladder_points(combo: Combination, levels: Sequence[int]) -> int:
    """What ``combo`` scores declared with cards of these class ``levels`` (the bezique ladder).

    Its table value, less the value of the double (or higher) of its class its cards
    already reached, where the variant scores the difference
    (``declarations.bezique_ladder: difference``, :attr:`Combination.taken_off`).
    """
    if not combo.taken_off:
        return combo.points
    reached = max((card_levels >> combo.shift) & 15 for card_levels in levels)
    return combo.points - combo.taken_off[reached] if reached < combo.level else combo.points


def grows_this_turn(
    first: list[int], combo: Combination, cards: tuple[int, ...], levels: list[int]
) -> bool:
    """Whether some of ``cards``, first declared this turn (``first``), are in ``combo``'s class."""
    return bool(first) and any(
        card in first and (card_levels >> combo.shift) & 15
        for card, card_levels in zip(cards, levels, strict=True)
    )


def _fold_shifts(packs: int, faces: int) -> tuple[int, ...]:
    """Shifts that fold ``packs`` packs of ``faces`` faces onto the first, halving each time.

    Card ``pack * faces + face`` shows ``face``; after ``cards |= cards >> shift`` for
    each shift, the first pack's bits hold every face of ``cards`` (each pack below
    ``packs`` is a sum of some of the shifts) and nothing else (a shift by whole packs
    moves a card's bit onto its own face).
    """
    shifts = []
    while packs > 1:
        packs = (packs + 1) // 2
        shifts.append(packs * faces)
    return tuple(shifts)


def carte_blanche_played(data: Mapping[str, Any]) -> bool:
    """Whether the variant of ``data`` plays carte blanche (``carte_blanche.enabled``)."""
    return bool(data.get("carte_blanche", {"enabled": False})["enabled"])


def tables(state: HookState) -> Tables:
    """Return this plugin's compiled tables for ``state``'s variant."""
    found: Tables | None = state.rules.tables.get(KEY)
    return tables_of(state.rules) if found is None else found


def tables_of(rules: HookRules) -> Tables:
    """Return this plugin's compiled tables for ``rules``' variant (made once)."""
    return rules.compiled(KEY, lambda: Tables(rules))

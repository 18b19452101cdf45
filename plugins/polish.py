"""Polish (open) bezique: declarations only from the cards won in tricks.

S0's Polish section changes the ordinary game in these points, which this plugin
implements on top of the ``ordinary`` plugin (listed before it in the variant's
``plugins:``, so this one answers first and falls through for the rest):

* **Open cards.**  When a trick is won, its scoring cards (aces, kings, queens,
  knaves, and tens of trumps only: :data:`OPEN_CARDS`, A20b) go face up into the
  winner's open rows, ``state.extra["places"]["open-<seat>"]``; the other cards
  stay in ``state.won``.  Open cards are never played again, serve only in
  declaring, and stay open to the end of the hand, the last eight tricks included
  (A20d).  They carry ``state.on_table`` (they lie face up) and, in
  ``state.levels``, the classes they have been declared in, as the ordinary
  plugin keeps them.
* **Declaring.**  Only the trick's winner declares, before drawing, from his open
  cards only, and every combination must hold a card of the trick just won (A20a:
  a combination left undeclared can be scored later only when a new trick card
  joins it).  Nothing in the hand counts.
* **Compound declarations.**  The new cards may serve at once in as many
  combinations as they form, so combinations declared after one trick may share
  cards, under the ordinary class rule: a card declared in a class joins only a
  higher combination of that class (a royal marriage grows into a sequence, a
  single bezique into a double), never an equal or lower one (a queen once
  married is never married again; a fifth king scores no second four kings).
* **Brisques** score as soon as won (the ordinary plugin, timing ``immediate``).
* **The seven of trumps** scores 10 for the winner of the trick that holds it
  (once per physical seven; the dealer's turned-up seven has scored already).
  While a turn-up other than a seven lies under the stock the winner may
  exchange it: the seven goes under the stock and the turn-up counts as a card of
  that trick (an open card if it is a scoring card, a brisque if an ace or ten,
  A21).  The 10 is scored when the trick is won, exchanged or not: the same
  player scores the same 10 either way (A12), and the kernel has no hook at the
  end of a turn to score a seven left unexchanged.

Action notation.  Open cards are in nobody's hand, and the kernel reads the cards
of an action's text from the hand, so a Polish declaration names its combination
only (``declare four_kings``) and the exchange no card (``exchange``).  Applying
a declaration takes the form from the open rows that keeps most for later (see
:meth:`PolishDeclarations.best_form`); two forms of one combination that share no card are two
declarations (``declare marriage`` twice).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bezique.actions import Action, Kind
from bezique.game import GameState, ScoreEvent
from bezique.hookspecs import DeclaringRole, KeyPath, hookimpl
from bezique.plugins import ordinary
from bezique.plugins.ordinary import (
    Combination,
    OrdinaryDeclarations,
    combination_forms,
    sevens_scored,
    tables,
)

__all__ = ["OPEN_CARDS", "PolishDeclarations", "open_cards", "open_place"]
"""The open-card ranks, the role, and the open rows."""

OPEN_CARDS: dict[str, list[str]] = {"ranks": ["A", "K", "Q", "J"], "trump_ranks": ["T"]}
"""The scoring cards that go to the open rows: these ranks in any suit, and ``trump_ranks``
in trumps only (S0 Polish section; A20b: plain tens are brisques but never open, the seven
of trumps is not an open card).  A variant's top-level ``open_cards`` mapping, once the
schema has one, replaces it."""

EXTRA_NEW = "polish_new"
"""``state.extra`` key: the open cards the trick just won brought (and an exchanged turn-up)."""
EXTRA_SEVEN = "polish_seven"
"""``state.extra`` key: the seven of trumps of the trick just won that may be exchanged, or -1."""

_EXCHANGE = Action(Kind.EXCHANGE)


def open_place(seat: int) -> str:
    """The name of ``seat``'s open rows in ``state.extra["places"]``."""
    return f"open-{seat}"


def open_cards(state: GameState, seat: int) -> list[int]:
    """Return ``seat``'s open cards (a live list: the plugin's own)."""
    cards: list[int] = state.extra["places"][open_place(seat)]
    return cards


class PolishTables:
    """What this plugin compiles from a variant once, shared by every game of it."""

    def __init__(self, state: GameState) -> None:
        """Compile the open-card ranks of ``state``'s variant."""
        deck = state.deck
        spec: dict[str, Any] = state.rules.data.get("open_cards", OPEN_CARDS)
        self.any_ranks = frozenset(deck.rank_index(r) for r in spec["ranks"])
        self.trump_ranks = frozenset(deck.rank_index(r) for r in spec["trump_ranks"])
        self.by_trump: dict[int, list[bool]] = {}

    def is_open(self, state: GameState) -> list[bool]:
        """For each card, whether it goes to the open rows under the current trumps."""
        table = self.by_trump.get(state.trump)
        if table is None:
            deck = state.deck
            trump = state.trump
            table = [
                rank in self.any_ranks or (suit == trump and rank in self.trump_ranks)
                for rank, suit in zip(deck.card_rank, deck.card_suit, strict=True)
            ]
            self.by_trump[trump] = table
        return table


_KEY = __name__


def polish_tables(state: GameState) -> PolishTables:
    """Return this plugin's compiled tables for ``state``'s variant."""
    return state.rules.compiled(_KEY, lambda: PolishTables(state))


# ---------------------------------------------------------------------- the deal


@hookimpl
def bezique_requires() -> list[str]:
    """The ordinary plugin, listed first: it plays all but the open cards."""
    return ["ordinary"]


@hookimpl
def bezique_exclusive_hooks() -> list[str]:
    """Declarations come from the open rows, which no other plugin's declaring rules know of."""
    return [
        "bezique_declaring_roles",
        "bezique_next_declarer",
        "bezique_trick_scores",
    ]


@hookimpl
def bezique_variant_problems(data: dict[str, Any]) -> list[tuple[list[KeyPath], str]]:
    """The seven of trumps is never an open card (A20b), and some combination can be open."""
    spec: dict[str, list[str]] = data.get("open_cards", OPEN_CARDS)
    seven: str = data["seven_of_trumps"]["rank"]
    problems: list[tuple[list[KeyPath], str]] = []
    for key in ("ranks", "trump_ranks"):
        if seven in spec[key]:
            path: KeyPath = ("open_cards", key, spec[key].index(seven))
            problems.append(
                (
                    [path, ("seven_of_trumps", "rank")],
                    f"open_cards.{key} names {seven!r}, the rank of the seven of trumps, which "
                    "is never an open card: it is exchanged for the turn-up or scores where it "
                    "lies (S0 Polish section, A20b); leave it out of the open ranks",
                )
            )
    if not any(
        _ranks_of(data, row) <= {*spec["ranks"], *spec["trump_ranks"]}
        for row in data["declarations"]["combinations"].values()
    ):
        problems.append(
            (
                [("open_cards", "ranks"), ("open_cards", "trump_ranks")],
                "no combination can be made of open cards, the only ones declared from in "
                "Polish bezique (S0 Polish section): name the ranks of some combination in "
                "open_cards",
            )
        )
    return problems


def _ranks_of(data: dict[str, Any], row: dict[str, Any]) -> set[str]:
    """The ranks a row of the combination table takes (a bezique: its cards' ranks)."""
    if "ranks" in row:
        return set(row["ranks"])
    if "rank" in row:
        return {row["rank"]}
    return {card[0] for pair in data["declarations"]["bezique_cards"].values() for card in pair}


@hookimpl
def bezique_deal_scores(state: GameState) -> list[ScoreEvent]:
    """Empty open rows for every seat; then the ordinary deal (a seven turned up scores)."""
    state.extra["places"] = {open_place(seat): [] for seat in range(state.players)}
    state.extra[EXTRA_NEW] = []
    state.extra[EXTRA_SEVEN] = -1
    return ordinary.bezique_deal_scores(state)


# ---------------------------------------------------------------------- tricks


@hookimpl
def bezique_trick_scores(state: GameState, winner: int, cards: list[int]) -> list[ScoreEvent]:
    """Score the trick, lay its scoring cards open, and note a seven that may be exchanged.

    Brisques (at once) and the last trick are the ordinary plugin's; the seven of
    trumps scores here for the trick's winner, in the end-game too (A12 reading).
    """
    t = tables(state)
    events = ordinary.bezique_trick_scores(state, winner, cards)
    is_open = polish_tables(state).is_open(state)
    new = [c for c in cards if is_open[c]]
    if new:
        won = state.won[winner]
        rows = open_cards(state, winner)
        for card in new:
            won.remove(card)
            rows.append(card)
            state.set_card(card, True, 0)
    state.extra[EXTRA_NEW] = new
    state.extra[EXTRA_SEVEN] = -1
    deck = state.deck
    scored = sevens_scored(state)
    for card in cards:
        if deck.card_rank[card] != t.seven_rank or deck.card_suit[card] != state.trump:
            continue
        if card in scored:  # the dealer's turned-up seven, or an exchanged one
            continue
        scored.append(card)
        points = t.seven["declare_points"]
        events.append(ScoreEvent(winner, points, "seven_of_trumps.declare_points", "won"))
        turn_up = state.turn_up
        if turn_up >= 0 and deck.card_rank[turn_up] != t.seven_rank:
            state.extra[EXTRA_SEVEN] = card
    return events


@hookimpl
def bezique_stock_exhausted(state: GameState) -> bool:
    """Open cards stay open; nothing goes back to the hands (S0 Polish section, A20d)."""
    return True


# ---------------------------------------------------------------------- declaring


@hookimpl
def bezique_declaring_roles() -> list[type[DeclaringRole]]:
    """Declaring from the open rows."""
    return [PolishDeclarations]


class PolishDeclarations(OrdinaryDeclarations):
    """Declarations from the open rows only, each holding a card of the trick just won.

    The class rule and the rest of the ordinary form rules still judge each form
    (:meth:`form_refusal` adds the trick card's rule before them).
    """

    def turn_actions(self, state: GameState, player: int) -> list[Action]:
        """What the trick's winner may do before drawing: exchange the seven, declare.

        Declarations continue after the stock is gone (S0 Polish section, A20c).
        """
        actions = [_EXCHANGE] if state.extra[EXTRA_SEVEN] >= 0 else []
        new: list[int] = state.extra[EXTRA_NEW]
        if not new:
            return actions
        face_of = state.deck.card_face
        new_faces = 0
        for card in new:
            new_faces |= 1 << face_of[card]
        groups = _groups(state, open_cards(state, player), new)
        for combo in self.tables.combinations(state):
            if combo.mask & new_faces and self.best_form(state, player, combo, groups) is not None:
                actions.append(Action(Kind.DECLARE, (), combo.name))
        return actions

    def form_refusal(
        self, state: GameState, player: int, combo: Combination, cards: tuple[int, ...], kind: Kind
    ) -> str | None:
        """Return why ``cards`` (open cards) may not be declared as ``combo`` now, or None."""
        new: list[int] = state.extra[EXTRA_NEW]
        if not any(card in new for card in cards):
            return (
                "every declaration must include a card of the trick just won (S0 Polish "
                "section); a combination left undeclared scores later only when a new trick "
                "card joins it (A20a)"
            )
        return super().form_refusal(state, player, combo, cards, Kind.DECLARE)

    def best_form(
        self,
        state: GameState,
        player: int,
        combo: Combination,
        groups: dict[int, dict[int, list[int]]],
    ) -> tuple[int, ...] | None:
        """Return the legal form of ``combo`` that keeps most for later, or None if none is.

        It uses the cards already furthest up the combination's class (a married king
        and queen go into the sequence, a fresh pair stays free to marry), then the
        fewest cards of the trick just won (the others may still make a second
        combination of the same kind); ties go to the first form in suit order.
        """
        new: list[int] = state.extra[EXTRA_NEW]
        levels = state.levels
        shift = combo.shift
        best: tuple[int, ...] | None = None
        best_key = (-1, 0)
        for _, cards in combination_forms(state, combo, groups):
            if self.form_refusal(state, player, combo, cards, Kind.DECLARE) is not None:
                continue
            key = (
                sum((levels[c] >> shift) & 15 for c in cards),
                -sum(c in new for c in cards),
            )
            if key > best_key:
                best, best_key = cards, key
        return best

    def apply(self, state: GameState, player: int, action: Action) -> None:
        """Carry out a declaration from the open rows, or the exchange of the seven."""
        if action.kind == Kind.DECLARE:
            combo = self.tables.combination(state, action.combo)
            assert combo is not None
            groups = _groups(state, open_cards(state, player), state.extra[EXTRA_NEW])
            form = self.best_form(state, player, combo, groups)
            assert form is not None
            self.declare(state, player, combo, form)
        elif action.kind == Kind.EXCHANGE:
            self.exchange_seven(state, player, state.extra[EXTRA_SEVEN])
        else:
            super().apply(state, player, action)

    def exchange_seven(self, state: GameState, player: int, seven: int) -> None:
        """Put the seven of trumps just won under the stock; the turn-up joins the trick (A21)."""
        turn_up = state.turn_up
        state.won[player].remove(seven)
        state.turn_up = seven
        state.extra[EXTRA_SEVEN] = -1
        if polish_tables(state).is_open(state)[turn_up]:
            open_cards(state, player).append(turn_up)
            state.extra[EXTRA_NEW].append(turn_up)
            state.set_card(turn_up, True, 0)
        else:
            state.won[player].append(turn_up)
        t = self.tables
        if t.brisques_now and t.brisque[turn_up]:
            detail = f"{state.deck.card_text(turn_up)} taken for the seven"
            state.score([ScoreEvent(player, t.brisque_points, "brisques", detail)])

    def refusal(self, state: GameState, player: int, action: Action) -> str | None:
        """Explain why a declaration, exchange, show or announcement is refused."""
        if action.kind == Kind.DECLARE:
            return self.open_declaration_refusal(state, player, action)
        if action.kind == Kind.EXCHANGE:
            return (
                "only the winner of the trick holding an unscored seven of trumps may exchange "
                "it, before drawing, while a turn-up other than a seven lies under the stock "
                "(S0 Polish section); write 'exchange' alone, the seven is the one just won"
            )
        if action.kind == Kind.SHOW:
            return (
                "in Polish bezique the seven of trumps is never shown: it scores for the winner "
                "of the trick that holds it (S0 Polish section)"
            )
        if action.kind == Kind.ANNOUNCE:
            return (
                "Polish bezique declares combinations at once (compound declarations); nothing "
                "is announced for later (S0 Polish section)"
            )
        return super().refusal(state, player, action)  # the end-game duties: the ordinary's

    def open_declaration_refusal(self, state: GameState, player: int, action: Action) -> str:
        """Why a declaration is refused: its form, or the rules on the open cards."""
        combo = self.tables.combination(state, action.combo)
        if combo is None:
            names = ", ".join(state.rules.combo_names)
            return (
                f"{action.combo!r} is not a combination of this variant; its combinations: {names}"
            )
        if action.cards:
            if not set(action.cards) <= set(open_cards(state, player)):
                return (
                    "nothing is declared from the hand in Polish bezique, only from the open "
                    f"cards won in tricks (S0 Polish section): write 'declare {combo.name}' alone"
                )
            return (
                f"a Polish declaration names its combination only ('declare {combo.name}'): the "
                "cards are taken from the open rows"
            )
        groups = _groups(state, open_cards(state, player), state.extra[EXTRA_NEW])
        reasons = [
            self.form_refusal(state, player, combo, cards, Kind.DECLARE)
            for _, cards in combination_forms(state, combo, groups)
        ]
        if not reasons:
            return (
                f"seat {player}'s open cards do not form {combo.name}; only cards won in tricks "
                "count, never those in the hand (S0 Polish section)"
            )
        trick_card = [r for r in reasons if r is not None and "trick just won" not in r]
        return (trick_card or [r for r in reasons if r is not None] or ["not legal now"])[0]


def _groups(
    state: GameState, cards: list[int], new: Iterable[int]
) -> dict[int, dict[int, list[int]]]:
    """Group open cards: face -> what tells copies apart for the rules -> those cards.

    Copies of a face are interchangeable when they have been declared in the same
    classes and are both new or both old: the key is ``levels * 2 + new``.
    """
    fresh = set(new)
    levels = state.levels
    face_of = state.deck.card_face
    groups: dict[int, dict[int, list[int]]] = {}
    for card in cards:
        key = levels[card] * 2 + (card in fresh)
        groups.setdefault(face_of[card], {}).setdefault(key, []).append(card)
    return groups

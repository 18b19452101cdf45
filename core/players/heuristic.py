"""The ``heuristic`` player: S0's hints to players as rules of thumb, no look-ahead.

It sees only the seat's :class:`~bezique.engine.views.View` and the legal actions, and
reads the rules from the variant's data (:mod:`bezique.players.cardvalues`
compiles what it needs once per ruleset).  In short, after S0's section
"Hints to players" (in our words):

* after a won trick it declares the combination worth most now, unless a
  smaller one it may declare first grows into it later (a royal marriage into
  the sequence, a bezique into the double: both then score), exchanges the seven
  of trumps for a better turn-up and shows the other seven when that scores;
* while the stock lasts it leads the card it can best spare (a small plain card,
  never a bezique or sequence card it is collecting) and, second, takes a trick
  only when it holds brisques or lets it declare, with its cheapest winning card;
* once the stock is gone it plays within the duties to make its own aces and
  tens and take the others', counting the cards it has seen;
* it does not take a trick from a partner who is winning it.

Any phase it does not know (a plugin's) gets the first legal action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from bezique.actions import Action, Kind
from bezique.engine.views import View
from bezique.players import Options, no_options
from bezique.players.cardvalues import (
    CardTables,
    Declarable,
    Form,
    answers,
    beats,
    keep_values,
    power,
    stakes,
    tables_of,
)

LEAD_COST = 2.0
"""What having the lead costs while the stock lasts (S0: the lead is as a rule a
disadvantage, so a trick is not taken for nothing)."""

DECLARE_SHARE = 0.8
"""How much of what a won trick would let it declare it counts on (the rules may
refuse some, and the combination may still be declared later)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicPlayer:
    """Plays every variant by S0's hints (see the module)."""

    def __init__(self, name: str = "heuristic") -> None:
        """A heuristic player named ``name``."""
        self.name = name

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal`` for the seat of ``view`` (deterministic: ``rng`` is not drawn)."""
        kinds = {a.kind for a in legal}
        if kinds == {Kind.PLAY}:
            return play_card(view, legal)
        if kinds == {Kind.CHOOSE}:
            return answer(view, legal)
        if Kind.PLAY in kinds:  # and something offered before the card: a carte blanche
            return option_or_play(view, legal)
        if Kind.END_TURN in kinds:
            return turn_action(view, legal)
        return legal[0]

    def __repr__(self) -> str:
        """``HeuristicPlayer('heuristic')``."""
        return f"HeuristicPlayer({self.name!r})"


def factory(spec: str, options: Options) -> HeuristicPlayer:
    """The ``heuristic`` player (no options)."""
    no_options(spec, options)
    return HeuristicPlayer(spec)


# ---------------------------------------------------------------------- before a card


def option_or_play(view: View, legal: Sequence[Action]) -> Action:
    """Announce what is offered before the card when it scores (a carte blanche), else play.

    A carte blanche is always announced, at the deal and again for a card drawn: the
    points are certain, and what showing the hand tells the other side costs less at
    the values shipped (50 in Rubicon and the two-pack house rule, 250 in six-pack).  A
    hand without a king, queen or knave holds no card of a marriage, a sequence, a
    bezique or their fours (without aces and tens either, under S4's reading, nothing
    of worth): its points are in its aces and tens alone.  Shown, they tell the
    opponent which of his tens and aces to risk while the stock lasts; but the cards
    shown are soon played and replaced by unseen draws, four aces may be declared
    whatever he knows, and a trick is worth its brisques, 10 each in the two-pack game,
    nothing in six-pack (no brisques) and in Rubicon only when they break a tie or save
    a rubicon.  To cost 50 points the knowledge would have to turn three tricks full of
    brisques, each against a hand of no court cards that rarely takes tricks; a card
    drawn shows one card only.
    """
    tables = tables_of(view.rules)
    offered = [a for a in legal if a.kind != Kind.PLAY]
    best = max(offered, key=lambda action: tables.points(action.combo))
    if tables.points(best.combo) > 0:
        return best
    return play_card(view, [a for a in legal if a.kind == Kind.PLAY])


# ---------------------------------------------------------------------- the turn


def turn_action(view: View, legal: Sequence[Action]) -> Action:
    """After a won trick: declare the best, exchange and show the seven, announce, then draw."""
    tables = tables_of(view.rules)
    declares = [a for a in legal if a.kind == Kind.DECLARE]
    best = best_declaration(view, declares, tables) if declares else None
    if best is not None:
        return best
    for action in legal:
        if action.kind == Kind.EXCHANGE and _exchange_gains(view, tables):
            return action
    for action in legal:
        if action.kind == Kind.SHOW and tables.show_scores:
            return action
    announces = [a for a in legal if a.kind == Kind.ANNOUNCE]
    best = best_declaration(view, announces, tables) if announces else None
    if best is not None:
        return best
    return next(a for a in legal if a.kind == Kind.END_TURN)


def best_declaration(view: View, actions: Sequence[Action], tables: CardTables) -> Action | None:
    """The declaration (or announcement) worth most, counting what it leaves to grow.

    A combination whose cards belong to a higher one of its class in the hand is
    worth both when the higher one keeps a card never declared (it may be
    declared after a later trick: S0 lets a married pair of trumps grow into the
    sequence, and footnote 3 a bezique into the double), and is not declared at
    all when it would use up the higher one's last new cards (a second bezique
    would leave the double nothing new).  None when none is worth declaring.
    """
    time_left = view.stock_size >= 2 * view.rules.players

    def worth(action: Action) -> tuple[float, int, int]:
        points = float(tables.points(action.combo))
        if time_left and action.cards:
            points += grows_into(view, tables, action)
        reused = sum(1 for c in action.cards if view.levels[c])
        return points, reused, _suit_strength(view, action)

    best = max(actions, key=worth)
    return best if worth(best)[0] > 0 else None


def grows_into(view: View, tables: CardTables, action: Action) -> float:
    """What declaring ``action`` first adds (+) or spoils (-) of a higher combination.

    The higher forms of its class the hand completes with its cards: one that still
    has a card never declared besides them adds its points (both will score); one
    that would then have none loses them.
    """
    row = tables.rows.get(action.combo)
    if row is None:
        return 0.0
    shift = 4 * tables.classes.index(row["class"]) if row["class"] in tables.classes else 0
    level = int(row.get("level", 1))
    face_of = tables.deck.card_face
    levels = view.levels
    faces = [face_of[c] for c in action.cards]
    gain = loss = 0.0
    for form in tables.forms(view.trump):
        if form.shift != shift or form.level <= level or not set(faces) <= set(form.faces):
            continue
        chosen = _complete(view, form, action.cards)
        if chosen is None:
            continue
        if any(levels[c] == 0 for c in chosen if c not in action.cards):
            gain = max(gain, form.points)
        else:
            loss = max(loss, form.points)
    return gain if gain else -loss


def _complete(view: View, form: Form, start: Sequence[int]) -> list[int] | None:
    """Cards of the hand that complete ``form`` with ``start``, or None if it cannot."""
    face_of = view.deck.card_face
    levels = view.levels
    chosen = list(start)
    spare = [
        c
        for c in view.hand
        if c not in start
        and face_of[c] in form.faces
        and (levels[c] >> form.shift) & 15 < form.level
    ]
    spare.sort(key=lambda c: levels[c] != 0)  # new cards first
    if form.copies:
        for face in form.faces:
            short = form.copies - sum(1 for c in chosen if face_of[c] == face)
            found = [c for c in spare if face_of[c] == face][: max(short, 0)]
            if len(found) < short:
                return None
            chosen.extend(found)
        return chosen
    chosen.extend(spare[: max(form.size - len(chosen), 0)])
    return chosen if len(chosen) >= form.size else None


def _suit_strength(view: View, action: Action) -> int:
    """Cards held in the suit of a declaration's first card (which marriage names trumps)."""
    if not action.cards or view.trump >= 0:
        return 0
    suit_of = view.deck.card_suit
    suit = suit_of[action.cards[0]]
    return sum(1 for c in view.hand if suit_of[c] == suit)


def _exchange_gains(view: View, tables: CardTables) -> bool:
    """Whether the turn-up is worth taking for the seven (S0 table: the exchange scores)."""
    up = view.turn_up
    return up < 0 or tables.deck.card_rank[up] < tables.seven_rank or tables.seven_points > 0


# ---------------------------------------------------------------------- questions


def answer(view: View, legal: Sequence[Action]) -> Action:
    """The answer the rules make likeliest to be right.

    The answer nearest the ``target`` of the question's section of the data (the
    lift: the packet the dealer aims at), else the middle one.
    """
    name = legal[0].combo.partition(" ")[0]
    section = view.rules.data.get(name)
    target = section.get("target") if isinstance(section, dict) else None
    if isinstance(target, int):
        numbered = [a for a in legal if a.combo.partition(" ")[2].lstrip("-").isdigit()]
        if numbered:
            return min(numbered, key=lambda a: abs(int(a.combo.partition(" ")[2]) - target))
    return legal[len(legal) // 2]


# ---------------------------------------------------------------------- play


def play_card(view: View, legal: Sequence[Action]) -> Action:
    """The card to play: leading or following, while the stock lasts or after."""
    tables = tables_of(view.rules)
    left = view.stock_size + (view.turn_up >= 0)
    if left:
        keep = keep_values(view, view.hand)
    else:
        keep = {c: 0.5 * power(tables, c, view.trump) for c in view.hand}
    if not view.trick:
        if left:
            return _lead(view, legal, tables, keep, left)
        return _lead_endgame(view, legal, tables, keep)
    return _follow(view, legal, tables, keep, left)


def _others_cards(view: View) -> list[int]:
    """The cards the other seats may hold: those unseen and those seen in their hands."""
    found = list(view.unseen)
    for seat, cards in enumerate(view.known):
        if seat != view.seat:
            found.extend(cards)
    return found


def _sure(tables: CardTables, card: int, others: Sequence[int], trump: int) -> bool:
    """Whether no card the others may hold takes ``card`` led."""
    return not any(beats(tables, other, card, trump) for other in others)


def _lead(
    view: View, legal: Sequence[Action], tables: CardTables, keep: dict[int, float], left: int
) -> Action:
    """Lead the card it can best spare (S0: lead low, keep trumps, aces and scoring cards).

    The trick that empties the stock also scores the last trick and lets its
    winner declare once more: then a card no one can take is led (S0: lead the
    ace of trumps to win it).
    """
    trump = view.trump
    last = left <= view.rules.players and tables.last_at_exhaustion
    others = _others_cards(view) if last else []
    rank_of = tables.deck.card_rank

    def cost(action: Action) -> tuple[float, int]:
        card = action.cards[0]
        value = keep.get(card, 0.0) + 0.5 * tables.brisque[card]
        if last and _sure(tables, card, others, trump):
            value -= tables.last_trick_points + 20.0
        return value, -rank_of[card]

    return min(legal, key=cost)


def _lead_endgame(
    view: View, legal: Sequence[Action], tables: CardTables, keep: dict[int, float]
) -> Action:
    """Lead in the end-game the card whose trick wins most brisques.

    Each card is tried against the others' cards as the duties make them answer
    (follow, win, trump if void); S0's last hint: in the last tricks make your
    own aces and tens and take the adversary's.
    """
    trump = view.trump
    others = _others_cards(view)
    brisque = tables.brisque
    final = len(view.hand) == 1

    def gain(action: Action) -> float:
        card = action.cards[0]
        pool = answers(tables, card, others, trump) if others else []
        winners = [c for c in pool if beats(tables, c, card, trump)]
        if winners:  # taken: with its best brisque
            reply = max(brisque[c] for c in winners)
            return -(brisque[card] + reply) - tables.last_trick_points * final - keep[card]
        reply = min((brisque[c] for c in pool), default=0.0)
        return brisque[card] + reply + tables.last_trick_points * final + keep[card]

    return max(legal, key=gain)


def _trick_winner(view: View, tables: CardTables) -> tuple[int, int]:
    """The card winning the trick so far and the seat that played it."""
    trump = view.trump
    best, seat = view.trick[0], view.trick_seats[0]
    for card, player in zip(view.trick[1:], view.trick_seats[1:], strict=True):
        if beats(tables, card, best, trump):
            best, seat = card, player
    return best, seat


def _follow(
    view: View, legal: Sequence[Action], tables: CardTables, keep: dict[int, float], left: int
) -> Action:
    """Answer a lead: take the trick only when it pays for the card, else throw the cheapest.

    What pays: the brisques in the trick and the winning card, and what winning
    lets it declare (S0's first hint: win only to declare or to make aces and
    tens); a card's worth to keep (:func:`keep_values`) is the price.

    A trick a partner is winning is left to him; with seats still to play after it,
    a trick taken may yet be lost, so it counts for less.
    """
    trump = view.trump
    side_of = view.rules.side_of
    mine = side_of[view.seat]
    best, best_seat = _trick_winner(view, tables)
    order = view.trick_order
    later = order[order.index(view.seat) + 1 :] if view.seat in order else ()
    risk = any(side_of[s] != mine for s in later)
    sure = 0.4 if risk else 1.0  # how much of a trick taken stays ours
    brisque = stakes(tables, trump)
    stake_now = sum(brisque[c] for c in view.trick)
    last = left and left <= view.rules.players and tables.last_at_exhaustion
    final = not left and len(view.hand) == 1
    bonus = tables.last_trick_points * (last or final)
    counted: list[Declarable] = []  # (counted when a card that takes the trick is weighed)

    def gain(action: Action) -> tuple[float, float]:
        card = action.cards[0]
        stake = stake_now + brisque[card]
        taking = beats(tables, card, best, trump)
        ours = taking or side_of[best_seat] == mine
        value = (2 * sure - 1) * stake if ours else -stake
        if taking:
            extra = bonus
            if left:
                if not counted:
                    counted.append(Declarable(view, view.hand))
                extra += DECLARE_SHARE * counted[0].without(card) - LEAD_COST
            value += sure * extra
        elif ours:
            value += bonus
        return value - keep.get(card, 0.0), -power(tables, card, trump)

    return max(legal, key=gain)

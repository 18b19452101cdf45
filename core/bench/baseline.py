"""A straight-line random playout of ordinary two-hand bezique, with no framework.

The calibration of ``bezique bench``: the framework is measured against a
straight-line pure-Python random playout of this game.  This is one, written as
plainly and as fast as we can in one function of local variables, with the rules
``bezique bench`` plays (variants/ordinary.yaml, S0): the 3-2-3 deal and turn-up,
the seven turned up, exchanged or shown; free play while the stock lasts; after
each trick the winner may declare, several combinations sharing no card, each
with a card never declared, a declared card only in another class or a higher
level of its own (marriage 20, royal marriage 40, sequence 250; bezique 40,
double 500; four aces, kings, queens, knaves 100/80/60/40); brisques at once; the
24th trick scores 10; then the end-game duties (follow, win, trump if void).  The
random player picks uniformly among the distinct legal actions, as the
framework's does.  It is not the framework's oracle: no test compares their
games, only their speeds.

Run: ``python -m bezique.bench.baseline --deals 5000``, or ``bezique bench --baseline``
for the framework's speed as a ratio to it.
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import combinations

ACE, TEN, KING, QUEEN, KNAVE, SEVEN = 0, 1, 2, 3, 4, 7
"""Rank indices in the order A T K Q J 9 8 7; a card's face is suit * 8 + rank."""
SPADES, DIAMONDS = 0, 2
QS, JD = SPADES * 8 + QUEEN, DIAMONDS * 8 + KNAVE
MARRIAGES, BEZIQUES, QUARTETS = 0, 1, 2
QUARTET_POINTS = {ACE: 100, KING: 80, QUEEN: 60, KNAVE: 40}
Form = tuple[int, int, int, int, tuple[int, ...]]
"""A combination's form in a hand: (points, class, level, name index, cards)."""


def combinations_in(hand: list[int], trump: int) -> list[Form]:
    """Every form in the hand: (points, class, level, name index, cards)."""
    by_face: dict[int, list[int]] = {}
    ranks = [0] * 8
    for card in hand:
        by_face.setdefault(card & 31, []).append(card)
        ranks[card & 7] += 1
    forms: list[Form] = []
    if ranks[KING] and ranks[QUEEN]:
        for suit in range(4):
            kings, queens = by_face.get(suit * 8 + KING), by_face.get(suit * 8 + QUEEN)
            if kings and queens:
                forms.extend(marriages(by_face, suit, kings, queens, suit == trump))
    queens, knaves = by_face.get(QS), by_face.get(JD)
    if queens and knaves:
        forms.extend((40, BEZIQUES, 1, 2, (q, j)) for q in queens for j in knaves)
        if len(queens) == 2 and len(knaves) == 2:
            forms.append((500, BEZIQUES, 2, 3, (*queens, *knaves)))
    for rank, points in QUARTET_POINTS.items():
        if ranks[rank] >= 4:
            cards = [c for c in hand if c & 7 == rank]
            forms.extend((points, QUARTETS, 1, 4 + rank, four) for four in combinations(cards, 4))
    return forms


def marriages(
    by_face: dict[int, list[int]], suit: int, kings: list[int], queens: list[int], trump: bool
) -> list[Form]:
    """The marriages of a suit and, in trumps, the sequences."""
    forms: list[Form] = [
        (40 if trump else 20, MARRIAGES, 1, 0, (k, q)) for k in kings for q in queens
    ]
    others = [by_face.get(suit * 8 + r) for r in (ACE, TEN, KNAVE)] if trump else []
    if others and all(others):
        forms.extend(
            (250, MARRIAGES, 2, 1, (a, t, k, q, j))
            for a in others[0] or ()
            for t in others[1] or ()
            for k in kings
            for q in queens
            for j in others[2] or ()
        )
    return forms


def legal_declarations(
    hand: list[int], trump: int, levels: dict[int, list[int]], used: set[int]
) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """The distinct declarations open now: (points, class, level, cards)."""
    found: dict[tuple[object, ...], tuple[int, int, int, tuple[int, ...]]] = {}
    for points, kind, level, name, cards in combinations_in(hand, trump):
        if used.intersection(cards):
            continue  # several a trick, sharing no card
        card_levels = [levels.get(c) for c in cards]
        if all(card_levels):
            continue  # every declaration needs a card never declared
        if any(lv is not None and lv[kind] >= level for lv in card_levels):
            continue  # a declared card joins only another class or a higher level
        key = (
            name,
            *sorted(
                (c & 31, tuple(lv) if lv else ()) for c, lv in zip(cards, card_levels, strict=True)
            ),
        )
        found.setdefault(key, (points, kind, level, cards))
    return list(found.values())


def play_deal(rng: random.Random, dealer: int) -> tuple[list[int], int]:
    """Play one random deal; return the two scores and the number of decisions."""
    deck = list(range(64))
    rng.shuffle(deck)
    hands: list[list[int]] = [[], []]
    position = 0
    for packet in (3, 2, 3):
        for seat in (1 - dealer, dealer):
            hands[seat].extend(deck[position : position + packet])
            position += packet
    turn_up = deck[position]
    trump = (turn_up & 31) >> 3
    stock = deck[position + 1 :]
    scores = [0, 0]
    if turn_up & 7 == SEVEN:
        scores[dealer] += 10
    sevens_scored = {turn_up} if turn_up & 7 == SEVEN else set()
    levels: dict[int, list[int]] = {}  # declared cards: level per class
    leader = 1 - dealer
    decisions = 0
    while hands[leader]:
        follower = 1 - leader
        lead = hands[leader].pop(int(rng.random() * len(hands[leader])))
        options = hands[follower]
        if not stock and turn_up < 0:
            options = end_game_plays(options, lead, trump)
        second = options[int(rng.random() * len(options))]
        hands[follower].remove(second)
        decisions += 2
        levels.pop(lead, None)
        levels.pop(second, None)
        lead_face, second_face = lead & 31, second & 31
        if (second_face >> 3 == lead_face >> 3 and second_face & 7 < lead_face & 7) or (
            second_face >> 3 == trump != lead_face >> 3
        ):
            winner = follower
        else:
            winner = leader
        scores[winner] += 10 * ((lead & 7) in (ACE, TEN)) + 10 * ((second & 7) in (ACE, TEN))
        leader = winner
        if not stock and turn_up < 0:
            continue
        if len(stock) == 1:
            scores[winner] += 10  # the last trick: the one that exhausts the stock (S0)
        turn = Turn(hands[winner], trump, turn_up, levels, sevens_scored)
        decisions += turn.play(rng)
        scores[winner] += turn.points
        turn_up = turn.turn_up
        hands[winner].append(stock.pop())
        if stock:
            hands[1 - winner].append(stock.pop())
        else:
            hands[1 - winner].append(turn_up)
            turn_up = -1
            levels.clear()  # declared cards go back to the hands
    return scores, decisions


class Turn:
    """The trick winner's turn: the seven of trumps and declarations, until he draws."""

    def __init__(
        self,
        hand: list[int],
        trump: int,
        turn_up: int,
        levels: dict[int, list[int]],
        sevens_scored: set[int],
    ) -> None:
        """A turn for ``hand``; ``levels`` and ``sevens_scored`` are the deal's, updated here."""
        self.hand, self.trump, self.turn_up = hand, trump, turn_up
        self.levels, self.sevens_scored = levels, sevens_scored
        self.used: set[int] = set()
        self.points = 0

    def seven_options(self) -> list[tuple[str, int]]:
        """Exchange (unless the turn-up is a seven) and show, for the first unscored seven."""
        seven = self.trump * 8 + SEVEN
        for card in self.hand:
            if card & 31 == seven and card not in self.sevens_scored:
                show = [("show", card)]
                return show if self.turn_up & 31 == seven else [("exchange", card), *show]
        return []

    def play(self, rng: random.Random) -> int:
        """Random choices among the legal actions and 'draw', until 'draw'; the decisions."""
        decisions = 0
        while True:
            sevens = self.seven_options()
            declarations = legal_declarations(self.hand, self.trump, self.levels, self.used)
            count = len(sevens) + len(declarations) + 1
            if count == 1:
                return decisions
            decisions += 1
            choice = int(rng.random() * count)
            if choice == count - 1:
                return decisions
            if choice < len(sevens):
                self.seven(*sevens[choice])
            else:
                self.declare(*declarations[choice - len(sevens)])

    def seven(self, how: str, card: int) -> None:
        """Score the seven of trumps; the exchanged turn-up is not declared this turn."""
        self.sevens_scored.add(card)
        self.points += 10
        if how == "exchange":
            self.hand.remove(card)
            self.hand.append(self.turn_up)
            self.used.add(self.turn_up)
            self.turn_up = card

    def declare(self, points: int, kind: int, level: int, cards: tuple[int, ...]) -> None:
        """Score a combination and raise its cards' level in its class."""
        self.points += points
        self.used.update(cards)
        for card in cards:
            card_levels = self.levels.setdefault(card, [0, 0, 0])
            card_levels[kind] = max(card_levels[kind], level)


def end_game_plays(hand: list[int], lead: int, trump: int) -> list[int]:
    """Follow suit and win if able; if void, trump if able; else anything."""
    suit, rank = (lead & 31) >> 3, lead & 7
    follow = [c for c in hand if (c & 31) >> 3 == suit]
    if follow:
        beating = [c for c in follow if c & 7 < rank]
        return beating or follow
    trumps = [c for c in hand if (c & 31) >> 3 == trump]
    return trumps or hand


def main() -> None:
    """Time ``--deals`` random deals and print deals per second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    decisions = 0
    start = time.perf_counter()
    for deal in range(args.deals):
        decisions += play_deal(rng, deal % 2)[1]
    seconds = time.perf_counter() - start
    print(
        f"straight-line playout: {args.deals} deals in {seconds:.2f} s: "
        f"{args.deals / seconds:.0f} deals/s, {decisions / seconds:.0f} decisions/s"
    )


if __name__ == "__main__":
    main()

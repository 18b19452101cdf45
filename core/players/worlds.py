"""Worlds a player may be in: game states consistent with everything a seat has seen.

A bot that searches cannot look at the game's state: it sees a
:class:`~bezique.engine.views.View`.  :func:`sample_world` deals the cards the view
does not place (the others' unseen cards and the stock) at random into a full
:class:`~bezique.game.GameState` that agrees with the view in every card it
shows: the seat's own hand, every card seen in another hand (laid on the table,
shown, taken from the turn-up), the turn-up, the cards played and won, the
scores, the turn and the plugins' states.  In the end-game (no stock), a card
another seat could not have held, because the duties would then have made the
card it played illegal (a suit it failed to follow), is never dealt to it; the
test is the variant's own ``legal_plays`` rule, asked of the trick as it stood.

:class:`WorldSampler` is the same for many worlds of one view: it builds the
template once (the view's position with the unseen cards left out) and each
world is a copy of it with the unseen cards dealt.  A world's history is the
public one and its next deals are shuffled from the caller's generator; its
``seed`` and stacked decks are not the game's (nobody has seen them).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from bezique.engine.state import RandomSource
from bezique.engine.views import SHARED_FIELDS, View, view_state
from bezique.errors import PlayerError
from bezique.game import GameState
from bezique.hookstate import PluginState

if TYPE_CHECKING:
    from bezique.rules.ruleset import Ruleset

__all__ = ["WorldSampler", "sample_world"]


def sample_world(view: View, rng: random.Random) -> GameState:
    """Return a game state consistent with ``view``, its unseen cards dealt from ``rng``."""
    return WorldSampler(view).sample(rng)


class WorldSampler:
    """Deals many worlds of one view (see the module's docstring)."""

    def __init__(self, view: View) -> None:
        """Build the template of ``view``'s worlds and the constraints on its unseen cards.

        Raise :class:`~bezique.errors.PlayerError` for the view of a game at a real table
        (a refereed game): what a table action proves (a revoke, a card shown) is not
        read, so its worlds are not sampled.
        """
        if view.position["at_table"]:
            raise PlayerError(
                "a refereed game (the record of a real table) is not searched: "
                "its irregularities are not read into worlds"
            )
        self.view = view
        self.template = _template(view)
        self.pool = list(view.unseen)
        """The cards to deal: the unseen ones."""
        self.hidden = list(view.hidden)
        """How many unseen cards each hand holds (the rest is the stock)."""
        self.redrawn = [
            (key, value)
            for key, value in self.template.extra.items()
            if type(value).in_world is not PluginState.in_world
        ]
        """The plugin states with parts each world draws (:meth:`PluginState.in_world`)."""
        self.excluded = _excluded(self.template, view, self.pool)
        """For each seat, the unseen cards its play has shown it does not hold."""

    def sample(self, rng: random.Random) -> GameState:
        """Return one world: a copy of the template with the unseen cards dealt at random."""
        world = self.template.clone()
        pool = self.pool[:]
        shuffle(pool, rng)
        if any(self.excluded):
            dealt = _deal_constrained(pool, self.hidden, self.excluded, rng)
        else:
            dealt = []
            start = 0
            for count in self.hidden:
                dealt.append(pool[start : start + count])
                start += count
            world.stock = pool[start:]
        hands = world.hands
        for seat, cards in enumerate(dealt):
            if cards:
                hands[seat].extend(cards)
        world._count_hands()
        world._random = RandomSource(seed=rng.getrandbits(64))  # (made if it deals)
        data = self.view.rules.data
        extra = world.extra
        for key, value in self.redrawn:  # hidden parts drawn for each world
            extra[key] = value.in_world(data, rng)
        return world


def shuffle(cards: list[int], rng: random.Random) -> None:
    """``rng.shuffle(cards)``, the same draws and the same order, without its calls a card.

    :meth:`random.Random.shuffle` swaps each place from the last down with one below
    it drawn by ``_randbelow``: ``getrandbits`` of the bound's bit length until it falls
    below the bound (Python 3.10 to 3.13).  A generator of another class (one whose
    draws are its own) is asked to shuffle itself.
    """
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for place in range(len(cards) - 1, 0, -1):
        bound = place + 1
        bits = bound.bit_length()
        other = getrandbits(bits)
        while other >= bound:
            other = getrandbits(bits)
        cards[place], cards[other] = cards[other], cards[place]


def _template(view: View) -> GameState:
    """The view's position as a game state, every unseen card left out (the stock empty)."""
    return view_state(view, GameState, _shared(view.rules))


def _shared(rules: Ruleset) -> dict[str, object]:
    """The fields every state of ``rules`` shares (:data:`~bezique.engine.views.SHARED_FIELDS`)."""
    found = rules.tables.get(_SHARED_KEY)
    if found is None:
        probe = GameState(rules, seed=0)
        found = rules.tables[_SHARED_KEY] = {name: getattr(probe, name) for name in SHARED_FIELDS}
    return found


_SHARED_KEY = ("bezique.players.worlds", "shared")
"""Where :func:`_shared` keeps a ruleset's shared fields (its ``tables`` memo)."""


def _excluded(world: GameState, view: View, pool: list[int]) -> list[frozenset[int]]:
    """For each seat, the unseen cards it cannot hold: the end-game duties say so.

    Once the stock is gone nobody draws, so a seat held at each end-game trick it
    played to every card it holds now.  If holding card ``h`` would have made the
    card it played illegal (asked of the variant's ``legal_plays`` with the trick
    as it stood and the hand ``[played, h]``), it does not hold ``h``.  A hand's
    larger legal set only grows from its best category, so the pair test is sound.
    """
    none: list[frozenset[int]] = [frozenset()] * view.rules.players
    if view.stock_size or view.position["turn_up"] >= 0 or not pool or world.places():
        return none  # (cards played from open places are not the hand's: no inference)
    played = view.position["played"]
    seats = view.position["played_by"]
    start = sum(view.position["won_at_exhaustion"])
    excluded: list[set[int]] = [set() for _ in range(view.rules.players)]
    saved = world.trick, world.trick_seats
    legal_plays = world.rules.legal_plays
    starts = view.position["trick_starts"]
    ends = [*starts[1:], len(played)]  # each trick runs from its start to the next one's
    try:
        for lead, end in zip(starts, ends, strict=True):
            if lead < start:
                continue
            for index in range(lead + 1, end):
                seat = seats[index]
                if seat == view.seat or not view.hidden[seat]:
                    continue
                world.trick = played[lead:index]
                world.trick_seats = seats[lead:index]
                card = played[index]
                excluded[seat].update(
                    other for other in pool if card not in legal_plays(world, seat, [card, other])
                )
    finally:
        world.trick, world.trick_seats = saved
    return [frozenset(cards) for cards in excluded]


def _deal_constrained(
    pool: list[int], hidden: list[int], excluded: list[frozenset[int]], rng: random.Random
) -> list[list[int]]:
    """Deal ``pool`` (shuffled) to the hands, ``hidden[seat]`` each, none where excluded.

    Each hand has ``hidden[seat]`` places; the cards, in their random order, take
    places by augmenting paths (Kuhn's bipartite matching, the places tried in a
    random order), so a deal is always found, since the real one exists.  (Not
    exactly uniform over the deals the view allows; every one of them can come out.)
    """
    places = [seat for seat, count in enumerate(hidden) for _ in range(count)]
    holder: list[int] = [-1] * len(places)  # the card in each place

    def take(card: int, tried: list[bool]) -> bool:
        order = list(range(len(places)))
        rng.shuffle(order)
        for place in order:
            if tried[place] or card in excluded[places[place]]:
                continue
            tried[place] = True
            if holder[place] < 0 or take(holder[place], tried):
                holder[place] = card
                return True
        return False

    for card in pool:
        if not take(card, [False] * len(places)) and len(pool) <= len(places):
            raise RuntimeError(f"no deal of the unseen cards fits the view (card {card})")
    dealt: list[list[int]] = [[] for _ in hidden]
    for place, card in enumerate(holder):
        if card >= 0:
            dealt[places[place]].append(card)
    return dealt

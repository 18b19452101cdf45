"""The ordinary game's compiled random playout: whole tricks of random play in one call.

:meth:`GameState.playout <bezique.game.GameState.playout>` plays random games
card by card through the hooks; that is the loop of every simulation and of the
benchmark.  For a two-hand game whose only plugin is ``ordinary``, this module
compiles, once per ruleset, a function that plays the hand's tricks (the cards,
the trick's winner and scores, the quick test for a turn, the draw) over local
variables, with the same random draws and the same results as the card-by-card
path.  Every number still comes from the plugin's
:class:`~bezique.plugins.ordinary.Tables` (compiled from the YAML).  The
winner's turn lists and applies its actions through the plugin's hooks, as the
kernel would, without the kernel's checks; the last draws and the hand's end go
through the kernel.

``tests/test_random_trick.py`` plays whole games of every preset both ways and
compares the states.
"""

from __future__ import annotations

from collections.abc import Callable
from math import trunc
from typing import Any

from bezique.actions import END_TURN, Action, Kind
from bezique.game import GAME_OVER, NO_TURN, PLAY, GameState, ScoreEvent
from bezique.plugins.ordinary import Tables, seven_actions, tables_of, unscored_sevens
from bezique.ruleset import RandomTrick, Ruleset

AnyWith = Callable[[int, int], bool]
""":meth:`QuickTests.any_with <bezique.plugins.ordinary.QuickTests.any_with>`."""
DECLARE = Kind.DECLARE
"""Bound once: the turn loop compares every listed action's kind with it."""
SEVEN_KINDS = (Kind.SHOW, Kind.EXCHANGE)
"""The seven of trumps' actions."""
RandomTurn = Callable[[GameState, int, list[Action], Callable[[], float]], int]
"""The trick winner's random turn (see :func:`_turn_player`)."""


def compile_random_trick(rules: Ruleset) -> RandomTrick | None:
    """Return the random trick of ``rules``' games, or None where it does not apply.

    It applies to two-hand games of the ``ordinary`` plugin alone (another
    plugin may change any hook), except where the seven of trumps scores on
    play, which looks at who played each card.
    """
    if list(rules.data["plugins"]) != ["ordinary"] or rules.players != 2:
        return None
    t = tables_of(rules)
    if t.sevens_on_play:
        return None
    return _compile(rules, t)


def _compile(rules: Ruleset, t: Tables) -> RandomTrick:
    """Bind the variant's tables into the locals of one function that plays a hand's tricks."""
    deck = t.deck
    suit_of, rank_of, face_of, twins = deck.card_suit, deck.card_rank, deck.card_face, deck.twins
    bits = deck.bits
    lead_code, second_code, brisque_scores = _brisque_table(t)
    last_trick_exhausts = t.last_trick_exhausts
    last_trick = [(ScoreEvent(seat, t.last_trick_points, "last_trick"),) for seat in (0, 1)]
    last_points = t.last_trick_points
    new_card_required = t.new_card_required
    tests_by_trump, quick_tests = t.tests_by_trump, t.quick_tests
    turn_actions = rules.turn_actions
    target = rules.target
    endgame_plays = _endgame_rule(t)
    random_turn = _turn_player(rules, t)

    def turn_inputs(state: GameState) -> tuple[int, AnyWith, list[list[Any]], int, int]:
        """What the quick turn test needs; it changes only in a turn.

        The trump suit, the quick tests' ``any_with``, the announced combinations,
        the sevens of trumps that have not scored, and the cards that may make a
        declaration possible: those some combination can use, less those declared
        before where a declaration needs a new card.
        """
        tests = tests_by_trump.get(state.trump) or quick_tests(state)
        sevens = unscored_sevens(state, tests.sevens)
        fresh = tests.cards & ~state.declared_bits if new_card_required else tests.cards
        return state.trump, tests.any_with, state.pending, sevens, fresh

    def random_tricks(state: GameState, draw: Callable[[], float]) -> int:
        """Play tricks at random until the hand ends (see :func:`compile_random_trick`).

        The leader, the count of tricks, the two hands' bitboards and the plays
        not yet in the history live in locals, written to the state
        (:func:`_settle`) before any hook or kernel step reads them.
        """
        hands, held, card_key, on_table = state.hands, state.held, state.card_key, state.on_table
        stock, won, played = state.stock, state.won, state.played
        scores, hand_points, events_list = state.scores, state.hand_points, state.events
        event_hands, hand_no, leader = state.event_hands, state.hand_no, state.to_act
        hand_tags = [[hand_no] * count for count in range(4)]  # event_hands entries
        first = done = state.tricks_done
        logged = len(played)  # the plays in the history so far
        turn_decisions = 0
        turn_done = done  # tricks done at the last turn: the state shows it till another ends
        in_stock_phase = bool(stock) or state.turn_up >= 0
        last_stock = 2 - (state.turn_up >= 0)  # stock at the last draws (1 + turn-up, or 2)
        last_trick_no = _last_trick_number(state, last_trick_exhausts, in_stock_phase, last_stock)
        trump, any_with, pending, sevens, fresh_cards = turn_inputs(state)
        # For each player, the fresh cards he did not hold when the quick tests last
        # found nothing in his hand: only a card drawn since can make them find something.
        unseen = [fresh_cards, fresh_cards]
        state.mark_changed()
        # The leader's and the follower's hands, swapped when the follower wins.
        follower = 1 - leader
        lead_hand, follow_hand = hands[leader], hands[follower]
        lead_held, follow_held = held[leader], held[follower]
        while True:
            opener = leader
            # The lead: any card; a copy is named as legal_actions() names it.
            index = trunc(draw() * len(lead_hand))
            lead = lead_hand[index]
            if lead_held & twins[lead]:  # the first of the interchangeable copies
                index = _first_copy(lead_hand, card_key, card_key[lead])
                lead = lead_hand[index]
            del lead_hand[index]
            lead_held ^= bits[lead]
            if on_table[lead]:
                on_table[lead] = False
                card_key[lead] = face_of[lead]
            # The second card: any while the stock lasts, then the end-game duties.
            if in_stock_phase:
                index = trunc(draw() * len(follow_hand))
                second = follow_hand[index]
            else:
                options = endgame_plays(follow_hand, follow_held, lead, trump)
                second = options[trunc(draw() * len(options))]
                index = follow_hand.index(second)
            if follow_held & twins[second]:  # the first copy (the options keep the hand order)
                index = _first_copy(follow_hand, card_key, card_key[second])
                second = follow_hand[index]
            del follow_hand[index]
            follow_held ^= bits[second]
            if on_table[second]:
                on_table[second] = False
                card_key[second] = face_of[second]
            trick = (lead, second)
            played += trick
            done += 1
            # The higher card of the suit led or a trump wins; of two identical, the lead.
            # The winner leads next: from here on he is the leader.
            if (
                rank_of[second] < rank_of[lead]
                if suit_of[second] == suit_of[lead]
                else suit_of[second] == trump
            ):
                leader, follower = follower, leader
                lead_hand, follow_hand = follow_hand, lead_hand
                lead_held, follow_held = follow_held, lead_held
            won[leader] += trick
            # Brisques and the last trick, as bezique_trick_scores scores them.
            points, events = brisque_scores[leader][lead_code[lead] + second_code[second]]
            if done == last_trick_no:
                state.last_trick_winner = leader
                events += last_trick[leader]
                points += last_points
            if events:
                if scores[leader] + points >= target:  # the kernel sees whether the game is won
                    held[leader], held[follower] = lead_held, follow_held
                    logged = _settle(state, done, leader, opener, done - turn_done > 1, logged)
                    state.score(events)
                    if state.is_over():
                        return 2 * (done - first) + turn_decisions
                else:
                    scores[leader] += points
                    hand_points[leader] += points
                    events_list += events
                    event_hands += hand_tags[len(events)]
            if in_stock_phase:
                # The winner's turn, if the quick tests say he may do anything; else the draw.
                fresh = lead_held & unseen[leader]
                if lead_held & sevens or pending[leader] or (fresh and any_with(lead_held, fresh)):
                    held[leader], held[follower] = lead_held, follow_held
                    logged = _settle(state, done, leader, opener, True, logged)
                    actions = turn_actions(state, leader)
                    if actions:  # his turn; it ends with the draw below
                        state.open_turn(leader, actions)
                        decisions = random_turn(state, leader, actions, draw)
                        turn_decisions += decisions
                        if state.phase == GAME_OVER:
                            return 2 * (done - first) + turn_decisions
                        turn_done = done
                        # His hand is tested whole again (what he declined is there still).
                        if decisions == 1:  # he ended the turn at once: nothing changed
                            unseen[leader] = fresh_cards
                        else:
                            fixed = trump
                            trump, any_with, pending, sevens, fresh_cards = turn_inputs(state)
                            unseen[leader] = fresh_cards
                            # The other's test stands as far as it went, but for the
                            # cards declared since (not in his hand).
                            if trump == fixed:
                                unseen[follower] &= fresh_cards
                            else:
                                unseen[follower] = fresh_cards
                            lead_held, follow_held = held[leader], held[follower]
                    else:
                        unseen[leader] = fresh_cards & ~lead_held
                else:
                    unseen[leader] = fresh_cards & ~lead_held
                if len(stock) > last_stock:  # not yet the last cards
                    card = stock.pop()
                    lead_hand.append(card)
                    lead_held |= bits[card]
                    card = stock.pop()
                    follow_hand.append(card)
                    follow_held |= bits[card]
                    continue
            elif lead_hand:
                continue
            # The last draws (the end-game begins), or the hand's end (a new deal).
            held[leader], held[follower] = lead_held, follow_held
            logged = _settle(state, done, leader, opener, done > turn_done, logged)
            state.draw_round()
            if state.hand_no != hand_no or state.is_over():
                return 2 * (done - first) + turn_decisions
            lead_held, follow_held = held[leader], held[follower]
            in_stock_phase = False

    return random_tricks


BrisqueScore = tuple[int, tuple[ScoreEvent, ...]]
"""The points a trick's brisques score at once, and their score events."""


def _brisque_table(t: Tables) -> tuple[list[int], list[int], list[list[BrisqueScore]]]:
    """The brisques a two-card trick scores at once, from a small table rather than built.

    Returns codes for each card as the lead and as the second card (0 for a card
    that is not a brisque) whose sum indexes each winner's list of scores: the
    events ``Tables.brisques_won`` gives (copies of a face read alike) and their points.
    """
    deck = t.deck
    if not t.brisques_now:  # counted at the hand's end: no trick scores any
        return [0] * deck.size, [0] * deck.size, [[(0, ())], [(0, ())]]
    faces = sorted({deck.card_face[c] for c in range(deck.size) if t.brisque[c]})
    stride = len(faces) + 1
    lead_code = [0] * deck.size
    second_code = [0] * deck.size
    for card in range(deck.size):
        if t.brisque[card]:
            second_code[card] = faces.index(deck.card_face[card]) + 1
            lead_code[card] = second_code[card] * stride
    pairs = [(a, b) for a in [-1, *faces] for b in [-1, *faces]]
    scores = []
    for winner in (0, 1):
        events = [t.brisques_won(winner, [face for face in pair if face >= 0]) for pair in pairs]
        scores.append([(sum(event.points for event in won), won) for won in events])
    return lead_code, second_code, scores


def _last_trick_number(
    state: GameState, exhausting: bool, in_stock_phase: bool, last_stock: int
) -> int:
    """The number (``tricks_done`` once it is played) of the hand's last trick, or -1.

    ``exhausting``: the trick after which the last cards are drawn (the stock then
    holds ``last_stock``); it drew two cards a trick till then.  Else the hand's
    final trick, when every card left has been played, two a trick.
    """
    done, left = state.tricks_done, len(state.stock)
    if exhausting:
        if not in_stock_phase or left < last_stock or (left - last_stock) % 2:
            return -1
        return done + (left - last_stock) // 2 + 1
    cards = left + (state.turn_up >= 0) + sum(len(hand) for hand in state.hands)
    return done + cards // 2


def _turn_player(rules: Ruleset, t: Tables) -> RandomTurn:
    """The trick winner's random turn, as ``playout`` plays it through the kernel.

    The kernel lists the turn actions and 'end' (:meth:`GameState.legal_actions`),
    applies the one drawn through the plugin's hook and lists them again, until
    'end' is drawn; then it draws.  This does the same steps without the
    kernel's checks (every action it applies is one just listed), lists the
    actions after each by :func:`compile_next_actions`, and leaves the draw to
    the trick loop.
    """
    apply_turn_action = rules.apply_turn_action
    next_actions = _next_actions(rules, t)

    def random_turn(
        state: GameState, seat: int, actions: list[Action], draw: Callable[[], float]
    ) -> int:
        """Play ``seat``'s turn from its first ``actions``; return the decisions made."""
        history = state.history
        decisions = 1
        choice = trunc(draw() * (len(actions) + 1))
        while choice < len(actions):
            action = actions[choice]
            history.append(action)
            apply_turn_action(state, seat, action)
            if state.phase == GAME_OVER:
                return decisions
            actions = next_actions(state, seat, action, actions)
            decisions += 1
            choice = trunc(draw() * (len(actions) + 1))
        history.append(END_TURN)
        state.phase = PLAY
        state.mark_changed()
        return decisions

    return random_turn


def compile_next_actions(rules: Ruleset) -> NextActions:
    """Return how the ordinary plugin lists a turn's actions again after one is applied.

    The function returned takes the state just after ``seat`` applied
    ``action``, drawn from the list ``actions``, and returns what the
    ``bezique_turn_actions`` hook would list now, without listing afresh where
    the last list tells:

    - Where combinations declared after one trick may share no card (S0's
      several, with trumps already fixed), a declaration changes nothing the
      other listed declarations depend on but the cards it used: the hand, the
      cards counted new and every other card's class levels stay as they were.
      The next list is the last one without the declarations that share a card
      with it, unless a declared card has another copy in the hand (copies
      that were interchangeable no longer are, so the forms change).
    - The seven of trumps, shown or exchanged, changes no declaration (under
      any ``per_trick``) where no combination uses a seven: showing it changes
      nothing else, and the card taken in exchange may not be declared in the
      same turn (A13), so each combination keeps the forms it had.  The next
      list is the seven's actions as they now stand, then the last list's
      declarations and announcements.

    ``tests/test_random_trick.py`` compares it with the hook after every
    action of many turns.  Only for variants whose one plugin is ``ordinary``
    (another plugin may list a turn otherwise): raise ValueError for others.
    """
    if list(rules.data["plugins"]) != ["ordinary"]:
        raise ValueError(f"{rules.variant.name}: the turn is not the ordinary plugin's alone")
    return _next_actions(rules, tables_of(rules))


NextActions = Callable[[GameState, int, Action, list[Action]], list[Action]]
"""See :func:`compile_next_actions`."""


def _next_actions(rules: Ruleset, t: Tables) -> NextActions:
    """:func:`compile_next_actions`, from the plugin's tables."""
    turn_actions: Callable[[GameState, int], list[Action]] = rules.turn_actions
    twins = t.deck.twins
    # Several combinations a trick, sharing no card (S0), with trumps fixed.
    disjoint_only = not (t.one_per_trick or t.compound or t.trumps_by_marriage)
    suits = range(len(t.deck.suits))
    sevens_apart = not any(
        t.quick_tests_for(suit).cards & t.quick_tests_for(suit).sevens for suit in suits
    )

    def next_actions(
        state: GameState, seat: int, action: Action, actions: list[Action]
    ) -> list[Action]:
        """The turn actions of ``seat`` after ``action``, drawn from ``actions``."""
        kind = action.kind
        if kind == DECLARE:
            cards = action.cards
            if disjoint_only and not any(state.held[seat] & twins[card] for card in cards):
                declared = set(cards)  # what is still legal: what shares none of them
                return [a for a in actions if a.kind != DECLARE or declared.isdisjoint(a.cards)]
        elif kind in SEVEN_KINDS and sevens_apart:
            combinations = [a for a in actions if a.kind not in SEVEN_KINDS]
            return seven_actions(state, t, seat) + combinations
        return turn_actions(state, seat)

    return next_actions


def _first_copy(hand: list[int], card_key: list[int], key: int) -> int:
    """The index of the first card in ``hand`` whose copy key is ``key``."""
    index = 0
    while card_key[hand[index]] != key:
        index += 1
    return index


def _settle(
    state: GameState, tricks_done: int, winner: int, opener: int, turn_over: bool, logged: int
) -> int:
    """Write the trick loop's locals to the state, as the kernel would have them now.

    ``opener`` led the trick just played; ``turn_over``: a trick has ended since
    the last turn, so the state shows none.  The plays from index ``logged`` of
    ``state.played`` on go into the history; return how many plays there are now.
    """
    state.tricks_done = tricks_done
    state.leader = state.to_act = winner
    state.trick_order = (opener, 1 - opener)
    if turn_over:
        state.turn = NO_TURN
    played = state.played
    state.history += map(state.rules.play_actions.__getitem__, played[logged:])
    return len(played)


def _endgame_rule(t: Tables) -> Callable[[list[int], int, int, int], list[int]]:
    """The second player's cards once the stock is gone, as ``endgame_plays`` gives them.

    The function returned takes the hand, its bitboard, the card led and the
    trump suit; the bitboard tells a void suit without reading the hand.
    """
    duties: dict[str, Any] = t.endgame
    follow_suit, must_win, must_trump = (
        duties["follow_suit"],
        duties["must_win"],
        duties["must_trump"],
    )
    deck = t.deck
    suit_of, rank_of = deck.card_suit, deck.card_rank
    suit_cards = [
        sum(deck.bits[c] for c in range(deck.size) if suit_of[c] == suit)
        for suit in range(len(deck.suits))
    ]

    def endgame_plays(hand: list[int], held: int, lead: int, trump: int) -> list[int]:
        """Follow suit and win if able; void, trump if able; else any card (as the duties say)."""
        led = suit_of[lead]
        if held & suit_cards[led]:
            if not follow_suit:
                return hand
            follow = [c for c in hand if suit_of[c] == led]
            if must_win:
                rank = rank_of[lead]
                beating = [c for c in follow if rank_of[c] < rank]
                if beating:
                    return beating
            return follow
        if must_trump and trump >= 0 and led != trump and held & suit_cards[trump]:
            return [c for c in hand if suit_of[c] == trump]
        return hand

    return endgame_plays

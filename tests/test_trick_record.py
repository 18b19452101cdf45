"""The game's trick record (bezique.engine.tricks): who led, the cards, the winner, the points."""

from __future__ import annotations

import random

import pytest

from bezique.actions import END_TURN
from bezique.engine.state import StateData
from bezique.engine.tricks import Trick, hand_tricks
from bezique.engine.views import View, view_state
from bezique.errors import RecordError
from bezique.game import GameState, from_json, new_game
from bezique.testing import scenario

SEAT_0 = ["7S", "8D", "9C", "JC", "QD", "KS", "TC", "8H"]
SEAT_1 = ["AS", "TD", "7C", "8C", "9D", "JD", "QC", "KC"]


def two_tricks() -> GameState:
    """Hearts trumps (the nine turned up); seat 1 deals, so seat 0 leads.

    Trick 1: 7S led, AS over it (the higher card of the suit led wins): seat 1 wins and
    scores the ace's brisque at once (ordinary: brisques.timing immediate, 10 points).
    Trick 2: seat 1 leads TD, seat 0 trumps it with 8H: seat 0 wins the ten's brisque.
    """
    state = scenario("ordinary", hands=[SEAT_0, SEAT_1], turn_up="9H", dealer=1)
    for text in ("play 7S", "play AS"):
        state.apply(text)
    state.apply(END_TURN)  # seat 1 declares nothing: both draw
    for text in ("play TD", "play 8H"):
        state.apply(text)
    return state


def texts(state: GameState, cards: tuple[int, ...]) -> list[str]:
    return [state.deck.card_text(card) for card in cards]


def test_each_trick_is_recorded_with_its_leader_cards_winner_and_points() -> None:
    state = two_tricks()
    first, second = state.tricks
    assert (first.hand, first.leader, first.seats, texts(state, first.cards)) == (
        0,
        0,
        (0, 1),
        ["7S", "AS"],
    )
    assert (first.winner, first.owner, first.points) == (1, 1, (0, 10))
    assert (second.leader, second.seats, texts(state, second.cards)) == (1, (1, 0), ["TD", "8H"])
    assert (second.winner, second.owner, second.points) == (0, 0, (10, 0))
    assert state.leader == second.winner == 0


def test_a_view_holds_the_record_and_its_observation_reads_it() -> None:
    state = two_tricks()
    view = state.view(1)
    assert view.tricks == state.tricks and view.tricks is not state.tricks
    seen = view.observation
    assert seen["tricks_done"] == 2
    assert seen["played"] == ["7S", "AS", "TD", "8H"]
    assert seen == state.observation(1)
    shared = {"rules": state.rules, "deck": state.deck, "side_of": state.side_of}
    assert view_state(view, StateData, shared).tricks == state.tricks


def test_the_record_survives_clone_and_from_json_and_an_edit_is_refused() -> None:
    state = two_tricks()
    copy = state.clone()
    assert copy.tricks == state.tricks and copy.tricks is not state.tricks
    copy.apply(copy.legal_actions()[-1])  # seat 0 ends his turn
    copy.apply(copy.legal_actions()[0])
    copy.apply(copy.legal_actions()[0])
    assert len(copy.tricks) == 3 and len(state.tricks) == 2
    data = state.to_json()
    assert data["tricks"] == [
        [0, [0, 1], list(state.tricks[0].cards), 1, 1, [0, 10]],
        [0, [1, 0], list(state.tricks[1].cards), 0, 0, [10, 0]],
    ]
    assert from_json(data).tricks == state.tricks
    del data["tricks"]  # a state saved before the record: the replay rebuilds it
    assert from_json(data) == state
    data["tricks"] = state.to_json()["tricks"]
    data["tricks"][1][3] = 1  # the second trick given to seat 1
    with pytest.raises(RecordError, match=r"saved game state: tricks: the saved value is not"):
        from_json(data)


def test_the_record_is_kept_for_the_whole_game_across_a_deal() -> None:
    state = new_game("ordinary", seed=5)
    rng = random.Random(2)
    while state.hand_no == 0 or not hand_tricks(state.tricks, 1):
        state.apply(rng.choice(state.legal_actions()))
    hand0 = hand_tricks(state.tricks, 0)
    # Two 32-card packs, two players: 32 tricks, every card once.
    assert len(hand0) == 32
    assert sorted(c for trick in hand0 for c in trick.cards) == list(range(64))
    # Each trick's winner led the next; the first was led by the seat after the dealer (1).
    assert [t.leader for t in hand0] == [1] + [t.winner for t in hand0[:-1]]
    last = [e for e, h in zip(state.events, state.event_hands, strict=True) if h == 0]
    # Ordinary's last trick is the one whose draws empty the stock: 16 cards dealt, the
    # other 48 (the turn-up with them) drawn two a trick, so the 24th.
    last_trick = [e.player for e in last if e.rule == "last_trick"]
    assert last_trick == [hand0[23].winner]
    assert hand0[23].points[hand0[23].winner] >= 10  # its ten
    # The trick scores recorded are the hand's brisques, sevens and last trick, no more.
    trick_rules = {"brisques", "last_trick", "seven_of_trumps.on_play"}
    for seat in (0, 1):
        scored = sum(e.points for e in last if e.player == seat and e.rule in trick_rules)
        assert sum(t.points[seat] for t in hand0) == scored
    (first,) = hand_tricks(state.tricks, 1)
    assert first.leader == (state.dealer + 1) % 2
    assert state.observation(0)["tricks_done"] == 1 == state.tricks_done


def test_a_view_s_record_holds_only_what_every_seat_saw() -> None:
    state = two_tricks()
    view = View(state, 0)
    public = {c for trick in view.tricks for c in trick.cards}
    assert public == {c for trick in state.tricks for c in trick.cards}
    assert all(isinstance(trick, Trick) for trick in view.tricks)
    assert not public & set(state.hands[1])  # no card still held by the other seat

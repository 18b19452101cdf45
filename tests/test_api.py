"""The public game API: observations, action notation and ids, refusals, starting games."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from stacked import royal_deal

from bezique.actions import END_TURN, Action, Kind
from bezique.errors import BeziqueError, IllegalActionError, VariantError
from bezique.game import GAME_OVER, PLAY, TURN, GameState, from_json, new_game, ruleset_for
from bezique.plugins.ordinary import sevens_scored
from bezique.records.record import record_of, replay
from bezique.testing import check_invariants, scenario, stacked_deck
from bezique.variant import load_variant

VARIANT = "ordinary"
RULES = ruleset_for(VARIANT)
"""One ruleset for the games below that need no overrides (loading a variant takes ~30 ms)."""

FULL_DECK = [
    rank + suit for suit in "SHDC" for rank in ("A", "T", "K", "Q", "J", "9", "8", "7")
] * 2


def random_states(seeds: range, every: int) -> Iterator[GameState]:
    """Yield every ``every``-th state (and the last) of random games, one per seed."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(RULES, seed=seed)
        step = 0
        while not state.is_over():
            if step % every == 0:
                yield state
            state.apply(rng.choice(state.legal_actions()))
            step += 1
        yield state


def turn_position() -> GameState:
    """Seat 0 has just won a trick holding a royal marriage and a sequence (trumps hearts)."""
    state = royal_deal(VARIANT)
    state.apply("play AS")
    state.apply("play 7S")
    assert state.phase == TURN and state.to_act == 0
    return state


def twin_kings_position() -> GameState:
    """Seat 0 has two kings of trumps on the table: one declared in a royal marriage
    (marriages level 1), one in a sequence (marriages level 2)."""
    state = turn_position()
    for text in ("declare royal_marriage KH QH", "draw", "play AC", "play 7C"):
        state.apply(text)
    state.apply("declare sequence AH TH KH QH* JH")
    state.apply("draw")
    kings = [c for c in state.hands[0] if state.deck.card_text(c) == "KH"]
    assert len(kings) == 2 and all(state.on_table[c] for c in kings)
    assert state.levels[kings[0]] != state.levels[kings[1]]
    assert state.phase == PLAY and state.to_act == 0
    return state


# --------------------------------------------------------------------------- observation


def test_observation_shows_own_hand_and_public_facts() -> None:
    seen_opponent_table = False
    for state in random_states(range(4), 7):
        for player in range(state.players):
            view = state.observation(player)
            json.loads(json.dumps(view))
            assert view["player"] == player
            hand = state.hands[player]
            assert view["hand"] == [state.card_token(c, player) for c in hand]
            assert sorted(t.split("*")[0] for t in view["hand"]) == sorted(
                state.deck.card_text(c) for c in hand
            )
            assert view["hand_sizes"] == [len(h) for h in state.hands]
            assert view["stock"] == state.stock_left()
            assert isinstance(view["stock"], int)
            assert view["scores"] == state.scores
            assert view["phase"] == state.phase
            assert view["to_act"] == state.to_act
            turn_up = state.deck.card_text(state.turn_up) if state.turn_up >= 0 else None
            assert view["turn_up"] == turn_up
            for seat, cards in enumerate(state.hands):
                table = [state.card_token(c, seat) for c in cards if state.on_table[c]]
                assert view["table"][seat] == table
                assert all("*" in token for token in view["table"][seat])
                if seat != player and table:
                    seen_opponent_table = True
            if state.to_act == player and not state.is_over():
                assert view["legal"] == [state.action_text(a) for a in state.legal_actions()]
            else:
                assert "legal" not in view
    assert seen_opponent_table, "no sampled state had an opponent's declared cards"


def hidden_cards_reshuffled(state: GameState, player: int, rng: random.Random) -> GameState:
    """Return a copy in which every card ``player`` may not see has been dealt anew.

    The opponents' concealed cards (not on the table) and the stock are shuffled
    together and dealt back into the same places (the declared cards stay where they are).
    """
    other = state.clone()
    scored = set(sevens_scored(state))
    opponents = [s for s in range(state.players) if s != player]
    pool = [c for c in other.stock if c not in scored]
    for seat in opponents:
        pool += [c for c in other.hands[seat] if not other.on_table[c] and c not in scored]
    rng.shuffle(pool)
    refill = iter(pool)
    other.stock = [c if c in scored else next(refill) for c in other.stock]
    for seat in opponents:
        other.hands[seat] = [
            c if other.on_table[c] or c in scored else next(refill) for c in other.hands[seat]
        ]
    check_invariants(other)
    return other


def test_observation_hides_concealed_cards_and_stock_order() -> None:
    rng = random.Random(3)
    changed = 0
    for state in random_states(range(4), 5):
        for player in range(state.players):
            other = hidden_cards_reshuffled(state, player, rng)
            opponent = 1 - player
            changed += other.hands[opponent] != state.hands[opponent]
            assert other.observation(player) == state.observation(player)
    assert changed > 100, "the reshuffle should usually change the opponent's hand"


def test_observation_of_the_player_to_act_only_lists_legal() -> None:
    state = new_game(RULES, seed=1)
    acting = state.to_act
    assert "legal" in state.observation(acting)
    assert "legal" not in state.observation(1 - acting)
    state.playout(random.Random(1), hands=None)
    assert all("legal" not in state.observation(p) for p in range(state.players))


# --------------------------------------------------------------------------- notation and ids


def test_action_text_round_trip_in_random_states() -> None:
    for state in random_states(range(12), 1):
        legal = state.legal_actions()
        texts = [state.action_text(a) for a in legal]
        assert len(set(texts)) == len(texts), f"two legal actions read alike: {texts}"
        for action, text in zip(legal, texts, strict=True):
            assert state.parse_action(text) == action, f"{text!r} does not read back"


@pytest.mark.slow
def test_applying_the_text_equals_applying_the_action() -> None:
    for state in random_states(range(4), 9):
        for action in state.legal_actions():
            by_action = state.clone()
            by_action.apply(action)
            by_text = state.clone()
            by_text.apply(state.action_text(action))
            assert by_text.to_json() == by_action.to_json(), state.action_text(action)


def test_text_accepts_symbols_case_and_ten() -> None:
    state = scenario(
        VARIANT,
        hands=[
            ["TS", "QH", "KH", "AH", "TH", "JH", "AS", "AC"],
            ["7S", "8S", "7C", "8C", "9S", "9C", "8D", "7D"],
        ],
        turn_up="9H",
        dealer=1,
    )
    (card,) = [c for c in state.hands[0] if state.deck.card_text(c) == "TS"]
    ten = Action(Kind.PLAY, (card,))
    for text in ("play TS", "PLAY ts", "play 10S", "play T♠", "  play   TS  "):
        assert state.parse_action(text) == ten


def test_end_turn_reads_draw_then_pass() -> None:
    state = turn_position()
    assert state.action_text(END_TURN) == "draw"
    assert state.parse_action("pass") == END_TURN == state.parse_action("draw")


def test_action_ids_are_stable_and_distinct() -> None:
    rng = random.Random(0)
    for state in random_states(range(12), 1):
        legal = state.legal_actions()
        ids = state.legal_action_ids()
        assert ids == [state.action_id(a) for a in legal]
        assert all(isinstance(i, int) and i >= 0 for i in ids)
        assert len(set(ids)) == len(ids), (
            f"distinct legal actions share an id: {[state.action_text(a) for a in legal]} {ids}"
        )
        if not state.is_over() and rng.random() < 0.05:
            copy = from_json(state.to_json()) if rng.random() < 0.05 else state.clone()
            assert copy.legal_action_ids() == ids


def test_action_ids_mean_the_same_in_any_game() -> None:
    ids: dict[str, set[int]] = {}
    for state in random_states(range(6), 3):
        for action in state.legal_actions():
            ids.setdefault(state.action_text(action), set()).add(state.action_id(action))
    assert len(ids) > 50
    assert all(len(found) == 1 for found in ids.values()), {
        text: found for text, found in ids.items() if len(found) > 1
    }
    by_id: dict[int, str] = {}
    for text, (number,) in ids.items():
        assert by_id.setdefault(number, text) == text, f"{text!r} and {by_id[number]!r} share an id"


def test_twin_kings_declared_in_different_combinations_read_differently() -> None:
    state = twin_kings_position()
    legal = state.legal_actions()
    texts = [state.action_text(a) for a in legal]
    kings = [a for a in legal if state.deck.card_text(a.cards[0]) == "KH"]
    assert len(kings) == 2, "the two kings are not interchangeable, so both are listed"
    assert len(set(texts)) == len(texts), f"two legal actions read alike: {texts}"
    for action in kings:
        assert state.parse_action(state.action_text(action)) == action


def test_twin_kings_declared_in_different_combinations_have_distinct_ids() -> None:
    state = twin_kings_position()
    kings = [a for a in state.legal_actions() if state.deck.card_text(a.cards[0]) == "KH"]
    assert len({state.action_id(a) for a in kings}) == 2


def test_kings_declared_in_different_classes_have_distinct_ids() -> None:
    """KS in a marriage and in four kings, the other KS in four kings only: two choices."""
    state = scenario(
        VARIANT,
        hands=[
            ["KS", "QS", "KS", "KH", "KD", "AS", "AC", "AD"],
            ["7S", "8S", "7C", "8C", "9S", "9C", "8D", "7D"],
        ],
        turn_up="9H",
        dealer=1,
    )
    for text in ("play AS", "play 7S", "declare marriage KS QS", "draw", "play AC", "play 7C"):
        state.apply(text)
    state.apply("declare four_kings KS KS* KH KD")
    state.apply("draw")
    legal = state.legal_actions()
    texts = [state.action_text(a) for a in legal]
    assert "play KS*marriages+quartets" in texts and "play KS*quartets" in texts
    ids = state.legal_action_ids()
    assert len(set(ids)) == len(ids), dict(zip(texts, ids, strict=True))


def test_seven_of_trumps_text_names_the_seven_that_may_still_score() -> None:
    """With both sevens of trumps in hand, one already shown, 'show 7H' means the other."""
    state = scenario(
        VARIANT,
        hands=[
            ["7H", "7H", "AS", "AC", "AD", "8S", "8C", "8D"],
            ["7S", "9S", "7C", "9C", "7D", "9D", "JS", "JC"],
        ],
        turn_up="KH",
        dealer=1,
    )
    state.apply("play AS")
    state.apply("play 7S")
    state.apply("show 7H")
    state.apply("draw")
    state.apply("play AC")
    state.apply("play 7C")
    assert state.phase == TURN
    legal = state.legal_actions()
    sevens = [a for a in legal if a.kind in (Kind.SHOW, Kind.EXCHANGE)]
    assert [state.action_text(a) for a in sevens] == ["exchange 7H", "show 7H"]
    for action in sevens:
        assert state.parse_action(state.action_text(action)) == action


# --------------------------------------------------------------------------- refusals


def assert_refused(state: GameState, action: Action | str, rule: str | None = None) -> str:
    before = state.to_json()
    legal = list(state.legal_actions())
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert state.to_json() == before, "a refused action changed the state"
    assert state.legal_actions() == legal
    message = str(info.value)
    assert message.strip()
    if rule is not None:
        assert info.value.rule == rule, message
    return message


GARBAGE = [
    "",
    "   ",
    "\x00",
    "xyzzy",
    "dance QS",
    "play ZZ",
    "play Q",
    "play QSS",
    "play 11S",
    "declare",
    "announce",
    "draw QS",
    "pass 7H",
    "play " + "Q" * 500,
    "play\u00a0ZZ\u2028",
]


@pytest.mark.parametrize("text", GARBAGE)
def test_garbage_text_is_refused(text: str) -> None:
    state = new_game(RULES, seed=2)
    assert_refused(state, text)
    with pytest.raises(IllegalActionError):
        state.parse_action(text)


@pytest.mark.parametrize(
    ("text", "example"),
    [
        ("play", "play QS"),
        ("play QS JD", "play QS"),
    ],
)
def test_an_action_of_one_card_must_name_one(text: str, example: str) -> None:
    state = new_game(RULES, seed=2)
    with pytest.raises(IllegalActionError, match=f"^'{text}': name one card, as in '{example}'$"):
        state.parse_action(text)


@pytest.mark.parametrize(
    "text", ["draw", "pass", "exchange 7H", "show 7H", "declare bezique QS JD"]
)
def test_turn_actions_refused_while_a_card_is_due(text: str) -> None:
    state = new_game(RULES, seed=2)
    assert state.phase == PLAY
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply(text)
    assert state.to_json() == before
    # Refused for the phase, or (a seven not held) for the card.
    assert info.value.rule in ("declarations.after_winning", "play.own_cards"), str(info.value)


def test_turn_action_of_held_cards_names_the_rule() -> None:
    state = turn_position()
    state.apply("draw")
    assert state.phase == PLAY
    assert_refused(state, "declare royal_marriage KH QH", "declarations.after_winning")
    assert_refused(state, END_TURN, "declarations.after_winning")


def test_play_refused_while_the_winner_may_declare() -> None:
    state = turn_position()
    assert_refused(state, "play KH", "declarations.before_drawing")
    assert_refused(state, Action(Kind.PLAY, (state.hands[0][0],)), "declarations.before_drawing")


def test_card_not_held_is_refused() -> None:
    state = new_game(RULES, seed=2)
    seat = state.to_act
    held = {state.deck.card_text(c) for c in state.hands[seat]}
    absent = next(t for t in FULL_DECK if t not in held)
    assert_refused(state, f"play {absent}", "play.own_cards")
    other = state.hands[1 - seat][0]
    assert_refused(state, Action(Kind.PLAY, (other,)), "play.own_cards")
    assert_refused(state, Action(Kind.PLAY, ()), "play.own_cards")
    assert_refused(state, f"play {state.deck.card_text(state.hands[seat][0])}*", "play.own_cards")


@pytest.mark.parametrize("card", [-1, -64, 64, 10_000])
def test_action_with_a_card_that_does_not_exist_is_refused(card: int) -> None:
    # Seat 0 leads and holds both 7C (the last physical card, -1) and AS (card 0, -64).
    state = scenario(
        VARIANT,
        hands=[
            ["7C", "AS", "KH", "AH", "TH", "JH", "7C", "AC"],
            ["7S", "8S", "9H", "8C", "9S", "9C", "8D", "7D"],
        ],
        turn_up="9D",
        dealer=1,
    )
    assert state.to_act == 0
    assert_refused(state, Action(Kind.PLAY, (card,)))


def test_declaration_refused_with_the_rule_explained() -> None:
    state = turn_position()
    assert_refused(state, "declare bezique QS JD", "play.own_cards")
    message = assert_refused(state, "declare four_kings KH KH")
    assert "four_kings" in message or "form" in message
    message = assert_refused(state, "declare no_such_thing KH QH")
    assert "no_such_thing" in message
    state.apply("declare royal_marriage KH QH")
    message = assert_refused(state, "declare royal_marriage KH* QH*")
    assert "declared" in message


def endgame_refusable() -> tuple[GameState, int]:
    """Return an end-game position where the second player holds a card he may not play."""
    rng = random.Random(5)
    state = new_game(RULES, seed=5)
    while True:
        if state.is_over():
            state = new_game(RULES, seed=rng.randrange(10**6))
        if not state.stock_left() and state.trick and state.phase == PLAY:
            allowed = {state.card_key[a.cards[0]] for a in state.legal_actions()}
            hand = state.hands[state.to_act]
            refusable = [c for c in hand if state.card_key[c] not in allowed]
            if refusable:
                return state, refusable[0]
        state.apply(rng.choice(state.legal_actions()))


def test_endgame_duty_refusal_says_what_to_play() -> None:
    state, card = endgame_refusable()
    message = assert_refused(state, state.action_text(Action(Kind.PLAY, (card,))))
    assert "follow suit" in message
    assert_refused(state, Action(Kind.PLAY, (card,)))


def test_every_action_refused_once_the_game_is_over() -> None:
    state = new_game(RULES, seed=9)
    state.playout(random.Random(9), hands=None)
    assert state.phase == GAME_OVER
    assert_refused(state, "draw", "game.target")
    assert_refused(state, Action(Kind.PLAY, (0,)), "game.target")


# --------------------------------------------------------------------------- starting games


def test_stacked_deck_deals_as_documented() -> None:
    order = [
        "AS", "TS", "KS",  # seat 1 (left of dealer 0): three
        "QS", "JS", "9S",  # seat 0: three
        "8S", "7S",  # seat 1: two
        "AH", "TH",  # seat 0: two
        "KH", "QH", "JH",  # seat 1: three
        "9H", "8H", "7H",  # seat 0: three
        "AD",  # turn-up
        "TD", "KD",  # the first two cards drawn
    ]  # fmt: skip
    rest = list(FULL_DECK)
    for card in order:
        rest.remove(card)
    state = new_game(VARIANT, decks=[order + rest], first_dealer=0, seed=1)
    text = state.deck.card_text
    assert sorted(map(text, state.hands[1])) == sorted(
        ["AS", "TS", "KS", "8S", "7S", "KH", "QH", "JH"]
    )
    assert sorted(map(text, state.hands[0])) == sorted(
        ["QS", "JS", "9S", "AH", "TH", "9H", "8H", "7H"]
    )
    assert text(state.turn_up) == "AD"
    assert state.trump == state.deck.suit_index("D")
    assert state.to_act == 1
    assert state.stock_left() == 64 - 16
    state.apply("play AS")
    state.apply("play QS")
    state.apply("draw")
    assert text(state.hands[1][-1]) == "TD" and text(state.hands[0][-1]) == "KD"


def test_stacked_deck_helper_matches_the_deal() -> None:
    hands = [
        ["QS", "JD", "KS", "AS", "TS", "7H", "8H", "9H"],
        ["AC"] * 2 + ["KC"] * 2 + ["QC"] * 2 + ["JC"] * 2,
    ]
    order = stacked_deck(RULES, hands, turn_up="9D", stock=["AD", "TD"], dealer=1)
    state = new_game(RULES, decks=[order], first_dealer=1, seed=0)
    for seat in range(2):
        assert sorted(map(state.deck.card_text, state.hands[seat])) == sorted(hands[seat])


@pytest.mark.parametrize(
    "deck",
    [
        FULL_DECK[:-1],  # 63 cards
        [*FULL_DECK, "AS"],  # 65 cards
        ["AS", *FULL_DECK[1:-1], "AS"],  # three aces of spades, one 7C short
        [],
        ["ZZ", *FULL_DECK[1:]],
        ["QS", "JD"],
    ],
    ids=["short", "long", "triple", "empty", "not-a-card", "two-cards"],
)
def test_stacked_deck_errors_are_clean(deck: list[str]) -> None:
    with pytest.raises(BeziqueError) as info:
        new_game(RULES, decks=[deck], seed=0)
    assert str(info.value).startswith("stacked deck:")


def test_second_stacked_deck_is_checked_too() -> None:
    with pytest.raises(BeziqueError):
        new_game(RULES, decks=[FULL_DECK, FULL_DECK[:10]], seed=0)


def test_bad_first_dealer_is_a_clean_error() -> None:
    with pytest.raises(BeziqueError):
        new_game(RULES, first_dealer=2)
    with pytest.raises(BeziqueError):
        new_game(RULES, first_dealer=-1)


def test_unknown_variant_is_a_variant_error() -> None:
    with pytest.raises(VariantError):
        new_game("no-such-variant")


def play_to_the_end(state: GameState, seed: int) -> int:
    """Play randomly to the end; return the highest score before the last action."""
    rng = random.Random(seed)
    before = 0
    while not state.is_over():
        before = max(state.scores)
        state.apply(rng.choice(state.legal_actions()))
    return before


def test_new_game_by_name() -> None:
    state = new_game(VARIANT, seed=1)
    assert state.rules.variant.name == "ordinary"
    assert state.rules.data["game"]["target"] == 1000
    assert state.players == 2 and state.deck.size == 64
    assert all(len(hand) == 8 for hand in state.hands)


def test_new_game_with_overrides_takes_effect() -> None:
    state = new_game(VARIANT, overrides={"game": {"target": 500}}, seed=4)
    assert state.rules.data["game"]["target"] == 500
    before = play_to_the_end(state, 4)
    assert before < 500 <= state.scores[state.winner]
    assert state.to_json()["overrides"] == {"game": {"target": 500}}
    assert from_json(state.to_json()).rules.data["game"]["target"] == 500
    assert replay(record_of(state)).to_json() == state.to_json()


def test_new_game_from_a_house_rule_file(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(
        "name: house\nextends: ordinary\nsummary: Ordinary bezique to 500.\ngame:\n  target: 500\n",
        encoding="utf-8",
    )
    state = new_game(str(path), seed=6)
    assert state.rules.variant.name == "house"
    assert state.rules.data["game"]["target"] == 500
    assert state.rules.data["cards"]["packs"] == 2
    before = play_to_the_end(state, 6)
    assert before < 500 <= state.scores[state.winner]
    assert from_json(state.to_json()).rules.data == state.rules.data
    assert replay(record_of(state)).to_json() == state.to_json()
    # A path object works as well as its text.
    assert new_game(path, seed=6).rules.data == state.rules.data


@pytest.mark.parametrize("how", ["ruleset", "variant", "scenario"])
def test_game_from_loaded_rules_with_overrides_keeps_them(how: str) -> None:
    """A game started from a Ruleset or Variant that carries overrides saves those overrides."""
    overrides = {"game": {"target": 500}}
    if how == "ruleset":
        state = new_game(ruleset_for(VARIANT, overrides), seed=3)
    elif how == "variant":
        state = new_game(load_variant(VARIANT, overrides), seed=3)
    else:
        hands = [
            ["QS", "JD", "KS", "AS", "TS", "7H", "8H", "9H"],
            ["AC", "TC", "KC", "QC", "JC", "9C", "8C", "7C"],
        ]
        state = scenario(VARIANT, hands=hands, turn_up="9D", overrides=overrides)
    assert state.rules.data["game"]["target"] == 500
    state.playout(random.Random(3), hands=None)
    assert from_json(state.to_json()).rules.data["game"]["target"] == 500
    rebuilt = replay(record_of(state))
    assert rebuilt.rules.data["game"]["target"] == 500
    assert rebuilt.to_json() == state.to_json()


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3])
def test_deck_shuffled_is_random_shuffle(seed: int) -> None:
    """Deck.shuffled deals exactly what random.shuffle would, so seeds keep their deals."""
    deck = new_game("ordinary", seed=1).deck
    for _ in range(20):
        mine, theirs = random.Random(seed), random.Random(seed)
        expected = list(range(deck.size))
        theirs.shuffle(expected)
        assert deck.shuffled(mine) == expected
        assert mine.getstate() == theirs.getstate()
        seed += 1

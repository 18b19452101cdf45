"""bezique.rl: the action space, the observation array, PettingZoo and OpenSpiel."""

from __future__ import annotations

import collections
import hashlib
import importlib.util
import itertools
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from bezique.engine.tricks import hand_tricks
from bezique.game import GAME_OVER, from_json, new_game, ruleset_for
from bezique.records.record import record_of, replay
from bezique.rl.actions import ActionSpaceError, space_for
from bezique.rl.observation import describe, encode, layout
from bezique.variant.registry import variant_files

VARIANTS = sorted(variant_files())
"""Every registered variant (the quick run keeps one case of each test: tests/conftest.py)."""


def _random_game(variant: str, seed: int, steps: int):
    """States of a random game of ``variant``, chosen by index; yields before each step."""
    rules = ruleset_for(variant)
    space = space_for(rules)
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.phase == GAME_OVER:
            return
        yield state
        legal = space.legal_indices(state)
        state.apply(space.action(state, legal[int(rng.random() * len(legal))]))


# ---------------------------------------------------------------- the action space


def test_the_space_numbers_every_kind_of_action_by_its_text():
    texts = set(space_for(ruleset_for("ordinary")).texts())
    assert {"draw", "play QS", "play QS*", "exchange 7H", "show 7H"} <= texts
    assert {"declare bezique QS JD", "declare bezique QS* JD", "announce marriage KS QS*"} <= texts
    assert "declare four_kings KS KS KH KH" in texts  # duplicates count (two packs)
    assert "declare four_kings KS KS KS KH" not in texts  # never more copies than packs
    assert "declare marriage KS QH" not in texts  # the variant's check refuses it
    assert not any("@" in t for t in texts)  # no partner in a two-hand game
    partners = set(space_for(ruleset_for("four-hand-partners")).texts())
    assert "declare double_bezique QS QS@ JD JD@" in partners
    polish = set(space_for(ruleset_for("polish")).texts())
    assert {"declare sequence", "exchange"} <= polish  # declared by name, the seven implied
    lift = space_for(ruleset_for("six-pack-lift")).texts()
    assert [t for t in lift if t.startswith("choose")] == [
        f"choose lift {n}" for n in range(20, 29)
    ]
    assert "declare carte_blanche" in space_for(ruleset_for("rubicon")).texts()
    assert "declare carte_blanche" not in texts


def test_an_index_outside_the_space_or_not_legal_is_refused_in_words():
    state = new_game("ordinary", seed=3)
    space = space_for(state.rules)
    with pytest.raises(ActionSpaceError, match="a whole number from 0 to"):
        space.action(state, len(space))
    with pytest.raises(ActionSpaceError, match="is not legal now"):
        space.action(state, space.texts().index("draw"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_mask_is_exactly_the_legal_actions(variant):
    space = space_for(ruleset_for(variant))
    for state in _random_game(variant, 7, 400):
        legal = state.legal_actions()
        masked = space.legal_indices(state)
        mask = space.mask(state)
        assert [i for i, m in enumerate(mask) if m] == masked
        assert {space.index(state, a) for a in legal} == set(masked)  # every legal one masked
        assert len(masked) == len(legal)  # and by an index of its own
        for index in masked:  # every masked one legal, and its text the action's
            action = space.action(state, index)
            assert action in legal
            assert space.index(state, action) == index
            assert space.parse(state, space.text(index)) == index
            assert space.parse(state, state.action_text(action)) == index
            if action.kind.name == "PLAY":  # a table copy named by its classes, as written
                assert state.action_text(action) == space.text(index)
            elif action.kind.name != "END_TURN":
                text = state.action_text(action)
                assert _without_classes(text) == space.text(index)


def test_two_table_copies_declared_differently_are_two_plays():
    """Grand: a seat with two queens of spades on the table, one declared in a bezique and
    one in a marriage, may play either: two indices, each naming its copy's class."""
    for state in _random_game("grand", 1, 4000):
        texts = [state.action_text(a) for a in state.legal_actions()]
        named = [t for t in texts if t.startswith("play ") and "*" in t and not t.endswith("*")]
        if len(named) >= 2:
            break
    else:
        pytest.fail("no seat had two table copies of a face declared differently")
    space = space_for(state.rules)
    indices = [space.parse(state, text) for text in named]
    assert len(set(indices)) == len(named)
    assert [space.text(i) for i in indices] == named


def _without_classes(text: str) -> str:
    """An action's text without the classes named after a table mark (``QS*beziques``)."""
    words = []
    for word in text.split():
        for mark in "*@":
            if mark in word:
                word = word[: word.index(mark) + 1]
        words.append(word)
    return " ".join(words)


_PRINT_DIGESTS = (
    "import hashlib, sys\n"
    "from bezique.game import ruleset_for\n"
    "from bezique.rl.actions import space_for\n"
    "for name in sys.argv[1:]:\n"
    "    texts = space_for(ruleset_for(name)).texts()\n"
    "    print(name, hashlib.sha256('\\n'.join(texts).encode()).hexdigest())\n"
)


def test_the_numbering_is_the_same_in_another_process():
    names = ["ordinary", "four-hand-partners", "six-pack-lift", "eight-pack", "polish"]
    result = subprocess.run(
        [sys.executable, "-c", _PRINT_DIGESTS, *names],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    here = {
        name: hashlib.sha256("\n".join(space_for(ruleset_for(name)).texts()).encode()).hexdigest()
        for name in names
    }
    there = dict(line.split() for line in result.stdout.splitlines())
    assert there == here


@pytest.mark.parametrize("variant", ["ordinary", "four-hand-partners", "six-pack-lift"])
def test_the_numbering_survives_a_saved_games_round_trip(variant):
    space = space_for(ruleset_for(variant))
    state = new_game(variant, seed=11)
    rng = random.Random(11)
    chosen: list[int] = []  # the index of each action, as the game was played
    while state.phase != GAME_OVER and len(chosen) < 250:
        legal = space.legal_indices(state)
        chosen.append(legal[int(rng.random() * len(legal))])
        state.apply(space.action(state, chosen[-1]))
    rebuilt = from_json(state.to_json())
    assert space.legal_indices(rebuilt) == space.legal_indices(state)
    record = json.loads(json.dumps(record_of(state)))  # the game's record, as a file holds it
    replayed = replay(record)
    assert replayed.history == state.history
    assert space.legal_indices(replayed) == space.legal_indices(state)
    again = new_game(variant, seed=11)  # each recorded action has the index it was chosen by
    for index, action in zip(chosen, replayed.history, strict=True):
        assert space.index(again, action) == index
        again.apply(action)


# ---------------------------------------------------------------- the observation


def test_the_layout_covers_the_array_without_gaps():
    rules = ruleset_for("four-hand-partners")
    fields = layout(rules)
    assert fields[0].start == 0
    for before, after in itertools.pairwise(fields):
        assert after.start == before.start + before.size
    state = new_game(rules, seed=1)
    assert encode(state, 0).shape == (fields[-1].start + fields[-1].size,)
    assert [f.name for f in fields][:3] == ["hand", "table", "trick"]


def test_the_array_says_what_the_observation_says_field_by_field():
    state = new_game("three-hand", seed=2)
    while state.tricks_done < 2 or len(state.trick) != 2:  # the third trick: two cards down
        state.apply(state.legal_actions()[0])
    rules = state.rules
    deck = rules.deck
    seat = state.to_act
    seen = state.observation(seat)
    array = encode(state, seat)
    fields = {f.name: f for f in layout(rules)}

    def field(name: str) -> Any:
        f = fields[name]
        return array[f.start : f.start + f.size].reshape(f.shape)

    assert field("stock")[0] == seen["stock"] == state.stock_left()
    assert np.flatnonzero(field("trump")).tolist() == [state.trump]
    assert np.flatnonzero(field("turn_up")).tolist() == [deck.card_face[state.turn_up]]
    relative = [(other - seat) % 3 for other in range(3)]
    trick = field("trick")
    for other, card in zip(state.trick_seats, state.trick, strict=True):
        assert np.flatnonzero(trick[relative[other]]).tolist() == [deck.card_face[card]]
    assert field("to_act").tolist() == [1, 0, 0]  # the observer is to act
    assert field("dealer")[relative[state.dealer]] == 1
    assert field("hand_sizes").tolist() == [
        len(state.hands[o]) for o in sorted(range(3), key=relative.__getitem__)
    ]
    assert field("phase").tolist() == [1, 0, 0, 0]


def _seen_faces(state, seat) -> collections.Counter[int]:
    """The faces ``seat`` has seen now, counted from the state: every card it could name."""
    deck = state.deck
    cards = list(state.hands[seat])
    cards += [
        c
        for other, hand in enumerate(state.hands)
        if other != seat
        for c in hand
        if state.on_table[c]
    ]
    cards += [c for trick in hand_tricks(state.tricks, state.hand_no) for c in trick.cards]
    cards += state.trick
    if state.turn_up >= 0:
        cards.append(state.turn_up)
    for placed in state.places().values():
        cards += placed
    return collections.Counter(deck.card_face[c] for c in cards)


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_observation_holds_a_card_its_seat_has_not_seen(variant):
    rules = ruleset_for(variant)
    fields = {f.name: f for f in layout(rules)}
    face_fields = ["hand", "table", "trick", "turn_up", "played", "places"]
    for state in _random_game(variant, 5, 300):
        for seat in range(rules.players):
            array = encode(state, seat)
            seen = _seen_faces(state, seat)
            concealed = collections.Counter(
                state.deck.card_face[c] for c in state.hands[seat] if not state.on_table[c]
            )
            for name in face_fields:
                field = fields[name]
                values = array[field.start : field.start + field.size].reshape(field.shape)
                per_face = values.reshape(-1, rules.deck.faces).max(axis=0)
                for face in np.flatnonzero(per_face):
                    assert per_face[face] <= seen[int(face)], (name, seat, face)
            hand = fields["hand"]
            counts = array[hand.start : hand.start + hand.size]
            assert {f: int(n) for f, n in enumerate(counts) if n} == dict(concealed)


# ---------------------------------------------------------------- PettingZoo


# api_test advises a Box or Discrete observation holding a NumPy array; the environment
# has the shape of PettingZoo's classic card games instead (a Dict of the observation and
# the action mask). api_test exempts its own such games by name, and notes it for any other.
@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be:UserWarning"
)
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_pettingzoo_environment_passes_api_test_and_seed_test(variant):
    from bezique.rl.pettingzoo import env

    api_test(env(variant), num_cycles=300)
    seed_test(lambda: env(variant), num_cycles=150)


def test_a_seed_replays_the_game_and_the_winners_are_rewarded():
    from bezique.rl.pettingzoo import env

    one_deal = {"game": {"end": "one_deal", "target": None}}
    games = [env("ordinary", overrides=one_deal) for _ in range(2)]
    for game in games:
        game.reset(seed=4)
        rng = np.random.default_rng(4)
        rewards = dict.fromkeys(game.possible_agents, 0)
        for agent in game.agent_iter():
            seen, reward, done, cut, _ = game.last()
            rewards[agent] += reward
            game.step(None if done or cut else int(rng.choice(np.flatnonzero(seen["action_mask"]))))
        state = game.state
        assert state is not None and state.phase == GAME_OVER
        higher = max(range(2), key=state.scores.__getitem__)
        assert state.scores[higher] > state.scores[1 - higher]  # (this deal has no tie)
        assert rewards == {f"player_{higher}": 1, f"player_{1 - higher}": -1}
    first, second = (game.state for game in games)
    assert first is not None and second is not None and first.history == second.history


# ---------------------------------------------------------------- OpenSpiel

needs_openspiel = pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is None,
    reason="OpenSpiel has no wheel for this platform (Windows): the rl extra leaves it out",
)


@needs_openspiel
@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiel_random_simulation_with_serialization(variant):
    import pyspiel

    import bezique.rl.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game(
        "python_bezique", {"variant": variant, "deals": 16, "one_deal": variant != "ordinary"}
    )
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@needs_openspiel
def test_a_resampled_state_agrees_with_everything_the_seat_has_seen():
    import pyspiel

    import bezique.rl.openspiel  # noqa: F401

    game = pyspiel.load_game("python_bezique", {"variant": "ordinary", "one_deal": True})
    state = game.new_initial_state()
    state.apply_action(9)
    rng = random.Random(9)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(5):
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.legal_actions() == state.legal_actions()


@needs_openspiel
def test_the_ismcts_bot_plays_a_deal_against_the_search_bot():
    from bezique.rl.tournament import match

    results = match("ordinary", games=1, iterations=5)
    assert len(results) == 1 and results[0] in (-1.0, 0.0, 1.0)  # two sides: 1 a win


# ---------------------------------------------------------------- the docs page

DOCS = Path(__file__).resolve().parent.parent / "docs" / "agents.md"


def test_the_docs_observation_table_is_the_layouts():
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in DOCS.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and not line.startswith(("| field", "| ---"))
    ]
    assert rows == [list(row) for row in describe(ruleset_for("ordinary"))]


DOC_BLOCKS = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
"""The page's Python examples (tests/test_docs.py runs them, as every page's)."""


def test_the_docs_show_the_space_the_pettingzoo_agent_and_the_ismcts_bot():
    assert len(DOC_BLOCKS) == 3
    assert "space_for" in DOC_BLOCKS[0]
    assert "bezique.rl.pettingzoo" in DOC_BLOCKS[1]
    assert "ismcts_bot" in DOC_BLOCKS[2]

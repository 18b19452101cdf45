"""A variant that validates must play: sense checks, located at the key, for what would crash.

Each check has a test with the exact ``FILE:LINE:COL`` message; a generator then builds
house rules from schema-valid values and asserts that each is refused with located
messages, or plays random games to the end (``bezique.testing.random_conformance``).
"""

from __future__ import annotations

import itertools
import os
import random
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bezique.commands.cli import main
from bezique.errors import VariantError
from bezique.game import new_game
from bezique.simulation.simulate import simulate
from bezique.testing import check_invariants, random_conformance
from bezique.variant import load_variant, validate_paths, variant_schema, variant_summaries
from bezique.variant.registry import known_plugins

HEADER = "name: house\nextends: {base}\nsummary: A house rule.\n"
"""Three lines that start every house-rule file below (so line numbers start at 4)."""


def house(folder: Path, body: str, base: str = "ordinary") -> str:
    path = folder / "house.yaml"
    path.write_text(HEADER.format(base=base) + textwrap.dedent(body), encoding="utf-8")
    return os.fspath(path)


def problems(spec: str) -> list[str]:
    with pytest.raises(VariantError) as info:
        load_variant(spec)
    return info.value.problems


def validate(capsys: pytest.CaptureFixture[str], path: str) -> tuple[int, str]:
    status = main(["validate", path])
    captured = capsys.readouterr()
    return status, captured.err


# ------------------------------------------------------------------ the stock and the draws


def test_three_players_over_two_packs_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 64 cards less 3 hands of 8 leave 40 to draw, which do not go round three players.
    path = house(tmp_path, "players: 3\n")
    status, err = validate(capsys, path)
    assert status == 1
    assert err == (
        f"{path}:4:10: players: 3 hands of 8 cards leave 40 of the 64 cards to draw (the "
        "turn-up included), which do not go round 3 players one card each a trick; make "
        "the cards left a multiple of 3 (deal.hand_size, cards.packs, players)\n"
    )


def test_a_stock_that_does_not_divide_is_refused_at_the_key_that_made_it(tmp_path: Path) -> None:
    # Three-hand with four packs: 128 - 24 = 104 cards to draw, not a multiple of 3.
    path = house(tmp_path, "cards:\n  packs: 4\n", base="three-hand")
    assert problems(path) == [
        f"{path}:5:10: cards.packs: 3 hands of 8 cards leave 104 of the 128 cards to draw "
        "(the turn-up included), which do not go round 3 players one card each a trick; make "
        "the cards left a multiple of 3 (deal.hand_size, cards.packs, players)"
    ]


def test_the_stock_check_counts_no_turn_up_when_trumps_go_by_the_first_marriage(
    tmp_path: Path,
) -> None:
    # Two packs, two players of 9 cards: 46 cards to draw, no turn-up; even, so it plays.
    path = house(
        tmp_path,
        "trumps:\n  mode: first_marriage\ndeal:\n  hand_size: 9\n  packets: [3, 3, 3]\n",
    )
    assert load_variant(path).data["deal"]["hand_size"] == 9


# ------------------------------------------------------------------ plugins need plugins


def test_polish_without_ordinary_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = house(tmp_path, "plugins: [polish]\n", base="polish")
    status, err = validate(capsys, path)
    assert status == 1
    assert err == (
        f"{path}:4:11: plugins[0]: plugin 'polish' builds on plugin 'ordinary', which must be "
        "listed before it; write plugins: [ordinary, polish]\n"
    )


def test_a_needed_plugin_listed_after_is_refused(tmp_path: Path) -> None:
    path = house(tmp_path, "plugins: [grand, ordinary]\n", base="grand")
    assert problems(path) == [
        f"{path}:4:11: plugins[0]: plugin 'grand' builds on plugin 'ordinary', which must be "
        "listed before it; write plugins: [ordinary, grand]"
    ]


@pytest.mark.parametrize(
    ("plugins", "message"),
    [
        (
            "[ordinary, polish, multihand]",
            "plugins 'polish' and 'multihand' cannot be played together: 'polish' answers "
            "bezique_declaring_roles alone (beside the plugins it builds on), and 'multihand' "
            "answers it too; list only one of them",
        ),
        (
            "[ordinary, partnership, polish]",
            "plugins 'partnership' and 'polish' cannot be played together: 'polish' answers "
            "bezique_declaring_roles, bezique_next_declarer alone (beside the plugins it builds "
            "on), and 'partnership' answers them too; list only one of them",
        ),
        (
            "[ordinary, grand, polish]",
            "plugins 'grand' and 'polish' cannot be played together: 'polish' answers "
            "bezique_declaring_roles alone (beside the plugins it builds on), and 'grand' "
            "answers it too; list only one of them",
        ),
    ],
)
def test_plugins_that_answer_one_procedure_alone_are_not_mixed(
    tmp_path: Path, plugins: str, message: str
) -> None:
    line = f"plugins: {plugins}"
    path = house(tmp_path, line + "\n", base="polish")
    column = line.index(plugins[1:-1].split(", ")[2]) + 1  # the third entry, the later one
    assert problems(path) == [f"{path}:4:{column}: plugins[2]: {message}"]


# ------------------------------------------------------------------ other combinations


def test_a_bezique_of_two_copies_of_one_card_is_refused(tmp_path: Path) -> None:
    # Its declaration 'declare bezique QS QS' could not name its cards apart.
    path = house(tmp_path, "declarations:\n  bezique_cards:\n    H: [QS, QS]\n")
    assert problems(path) == [
        f"{path}:6:13: declarations.bezique_cards.H[1]: the bezique is two different cards "
        "(a queen and a knave in S0); 'QS' is named twice"
    ]


NOTHING_SCORES = """\
brisques:
  points: 0
last_trick:
  points: 0
seven_of_trumps:
  turn_up_points: 0
  declare_points: 0
  exchange_points: 0
declarations:
  combinations:
    marriage: {points: 0}
    royal_marriage: {points: 0}
    sequence: {points: 0}
    bezique: {points: 0}
    double_bezique: {points: 0}
    four_aces: {points: 0}
    four_kings: {points: 0}
    four_queens: {points: 0}
    four_knaves: {points: 0}
"""


def test_a_variant_where_nothing_scores_is_refused(tmp_path: Path) -> None:
    # No one could ever reach the target: random play would never end.
    path = house(tmp_path, NOTHING_SCORES)
    assert problems(path) == [  # at the first of them the house rule set
        f"{path}:5:11: brisques.points: no rule of this variant scores a point (combinations "
        "that fit in a hand, brisques, last trick, seven of trumps, carte blanche), so no one "
        "can reach game.target 1000; give one of them points"
    ]


def test_combinations_larger_than_a_hand_score_nothing(tmp_path: Path) -> None:
    # One-card hands under trumps named by the first marriage (no seven scores): every
    # combination takes two cards or more, so nothing could ever be scored.
    body = (
        "deal:\n  hand_size: 1\n  packets: [1]\nbrisques:\n  points: 0\nlast_trick:\n  points: 0\n"
    )
    path = house(tmp_path, body, base="house-first-marriage")
    assert problems(path) == [
        f"{path}:8:11: brisques.points: no rule of this variant scores a point (combinations "
        "that fit in a hand, brisques, last trick, seven of trumps, carte blanche), so no one "
        "can reach game.target 1000; give one of them points"
    ]
    scoring = house(
        tmp_path,
        body.replace("hand_size: 1\n  packets: [1]", "hand_size: 2\n  packets: [2]"),
        base="house-first-marriage",
    )
    assert load_variant(scoring).data["deal"]["hand_size"] == 2  # a marriage fits


def test_one_rule_that_scores_is_enough(tmp_path: Path) -> None:
    scoring = NOTHING_SCORES.replace("last_trick:\n  points: 0", "last_trick:\n  points: 10")
    path = house(tmp_path, scoring)
    assert load_variant(path).data["last_trick"]["points"] == 10


def test_polish_refuses_the_seven_of_trumps_as_an_open_card(tmp_path: Path) -> None:
    # The seven's rank made a knave: knaves are open cards (S0 Polish, A20b).
    path = house(tmp_path, "seven_of_trumps:\n  rank: J\n", base="polish")
    assert problems(path) == [
        f"{path}:5:9: seven_of_trumps.rank: open_cards.ranks names 'J', the rank of the seven "
        "of trumps, which is never an open card: it is exchanged for the turn-up or scores "
        "where it lies (S0 Polish section, A20b); leave it out of the open ranks"
    ]
    path = house(tmp_path, "open_cards:\n  trump_ranks: [T, '7']\n", base="polish")
    assert problems(path) == [
        f"{path}:5:20: open_cards.trump_ranks[1]: open_cards.trump_ranks names '7', the rank of "
        "the seven of trumps, which is never an open card: it is exchanged for the turn-up or "
        "scores where it lies (S0 Polish section, A20b); leave it out of the open ranks"
    ]


# ------------------------------------------------------------------ the generator

SCHEMA = variant_schema()
DEFS: dict[str, Any] = SCHEMA["$defs"]
PRESETS = [name for name, _ in variant_summaries()]
RANKS = ["A", "T", "K", "Q", "J", "9", "8", "7"]
SUITS = ["S", "H", "D", "C"]
CAPS = {"hand_size": 12, "target": 3000, "count": 8, "beziques": 4, "level": 4}
"""Upper bounds for integers the schema leaves open (or allows up to 15): small games."""
LOCATED = re.compile(r"\S+\.yaml:\d+:\d+: \S")
"""A problem as `bezique validate` must print it: FILE:LINE:COL: message."""


def resolved(prop: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in prop:
        prop = {
            **DEFS[prop["$ref"].rsplit("/", 1)[1]],
            **{k: v for k, v in prop.items() if k != "$ref"},
        }
    return prop


def scalar(name: str, prop: dict[str, Any]) -> st.SearchStrategy[Any] | None:
    """A strategy for a schema-valid scalar (an enum, a boolean, a bounded integer), or None."""
    prop = resolved(prop)
    if "enum" in prop:
        return st.sampled_from(prop["enum"])
    if prop.get("type") == "boolean":
        return st.booleans()
    if prop.get("type") == "integer":
        low = prop.get("minimum", 0)
        if "minimum" in prop and low == 0:  # points: often round numbers
            return st.sampled_from([0, 10, 20, 40, 50, 100, 500])
        return st.integers(low, min(prop.get("maximum", 99), CAPS.get(name, 99)))
    return None


def section(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Some of a section's scalar keys, each set to a schema-valid value."""
    props = DEFS[name]["properties"]
    keys = {k: s for k, p in props.items() if (s := scalar(k, p)) is not None}
    return st.fixed_dictionaries({}, optional=keys)


def now_and_then(odds: int) -> st.SearchStrategy[bool]:
    """True about once in ``odds + 1`` draws (False when shrinking)."""
    return st.sampled_from([False] * odds + [True])


@st.composite
def deal(draw: st.DrawFn) -> dict[str, Any]:
    hand = draw(st.integers(1, CAPS["hand_size"]))
    if draw(now_and_then(9)):  # now and then packets that do not add up
        return {
            "hand_size": hand,
            "packets": draw(st.lists(st.integers(1, 4), min_size=1, max_size=4)),
        }
    packets, left = [], hand
    while left:
        packets.append(draw(st.integers(1, min(left, 4))))
        left -= packets[-1]
    return {"hand_size": hand, "packets": packets}


def combination_change() -> st.SearchStrategy[Any]:
    props = DEFS["combination"]["properties"]
    keys = {k: s for k, p in props.items() if (s := scalar(k, p)) is not None}
    return st.one_of(st.none(), st.fixed_dictionaries({}, optional=keys))


@st.composite
def house_rule(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A preset to extend and a few keys over it, each a value the schema allows."""
    base = draw(st.sampled_from(PRESETS))
    rule: dict[str, Any] = {}
    top = {k: s for k, p in SCHEMA["properties"].items() if (s := scalar(k, p)) is not None}
    rule.update(draw(st.fixed_dictionaries({}, optional=top)))
    for name in (
        "cards",
        "trumps",
        "seven_of_trumps",
        "declarations",
        "brisques",
        "last_trick",
        "endgame",
        "game",
        "carte_blanche",
    ):
        if draw(st.booleans()):
            rule[name] = draw(section(name))
    if draw(st.booleans()):
        rule["deal"] = draw(deal())
    if draw(now_and_then(3)):
        names = [*load_variant(base).data["declarations"]["combinations"], "extra"]
        changes = draw(st.dictionaries(st.sampled_from(names), combination_change(), max_size=3))
        if "extra" in changes:  # a new row: four sevens, say
            changes["extra"] = {
                "points": 10,
                "class": "sevens",
                "level": 1,
                "rank": "7",
                "count": 4,
            }
        rule.setdefault("declarations", {})["combinations"] = changes
    if draw(now_and_then(9)):
        short = st.sampled_from([[r for r in RANKS if r not in drop] for drop in ("9", "8", "98")])
        anything = st.lists(st.sampled_from(RANKS), min_size=1, unique=True)
        rule.setdefault("cards", {})["ranks"] = draw(anything if draw(now_and_then(3)) else short)
    if draw(now_and_then(4)):
        others = sorted(set(known_plugins()) - {"ordinary"})
        plugins = draw(st.lists(st.sampled_from(others), max_size=2, unique=True))
        if not draw(now_and_then(4)):  # mostly on top of the ordinary plugin
            plugins.insert(draw(st.integers(0, len(plugins))), "ordinary")
        rule["plugins"] = plugins or ["ordinary"]
    if draw(now_and_then(4)):
        players = rule.get("players") or load_variant(base).data["players"]
        seats = draw(st.permutations(range(players)))
        count = draw(st.integers(2, max(2, players)))
        rule["partnerships"] = {
            "sides": [list(seats[i::count]) for i in range(count) if seats[i::count]],
            "declarer": draw(st.sampled_from(["either", "winner_or_partner"])),
            "shared_beziques": draw(st.booleans()),
        }
    if draw(now_and_then(5)):
        rule.setdefault("seven_of_trumps", {})["rank"] = draw(st.sampled_from(RANKS))
    if draw(now_and_then(5)):
        rule.setdefault("brisques", {})["ranks"] = draw(
            st.lists(st.sampled_from(RANKS), unique=True)
        )
    if draw(now_and_then(5)):
        cards = st.builds("".join, st.tuples(st.sampled_from(RANKS), st.sampled_from(SUITS)))
        rule.setdefault("declarations", {})["bezique_cards"] = {
            suit: draw(st.lists(cards, min_size=2, max_size=2)) for suit in SUITS
        }
    if draw(now_and_then(9)):
        rule.setdefault("cards", {})["suits"] = draw(
            st.lists(st.sampled_from(SUITS), min_size=1, unique=True)
        )
    if draw(now_and_then(5)):
        rule["open_cards"] = {
            "ranks": draw(st.lists(st.sampled_from(RANKS), unique=True)),
            "trump_ranks": draw(st.lists(st.sampled_from(RANKS), unique=True)),
        }
    return base, rule


GENERATED = settings(
    max_examples=int(os.environ.get("BEZIQUE_GENERATED", "60")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("generated")


@pytest.mark.slow
@GENERATED
@given(case=house_rule(), seed=st.integers(0, 2**16))
def test_a_generated_house_rule_is_refused_at_its_keys_or_plays(
    folder: Path, case: tuple[str, dict[str, Any]], seed: int
) -> None:
    base, rule = case
    path = folder / "generated.yaml"
    text = yaml.safe_dump({"name": "generated", "extends": base, "summary": "Generated.", **rule})
    path.write_text(text, encoding="utf-8")
    found = validate_paths([os.fspath(path)])
    if found:
        assert all(LOCATED.match(problem) for problem in found), found
        event("refused: " + min(p.split(": ")[1] for p in found))
        return
    event("played")
    # Whole games of random players, invariants after every action and each record
    # replayed (to a target of at most 500: a game of one rare scoring rule to 3000
    # would take thousands of hands)...
    target = load_variant(path).data["game"].get("target")  # none: one deal, as it is
    variant = load_variant(path, {} if target is None else {"game": {"target": min(target, 500)}})
    assert random_conformance(variant, hands=1, seed=seed) >= 1
    # ...and `bezique simulate`'s fast path to each game's end, at the variant's target.
    stats = simulate(os.fspath(path), 2, seed)
    assert stats["games"] == 2


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["turn_up", "first_marriage"])
def test_every_deal_geometry_is_refused_at_its_keys_or_plays_a_hand(mode: str) -> None:
    # Packs x players x hand size, one packet: the pack must hold the hands and one card
    # more, and the cards left must go round the players; every other geometry plays.
    played = refused = 0
    for packs, players, hand in itertools.product(range(2, 5), range(2, 6), range(1, 10)):
        overrides = {
            "players": players,
            "cards": {"packs": packs},
            "deal": {"hand_size": hand, "packets": [hand]},
            "trumps": {"mode": mode},
        }
        left = packs * 32 - players * hand
        try:
            variant = load_variant("ordinary", overrides)
        except VariantError as error:
            assert left < 1 or left % players, (overrides, error.problems)
            [problem] = error.problems
            assert problem.split(": ")[1] in {"players", "cards.packs", "deal.hand_size"}
            refused += 1
            continue
        assert left >= 1 and left % players == 0, overrides
        state = new_game(variant, seed=packs * 100 + players * 10 + hand)
        state.playout(random.Random(hand), hands=1)
        check_invariants(state)
        assert state.hand_no == 1 or state.is_over()
        played += 1
    assert played and refused


def test_polish_refuses_open_cards_that_make_no_combination(tmp_path: Path) -> None:
    # Declarations come from the open cards only: with none of these ranks, none is made.
    path = house(tmp_path, "open_cards:\n  ranks: ['9']\n  trump_ranks: []\n", base="polish")
    assert problems(path) == [
        f"{path}:5:3: open_cards.ranks: no combination can be made of open cards, the only "
        "ones declared from in Polish bezique (S0 Polish section): name the ranks of some "
        "combination in open_cards"
    ]
    path = house(tmp_path, "open_cards:\n  ranks: [K]\n  trump_ranks: [Q]\n", base="polish")
    assert load_variant(path).data["open_cards"]["ranks"] == ["K"]  # a marriage of trumps


def test_carte_blanche_taken_from_the_opponent_is_a_two_hand_rule(tmp_path: Path) -> None:
    # With more seats each opponent paid the holder's 50: 8 one-card hands drove every
    # score below zero, hand after hand, and the game never ended.
    path = house(tmp_path, "players: 3\ncards:\n  packs: 3\n", base="house-carte-blanche")
    assert load_variant(path).data["carte_blanche"]["from_opponent"] is False
    path = house(
        tmp_path,
        "players: 3\ncards:\n  packs: 3\ncarte_blanche:\n  from_opponent: true\n",
        base="house-carte-blanche",
    )
    assert problems(path) == [
        f"{path}:8:18: carte_blanche.from_opponent: carte blanche taken from the opponent is "
        "S4's two-hand reading (A18); with 3 players no source says who pays, and taken from "
        "every other player the scores may fall hand after hand so that the game never ends; "
        "set it false, or play two hands"
    ]


def test_a_target_past_reach_is_refused_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(
        "name: huge\nsummary: A game to a score no one reaches.\nextends: ordinary\n"
        "game:\n  target: 99999999999999999999\n",
        encoding="utf-8",
    )
    with pytest.raises(VariantError) as info:
        load_variant(path)
    (problem,) = info.value.problems
    assert problem.startswith(f"{path}:5:11: game.target: ")
    assert "100000" in problem


def test_what_names_trumps_is_said_only_when_no_card_is_turned_up(tmp_path: Path) -> None:
    path = house(tmp_path, "trumps:\n  fixed_by: marriage\n")
    assert problems(path) == [
        f"{path}:5:13: trumps.fixed_by: trumps.fixed_by says what names trumps when the "
        "first marriage does, but trumps.mode is 'turn_up'; remove it or set mode: "
        "first_marriage"
    ]
    fine = house(tmp_path, "trumps:\n  fixed_by: marriage\n", base="house-first-marriage")
    assert load_variant(fine).data["trumps"]["fixed_by"] == "marriage"

"""A variant that validates must play: sense checks, located at the key, for what would crash.

Each check has a test with the exact ``FILE:LINE:COL`` message; a generator then builds
house rules from schema-valid values and asserts that each is refused with located
messages, or plays random games to the end (``bezique.testing.random_conformance``).
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from bezique.cli import main
from bezique.errors import VariantError
from bezique.variant import load_variant

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
            "bezique_turn_actions, bezique_refusal alone (beside the plugins it builds on), and "
            "'multihand' answers them too; list only one of them",
        ),
        (
            "[ordinary, partnership, polish]",
            "plugins 'partnership' and 'polish' cannot be played together: 'polish' answers "
            "bezique_turn_actions, bezique_refusal, bezique_next_declarer alone (beside the "
            "plugins it builds on), and 'partnership' answers them too; list only one of them",
        ),
        (
            "[ordinary, grand, multihand]",
            "plugins 'grand' and 'multihand' cannot be played together: 'grand' answers "
            "bezique_turn_actions, bezique_refusal alone (beside the plugins it builds on), and "
            "'multihand' answers them too; list only one of them",
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
        f"{path}:5:11: brisques.points: no rule of this variant "
        "scores a point (combinations, brisques, last trick, seven of trumps, carte blanche), "
        "so no one can reach game.target 1000; give one of them points"
    ]


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

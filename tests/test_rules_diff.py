"""``bezique diff``: rule by rule on the merged rule lines, never on the files' text.

The expected differences of the four source presets are worked out by hand from their
YAML files (each against ``ordinary``, which they all extend):

* eb1875 sets S0's swapped bezique pair (S and D trumps: QC JH); everything else it
  states is the ordinary value.
* hoyle1909: one declaration a trick (so announced combinations, the ordinary plugin's
  procedure), the last trick the 32nd, penalties to the opponent at 10, 10 and 100.
* cards-encyclopedia: one declaration a trick, the same penalties as hoyle1909; the last
  trick and all the rest inherited.
* modern-article: one declaration a trick, four of a kind one of each suit (four rows),
  brisques at the hand's end, the last trick the 32nd, the same penalties as hoyle1909
  and a revoke losing only the remaining tricks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run
from htmlpage import Page

from bezique.game import ruleset_for
from bezique.rulebook import render_text, rule_lines
from bezique.rulebook.diff import books, differences
from bezique.rulebook.diffshow import diff_html

PER_TRICK = ("declarations", "declarations.per_trick")
PAIR = ("declarations", "declarations.bezique_cards")
ANNOUNCED = ("declarations", "ordinary.announced")
FOURS = [
    ("score_table", f"declarations.combinations.four_{rank}")
    for rank in ("aces", "kings", "queens", "knaves")
]
BRISQUES = ("brisques", "brisques")
LAST = ("brisques", "last_trick")
PENALTIES = [
    ("penalties", f"penalties.{key}")
    for key in ("award", "drew_out_of_turn", "played_with_seven", "nine_cards")
]
REVOKE = ("penalties", "penalties.revoke")

EXPECTED = {
    ("eb1875", "hoyle1909"): [PER_TRICK, PAIR, ANNOUNCED, LAST, *PENALTIES],
    ("eb1875", "cards-encyclopedia"): [PER_TRICK, PAIR, ANNOUNCED, *PENALTIES],
    ("eb1875", "modern-article"): [
        PER_TRICK,
        PAIR,
        ANNOUNCED,
        *FOURS,
        BRISQUES,
        LAST,
        *PENALTIES,
        REVOKE,
    ],
    ("hoyle1909", "cards-encyclopedia"): [LAST],
    ("hoyle1909", "modern-article"): [*FOURS, BRISQUES, REVOKE],
    ("cards-encyclopedia", "modern-article"): [*FOURS, BRISQUES, LAST, REVOKE],
}
"""Every real difference of each pair of source presets, in rulebook order."""


def differing(*names: str, sources: bool = False) -> list[tuple[str, str]]:
    found = differences(books([ruleset_for(name) for name in names]), sources)
    return [(d.section, d.key) for d in found if not d.citations_only]


@pytest.mark.parametrize("pair", sorted(EXPECTED))
def test_each_pair_of_source_presets_differs_in_exactly_the_known_rules(
    pair: tuple[str, str],
) -> None:
    assert differing(*pair) == EXPECTED[pair]
    assert differing(*reversed(pair)) == EXPECTED[pair]


def test_the_four_presets_differ_in_the_union_of_their_differences() -> None:
    union = {key for keys in EXPECTED.values() for key in keys}
    found = differing("eb1875", "hoyle1909", "cards-encyclopedia", "modern-article")
    assert set(found) == union and len(found) == len(union) == 14


def test_citations_alone_are_differences_only_with_sources() -> None:
    found = differences(books([ruleset_for("eb1875"), ruleset_for("hoyle1909")]), True)
    cited = [(d.section, d.key) for d in found if d.citations_only]
    assert ("deal", "deal.hand_size") in cited and ("game", "game.target") in cited
    assert not set(cited) & set(EXPECTED[("eb1875", "hoyle1909")])
    assert all(
        d.sides[0] and d.sides[1] and d.sides[0].text == d.sides[1].text
        for d in found
        if d.citations_only
    )


def test_a_variant_has_the_same_rules_as_itself(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "diff", "ordinary", "ordinary") == (
        0,
        "ordinary and ordinary#2 have the same rules.\n",
        "",
    )
    assert run(capsys, "diff", "ordinary", "ordinary", "--sources")[0] == 0


def test_two_variants_give_a_line_in_words_for_each_side(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "diff", "hoyle1909", "cards-encyclopedia")
    assert (status, err) == (1, "")
    assert out == (
        "hoyle1909 and cards-encyclopedia differ in 1 rule.\n"
        "\n"
        "Brisques and the last trick\n"
        "  last_trick\n"
        "    hoyle1909           The last trick, the very last trick of the hand, scores 10 to "
        "its winner. [S2; A09]\n"
        "    cards-encyclopedia  The last trick, the trick after which the stock is empty, "
        "scores 10 to its winner. [S3]\n"
    )


def test_three_variants_give_a_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "diff", "eb1875", "hoyle1909", "modern-article")
    assert status == 1
    rows = out.splitlines()
    assert rows[0] == "eb1875, hoyle1909 and modern-article differ in 14 rules."
    assert rows[2].split() == ["rule", "eb1875", "hoyle1909", "modern-article"]
    assert "  penalties.nine_cards" in out
    [nine] = [row for row in rows if row.startswith("  penalties.nine_cards")]
    assert nine.split() == ["penalties.nine_cards", "200", "100", "100"]
    [announced] = [row for row in rows if row.startswith("  ordinary.announced")]
    assert announced.split() == ["ordinary.announced", "-", "yes", "yes"]


def test_json_names_each_side(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "diff", "eb1875", "hoyle1909", "--json")
    assert status == 1
    found = json.loads(out)
    assert found["variants"] == ["eb1875", "hoyle1909"] and found["equal"] is False
    keys = [(d["section"], d["key"]) for d in found["differences"]]
    assert keys == EXPECTED[("eb1875", "hoyle1909")]
    last = found["differences"][3]["sides"]
    assert (last["eb1875"]["value"], last["hoyle1909"]["value"]) == (
        "10 stock_exhausting",
        "10 final",
    )
    assert last["hoyle1909"]["source"].startswith("S2 score table")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["diff", "ordinary"], "bezique: diff needs two variants or more\n"),
        (["diff", "ordinary", "nonesuch"], "bezique: no variant named 'nonesuch'"),
        (["diff", "ordinary", "missing.yaml"], "bezique: missing.yaml: cannot read the file"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith(says) and len(err.splitlines()) == 1


def test_the_html_fragment_is_a_table_whose_citations_resolve() -> None:
    fragment = diff_html([ruleset_for("eb1875"), ruleset_for("hoyle1909")])
    cells = Page()
    cells.feed(fragment)
    assert fragment.startswith('<section class="rule-diff">') and "html" not in cells.tags
    assert cells.tags.count("tr") == 1 + 3 + 8  # the head, three sections, eight rules
    assert cells.links and all(link[1:] in cells.ids for link in cells.links)
    same = diff_html([ruleset_for("ordinary"), ruleset_for("ordinary")])
    assert "have the same rules" in same and "<table>" not in same


PAGE = Path(__file__).resolve().parent.parent / "docs" / "compare" / "rulebooks.md"


def readme_block_after(marker: str) -> str:
    """The first plain fenced block of the rulebook page after the line holding ``marker``."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if marker in line)
    begin = lines.index("```", start) + 1
    return "\n".join(lines[begin : lines.index("```", begin)])


def test_the_rulebook_page_shows_the_real_output(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "diff", "eb1875", "hoyle1909")
    assert readme_block_after("hoyle1909` gives the eight rules") == out.rstrip("\n")
    _, out, _ = run(capsys, "diff", "eb1875", "hoyle1909", "cards-encyclopedia", "modern-article")
    shown = readme_block_after("modern-article`, first rows of 14")
    assert out.startswith(shown + "\n")
    rules = ruleset_for("eb1875")
    book = render_text(rule_lines(rules), rules.variant.title, 88)
    excerpt = readme_block_after("COLUMNS=88 bezique rules eb1875")
    parts = [part.strip("\n") for part in excerpt.removesuffix("...").split("\n...\n")]
    assert len(parts) == 2 and all(part in book for part in parts)
    assert "\nThe score table\n---------------\n" in parts[1]


def test_citations_alone_leave_the_rules_equal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    overlay = tmp_path / "x.yaml"
    overlay.write_text(
        "name: x\nextends: ordinary\nbrisques:\n  source: A house note.\n", encoding="utf-8"
    )
    status, out, _ = run(capsys, "diff", "ordinary", str(overlay), "--sources")
    assert status == 0 and "brisques (citations only)" in out
    status, out, _ = run(capsys, "diff", "ordinary", str(overlay), "--sources", "--json")
    found = json.loads(out)
    assert status == 0 and found["equal"] is True and found["citations_equal"] is False


def test_a_house_value_without_a_source_is_cited_to_the_house_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(
        "name: club\nsummary: Our club, 1500 up.\nextends: eb1875\ngame:\n  target: 1500\n",
        encoding="utf-8",
    )
    status, out, _ = run(capsys, "diff", "eb1875", str(club))
    assert (status, out) == (
        1,
        "eb1875 and club differ in 1 rule.\n"
        "\n"
        "Scoring out and the game\n"
        "  game.target\n"
        "    eb1875  The game is 1000 points up; it is over as soon as a side reaches the "
        "target. [S0]\n"
        "    club    The game is 1500 points up; it is over as soon as a side reaches the "
        "target. [house rule (club.yaml)]\n",
    )


def test_the_same_name_from_another_file_is_labelled_by_its_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(Path(__file__).resolve().parent.parent / "variants" / "ordinary.yaml")
    status, out, _ = run(capsys, "diff", "ordinary", path)
    assert (status, out) == (0, f"ordinary and {path} have the same rules.\n")

"""``bezique genealogy``: the texts on a timeline, the asserted derivations, the computed tree.

The tree is UPGMA over the number of rules on which two variants' merged rules differ
(``bezique diff``'s difference); these tests check UPGMA on a worked example with a
known answer, that identical presets are at distance 0 and placed together, that an
asserted derivation is shown with its evidence in the text and the HTML, that the SVG is
well-formed XML, that a disagreement is reported where one is built, and that bad
arguments and bad bibliography data are refused in words.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from clirun import run
from htmlpage import Page

from bezique.compare.genealogy import genealogy, timeline
from bezique.compare.genealogyshow import svg
from bezique.compare.trees import Clade, smallest_clade, upgma
from bezique.errors import BeziqueError
from bezique.variant.bibliography import (
    RELATIONS,
    bibliography,
    bibliography_schema,
    parse_bibliography,
)

DATA = Path(__file__).resolve().parent.parent / "core" / "variant" / "bibliography.yaml"

# --------------------------------------------------------------------------- UPGMA


def joins(tree: Clade) -> dict[frozenset[str], float]:
    """Each group of the tree (two members or more) and the distance it was joined at."""
    return {frozenset(g.members): g.distance for g in tree.groups() if not g.is_leaf}


def test_upgma_gives_the_worked_example_of_five_ribosomal_rnas() -> None:
    # The textbook example of UPGMA (five bacteria's 5S rRNA, distances by hand): a and b
    # join at 17, then e at (23 + 21) / 2 = 22, c and d at 28, and the two groups at the
    # mean of their six cross distances, (21 + 31 + 30 + 34 + 39 + 43) / 6 = 33.
    labels = ["a", "b", "c", "d", "e"]
    matrix = [
        [0, 17, 21, 31, 23],
        [17, 0, 30, 34, 21],
        [21, 30, 0, 28, 39],
        [31, 34, 28, 0, 43],
        [23, 21, 39, 43, 0],
    ]
    tree = upgma(labels, matrix)
    assert joins(tree) == {
        frozenset("ab"): 17,
        frozenset("abe"): 22,
        frozenset("cd"): 28,
        frozenset("abcde"): 33,
    }
    assert smallest_clade(tree, "a", "e").members == ("a", "b", "e")
    assert set(smallest_clade(tree, "c", "d").members) == {"c", "d"}


def test_upgma_puts_identical_labels_together_first() -> None:
    labels = ["x", "y", "z"]
    matrix = [[0, 4, 0], [4, 0, 4], [0, 4, 0]]
    tree = upgma(labels, matrix)
    assert joins(tree) == {frozenset("xz"): 0, frozenset("xyz"): 4}


@pytest.mark.parametrize(
    ("labels", "matrix", "said"),
    [
        ([], [], "at least one label"),
        (["a", "a"], [[0, 1], [1, 0]], "given twice"),
        (["a", "b"], [[0, 1]], "2 by 2"),
        (["a", "b"], [[0, 1], [2, 0]], "symmetric"),
        (["a", "b"], [[0, -1], [-1, 0]], "negative"),
        (["a", "b"], [[1, 1], [1, 0]], "0 from a label to itself"),
    ],
)
def test_upgma_refuses_what_is_no_distance_table(
    labels: list[str], matrix: list[list[float]], said: str
) -> None:
    with pytest.raises(BeziqueError, match=said):
        upgma(labels, matrix)


# --------------------------------------------------------------------------- distances


def same_rules_file(tmp_path: Path) -> Path:
    """A preset of S0 with eb1875's rules and other prose: title, summary, citations."""
    path = tmp_path / "eb1875-reworded.yaml"
    path.write_text(
        "name: eb1875-reworded\n"
        "title: S0's game told again in other words\n"
        "summary: The same rules as eb1875, every text of it said otherwise.\n"
        "extends: eb1875\n"
        "source: S0, told again (the rules are eb1875's).\n"
        "deal:\n"
        "  source: S0 deal, in other words.\n",
        encoding="utf-8",
    )
    return path


def test_identical_presets_are_at_distance_zero_and_sisters(tmp_path: Path) -> None:
    copy = str(same_rules_file(tmp_path))
    found = genealogy(["eb1875", copy, "hoyle1909", "rubicon"])
    assert found.distance("eb1875", "eb1875-reworded") == 0
    assert found.distance("eb1875", "hoyle1909") > 0
    assert set(smallest_clade(found.tree, "eb1875", "eb1875-reworded").members) == {
        "eb1875",
        "eb1875-reworded",
    }
    # the two are joined before anything else, at distance 0
    assert min(g.distance for g in found.tree.groups() if not g.is_leaf) == 0


def test_the_distance_is_bezique_diffs_count_of_rules(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "diff", "eb1875", "hoyle1909", "--json")
    assert status == 1
    counted = [d for d in json.loads(out)["differences"] if not d["citations_only"]]
    found = genealogy(["eb1875", "hoyle1909"])
    assert found.distance("eb1875", "hoyle1909") == len(counted)


def test_a_house_rule_hangs_on_its_parent_which_is_taken_in_when_not_named() -> None:
    found = genealogy(["house-carte-blanche"])
    assert [t.name for t in found.texts] == ["house-carte-blanche", "ordinary"]
    (house,) = found.houses
    assert (house.parent, house.distance) == ("ordinary", 1)  # carte blanche, and only it
    assert found.tree.members == ("ordinary",)


# --------------------------------------------------------------------------- asserted


def test_the_timeline_dates_each_preset_by_its_source() -> None:
    found = genealogy(["eb1875", "hoyle1909", "modern-article", "rubicon", "six-pack"])
    dated = {d.code: d for d in timeline(found)}
    assert (dated["S0"].year, dated["S0"].presets) == ("1875", ("eb1875",))
    assert (dated["S2"].year, dated["S2"].presets) == ("1909", ("hoyle1909",))
    assert dated["HMR"].presets == ("rubicon",)
    # S4 is undated, but a paraphrase of S2 (1909) cannot be older than it
    assert dated["S4"].year == "undated"
    assert dated["S4"].after == "after 1909 (a paraphrase of S2)"
    # a game built on another's gives no such bound (Rubicon's code is older than HMR's book)
    assert dated["PAR"].after == ""
    codes = [d.code for d in timeline(found)]
    assert codes.index("S0") < codes.index("S2") < codes.index("EB11") < codes.index("S4")


def test_an_asserted_derivation_is_shown_with_its_evidence_in_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "genealogy", "modern-article", "hoyle1909")
    assert (status, err) == (0, "")
    assert "S4 (modern-article) is a paraphrase of S2 (hoyle1909)" in out
    assert "agrees: modern-article and hoyle1909 are sisters" in out
    assert "the seventeenth card turned for trumps" in out  # the evidence, in words
    assert "[A33, A36]" in out  # and the readings it rests on
    # each evidence rule, as the later preset states it, alike in the earlier one
    assert "      deal.hand_size: alike\n" in out
    assert "      seven_of_trumps.scoring: alike\n" in out
    assert "modern-article: A seven turned up for trumps gives the dealer 10." in out


def test_an_asserted_derivation_is_shown_with_its_evidence_in_html(tmp_path: Path) -> None:
    from bezique.compare.genealogyshow import page

    text = page(genealogy(["modern-article", "hoyle1909"]))
    parsed = Page()
    parsed.feed(text)
    assert not parsed.outside  # self-contained
    assert "svg" in parsed.tags
    said = " ".join("".join(parsed.text).split())
    assert "S4 (modern-article) is a paraphrase of S2 (hoyle1909)" in said
    assert "the seventeenth card turned for trumps" in said
    assert "<tr><td><code>deal.hand_size</code></td>" in text
    assert "<td>alike</td></tr>" in text
    # every citation links to an entry of the page's bibliography
    assert {link[1:] for link in parsed.links if link.startswith("#")} <= parsed.ids
    assert "src-S4" in parsed.ids and "reading-A36" in parsed.ids


def test_every_derivations_evidence_rules_are_rules_of_both_presets() -> None:
    found = genealogy()
    checked = [a for a in found.derivations if a.evidence]
    assert {a.later for a in checked} >= {"S4", "HMR", "PAR"}
    for asserted in checked:
        for evidence in asserted.evidence:
            assert evidence.later is not None, (asserted.later, evidence.key)
            assert evidence.earlier is not None, (asserted.later, evidence.key)


def test_the_svg_is_well_formed_and_names_every_text() -> None:
    found = genealogy(["eb1875", "hoyle1909", "modern-article", "rubicon", "rubicon-repair"])
    root = ET.fromstring(svg(found))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    words = " ".join("".join(node.itertext()) for node in root.iter())
    for name in ("eb1875", "hoyle1909", "modern-article", "rubicon", "rubicon-repair (1 rule)"):
        assert name in words
    assert "after 1909 (a paraphrase of S2)" in words


# --------------------------------------------------------------------------- disagreements


def test_a_derivation_whose_texts_are_not_sisters_is_reported_with_their_distance() -> None:
    from bezique.compare.genealogy import disagreements

    # cards-encyclopedia is 1 rule from hoyle1909, modern-article 6: the computed tree joins
    # hoyle1909 with cards-encyclopedia first, though hoyle1909 is modern-article's nearest
    found = genealogy(["modern-article", "hoyle1909", "cards-encyclopedia"])
    (asserted,) = [a for a in found.derivations if a.later == "S4"]
    assert asserted.verdict == "nearest"
    assert asserted.distance == found.distance("modern-article", "hoyle1909")
    assert found.distance("hoyle1909", "cards-encyclopedia") < asserted.distance
    said = disagreements(found)
    assert any(
        s.startswith("S4 (modern-article) is a paraphrase of S2 (hoyle1909): partly:")
        and f"nearest text ({asserted.distance} rules)" in s
        and "also holds cards-encyclopedia" in s
        for s in said
    ), said


def test_a_derivation_far_apart_is_reported_as_a_disagreement() -> None:
    found = genealogy(["rubicon", "hoyle1909", "grand", "six-pack"])
    (asserted,) = [a for a in found.derivations if a.later == "HMR"]
    assert asserted.verdict == "apart"
    nearest = found.distance("rubicon", asserted.nearest[0][0])
    assert nearest < found.distance("rubicon", "hoyle1909")


def test_a_house_rule_with_another_texts_rules_is_reported(tmp_path: Path) -> None:
    from bezique.compare.genealogy import disagreements

    # a house rule over ordinary giving S0's swapped bezique cards as eb1875 does
    house = tmp_path / "swapped.yaml"
    house.write_text(
        "name: swapped\nsummary: Ordinary with eb1875's bezique cards.\nextends: ordinary\n"
        "declarations:\n  bezique_cards:\n    S: [QC, JH]\n    D: [QC, JH]\n",
        encoding="utf-8",
    )
    found = genealogy([str(house), "eb1875", "ordinary"])
    assert found.distance("swapped", "eb1875") == 0
    assert found.distance("swapped", "ordinary") == 1
    said = "swapped extends ordinary (1 rule apart) but is nearer eb1875 (0 rules): the same rules."
    assert said in disagreements(found)


# --------------------------------------------------------------------------- arguments


def test_the_files_are_written_safely(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "g.svg"
    assert run(capsys, "genealogy", "eb1875", "--format", "svg", "--output", str(target))[0] == 0
    ET.parse(target)
    status, _, err = run(capsys, "genealogy", "eb1875", "--format", "svg", "--output", str(target))
    assert status == 1 and "exists; add --overwrite" in err
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    status, _, err = run(capsys, "genealogy", "eb1875", "--output", str(fifo), "--overwrite")
    assert status == 1 and "FIFO" in err


@pytest.mark.parametrize(
    ("argv", "status", "said"),
    [
        (["--overwrite"], 1, "--overwrite goes with --output FILE"),
        (["nosuch"], 1, "no variant named 'nosuch'"),
        (["--format", "pdf"], 2, "invalid choice: 'pdf'"),
    ],
)
def test_bad_arguments_are_refused_in_words(
    argv: list[str], status: int, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    found, _, err = run(capsys, "genealogy", *argv)
    assert found == status and said in err


def test_a_variant_citing_no_text_alone_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = tmp_path / "alone.yaml"
    base = yaml.safe_load((DATA.parent.parent.parent / "variants" / "ordinary.yaml").read_text())
    base.pop("source")
    base["name"] = "alone"
    alone.write_text(yaml.safe_dump(base), encoding="utf-8")
    status, _, err = run(capsys, "genealogy", str(alone))
    assert status == 1 and "cites a text of its own" in err


# --------------------------------------------------------------------------- the data


def with_derivation(entry: dict[str, object], code: str = "S4") -> str:
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    data["sources"][code]["derives_from"] = [entry]
    return yaml.safe_dump(data, allow_unicode=True)


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        (
            {"source": "ZZ9", "relation": "paraphrase", "evidence": "x"},
            "sources.S4.derives_from.0.source: 'ZZ9' is not a source",
        ),
        (
            {"source": "S4", "relation": "paraphrase", "evidence": "x"},
            "cannot derive from itself",
        ),
        (
            {"source": "S2", "relation": "paraphrase", "evidence": "x", "readings": ["A99"]},
            "sources.S4.derives_from.0.readings: 'A99' is not a reading",
        ),
        ({"source": "S2", "relation": "copy", "evidence": "x"}, "sources.S4.derives_from.0"),
        ({"source": "S2", "relation": "paraphrase"}, "'evidence' is a required property"),
    ],
)
def test_a_wrong_derivation_is_refused_where_it_is(entry: dict[str, object], said: str) -> None:
    with pytest.raises(BeziqueError, match=said.replace("(", r"\(").replace(".", r"\.")):
        parse_bibliography(with_derivation(entry), "bibliography.yaml")


def test_a_cycle_of_derivations_is_refused() -> None:
    # S2 from S4, and S4 (in the shipped data) from S2
    text = with_derivation({"source": "S4", "relation": "revision", "evidence": "x"}, "S2")
    with pytest.raises(BeziqueError, match=r"S2 derives from itself|S4 derives from itself"):
        parse_bibliography(text, "bibliography.yaml")


def test_the_schemas_relations_are_the_ones_the_code_words() -> None:
    schema = bibliography_schema()
    assert set(schema["$defs"]["derivation"]["properties"]["relation"]["enum"]) == set(RELATIONS)
    assert bibliography().sources["S4"].derives_from[0].source == "S2"


def test_the_help_says_what_it_does_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "genealogy", "--help")
    assert status == 0
    assert "joined by UPGMA" in " ".join(out.split())
    assert "  bezique genealogy --format html --output genealogy.html\n" in out


def test_bezique_sources_says_what_a_text_derives_from(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "sources", "S4")
    said = " ".join(out.split())
    assert status == 0
    assert "A paraphrase of S2 (bezique genealogy): S4 goes through S2's two-hand game" in said

"""The rulebook (``bezique rules``): every rule of every shipped variant said, cited and rendered.

Each rule is a sentence made from the variant's merged data (or a plugin's prose of its
procedure); every value a variant sets, and every key of the shipped schema, is said by
some sentence, so that a new key without prose fails here.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clirun import run
from htmlpage import Page

from bezique.errors import PluginError
from bezique.game import ruleset_for
from bezique.hookspecs import RuleProse, hookimpl
from bezique.rulebook import RuleLine, leaves, rule_lines
from bezique.rulebook.page import render_html
from bezique.rulebook.render import render_markdown, render_text
from bezique.rules import ruleset
from bezique.rules.ruleset import Ruleset
from bezique.variant import registry, variant_from_data, variant_schema, variant_summaries
from bezique.variant.bibliography import bibliography, citations_in

VARIANTS = [name for name, _ in variant_summaries()]
"""Every registered variant: the shipped ones and the eight-pack distribution's."""


def lines_of(name: str) -> list[RuleLine]:
    return rule_lines(ruleset_for(name))


def test_every_registered_variant_is_listed() -> None:
    assert {"ordinary", "eb1875", "rubicon", "six-pack-lift", "eight-pack"} <= set(VARIANTS)
    assert len(VARIANTS) == 31


@pytest.mark.parametrize("name", VARIANTS)
def test_every_value_a_variant_sets_is_said_by_a_sentence_of_its_own(name: str) -> None:
    rules = ruleset_for(name)
    lines = rule_lines(rules)
    covered = {path for line in lines for path in line.covers}
    assert {path for path, _ in leaves(rules.data)} <= covered
    # no value is left to the plain fallback line, and no line claims a value not there
    assert [line.key for line in lines if line.section == "other"] == []
    assert covered <= {path for path, _ in leaves(rules.data)}
    keys = [(line.section, line.key) for line in lines]
    assert len(keys) == len(set(keys))


def _schema_paths(schema: dict[str, Any], node: Any, prefix: str) -> Iterator[str]:
    """Every settable leaf key of the schema, a mapping's free keys written ``*``."""
    while isinstance(node, dict) and "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    if isinstance(node, dict) and "properties" in node:
        for key, sub in node["properties"].items():
            if key not in ("source", "extends"):
                yield from _schema_paths(schema, sub, f"{prefix}{key}.")
    elif isinstance(node, dict) and isinstance(node.get("additionalProperties"), dict):
        yield from _schema_paths(schema, node["additionalProperties"], f"{prefix}*.")
    else:
        yield prefix.rstrip(".")


def _general(path: str) -> str:
    parts = path.split(".")
    if parts[:2] in (["declarations", "combinations"], ["declarations", "bezique_cards"]):
        parts[2] = "*"
    return ".".join(parts)


def test_every_key_of_the_shipped_schema_is_said_by_some_sentence() -> None:
    schema = variant_schema()
    keys = set(_schema_paths(schema, schema, ""))
    assert {"trumps.fixed_by", "declarations.combinations.*.grows_in_one_trick"} <= keys
    assert "lift.sizes" in keys and "rubicon.rounding.stage" in keys
    said = {_general(path) for name in VARIANTS for line in lines_of(name) for path in line.covers}
    assert keys - said == set()


def test_a_rule_the_variant_file_does_not_set_names_the_parent_that_did() -> None:
    eb = {line.key: line for line in lines_of("eb1875")}
    assert eb["endgame.duties"].inherited_from == "ordinary"
    assert eb["deal.hand_size"].inherited_from is None  # eb1875 states it, after S0
    assert eb["declarations.bezique_cards"].inherited_from is None
    assert eb["declarations.combinations.marriage"].inherited_from == "ordinary"
    bicycle = {line.key: line for line in lines_of("four-hand-partners-bicycle")}
    assert bicycle["declarations.combinations.triple_bezique"].inherited_from == "three-hand"
    assert bicycle["endgame.duties"].inherited_from == "four-hand"
    assert bicycle["endgame.mode"].inherited_from is None
    assert bicycle["partnerships.sides"].inherited_from == "four-hand-partners"
    assert {line.inherited_from for line in lines_of("ordinary")} == {None}


def test_merged_data_held_outside_any_file_inherits_nothing() -> None:
    data = copy.deepcopy(ruleset_for("eb1875").data)
    held = Ruleset(variant_from_data(data, "record", origin="eb1875"))
    lines = rule_lines(held)
    assert {line.inherited_from for line in lines} == {None}
    assert [line.text for line in lines] == [line.text for line in lines_of("eb1875")]


def test_an_override_is_the_variants_own_rule() -> None:
    lines = rule_lines(ruleset_for("eb1875", {"endgame": {"must_trump": False}}))
    [duties] = [line for line in lines if line.key == "endgame.duties"]
    assert duties.inherited_from is None
    assert duties.text == (
        "Once the stock is exhausted, in the tricks that remain each player must follow "
        "suit and win the trick if he can."
    )


def test_sentences_are_made_from_the_data_with_their_sections_citation() -> None:
    eb = {line.key: line for line in lines_of("eb1875")}
    assert eb["declarations.combinations.royal_marriage"].text == (
        "Royal marriage (king and queen of trumps) scores 40."
    )
    assert eb["declarations.bezique_cards"].text == (
        "A bezique is the queen of clubs with the knave of hearts when spades or diamonds "
        "are trumps and the queen of spades with the knave of diamonds when hearts or clubs "
        "are trumps."
    )
    assert eb["last_trick"].text == (
        "The last trick, the trick after which the stock is empty, scores 10 to its winner."
    )
    assert str(eb["last_trick"].source).startswith("S0 score table and footnote 5")
    assert eb["declarations.per_trick"].source == eb["declarations.bezique_cards"].source
    six = {line.key: line for line in lines_of("six-pack-trump-bezique")}
    assert six["declarations.combinations.four_trump_queens"].text == (
        "Four trump queens (4 queens of trumps) scores 600."
    )
    assert six["rubicon.game_bonus"].text == (
        "The higher total wins; if the loser reaches 3000 the winner adds 1000 for the game, "
        "and the loser's total is taken off his."
    )
    assert six["trumps.mode"].text.startswith("No card is turned up: the suit of the first")


def test_each_built_in_plugin_describes_its_procedures_with_citations() -> None:
    by_plugin = {
        name: sorted({line.by_plugin for line in lines_of(name) if line.by_plugin})
        for name in ("ordinary", "grand", "polish", "four-hand-partners", "six-pack-lift")
    }
    assert by_plugin == {
        "ordinary": ["ordinary", "referee"],
        "grand": ["grand", "ordinary", "referee"],
        "polish": ["ordinary", "polish", "referee"],
        "four-hand-partners": ["multihand", "ordinary", "partnership", "referee"],
        "six-pack-lift": ["grand", "lift", "ordinary", "referee", "rubicon"],
    }
    for name in ("ordinary", "polish", "rubicon", "four-hand", "six-pack-lift"):
        assert all(line.source for line in lines_of(name) if line.by_plugin not in (None,))
    polish = [line.key for line in lines_of("polish") if line.by_plugin]
    assert "ordinary.stock_exhausted" not in polish  # the open cards stay on the table
    four = {line.key for line in lines_of("four-hand")}
    assert {"multihand.duels", "multihand.second_double"} <= four


def test_every_code_a_rule_cites_is_in_the_bibliography() -> None:
    book = bibliography()
    cited = {
        (line.by_plugin, c.code)
        for name in VARIANTS
        for line in lines_of(name)
        for c in citations_in(line.source or "")
    }
    assert {plugin for plugin, _ in cited} >= {None, "ordinary", "grand", "rubicon", "lift"}
    assert [(plugin, code) for plugin, code in cited if book.lookup(code) is None] == []


def test_an_outside_plugin_without_the_hook_still_has_a_rulebook() -> None:
    lines = lines_of("eight-pack")
    assert "eightpack" not in {line.by_plugin for line in lines}
    table = {line.key: line for line in lines if line.section == "score_table"}
    assert table["declarations.combinations.quintuple_bezique"].text == (
        "Quintuple bezique (5 bezique pairs shown together) scores 9000."
    )
    assert table["declarations.combinations.quintuple_bezique"].inherited_from is None


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    monkeypatch.delenv(registry.BLOCK_ENV, raising=False)


class Bonus:
    """An outside plugin with a section of its own, which it may describe or not."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    @hookimpl
    def bezique_requires(self) -> list[str]:
        return ["ordinary"]

    @hookimpl
    def bezique_variant_schema(self) -> dict[str, Any]:
        points = {"$ref": "#/$defs/points", "description": "Points."}
        section = {"type": "object", "properties": {"points": points}, "description": "A bonus."}
        return {"description": "A bonus.", "properties": {"bonus": section}}

    @hookimpl
    def bezique_describe_rules(self) -> Any:
        return self.answer


def house(tmp_path: Path) -> str:
    path = tmp_path / "house.yaml"
    path.write_text(
        "name: house\nextends: ordinary\nsummary: A bonus.\nplugins: [ordinary, bonus]\n"
        "bonus: {points: 7}\n",
        encoding="utf-8",
    )
    return os.fspath(path)


def test_a_value_no_sentence_states_gets_a_plain_line(fresh: None, tmp_path: Path) -> None:
    registry.register_plugin("bonus", Bonus(None))
    [line] = [line for line in rule_lines(ruleset_for(house(tmp_path))) if line.section == "other"]
    assert (line.key, line.text, line.inherited_from) == (
        "bonus.points",
        "The setting bonus.points is 7.",
        None,
    )


def test_a_plugins_prose_may_say_its_own_keys(fresh: None, tmp_path: Path) -> None:
    prose = RuleProse("bonus", "bonus.points", "Seven for luck.", "HOUSE", ("bonus.points",))
    registry.register_plugin("bonus", Bonus([prose]))
    lines = rule_lines(ruleset_for(house(tmp_path)))
    assert [line for line in lines if line.section == "other"] == []
    assert lines[-1] == RuleLine(
        "bonus", "bonus.points", "Seven for luck.", "HOUSE", None, "bonus", ("bonus.points",), ""
    )
    assert "Bonus\n-----\n- Seven for luck. [1] (the bonus plugin's procedure)" in render_text(
        lines, "House", 100
    )


def test_a_plugins_setting_is_said_as_the_data_is_in_place_of_the_kernels(
    fresh: None, tmp_path: Path
) -> None:
    how = RuleProse("game", "bonus.how", "The bonus counts towards the target.", "HOUSE")
    target = RuleProse(
        "game",
        "bonus.target",
        "The target is said by the bonus plugin.",
        covers=("game.target", "game.check"),
        setting=True,
        value="1000 at once",
        cited=("game", "source"),
    )
    registry.register_plugin("bonus", Bonus([how, target]))
    lines = [line for line in rule_lines(ruleset_for(house(tmp_path))) if line.section == "game"]
    kernel = {line.key: line for line in lines_of("ordinary")}
    # The kernel's sentence of the same values gives way; its other one stays, first.
    assert [line.key for line in lines] == ["game.both_over", "bonus.target", "bonus.how"]
    assert lines[0].text == kernel["game.both_over"].text and lines[0].by_plugin is None
    # Cited, inherited and valued as the kernel's sentence of those values is.
    said = kernel["game.target"]
    assert lines[1] == RuleLine(
        "game",
        "bonus.target",
        "The target is said by the bonus plugin.",
        said.source,
        "ordinary",
        None,
        ("game.target", "game.check"),
        "1000 at once",
    )
    assert said.source and said.covers == lines[1].covers
    text = render_text(lines, "House", 200)
    assert "- The target is said by the bonus plugin. [1] (inherited from ordinary)\n" in text
    assert "- The bonus counts towards the target. [2] (the bonus plugin's procedure)" in text


WRONG_ANSWERS = [
    "a text",
    [("bonus", "k", "t")],
    [RuleProse("s", "", "t")],
    [RuleProse("s", "k", "t", covers=("bonus.points",), setting=True, value=7)],  # type: ignore[arg-type]
    [RuleProse("s", "k", "t", setting=True, cited="bonus")],  # type: ignore[arg-type]
]


@pytest.mark.parametrize("answer", WRONG_ANSWERS)
def test_a_wrong_answer_is_a_plugin_error(fresh: None, tmp_path: Path, answer: Any) -> None:
    registry.register_plugin("bonus", Bonus(answer))
    with pytest.raises(PluginError, match="plugin 'bonus'"):
        rule_lines(ruleset_for(house(tmp_path)))


# --------------------------------------------------------------------------- rendering


def score_points(lines: list[RuleLine]) -> list[str]:
    return [line.value.split()[0] for line in lines if line.section == "score_table"]


@pytest.mark.parametrize("name", VARIANTS)
def test_every_format_says_every_number_of_the_score_table(name: str) -> None:
    rules = ruleset_for(name)
    lines = rule_lines(rules)
    numbers = score_points(lines)
    assert numbers and all(n.isdigit() for n in numbers)
    text = render_text(lines, rules.variant.title, 80)
    markdown = render_markdown(lines, rules.variant.title)
    page = Page()
    page.feed(render_html(lines, rules.variant.title))
    page.close()
    words = " ".join(page.text)
    rows = [line.text for line in lines if line.section == "score_table"]
    for rendered in (text, markdown, words):
        flat = " ".join(rendered.split())
        assert [row for row in rows if row not in flat] == []  # each "Name (...) scores N."
    assert max(len(row) for row in text.splitlines()) <= 80
    assert page.outside == [] and "table" in page.tags and "style" in page.tags
    assert all(link.startswith("#") and link[1:] in page.ids for link in page.links)
    assert "bibliography" in page.ids
    rows = [row for row in markdown.splitlines() if row.startswith("| ") and "scores" in row]
    assert len(rows) == len(numbers)


def test_the_html_links_each_code_to_its_bibliography_entry() -> None:
    rules = ruleset_for("eb1875")
    page = Page()
    page.feed(render_html(rule_lines(rules), rules.variant.title))
    assert {"#src-S0", "#reading-A11", "#reading-A01"} <= set(page.links)
    assert {"src-S0", "reading-A11", "src-S2"} <= page.ids


def test_rules_command_writes_each_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run(capsys, "rules", "eb1875")
    assert (status, err) == (0, "")
    assert out.startswith("Bezique after the Encyclopaedia Britannica, 9th edition (1875)\n")
    assert "\nThe score table\n---------------\n- Marriage (king and queen of a suit" in out
    target = tmp_path / "eb.html"
    assert run(capsys, "rules", "eb1875", "--format", "html", "--output", str(target)) == (
        0,
        "",
        "",
    )
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    status, out, err = run(capsys, "rules", "polish", "--format", "markdown")
    assert status == 0 and out.startswith("# Polish (open) bezique\n")
    status, out, err = run(capsys, "rules", "nonesuch")
    assert status == 1 and out == "" and err.startswith("bezique: no variant named 'nonesuch'")
    assert len(err.splitlines()) == 1


# --------------------------------------------------------------------------- review fixes


@pytest.mark.parametrize("name", VARIANTS)
def test_the_rulebook_says_how_the_game_ends(name: str) -> None:
    texts = " ".join(line.text for line in lines_of(name))
    rules = ruleset_for(name)
    one_deal = "One deal is the game: it is over when its last trick is played"
    if rules.one_deal:
        assert "When both sides pass the target" not in texts and "point up" not in texts
        assert one_deal in texts
    else:
        assert f"The game is {rules.target} points up" in texts and one_deal not in texts


@pytest.mark.parametrize("name", VARIANTS)
def test_a_turned_up_card_is_named_only_where_one_is_turned_up(name: str) -> None:
    rules = ruleset_for(name)
    [*found] = [line for line in rule_lines(rules) if line.key == "ordinary.stock_exhausted"]
    for line in found:
        turned = "turned-up card" in line.text
        assert turned == (rules.data["trumps"]["mode"] == "turn_up")


def test_an_inherited_rule_keeps_the_citation_of_the_file_that_set_it() -> None:
    house = {line.key: line for line in lines_of("house-brisques-at-end")}
    ordinary = {line.key: line for line in lines_of("ordinary")}
    assert house["game.target"].inherited_from == "ordinary"
    assert house["game.target"].source == ordinary["game.target"].source
    assert house["game.both_over"].source == (
        "S0 footnote 4 - precedence to the winner of the last trick (A10)."
    )
    # a section whose only key is a note on the inherited rules keeps the note
    cards = {line.key: line for line in lines_of("cards-encyclopedia")}
    assert cards["last_trick"].source == "Not in S3's surviving text; inherited from ordinary."


CLUB = "name: club\nsummary: Our club, 1500 up.\nextends: eb1875\ngame:\n  target: 1500\n"
"""A house file that changes a value of a preset without a ``source:`` of its own."""


def test_a_value_a_house_file_sets_without_a_source_is_cited_to_the_house_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(CLUB, encoding="utf-8")
    rules = ruleset_for(str(club))
    lines = {line.key: line for line in rule_lines(rules)}
    eb1875 = {line.key: line for line in lines_of("eb1875")}
    assert "1000 up" in str(eb1875["game.target"].source)  # what the club must not be cited to
    target = lines["game.target"]
    assert (target.text, target.source, target.inherited_from) == (
        "The game is 1500 points up; it is over as soon as a side reaches the target.",
        "house rule (club.yaml)",
        None,
    )
    assert lines["game.both_over"].source == eb1875["game.both_over"].source  # inherited
    text = render_text(list(lines.values()), "club", width=100)
    game = text[text.index("Scoring out and the game") :]
    assert "the target. [1]\n" in game and "  [1] house rule (club.yaml)\n" in game
    status, out, _ = run(capsys, "rules", str(club), "--format", "markdown")
    game = out[out.index("## Scoring out and the game") :]
    assert status == 0 and "the target. [1]\n" in game and "[1] house rule (club.yaml)  \n" in game
    page = render_html(list(lines.values()), rules.variant.title)
    assert ">house rule (club.yaml)</li>" in page


def test_a_rule_inherited_from_a_house_file_keeps_its_house_citation(tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(CLUB, encoding="utf-8")
    guest = tmp_path / "guest.yaml"
    guest.write_text("name: guest\nsummary: Guests.\nextends: club.yaml\n", encoding="utf-8")
    target = {line.key: line for line in lines_of(str(guest))}["game.target"]
    assert (target.source, target.inherited_from) == ("house rule (club.yaml)", "club")


def test_a_house_file_cites_its_own_source_nearest_above_the_rule() -> None:
    """house-four-of-each-suit cites S4 for its declarations, not ordinary's 'any four'."""
    lines = {line.key: line for line in lines_of("house-four-of-each-suit")}
    knaves = lines["declarations.combinations.four_knaves"]
    assert knaves.text == "Four knaves (4 knaves, one of each suit) scores 40."
    assert knaves.source == "S4 score table (A16)."


def test_a_seven_of_no_value_is_said_to_have_no_score() -> None:
    grand = [line.text for line in lines_of("grand") if line.section == "seven"]
    assert grand == [
        "The seven of trumps has no score in this game, turned up or held.",
        "A player holding it may still exchange it for the turned-up card, for no points.",
    ]
    for name in ("rubicon", "six-pack"):
        seven = [line.text for line in lines_of(name) if line.section == "seven"]
        assert seven == ["The seven of trumps has no score in this game."]


def test_an_overlay_without_a_title_is_headed_by_its_name_and_parent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "rules", "house-brisques-at-end")
    assert status == 0 and out.startswith("house-brisques-at-end (extends ordinary)\n")
    assert run(capsys, "rules", "eb1875")[1].startswith("Bezique after the Encyclopaedia")


def test_partners_are_said_to_sit_opposite_and_whose_beziques_are_shared() -> None:
    lines = {line.key: line.text for line in lines_of("four-hand-partners")}
    assert lines["partnerships.sides"].startswith(
        "The four players make two partnerships, each of two partners sitting opposite"
    )
    assert lines["partnerships.shared_beziques"] == (
        "A player declaring a double or triple bezique may count in beziques that his "
        "partner has declared and left on the table."
    )


def test_grands_rule_names_the_combinations_of_the_variant_that_uses_it() -> None:
    def again(variant: str) -> str:
        (line,) = [x for x in rule_lines(ruleset_for(variant)) if x.key == "grand.again"]
        return line.text

    assert "four trump aces" in again("six-pack") and "quadruple bezique" in again("six-pack")
    assert "four trump aces" not in again("grand") and "triple bezique" in again("grand")


def test_rubicons_declaring_and_carte_blanche_rules_sit_in_their_sections() -> None:
    found = {x.key: x for x in rule_lines(ruleset_for("rubicon"))}
    assert found["rubicon.carte_blanche"].section == "carte_blanche"
    for key, codes in (
        ("repair_marriages", ["A23", "R-C4"]),
        ("married_into_sequence", ["A07", "R-C5"]),
    ):
        line = found[f"rubicon.{key}"]
        assert line.section == "declarations"
        assert [c.code for c in citations_in(line.source or "")] == codes


def test_the_rulebook_says_nine_cards_are_penalised_whenever_found() -> None:
    for variant, points in (("eb1875", 200), ("cards-encyclopedia", 100)):
        (line,) = [x for x in lines_of(variant) if x.key == "penalties.nine_cards"]
        assert line.text == (
            "Being found, at any time of the play, holding more cards than his number while "
            "the others hold theirs, dealt or drawn too many (he then plays without drawing, "
            f"one draw missed for each card too many) costs {points}."
        )


def test_the_rulebook_says_wk_rs_re_pairing_takes_a_card_from_a_marriage() -> None:
    def repair(variant: str) -> str:
        (line,) = [x for x in lines_of(variant) if x.key == "rubicon.repair_marriages"]
        return line.text

    assert repair("rubicon-repair") == (
        "Once a card of a marriage has been played, its partner may be married again to a "
        "card already declared, with no card from the hand, even to a king or queen taken "
        "from a marriage still on the table."
    )
    assert repair("rubicon").startswith("Every declaration brings a card never declared before")

"""The words a player reads (bezique.rules.words): the vocabulary, the bezique_words hook."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bezique.actions import Action, ScoreEvent
from bezique.commands.tableau import Style, styled
from bezique.errors import PluginError
from bezique.game import GameState, new_game, ruleset_for
from bezique.hookspecs import hookimpl
from bezique.records.journal import Journal
from bezique.rulebook import rule_lines
from bezique.rules import ruleset
from bezique.rules.words import Words, readable
from bezique.variant import registry

GOLDEN = Path(__file__).parent / "golden"
RAW_KEY = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b|\b[a-z]+\.[a-z_]+\b")
"""A key as the rules write it: words joined by underscores, or dotted."""


def told(journal: Journal, state: GameState, action: Action) -> None:
    """Apply ``action`` as the game loop of ``bezique play`` does, the journal telling it."""
    moment = journal.before(state, action)
    state.apply(action)
    journal.after(state, moment)


def test_a_key_without_words_is_said_readably_never_raw() -> None:
    assert readable("rubicon.loser_deducted") == "rubicon: loser deducted"
    assert readable("four_knaves") == "four knaves"
    words = Words()
    assert "four_knaves" not in words  # the kernel has no combination: the plugins give them
    assert words.say("bonus.lucky_trick") == "bonus: lucky trick"
    assert words.say("phase.turn") == "declare, exchange or end the turn, after winning the trick"


def test_the_built_in_plugins_give_their_words_through_the_hook() -> None:
    words = ruleset_for("rubicon").words
    assert words.say("seven_of_trumps.exchange_points") == (
        "the seven of trumps exchanged for the turn-up"
    )
    assert words.say("four_knaves") == "four knaves"
    assert words.say("double_bezique") == "double bezique"
    assert words.say("royal_marriage") == "royal marriage"
    assert words.say("last_trick") == "the last trick"
    assert words.say("rubicon.loser_deducted") == "the loser's total deducted"
    assert words.say("penalties.revoke") == "penalty: a revoke"  # the referee joins
    assert words.classes(["beziques", "quartets"]) == "a bezique and four of a kind"
    # a plugin listed later overrides: Polish's seven is won in a trick, not shown
    polish = ruleset_for("polish").words.say("seven_of_trumps.declare_points")
    assert polish == "the seven of trumps won in a trick"
    assert ruleset_for("ordinary").words.say("seven_of_trumps.declare_points") == (
        "the seven of trumps shown"
    )
    assert "rubicon.game" not in ruleset_for("ordinary").words  # only the variant's plugins


def test_the_last_trick_is_said_as_the_variant_scores_it() -> None:
    # S0 footnote 5: the trick that empties the stock, with eight tricks still to play;
    # S2: the thirty-second, the hand's final trick
    stock = ruleset_for("ordinary", {"last_trick": {"which": "stock_exhausting"}})
    final = ruleset_for("ordinary", {"last_trick": {"which": "final"}})
    assert stock.words.say("last_trick") == "the last trick of the stock"
    assert final.words.say("last_trick") == "the last trick"
    assert ruleset_for("eb1875").words.say("last_trick") == "the last trick of the stock"
    assert ruleset_for("hoyle1909").words.say("last_trick") == "the last trick"


def test_the_words_are_made_once_per_ruleset() -> None:
    rules = ruleset_for("ordinary")
    assert rules.words is rules.words


def _golden_games(variant: str, count: int) -> list[tuple[GameState, list[str]]]:
    """The first ``count`` golden games of ``variant``, played to their end, and their logs."""
    data = json.loads((GOLDEN / f"{variant}.json").read_text(encoding="utf-8"))
    games = []
    for game in data["games"][:count]:
        record = game["record"]
        state = new_game(
            record["variant"],
            overrides=record["overrides"] or None,
            seed=record["seed"],
            decks=record["decks"] or None,
            first_dealer=record["first_dealer"],
            referee=record.get("referee", False),
        )
        names = [f"seat {s}" for s in range(state.players)]
        journal = Journal(names)
        log = []
        for text in game["actions"]:
            told(journal, state, state.parse_action(text))
            log += journal.log
            journal.log = []
        games.append((state, log))
    return games


VARIANTS = sorted(path.stem for path in GOLDEN.glob("*.json"))


# The refereed golden games hold the deprecated report forms on purpose (test_golden).
@pytest.mark.filterwarnings(
    "ignore:.* where no card too many is held is deprecated:DeprecationWarning"
)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_score_of_the_golden_games_has_words_and_the_log_shows_no_key(
    variant: str,
) -> None:
    """Every rule the games score by (refereed games too) has words of a plugin."""
    for state, log in _golden_games(variant, 3):
        words = state.rules.words
        for event in state.events:
            assert event.rule in words, f"{variant}: {event.rule} has no words"
        for line in log:
            shown = "".join(text for text, _ in styled(line, state.deck, Style(True), words))
            assert not RAW_KEY.search(shown), f"{variant}: {shown!r}"


def test_every_combination_of_the_shipped_tables_has_words() -> None:
    for variant in VARIANTS:
        rules = ruleset_for(variant)
        for name in rules.combo_names:
            assert name in rules.words, f"{variant}: {name}"
        for name in rules.classes:
            assert f"class.{name}" in rules.words, f"{variant}: class {name}"


def test_a_declared_card_s_tag_is_said_in_words_and_the_notation_kept_in_one_notation() -> None:
    rules = ruleset_for("ordinary")
    deck = rules.deck
    line = styled("seat 1 played JD*beziques+quartets (KS QS)", deck, Style(True), rules.words)
    assert "".join(t for t, _ in line) == (
        "seat 1 played J♦ (from the table, declared in a bezique and four of a kind) (K♠ Q♠)"
    )
    letters = styled("marriage (KS Q♠)", deck, Style(False))
    assert "".join(t for t, _ in letters) == "marriage (KS QS)"  # never mixed
    notation = styled("play QS*beziques", deck, Style(True))
    assert "".join(t for t, _ in notation) == "play Q♠*beziques"  # the notation as typed


# --------------------------------------------------------------------------- an outside plugin


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    monkeypatch.delenv(registry.BLOCK_ENV, raising=False)


class Lucky:
    """An outside plugin scoring 7 for every trick won with a seven, with words for it."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    @hookimpl
    def bezique_requires(self) -> list[str]:
        return ["ordinary"]

    @hookimpl
    def bezique_words(self) -> Any:
        return self.answer

    @hookimpl
    def bezique_trick_scores(
        self, state: GameState, winner: int, cards: list[int]
    ) -> list[ScoreEvent]:
        sevens = [c for c in cards if state.deck.card_text(c)[0] == "7"]
        return [ScoreEvent(winner, 7, "lucky.seven_trick")] if sevens else []


def house(tmp_path: Path) -> str:
    path = tmp_path / "lucky.yaml"
    path.write_text(
        "name: lucky\nextends: ordinary\nsummary: Lucky sevens.\nplugins: [ordinary, lucky]\n",
        encoding="utf-8",
    )
    return str(path)


def test_an_outside_plugin_adds_and_overrides_words(fresh: None, tmp_path: Path) -> None:
    answer = {"lucky.seven_trick": "a trick won with a seven", "four_knaves": "four jacks"}
    registry.register_plugin("lucky", Lucky(answer))
    rules = ruleset_for(house(tmp_path))
    assert rules.words.say("lucky.seven_trick") == "a trick won with a seven"
    assert rules.words.say("four_knaves") == "four jacks"  # listed after ordinary: it wins
    book = {line.key: line.text for line in rule_lines(rules)}
    assert book["declarations.combinations.four_knaves"].startswith("Four jacks (4 knaves")
    state = new_game(rules, seed=2)
    journal = Journal(["seat 0", "seat 1"])
    said: list[str] = []
    while not any(e.rule == "lucky.seven_trick" for e in state.events):
        told(journal, state, state.legal_actions()[0])
        said += journal.log
        journal.log = []
    event = next(e for e in state.events if e.rule == "lucky.seven_trick")
    assert f"+7 for seat {event.player}: a trick won with a seven" in said


def test_an_outside_plugin_without_words_is_said_readably(fresh: None, tmp_path: Path) -> None:
    registry.register_plugin("lucky", Lucky(None))
    assert ruleset_for(house(tmp_path)).words.say("lucky.seven_trick") == "lucky: seven trick"


@pytest.mark.parametrize("answer", [["four_knaves"], {"four_knaves": ""}, {"k": 3}])
def test_a_wrong_answer_is_a_plugin_error(fresh: None, tmp_path: Path, answer: Any) -> None:
    registry.register_plugin("lucky", Lucky(answer))
    with pytest.raises(PluginError, match="plugin 'lucky': bezique_words"):
        _ = ruleset_for(house(tmp_path)).words

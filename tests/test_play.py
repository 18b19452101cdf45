"""``bezique play``: a game at the terminal, driven for real in a pseudo-terminal (pexpect),
and its parts: the drawing, the entries, the saved record, the text forms of states."""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from quick import quick_for_one

from bezique.actions import END_TURN, Action, Kind
from bezique.commands import tableau
from bezique.commands.play import Game, Options, _hint, menu, run
from bezique.commands.play import _chosen as chosen
from bezique.commands.tableau import Style, Table, can_write, draw, rules_lines, style_for
from bezique.engine.tricks import Trick
from bezique.errors import BeziqueError, IllegalActionError
from bezique.game import GameState, new_game, ruleset_for
from bezique.records.journal import Journal
from bezique.rulebook import rule_lines

PROMPT = "\r\n> "


def spawn(
    tmp_path: Path, *argv: str, colour: bool = False, dimensions: tuple[int, int] = (60, 200)
) -> pexpect.spawn[str]:
    unset = ("NO_COLOR", "PYTHONIOENCODING", "COLUMNS", "LINES")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update({"TERM": "xterm-256color", "PYTHONUTF8": "1"})
    if not colour:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "bezique", "play", *argv],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=dimensions,
    )


def screen(child: pexpect.spawn[str]) -> str:
    """Wait for the prompt; return what was written since the last one."""
    child.expect_exact(PROMPT)
    return str(child.before).replace("\r\n", "\n")


def finish(child: pexpect.spawn[str], entry: str = "quit") -> str:
    child.sendline(entry)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(child.before).replace("\r\n", "\n")


def replayed(tmp_path: Path, name: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bezique", "replay", name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def played(replay_output: str) -> int:
    """How many actions ``bezique replay`` says it replayed."""
    found = re.search(r"(\d+) actions replayed", replay_output)
    assert found, replay_output
    return int(found[1])


def table_part(text: str) -> str:
    """The drawing of the table, from its heading on."""
    return text[text.index("== ") :]


# --------------------------------------------------------------------------- the real command


def test_a_whole_hand_typed_at_the_terminal_replays_with_the_scores_shown(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--variant", "ordinary", "--against", "random", "--seed", "7")
    moves = 0
    shown = screen(child)
    while "hand 1 over" not in shown:
        child.sendline("1")
        moves += 1
        shown = screen(child)
    finish(child)
    assert moves > 16  # every trick of the hand, and the turns after those won
    over = re.search(r"hand 1 over: you (\d+), seat 1 \(random\) (\d+)", shown)
    game = re.search(r"\ngame: you (\d+), seat 1 \(random\) (\d+)\n", shown)
    assert over and game, shown
    out = replayed(tmp_path, "bezique-game.json")
    assert "players: human, random\n" in out
    # the hand the table called hand 1, its points the same
    assert f"hand 1: seat 0: {over[1]}, seat 1: {over[2]}\n" in out
    assert f"game: seat 0: {game[1]}, seat 1: {game[2]}\n" in out


@pytest.mark.slow
def test_an_illegal_entry_is_refused_with_its_rule_and_the_game_unchanged(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--against", "random", "--seed", "3", "--save", "g.json", colour=True)
    first = screen(child)
    assert "\x1b[31m" in first  # hearts and diamonds in red on a terminal
    menu_shown = first[first.index("your move") :]
    child.sendline("play 7H")  # a card the hand does not hold
    refused = screen(child)
    said = (
        "refused (a player plays only a card he holds): 'play 7♥': seat 0 has no 7♥ in the "
        "concealed hand"
    )
    assert said in re.sub(r"\x1b\[[0-9;]*m", "", refused)
    assert refused.endswith(menu_shown)
    child.sendline("fold")  # not an action at all
    refused = screen(child)
    assert "not understood: 'fold': an action starts with one of" in refused
    assert "; type help for the entries" in refused
    assert refused.endswith(menu_shown)
    child.sendline("42")
    said = "not understood: 42 is not on the menu: type a number from 1 to 8"
    assert said in screen(child)
    finish(child)
    assert "variant ordinary: 1 actions replayed\n" in replayed(tmp_path, "g.json")  # the lead


@pytest.mark.slow
def test_undo_takes_back_the_last_move_and_the_bots_after_it(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--against", "heuristic", "--seed", "3", "--save", "g.json")
    first = screen(child)  # the bot has led
    child.sendline("undo")  # nothing of the player's yet: refused, nothing changes
    assert "nothing to undo: you have not moved yet in this game" in screen(child)
    child.sendline("1")
    before = screen(child)
    child.sendline("1")
    screen(child)
    moved = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))["actions"]
    child.sendline("undo")
    undone = screen(child)
    assert "taken back: you played" in undone
    assert table_part(undone) == table_part(before)  # as it was before that move
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert record["actions"] == moved[:-1]  # the record holds the moves as they stand...
    comment = record["headers"]["comment"]  # ...and keeps what was taken back
    assert comment.startswith(f"undone after action {len(moved) - 1}: you: {moved[-1]}")
    child.sendline("undo")
    assert table_part(screen(child)) == table_part(first)  # back to the start
    child.sendline("undo")
    assert "nothing to undo" in screen(child)
    finish(child)
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert record["actions"] == moved[:1]  # the bot's lead alone
    assert len(record["headers"]["comment"].splitlines()) == 2
    assert played(replayed(tmp_path, "g.json")) == 1


@pytest.mark.slow
def test_quit_only_as_the_whole_entry(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--against", "random", "--seed", "3", "--save", "g.json")
    first = screen(child)
    menu_shown = first[first.index("your move") :]
    for entry in ("quitx", "quit now", "rulesx", "helpme"):
        child.sendline(entry)
        said = screen(child)
        assert f"not understood: '{entry}'" in said and "type help for the entries" in said
        assert said.endswith(menu_shown)  # the game goes on, unchanged
    said = finish(child, "QUIT")
    assert "saved in g.json" in said


@pytest.mark.slow
def test_a_narrow_terminal_shows_no_line_wider_than_it(tmp_path: Path) -> None:
    child = spawn(
        tmp_path, "--against", "heuristic", "--seed", "4", "--save", "g.json", dimensions=(24, 20)
    )
    shown = [screen(child)]
    for entry in ["1", "2", "1", "help", "rules", "1", "hint", "1", "undo", "fold", "1", "1"]:
        child.sendline(entry)
        shown.append(screen(child))
    shown.append(finish(child))
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", "\n".join(shown))
    rows = [part for line in text.split("\n") for part in line.split("\r")]
    assert max(len(row) for row in rows) <= 20, [row for row in rows if len(row) > 20]
    assert "not understood:" in text and "your move" in text
    assert re.search(r"seat 1 \(heuristic\) ?\r {18,19}\r", "\n".join(shown))  # cut to fit


@pytest.mark.slow
def test_a_terminal_shows_a_bot_thinking_then_erases_it(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--against", "heuristic", "--seed", "3", "--save", "g.json")
    first = screen(child)  # the bot leads first
    thinking = "seat 1 (heuristic) is thinking..."
    assert f"{thinking}\r{' ' * len(thinking)}\r" in first
    finish(child)


VARIANTS_PLAYED = ["rubicon", "polish", "three-hand", "house-carte-blanche", "four-hand-partners"]
"""Variants played to the end against bots, each screen scanned for keys."""


@pytest.mark.parametrize("variant", quick_for_one(VARIANTS_PLAYED, "house-carte-blanche"))
def test_no_screen_of_a_whole_game_shows_a_key(variant: str, tmp_path: Path) -> None:
    rules = ruleset_for(variant)
    entries = io.StringIO("rules\n" + "1\n" * 5000)
    out = io.StringIO()
    options = Options(variant=variant, against="random", seed=5, save=str(tmp_path / "g.json"))
    assert run(options, entries, out) == 0
    text = out.getvalue()
    assert "game over:" in text and "thinking" not in text  # not a terminal: no indicator
    shown = re.sub(r"\[[^\]]*\]", "", text)  # the notation a menu offers to type, in brackets
    shown = shown.replace(str(tmp_path / "g.json"), "FILE")
    keys = [key.split(".", 1)[1] if key.split(".")[0] in PREFIXES else key for key in rules.words]
    for key in keys:
        if "_" in key or "." in key:
            assert not re.search(rf"\b{re.escape(key)}\b", shown), key
    found = re.search(r"\b[a-z]+(?:_[a-z]+)+\b|\b[a-z]+\.[a-z_]+\b", shown)
    assert found is None, shown[max(found.start() - 200, 0) : found.end() + 50] if found else ""


PREFIXES = ("class", "phase", "action", "rule")


@pytest.mark.slow
def test_quit_then_resume_continues_at_the_same_position(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--against", "random", "--seed", "5", "--save", "game.json")
    screen(child)
    for _ in range(3):
        child.sendline("1")
        before = screen(child)
    said = finish(child)
    assert "saved in game.json; continue with: bezique play --resume game.json" in said
    assert (tmp_path / "game.json").is_file()
    actions = replayed(tmp_path, "game.json")
    child = spawn(tmp_path, "--resume", "game.json")
    again = screen(child)
    assert table_part(again) == table_part(before)  # the same hand, table, log and menu
    child.sendline("1")
    assert "you played" in screen(child)  # the game goes on
    child.sendeof()  # the end of input saves as quit does
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert played(replayed(tmp_path, "game.json")) > played(actions)


# --------------------------------------------------------------------------- in process


def game_at(tmp_path: Path, seed: int = 3) -> Game:
    state = new_game("ordinary", seed=seed)
    return Game(state, 0, ["human", "random"], tmp_path / "g.json")


def test_a_new_game_never_writes_over_a_file_unasked(tmp_path: Path) -> None:
    taken = tmp_path / "mine.json"
    taken.write_text("my notes", encoding="utf-8")
    with pytest.raises(
        BeziqueError, match=re.escape("mine.json: exists; give another file with --save")
    ):
        run(Options(against="random", save=str(taken)), io.StringIO(""), io.StringIO())
    assert taken.read_text(encoding="utf-8") == "my notes"


def test_the_end_of_input_saves_the_record(tmp_path: Path) -> None:
    out = io.StringIO()
    path = tmp_path / "g.json"
    assert run(Options(against="random", seed=3, save=str(path)), io.StringIO("1\n"), out) == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["headers"] == {"players": ["human", "random"]}
    assert len(record["actions"]) == 3  # the lead, our card, the next lead
    assert "\x1b" not in out.getvalue()  # not a terminal: plain text


def test_a_house_rule_game_resumes_on_another_machine_without_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, away = tmp_path / "home", tmp_path / "away"
    home.mkdir()
    away.mkdir()
    (home / "club.yaml").write_text(
        "name: club\nsummary: Ours.\nextends: ordinary\ngame:\n  target: 700\n", encoding="utf-8"
    )
    monkeypatch.chdir(home)
    options = Options(variant="club.yaml", against="random", seed=3, save="g.json")
    assert run(options, io.StringIO("1\n"), io.StringIO()) == 0
    record = json.loads((home / "g.json").read_text(encoding="utf-8"))
    assert (record["variant"], record["overrides"]) == (
        "ordinary",
        {"name": "club", "summary": "Ours.", "game": {"target": 700}},
    )
    # Copied to another machine (by an editor that starts the file with a byte order mark).
    text = (home / "g.json").read_text(encoding="utf-8")
    (away / "g.json").write_text("\ufeff" + text, encoding="utf-8")
    monkeypatch.chdir(away)
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert run(Options(resume="g.json"), io.StringIO("1\n"), out) == 0
    assert err.getvalue() == ""  # no note: the rules are those of ordinary and the overrides
    assert out.getvalue().startswith("bezique play: club, seed 3; you are seat 0")
    again = json.loads((away / "g.json").read_text(encoding="utf-8"))
    assert len(again["actions"]) > len(record["actions"])
    assert again["variant_data"] == record["variant_data"]


def test_resume_takes_the_seats_from_the_record(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    run(Options(against="random", seed=3, save=str(path)), io.StringIO(""), io.StringIO())
    with pytest.raises(BeziqueError, match="leave out --against, --seed"):
        run(Options(against="random", seed=3, resume=str(path)), io.StringIO(""), io.StringIO())
    record = json.loads(path.read_text(encoding="utf-8"))
    del record["headers"]
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(BeziqueError, match="must name one seat 'human'"):
        run(Options(resume=str(path)), io.StringIO(""), io.StringIO())


def test_entries_by_number_text_and_refusals(tmp_path: Path) -> None:
    game = game_at(tmp_path)
    state = game.state
    state.apply(state.legal_actions()[0])  # seat 1 leads
    listed = menu(state)
    assert chosen(state, "1") == listed[0] and chosen(state, "8") == listed[7]
    text = state.action_text(listed[2])
    assert chosen(state, text) == listed[2] and chosen(state, text.upper()) == listed[2]
    for entry, rule in [
        ("0", "menu"),
        ("9", "menu"),
        ("draw x", "notation"),
        ("x", "notation"),
        ("play 7H", "play.own_cards"),
        ("irregular nine_cards 1", "referee"),
    ]:
        with pytest.raises(IllegalActionError) as refused:
            chosen(state, entry)
        assert refused.value.rule == rule, entry


def test_the_menu_lists_cards_as_the_hand_is_sorted() -> None:
    state = new_game("ordinary", seed=3)
    state.apply(state.legal_actions()[0])
    texts = [state.action_text(a) for a in menu(state)]
    assert texts == [
        "play AS",
        "play QS",
        "play 8S",
        "play TD",
        "play JD",
        "play 9D",
        "play JC",
        "play 7C",
    ]


# --------------------------------------------------------------------------- the drawing


class Stream(io.StringIO):
    def __init__(self, encoding: str, tty: bool) -> None:
        super().__init__()
        self._encoding, self._tty = encoding, tty

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def isatty(self) -> bool:
        return self._tty


def test_colour_only_on_a_terminal_without_no_color_and_symbols_only_if_encodable() -> None:
    assert style_for(Stream("utf-8", True), {}) == Style(symbols=True, colour=True)
    assert style_for(Stream("utf-8", True), {"NO_COLOR": "1"}) == Style(True, False)
    assert style_for(Stream("utf-8", False), {}) == Style(True, False)
    assert style_for(Stream("ascii", True), {"NO_COLOR": "1"}) == Style(False, False)
    assert style_for(io.StringIO(), {}) == Style(False, False)
    assert can_write("utf-8") and can_write("cp1252") is False and can_write("nope") is False


def test_without_rich_the_table_is_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tableau, "_rich_installed", lambda: False)
    assert style_for(Stream("utf-8", True), {}) == Style(symbols=True, colour=False)


def plain_table(style: Style) -> str:
    state = new_game("ordinary", seed=3)
    state.apply(state.legal_actions()[0])
    view = state.view(0)
    texts = [state.action_text(a) for a in menu(state)]
    table = Table(["you", "seat 1 (random)"], ["seat 1 (random) played TD"], "", texts)
    return "\n".join("".join(text for text, _ in line) for line in draw(view, table, style))


def test_the_table_in_letters_and_in_symbols() -> None:
    letters = plain_table(Style(False, False))
    assert letters.splitlines() == [
        "== ordinary: hand 1, trick 1, dealer you ==",
        "trumps H   turn-up QH   stock 47",
        "game: you 0, seat 1 (random) 0",
        "this hand: you 0, seat 1 (random) 0",
        "seat 1 (random) (7 cards), table: -",
        "since your last move:",
        "  seat 1 (random) played TD",
        "on the table now: seat 1 (random) 9C",
        "your hand: AS QS 8S TD JD 9D JC 7C",
        "your table: -",
        "your move (play a card):",
        "  1  play AS",
        "  2  play QS",
        "  3  play 8S",
        "  4  play TD",
        "  5  play JD",
        "  6  play 9D",
        "  7  play JC",
        "  8  play 7C",
    ]
    symbols = plain_table(Style(True, False))
    assert "your hand: A♠ Q♠ 8♠ T♦ J♦ 9♦ J♣ 7♣" in symbols
    assert "trumps ♥   turn-up Q♥" in symbols


def test_red_suits_are_styled_red_only_in_colour() -> None:
    state = new_game("ordinary", seed=3)
    table = Table(["you", "seat 1"], [], "", [])
    for colour in (True, False):
        lines = draw(state.view(0), table, Style(True, colour))
        styles = {s for line in lines for text, s in line if "♥" in text or "♦" in text}
        assert styles == ({"red"} if colour else {""})


def test_the_rules_entry_says_every_rule_in_force_under_the_variant_s_own_title() -> None:
    rules = ruleset_for("house-carte-blanche")
    lines = rules_lines(rules, 60)
    assert lines[0] == "house-carte-blanche (extends ordinary)"  # not ordinary's title
    assert all(len(line) <= 60 for line in lines)
    said = " ".join(" ".join(lines).split())
    for rule in rule_lines(rules):  # every sentence of its rulebook, none left out
        assert " ".join(rule.text.split()) in said, rule.key
    assert "Carte blanche: - A player dealt a hand without any king, queen or knave may" in said
    assert "the winner may declare several combinations at once" in said  # per trick
    assert "- Double bezique (2 bezique pairs shown together) scores 500." in said
    assert "[1]" not in said  # compact: no citations
    assert rules_lines(ruleset_for("rubicon"))[0] == "Rubicon bezique (Portland Club code, 1887)"


# --------------------------------------------------------------------------- text forms


def test_actions_read_as_the_call_that_makes_them() -> None:
    assert (
        repr(Action(Kind.DECLARE, (3, 12), "bezique")) == "Action(Kind.DECLARE, (3, 12), 'bezique')"
    )
    assert repr(END_TURN) == "Action(Kind.END_TURN)" and str(END_TURN) == "draw"
    assert repr(Action(Kind.CHOOSE, (), "lift 24")) == "Action(Kind.CHOOSE, (), 'lift 24')"
    assert str(Action(Kind.DECLARE, (3, 12), "bezique")) == "declare bezique #3 #12"
    namespace = {"Action": Action, "Kind": Kind}
    action = Action(Kind.PLAY, (7,))
    assert eval(repr(action), namespace) == action


def test_a_state_prints_its_board() -> None:
    state = new_game("ordinary", seed=3)
    state.apply(state.legal_actions()[0])
    assert str(state).splitlines() == [
        "ordinary: hand 0, dealer seat 0, trick 1, phase play, seat 0 to act",
        "trumps H, turn-up QH, stock 47",
        "seat 0: AS QS 8S TD JD 9D JC 7C",
        "seat 1: TS 9S 7S TH TD 7D QC",
        "trick: seat 1 9C",
        "scores: seat 0 0, seat 1 0 (this hand, by seat: 0, 0)",
    ]
    assert (
        repr(state)
        == "<GameState ordinary: hand 0, trick 1, phase play, seat 0 to act, scores 0-0>"
    )


# --------------------------------------------------------------------------- the log


def test_the_log_names_each_trick_winner_the_hand_s_last_trick_too() -> None:
    """hoyle1909 scores the 32nd trick, the hand's last: its points go to the winner logged."""
    state = new_game("hoyle1909", seed=11)
    journal = Journal(["seat 0", "seat 1"])
    rng = random.Random(4)
    while state.hand_no == 0:
        tricks = state.tricks_done
        told(journal, state, rng.choice(state.legal_actions()))
        if state.hand_no == 0 and state.tricks_done > tricks:
            assert journal.last_trick.endswith(f"; seat {state.leader} won it")
    last = [event for event in state.events if event.rule == "last_trick"]
    assert len(last) == 1 and journal.last_trick.endswith(f"; seat {last[0].player} won it")
    assert f"+10 for seat {last[0].player}: the last trick" in journal.log
    assert any(line.startswith("hand 1 over: seat 0 ") for line in journal.log)


def told(journal: Journal, state: GameState, action: Action) -> None:
    """Apply ``action`` as the game loop does, the journal telling it."""
    moment = journal.before(state, action)
    state.apply(action)
    journal.after(state, moment)


@pytest.mark.slow
def test_the_journal_neither_copies_nor_changes_the_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole game at the terminal with no state ever cloned: the loop applies each action,
    the journal reads the trick record (each trick and who won it, the hand's last too)."""

    def refused(state: GameState) -> GameState:
        raise AssertionError("a state was cloned")

    monkeypatch.setattr(GameState, "clone", refused)
    out = io.StringIO()
    options = Options(against="random", seed=5, save=str(tmp_path / "g.json"))
    assert run(options, io.StringIO("1\n" * 5000), out) == 0
    shown = out.getvalue()
    assert "game over:" in shown
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    monkeypatch.undo()
    state = new_game("ordinary", seed=record["seed"])
    for text in record["actions"]:
        state.apply(text)
    names = ["you", "seat 1 (random)"]
    for trick in state.tricks:  # every trick of the game told, as the record has it
        cards = ", ".join(
            f"{names[s]} {state.deck.card_text(c)}"
            for s, c in zip(trick.seats, trick.cards, strict=True)
        )
        assert f"trick: {cards}; {names[trick.winner]} won it" in shown
    journal = Journal(names)
    before = state.to_json()
    journal.before(state, END_TURN)
    assert state.to_json() == before  # reading the state before an action changes nothing


def test_a_trick_given_to_another_seat_is_told_with_who_took_it() -> None:
    state = new_game("ordinary", seed=1)
    journal = Journal(["seat 0", "seat 1"])
    trick = Trick(0, (0, 1), (0, 7), 0, 1, (0, 10))
    journal._trick(state, trick)
    assert journal.last_trick == "seat 0 AS, seat 1 7S; seat 0 won it, seat 1 took it"


def test_a_hint_is_the_bot_s_choice_from_the_player_s_view(tmp_path: Path) -> None:
    game = game_at(tmp_path)
    game.state.apply(game.state.legal_actions()[0])
    hint = _hint(game, "random")
    assert re.fullmatch(r"hint \(random\): play [AKQJT987][SHDC] \(menu [1-8]\)", hint), hint
    assert hint == _hint(game, "random")  # seeded: the same hint again
    assert _hint(game, "nobody").startswith("no hint: unknown player 'nobody'")


def test_cards_laid_open_by_a_plugin_are_shown() -> None:
    state = new_game("polish", seed=2)
    rng = random.Random(1)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    table = Table(["seat 0", "you"], [], "", [])
    lines = ["".join(t for t, _ in line) for line in draw(state.view(1), table, Style())]
    assert "open (seat 0): AD AH QS" in lines
    assert "open (you): KD AC JS JD AS JH KD TH QS QC" in lines

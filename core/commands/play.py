"""``bezique play``: a game at the terminal against bots, in any variant.

One seat is the player at the terminal (``--seat``, default 0); every other seat
is a bot (``--against``, a player spec as :func:`bezique.players.player_for`
reads it, default ``heuristic``), each drawing from its own ``random.Random``
seeded from the game's seed, its seat and the number of actions played, so that a
game is the same again from the same seed and moves, resumed or not.

The player types a menu number or an action in the text notation (``play QS``,
``declare bezique QS JD``, ``exchange 7H``, ``draw``), or a command: ``help``,
``hint`` (what the ``heuristic`` bot would do here; ``hint search`` or any other
player spec), ``rules`` (the variant's rulebook, compact), ``undo`` (take back his
last move and the bots' moves after it), ``quit``.  An entry that cannot be read is
answered "not understood"; an action the rules refuse is answered with the rule that
refuses it, in words; either way the game is unchanged.  Everything is said in the
variant's words (:attr:`bezique.rules.ruleset.Ruleset.words`) and wrapped to the terminal's
width; while a bot decides, a terminal shows that it is thinking.

The record (:mod:`bezique.records.record`) is written after each of the player's moves,
on ``quit``, at the end of input, on Ctrl-C and at the game's end, to ``--save
FILE`` (default :data:`DEFAULT_SAVE` in the current directory), as every output
file is (:func:`bezique.reading.safeio.write_output`: whole, never through a link).  A new
game writes over a file that exists only with ``--overwrite``; ``--resume FILE``
continues the game a record holds (the seats as its ``headers.players`` name them)
and saves back to it.  The record holds the moves as they stand; the moves taken
back by ``undo`` are kept in its ``headers.comment``, a line each undo (:data:`UNDONE`).
"""

from __future__ import annotations

import copy
import json
import random
import sys
import warnings
from pathlib import Path
from typing import IO, NamedTuple

from bezique.actions import TABLE_KINDS, Action, Kind
from bezique.commands.tableau import (
    Screen,
    Table,
    draw,
    menu_lines,
    rules_lines,
    style_for,
)
from bezique.engine.views import card_order
from bezique.errors import BeziqueError, IllegalActionError
from bezique.game import GameState, new_game
from bezique.players import Player, decide, player_for
from bezique.reading.safeio import check_output, write_output
from bezique.records.journal import Journal
from bezique.records.record import load_record, record_of, replay
from bezique.rules.words import Words

HUMAN = "human"
"""The name ``headers.players`` gives the seat played at the terminal."""

DEFAULT_SAVE = "bezique-game.json"
"""Where the record goes without ``--save`` (in the current directory)."""

DEFAULT_AGAINST = "heuristic"
"""The bot of every other seat without ``--against``."""

HELP = """\
Type the number of an action in the menu, or the action itself in the notation
(the menu shows it in brackets where it differs from the words):
  play QS          play the queen of spades (QS* is one of your cards on the table)
  declare bezique QS JD, exchange 7H, show 7H, draw (or pass): after winning a trick
  choose lift 24   answer a question asked before the first lead
Cards: a rank A T K Q J 9 8 7 (T the ten) then a suit S H D C; the symbols work too.
Commands:
  help             this text
  hint             what the heuristic bot would do here (hint search: the search bot)
  rules            the variant's rules in force, from its rulebook
  undo             take back your last move and the bots' moves after it
  quit             save the record and leave (the end of input does the same)"""

UNDONE = "undone after action {at}: {moves}"
"""The line ``headers.comment`` keeps for each undo: where, and the moves taken back."""

MAX_COMMENT = 10000
"""The longest ``headers.comment`` a record holds (the oldest undo lines go first)."""


class Options(NamedTuple):
    """The command's options (``bezique play --help``)."""

    variant: str | None = None
    against: str | None = None
    seat: int | None = None
    seed: int | None = None
    save: str | None = None
    resume: str | None = None
    overwrite: bool = False


class Game:
    """A game at the terminal: the state, the player's seat, the bots, the log, the file."""

    def __init__(
        self, state: GameState, seat: int, specs: list[str], path: Path, replace: bool = False
    ) -> None:
        """The game ``state`` with ``seat`` at the terminal; ``specs`` names each seat.

        ``replace``: the first save may replace a file at ``path`` (the game's own,
        resumed, or one ``--overwrite`` gives up); every later save replaces its own.
        """
        self.state = state
        self.seat = seat
        self.specs = specs
        self.path = path
        self.replace = replace
        self.bots: dict[int, Player] = {
            s: player_for(spec) for s, spec in enumerate(specs) if s != seat
        }
        names = ["you" if s == seat else f"seat {s} ({spec})" for s, spec in enumerate(specs)]
        self.journal = Journal(names)
        self.undone: list[str] = []
        """What ``headers.comment`` says: a line for each undo (:data:`UNDONE`)."""

    def rng(self, who: str) -> random.Random:
        """A generator for ``who`` now, seeded by the game's seed and the actions played."""
        return random.Random(f"bezique play {self.state.seed} {who} {len(self.state.history)}")

    def save(self) -> None:
        """Write the record (atomically: a reader never finds half a file)."""
        headers: dict[str, object] = {"players": self.specs}
        if self.undone:
            headers["comment"] = _comment(self.undone)
        record = record_of(self.state, headers)
        text = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
        write_output(self.path, text, overwrite=self.replace, hint=_TAKEN)
        self.replace = True


def _comment(lines: list[str]) -> str:
    """The undo lines as one comment, the oldest left out if they grow too long."""
    text = "\n".join(lines)
    while len(text) > MAX_COMMENT and "\n" in text:
        text = text.split("\n", 1)[1]
    return text[-MAX_COMMENT:]


def run(options: Options, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Play the game the options describe at the terminal; return the exit status."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    game = resume(options) if options.resume else start(options)
    screen = Screen(stdout, style_for(stdout))
    screen.say(
        f"bezique play: {game.state.rules.variant.name}, seed {game.state.seed}; "
        f"you are seat {game.seat}; the record goes to {game.path}; type help for help"
    )
    game.save()
    try:
        return _loop(game, screen, stdin)
    except KeyboardInterrupt:
        game.save()
        screen.say(f"interrupted: the game is saved in {game.path}")
        return 130


_TAKEN = "give another file with --save, or add --overwrite to replace it"
"""What to do when the file of the record exists (a new game never takes it unasked)."""


def start(options: Options) -> Game:
    """A new game: refuse a save file that exists already (it may be another game's)."""
    path = Path(options.save or DEFAULT_SAVE)
    check_output(
        path,
        overwrite=options.overwrite,
        hint=f"give another file with --save, continue its game with --resume {path}, "
        "or add --overwrite to start a new game over it",
    )
    state = new_game(options.variant or "ordinary", seed=options.seed)
    seat = 0 if options.seat is None else options.seat
    if not 0 <= seat < state.players:
        raise BeziqueError(f"--seat {seat}: the variant seats 0 to {state.players - 1}")
    against = options.against or DEFAULT_AGAINST
    specs = [HUMAN if s == seat else against for s in range(state.players)]
    return Game(state, seat, specs, path, replace=options.overwrite)


def resume(options: Options) -> Game:
    """The game a record holds, at the position it stopped, with its seats and bots."""
    given = [
        name
        for name in ("variant", "against", "seat", "seed")
        if getattr(options, name) is not None
    ]
    if given:
        raise BeziqueError(
            f"--resume continues the game as it was recorded: leave out --{', --'.join(given)}"
        )
    where = str(options.resume)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        data = load_record(where)
        final = replay(data, where)
    for note in caught:
        print(f"bezique: note: {note.message}", file=sys.stderr)
    specs = list(data.get("headers", {}).get("players") or [])
    if specs.count(HUMAN) != 1:
        raise BeziqueError(
            f"{where}: its headers.players must name one seat {HUMAN!r} (the seat played "
            "at the terminal) and a bot for each other seat; this record was not saved by "
            "bezique play"
        )
    path = Path(options.save or where)
    own = not options.save or (path.exists() and path.samefile(where))
    check_output(
        path,
        overwrite=own or options.overwrite,
        hint="give --save a new file, leave it out, or add --overwrite to replace it",
    )
    game = Game(_fresh(final), specs.index(HUMAN), specs, path, replace=own or options.overwrite)
    comment = str(data.get("headers", {}).get("comment") or "")
    game.undone = [line for line in comment.splitlines() if line.startswith("undone ")]
    _replayed(game, final.history)
    return game


def _replayed(game: Game, actions: list[Action]) -> None:
    """Play ``actions`` on the game's state (a fresh one), the journal telling each."""
    for action in actions:
        act(game, action, own=game.state.to_act == game.seat)


def act(game: Game, action: Action, *, own: bool = False) -> None:
    """Apply ``action`` to the game's state, the journal telling what it did.

    The one place the game at the terminal applies an action: the journal reads the
    state before and after (it copies nothing).  An illegal action raises
    :class:`IllegalActionError`, the state unchanged and nothing logged.
    """
    state = game.state
    moment = game.journal.before(state, action)
    state.apply(action)
    game.journal.after(state, moment, own=own)


def _fresh(final: GameState) -> GameState:
    """A new game with the inputs of ``final`` (its rules, seed, decks, dealer)."""
    deck = final.deck
    state = new_game(
        final.rules,
        seed=final.seed,
        decks=[[deck.card_text(c) for c in order] for order in final.decks],
        first_dealer=final.first_dealer,
        referee=final.at_table,
    )
    state.variant_spec = final.variant_spec
    state.overrides = copy.deepcopy(final.overrides)
    return state


def _loop(game: Game, screen: Screen, stdin: IO[str]) -> int:
    """Bots act by themselves; the player is asked until the game ends or he quits."""
    while not game.state.is_over():
        state = game.state
        if state.to_act != game.seat:
            seat = state.to_act
            with screen.thinking(f"{game.journal.names[seat]} is thinking..."):
                action = decide(game.bots[seat], state, game.rng(f"seat {seat}"))
            act(game, action)
            continue
        if not _human_turn(game, screen, stdin):
            game.save()
            screen.say(f"saved in {game.path}; continue with: bezique play --resume {game.path}")
            return 0
        game.save()
    state = game.state
    screen.lines(draw(state.view(game.seat), _table(game, menu_shown=False), screen.style))
    game.save()
    screen.say(f"the record is saved in {game.path} (bezique replay {game.path})")
    return 0


def menu(state: GameState) -> list[Action]:
    """The legal actions in the menu's order.

    Cards as the hand is sorted (trumps first, then by suit and rank), then the
    turn's actions as the rules list them.
    """
    deck = state.deck
    legal = state.legal_actions()

    def key(index: int) -> tuple[int, ...]:
        action = legal[index]
        if action.kind != Kind.PLAY:
            return (1, index)
        return (0, *card_order(deck, state.trump, action.cards[0]), index)

    return [legal[i] for i in sorted(range(len(legal)), key=key)]


def _table(game: Game, *, menu_shown: bool = True) -> Table:
    state = game.state
    texts = [state.action_text(a) for a in menu(state)] if menu_shown else []
    journal = game.journal
    return Table(journal.names, journal.log, journal.last_trick, texts)


def _human_turn(game: Game, screen: Screen, stdin: IO[str]) -> bool:
    """Ask the player until he moves (True) or quits (False); refusals change nothing."""
    screen.lines(draw(game.state.view(game.seat), _table(game), screen.style))
    while True:
        screen.stream.write("> ")
        screen.stream.flush()
        line = stdin.readline()
        if not line:  # the end of input: as quit
            screen.say("")
            return False
        outcome = _entry(game, screen, line.strip())
        if outcome is not None:
            return outcome


def _entry(game: Game, screen: Screen, text: str) -> bool | None:
    """Carry out one entry: True once moved, False to quit, None to ask again."""
    state = game.state
    words = text.split()
    command = words[0].lower() if words else ""
    whole = text.lower()
    if whole in ("quit", "exit"):
        return False
    if whole in ("", "help", "?", "rules", "undo") or command == "hint":
        _command(game, screen, command, words[1:])
        return None
    try:
        action = _chosen(state, text)
        act(game, action, own=True)
    except IllegalActionError as exc:
        screen.say(refusal(exc, state.rules.words), state.deck)
        screen.lines(menu_lines(state.view(game.seat), _table(game).menu, screen.style))
        return None
    return True


NOT_UNDERSTOOD = ("notation", "menu")
"""The rules of refusals that say an entry could not be read at all."""


def refusal(exc: IllegalActionError, words: Words) -> str:
    """What the player is told of a refused entry.

    ``not understood: ...; type help`` when it could not be read as an action;
    otherwise ``refused (the rule in words): why``.
    """
    if exc.rule in NOT_UNDERSTOOD:
        return f"not understood: {exc}; type help for the entries"
    rule = f" ({words.rule(exc.rule)})" if exc.rule else ""
    return f"refused{rule}: {exc}"


def _chosen(state: GameState, text: str) -> Action:
    """The action an entry names: a menu number or the action's text."""
    legal = menu(state)
    if text.isascii() and text.isdigit():
        number = int(text[:6])
        if not 1 <= number <= len(legal):
            raise IllegalActionError(
                f"{text} is not on the menu: type a number from 1 to {len(legal)}, an action "
                "or help",
                "menu",
            )
        return legal[number - 1]
    action = state.parse_action(text)
    if action.kind in TABLE_KINDS:
        raise IllegalActionError(
            f"{text!r}: a table action reports an irregularity at a real table; against "
            "bots at the terminal there is none to report",
            "referee",
        )
    return action


def _command(game: Game, screen: Screen, command: str, rest: list[str]) -> None:
    """``help``, ``hint [PLAYER]``, ``rules``, ``undo``, or an empty line (the table again)."""
    state = game.state
    if command in ("help", "?"):
        screen.say(HELP)
    elif command == "rules":
        for line in rules_lines(state.rules, screen.width):
            screen.say(line)
    elif command == "hint":
        screen.say(_hint(game, " ".join(rest) or DEFAULT_AGAINST), state.deck, state.rules.words)
    elif command == "undo":
        undone = undo(game)
        if not undone:
            screen.say("nothing to undo: you have not moved yet in this game")
            return
        words = game.state.rules.words
        said = "; ".join(f"{name} {words.action(text, past=True)}" for name, text in undone)
        screen.say(f"taken back: {said}", state.deck, words)
        game.save()
        screen.lines(draw(game.state.view(game.seat), _table(game), screen.style))
    else:
        screen.lines(draw(state.view(game.seat), _table(game), screen.style))


def undo(game: Game) -> list[tuple[str, str]]:
    """Take back the player's last move and the bots' moves after it: (name, text) of each.

    The game is rebuilt from its history without them (the kernel replays the rest);
    the moves taken back are kept as a line of :attr:`Game.undone`.  With no move of
    the player's to take back, nothing changes and the answer is empty.
    """
    state = game.state
    taken = _taken(state)
    mine = [i for i, (seat, _) in enumerate(taken) if seat == game.seat]
    if not mine:
        return []
    at = mine[-1]
    names = game.journal.names
    undone = [(names[seat], text) for seat, text in taken[at:]]
    kept = list(state.history[:at])
    game.state = _fresh(state)
    game.journal = Journal(names)
    _replayed(game, kept)
    moves = ", ".join(f"{name}: {text}" for name, text in undone)
    game.undone.append(UNDONE.format(at=at, moves=moves))
    return undone


def _taken(state: GameState) -> list[tuple[int, str]]:
    """Who took each action of ``state``'s history, and its text as it was written then."""
    fresh, taken = _fresh(state), []
    for action in state.history:
        taken.append((fresh.to_act, fresh.action_text(action)))
        fresh.apply(action)
    return taken


def _hint(game: Game, spec: str) -> str:
    """What the bot ``spec`` would choose for the player now, from the player's view."""
    state = game.state
    try:
        action = decide(player_for(spec), state, game.rng("hint"))
    except BeziqueError as exc:
        return f"no hint: {exc}"
    number = menu(state).index(action) + 1
    said = state.rules.words.action(state.action_text(action))
    return f"hint ({spec}): {said} (menu {number})"

"""The table drawn for a player at the terminal (``bezique play``), from the player's view.

Everything here is drawn from a seat's :class:`~bezique.engine.views.View` (never the game
state) and the log of what happened (:class:`bezique.records.journal.Journal`'s lines): the
hand sorted by suit (trumps first) and rank, the cards each seat has declared on
the table, trumps and the turn-up, the stock, the scores of the game and of the
hand, the last trick and its winner, what happened since the player's last move,
and the menu of legal actions.

Everything is said in the variant's words (:attr:`bezique.rules.ruleset.Ruleset.words`):
the phase, each action of the menu (with its notation in brackets where it differs),
a declared card's classes, the rule of a refusal.

A drawing is a list of lines, each a list of :data:`Segment` (text, style); a
:class:`Screen` writes them, wrapped to a terminal's width, in colour through ``rich``
when it is installed and the output is a terminal without ``NO_COLOR``, else as plain
text.  Suit symbols (``♠♥♦♣``) are used only when the output's encoding can write
them; otherwise the suit letters of the notation, for every card of a line alike.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import os
import re
import shutil
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from bezique.cards import SUIT_SYMBOLS, Deck
from bezique.engine.views import sorted_hand

if TYPE_CHECKING:
    from bezique.cards import Deck
    from bezique.engine.views import View
    from bezique.rules.ruleset import Ruleset
    from bezique.rules.words import Words

Segment = tuple[str, str]
"""A piece of text and its style: ``""`` (plain), ``"red"`` (a red suit), ``"bold"``."""
Line = list[Segment]
"""One line of a drawing."""

RED_SUITS = frozenset({"H", "D"})
"""The suit letters drawn in red (hearts and diamonds)."""


class Style(NamedTuple):
    """How cards are written: with suit symbols or letters, in colour or not."""

    symbols: bool = False
    colour: bool = False


def can_write(encoding: str | None, text: str = "".join(SUIT_SYMBOLS.values())) -> bool:
    """Whether an output of ``encoding`` can write ``text`` (the suit symbols)."""
    if not encoding:
        return False
    try:
        codecs.lookup(encoding)
        text.encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def style_for(stream: IO[str], environ: Mapping[str, str] | None = None) -> Style:
    """The style an output stream takes.

    Suit symbols if its encoding writes them; colour on a terminal, unless
    ``NO_COLOR`` is set (not empty) or ``rich`` is not installed.
    """
    env = os.environ if environ is None else environ
    symbols = can_write(getattr(stream, "encoding", None))
    terminal = bool(getattr(stream, "isatty", lambda: False)())
    return Style(symbols, terminal and not env.get("NO_COLOR") and _rich_installed())


def _rich_installed() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- cards


def card_segments(token: str, style: Style) -> Line:
    """A card token (``QS``, ``QS*``, ``KH*marriages``) with its suit drawn as ``style`` says.

    Its mark (``*``, ``@``, and the classes after it) is kept as it is: the notation
    (see :func:`styled` for the words).  A suit given as a symbol is drawn as ``style``
    says too.
    """
    face, mark = token[:2], token[2:]
    suit = LETTERS.get(face[1:], face[1:])
    shown = face[0] + (SUIT_SYMBOLS.get(suit, suit) if style.symbols else suit)
    return [(shown, "red" if suit in RED_SUITS and style.colour else ""), (mark, "")]


LETTERS = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
"""The suit letter of each suit symbol."""


def styled(text: str, deck: Deck, style: Style, words: Words | None = None) -> Line:
    """``text`` with every card token in it drawn as a card, all in one notation.

    Every token (``QS``, ``Q♠``, ``(QS*beziques``...) is drawn with the suit symbols or
    with the letters, as ``style`` says, so that a line never mixes them.  With
    ``words``, a token's mark is said in words (``QS*beziques`` -> ``Q♠ (from the
    table, declared in a bezique)``); without, it is kept as the notation writes it.
    """
    line: Line = []
    done = 0
    for found in _token_pattern(deck).finditer(text):
        line.append((text[done : found.start()], ""))
        line.extend(card_segments(found[1] + found[2], style)[:1])
        mark = found[3] or ""
        if words is None:
            line.append((mark + (found[4] or ""), ""))
        elif mark:
            line.append((f" ({mark_words(mark, found[4] or '', words)})", ""))
        done = found.end()
    line.append((text[done:], ""))
    return [segment for segment in line if segment[0]]


def mark_words(mark: str, classes: str, words: Words) -> str:
    """A card token's mark in words: ``*`` from the table, ``@`` the partner's, the classes."""
    said = ["from the table" if mark == "*" else "the partner's, from the table"]
    if classes:
        said.append(f"declared in {words.classes(classes.split('+'))}")
    return ", ".join(said)


def _token_pattern(deck: Deck) -> re.Pattern[str]:
    return _pattern(tuple(deck.ranks), tuple(deck.suits))


@functools.cache
def _pattern(rank_letters: tuple[str, ...], suit_letters: tuple[str, ...]) -> re.Pattern[str]:
    """A card token of these ranks and suits (letters or symbols), its mark and classes."""
    ranks = "".join(re.escape(r) for r in rank_letters)
    suits = "".join(re.escape(s) + re.escape(SUIT_SYMBOLS.get(s, s)) for s in suit_letters)
    return re.compile(rf"(?<![\w*@])([{ranks}])([{suits}])(?:([*@])([A-Za-z_+]*))?(?!\w)")


def cards_line(label: str, tokens: Sequence[str], style: Style, words: Words | None = None) -> Line:
    """``label`` then the cards, one space apart (``-`` for none).

    With ``words``, the cards are on a table: their ``*`` is left out and a card that
    names its classes says them in words (``J♦ (a bezique and four of a kind)``).
    """
    line: Line = [(label, "bold")]
    for token in tokens:
        line.append((" ", ""))
        if words is None:
            line.extend(card_segments(token, style))
            continue
        face, _, classes = token.replace("@", "*").partition("*")
        line.extend(card_segments(face, style)[:1])
        if classes:
            line.append((f" ({words.classes(classes.split('+'))})", ""))
    if not tokens:
        line.append((" -", ""))
    return line


# --------------------------------------------------------------------------- the table


class Table(NamedTuple):
    """What the drawing shows beside the view: names, the log, the last trick, the menu."""

    names: Sequence[str]
    """Each seat's name as shown (``you``, ``seat 1 (random)``)."""
    log: Sequence[str]
    """What happened since the player's last move, one line each (cards as tokens)."""
    last_trick: str
    """The last trick and who won it, or ``""`` before the first."""
    menu: Sequence[str]
    """The legal actions' texts, numbered from 1 (empty when another seat acts)."""


def draw(view: View, table: Table, style: Style) -> list[Line]:
    """The whole table as ``view``'s seat sees it, then the menu, in the variant's words."""
    deck, words = view.deck, view.rules.words
    lines: list[Line] = [_heading(view), _trumps(view, style), *_scores(view, table.names)]
    for seat, tokens in enumerate(view.observation["table"]):
        if seat != view.seat:
            count = view.observation["hand_sizes"][seat]
            label = f"{table.names[seat]} ({count} cards), table:"
            lines.append(cards_line(label, tokens, style, words))
    lines.extend(_places(view, table.names, style))
    if table.last_trick:
        lines.append(styled(f"last trick: {table.last_trick}", deck, style, words))
    if table.log:
        lines.append([("since your last move:", "bold")])
        lines.extend([("  ", ""), *styled(entry, deck, style, words)] for entry in table.log)
    trick = view.observation["trick"]
    if trick:
        shown = ", ".join(f"{table.names[seat]} {card}" for seat, card in trick)
        lines.append(styled(f"on the table now: {shown}", deck, style, words))
    own = sorted_hand(view)
    lines.append(cards_line("your hand:", [t for t in own if "*" not in t], style))
    lines.append(cards_line("your table:", [t for t in own if "*" in t], style, words))
    lines.extend(menu_lines(view, table.menu, style))
    return lines


def _places(view: View, names: Sequence[str], style: Style) -> list[Line]:
    """The cards plugins lay face up elsewhere (Polish open rows: ``open (you): ...``)."""
    lines = []
    for place, tokens in view.observation["places"].items():
        found = re.fullmatch(r"(.+)-(\d+)", place)
        if found and int(found[2]) < len(names):
            place = f"{found[1]} ({names[int(found[2])]})"
        lines.append(cards_line(f"{place}:", tokens, style))
    return lines


def _heading(view: View) -> Line:
    obs = view.observation
    return [
        (
            f"== {obs['variant']}: hand {obs['hand_no'] + 1}, trick {obs['tricks_done'] + 1}, "
            f"dealer {_seat_word(view, obs['dealer'])} ==",
            "bold",
        )
    ]


def _seat_word(view: View, seat: int) -> str:
    return "you" if seat == view.seat else f"seat {seat}"


def _trumps(view: View, style: Style) -> Line:
    obs = view.observation
    line: Line = [("trumps ", "")]
    if obs["trump"] is None:
        line.append(("not named yet", ""))
    else:
        suit = obs["trump"]
        red = "red" if suit in RED_SUITS and style.colour else ""
        line.append((SUIT_SYMBOLS.get(suit, suit) if style.symbols else suit, red))
    line.append(("   turn-up ", ""))
    line.extend(card_segments(obs["turn_up"], style) if obs["turn_up"] else [("none", "")])
    line.append((f"   stock {view.stock_size}", ""))
    return line


def side_names(view: View, names: Sequence[str]) -> list[str]:
    """Each side's name: its seats' names joined (``you + seat 2 (random)``)."""
    side_of = view.observation["side_of"]
    sides = max(side_of) + 1
    return [
        " + ".join(n for n, s in zip(names, side_of, strict=True) if s == side)
        for side in range(sides)
    ]


def _scores(view: View, names: Sequence[str]) -> list[Line]:
    obs = view.observation
    sides = side_names(view, names)
    game = ", ".join(f"{name} {points}" for name, points in zip(sides, obs["scores"], strict=True))
    hand = ", ".join(
        f"{name} {points}" for name, points in zip(sides, obs["hand_points"], strict=True)
    )
    return [[("game: ", "bold"), (game, "")], [("this hand: ", "bold"), (hand, "")]]


def menu_lines(view: View, menu: Sequence[str], style: Style) -> list[Line]:
    """The numbered menu of legal actions (none when it is not the seat's turn).

    Each action in words, then, where they differ, its notation (what may be typed
    instead of the number) in brackets: ``3  declare royal marriage: K♠ Q♠  [declare
    royal_marriage K♠ Q♠]``.
    """
    if not menu:
        return []
    words = view.rules.words
    lines: list[Line] = [[(f"your move ({words.phase(view.phase)}):", "bold")]]
    width = len(str(len(menu)))
    for number, text in enumerate(menu, 1):
        said = words.action(text)
        line = [(f"  {number:>{width}}  ", ""), *styled(said, view.deck, style, words)]
        if said != text or "*" in text or "@" in text:
            line += [("  [", ""), *styled(text, view.deck, style), ("]", "")]
        lines.append(line)
    return lines


# --------------------------------------------------------------------------- the rules


def rules_lines(ruleset: Ruleset, width: int | None = None) -> list[str]:
    """Every rule in force in the variant, from its rulebook in the compact form.

    The rulebook's renderer (:func:`bezique.rulebook.render_text`) says the merged
    variant's rules under its own title (a house file's, not its parent's), wrapped to
    ``width`` (at most the rulebook's widest).
    """
    from bezique.rulebook import render_text, rule_lines
    from bezique.rulebook.book import book_title

    shown = min(width or MAX_RULES_WIDTH, MAX_RULES_WIDTH)
    text = render_text(rule_lines(ruleset), book_title(ruleset), shown, compact=True)
    return text.rstrip("\n").split("\n")


MAX_RULES_WIDTH = 100
"""The widest the ``rules`` entry is wrapped, however wide the terminal."""


# --------------------------------------------------------------------------- output


class Screen:
    """Writes drawings and messages to a stream, wrapped to its width, in colour when it can."""

    def __init__(self, stream: IO[str], style: Style, width: int | None = None) -> None:
        """A screen on ``stream`` (``style`` from :func:`style_for`).

        ``width``: the columns to wrap to; by default a terminal's own width (asked at
        each write, so that a resized terminal is followed), and no wrapping elsewhere.
        """
        self.stream = stream
        self.style = style
        self._width = width
        self._terminal = bool(getattr(stream, "isatty", lambda: False)())
        self._console: Any = None
        if style.colour:
            from rich.console import Console

            self._console = Console(
                file=stream, force_terminal=True, highlight=False, soft_wrap=True, emoji=False
            )

    @property
    def width(self) -> int | None:
        """The columns lines are wrapped to (None: not wrapped)."""
        if self._width is not None:
            return self._width
        return shutil.get_terminal_size().columns if self._terminal else None

    def lines(self, lines: Sequence[Line]) -> None:
        """Write the lines, each wrapped to the width."""
        width = self.width
        for whole in lines:
            for line in wrapped(whole, width) if width else [whole]:
                if self._console is None:
                    self.stream.write("".join(text for text, _ in line) + "\n")
                else:
                    from rich.text import Text

                    self._console.print(Text.assemble(*[(t, s or "") for t, s in line]))
        self.stream.flush()

    def say(self, text: str, deck: Deck | None = None, words: Words | None = None) -> None:
        """Write a message, a line each line of it.

        With a ``deck``, its card tokens are drawn as cards (with ``words``, their
        marks said in words: :func:`styled`).
        """
        self.lines(
            [
                styled(line, deck, self.style, words) if deck is not None else [(line, "")]
                for line in text.split("\n")
            ]
        )

    @contextlib.contextmanager
    def thinking(self, text: str) -> Iterator[None]:
        """Show ``text`` on a terminal while the block runs, erased after; elsewhere nothing."""
        if not self._terminal:
            yield
            return
        shown = text[: max((self.width or 80) - 1, 1)]
        self.stream.write(shown)
        self.stream.flush()
        try:
            yield
        finally:
            self.stream.write("\r" + " " * len(shown) + "\r")
            self.stream.flush()


def wrapped(line: Line, width: int) -> list[Line]:
    """``line`` cut into lines of at most ``width`` columns, between words where it can.

    A line that goes on is indented two more than the line's own indentation (at most
    a quarter of the width); a word longer than a line is cut.
    """
    text = "".join(piece for piece, _ in line)
    if len(text) <= width:
        return [line]
    indent = min(len(text) - len(text.lstrip(" ")), width // 4)
    going_on = min(indent + 2, width // 4)
    rows: list[tuple[int, int, int]] = []  # (indentation, start, end) of each row
    pad, start, end = indent, -1, -1
    for found in re.finditer(r"\S+", text):
        first, last = found.span()
        while first < last:
            room = width - pad
            if start < 0:  # a new row starts with the word (cut if longer than the row)
                start, end = first, min(last, first + room)
                first = end
                if first < last:
                    rows.append((pad, start, end))
                    pad, start = going_on, -1
            elif last - start <= room:  # the word fits on the row
                end = first = last
            else:
                rows.append((pad, start, end))
                pad, start = going_on, -1
    if start >= 0:
        rows.append((pad, start, end))
    return [[(" " * pad, ""), *_cut(line, a, b)] for pad, a, b in rows]


def _cut(line: Line, start: int, end: int) -> Line:
    """The segments of ``line`` between the columns ``start`` and ``end``."""
    cut: Line = []
    at = 0
    for text, style in line:
        a, b = max(start - at, 0), min(end - at, len(text))
        if a < b:
            cut.append((text[a:b], style))
        at += len(text)
    return [segment for segment in cut if segment[0]]

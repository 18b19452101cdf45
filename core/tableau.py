"""The table drawn for a player at the terminal (``bezique play``), from the player's view.

Everything here is drawn from a seat's :class:`~bezique.views.View` (never the game
state) and the log of what happened (:class:`bezique.journal.Journal`'s lines): the
hand sorted by suit (trumps first) and rank, the cards each seat has declared on
the table, trumps and the turn-up, the stock, the scores of the game and of the
hand, the last trick and its winner, what happened since the player's last move,
and the menu of legal actions.

A drawing is a list of lines, each a list of :data:`Segment` (text, style); a
:class:`Screen` writes them, in colour through ``rich`` when it is installed and
the output is a terminal without ``NO_COLOR``, else as plain text.  Suit symbols
(``♠♥♦♣``) are used only when the output's encoding can write them; otherwise the
suit letters of the notation.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from bezique.cards import SUIT_SYMBOLS, Deck

if TYPE_CHECKING:
    from bezique.cards import Deck
    from bezique.views import View

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
    """A card token (``QS``, ``QS*``, ``KH*marriages``) with its suit drawn as ``style`` says."""
    face, mark = token[:2], token[2:]
    suit = face[1:]
    shown = face[0] + (SUIT_SYMBOLS.get(suit, suit) if style.symbols else suit)
    return [(shown, "red" if suit in RED_SUITS and style.colour else ""), (mark, "")]


def styled(text: str, deck: Deck, style: Style) -> Line:
    """``text`` with every card token in it drawn as a card (the rest as it is)."""
    pattern = _token_pattern(deck)
    line: Line = []
    for index, word in enumerate(text.split(" ")):
        if index:
            line.append((" ", ""))
        found = pattern.fullmatch(word)
        if found:
            line.extend(card_segments(found.group(1), style))
            line.append((found.group(2), ""))
        else:
            line.append((word, ""))
    return [segment for segment in line if segment[0]]


def _token_pattern(deck: Deck) -> re.Pattern[str]:
    ranks = "".join(re.escape(r) for r in deck.ranks)
    suits = "".join(re.escape(s) for s in deck.suits)
    return re.compile(rf"([{ranks}][{suits}](?:[*@][\w.+]*)?)([,;:.)]*)")


def card_order(deck: Deck, trump: int, card: int) -> tuple[int, int, int]:
    """Where ``card`` goes in a hand shown to a player: trumps first, then by suit and rank."""
    suit = deck.card_suit[card]
    return (suit != trump, suit, deck.card_rank[card])


def sorted_hand(view: View) -> list[str]:
    """The seat's own cards as tokens, trumps first, then by suit and rank (high first)."""
    tokens = dict(zip(view.hand, view.observation["hand"], strict=True))
    return [
        tokens[card]
        for card in sorted(
            tokens, key=lambda card: (*card_order(view.deck, view.trump, card), card)
        )
    ]


def cards_line(label: str, tokens: Sequence[str], style: Style) -> Line:
    """``label`` then the cards, one space apart (``-`` for none)."""
    line: Line = [(label, "bold")]
    for token in tokens:
        line.append((" ", ""))
        line.extend(card_segments(token, style))
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
    """The whole table as ``view``'s seat sees it, then the menu."""
    deck = view.deck
    lines: list[Line] = [_heading(view), _trumps(view, style), *_scores(view, table.names)]
    for seat, tokens in enumerate(view.observation["table"]):
        if seat != view.seat:
            count = view.observation["hand_sizes"][seat]
            lines.append(cards_line(f"{table.names[seat]} ({count} cards), table:", tokens, style))
    lines.extend(_places(view, table.names, style))
    if table.last_trick:
        lines.append(styled(f"last trick: {table.last_trick}", deck, style))
    if table.log:
        lines.append([("since your last move:", "bold")])
        lines.extend([("  ", ""), *styled(entry, deck, style)] for entry in table.log)
    trick = view.observation["trick"]
    if trick:
        shown = ", ".join(f"{table.names[seat]} {card}" for seat, card in trick)
        lines.append(styled(f"on the table now: {shown}", deck, style))
    own = sorted_hand(view)
    lines.append(cards_line("your hand:", [t for t in own if "*" not in t], style))
    lines.append(cards_line("your table:", [t for t in own if "*" in t], style))
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
            f"== {obs['variant']}: hand {obs['hand_no']}, trick {obs['tricks_done'] + 1}, "
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
    """The numbered menu of legal actions (none when it is not the seat's turn)."""
    if not menu:
        return []
    what = {"play": "play a card", "turn": "you won the trick: declare, exchange or end the turn"}
    heading = what.get(view.phase, f"{view.phase}: answer")
    lines: list[Line] = [[(f"your move ({heading}):", "bold")]]
    width = len(str(len(menu)))
    for number, text in enumerate(menu, 1):
        lines.append([(f"  {number:>{width}}  ", ""), *styled(text, view.deck, style)])
    return lines


# --------------------------------------------------------------------------- the rules


def rules_lines(data: Mapping[str, Any]) -> list[str]:
    """The variant's main numbers, from its merged data: players, cards, target, scores."""
    cards = data["cards"]
    count = cards["packs"] * len(cards["ranks"]) * len(cards["suits"])
    game = data.get("game", {})
    lines = [
        f"{data.get('title', data['name'])} ({data['name']})",
        f"players: {data['players']}" + (", in partnerships" if data.get("partnerships") else ""),
        f"cards: {cards['packs']} packs of {len(cards['ranks']) * len(cards['suits'])}, "
        f"{count} in all, ranks {' '.join(cards['ranks'])} (high first); "
        f"{data['deal']['hand_size']} cards a hand",
        "game: one deal, settled by the rubicon rules"
        if "rubicon" in data
        else f"game: {game.get('target')} up (checked {game.get('check', 'at_once')})",
        "combinations (points):",
    ]
    combos = data.get("declarations", {}).get("combinations", {})
    for name, combo in sorted(combos.items(), key=lambda item: (item[1]["points"], item[0])):
        lines.append(f"  {name:<22} {combo['points']:>5}  {_combo_cards(combo)}")
    lines.extend(_extras(data))
    return lines


def _combo_cards(combo: Mapping[str, Any]) -> str:
    if "ranks" in combo:
        suit = combo.get("suit", "any")
        where = "trumps" if suit == "trump" else f"a {suit} suit"
        return f"{' '.join(combo['ranks'])} of {where}"
    if "beziques" in combo:
        return f"{combo['beziques']} bezique pair(s)"
    if "rank" in combo:
        return f"{combo.get('count', 4)} x {combo['rank']}"
    return ""


def _extras(data: Mapping[str, Any]) -> list[str]:
    lines = []
    brisques = data.get("brisques")
    if brisques:
        lines.append(
            f"brisques: {' '.join(brisques['ranks'])} won in tricks, {brisques['points']} each "
            f"({brisques.get('timing', 'immediate')})"
        )
    last = data.get("last_trick")
    if last:
        lines.append(f"last trick: {last['points']} ({last.get('which', 'final')})")
    seven = data.get("seven_of_trumps")
    if seven:
        lines.append(
            f"seven of trumps: {seven.get('turn_up_points', 0)} turned up, "
            f"{seven.get('declare_points', 0)} declared, "
            f"{seven.get('exchange_points', 0)} exchanged"
        )
    return lines


# --------------------------------------------------------------------------- output


class Screen:
    """Writes drawings and messages to a stream, in colour through rich when it can."""

    def __init__(self, stream: IO[str], style: Style) -> None:
        """A screen on ``stream`` (``style`` from :func:`style_for`)."""
        self.stream = stream
        self.style = style
        self._console: Any = None
        if style.colour:
            from rich.console import Console

            self._console = Console(
                file=stream, force_terminal=True, highlight=False, soft_wrap=True, emoji=False
            )

    def lines(self, lines: Sequence[Line]) -> None:
        """Write the lines."""
        for line in lines:
            if self._console is None:
                self.stream.write("".join(text for text, _ in line) + "\n")
            else:
                from rich.text import Text

                self._console.print(Text.assemble(*[(t, s or "") for t, s in line]))
        self.stream.flush()

    def say(self, text: str, deck: Deck | None = None) -> None:
        """Write one message (its card tokens drawn as cards when a deck is given)."""
        self.lines([styled(text, deck, self.style) if deck is not None else [(text, "")]])

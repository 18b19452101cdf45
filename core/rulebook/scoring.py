"""Sentences from a variant's data: the seven, carte blanche, brisques, the end-game, the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bezique.rulebook.sections import Said
from bezique.rules.english import capital, listed, rank
from bezique.variant import game_target

Data = Mapping[str, Any]


def seven(data: Data) -> list[Said]:
    """What the seven of trumps scores, turned up, exchanged, declared or played."""
    s = data.get("seven_of_trumps")
    if s is None:
        return []
    lines = _seven_lines(s, data["trumps"]["mode"] == "turn_up")
    keys = ("seven_of_trumps.turn_up", "seven_of_trumps.scoring")[: len(lines)]
    return [
        Said("seven", key, text, covers, ("seven_of_trumps", "source"), cell)
        for key, (text, covers, cell) in zip(keys, lines, strict=True)
    ]


SEVEN_COVERS = (
    ("seven_of_trumps.rank", "seven_of_trumps.turn_up_points"),
    (
        "seven_of_trumps.scoring",
        "seven_of_trumps.declare_points",
        "seven_of_trumps.exchange_points",
    ),
)


def _seven_lines(s: Data, turn_up: bool) -> list[tuple[str, tuple[str, ...], str]]:
    """The seven's sentences: what it scores turned up, then how a holder scores it."""
    cells = (
        f"{s['rank']} {s['turn_up_points']}",
        f"{s['scoring']} {s['declare_points']}/{s['exchange_points']}",
    )
    name = f"the {rank(s['rank'])} of trumps"
    if not any(s[k] for k in ("turn_up_points", "declare_points", "exchange_points")):
        nothing = f"{capital(name)} has no score in this game"
        if not turn_up or s["scoring"] == "on_play":  # no exchange is kept either
            return [(f"{nothing}.", SEVEN_COVERS[0] + SEVEN_COVERS[1], " ".join(cells))]
        return [
            (f"{nothing}, turned up or held.", SEVEN_COVERS[0], cells[0]),
            (
                "A player holding it may still exchange it for the turned-up card, for no points.",
                SEVEN_COVERS[1],
                cells[1],
            ),
        ]
    turned = (
        f"A {rank(s['rank'])} turned up for trumps gives the dealer {_points(s['turn_up_points'])}."
        if turn_up
        else f"No card is turned up, so no {rank(s['rank'])} scores for the dealer."
    )
    exchange = (
        f"exchange it for the turned-up card, scoring {_points(s['exchange_points'])}, or "
        if turn_up
        else ""
    )
    ways = {
        "declare_or_exchange": (
            f"A player holding {name} may, after winning a trick and before drawing, "
            f"{exchange}declare it, scoring {_points(s['declare_points'])}; each such card "
            "scores once."
        ),
        "on_play": (
            f"{capital(name)} scores {_points(s['declare_points'])} to whoever plays it "
            "to a trick while the stock lasts; it is neither exchanged for the turn-up nor "
            "declared."
        ),
        "on_play_or_exchange": (
            f"{capital(name)} scores {_points(s['declare_points'])} to whoever plays it "
            "to a trick while the stock lasts; a player holding it may instead, after winning "
            "a trick and before drawing, exchange it for the turned-up card, scoring "
            f"{_points(s['exchange_points'])}; each such card scores once. It is never declared."
        ),
        "trick_winner": (
            f"{capital(name)} scores {_points(s['declare_points'])} to the winner of the "
            "trick it falls in while the stock lasts (never in the end-game); while the stock "
            "lasts he may exchange it for the turned-up card, and it scores once, exchanged or "
            "not."
        ),
    }
    return [
        (turned, SEVEN_COVERS[0], cells[0]),
        (ways[s["scoring"]], SEVEN_COVERS[1], cells[1]),
    ]


def _points(points: int) -> str:
    """Points in words: ``nothing`` for none."""
    return "nothing" if points == 0 else str(points)


def carte_blanche(data: Data) -> list[Said]:
    """Whether a hand dealt without court cards may be announced, and what it scores."""
    c = data.get("carte_blanche")
    if c is None:
        return []
    covers = tuple(f"carte_blanche.{k}" for k in ("enabled", "ranks", "points", "from_opponent"))
    if not c["enabled"]:
        text, cell = "Carte blanche is not played.", "off"
    else:
        taken = ", and the same is taken off his opponents' scores" if c["from_opponent"] else ""
        text = (
            f"A player dealt a hand without any {listed((rank(r) for r in c['ranks']), 'or')} "
            "may, at his choice, announce it before he plays his first card, showing the hand, "
            f"and score {c['points']}{taken}; playing a card without announcing it declines it."
        )
        cell = f"{c['points']} ({' '.join(c['ranks'])})"
    return [Said("carte_blanche", "carte_blanche", text, covers, ("carte_blanche", "source"), cell)]


TIMING = {
    "immediate": "as each trick is won",
    "end_of_hand": "when the hand is over",
    "settlement": "only when the game is settled, and only when the settlement asks for them",
}


def brisques(data: Data) -> list[Said]:
    """The points of the aces and tens won, and of the last trick."""
    said = []
    b = data.get("brisques")
    if b is not None:
        said.append(
            Said(
                "brisques",
                "brisques",
                f"Each {listed((rank(r) for r in b['ranks']), 'or')} won in a trick (a brisque) "
                f"scores {b['points']} to the player who wins it, counted {TIMING[b['timing']]}.",
                ("brisques.ranks", "brisques.points", "brisques.timing"),
                ("brisques", "source"),
                f"{b['points']} {b['timing']}",
            )
        )
    t = data.get("last_trick")
    if t is not None:
        which = (
            "the trick after which the stock is empty"
            if t["which"] == "stock_exhausting"
            else "the very last trick of the hand"
        )
        said.append(
            Said(
                "brisques",
                "last_trick",
                f"The last trick, {which}, scores {_points(t['points'])} to its winner.",
                ("last_trick.which", "last_trick.points"),
                ("last_trick", "source"),
                f"{t['points']} {t['which']}",
            )
        )
    return said


def endgame(data: Data) -> list[Said]:
    """The duties of play once the stock is exhausted."""
    e = data.get("endgame")
    if e is None:
        return []
    duties = [
        text
        for key, text in (
            ("follow_suit", "follow suit"),
            ("must_win", "win the trick if he can"),
            ("must_trump", "trump when he cannot follow"),
        )
        if e[key]
    ]
    text = (
        "Once the stock is exhausted, in the tricks that remain each player must "
        + listed(duties)
        + "."
        if duties
        else "Once the stock is exhausted play stays free: no duty to follow or to win."
    )
    covers = ("endgame.follow_suit", "endgame.must_win", "endgame.must_trump")
    cell = " ".join(k for k in ("follow_suit", "must_win", "must_trump") if e[k]) or "free"
    return [Said("endgame", "endgame.duties", text, covers, ("endgame", "source"), cell)]


def game(data: Data) -> list[Said]:
    """The target, when it is looked at, and who wins when both pass it; or one deal."""
    g = data["game"]
    if game_target(data) is None:
        return [
            Said(
                "game",
                "game.target",
                "One deal is the game: it is over when its last trick is played, whatever "
                "the scores, and no points target is used.",
                ("game.end", "game.check", "game.both_over"),
                ("game", "source"),
                "none (one deal)",
            )
        ]
    check = (
        "it is over as soon as a side reaches the target"
        if g["check"] == "at_once"
        else "the scores are compared with the target only when a hand is over"
    )
    both = (
        "the winner of the last trick"
        if g["both_over"] == "last_trick_winner"
        else "the higher score"
    )
    return [
        Said(
            "game",
            "game.target",
            f"The game is {g['target']} point{'' if g['target'] == 1 else 's'} up; {check}.",
            ("game.target", "game.check"),
            ("game", "source"),
            f"{g['target']} {g['check']}",
        ),
        Said(
            "game",
            "game.both_over",
            f"When both sides pass the target, {both} wins.",
            ("game.both_over",),
            ("game", "source"),
            str(g["both_over"]),
        ),
    ]

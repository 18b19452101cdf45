"""Sentences from a variant's data: penalties, Polish open cards, partnerships, Rubicon, lift."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bezique.rulebook.sections import Said
from bezique.rulebook.words import listed, number, rank, value

Data = Mapping[str, Any]

AWARD = {
    "injured_chooses": (
        "the injured player either adds them to his own score or takes them off the offender's"
    ),
    "opponent_adds": "they are added to the offender's opponent's score",
    "offender_deducts": "they are taken off the offender's score",
}

PENALTIES = {
    "drew_out_of_turn": "drawing out of turn (claimed before the injured player draws)",
    "played_with_seven": "playing with a card short, having failed to draw (two cards are "
    "taken at the next draw)",
    "nine_cards": "being found, at any time of the play, holding more cards than his number "
    "while the others hold theirs, dealt or drawn too many (he then plays without drawing, "
    "one draw missed for each card too many)",
    "led_out_of_turn": "leading out of turn (the lead stands once every player has played to it)",
}


def penalties(data: Data) -> list[Said]:
    """Each penalty's points, how they are awarded, and what a revoke forfeits."""
    p = data.get("penalties")
    if p is None:
        return []
    src = ("penalties", "source")
    said = [
        Said(
            "penalties",
            "penalties.award",
            f"Penalty points: {AWARD[p['award']]}.",
            ("penalties.award",),
            src,
            str(p["award"]),
        )
    ]
    for key, what in PENALTIES.items():
        points = int(p[key])
        text = (
            f"No penalty is scored for {what}."
            if points == 0
            else f"{what.capitalize()} costs {points}."
        )
        said.append(
            Said("penalties", f"penalties.{key}", text, (f"penalties.{key}",), src, str(points))
        )
    scope = (
        "all the tricks of the end-game"
        if p["revoke"] == "all_endgame_tricks"
        else "the tricks that remain to be played"
    )
    if "seen_cards" in p:
        seen = (
            "A winner who lifts two cards at the draw lets his adversary take his choice of "
            "them; a loser who draws the winner's card keeps it, and the winner may claim the "
            "points for drawing out of turn before his own draw."
            if p["seen_cards"] == "choice"
            else "A winner who sees two cards at the draw shows his own, the top one, to his "
            "adversary, and each keeps his card; a loser who takes the top card puts it back "
            "and shows his own, the next, with no points due, unless the winner has drawn "
            "already, when it is too late."
        )
        said.append(
            Said(
                "penalties",
                "penalties.seen_cards",
                seen + " A loser who lifts two after the winner has drawn gives his adversary "
                "the choice of the two cards at the next draw.",
                ("penalties.seen_cards",),
                src,
                str(p["seen_cards"]),
            )
        )
    said.append(
        Said(
            "penalties",
            "penalties.revoke",
            f"A revoke, or a failure to win when able, in the end-game forfeits {scope} "
            "to the adversary.",
            ("penalties.revoke",),
            src,
            str(p["revoke"]),
        )
    )
    return said


def open_cards(data: Data) -> list[Said]:
    """Which cards won in tricks are laid face up (Polish bezique)."""
    o = data.get("open_cards")
    if o is None:
        return []
    plain = listed(rank(r, plural=True) for r in o["ranks"])
    trumps = listed(rank(r, plural=True) for r in o["trump_ranks"])
    also = f", and {trumps} of trumps" if o["trump_ranks"] else ""
    return [
        Said(
            "open_cards",
            "open_cards",
            f"The {plain} of any suit{also} won in a trick are laid face up before their "
            "winner; combinations are declared from these open cards only.",
            ("open_cards.ranks", "open_cards.trump_ranks"),
            ("open_cards", "source"),
            f"{value(o['ranks'])} / {value(o['trump_ranks'])}",
        )
    ]


def partnerships(data: Data) -> list[Said]:
    """Who plays with whom, who declares after a side's trick, and shared beziques."""
    p = data.get("partnerships")
    if p is None:
        return []
    src = ("partnerships", "source")
    sides = [listed(str(seat) for seat in side) for side in p["sides"]]
    declarer = (
        "the trick's winner declares first, then his partner, each in turn before the draw"
        if p["declarer"] == "either"
        else "the trick's winner declares, or passes the privilege to his partner without "
        "declaring; not both"
    )
    shared = (
        "A player declaring a double or triple bezique may count in beziques that his partner "
        "has declared and left on the table."
        if p["shared_beziques"]
        else "A double or triple bezique counts only when all its cards are the declarer's own."
    )
    # absent: false, the default declared in the partnership plugin's schema fragment
    pooled = bool(p.get("partners_table", False))
    table = (
        "Any other combination may be made of cards of the declarer's own hand together with "
        "cards his partner has declared and left on the table, at least one of them his own; "
        "the class rules judge the partner's cards as they stand, so that nothing may be "
        "declared that the partner could not declare himself."
        if pooled
        else "No other combination may take the partner's cards."
    )
    return [
        Said(
            "partnerships",
            "partnerships.sides",
            _sides(p["sides"], len(sides)),
            ("partnerships.sides",),
            src,
            value(p["sides"]),
        ),
        Said(
            "partnerships",
            "partnerships.declarer",
            f"After a trick won by a side, {declarer}.",
            ("partnerships.declarer",),
            src,
            str(p["declarer"]),
        ),
        Said(
            "partnerships",
            "partnerships.shared_beziques",
            shared,
            ("partnerships.shared_beziques",),
            src,
            value(p["shared_beziques"]),
        ),
    ] + (
        [
            Said(
                "partnerships",
                "partnerships.partners_table",
                table,
                ("partnerships.partners_table",),
                src,
                value(pooled),
            )
        ]
        if "partners_table" in p  # (optional: off when a file leaves it out)
        else []
    )


def _sides(sides: list[list[int]], count: int) -> str:
    """Who plays with whom: partners facing each other, or the seats of each side."""
    seats = sum(len(side) for side in sides)
    facing = all(len(s) == 2 and abs(s[0] - s[1]) * 2 == seats for s in sides)
    if facing:
        return (
            f"The {number(seats)} players make {number(count)} partnerships, each of two "
            "partners sitting opposite each other (seats numbered from 0 in the order of "
            "play: " + " against ".join(f"{s[0]} and {s[1]}" for s in sides) + "); the score "
            "is kept per partnership."
        )
    listed_sides = "; ".join(f"seats {listed(str(seat) for seat in side)}" for side in sides)
    return (
        f"The seats play in {number(count)} partnerships: {listed_sides}; the score is kept "
        "per partnership."
    )


def rubicon(data: Data) -> list[Said]:
    """How a one-deal game is settled, and the Rubicon readings of declaring."""
    r = data.get("rubicon")
    if r is None:
        return []
    src = ("rubicon", "source")

    def line(
        key: str,
        text: str,
        covers: tuple[str, ...],
        cell: str,
        where: tuple[str, tuple[str, ...] | str] = ("rubicon", src),
    ) -> Said:
        """A Rubicon rule, in the settlement's section unless ``where`` says another."""
        section, cited = where
        paths = tuple(f"rubicon.{c}" for c in covers)
        return Said(section, f"rubicon.{key}", text, paths, cited, cell)

    brisques = (
        "Brisques are counted, for both players, only when the totals are equal or when "
        "they bring the lower total up to the rubicon line."
        if r["brisques"] == "tie_or_rubicon"
        else "Brisques are never counted."
    )
    stage = (
        "the winner's total after the settlement"
        if r["rounding"]["stage"] == "final"
        else ("each total before the settlement, and the winner's after it")
    )
    rounding = (
        "Nothing is rounded."
        if r["rounding"]["to"] == 1
        else f"Fractions of {r['rounding']['to']} are dropped from {stage}, never so far that "
        "the winner's score falls to nothing."
    )
    blanche = (
        "A player who announced a carte blanche at the deal may announce it again, at his "
        "choice, for each card he draws that is not of its ranks, showing that card before "
        "he plays his next one, and score it again, until he draws one of its ranks."
        if r["carte_blanche"] == "per_drawn_card"
        else "A carte blanche is announced only once, at the deal."
    )
    return [
        line(
            "game_bonus",
            f"The higher total wins; if the loser reaches {r['line']} the winner "
            f"adds {r['game_bonus']} for the game, and the loser's total is taken off his.",
            ("game_bonus", "line"),
            f"{r['game_bonus']} at {r['line']}",
        ),
        line(
            "rubicon_bonus",
            f"A loser under {r['line']} is rubiconed: the winner adds "
            f"{r['rubicon_bonus']} instead of {r['game_bonus']} and the loser's total"
            + (
                f", and {r['brisques_bonus']} for all the brisques."
                if r["brisques_bonus"]
                else ", and nothing for the brisques."
            ),
            ("rubicon_bonus", "brisques_bonus"),
            f"{r['rubicon_bonus']} + {r['brisques_bonus']}",
        ),
        line("brisques", brisques, ("brisques",), str(r["brisques"])),
        line(
            "rounding",
            rounding,
            ("rounding.to", "rounding.stage"),
            f"{r['rounding']['to']} {r['rounding']['stage']}",
        ),
        line(
            "carte_blanche",
            blanche,
            ("carte_blanche",),
            str(r["carte_blanche"]),
            ("carte_blanche", ("carte_blanche", "source")),
        ),
        line(
            "repair_marriages",
            "Once a card of a marriage has been played, its partner may be married again to a "
            "card already declared, with no card from the hand, even to a king or queen taken "
            "from a marriage still on the table."
            if r["repair_marriages"]
            else "Every declaration brings a card never declared before; no marriage is re-paired "
            "from declared cards alone.",
            ("repair_marriages",),
            value(r["repair_marriages"]),
            ("declarations", "A23; R-C4"),
        ),
        line(
            "married_into_sequence",
            "A king or queen once married may still join a sequence."
            if r["married_into_sequence"]
            else "A king or queen once married may not join a sequence.",
            ("married_into_sequence",),
            value(r["married_into_sequence"]),
            ("declarations", "A07; R-C5"),
        ),
    ]


def lift(data: Data) -> list[Said]:
    """The dealer's lift before the deal and the adversary's guess."""
    x = data.get("lift")
    if x is None:
        return []
    covers = tuple(
        f"lift.{k}" for k in ("enabled", "target", "exact_bonus", "guess_bonus", "sizes")
    )
    low, high = x["sizes"]
    text = (
        f"Before each deal the dealer lifts a packet off the pack without counting it, aiming "
        f"at {x['target']} cards; his adversary guesses its size, from {low} to {high}.  A right "
        f"guess scores {x['guess_bonus']} to the guesser, a packet of exactly {x['target']} "
        f"scores {x['exact_bonus']} to the dealer."
        if x["enabled"]
        else "The dealer does not lift before the deal."
    )
    cell = f"{x['target']}: {x['exact_bonus']}/{x['guess_bonus']}" if x["enabled"] else "off"
    return [Said("lift", "lift", text, covers, ("lift", "source"), cell)]

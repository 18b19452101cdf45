"""What the ordinary rules cannot play in a variant's data, and this plugin's schema fragment.

The loader asks these through the collect hooks ``bezique_variant_problems`` and
``bezique_variant_schema`` (the hook implementations are at the end of the
plugin's module); each problem is a ``(path, message)`` pair, or a list of paths
when values clash (the loader reports it where the one set last was written).
The data has passed the schema of the variant's plugins (``schema.json`` beside
this module, :func:`schema_fragment`) when it is checked here:

* the bezique is two different cards (a queen and a knave in S0), and every
  trump suit of the pack names its bezique cards;
* no combination needs more cards of one rank, or more bezique pairs, than the
  packs hold;
* some rule scores points, so that a game can reach its target and end (one deal ends anyway).
"""

from __future__ import annotations

from typing import Any

from bezique.hookspecs import KeyPath
from bezique.variant import game_target, load_fragment
from bezique.variant.checks import SUIT_FORM, count, letters, section

Problem = tuple[KeyPath | list[KeyPath], str]
"""A problem as ``bezique_variant_problems`` answers it: where, and what."""

BEZIQUE_CARDS: KeyPath = ("declarations", "bezique_cards")


def schema_fragment() -> dict[str, Any]:
    """The ordinary plugin's sections of the variant schema (``schema.json``)."""
    return load_fragment(__package__ or __name__, "schema.json")


def problems(data: dict[str, Any]) -> list[Problem]:
    """Everything in a variant's (schema-valid) data the ordinary rules cannot play."""
    return [
        *bezique_card_problems(data),
        *combination_size_problems(data),
        *scoring_problems(data),
        *carte_blanche_problems(data),
        *trump_problems(data),
    ]


def trump_problems(data: dict[str, Any]) -> list[Problem]:
    """``trumps.fixed_by`` says what names trumps when no card is turned up."""
    trumps = section(data, "trumps")
    if "fixed_by" in trumps and trumps.get("mode") != "first_marriage":
        return [
            (
                [("trumps", "fixed_by"), ("trumps", "mode")],
                "trumps.fixed_by says what names trumps when the first marriage does, but "
                f"trumps.mode is {trumps.get('mode')!r}; remove it or set mode: first_marriage",
            )
        ]
    return []


def bezique_card_problems(data: dict[str, Any]) -> list[Problem]:
    """The bezique is two different cards, and every trump suit has its bezique cards."""
    table: dict[str, Any] = section(data, "declarations", "bezique_cards")
    found: list[Problem] = [
        (
            (*BEZIQUE_CARDS, suit, 1),
            "the bezique is two different cards (a queen and a knave in S0); "
            f"{pair[0]!r} is named twice",
        )
        for suit, pair in table.items()
        if isinstance(pair, list) and len(pair) == 2 and pair[0] == pair[1]
    ]
    found += [
        (BEZIQUE_CARDS, f"trump suit {suit!r} has no entry; add one, such as {suit}: [QS, JD]")
        for suit in letters(section(data, "cards").get("suits"), SUIT_FORM)
        if suit not in table
    ]
    return found


def combination_size_problems(data: dict[str, Any]) -> list[Problem]:
    """No combination needs more cards of a rank, or more bezique pairs, than can be held."""
    cards = section(data, "cards")
    packs, suits = count(cards.get("packs")), cards.get("suits")
    if packs is None or not isinstance(suits, list):
        return []
    found: list[Problem] = []
    for name, combo in section(data, "declarations", "combinations").items():
        base: KeyPath = ("declarations", "combinations", name)
        needed, beziques = count(combo.get("count")), count(combo.get("beziques"))
        most = len(suits) if combo.get("distinct_suits") is True else packs * len(suits)
        if needed is not None and "rank" in combo and needed > most:
            found.append(
                (
                    [(*base, "count"), ("cards", "packs"), ("cards", "suits")],
                    f"combination {name!r} needs {needed} cards of one rank, but at most {most} "
                    f"can be held; lower its count to {most} or less",
                )
            )
        if beziques is not None and beziques > packs:
            found.append(
                (
                    [(*base, "beziques"), ("cards", "packs")],
                    f"combination {name!r} needs {beziques} bezique pairs, but {packs} pack(s) "
                    f"hold at most {packs}; lower it or shuffle in more packs",
                )
            )
    return found


def scoring_problems(data: dict[str, Any]) -> list[Problem]:
    """Some rule scores points: otherwise no game could reach its target and end.

    A game of one deal ends with its hand whatever is scored: nothing to check.
    """
    target = game_target(data)
    if target is None:
        return []
    paths: list[KeyPath] = []
    if section(data, "brisques").get("ranks"):
        paths.append(("brisques", "points"))
    paths.append(("last_trick", "points"))
    if section(data, "trumps").get("mode") != "first_marriage":  # then no seven scores
        sevens = ("turn_up_points", "declare_points", "exchange_points")
        paths += [("seven_of_trumps", key) for key in sevens]
    hand = count(section(data, "deal").get("hand_size")) or 0
    paths += [
        ("declarations", "combinations", name, "points")
        for name, row in section(data, "declarations", "combinations").items()
        if combination_size(row) <= hand  # declared cards stay in the hand
    ]
    if section(data, "carte_blanche").get("enabled") is True:
        paths.append(("carte_blanche", "points"))
    values = [count(_value(data, path)) for path in paths]
    if None in values or any(values):
        return []  # something scores (or the schema has said what is wrong)
    return [
        (
            paths,
            "no rule of this variant scores a point (combinations that fit in a hand, "
            "brisques, last trick, seven of trumps, carte blanche), so no one can reach "
            f"game.target {target}; give one of them points",
        )
    ]


def carte_blanche_problems(data: dict[str, Any]) -> list[Problem]:
    """Carte blanche taken from the opponent, with more than two players."""
    players: int = data["players"]
    carte_blanche = data.get("carte_blanche", {})
    if carte_blanche.get("enabled") and carte_blanche.get("from_opponent") and players > 2:
        return [
            (
                [("carte_blanche", "from_opponent"), ("players",)],
                "carte blanche taken from the opponent is S4's two-hand reading (A18); with "
                f"{players} players no source says who pays, and taken from every other player "
                "the scores may fall hand after hand so that the game never ends; set it false, "
                "or play two hands",
            )
        ]
    return []


def combination_size(row: Any) -> int:
    """How many cards a row of the combination table takes (0 if it cannot be told)."""
    if not isinstance(row, dict):
        return 0
    ranks, needed, beziques = row.get("ranks"), count(row.get("count")), count(row.get("beziques"))
    if isinstance(ranks, list):
        return len(ranks)
    return needed if needed is not None else 2 * beziques if beziques is not None else 0


def _value(data: Any, path: KeyPath) -> Any:
    """The value at ``path`` in ``data``, or None."""
    for part in path:
        data = data.get(part) if isinstance(data, dict) else None
    return data

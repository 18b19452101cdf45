"""Sentences from a variant's data: declaring, the bezique pair, the classes and the score table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bezique.rulebook.sections import Said
from bezique.rules.english import capital, card, listed, rank, suit, value
from bezique.rules.words import Words

Data = Mapping[str, Any]
SOURCE = ("declarations", "source")

PER_TRICK = {
    "several": (
        "After winning a trick, and before drawing, the winner may declare several "
        "combinations at once, so long as no card serves in two of them."
    ),
    "one": (
        "After winning a trick, and before drawing, the winner may score one combination; "
        "others he shows with it wait, and may be scored after later tricks he wins."
    ),
    "compound": (
        "After winning a trick, and before drawing, the winner may declare several "
        "combinations at once, and a card may serve in several of them if they are of "
        "different classes."
    ),
}

LADDER = {
    "additive": (
        "A bezique combination built on a lower one still on the table scores its full "
        "value on top of what the lower one scored."
    ),
    "difference": (
        "A bezique combination built on a lower one still on the table scores its value "
        "less what the lower one scored (a double on a single still scores its full value)."
    ),
}


def rules(data: Data, words: Words) -> list[Said]:
    """How many combinations a trick allows, the new card, the ladder and the bezique pair."""
    d = data.get("declarations")
    if d is None:
        return []
    new_card = (
        "Each declaration must bring at least one card not declared before."
        if d["new_card_required"]
        else "A declaration may be made of cards already on the table alone."
    )
    said = [
        _setting("per_trick", PER_TRICK[d["per_trick"]], str(d["per_trick"])),
        _setting("new_card_required", new_card, value(d["new_card_required"])),
    ]
    if "bezique_ladder" in d:
        ladder = d["bezique_ladder"]
        said.append(_setting("bezique_ladder", LADDER[ladder], str(ladder)))
    return [*said, _pair(d["bezique_cards"]), *_classes(d["combinations"], words)]


def _setting(key: str, text: str, cell: str) -> Said:
    """The sentence of the one setting ``declarations.KEY``, cited from the section."""
    path = f"declarations.{key}"
    return Said("declarations", path, text, (path,), SOURCE, cell)


def _pair(pairs: Mapping[str, list[str]]) -> Said:
    """Which queen and knave make a bezique, under each trump suit."""
    covers = tuple(f"declarations.bezique_cards.{s}" for s in pairs)
    shown = {s: f"{card(a)} with {card(b)}" for s, (a, b) in pairs.items()}
    if len(set(shown.values())) == 1:
        text = f"Whatever the trumps, a bezique is {next(iter(shown.values()))}."
    else:
        grouped: dict[str, list[str]] = {}
        for s, pair in shown.items():
            grouped.setdefault(pair, []).append(suit(s))
        text = (
            "A bezique is "
            + listed(
                f"{pair} when {listed(suits, 'or')} are trumps" for pair, suits in grouped.items()
            )
            + "."
        )
    groups: dict[str, list[str]] = {}
    for s, p in pairs.items():
        groups.setdefault(" ".join(p), []).append(s)
    cells = "; ".join(f"{','.join(suits)}: {p}" for p, suits in groups.items())
    if len(groups) == 1:
        cells = f"all: {next(iter(groups))}"
    return Said("declarations", "declarations.bezique_cards", text, covers, SOURCE, cells)


def _classes(combos: Mapping[str, Mapping[str, Any]], words: Words) -> list[Said]:
    """The class rule, each class with its combinations by level; growing in one trick."""
    classes: dict[str, list[tuple[int, str]]] = {}
    for name, combo in combos.items():
        classes.setdefault(str(combo["class"]), []).append((int(combo["level"]), name))
    parts = []
    for cls, members in classes.items():
        levels = sorted({level for level, _ in members})
        steps = [
            listed(words.combination(n) for lv, n in members if lv == level) for level in levels
        ]
        parts.append(f"{cls} ({', then '.join(steps)})")
    covers = tuple(
        f"declarations.combinations.{name}.{key}" for name in combos for key in ("class", "level")
    )
    said = [
        Said(
            "declarations",
            "declarations.classes",
            f"The combinations fall into classes, lowest first: {'; '.join(parts)}.  A card "
            "already declared may serve again in a combination of another class, or in a "
            "higher one of its own class, never in an equal or a lower one.",
            covers,
            SOURCE,
            "; ".join(parts),
        )
    ]
    growing = {
        n: bool(c["grows_in_one_trick"]) for n, c in combos.items() if "grows_in_one_trick" in c
    }
    if growing:
        said.append(_growing(growing, words))
    return said


def _growing(growing: Mapping[str, bool], words: Words) -> Said:
    """Whether cards declared lower in a class after one trick may complete these at once."""
    no = [words.combination(n) for n, grows in growing.items() if not grows]
    yes = [words.combination(n) for n, grows in growing.items() if grows]
    parts = []
    if no:
        parts.append(
            f"Cards declared after a trick in a lower combination of its class cannot "
            f"complete {listed((f'a {n}' for n in no), 'or')} after the same trick: "
            "declared together, its cards score it alone"
        )
    if yes:
        parts.append(f"{listed(yes)} may be completed after the same trick")
    covers = tuple(f"declarations.combinations.{n}.grows_in_one_trick" for n in growing)
    cells = " ".join(f"{n} {value(g)}" for n, g in growing.items())
    return Said(
        "declarations",
        "declarations.grows_in_one_trick",
        "; ".join(parts) + ".",
        covers,
        SOURCE,
        cells,
    )


def score_table(data: Data, words: Words) -> list[Said]:
    """One sentence for each combination of the table, with its points."""
    combos = data.get("declarations", {}).get("combinations", {})
    return [_combination(name, combo, words) for name, combo in combos.items()]


def _combination(name: str, combo: Mapping[str, Any], words: Words) -> Said:
    """What one combination holds and what it scores."""
    keys = ["points"]
    if "ranks" in combo:
        keys += ["ranks", "suit"]
        where = {"plain": "of a suit other than trumps", "trump": "of trumps", "any": "of one suit"}
        what = f"{listed(rank(r) for r in combo['ranks'])} {where[combo['suit']]}"
    elif "rank" in combo:
        keys += [k for k in ("rank", "count", "suit", "distinct_suits") if k in combo]
        what = f"{combo['count']} {rank(combo['rank'], plural=True)}"
        if combo.get("suit") == "trump":
            what += " of trumps"
        elif combo.get("distinct_suits"):
            what += ", one of each suit"
        else:
            what += " of any suits"
    else:
        keys.append("beziques")
        n = int(combo["beziques"])
        what = (
            "the queen and knave of the bezique pair"
            if n == 1
            else f"{n} bezique pairs shown together"
        )
    path = f"declarations.combinations.{name}"
    source = ("declarations", "combinations", name, "source") if "source" in combo else SOURCE
    return Said(
        "score_table",
        path,
        f"{capital(words.combination(name))} ({what}) scores {combo['points']}.",
        tuple(f"{path}.{k}" for k in keys),
        source,
        f"{combo['points']} ({what})",
    )

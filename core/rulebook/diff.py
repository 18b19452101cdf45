"""The rule-by-rule difference of variants, on their rule lines (never their files' text).

Two variants' rulebooks (:func:`~bezique.rulebook.rule_lines`) are compared rule by rule,
by section and key: a rule whose sentence differs, or that only one of them has, is a
difference of the rules; a rule said alike but cited from another source is a difference
of citations only, shown on request.  The variants' names and summaries (the ``about``
section) are not rules.  Three or more variants give a matrix: each rule on which any of
them differs, with each variant's value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bezique.rulebook.book import RuleLine, rule_lines
from bezique.rulebook.sections import order
from bezique.rules.ruleset import Ruleset
from bezique.variant.bibliography import citations_in

ABSENT = "(no such rule)"
"""What a side without the rule says."""


@dataclass(frozen=True)
class Book:
    """One variant's rule lines under the label the difference gives it."""

    label: str
    lines: dict[tuple[str, str], RuleLine]


@dataclass(frozen=True)
class Difference:
    """A rule on which the variants differ: each variant's line (None: it has no such rule)."""

    section: str
    key: str
    sides: tuple[RuleLine | None, ...]
    citations_only: bool
    """The sentences are alike, the citations are not."""


def books(rulesets: Sequence[Ruleset]) -> list[Book]:
    """Each ruleset's rule lines, labelled by its variant's name.

    A name already taken is given as the file it was read from when that is another file,
    or numbered (``#2``) when it is the same one.
    """
    found: list[Book] = []
    for ruleset in rulesets:
        label = ruleset.variant.name
        taken = [book.label for book in found]
        origins = [r.variant.origin for r in rulesets[: len(found)]]
        if label in taken and ruleset.variant.origin not in origins:
            label = ruleset.variant.origin  # the same name from another file: its path
        if label in taken:
            label = f"{label}#{sum(t.split('#')[0] == label for t in taken) + 1}"
        lines = {(line.section, line.key): line for line in rule_lines(ruleset)}
        found.append(Book(label, lines))
    return found


def differences(found: Sequence[Book], sources: bool = False) -> list[Difference]:
    """The rules on which the books differ, in rulebook order (citations too if ``sources``)."""
    keys = list(dict.fromkeys(key for book in found for key in book.lines))
    keys.sort(key=lambda key: order(key[0]))
    out = []
    for section, key in keys:
        if section == "about":
            continue
        sides = tuple(book.lines.get((section, key)) for book in found)
        texts = {side.text if side else None for side in sides}
        if len(texts) > 1:
            out.append(Difference(section, key, sides, False))
        elif sources and len({side.source if side else None for side in sides}) > 1:
            out.append(Difference(section, key, sides, True))
    return out


def codes(line: RuleLine) -> str:
    """A line's citation in short: the codes its source cites (``S0; A11``), else its text."""
    if not line.source:
        return "no citation"
    found = list(dict.fromkeys(c.code for c in citations_in(line.source)))
    if found:
        return "; ".join(found)
    return line.source if len(line.source) <= 60 else line.source[:57] + "..."


def cell(difference: Difference, index: int) -> str:
    """A variant's entry in the matrix: the rule's value in short, or its sentence's number."""
    side = difference.sides[index]
    if side is None:
        return "-"
    present = [s for s in difference.sides if s is not None]
    values = {s.value for s in present}
    by_text = {s.text: s.value for s in present}
    if all(s.value for s in present) and len(values) == len(by_text):
        return side.value
    texts = list(dict.fromkeys(s.text for s in present))
    if len(texts) == 1:
        return "yes"
    return f"text {texts.index(side.text) + 1}"

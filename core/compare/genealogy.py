"""The genealogy of the rule texts: asserted by the bibliography, computed from the rules.

Each variant whose own file cites a text (its top-level ``source:``) is a *text*: the
preset of the first source it cites, dated by that source's year in the bibliography
(:mod:`bezique.variant.bibliography`).  A variant whose file cites none is a *house
rule*, attached to the variant it extends.

Two trees are set side by side.  The *asserted* one is the bibliography's: each source's
``derives_from`` says which earlier text it derives from, how, and on which rules and
readings that rests.  The *computed* one is built from the rules alone: the distance
between two variants is the number of rules on which their merged rules differ (the same
rule-by-rule difference as ``bezique diff``: :func:`bezique.rulebook.diff.differences`,
citations aside), and the texts are joined by UPGMA (:func:`bezique.compare.trees.upgma`).
Where the two disagree (a derivation whose texts are not sisters in the computed tree, a
house rule nearer another text than the one it extends) :func:`disagreements` says where.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from bezique.compare.trees import Clade, smallest_clade, upgma
from bezique.errors import BeziqueError
from bezique.rulebook.book import RuleLine
from bezique.rulebook.diff import Book, books, differences
from bezique.rules.ruleset import Ruleset, ruleset_for
from bezique.variant import loader
from bezique.variant.bibliography import (
    RELATIONS,
    Bibliography,
    Derivation,
    bibliography,
    citations_in,
)

UNDATED = "undated"
"""The year of a text the bibliography cannot date."""

TEXT_RELATIONS = ("revision", "paraphrase", "restatement")
"""The relations between texts themselves: the later text is no older than the earlier one
(a game built on another's may be set down in an older book than the one that prints it)."""


@dataclass(frozen=True)
class Text:
    """A variant in the genealogy: a text's preset, or a house rule over another variant."""

    name: str
    """The variant's name (its label in ``bezique diff``)."""
    title: str
    code: str | None
    """The source the preset follows (the first its file cites); None for a house rule or
    a file that cites no source of the bibliography."""
    year: str
    """The source's year (``1875``), or :data:`UNDATED`."""
    extends: str | None
    """The variant its file extends."""
    house: bool
    """A house rule: its file cites no text of its own."""


@dataclass(frozen=True)
class Evidence:
    """One rule a derivation rests on, as the later and the earlier preset say it."""

    key: str
    later: RuleLine | None
    earlier: RuleLine | None

    @property
    def alike(self) -> bool:
        """Whether the two presets state the rule in the same words."""
        return (
            self.later is not None
            and self.earlier is not None
            and self.later.text == self.earlier.text
        )


@dataclass(frozen=True)
class Asserted:
    """A derivation of the bibliography, read against the computed tree."""

    later: str
    """The code of the later text."""
    derivation: Derivation
    later_preset: str | None
    """The preset of the later text compared (the nearest of several), or None."""
    earlier_preset: str | None
    distance: int | None
    """The number of rules on which the two presets differ."""
    verdict: str
    """``sisters`` (the computed tree joins them first), ``nearest`` (each other's nearest
    text, but another text joins one of them first), ``apart``, or ``no preset``."""
    nearest: tuple[tuple[str, int], ...] = ()
    """The later preset's nearest texts of another source, with their distance."""
    clade: tuple[str, ...] = ()
    """The least group of the computed tree that holds both presets."""
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class HouseRule:
    """A house rule attached to the variant it extends, and its nearest texts."""

    name: str
    parent: str
    distance: int
    """The rules on which it differs from its parent."""
    nearest: tuple[tuple[str, int], ...]
    """The texts nearest it (several when tied), with their distance."""


@dataclass(frozen=True)
class Genealogy:
    """The texts and house rules, their distances, both trees and the derivations read."""

    texts: tuple[Text, ...]
    houses: tuple[HouseRule, ...]
    tree: Clade
    """The computed tree of the texts (the house rules hang on their parents)."""
    distances: dict[frozenset[str], int] = field(repr=False)
    derivations: tuple[Asserted, ...]
    sources: Bibliography = field(repr=False)

    def distance(self, first: str, second: str) -> int:
        """The number of rules on which two variants of the genealogy differ."""
        return 0 if first == second else self.distances[frozenset((first, second))]

    def text(self, name: str) -> Text:
        """The text or house rule named ``name``."""
        return next(t for t in self.texts if t.name == name)

    def presets_of(self, code: str) -> list[str]:
        """The texts that are presets of the source ``code``, in order."""
        return [t.name for t in self.texts if t.code == code and not t.house]


@dataclass(frozen=True)
class Dated:
    """One source on the timeline: its presets, and what bounds the date of an undated one."""

    code: str
    title: str
    year: str
    presets: tuple[str, ...]
    after: str = ""
    """For an undated text derived from a dated one: ``after 1909 (a paraphrase of S2)``."""


def genealogy(specs: Sequence[str] = ()) -> Genealogy:
    """The genealogy of the variants ``specs`` (names or YAML paths; default: every one).

    The variant a house rule extends is taken in too, when not named.
    """
    names = list(specs) or list(loader.catalogue())
    rulesets, texts = _read(names)
    found = books(rulesets)
    texts = [_labelled(t, b.label) for t, b in zip(texts, found, strict=True)]
    distances = {frozenset((a.label, b.label)): _distance(a, b) for a, b in combinations(found, 2)}
    known = bibliography()
    plain = [t for t in texts if not t.house]
    if not plain:
        raise BeziqueError("no variant named cites a text of its own: there is nothing to date")
    labels = [t.name for t in plain]
    tree = upgma(labels, [[_get(distances, a, b) for b in labels] for a in labels])
    result = Genealogy(tuple(texts), (), tree, distances, (), known)
    lines = {b.label: {line.key: line for line in b.lines.values()} for b in found}
    houses = tuple(_house(result, t) for t in texts if t.house)
    asserted = tuple(
        _asserted(result, code, d, lines)
        for code, source in known.sources.items()
        for d in source.derives_from
    )
    return Genealogy(tuple(texts), houses, tree, distances, asserted, known)


def _read(specs: Sequence[str]) -> tuple[list[Ruleset], list[Text]]:
    """The rulesets and texts of ``specs``, with the parents of house rules added."""
    rulesets: list[Ruleset] = []
    texts: list[Text] = []
    todo = list(dict.fromkeys(specs))
    while todo:
        spec = todo.pop(0)
        ruleset = ruleset_for(spec)
        chain, _ = loader.load_chain(loader.resolve_spec(spec))
        parent = chain[-2].data.get("name") if len(chain) > 1 else None
        text = _text(ruleset, chain[-1].data.get("source"), parent)
        rulesets.append(ruleset)
        texts.append(text)
        if text.house and len(chain) > 1:
            named = {r.variant.origin for r in rulesets} | {r.variant.name for r in rulesets}
            display = chain[-2].source.display
            if not {parent, display} & (named | set(todo)):
                todo.append(display)
    return rulesets, texts


def _text(ruleset: Ruleset, cited: object, parent: object) -> Text:
    """The text a variant's own file makes it: a preset of the source it cites, or a house rule.

    ``cited`` is its file's own top-level ``source:``, ``parent`` the name of the file it
    extends.
    """
    known = bibliography()
    parent = parent if isinstance(parent, str) else None
    if not isinstance(cited, str):
        return Text(ruleset.variant.name, ruleset.variant.title, None, UNDATED, parent, True)
    codes = [known.aliases.get(c.code, c.code) for c in citations_in(cited)]
    code = next((c for c in codes if c in known.sources), None)
    year = known.sources[code].year if code is not None else UNDATED
    return Text(ruleset.variant.name, ruleset.variant.title, code, year, parent, False)


def _labelled(text: Text, label: str) -> Text:
    """``text`` under the label ``bezique diff`` gives it (a path when two share a name)."""
    if text.name == label:
        return text
    return Text(label, text.title, text.code, text.year, text.extends, text.house)


def _distance(first: Book, second: Book) -> int:
    """The number of rules on which two variants differ (``bezique diff``'s, citations aside)."""
    return len(differences([first, second]))


def _get(distances: dict[frozenset[str], int], first: str, second: str) -> int:
    return 0 if first == second else distances[frozenset((first, second))]


def _nearest(found: Genealogy, name: str, leave_out: set[str]) -> tuple[tuple[str, int], ...]:
    """The texts nearest ``name`` (all of them when tied), leaving out ``leave_out``."""
    others = [t.name for t in found.texts if not t.house and t.name not in leave_out]
    if not others:
        return ()
    least = min(found.distance(name, other) for other in others)
    return tuple((o, least) for o in others if found.distance(name, o) == least)


def _house(found: Genealogy, house: Text) -> HouseRule:
    """A house rule attached to its parent, with the texts nearest it."""
    names = [t.name for t in found.texts if t.name != house.name]
    parent = house.extends if house.extends in names else None
    if parent is None:  # its parent is known under another label (a path): the nearest
        parent = min(names, key=lambda name: found.distance(house.name, name))
    return HouseRule(
        house.name,
        parent,
        found.distance(house.name, parent),
        _nearest(found, house.name, {house.name}),
    )


def _asserted(
    found: Genealogy, code: str, derivation: Derivation, lines: dict[str, dict[str, RuleLine]]
) -> Asserted:
    """A derivation of the bibliography read against the computed tree."""
    later, earlier = found.presets_of(code), found.presets_of(derivation.source)
    if not later or not earlier:
        return Asserted(code, derivation, None, None, None, "no preset")
    first, second = min(
        ((a, b) for a in later for b in earlier), key=lambda pair: found.distance(*pair)
    )
    clade = smallest_clade(found.tree, first, second).members
    own = set(later) | set(earlier)
    nearest = _nearest(found, first, set(later))
    if set(clade) <= own:
        verdict = "sisters"
    elif any(name in earlier for name, _ in nearest):
        verdict = "nearest"
    else:
        verdict = "apart"
    evidence = tuple(
        Evidence(key, lines[first].get(key), lines[second].get(key)) for key in derivation.rules
    )
    return Asserted(
        code,
        derivation,
        first,
        second,
        found.distance(first, second),
        verdict,
        nearest,
        clade,
        evidence,
    )


def _first_year(year: str) -> int | None:
    found = re.match(r"[0-9]{4}", year)
    return int(found.group()) if found else None


def timeline(found: Genealogy) -> list[Dated]:
    """Every source with a preset or in an asserted derivation, by year (undated last)."""
    known = found.sources
    codes = [t.code for t in found.texts if t.code is not None]
    for asserted in found.derivations:
        codes += [asserted.later, asserted.derivation.source]
    dated = [
        Dated(
            code,
            known.sources[code].title,
            known.sources[code].year,
            tuple(found.presets_of(code)),
            _after(known, code),
        )
        for code in dict.fromkeys(codes)
        if code in known.sources
    ]
    return sorted(
        dated,
        key=lambda d: (_first_year(d.year) or 10_000, d.after == "", _depth(known, d.code), d.code),
    )


def _depth(known: Bibliography, code: str) -> int:
    """How many derivations lead back from ``code`` to a text derived from none (at most 20)."""
    depth = 0
    while known.sources[code].derives_from and depth < 20:
        code, depth = known.sources[code].derives_from[0].source, depth + 1
    return depth


def _after(known: Bibliography, code: str) -> str:
    """What dates an undated text from below: the latest dated text it is a version of."""
    if _first_year(known.sources[code].year) is not None:
        return ""
    bounds = [
        (year, d)
        for d in known.sources[code].derives_from
        if d.relation in TEXT_RELATIONS
        and (year := _first_year(known.sources[d.source].year)) is not None
    ]
    if not bounds:
        return ""
    year, d = max(bounds, key=lambda bound: bound[0])
    return f"after {year} ({RELATIONS[d.relation]} {d.source})"


def described(asserted: Asserted) -> str:
    """A derivation in words: ``S4 (modern-article) is a paraphrase of S2 (hoyle1909)``."""
    later = asserted.later + (f" ({asserted.later_preset})" if asserted.later_preset else "")
    earlier = asserted.derivation.source + (
        f" ({asserted.earlier_preset})" if asserted.earlier_preset else ""
    )
    return f"{later} is {RELATIONS[asserted.derivation.relation]} {earlier}"


def _rules(count: int | float) -> str:
    shown = f"{count:g}" if isinstance(count, float) else str(count)
    return f"{shown} rule{'' if count == 1 else 's'}"


def verdict(asserted: Asserted) -> str:
    """What the computed tree says of an asserted derivation, in a sentence."""
    if asserted.later_preset is None or asserted.earlier_preset is None:
        missing = asserted.later if asserted.later_preset is None else asserted.derivation.source
        return f"not in the computed tree: no variant is a preset of {missing}"
    first, second = asserted.later_preset, asserted.earlier_preset
    apart = _rules(asserted.distance or 0)
    if asserted.verdict == "sisters":
        return f"agrees: {first} and {second} are sisters in the computed tree ({apart} apart)"
    others = [m for m in asserted.clade if m not in (first, second)]
    shown = ", ".join(others[:4]) + (f" and {len(others) - 4} more" if len(others) > 4 else "")
    group = f"the least computed group holding both also holds {shown}"
    nearest = ", ".join(f"{name} ({_rules(d)})" for name, d in asserted.nearest)
    if asserted.verdict == "nearest":
        return (
            f"partly: {second} is {first}'s nearest text ({apart}), but they are not "
            f"sisters: {group}"
        )
    return (
        f"disagrees: {first} and {second} are {apart} apart; {first}'s nearest: {nearest}; {group}"
    )


def disagreements(found: Genealogy) -> list[str]:
    """Where the asserted and the computed trees disagree, a sentence each."""
    out = [
        f"{described(a)}: {verdict(a)}."
        for a in found.derivations
        if a.verdict in ("nearest", "apart")
    ]
    for house in found.houses:
        nearest = [name for name, _ in house.nearest]
        if nearest and house.parent not in nearest and house.nearest[0][1] < house.distance:
            names = ", ".join(nearest)
            out.append(
                f"{house.name} extends {house.parent} ({_rules(house.distance)} apart) but is "
                f"nearer {names} ({_rules(house.nearest[0][1])})"
                + (": the same rules." if house.nearest[0][1] == 0 else ".")
            )
    plain = [t for t in found.texts if not t.house]
    for a, b in combinations(plain, 2):
        if found.distance(a.name, b.name) == 0 and a.code != b.code:
            out.append(
                f"{a.name} ({a.code}) and {b.name} ({b.code}) are presets of different texts "
                "with the same rules."
            )
    return out

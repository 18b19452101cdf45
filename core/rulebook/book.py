"""A variant's rulebook as rule lines: one sentence a rule, from the merged data and the plugins.

:func:`rule_lines` makes the sentences of the kernel's own sections from the merged
data (:mod:`~bezique.rulebook.making`, :mod:`~bezique.rulebook.declaring`,
:mod:`~bezique.rulebook.scoring`), each with the ``source:`` text of its section and the
parent it is inherited from, then asks every plugin of the game for what it says
(:func:`bezique.hookspecs.bezique_describe_rules`): the settings of its own part of the
data (the Rubicon settlement, the penalties, the lift), made into lines as the kernel's
are and in their place, and the prose of its procedures, after them.  A value of the
data that no sentence states (an outside plugin's key it does not describe) still gets a
plain line in the section ``other``, so that nothing the variant sets is left unsaid.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from bezique.errors import BeziqueError, PluginError
from bezique.hookspecs import RuleProse
from bezique.rulebook import declaring, making, scoring
from bezique.rulebook.origins import Inheritance
from bezique.rulebook.sections import Said, order
from bezique.rules.english import value
from bezique.rules.ruleset import Ruleset, ruleset_for
from bezique.rules.words import Words
from bezique.variant.bibliography import uncited

OTHER = "other"
"""The section of the lines for values no sentence states."""


@dataclass(frozen=True)
class RuleLine:
    """One rule of a variant's rulebook, in one sentence.

    ``section`` is the rulebook section (:data:`~bezique.rulebook.sections.SECTIONS`),
    ``key`` what the rule is about (``declarations.per_trick``), unique in the book;
    ``source`` the citation (the ``source:`` text of its section, None when there is
    none); ``inherited_from`` the parent variant whose file set it when the variant's
    own file does not; ``by_plugin`` the plugin whose procedure it describes (None: made
    from the data).  ``covers`` are the dotted paths of the data it states, ``value``
    those values in short.
    """

    section: str
    key: str
    text: str
    source: str | None
    inherited_from: str | None
    by_plugin: str | None
    covers: tuple[str, ...] = ()
    value: str = ""


Maker = Callable[[Mapping[str, Any]], list[Said]]
"""A sentence maker of the data."""
NamingMaker = Callable[[Mapping[str, Any], Words], list[Said]]
"""A sentence maker that names combinations, in the variant's words (:mod:`bezique.rules.words`)."""

MAKERS: tuple[Maker | NamingMaker, ...] = (
    making.about,
    making.table,
    making.cards,
    making.deal,
    making.trumps,
    making.trick,
    declaring.rules,
    declaring.score_table,
    scoring.carte_blanche,
    scoring.seven,
    scoring.brisques,
    scoring.endgame,
    scoring.game,
)
"""The kernel's sentence makers of the data, in rulebook order (the plugins say theirs)."""

NAMING: tuple[NamingMaker, ...] = (declaring.rules, declaring.score_table)
"""The makers that name combinations: they are given the variant's words too."""


def rule_lines(ruleset: Ruleset) -> list[RuleLine]:
    """Every rule of ``ruleset``'s variant, one sentence each, in rulebook order."""
    data = ruleset.data
    inheritance = Inheritance(ruleset.variant)
    said = plugin_lines(ruleset, inheritance)
    settings = {path for line in said if line.by_plugin is None for path in line.covers}
    lines = [
        _said_line(data, inheritance, s)
        for s in _sentences(data, ruleset.words)
        if not (s.covers and settings.issuperset(s.covers))  # a plugin says it in its words
    ]
    lines += said
    covered = {path for line in lines for path in line.covers}
    lines += [
        RuleLine(
            OTHER,
            path,
            f"The setting {path} is {value(leaf)}.",
            None,
            inheritance.parent_of((path,)),
            None,
            (path,),
            value(leaf),
        )
        for path, leaf in leaves(data)
        if path not in covered
    ]
    # each section: the rules of the data (the kernel's, then the plugins'), then procedures
    return sorted(lines, key=lambda line: (order(line.section), line.by_plugin is not None))


def _sentences(data: Mapping[str, Any], words: Words) -> list[Said]:
    """The sentences of every maker, in order; those that name combinations say them in words."""
    said: list[Said] = []
    for make in MAKERS:
        if make in NAMING:
            said += make(data, words)
        else:
            said += cast(Maker, make)(data)
    return said


def book_title(ruleset: Ruleset) -> str:
    """The variant's title; an overlay that sets none is named with the parent it extends."""
    inheritance = Inheritance(ruleset.variant)
    if inheritance.top is None or inheritance.parent_of(("title",)) is None:
        return ruleset.variant.title
    return f"{ruleset.variant.name} (extends {inheritance.top.data.get('extends')})"


def list_label(ruleset: Ruleset) -> str:
    """The variant's name in a list of variants, told apart from the parent it extends.

    Its title; an overlay that sets none (a house rule, which shares its parent's title)
    is named by the first clause of its own summary, the sources it cites left out
    ("Rubicon bezique with any four tens scoring 90"), after its title when that clause
    does not start with the title's first word; without a summary of its own, by its
    title and its name ("Rubicon bezique (...): our-house").  A house rule pasted into
    a page, whose own file is on no disk, is told from its parent by their values.  The
    label is a player's: no source codes (:func:`~bezique.variant.bibliography.uncited`).
    """
    variant = ruleset.variant
    title = uncited(variant.title)
    own = _own_title_and_summary(ruleset)
    if own is None or own[0]:
        return title
    said = _first_clause(variant.summary) if own[1] else ""
    if not said:
        return f"{title}: {variant.name}"
    if said.split(" ")[0].lower() == title.split(" ")[0].lower():
        return said
    return f"{title}: {said}"


def _own_title_and_summary(ruleset: Ruleset) -> tuple[bool, bool] | None:
    """Whether the variant's own file set its title, and its summary; None for no overlay.

    Read from the chain of files; for a file on no disk (``house.yaml`` of a page), by
    comparing its values with those of the parent it extends.
    """
    variant = ruleset.variant
    inheritance = Inheritance(variant)
    if inheritance.top is not None:
        own_title = inheritance.parent_of(("title",)) is None
        return own_title, inheritance.parent_of(("summary",)) is None
    if len(variant.chain) < 2 or variant.overrides:
        return None
    try:
        parent = ruleset_for(variant.chain[-2]).variant
    except BeziqueError:
        return None
    return variant.title != parent.title, variant.summary != parent.summary


def _first_clause(summary: str) -> str:
    """A summary's first clause (to its first dash or sentence's end), without citations.

    Its codes left out (:func:`~bezique.variant.bibliography.uncited`), and any parenthesis.
    """
    clause = uncited(re.split(r" - |\. ", summary.strip())[0])
    return re.sub(r"\s*\([^()]*\)", "", clause).strip().rstrip(".").strip()


def _said_line(
    data: Mapping[str, Any], inheritance: Inheritance, said: Said | RuleProse
) -> RuleLine:
    """A sentence of the data as a rule line, cited from the file that set what it states."""
    covers = tuple(said.covers)
    parent = inheritance.parent_of(covers)
    cited = said.cited if isinstance(said, RuleProse) else said.source
    if isinstance(cited, str) or not cited:
        source: str | None = said.source if isinstance(said.source, str) else None
    else:
        source = inheritance.citation(covers, tuple(cited), data)
    return RuleLine(said.section, said.key, said.text, source, parent, None, covers, said.value)


def plugin_lines(ruleset: Ruleset, inheritance: Inheritance | None = None) -> list[RuleLine]:
    """What every plugin of the game says of its rules, in plugin order.

    A :attr:`~bezique.hookspecs.RuleProse.setting` is made into a line as the kernel's
    sentences of the data are (cited and inherited from the files of ``inheritance``,
    by default the variant's own); a procedure is marked as its plugin's.
    """
    if inheritance is None:
        inheritance = Inheritance(ruleset.variant)
    lines: list[RuleLine] = []
    keys: set[tuple[str, str]] = set()
    caller = ruleset.manager.hook.bezique_describe_rules
    for impl in caller.get_hookimpls():
        arguments = {"data": copy.deepcopy(ruleset.data)}
        answer: Any = impl.function(**{name: arguments[name] for name in impl.argnames})
        if answer is not None and not isinstance(answer, list | tuple):
            raise PluginError(
                f"plugin {impl.plugin_name!r}: bezique_describe_rules returned "
                f"{type(answer).__name__}, not a list of RuleProse"
            )
        for prose in answer or ():
            line = _prose_line(impl.plugin_name, prose)
            if prose.setting:
                line = _said_line(ruleset.data, inheritance, prose)
            if (line.section, line.key) in keys:
                raise PluginError(
                    f"plugin {impl.plugin_name!r} describes the rule {line.key!r} of the "
                    f"section {line.section!r} a second time"
                )
            keys.add((line.section, line.key))
            lines.append(line)
    return lines


def _prose_line(plugin: str, prose: Any) -> RuleLine:
    """A plugin's :class:`RuleProse` as a rule line, or a PluginError saying what is wrong."""
    if (
        not isinstance(prose, RuleProse)
        or not all(
            isinstance(part, str) and part for part in (prose.section, prose.key, prose.text)
        )
        or not all(_texts(part) for part in (prose.covers, prose.cited))
        or not isinstance(prose.value, str)
        or not isinstance(prose.source, str | None)
    ):
        raise PluginError(
            f"plugin {plugin!r}: bezique_describe_rules must return RuleProse items "
            f"with a section, a key and a text (covers and cited paths, a value and a "
            f"source as text), not {prose!r:.60}"
        )
    return RuleLine(
        prose.section,
        prose.key,
        " ".join(prose.text.split()),
        prose.source,
        None,
        plugin,
        tuple(prose.covers),
        "",
    )


def _texts(parts: object) -> bool:
    """Whether ``parts`` is a tuple or list of texts."""
    return isinstance(parts, tuple | list) and all(isinstance(part, str) for part in parts)


def leaves(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Each value of ``data`` that is no mapping, by dotted path (``source`` texts left out)."""
    for key, item in data.items():
        if key in ("source", "extends"):
            continue
        path = f"{prefix}{key}"
        if isinstance(item, Mapping):
            yield from leaves(item, path + ".")
        else:
            yield path, item

"""A variant's rulebook as rule lines: one sentence a rule, from the merged data and the plugins.

:func:`rule_lines` makes the sentences of every section the kernel and the built-in
plugins know from the merged data (:mod:`~bezique.rulebook.making`,
:mod:`~bezique.rulebook.declaring`, :mod:`~bezique.rulebook.scoring`,
:mod:`~bezique.rulebook.extras`), each with the ``source:`` text of its section and the
parent it is inherited from, then asks every plugin of the game for the prose of its
procedures (:func:`bezique.hookspecs.bezique_describe_rules`).  A value of the data that
no sentence states (an outside plugin's key it does not describe) still gets a plain
line in the section ``other``, so that nothing the variant sets is left unsaid.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from bezique.errors import PluginError
from bezique.hookspecs import RuleProse
from bezique.rulebook import declaring, extras, making, scoring
from bezique.rulebook.origins import Inheritance
from bezique.rulebook.sections import Said, order
from bezique.rulebook.words import value
from bezique.rules.ruleset import Ruleset
from bezique.rules.words import Words

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
    extras.penalties,
    extras.open_cards,
    extras.partnerships,
    extras.rubicon,
    extras.lift,
)
"""The sentence makers of the data, in rulebook order."""

NAMING: tuple[NamingMaker, ...] = (declaring.rules, declaring.score_table)
"""The makers that name combinations: they are given the variant's words too."""


def rule_lines(ruleset: Ruleset) -> list[RuleLine]:
    """Every rule of ``ruleset``'s variant, one sentence each, in rulebook order."""
    data = ruleset.data
    inheritance = Inheritance(ruleset.variant)
    lines = [_said_line(data, inheritance, s) for s in _sentences(data, ruleset.words)]
    lines += plugin_lines(ruleset)
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
    return sorted(lines, key=lambda line: order(line.section))


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


def _said_line(data: Mapping[str, Any], inheritance: Inheritance, said: Said) -> RuleLine:
    """A sentence of the data as a rule line, cited from the file that set what it states."""
    parent = inheritance.parent_of(said.covers)
    if isinstance(said.source, str):
        source: str | None = said.source
    else:
        source = inheritance.citation(said.covers, said.source, data)
    return RuleLine(
        said.section, said.key, said.text, source, parent, None, said.covers, said.value
    )


def plugin_lines(ruleset: Ruleset) -> list[RuleLine]:
    """The prose of every plugin of the game that describes its procedures, in plugin order."""
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
    if not isinstance(prose, RuleProse) or not all(
        isinstance(part, str) and part for part in (prose.section, prose.key, prose.text)
    ):
        raise PluginError(
            f"plugin {plugin!r}: bezique_describe_rules must return RuleProse items "
            f"with a section, a key and a text, not {prose!r:.60}"
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

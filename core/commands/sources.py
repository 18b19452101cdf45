"""``bezique sources [CODE]``: the bibliography, or one entry of it, in words.

Without a code, one line for each source (its code, title, edition and year)
and for each reading (its id and question).  With a code, the whole entry: for
a source its reference, the parts the project uses and what it is worth; for a
reading its question, each answer with the sources behind it and the variant
setting that selects it, which answer the built-in variants take, and the key
that switches between them (or why none does).
"""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import TYPE_CHECKING

from bezique.errors import BeziqueError

if TYPE_CHECKING:  # the bibliography is read only when the command runs
    from bezique.variant.bibliography import Bibliography, Reading, Source

WIDTH = 88
"""The width the entries are wrapped to."""


def run(args: argparse.Namespace) -> int:
    """Print the bibliography, or the entry of ``args.code``; return the exit status."""
    from bezique.variant.bibliography import bibliography

    known = bibliography()
    if args.code is None:
        print("\n".join(listing(known)))
        return 0
    code = _spelt(known, args.code.strip())
    found = known.lookup(code)
    if found is None:
        raise BeziqueError(
            f"{code!r} is neither a source code nor a reading id; `bezique sources` lists them"
        )
    target = known.alias_of(code)
    if target is not None:
        print(f"{code} is an alias of {target}, whose entry follows.")
    print("\n".join(describe(found)))
    return 0


def _spelt(known: Bibliography, code: str) -> str:
    """``code`` as the bibliography spells it, if it is a code in another case (``bic-r``)."""
    for name in (*known.sources, *known.readings, *known.aliases):
        if name.lower() == code.lower():
            return name
    return code


def listing(known: Bibliography) -> list[str]:
    """One line for each source, then one for each reading, in the file's order."""
    width = max(len(code) for code in (*known.sources, *known.aliases, *known.readings))
    lines = ["Sources (bezique sources CODE for the full entry):"]
    for source in known.sources.values():
        year = "" if source.year == "undated" else f", {source.year}"
        lines.append(_cut(f"  {source.code:<{width}}  {source.title}{year}"))
    for alias, code in known.aliases.items():
        lines.append(_cut(f"  {alias:<{width}}  an alias of {code}"))
    lines.append("")
    lines.append("Readings, where the sources disagree or are silent:")
    for reading in sorted(known.readings.values(), key=lambda r: _order(r.id)):
        lines.append(_cut(f"  {reading.id:<{width}}  {reading.question}"))
    return lines


def _order(rid: str) -> tuple[int, str, int, str]:
    """Readings in order: A01..A39, then the conflicts, then the numbered points."""
    family = 0 if rid.startswith("A") else 1 if "-C" in rid else 2
    found = re.fullmatch(r"([A-Z]+)(?:-C)?(\d+)([a-z]?)", rid)
    if found is None:
        return 3, rid, 0, ""
    return family, found[1], int(found[2]), found[3]


def _cut(line: str) -> str:
    """A listing line shortened to :data:`WIDTH` with an ellipsis."""
    return line if len(line) <= WIDTH else line[: WIDTH - 3].rstrip() + "..."


def describe(entry: Source | Reading) -> list[str]:
    """The whole entry of a source or a reading, as lines of text."""
    from bezique.variant.bibliography import Source

    return _source(entry) if isinstance(entry, Source) else _reading(entry)


def _wrap(text: str, indent: str = "  ", first: str | None = None) -> list[str]:
    lead = indent if first is None else first
    return textwrap.wrap(
        text, WIDTH, initial_indent=lead, subsequent_indent=indent, break_on_hyphens=False
    )


def _source(source: Source) -> list[str]:
    from bezique.variant.bibliography import RELATIONS

    year = "" if source.year == "undated" else f", {source.year}"
    lines = [f"{source.code}: {source.title}"]
    lines += _wrap(f"{source.author}. {source.edition}{year}.")
    lines.append("  Used for:")
    for section in source.sections:
        lines += _wrap(section, "      ", "    - ")
    lines += _wrap(source.about)
    for derivation in source.derives_from:
        lines += _wrap(
            f"{RELATIONS[derivation.relation].capitalize()} {derivation.source} "
            f"(bezique genealogy): {derivation.evidence}"
        )
    return lines


def _reading(reading: Reading) -> list[str]:
    lines = [f"{reading.id}: {reading.question}"]
    for number, option in enumerate(reading.options, 1):
        mark = " (default)" if number - 1 == reading.default else ""
        cited = f" [{', '.join(option.sources)}]" if option.sources else " [no source]"
        lines += _wrap(f"{option.text}{cited}{mark}", "     ", f"  {number}. ")
        if option.setting:
            lines += _wrap(option.setting, "       ", "     set ")
        elif reading.switch:
            lines.append("     no setting selects it")
    if reading.switch:
        lines += _wrap(f"Switch: {reading.switch} in a variant file.")
    else:
        lines += _wrap(f"No switch: {reading.no_switch}")
    return lines

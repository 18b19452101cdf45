"""A rulebook printed as text (wrapped to a width) or markdown: sections, rules, their sources.

Each section lists its rules, one sentence each, marked with the number of its citation
(``[1]``), *inherited from PARENT* when the variant's own file does not set it, and the
plugin whose procedure it describes; the section's citations follow it, numbered.
"""

from __future__ import annotations

import functools
import shutil
import textwrap
from collections.abc import Iterator, Sequence

from bezique.rulebook.book import RuleLine
from bezique.rulebook.sections import heading

MAX_WIDTH = 100
"""The widest a text rulebook is wrapped, however wide the terminal."""
MIN_WIDTH = 40
"""The narrowest a text rulebook is wrapped, however narrow the terminal."""
MIN_COMPACT_WIDTH = 12
"""The narrowest a compact one is wrapped (a game at a narrow terminal)."""


_fill = functools.partial(textwrap.fill, break_on_hyphens=False, break_long_words=False)
"""Wrap a paragraph, never inside a word (``re-paired``, ``first-marriage``)."""


def sections(lines: Sequence[RuleLine]) -> Iterator[tuple[str, list[RuleLine]]]:
    """The lines of each section in turn, in the order they come (the ``about`` line first)."""
    grouped: dict[str, list[RuleLine]] = {}
    for line in lines:
        grouped.setdefault(line.section, []).append(line)
    yield from grouped.items()


def notes(lines: Sequence[RuleLine]) -> list[str]:
    """The distinct citations of ``lines``, in the order they are first cited."""
    return list(dict.fromkeys(line.source for line in lines if line.source))


def marks(line: RuleLine, cited: list[str]) -> str:
    """What follows a rule's sentence: its note number, its parent, its plugin."""
    parts = [f"[{cited.index(line.source) + 1}]"] if line.source in cited else []
    if line.inherited_from:
        parts.append(f"(inherited from {line.inherited_from})")
    if line.by_plugin:
        parts.append(f"(the {line.by_plugin} plugin's procedure)")
    return " ".join(parts)


def points(line: RuleLine) -> str:
    """A score-table line's points (the first word of its value)."""
    return line.value.split(" ", 1)[0]


def about(lines: Sequence[RuleLine]) -> RuleLine | None:
    """The line that names and sums up the variant, if the book has one."""
    return next((line for line in lines if line.section == "about"), None)


def render_text(
    lines: Sequence[RuleLine], title: str, width: int | None = None, *, compact: bool = False
) -> str:
    """The rulebook as plain text, wrapped to ``width`` (default: the terminal's).

    ``compact``: every rule still, but without the citations, the inheritance and plugin
    marks and the underlined headings (the ``rules`` entry of ``bezique play``).
    """
    if width is None:
        width = min(shutil.get_terminal_size((80, 24)).columns, MAX_WIDTH)
    width = max(width, MIN_COMPACT_WIDTH if compact else MIN_WIDTH)
    out = [title] if compact else [title, "=" * min(len(title), width)]
    head = about(lines)
    if head is not None:
        out += ["", _fill(head.text, width)]
        if head.source and not compact:
            out.append(_fill(f"Source: {head.source}", width, subsequent_indent="  "))
    for section, members in sections(lines):
        if section == "about":
            continue
        name = heading(section)
        cited = [] if compact else notes(members)
        out += ["", f"{name}:"] if compact else ["", name, "-" * len(name)]
        for line in members:
            text = line.text if compact else f"{line.text} {marks(line, cited)}".rstrip()
            out.append(_fill(text, width, initial_indent="- ", subsequent_indent="  "))
        for number, source in enumerate(cited, 1):
            out.append(
                _fill(
                    source,
                    width,
                    initial_indent=f"  [{number}] ",
                    subsequent_indent=" " * (len(str(number)) + 5),
                )
            )
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    """Text safe in a markdown table cell."""
    return text.replace("|", "\\|")


def render_markdown(lines: Sequence[RuleLine], title: str) -> str:
    """The rulebook as markdown: a heading a section, the score table as a table."""
    out = [f"# {title}"]
    head = about(lines)
    if head is not None:
        out += ["", head.text]
        if head.source:
            out += ["", f"*Source:* {head.source}"]
    for section, members in sections(lines):
        if section == "about":
            continue
        cited = notes(members)
        out += ["", f"## {heading(section)}", ""]
        if section == "score_table":
            out += ["| Combination | Points | Rule | Note |", "| --- | ---: | --- | --- |"]
            out += [
                f"| {_cell(line.key.rsplit('.', 1)[-1].replace('_', ' '))} | {points(line)} "
                f"| {_cell(line.text)} | {_cell(marks(line, cited))} |"
                for line in members
            ]
        else:
            out += [f"- {line.text} {marks(line, cited)}".rstrip() for line in members]
        if cited:
            out.append("")
            out += [f"[{number}] {source}  " for number, source in enumerate(cited, 1)]
    return "\n".join(out).rstrip() + "\n"

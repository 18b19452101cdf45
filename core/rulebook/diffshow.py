"""The rule-by-rule difference printed: text (a line a side, or a matrix), JSON, HTML."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from bezique.rulebook.book import RuleLine
from bezique.rulebook.diff import ABSENT, Book, Difference, books, cell, codes, differences
from bezique.rulebook.page import bibliography_html, linked
from bezique.rulebook.sections import heading
from bezique.rules.english import listed
from bezique.rules.ruleset import Ruleset

ABSENT_SOURCE = "no citation"


def summary(found: Sequence[Book], found_differences: Sequence[Difference]) -> str:
    """One line: how many rules the variants differ in, or that they are the same."""
    names = listed(book.label for book in found)
    rules = sum(not d.citations_only for d in found_differences)
    cites = len(found_differences) - rules
    if not found_differences:
        return f"{names} have the same rules."
    parts = []
    if rules:
        parts.append(f"{rules} rule{'s' if rules != 1 else ''}")
    if cites:
        parts.append(f"the citations of {cites} rule{'s' if cites != 1 else ''} said alike")
    return f"{names} differ in {' and '.join(parts)}."


def _side(label: str, width: int, line: RuleLine | None, full: bool) -> str:
    if line is None:
        return f"    {label:<{width}}  {ABSENT}"
    if full:
        return f"    {label:<{width}}  {line.source or 'no citation'}"
    return f"    {label:<{width}}  {line.text} [{codes(line)}]"


def text(found: Sequence[Book], found_differences: Sequence[Difference]) -> str:
    """The differences as text: grouped by section, a line for each side (a matrix for 3+)."""
    out = [summary(found, found_differences)]
    if len(found) > 2:
        return "\n".join(out + _matrix(found, found_differences)) + "\n"
    width = max(len(book.label) for book in found)
    section = ""
    for difference in found_differences:
        if difference.section != section:
            section = difference.section
            out += ["", heading(section)]
        note = " (citations only)" if difference.citations_only else ""
        out.append(f"  {difference.key}{note}")
        out += [
            _side(book.label, width, side, difference.citations_only)
            for book, side in zip(found, difference.sides, strict=True)
        ]
    return "\n".join(out) + "\n"


def _matrix(found: Sequence[Book], found_differences: Sequence[Difference]) -> list[str]:
    """The rules on which any variant differs, a column for each variant."""
    rows = [("  " + d.key, [cell(d, i) for i in range(len(found))], d) for d in found_differences]
    first = max([len("rule"), *(len(r[0]) for r in rows)])
    widths = [max([len(book.label), *(len(r[1][i]) for r in rows)]) for i, book in enumerate(found)]
    out = [
        "",
        "  ".join(
            [f"{'rule':<{first}}", *(f"{b.label:<{w}}" for b, w in zip(found, widths, strict=True))]
        ).rstrip(),
    ]
    section = ""
    legend: list[str] = []
    for name, cells, difference in rows:
        if difference.section != section:
            section = difference.section
            out.append(heading(section))
        out.append(
            "  ".join(
                [f"{name:<{first}}", *(f"{c:<{w}}" for c, w in zip(cells, widths, strict=True))]
            ).rstrip()
        )
        texts = list(dict.fromkeys(s.text for s in difference.sides if s is not None))
        if any(c.startswith("text ") for c in cells):
            legend += [f"{difference.key} text {n}: {t}" for n, t in enumerate(texts, 1)]
    return out + (["", *legend] if legend else [])


def _line_json(line: RuleLine | None) -> dict[str, Any] | None:
    if line is None:
        return None
    return {
        "text": line.text,
        "value": line.value,
        "source": line.source,
        "inherited_from": line.inherited_from,
        "by_plugin": line.by_plugin,
    }


def as_json(found: Sequence[Book], found_differences: Sequence[Difference]) -> dict[str, Any]:
    """The differences as one JSON document."""
    return {
        "variants": [book.label for book in found],
        "equal": all(d.citations_only for d in found_differences),
        "citations_equal": not any(d.citations_only for d in found_differences),
        "differences": [
            {
                "section": d.section,
                "heading": heading(d.section),
                "key": d.key,
                "citations_only": d.citations_only,
                "sides": {
                    book.label: _line_json(side) for book, side in zip(found, d.sides, strict=True)
                },
            }
            for d in found_differences
        ],
    }


def _diff_table(found: Sequence[Book], found_differences: Sequence[Difference]) -> list[str]:
    """The table's rows: a column a variant, each rule said in its rulebook's words.

    A row names no setting's key: the sentences say the rule; the key (``game.target``)
    is the row's tooltip, for a historian comparing the files.
    """
    head = "".join(f"<th>{escape(book.label)}</th>" for book in found)
    out = [f"<table><tr>{head}</tr>"]
    section = ""
    for d in found_differences:
        if d.section != section:
            section = d.section
            out.append(f'<tr><th colspan="{len(found)}">{escape(heading(section))}</th></tr>')
        cells = "".join(
            f"<td>{escape(side.text)}<br><small>{linked(side.source or ABSENT_SOURCE)}</small></td>"
            if side is not None
            else f"<td>{escape(ABSENT)}</td>"
            for side in d.sides
        )
        out.append(f'<tr title="{escape(d.key)}">{cells}</tr>')
    return [*out, "</table>"]


def diff_html(rulesets: Sequence[Ruleset], sources: bool = False) -> str:
    """An HTML fragment: a table of the rules on which the variants differ, citations linked.

    It ends with the bibliography of the codes it cites (its ids are
    :func:`bezique.variant.bibliography.anchor`'s, so a page holding it needs no other).
    """
    found = books(rulesets)
    found_differences = differences(found, sources)
    out = [
        '<section class="rule-diff">',
        "<h2>Rule differences</h2>",
        f"<p>{escape(summary(found, found_differences))}</p>",
    ]
    if found_differences:
        out += _diff_table(found, found_differences)
    cited = [s.source for d in found_differences for s in d.sides if s is not None and s.source]
    if cited:
        out += bibliography_html(cited)
    return "\n".join([*out, "</section>"]) + "\n"

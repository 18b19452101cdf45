"""``bezique genealogy``: the genealogy of the rule texts as text, SVG or one HTML page.

The text is for a terminal (in colour when standard output is one and ``rich`` is
installed, unless ``NO_COLOR`` is set): the timeline, the derivations the bibliography
asserts with their evidence and what the computed tree says of each, the computed tree
drawn in ASCII with the house rules hanging on their parents, and where the two trees
disagree.  The SVG draws the timeline on the left and the computed tree on the right;
the HTML page holds the SVG and the tables, as ``bezique compare --html`` writes its
page.  Files are written only through :func:`bezique.reading.safeio.write_output`.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from html import escape
from typing import TextIO

from bezique.compare.genealogy import (
    Asserted,
    Dated,
    Genealogy,
    described,
    disagreements,
    genealogy,
    timeline,
    verdict,
)
from bezique.compare.trees import Clade
from bezique.errors import BeziqueError
from bezique.reading.safeio import check_output, write_output
from bezique.rulebook.page import bibliography_html, linked

WIDTH = 100
"""The width the text is wrapped to."""

HEAD, WARN = "head", "warn"
"""The styles of a line of text: a heading, a disagreement."""

Line = tuple[str, str]
"""A line of the text and its style ("" for plain)."""


def run_command(args: argparse.Namespace) -> int:
    """Run ``bezique genealogy``: print or write the genealogy; return the exit status."""
    if args.output is None and args.overwrite:
        raise BeziqueError("--overwrite goes with --output FILE")
    if args.output is not None:
        check_output(args.output, overwrite=args.overwrite, label=f"--output {args.output}")
    found = genealogy(args.variants)
    if args.format == "svg":
        written = svg(found)
    elif args.format == "html":
        written = page(found)
    else:
        lines = text_lines(found)
        if args.output is None:
            _print(lines, sys.stdout)
            return 0
        written = "\n".join(line for line, _ in lines) + "\n"
    if args.output is None:
        sys.stdout.write(written)
    else:
        write_output(
            args.output, written, overwrite=args.overwrite, label=f"--output {args.output}"
        )
    return 0


# --------------------------------------------------------------------------- text


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(
        text, WIDTH, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    )


def _rules(count: float) -> str:
    return f"{count:g} rule{'' if count == 1 else 's'}"


def text_lines(found: Genealogy) -> list[Line]:
    """The whole genealogy as styled lines of text."""
    texts = sum(not t.house for t in found.texts)
    houses = len(found.houses)
    out: list[Line] = [
        (
            f"Genealogy of the rule texts: {texts} text{'' if texts == 1 else 's'}, "
            f"{houses} house rule{'' if houses == 1 else 's'}",
            HEAD,
        ),
        ("distance: the rules on which two variants' merged rules differ (as bezique diff)", ""),
        ("", ""),
        ("Timeline (each preset under the source it follows, by the source's year)", HEAD),
    ]
    out += [(line, "") for dated in timeline(found) for line in _dated(dated)]
    out += [("", ""), ("Derivations the bibliography asserts", HEAD)]
    for asserted in found.derivations:
        out += _derivation(asserted)
    out += [("", ""), ("Computed tree (UPGMA; a group's figure: its parts' mean distance)", HEAD)]
    out += [(line, "") for line in tree_lines(found)]
    out += [("", ""), ("Where the asserted and the computed trees disagree", HEAD)]
    found_disagreements = disagreements(found) or ["nowhere: every derivation is a pair of sisters"]
    for sentence in found_disagreements:
        wrapped = _wrap(sentence, "    ")
        out += [("  - " + wrapped[0][4:], WARN), *((line, WARN) for line in wrapped[1:])]
    return out


def _dated(dated: Dated) -> list[str]:
    year = dated.year if dated.year != "undated" else "undated"
    head = f"  {year:<9} {dated.code:<9} {dated.title}"
    lines = [head if len(head) <= WIDTH else head[: WIDTH - 3] + "..."]
    if dated.after:
        lines.append(f"{'':22}{dated.after}")
    presets = ", ".join(dated.presets) if dated.presets else "(no preset)"
    lines += _wrap(f"presets: {presets}", " " * 22)
    return lines


def _derivation(asserted: Asserted) -> list[Line]:
    style = WARN if asserted.verdict in ("nearest", "apart") else ""
    out: list[Line] = [("", ""), (f"  {described(asserted)}", "")]
    out += [(line, style) for line in _wrap(verdict(asserted), "    ")]
    readings = asserted.derivation.readings
    cited = f" [{', '.join(readings)}]" if readings else ""
    said = f"evidence: {asserted.derivation.evidence}{cited}"
    out += [(line, "") for line in _wrap(said, "    ")]
    for evidence in asserted.evidence:
        said = "alike" if evidence.alike else "differs"
        if evidence.later is not None and evidence.later.inherited_from:
            said += f" ({asserted.later_preset} inherits it from {evidence.later.inherited_from})"
        out.append((f"      {evidence.key}: {said}", "" if evidence.alike else WARN))
        for name, line in (
            (asserted.later_preset, evidence.later),
            (asserted.earlier_preset, evidence.earlier),
        ):
            if not evidence.alike or name == asserted.later_preset:
                shown = line.text if line is not None else "(no such rule)"
                out += [(row, "") for row in _wrap(f"{name}: {shown}", "        ")]
    return out


def tree_lines(found: Genealogy) -> list[str]:
    """The computed tree in ASCII, each text with its source and year, house rules under it."""
    return _clade_lines(found, found.tree, "", "")


def _clade_lines(found: Genealogy, clade: Clade, lead: str, rest: str) -> list[str]:
    if clade.is_leaf:
        name = clade.members[0]
        text = found.text(name)
        lines = [f"{lead}{name}  ({text.code or 'no source'}, {text.year}) {text.title}"]
        for house in (h for h in found.houses if h.parent == name):
            lines.append(f"{rest}    + {house.name}: {_rules(house.distance)} from {name}")
        return [line if len(line) <= WIDTH else line[: WIDTH - 3] + "..." for line in lines]
    lines = [f"{lead}[{_figure(clade.distance)}]"]
    for number, part in enumerate(clade.parts):
        last = number == len(clade.parts) - 1
        lines += _clade_lines(
            found, part, rest + ("`-- " if last else "|-- "), rest + ("    " if last else "|   ")
        )
    return lines


def _print(lines: Sequence[Line], stream: TextIO) -> None:
    """Print ``lines``: in colour on a terminal with rich (unless NO_COLOR), else plain."""
    console = None
    if stream.isatty() and not os.environ.get("NO_COLOR"):
        try:
            from rich.console import Console

            console = Console(file=stream, highlight=False, soft_wrap=True)
        except ImportError:
            console = None
    if console is None:
        stream.write("\n".join(line for line, _ in lines) + "\n")
        return
    from rich.text import Text

    styles = {"": "", HEAD: "bold", WARN: "yellow"}
    for line, style in lines:
        console.print(Text(line, style=styles[style]))


# --------------------------------------------------------------------------- SVG

ROW = 18
"""The height of a row of the figure, in pixels."""
AXIS = 150
"""Where the timeline's axis stands."""
TREE_X = 640
"""Where the computed tree's root may stand."""
TREE_WIDTH = 240
"""The width of the computed tree, root to leaves."""


def _label(text: str, limit: int = 70) -> str:
    return escape(text if len(text) <= limit else text[: limit - 3] + "...")


def svg(found: Genealogy) -> str:
    """The figure: the timeline on the left, the computed tree on the right, as one SVG."""
    left, places = _timeline_svg(found)
    right, rows = _tree_svg(found)
    bottom = max(_timeline_rows(found), rows)
    height = _y(bottom + 5)
    arrows = _arrows_svg(found, places)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="{height}" '
        f'viewBox="0 0 1400 {height}" font-family="sans-serif" font-size="12">',
        "<title>The rule texts of bezique: timeline and computed tree</title>",
        '<text x="20" y="24" font-size="15" font-weight="bold">Timeline of the texts</text>',
        f'<text x="{TREE_X}" y="24" font-size="15" font-weight="bold">'
        "Tree computed from the rules (UPGMA)</text>",
        *left,
        *arrows,
        *right,
        *_legend(bottom),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def _y(row: int) -> int:
    return 50 + row * ROW


def _notes(dated: Dated) -> list[str]:
    """The lines under a source on the timeline: what dates it, and its presets."""
    notes = [dated.after] if dated.after else []
    return notes + textwrap.wrap("presets: " + (", ".join(dated.presets) or "none"), 64)


def _timeline_rows(found: Genealogy) -> int:
    return sum(1 + len(_notes(dated)) for dated in timeline(found))


def _timeline_svg(found: Genealogy) -> tuple[list[str], dict[str, int]]:
    """The timeline's rows (a source, then its presets), and the row of each source."""
    out: list[str] = []
    places: dict[str, int] = {}
    row = 0
    for dated in timeline(found):
        places[dated.code] = row
        out.append(
            f'<circle cx="{AXIS}" cy="{_y(row) - 4}" r="4" fill="#333"><title>'
            f"{escape(dated.code)}</title></circle>"
        )
        out.append(
            f'<text x="62" y="{_y(row)}" font-weight="bold" text-anchor="end">'
            f"{escape(dated.year)}</text>"
            f'<text x="{AXIS + 10}" y="{_y(row)}"><tspan font-weight="bold">'
            f"{escape(dated.code)}</tspan> {_label(dated.title, 58)}</text>"
        )
        row += 1
        for note in _notes(dated):
            out.append(f'<text x="{AXIS + 26}" y="{_y(row)}" fill="#555">{_label(note, 75)}</text>')
            row += 1
    out.insert(
        0, f'<line x1="{AXIS}" y1="{_y(0) - 4}" x2="{AXIS}" y2="{_y(row - 1)}" stroke="#bbb"/>'
    )
    return out, places


COLOURS = {"sisters": "#2b6cb0", "nearest": "#b35900", "apart": "#b35900", "no preset": "#999"}
"""The colour of a derivation's arc, by what the computed tree says of it."""


def _legend(row: int) -> list[str]:
    """What the colours and lines of the figure mean."""
    keys = [
        ("#2b6cb0", "", "a derivation the bibliography asserts, which the computed tree bears out"),
        ("#b35900", "", "a derivation the computed tree does not bear out (see the text)"),
        ("#999", "", "a derivation of a text with no preset (not in the computed tree)"),
        ("#999", ' stroke-dasharray="3 2"', "a house rule, on the variant it extends"),
    ]
    out = []
    for number, (colour, dash, words) in enumerate(keys):
        y = _y(row + number)
        out.append(
            f'<line x1="20" y1="{y - 4}" x2="50" y2="{y - 4}" stroke="{colour}" '
            f'stroke-width="1.5"{dash}/><text x="58" y="{y}" fill="#555">{escape(words)}</text>'
        )
    return out


def _arrows_svg(found: Genealogy, places: dict[str, int]) -> list[str]:
    """Each asserted derivation as an arc left of the timeline, earlier text to later."""
    out: list[str] = []
    for number, asserted in enumerate(found.derivations):
        start = places.get(asserted.derivation.source)
        end = places.get(asserted.later)
        if start is None or end is None:
            continue
        bend = AXIS - 24 - 12 * (number % 5)
        colour = COLOURS[asserted.verdict]
        y1, y2 = _y(start) - 4, _y(end) - 4
        out.append(
            f'<path d="M {AXIS - 4} {y1} C {bend} {y1}, {bend} {y2}, {AXIS - 4} {y2}" '
            f'fill="none" '
            f'stroke="{colour}" stroke-width="1.5"><title>{escape(described(asserted))}'
            "</title></path>"
        )
    return out


def _tree_svg(found: Genealogy) -> tuple[list[str], int]:
    """The computed tree: leaves in rows, house rules on rows under their parents."""
    rows: dict[str, int] = {}
    out: list[str] = []
    row = 0
    scale = TREE_WIDTH / max(found.tree.distance, 1.0)
    leaf_x = TREE_X + TREE_WIDTH
    for name in found.tree.members:
        rows[name] = row
        text = found.text(name)
        out.append(
            f'<text x="{leaf_x + 6}" y="{_y(row) + 4}"><tspan font-weight="bold">'
            f"{escape(name)}</tspan> {escape(text.code or 'no source')}, {escape(text.year)}: "
            f"{_label(text.title, 44)}</text>"
        )
        row += 1
        for house in (h for h in found.houses if h.parent == name):
            y = _y(row)
            out.append(
                f'<path d="M {leaf_x + 10} {_y(rows[name]) + 8} V {y} H {leaf_x + 22}" '
                f'fill="none" stroke="#999" stroke-dasharray="3 2"/>'
                f'<text x="{leaf_x + 26}" y="{y + 4}" fill="#555">{escape(house.name)} '
                f"({_rules(house.distance)})</text>"
            )
            row += 1
    out += _branches(found.tree, rows, scale, leaf_x)[1]
    return out, row


def _branches(
    clade: Clade, rows: dict[str, int], scale: float, leaf_x: float
) -> tuple[tuple[float, float], list[str]]:
    """The lines of ``clade``'s subtree, and the point where its own branch starts."""
    if clade.is_leaf:
        return (leaf_x, _y(rows[clade.members[0]])), []
    x = leaf_x - clade.distance * scale
    points: list[tuple[float, float]] = []
    out: list[str] = []
    for part in clade.parts:
        point, lines = _branches(part, rows, scale, leaf_x)
        points.append(point)
        out += lines
        out.append(
            f'<line x1="{x:.1f}" y1="{point[1]}" x2="{point[0]:.1f}" y2="{point[1]}" '
            'stroke="#333"/>'
        )
    top, bottom = min(p[1] for p in points), max(p[1] for p in points)
    out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" stroke="#333"/>')
    middle = (top + bottom) / 2
    out.append(
        f'<text x="{x - 3:.1f}" y="{middle - 3:.1f}" font-size="9" fill="#777" '
        f'text-anchor="end">{_figure(clade.distance)}</text>'
    )
    return (x, middle), out


def _figure(distance: float) -> str:
    """A mean distance in short: ``6.5``, ``9.2``, ``1``."""
    return f"{distance:.1f}".removesuffix(".0")


# --------------------------------------------------------------------------- HTML

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 80em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; text-align: left;
         vertical-align: top; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.differs { background: #fff3c4; }
li.disagrees { color: #8a4500; }
p.note { color: #555; }
svg { max-width: 100%; height: auto; }
"""


def page(found: Genealogy) -> str:
    """The whole page: the figure, the timeline, the derivations, disagreements, house rules."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>bezique genealogy: the rule texts</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>The genealogy of the rule texts</h1>",
        '<p class="note">Each preset follows one source and is dated by it; the derivations '
        "are the bibliography's. The tree is computed from the rules alone: the distance "
        "between two variants is the number of rules on which their merged rules differ "
        "(as <code>bezique diff</code> counts them), joined by UPGMA. House rules hang on "
        "the variant they extend.</p>",
        svg(found),
        *_timeline_html(found),
        *_derivations_html(found),
        "<h2>Where the asserted and the computed trees disagree</h2>",
        "<ul>",
        *(f'<li class="disagrees">{escape(s)}</li>' for s in disagreements(found)),
        "</ul>",
        *_houses_html(found),
        *_matrix_html(found),
        *bibliography_html(_cited(found)),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _cited(found: Genealogy) -> list[str]:
    """The codes the page cites, for its bibliography."""
    out = [d.code for d in timeline(found)]
    for asserted in found.derivations:
        out += [asserted.later, asserted.derivation.source, *asserted.derivation.readings]
    return [" ".join(out)]


def _timeline_html(found: Genealogy) -> list[str]:
    rows = [
        f"<tr><td>{escape(d.year)}</td><td>{linked(d.code)}</td><td>{escape(d.title)}"
        f"{'<br><small>' + escape(d.after) + '</small>' if d.after else ''}</td>"
        f"<td>{escape(', '.join(d.presets) or 'none')}</td></tr>"
        for d in timeline(found)
    ]
    return [
        "<h2>Timeline</h2>",
        "<table><tr><th>Year</th><th>Source</th><th>Title</th><th>Presets</th></tr>",
        *rows,
        "</table>",
    ]


def _derivations_html(found: Genealogy) -> list[str]:
    out = ["<h2>Derivations the bibliography asserts</h2>"]
    for asserted in found.derivations:
        readings = ", ".join(asserted.derivation.readings)
        out += [
            f"<h3>{linked(described(asserted))}</h3>",
            f"<p>{escape(verdict(asserted))}.</p>",
            f"<p>Evidence: {linked(asserted.derivation.evidence)}"
            + (f" (readings {linked(readings)})" if readings else "")
            + "</p>",
        ]
        if asserted.evidence:
            out.append(
                f"<table><tr><th>Rule</th><th>{escape(asserted.later_preset or '')}</th>"
                f"<th>{escape(asserted.earlier_preset or '')}</th><th></th></tr>"
            )
            for evidence in asserted.evidence:
                cells = "".join(
                    f"<td>{escape(line.text) if line else '(no such rule)'}</td>"
                    for line in (evidence.later, evidence.earlier)
                )
                mark = "alike" if evidence.alike else "differs"
                if evidence.later is not None and evidence.later.inherited_from:
                    mark += f" ({escape(asserted.later_preset or '')} inherits it from "
                    mark += f"{escape(evidence.later.inherited_from)})"
                kind = "" if evidence.alike else ' class="differs"'
                out.append(
                    f"<tr{kind}><td><code>{escape(evidence.key)}</code></td>{cells}"
                    f"<td>{mark}</td></tr>"
                )
            out.append("</table>")
    return out


def _houses_html(found: Genealogy) -> list[str]:
    rows = [
        f"<tr><td>{escape(h.name)}</td><td>{escape(h.parent)}</td>"
        f'<td class="number">{h.distance}</td>'
        f"<td>{escape(', '.join(f'{n} ({d})' for n, d in h.nearest))}</td></tr>"
        for h in found.houses
    ]
    return [
        "<h2>House rules</h2>",
        "<table><tr><th>House rule</th><th>Extends</th><th>Rules apart</th>"
        "<th>Nearest texts (rules apart)</th></tr>",
        *rows,
        "</table>",
    ]


def _matrix_html(found: Genealogy) -> list[str]:
    names = list(found.tree.members)
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    rows = [
        f"<tr><th>{escape(a)}</th>"
        + "".join(f'<td class="number">{found.distance(a, b)}</td>' for b in names)
        + "</tr>"
        for a in names
    ]
    return [
        "<h2>Rules apart, between the texts</h2>",
        f"<table><tr><th></th>{head}</tr>",
        *rows,
        "</table>",
    ]

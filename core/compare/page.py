"""The page of ``bezique compare --html``: one standalone HTML file.

The title and how the figures are measured, the tables (the same rows as the text
output, :func:`bezique.compare.text.tables`), the plot as inline SVG (when
matplotlib is installed; else a line saying so), and the rule-by-rule diff of the
variants (:func:`bezique.rulebook.diff_html`, as ``bezique diff`` gives it).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from bezique.compare.text import Table, tables, title
from bezique.errors import BeziqueError
from bezique.reading.safeio import write_output
from bezique.rulebook import diff_html

if TYPE_CHECKING:
    from bezique.compare.comparison import Comparison

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; }
td { text-align: right; font-variant-numeric: tabular-nums; }
td:first-child, th:first-child { text-align: left; }
tr.marked td { background: #fff3c4; font-weight: 600; }
tr.heading td { font-style: italic; text-align: left; }
.rule-diff td { text-align: left; vertical-align: top; font-variant-numeric: normal; }
.rule-diff th { text-align: left; }
p.measured { color: #555; margin: 0.1em 0; }
svg { max-width: 100%; height: auto; }
"""


def _table_html(table: Table) -> str:
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in table.header)
    rows = []
    for cells, marked in zip(table.rows, table.marked, strict=True):
        heading = not cells[0].startswith("  ") and all(not c for c in cells[1:])
        kind = ' class="marked"' if marked else ' class="heading"' if heading else ""
        body = "".join(f"<td>{html.escape(cell.strip())}</td>" for cell in cells)
        rows.append(f"<tr{kind}>{body}</tr>")
    return (
        f"<h3>{html.escape(table.title)}</h3>\n<table><thead><tr>{head}</tr></thead>"
        f"<tbody>\n{chr(10).join(rows)}\n</tbody></table>"
    )


def _plot_html(done: Comparison) -> str:
    from bezique.compare.plot import svg_text

    try:
        return svg_text(done)
    except BeziqueError as exc:
        return f"<p>No plots: {html.escape(str(exc))}.</p>"


def page(done: Comparison) -> str:
    """The whole page as text."""
    lines = title(done.result)
    names = ", ".join(html.escape(label) for label in done.labels)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>bezique compare {names}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Comparing {names} by simulation</h1>",
        f"<p>{html.escape(lines[0])}</p>",
        *(f'<p class="measured">{html.escape(line)}</p>' for line in lines[1:]),
        "<h2>Plots</h2>",
        _plot_html(done),
        "<h2>Figures</h2>",
        *(_table_html(table) for table in tables(done.result)),
        diff_html(list(done.rules)),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def write_page(done: Comparison, path: str | Path, *, overwrite: bool = False) -> None:
    """Write the page to ``path`` (a file there is replaced only with ``overwrite``)."""
    write_output(path, page(done), overwrite=overwrite, label=f"--html {path}")

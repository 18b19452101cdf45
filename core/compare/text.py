"""The tables of ``bezique compare``: aligned text, in colour on a terminal (rich).

:func:`table_lines` gives each table as lines with a style ("" plain, ``head`` a
header, ``marked`` a difference whose interval leaves out zero); :func:`print_tables`
prints them, styled only when the stream is a terminal and rich is installed.  The
HTML page builds its tables from :func:`tables` too, so both say the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, TextIO

HEAD = "head"
MARKED = "marked"
PARTS = (
    ("figures", ""),
    ("points_per_hand_by_class", "points per hand by class"),
    ("points_per_hand_by_rule", "points per hand by rule"),
)
"""The parts of a variant's or a pair's figures, and the heading of each after the first."""


class Table(NamedTuple):
    """A table: its title, its header, its rows, which rows are marked, its flush-left columns."""

    title: str
    header: list[str]
    rows: list[list[str]]
    marked: list[bool]
    left: int


def digits(key: str) -> int:
    """Decimals shown for a figure: 3 for a share, 1 for points a game, 2 for the rest."""
    if key in ("first_player_wins", "declaration_share", "both_over_target"):
        return 3
    return 1 if key == "points_per_game" else 2


def interval(low: float | None, high: float | None, places: int, sign: str = "") -> str:
    """``low..high``, or ``-`` without an interval."""
    if low is None or high is None:
        return "-"
    return f"{low:{sign}.{places}f}..{high:{sign}.{places}f}"


def _names(result: dict[str, Any], part: str, key: str) -> str:
    if part == "figures":
        return str(result["labels"][key])
    return f"  {result['labels'].get(key, key)}"  # a rule in words (a class is in words)


def title(result: dict[str, Any]) -> list[str]:
    """The lines above the tables: what was played and how it is measured."""
    first = (
        f"compare {', '.join(result['variants'])}: {result['games']} games each on the same "
        f"seeds (seed {result['seed']}), players {', '.join(result['players'])}"
    )
    if result["interrupted"]:
        first += f" (interrupted: {result['games']} of the {result['games_requested']} asked for)"
    return [first, *result["measured"]]


def tables(result: dict[str, Any]) -> list[Table]:
    """The variants' table, then one table for each pair."""
    found = [_variant_table(result)]
    found.extend(_pair_table(result, pair) for pair in result["pairs"])
    return found


def _keys(result: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(part, key, heading-before) for every row, in order."""
    first = result["per_variant"][0]
    keys = []
    for part, heading in PARTS:
        for n, key in enumerate(first[part]):
            keys.append((part, key, heading if n == 0 else ""))
    return keys


def _variant_table(result: dict[str, Any]) -> Table:
    rows: list[list[str]] = []
    for part, key, heading in _keys(result):
        if heading:
            rows.append([heading, *[""] * len(result["variants"])])
        places = digits(key) if part == "figures" else 2
        cells = [_names(result, part, key)]
        for variant in result["per_variant"]:
            e = variant[part][key]
            cells.append(
                "n/a"
                if e["value"] is None
                else f"{e['value']:.{places}f} ({interval(e['low'], e['high'], places)})"
            )
        rows.append(cells)
    header = ["figure (95% interval)", *result["variants"]]
    return Table("each variant", header, rows, [False] * len(rows), 1)


def _pair_table(result: dict[str, Any], pair: dict[str, Any]) -> Table:
    index = {label: n for n, label in enumerate(result["variants"])}
    a, b = (result["per_variant"][index[pair[side]]] for side in ("a", "b"))
    rows: list[list[str]] = []
    marked: list[bool] = []
    for part, key, heading in _keys(result):
        if heading:
            rows.append([heading, "", "", "", "", ""])
            marked.append(False)
        places = digits(key) if part == "figures" else 2
        d = pair[part][key]
        rows.append(
            [
                _names(result, part, key),
                _value(a[part][key]["value"], places),
                _value(b[part][key]["value"], places),
                _value(d["difference"], places, "+"),
                interval(d["low"], d["high"], places, "+"),
                "*" if d["excludes_zero"] else "",
            ]
        )
        marked.append(bool(d["excludes_zero"]))
    header = ["figure", pair["a"], pair["b"], "B - A", "95% interval", ""]
    return Table(f"{pair['b']} - {pair['a']}", header, rows, marked, 1)


def _value(value: float | None, places: int, sign: str = "") -> str:
    return "n/a" if value is None else f"{value:{sign}.{places}f}"


def table_lines(table: Table) -> list[tuple[str, str]]:
    """The table as (line, style): the title and header in ``head``, marked rows ``marked``."""
    every = [table.header, *table.rows]
    widths = [max(len(r[i]) for r in every) for i in range(len(table.header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(w) if i < table.left else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [(table.title, HEAD), (line(table.header), HEAD)]
    out.extend(
        (line(r), MARKED if m else "") for r, m in zip(table.rows, table.marked, strict=True)
    )
    return out


def text(result: dict[str, Any]) -> str:
    """The whole report as plain text."""
    lines = title(result)
    for table in tables(result):
        lines.append("")
        lines.extend(line for line, _ in table_lines(table))
    return "\n".join(lines)


def print_tables(result: dict[str, Any], stream: TextIO) -> None:
    """Print the report on ``stream``: in colour on a terminal with rich, else plain."""
    isatty = getattr(stream, "isatty", None)
    console: Any = None
    if callable(isatty) and isatty():
        try:
            from rich.console import Console

            console = Console(file=stream, highlight=False, soft_wrap=True)
        except ImportError:
            console = None
    if console is None:
        print(text(result), file=stream)
        return
    from rich.text import Text

    styles = {"": "", HEAD: "bold", MARKED: "bold yellow"}
    for line in title(result):
        console.print(Text(line, style="dim" if line in result["measured"] else "bold"))
    for table in tables(result):
        console.print()
        for line, style in table_lines(table):
            console.print(Text(line, style=styles[style]))

"""The plot of ``bezique compare --plot``: three panels drawn with matplotlib.

The distribution of the points scored in a hand (all seats together) in each
variant; the points per hand by class of rule, as stacked bars; and the first
player's share of wins with its 95% interval.  matplotlib is the optional
``bezique[plot]`` extra, imported only here and only when a plot is asked for.
"""

from __future__ import annotations

import importlib
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bezique.errors import BeziqueError
from bezique.reading.safeio import write_output

if TYPE_CHECKING:
    from bezique.compare.comparison import Comparison

MISSING = "the plots need matplotlib: pip install 'bezique[plot]'"


def need_matplotlib() -> Any:
    """Import matplotlib's Figure class, or raise a one-line error saying how to install it."""
    try:
        module = importlib.import_module("matplotlib.figure")
    except ImportError:
        raise BeziqueError(MISSING) from None
    return module.Figure


def figure_of(done: Comparison) -> Any:
    """Draw the three panels of ``done`` into a new matplotlib Figure."""
    figure_class = need_matplotlib()
    figure = figure_class(figsize=(13, 4.2), layout="constrained")
    left, middle, right = figure.subplots(1, 3)
    _distribution(left, done)
    _by_class(middle, done)
    _wins(right, done)
    figure.suptitle(
        f"{done.result['games']} games of each variant, the same seeds "
        f"(seed {done.result['seed']}), players {', '.join(done.result['players'])}"
    )
    return figure


def _distribution(axes: Any, done: Comparison) -> None:
    hands = [[p for game in games for p in game.hand_points] for games in done.games]
    axes.boxplot(hands, showmeans=True)
    axes.set_xticks(range(1, len(done.labels) + 1), done.labels, rotation=20)
    axes.set_title("points in a hand, all seats")
    axes.set_ylabel("points")


def _by_class(axes: Any, done: Comparison) -> None:
    """Stacked bars of the points a hand each class of rule gives, in each variant.

    A class that takes points away (a settlement's deductions) is stacked below zero,
    not cut off; the axis reaches past both ends of every bar, with room for the legend.
    """
    per_variant = done.result["per_variant"]
    above = [0.0] * len(per_variant)
    below = [0.0] * len(per_variant)
    for name in per_variant[0]["points_per_hand_by_class"]:
        values = [v["points_per_hand_by_class"][name]["value"] for v in per_variant]
        bottoms = [a if v >= 0 else b for v, a, b in zip(values, above, below, strict=True)]
        bars = axes.bar(done.labels, values, bottom=bottoms, label=name)
        for bar in bars:  # a bar's base is no limit of the axis: it may not end at a bar
            bar.sticky_edges.y.clear()
        above = [a + max(v, 0.0) for a, v in zip(above, values, strict=True)]
        below = [b + min(v, 0.0) for b, v in zip(below, values, strict=True)]
    top, bottom = max(above), min(below)
    span = (top - bottom) or 1.0
    axes.set_ylim(bottom - LEGEND_ROOM / 8 * span if bottom < 0 else 0, top + LEGEND_ROOM * span)
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_title("points per hand by class of rule")
    axes.set_ylabel("points a hand")
    axes.tick_params(axis="x", labelrotation=20)
    axes.legend(fontsize="small", loc="upper center", ncols=3)


LEGEND_ROOM = 0.25
"""The room above the highest bar, as a share of the bars' span, where the legend goes."""


def _wins(axes: Any, done: Comparison) -> None:
    shares = [v["figures"]["first_player_wins"] for v in done.result["per_variant"]]
    values = [s["value"] for s in shares]
    below = [s["value"] - (s["low"] if s["low"] is not None else s["value"]) for s in shares]
    above = [(s["high"] if s["high"] is not None else s["value"]) - s["value"] for s in shares]
    places = list(range(len(values)))
    axes.errorbar(places, values, yerr=[below, above], fmt="o", capsize=6)
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    axes.set_xticks(places, done.labels, rotation=20)
    axes.set_xlim(-0.5, len(values) - 0.5)
    axes.set_ylim(0, 1)
    axes.set_title("first player's share of wins (95% Wilson)")


def write_plot(done: Comparison, path: str | Path, *, overwrite: bool = False) -> None:
    """Write the plot to ``path``: PNG or SVG by its suffix (replacing a file: ``overwrite``).

    The figure is drawn into memory, then written as every output file is
    (:func:`bezique.reading.safeio.write_output`).
    """
    target = Path(path)
    kind = target.suffix.lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise BeziqueError(f"--plot {target}: the file must end in .png or .svg")
    drawn = io.BytesIO()
    figure_of(done).savefig(drawn, format=kind, dpi=110, metadata=_metadata(kind))
    write_output(target, drawn.getvalue(), overwrite=overwrite, label=f"--plot {path}")


def svg_text(done: Comparison) -> str:
    """The plot as an SVG document (for the HTML page)."""
    out = io.StringIO()
    figure_of(done).savefig(out, format="svg", metadata=_metadata("svg"))
    text = out.getvalue()
    return text[text.index("<svg") :]


def _metadata(kind: str) -> dict[str, Any]:
    """No date in the file, so the same comparison draws the same bytes."""
    return {"Date": None} if kind == "svg" else {}

"""The commands ``bezique rules`` (a variant's rulebook) and ``bezique diff`` (rule by rule)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bezique.errors import BeziqueError
from bezique.game import ruleset_for
from bezique.rulebook.book import rule_lines
from bezique.rulebook.diff import books, differences
from bezique.rulebook.diffshow import as_json, text
from bezique.rulebook.page import render_html
from bezique.rulebook.render import render_markdown, render_text

FORMATS = ("text", "markdown", "html")
"""The formats ``bezique rules --format`` writes."""

BAD_INPUT = 2
"""``bezique diff``'s exit status when a variant cannot be read (as ``diff``'s for trouble)."""


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``rules`` and ``diff`` subcommands to the ``bezique`` parser."""
    rules = commands.add_parser(
        "rules",
        help="print a variant's complete rulebook, each rule with its source",
        description="Print the rulebook of a variant from its merged data: a sentence a "
        "rule, with its citation, the parent it is inherited from, and the prose of "
        "the procedures its plugins carry out.",
    )
    rules.add_argument("variant", metavar="VARIANT", help="variant name or YAML path")
    rules.add_argument(
        "--format", choices=FORMATS, default="text", help="text (default), markdown or html"
    )
    rules.add_argument(
        "--output", metavar="FILE", help="write the rulebook to FILE instead of stdout"
    )
    diff = commands.add_parser(
        "diff",
        help="compare variants rule by rule; exit 0 when equal, 1 when they differ",
        description="Compare the merged rules of two or more variants rule by rule (never "
        "their files' text), grouped by rulebook section. Two variants: a line in words "
        "for each side, with its citation. Three or more: a matrix of the rules on which "
        "any of them differs. Exit status 0 when the rules are equal, 1 when they differ, "
        "2 when a variant cannot be read.",
    )
    diff.add_argument(
        "variants", metavar="VARIANT", nargs="+", help="variant names or YAML paths (two or more)"
    )
    diff.add_argument("--json", action="store_true", help="print the differences as JSON")
    diff.add_argument(
        "--sources",
        action="store_true",
        help="show rules said alike but cited from other sources too",
    )


def run_rules(args: argparse.Namespace) -> int:
    """``bezique rules``: render the rulebook of ``args.variant`` in ``args.format``."""
    ruleset = ruleset_for(args.variant)
    lines = rule_lines(ruleset)
    title = ruleset.variant.title
    if args.format == "html":
        page = render_html(lines, title)
    elif args.format == "markdown":
        page = render_markdown(lines, title)
    else:
        page = render_text(lines, title, width=None if args.output is None else 100)
    if args.output is None:
        sys.stdout.write(page)
    else:
        Path(args.output).write_text(page, encoding="utf-8")
    return 0


def run_diff(args: argparse.Namespace) -> int:
    """``bezique diff``: 0 when the rules are equal, 1 when they differ, 2 on bad input."""
    if len(args.variants) < 2:
        print("bezique: diff needs two variants or more", file=sys.stderr)
        return BAD_INPUT
    try:
        found = books([ruleset_for(name) for name in args.variants])
    except BeziqueError as exc:
        for line in str(exc).splitlines() or ["error"]:
            print(f"bezique: {line}", file=sys.stderr)
        return BAD_INPUT
    found_differences = differences(found, args.sources)
    if args.json:
        print(json.dumps(as_json(found, found_differences), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(text(found, found_differences))
    return 1 if found_differences else 0

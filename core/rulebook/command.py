"""The commands ``bezique rules`` (a variant's rulebook) and ``bezique diff`` (rule by rule).

Their arguments are :mod:`bezique.commands.arguments`'; :mod:`bezique.commands.cli`
imports this module only to run one of them (listing the variants loads no schema
validator).
"""

from __future__ import annotations

import argparse
import json
import sys

from bezique.errors import BeziqueError
from bezique.game import ruleset_for
from bezique.reading.safeio import check_output, write_output
from bezique.rulebook.book import book_title, rule_lines
from bezique.rulebook.diff import books, differences
from bezique.rulebook.diffshow import as_json, text
from bezique.rulebook.page import render_html
from bezique.rulebook.render import render_markdown, render_text

BAD_INPUT = 2
"""``bezique diff``'s exit status when a variant cannot be read (as ``diff``'s for trouble)."""


def run_rules(args: argparse.Namespace) -> int:
    """``bezique rules``: render the rulebook of ``args.variant`` in ``args.format``."""
    if args.output is None:
        if args.overwrite:
            raise BeziqueError("--overwrite goes with --output FILE")
    else:
        check_output(args.output, overwrite=args.overwrite)
    ruleset = ruleset_for(args.variant)
    lines = rule_lines(ruleset)
    title = book_title(ruleset)
    if args.format == "html":
        page = render_html(lines, title)
    elif args.format == "markdown":
        page = render_markdown(lines, title)
    else:
        page = render_text(lines, title, width=None if args.output is None else 100)
    if args.output is None:
        sys.stdout.write(page)
    else:
        write_output(args.output, page, overwrite=args.overwrite)
    return 0


def run_diff(args: argparse.Namespace) -> int:
    """``bezique diff``: 0 if the rules are equal (citations aside), 1 if not, 2 on bad input."""
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
    return 1 if any(not d.citations_only for d in found_differences) else 0

"""The reference pages of the documentation site, written from the code and the data.

The site (``docs/``, built by Sphinx) does not copy what the code already says: at
build time it asks this module for the command reference (walked from the parser
:func:`bezique.commands.arguments.build_parser` builds, so a page and ``--help`` agree),
the hook reference (each hook of :mod:`bezique.hookspecs`, with its kind, arguments and
docstring), the file formats (each property of a JSON Schema with its description),
the bibliography, every shipped variant's rulebook and the differences between the
presets of the source texts.  Each function returns MyST Markdown.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from importlib.resources import files
from typing import Any

from bezique import hookspecs
from bezique.commands.arguments import build_parser
from bezique.commands.sources import describe, listing
from bezique.game import ruleset_for
from bezique.rulebook.book import book_title, rule_lines
from bezique.rulebook.diff import books, differences
from bezique.rulebook.diffshow import text as diff_text
from bezique.rulebook.origins import Inheritance
from bezique.rulebook.render import render_markdown
from bezique.variant.bibliography import anchor, bibliography, citations_in

__all__ = [
    "SCHEMA_DEPTH",
    "bibliography_page",
    "command_reference",
    "differences_page",
    "hook_reference",
    "hooks_in_order",
    "linked_citations",
    "rulebook_page",
    "rulebooks_index",
    "schema_reference",
    "shipped_variants",
]

SCHEMA_DEPTH = 6
"""How deep :func:`schema_reference` follows nested objects (the shipped schemas need 4)."""


def _fence(text: str, language: str = "text") -> list[str]:
    """A fenced block holding ``text``, its fence longer than any run of backticks in it."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * max(3, longest + 3)
    return [f"{fence}{language}", text.rstrip("\n"), fence]


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Each subcommand's name and parser, in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each subcommand's one-line help, by name."""
    found: dict[str, str] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                found[choice.dest] = choice.help or ""
    return found


def _option_line(action: argparse.Action) -> str | None:
    """One argument or option of a command as a Markdown list item (``None``: left out)."""
    if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
        return None
    if action.option_strings:
        metavar = action.metavar or (action.dest.upper() if action.nargs != 0 else None)
        if isinstance(metavar, tuple):
            metavar = " ".join(metavar)
        names = ", ".join(
            f"{option} {metavar}" if metavar else option for option in action.option_strings
        )
    else:
        names = str(action.metavar or action.dest)
    text = (action.help or "").replace("%(default)s", str(action.default))
    text = text.replace("%(prog)s", "bezique").replace("%%", "%")
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        text += f" (one of: {', '.join(f'`{choice}`' for choice in action.choices)})"
    return f"- `{names}`: {text}".rstrip(": ")


def _command_section(
    name: str, parser: argparse.ArgumentParser, help_text: str, level: int
) -> list[str]:
    """One command's heading, usage, description, epilog and options."""
    out = [f"{'#' * level} `{name}`", ""]
    if help_text:
        out += [help_text[0].upper() + help_text[1:] + ("" if help_text.endswith(".") else "."), ""]
    out += [*_fence(parser.format_usage().removeprefix("usage: ").strip()), ""]
    if parser.description:
        out += [*_fence(parser.description), ""]
    lines = [line for line in map(_option_line, parser._actions) if line]
    if lines:
        out += [*lines, ""]
    if parser.epilog:
        out += [*_fence(parser.epilog), ""]
    helps = _helps(parser)
    for sub, subparser in _subcommands(parser):
        out += _command_section(f"{name} {sub}", subparser, helps.get(sub, ""), level + 1)
    return out


def command_reference(parser: argparse.ArgumentParser | None = None) -> str:
    """Every command of ``bezique``: its usage, description and options, from the parser."""
    parser = parser or build_parser()
    # the usage lines are wrapped to the width argparse finds; the page must not depend on it
    out = ["## Every command", ""]
    helps = _helps(parser)
    for name, subparser in _subcommands(parser):
        subparser.formatter_class = _wide_formatter
        for _, inner in _subcommands(subparser):
            inner.formatter_class = _wide_formatter
        out += _command_section(f"bezique {name}", subparser, helps.get(name, ""), 3)
    return "\n".join(out).rstrip() + "\n"


def _wide_formatter(prog: str) -> argparse.HelpFormatter:
    """A help formatter of a fixed width (88 columns), whatever the terminal's."""
    return argparse.RawDescriptionHelpFormatter(prog, width=88)


def hooks_in_order() -> list[str]:
    """The names of the hooks, in the order :mod:`bezique.hookspecs` defines them."""
    return [name for name in vars(hookspecs) if name.startswith("bezique_")]


def _kind(name: str) -> str:
    """The kind a hook's docstring names first (``Decide (table hook): ...`` is decide)."""
    return str(getattr(hookspecs, name).__doc__).split(":", 1)[0].split()[0].lower()


def _link(name: str) -> str:
    """A cross-reference to a hook's entry below."""
    return f"{{py:func}}`{name} <bezique.hookspecs.{name}>`"


def _arguments(name: str) -> str:
    """A hook's arguments as its specification names them, or a dash for none."""
    names = inspect.signature(getattr(hookspecs, name)).parameters
    return ", ".join(f"`{argument}`" for argument in names) or "-"


def hook_reference() -> str:
    """Every hook with its kind, its arguments and its docstring, from the hook specs."""
    names = hooks_in_order()
    out = [
        "## Every hook",
        "",
        "| hook | kind | arguments |",
        "| --- | --- | --- |",
        *(f"| {_link(name)} | {_kind(name)} | {_arguments(name)} |" for name in names),
        "",
    ]
    for name in names:
        function = getattr(hookspecs, name)
        arguments = ", ".join(inspect.signature(function).parameters)
        body = inspect.cleandoc(function.__doc__ or "")
        directive = [
            ".. py:currentmodule:: bezique.hookspecs",
            "",
            f".. py:function:: {name}({arguments})",
            "",
            *(f"   {line}".rstrip() for line in body.splitlines()),
        ]
        out += [
            f"### {name}",
            "",
            f"*{_kind(name)}*",
            "",
            *_fence("\n".join(directive), "{eval-rst}"),
            "",
        ]
    return "\n".join(out).rstrip() + "\n"


def _resolve(schema: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    """``node`` with a local ``$ref`` followed (its own description kept first)."""
    seen = 0
    while "$ref" in node and str(node["$ref"]).startswith("#/") and seen < 20:
        target: Any = schema
        for part in str(node["$ref"])[2:].split("/"):
            target = target[part]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        seen += 1
    return node


def _type_of(node: Mapping[str, Any]) -> str:
    """A property's type in a few words: its type, its values or its bounds."""
    if "enum" in node:
        return "one of " + ", ".join(f"`{json.dumps(value)}`" for value in node["enum"])
    if "const" in node:
        return f"`{json.dumps(node['const'])}`"
    kinds = node.get("type")
    words = " or ".join(kinds) if isinstance(kinds, list) else str(kinds or "")
    if not words and ("oneOf" in node or "anyOf" in node):
        words = "one of several forms"
    bounds = [
        f"{word} {node[key]}"
        for key, word in (("minimum", "at least"), ("maximum", "at most"))
        if key in node
    ]
    return ", ".join(part for part in [words, *bounds] if part)


def _properties(
    schema: Mapping[str, Any], node: Mapping[str, Any], prefix: str, depth: int
) -> list[str]:
    """The lines of every property under ``node``, nested by dotted path."""
    out: list[str] = []
    required = set(node.get("required", ()))
    for key, child in node.get("properties", {}).items():
        child = _resolve(schema, child)
        path = f"{prefix}{key}"
        facts = [_type_of(child), "required" if key in required else ""]
        if "default" in child:
            facts.append(f"default `{json.dumps(child['default'])}`")
        said = "; ".join(fact for fact in facts if fact)
        description = " ".join(str(child.get("description", "")).split())
        out.append(f"- `{path}` ({said}): {description}".rstrip(": "))
        if depth < SCHEMA_DEPTH and "properties" in child:
            out += ["  " + line for line in _properties(schema, child, f"{path}.", depth + 1)]
        items = (
            _resolve(schema, child.get("items", {}))
            if isinstance(child.get("items"), Mapping)
            else {}
        )
        if depth < SCHEMA_DEPTH and "properties" in items:
            out += ["  " + line for line in _properties(schema, items, f"{path}[].", depth + 1)]
    return out


def schema_reference(schema: Mapping[str, Any]) -> str:
    """Each property of a JSON Schema with its type and description, as a nested list."""
    out = []
    if schema.get("description"):
        out += [" ".join(str(schema["description"]).split()), ""]
    out += _properties(schema, _resolve(schema, schema), "", 0)
    return "\n".join(out).rstrip() + "\n"


def bibliography_page() -> str:
    """The bibliography: its listing, then every source and reading whole, each with its anchor."""
    known = bibliography()
    out = ["# The bibliography", "", *_fence("\n".join(listing(known))), ""]
    out += ["## Sources", ""]
    for code, source in known.sources.items():
        out += [f"({anchor(code)})=", f"### {code}", "", *_fence("\n".join(describe(source))), ""]
    out += ["## Readings", ""]
    for rid, reading in known.readings.items():
        out += [f"({anchor(rid)})=", f"### {rid}", "", *_fence("\n".join(describe(reading))), ""]
    return "\n".join(out).rstrip() + "\n"


def shipped_variants() -> list[str]:
    """The names of the variants the package ships (``variants/``), in order."""
    folder = files("bezique.variants")
    return sorted(
        item.name.removesuffix(".yaml") for item in folder.iterdir() if item.name.endswith(".yaml")
    )


def rulebooks_index(variants: Sequence[str], folder: str) -> str:
    """The rulebooks' landing page: each variant, what it builds on and its summary.

    The table links each variant's page (in ``folder``, beside this page), and a hidden
    table of contents puts those pages under this one.
    """
    out = [
        "# Rulebooks",
        "",
        "The complete rulebook of every shipped variant, written from its merged data by",
        "`bezique rules VARIANT --format markdown` when the site is built: a sentence a rule,",
        "each with its citation, inherited rules marked, the plugins' procedures in their own",
        "words. [Rulebooks and rule-by-rule differences](../../compare/rulebooks.md) says how",
        "they are made.",
        "",
        "| variant | builds on | what it is |",
        "| --- | --- | --- |",
    ]
    for name in variants:
        variant = ruleset_for(name).variant
        top = Inheritance(variant).top
        extends = top.data.get("extends") if top is not None else None
        summary = " ".join(str(variant.data.get("summary", "")).split()).replace("|", "\\|")
        out.append(f"| [{name}]({folder}/{name}.md) | {extends or '-'} | {summary} |")
    out += ["", "```{toctree}", ":hidden:", ":glob:", "", f"{folder}/*", "```"]
    return "\n".join(out) + "\n"


def rulebook_page(variant: str) -> str:
    """A variant's rulebook as ``bezique rules VARIANT --format markdown`` prints it."""
    ruleset = ruleset_for(variant)
    return render_markdown(rule_lines(ruleset), book_title(ruleset))


def linked_citations(text: str) -> str:
    """``text`` with every source code or reading it cites a link to its bibliography entry.

    Each becomes a MyST ``{ref}`` to the label :func:`bibliography_page` puts at the entry
    (an alias, such as ``EB9``, to its source's entry); a heading line is left as it is.
    """
    known = bibliography()
    out = []
    for line in text.splitlines(keepends=True):
        if not line.startswith("#"):
            for citation in reversed(citations_in(line)):
                target = known.alias_of(citation.code) or citation.code
                if known.lookup(target) is not None:
                    link = f"{{ref}}`{citation.code} <{anchor(target)}>`"
                    line = line[: citation.start] + link + line[citation.end :]
        out.append(line)
    return "".join(out)


def differences_page(variants: Sequence[str], title: str) -> str:
    """The rule-by-rule differences of ``variants``, as ``bezique diff`` prints them (a section)."""
    found = books([ruleset_for(name) for name in variants])
    shown = diff_text(found, differences(found))
    command = "bezique diff " + " ".join(variants)
    return "\n".join([f"## {title}", "", f"`{command}`:", "", *_fence(shown)]) + "\n"

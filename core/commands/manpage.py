"""The manual page ``bezique(1)``, made from the command's own parser.

:func:`manual_page` renders in roff (the ``man`` macros) what every ``--help`` says:
NAME, SYNOPSIS and DESCRIPTION from the top of the parser, OPTIONS, then under
COMMANDS each subcommand (``sheet add`` too) with its usage, description, arguments
and examples, and EXAMPLES from the top.  Nothing is written twice: a new option or
command is in the page as soon as it is in the parser.  ``bezique manpage`` prints the
page or writes it to a file (``man -l bezique.1`` shows it).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable

from bezique import __version__
from bezique.commands.arguments import DESCRIPTION, examples_of, subcommands

__all__ = ["manual_page", "roff_text"]

_STARTS_REQUEST = re.compile(r"^[.']", re.MULTILINE)


def roff_text(text: str) -> str:
    """``text`` safe as roff input: backslashes escaped, no line read as a request."""
    return _STARTS_REQUEST.sub(r"\\&\g<0>", text.replace("\\", "\\e"))


def _literal(text: str) -> str:
    """A command line or option as typed: its hyphens are hyphen-minus, not hyphens."""
    return roff_text(text).replace("-", "\\-")


def manual_page(parser: argparse.ArgumentParser, version: str = __version__) -> str:
    """The roff source of the manual page ``bezique(1)`` for ``parser``.

    ``version`` goes in the page's footer.  The page has no date, so the same parser
    gives the same page.
    """
    name = parser.prog
    lines = [
        f'.TH {name.upper()} 1 "" "{name} {version}" "User Commands"',
        ".SH NAME",
        f"{name} \\- {roff_text(DESCRIPTION[0].lower() + DESCRIPTION[1:].rstrip('.'))}",
        ".SH SYNOPSIS",
        _usage(parser),
        ".SH DESCRIPTION",
        *_paragraphs(parser.description or ""),
        ".SH OPTIONS",
        *_arguments(parser),
        ".SH COMMANDS",
    ]
    for words, command in subcommands(parser):
        lines.extend(_command(f"{name} {words}", command))
    lines.append(".SH EXAMPLES")
    lines.extend(_examples(examples_of(parser)))
    return "\n".join(lines) + "\n"


def _command(title: str, parser: argparse.ArgumentParser) -> list[str]:
    """One subcommand's section: usage, description, arguments, examples."""
    lines = [f".SS {_literal(title)}", _usage(parser), *_paragraphs(parser.description or "")]
    lines.extend(_arguments(parser))
    examples = examples_of(parser)
    if examples:
        lines.extend([".PP", "Examples:", *_examples(examples)])
    return lines


def _usage(parser: argparse.ArgumentParser) -> str:
    """The command's usage line, as ``--help`` prints it, in bold, on one line."""
    usage = " ".join(parser.format_usage().split())
    usage = usage.removeprefix("usage: ")
    return f"\\fB{_literal(usage)}\\fR"


def _paragraphs(text: str) -> list[str]:
    """Prose paragraphs (separated by blank lines) for roff to fill."""
    found: list[str] = []
    for paragraph in text.split("\n\n"):
        words = " ".join(paragraph.split())
        if words:
            found.extend([".PP", roff_text(words)])
    return found


def _arguments(parser: argparse.ArgumentParser) -> list[str]:
    """Each argument of ``parser``, a tagged paragraph: how it is written, then its help."""
    lines: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) or action.help == argparse.SUPPRESS:
            continue
        lines.extend([".TP", _invocation(action), roff_text(_help(action, parser.prog))])
    return lines


def _invocation(action: argparse.Action) -> str:
    """How an argument is written: ``--format {text,markdown,html}``, ``FILE``."""
    value = _metavar(action)
    if not action.option_strings:
        return f"\\fI{_literal(value)}\\fR"
    names = ", ".join(f"\\fB{_literal(option)}\\fR" for option in action.option_strings)
    takes_value = action.nargs != 0
    return f"{names} \\fI{_literal(value)}\\fR" if takes_value else names


def _metavar(action: argparse.Action) -> str:
    """The name of the value an argument takes, as ``--help`` shows it."""
    if isinstance(action.metavar, str):
        return action.metavar
    if action.choices is not None:
        return "{" + ",".join(str(choice) for choice in action.choices) + "}"
    return action.dest if not action.option_strings else action.dest.upper()


def _help(action: argparse.Action, prog: str) -> str:
    """An argument's help with its ``%(default)s`` and ``%%`` worked out, as ``--help`` does."""
    text = action.help or ""
    values = {key: value for key, value in vars(action).items() if value is not argparse.SUPPRESS}
    values["prog"] = prog
    if action.choices is not None:
        values["choices"] = ", ".join(str(choice) for choice in action.choices)
    return " ".join((text % values).split())


def _examples(examples: Iterable[str]) -> list[str]:
    """Command lines shown as typed, indented, one a line."""
    shown = [_literal(line) for line in examples]
    return [".RS", ".nf", *shown, ".fi", ".RE"] if shown else []

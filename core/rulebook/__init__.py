"""The rulebook of a variant, and the rule-by-rule difference of variants.

:func:`rule_lines` says every rule of a variant in one sentence each: the kernel's
sections from its merged data, and what its plugins say of their own settings and
procedures (:class:`RuleLine`, with its citation and the parent it inherits from);
:mod:`bezique.rulebook.render` and :mod:`bezique.rulebook.page` print them as text,
markdown or one HTML page (:func:`render_text`, :func:`render_markdown`,
:func:`render_html`: ``bezique rules``), and :mod:`bezique.rulebook.diff` compares the
lines of several variants (``bezique diff``; :func:`diff_html`, an HTML fragment, for
``bezique compare --html``).
"""

from __future__ import annotations

from bezique.rulebook.book import RuleLine, leaves, rule_lines
from bezique.rulebook.diffshow import diff_html
from bezique.rulebook.page import render_html
from bezique.rulebook.render import render_markdown, render_text
from bezique.rulebook.sections import SECTIONS, heading

__all__ = [
    "SECTIONS",
    "RuleLine",
    "diff_html",
    "heading",
    "leaves",
    "render_html",
    "render_markdown",
    "render_text",
    "rule_lines",
]

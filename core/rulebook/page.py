"""A rulebook as one standalone HTML page: inline CSS, the score table a table, citations linked.

Every source code or reading id in a citation (:func:`bezique.variant.bibliography.citations_in`)
is a link to its entry in the bibliography at the end of the page
(:func:`bezique.variant.bibliography.anchor`), which holds every code the page cites: a
source's reference, or a reading's question, options and switch.  The page loads
nothing from outside.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from bezique.rulebook.book import RuleLine
from bezique.rulebook.render import about, notes, points, sections
from bezique.rulebook.sections import heading
from bezique.variant.bibliography import Reading, Source, anchor, bibliography, citations_in

STYLE = """
body { font-family: Georgia, serif; max-width: 50em; margin: 2em auto; padding: 0 1em;
       line-height: 1.45; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.5em; vertical-align: top; }
td.points { text-align: right; font-weight: bold; }
.note { color: #555; font-size: 0.9em; } .mark { color: #777; font-size: 0.85em; }
ol.sources { font-size: 0.9em; color: #444; }
dt { font-weight: bold; margin-top: 0.6em; } dd { margin-left: 1.5em; }
code { overflow-wrap: anywhere; }
"""


def linked(text: str) -> str:
    """``text`` as HTML with each code it cites a link to its bibliography entry."""
    out, at = [], 0
    for citation in citations_in(text):
        out.append(escape(text[at : citation.start]))
        code = escape(citation.code)
        out.append(f'<a href="#{anchor(citation.code)}">{code}</a>')
        at = citation.end
    out.append(escape(text[at:]))
    return "".join(out)


def _marks(line: RuleLine, cited: list[str]) -> str:
    parts = []
    if line.source in cited:
        number = cited.index(line.source) + 1
        parts.append(f'<a href="#{_note_id(line.section, number)}">[{number}]</a>')
    if line.inherited_from:
        parts.append(f"inherited from {escape(line.inherited_from)}")
    if line.by_plugin:
        parts.append(f"the {escape(line.by_plugin)} plugin's procedure")
    return f' <span class="mark">{" · ".join(parts)}</span>' if parts else ""


def _note_id(section: str, number: int) -> str:
    return f"note-{escape(section)}-{number}"


def _section(section: str, members: Sequence[RuleLine]) -> list[str]:
    cited = notes(members)
    out = [f'<section id="{escape(section)}">', f"<h2>{escape(heading(section))}</h2>"]
    if section == "score_table":
        out.append("<table><tr><th>Combination</th><th>Points</th><th>Rule</th></tr>")
        out += [
            f"<tr><td>{escape(line.key.rsplit('.', 1)[-1].replace('_', ' '))}</td>"
            f'<td class="points">{escape(points(line))}</td>'
            f"<td>{escape(line.text)}{_marks(line, cited)}</td></tr>"
            for line in members
        ]
        out.append("</table>")
    else:
        out.append("<ul>")
        out += [f"<li>{escape(line.text)}{_marks(line, cited)}</li>" for line in members]
        out.append("</ul>")
    if cited:
        out.append('<ol class="sources">')
        out += [
            f'<li id="{_note_id(section, number)}">{linked(source)}</li>'
            for number, source in enumerate(cited, 1)
        ]
        out.append("</ol>")
    return [*out, "</section>"]


def bibliography_html(texts: Iterable[str]) -> list[str]:
    """The bibliography section: an entry for each code cited in ``texts``, in first-cited order.

    The sources that a cited reading's options name follow, and the source an alias
    (``EB9``) stands for, so that every link resolves.
    """
    codes = list(dict.fromkeys(c.code for text in texts for c in citations_in(text)))
    book = bibliography()
    for code in codes:  # the sources a reading's options name (or an alias) are entries too
        entry = book.lookup(code)
        named = (
            [c for option in entry.options for c in option.sources]
            if isinstance(entry, Reading)
            else [book.alias_of(code) or code]
        )
        codes += [c for c in dict.fromkeys(named) if c not in codes]
    out = ['<section id="bibliography">', "<h2>Sources and readings</h2>", "<dl>"]
    for code in codes:
        out.append(f'<dt id="{anchor(code)}">{escape(code)}</dt>')
        target = book.alias_of(code)
        if target is not None:
            out.append(f'<dd>Another code for <a href="#{anchor(target)}">{target}</a>.</dd>')
        else:
            out.append(f"<dd>{_entry(book.lookup(code))}</dd>")
    return [*out, "</dl>", "</section>"]


def _entry(entry: Source | Reading | None) -> str:
    """One bibliography entry in HTML."""
    if entry is None:
        return "Not in the project's bibliography."
    if isinstance(entry, Source):
        parts = [entry.author, f"<i>{escape(entry.title)}</i>", entry.edition, entry.year]
        used = f" Used: {escape('; '.join(entry.sections))}." if entry.sections else ""
        return (
            ", ".join(p if p.startswith("<i>") else escape(p) for p in parts if p)
            + f'.{used} <span class="note">{escape(entry.about)}</span>'
        )
    options = "".join(
        f"<li>{'<b>' if n == entry.default else ''}{escape(o.text)}"
        f"{'</b> (the default)' if n == entry.default else ''}"
        f"{' — ' + linked(', '.join(o.sources)) if o.sources else ''}"
        f"{_setting(o.setting, entry.switch)}</li>"
        for n, o in enumerate(entry.options)
    )
    switch = f" Switch: <code>{escape(entry.switch)}</code>." if entry.switch else ""
    return f"{escape(entry.question)}{switch}<ul>{options}</ul>"


def _setting(setting: str | None, switch: str | None) -> str:
    """What selects an option: its setting, or (where the reading has a switch) that none does."""
    if setting:
        return f" — <code>{escape(setting)}</code>"
    return " — no setting selects it" if switch else ""


def render_html(lines: Sequence[RuleLine], title: str) -> str:
    """The rulebook as one standalone HTML page."""
    head = about(lines)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{escape(title)}</h1>",
    ]
    if head is not None:
        out.append(f"<p>{escape(head.text)}</p>")
        if head.source:
            out.append(f'<p class="note">Source: {linked(head.source)}</p>')
    for section, members in sections(lines):
        if section != "about":
            out += _section(section, members)
    out += bibliography_html(line.source for line in lines if line.source)
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"

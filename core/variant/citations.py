"""The citations of a variant file: every code its ``source:`` texts cite must be known.

A ``source:`` text, at any level of a variant file, cites rule texts by code
(``S0``, ``HMR``, ``BIC-R``) and the project's readings by id (``A33``,
``R-C1``); :mod:`bezique.variant.bibliography` says what each means.  ``bezique
validate`` reports a code the bibliography does not hold as a problem of the
file, at the line and column of the code itself inside the text (a folded
``>-`` text included), so that a misspelt ``A99`` or ``BIC-X`` is found where it
was written.  Any other token shaped like a code (``HRM`` for HMR, ``ZZ9``)
is reported too (:func:`bezique.variant.bibliography.code_shaped_in`).  Registered
variant files are the package's (or a plugin's) and are checked by their own
tests; only the file asked for and the files of its chain that are not
registered are read here.
"""

from __future__ import annotations

import bisect

from bezique.errors import VariantError
from bezique.reading.safeio import decode_text
from bezique.reading.yamlsafe import JsonPath
from bezique.variant.bibliography import Citation, bibliography, code_shaped_in
from bezique.variant.loader import BUILTIN_PREFIX, load_chain, resolve_spec
from bezique.variant.locate import File, Message, dotted, ordered


def citation_problems(spec: str) -> list[str]:
    """Return a problem for each unknown code cited in the files of variant ``spec``.

    A spec that cannot be read gives none: loading it reports why.
    """
    return ordered(citation_messages(spec))


def citation_messages(spec: str) -> list[Message]:
    """The problems of :func:`citation_problems`, each with its place in its file."""
    try:
        chain, _ = load_chain(resolve_spec(spec))
    except VariantError:
        return []
    messages: list[Message] = []
    for file in chain:
        if file.rank == 0 or not file.source.display.startswith(BUILTIN_PREFIX):
            messages += _file_problems(file)
    return messages


def _file_problems(file: File) -> list[Message]:
    """Every unknown code cited in the ``source:`` texts of one file."""
    known = bibliography()
    text = _text(file)
    starts = _line_starts(text)
    found: list[Message] = []
    for path, value in _source_texts(file):
        line, column = file.doc.location(path)
        for code, offset in _placed(text, starts, (line, column), value):
            if known.lookup(code) is None:
                line_at = bisect.bisect_right(starts, offset)
                column_at = offset - starts[line_at - 1] + 1
                where = f"{file.source.display}:{line_at}:{column_at}"
                found.append(
                    Message(
                        (file.rank, line_at, column_at),
                        f"{where}: {dotted(path)}: {code!r} is not a source or reading of the "
                        "bibliography (`bezique sources` lists them)",
                        where,
                    )
                )
    return found


def _text(file: File) -> str:
    """The file's text as read (it was read and parsed once already, so it is readable)."""
    return decode_text(file.source.resource.read_bytes().decode("utf-8", errors="replace"))


def _line_starts(text: str) -> list[int]:
    """The offset at which each line of ``text`` begins."""
    starts = [0]
    starts += [index + 1 for index, char in enumerate(text) if char == "\n"]
    return starts


def _source_texts(file: File) -> list[tuple[JsonPath, str]]:
    """Each ``source`` text of the file with its path, in the order written."""
    found: list[tuple[JsonPath, str]] = []

    def walk(value: object, path: JsonPath) -> None:
        if isinstance(value, dict):
            for key, child in value.items():
                if key == "source" and isinstance(child, str):
                    found.append(((*path, key), child))
                else:
                    walk(child, (*path, key))
        elif isinstance(value, list):
            for index, child in enumerate(value):
                walk(child, (*path, index))

    walk(file.data, ())
    return sorted(found, key=lambda item: file.doc.location(item[0]))


def _placed(
    text: str, starts: list[int], position: tuple[int, int], value: str
) -> list[tuple[str, int]]:
    """Each code cited in ``value`` with its offset in the file's ``text``.

    ``position`` is where the scalar begins (its quote, or the ``>``/``|`` of a
    block).  Folding a scalar changes only the space between words, so its codes
    come in the file in the same order: the first ones found from there are the
    value's.  Where they are not (an escape in a quoted text), each code is
    placed at the scalar's start.
    """
    line, column = position
    start = min(starts[line - 1] + column - 1, len(text))
    if text[start : start + 1] in (">", "|"):
        following = bisect.bisect_right(starts, start)
        start = starts[following] if following < len(starts) else len(text)
    elif text[start : start + 1] in ("'", '"'):
        start += 1
    cited: list[Citation] = code_shaped_in(value)
    written = code_shaped_in(text[start:])[: len(cited)]
    if [c.code for c in written] == [c.code for c in cited]:
        return [(c.code, start + w.start) for c, w in zip(cited, written, strict=True)]
    return [(c.code, start) for c in cited]

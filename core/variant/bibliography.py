"""The sources the rules are taken from, and the readings made where they disagree.

Every ``source:`` text of a variant file, and many docstrings and schema
descriptions, cite rule texts by a short code (``S0``, ``HMR``, ``F334``,
``BIC-R``) and the project's readings by an id (``A33``, ``R-C1``, ``R18``).
The package data file ``bibliography.yaml`` (checked against
``bezique/schemas/bibliography.schema.json``) says what each code means:

* a :class:`Source` is a work: its title, author or editor, edition, year, the
  parts of it the project uses, and a line on what it is and how far to trust it;
* a :class:`Reading` is a point the project had to settle: the question, the
  :class:`Option` answers with the sources behind each, the one the built-in
  variants take by default, and the key of a variant file that selects another
  (``switch``; each option's ``setting`` is the ``key: value`` that selects it).

:func:`bibliography` reads and checks the file once.  :func:`citations_in`
finds the codes written in a free text, known or not, so that ``bezique
validate`` can report a citation of a code the bibliography does not hold, and
:func:`anchor` gives the HTML id under which an entry is rendered; :func:`uncited`
says a title or summary for players, without the codes.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from bezique.errors import BeziqueError
from bezique.reading.yamlsafe import parse_yaml

DATA_FILE = "bibliography.yaml"
"""The bibliography's package data file, in the ``bezique`` package."""

SCHEMA_FILE = "bibliography.schema.json"
"""Its schema, in the ``bezique.schemas`` package."""


RELATIONS: dict[str, str] = {
    "revision": "a revision of",
    "paraphrase": "a paraphrase of",
    "restatement": "a restatement of",
    "builds_on": "a game built on",
}
"""How a text may derive from an earlier one, and how a sentence says it."""


@dataclass(frozen=True)
class Derivation:
    """What a text derives from: the earlier text, how, and the evidence it rests on."""

    source: str
    """The code of the earlier text."""
    relation: str
    """One of :data:`RELATIONS`."""
    evidence: str
    """What the derivation rests on, in words."""
    rules: tuple[str, ...] = ()
    """The keys of the rules the evidence rests on (``declarations.per_trick``)."""
    readings: tuple[str, ...] = ()
    """The readings of the bibliography the evidence rests on."""


@dataclass(frozen=True)
class Source:
    """A work the rules are taken from, cited by ``code``."""

    code: str
    title: str
    author: str
    edition: str
    year: str
    sections: tuple[str, ...]
    """The parts of the work the project uses."""
    about: str
    """What the work is, and how far it can be trusted."""
    derives_from: tuple[Derivation, ...] = ()
    """The earlier texts this one derives from."""


@dataclass(frozen=True)
class Option:
    """One answer to a reading's question, the sources that give it, and its switch."""

    text: str
    sources: tuple[str, ...]
    setting: str | None
    """The ``key.path: value`` of a variant file that selects this answer, if any."""


@dataclass(frozen=True)
class Reading:
    """A point the sources leave open or disagree on, and how the project reads it."""

    id: str
    question: str
    options: tuple[Option, ...]
    default: int
    """The index in ``options`` of the answer the built-in variants take."""
    switch: str | None
    """The key path of a variant file that chooses between the options, if any."""
    no_switch: str = ""
    """Why no key of a variant file selects another option (when ``switch`` is ``None``)."""


@dataclass(frozen=True)
class Bibliography:
    """Every source code and every reading id the project cites."""

    sources: dict[str, Source]
    readings: dict[str, Reading]
    aliases: dict[str, str] = field(default_factory=dict)
    """Other codes files write for a source (``EB9`` for ``S0``): alias -> the source's code."""

    def lookup(self, code: str) -> Source | Reading | None:
        """Return the source or reading cited as ``code`` (or by an alias), or ``None``."""
        code = self.aliases.get(code, code)
        return self.sources.get(code) or self.readings.get(code)

    def alias_of(self, code: str) -> str | None:
        """Return the code of the source ``code`` is another name for, or ``None``."""
        return self.aliases.get(code)


@dataclass(frozen=True)
class Citation:
    """A code found in a text, at ``text[start:end]``."""

    code: str
    start: int
    end: int


# What a citation looks like.  Readings: A01-A38 (with a letter for a sub-point,
# A22a), the conflicts R-C1 and X-C1, the numbered points of the Rubicon, six-pack
# and eight-pack games and of the penalties (R18, S04, E02, P09, M05a).  Sources:
# the codes of the bibliography and the families they belong to (S0, EB9, F325,
# PW6, BIC-R, CM-6, WK-P), so that a misspelt member of a family is still caught.
_READING = r"A\d{2}[a-z]?|[RX]-C\d+|[RSEPM]\d{2}[a-z]?"
_FAMILY = r"S\d|EB\d+|F\d{3}|PW\d|(?:BIC|WK|CM)-[A-Z0-9]+|BRIT-old"
_NAMED = r"HMR|PAR|HER|SPEC|EW|CAS|BRIT|NIE|CHA|FM|DOR|HH"
_CODE = re.compile(rf"(?<![\w-])(?:{_READING}|{_FAMILY}|{_NAMED})(?![\w-])")


# What a code looks like even when it is no code of the bibliography: capitals with
# an optional dashed part (HRM, PRA, BIC-X) or capitals and digits (ZZ9), so that
# ``bezique validate`` catches a misspelt code of no known family.  These tokens of
# that shape are words, not codes: OCR (the scans S0 and S3 are read through), CARDS
# (S3's heading), UTF-8 and SHA-256 (encodings and digests), and the names of cards,
# a rank and a suit (QS, JD, TH).
_SHAPED = re.compile(r"(?<![\w-])(?:[A-Z]{2,5}(?:-[A-Z0-9]+)?|[A-Z]+\d+[a-z]?)(?![\w-])")
_NOT_CODES = frozenset({"OCR", "CARDS", "UTF-8", "SHA-256"})
_CARD = re.compile(r"[AKQJT987][SHDC]")


def citations_in(text: str) -> list[Citation]:
    """Return every source code or reading id written in ``text``, in order.

    A range such as ``F325-F326`` or ``R21-R24`` gives both of its ends.
    """
    return [Citation(m.group(), m.start(), m.end()) for m in _CODE.finditer(_split(text))]


def code_shaped_in(text: str) -> list[Citation]:
    """Return every citation in ``text`` and every other token shaped like a code, in order.

    :func:`citations_in` finds the codes of the bibliography's families; this also
    finds a token such as ``HRM`` or ``ZZ9`` that belongs to none, so that a check
    can report it as unknown.  The few capitalised words the texts use (``OCR``,
    card names such as ``QS``) are left out.
    """
    found = citations_in(text)
    spans = [(c.start, c.end) for c in found]
    for match in _SHAPED.finditer(_split(text)):
        word = match.group()
        if word in _NOT_CODES or _CARD.fullmatch(word):
            continue
        if not any(start < match.end() and match.start() < end for start, end in spans):
            found.append(Citation(word, match.start(), match.end()))
    return sorted(found, key=lambda c: c.start)


_PARENTHESES = re.compile(r"(\s*)\(([^()]*)\)")
_POSSESSIVE = re.compile(rf"(?<![\w-])(?:{_FAMILY}|{_NAMED})'s\s+")


def uncited(text: str) -> str:
    """Return ``text`` for a player: the source codes left out, the rest as it reads.

    A part of a parenthesis that starts with a code goes (``(EB9, four packs)`` reads
    ``(four packs)``; ``(S0 footnote 4)`` and ``(PW6, HER)`` go whole), as does a code
    that owns a noun (``S0's two-hand game`` reads ``Two-hand game``).  Historians read
    the codes in the rulebook; a player's list of games does without them.
    """

    def kept(match: re.Match[str]) -> str:
        parts = [p for p in match.group(2).split(", ") if not _starts_with_code(p)]
        return f"{match.group(1)}({', '.join(parts)})" if parts else ""

    plain = _POSSESSIVE.sub("", _PARENTHESES.sub(kept, text))
    plain = re.sub(r"\s+([.,;:])", r"\1", re.sub(r"\s{2,}", " ", plain)).strip()
    return plain[:1].upper() + plain[1:] if text[:1].isupper() else plain


def _starts_with_code(part: str) -> bool:
    """Whether a part of a parenthesis is a citation: it starts with a code."""
    first = citations_in(part.strip())
    return bool(first) and first[0].start == 0


def _split(text: str) -> str:
    """Return ``text`` with the dash of a range of codes (``P01-P12``) made a space."""
    return re.sub(r"(?<=\d)-(?=(?:[A-Z]{1,2})\d)", " ", text)


def anchor(code: str) -> str:
    """Return the HTML id of the entry of ``code``: ``src-S0``, ``reading-A33``."""
    kind = "reading" if re.fullmatch(_READING, code) else "src"
    return f"{kind}-{re.sub(r'[^A-Za-z0-9_-]', '_', code)}"


@functools.cache
def bibliography() -> Bibliography:
    """Return the bibliography of the package data, read and checked once."""
    text = resources.files("bezique.variant").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return parse_bibliography(text, DATA_FILE)


def bibliography_schema() -> dict[str, Any]:
    """Return the JSON Schema of the bibliography file."""
    raw = resources.files("bezique.schemas").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(raw)
    return schema


def parse_bibliography(text: str, filename: str) -> Bibliography:
    """Read a bibliography from YAML ``text``; raise :class:`BeziqueError` if it is wrong.

    Besides its schema, every code an option cites must be one of its sources,
    and every default must be the index of an option.
    """
    import jsonschema  # (here: listing the variants must not load the schema validator)

    data = parse_yaml(text, filename).data
    errors = sorted(
        jsonschema.Draft202012Validator(bibliography_schema()).iter_errors(data),
        key=lambda e: list(map(str, e.absolute_path)),
    )
    if errors:
        first = errors[0]
        place = ".".join(map(str, first.absolute_path)) or "(top)"
        raise BeziqueError(f"{filename}: {place}: {first.message}")
    found = Bibliography(
        sources={code: _source(code, entry) for code, entry in data["sources"].items()},
        readings={rid: _reading(rid, entry) for rid, entry in data["readings"].items()},
        aliases=dict(data.get("aliases", {})),
    )
    _check_aliases(found, filename)
    _check(found, filename)
    _check_derivations(found, filename)
    return found


def _source(code: str, entry: dict[str, Any]) -> Source:
    return Source(
        code=code,
        title=entry["title"],
        author=entry["author"],
        edition=entry["edition"],
        year=str(entry["year"]),
        sections=tuple(entry["sections"]),
        about=entry["about"],
        derives_from=tuple(
            Derivation(
                source=d["source"],
                relation=d["relation"],
                evidence=" ".join(d["evidence"].split()),
                rules=tuple(d.get("rules", ())),
                readings=tuple(d.get("readings", ())),
            )
            for d in entry.get("derives_from", ())
        ),
    )


def _reading(rid: str, entry: dict[str, Any]) -> Reading:
    options = tuple(
        Option(text=o["text"], sources=tuple(o["sources"]), setting=o.get("setting"))
        for o in entry["options"]
    )
    return Reading(
        rid,
        entry["question"],
        options,
        entry["default"],
        entry.get("switch"),
        entry.get("no_switch", ""),
    )


def _check_aliases(found: Bibliography, filename: str) -> None:
    """Raise :class:`BeziqueError` for an alias that is an entry itself or names no source."""
    for alias, code in found.aliases.items():
        if alias in found.sources or alias in found.readings:
            raise BeziqueError(
                f"{filename}: aliases.{alias}: {alias!r} is an entry of its own, not an alias"
            )
        if code not in found.sources:
            raise BeziqueError(
                f"{filename}: aliases.{alias}: {code!r} is not a source of the bibliography"
            )


def _check(found: Bibliography, filename: str) -> None:
    """Raise :class:`BeziqueError` for a reading citing an unknown source or option."""
    for reading in found.readings.values():
        if reading.default >= len(reading.options):
            raise BeziqueError(
                f"{filename}: readings.{reading.id}.default: {reading.default} is not the "
                f"index of one of its {len(reading.options)} options"
            )
        for number, option in enumerate(reading.options):
            for code in option.sources:
                if found.lookup(code) is None:
                    raise BeziqueError(
                        f"{filename}: readings.{reading.id}.options.{number}.sources: "
                        f"{code!r} is not a source or a reading of the bibliography"
                    )


def _check_derivations(found: Bibliography, filename: str) -> None:
    """Raise :class:`BeziqueError` for a derivation from an unknown text, itself, or a cycle."""
    for source in found.sources.values():
        for number, derivation in enumerate(source.derives_from):
            place = f"{filename}: sources.{source.code}.derives_from.{number}"
            if derivation.source not in found.sources:
                raise BeziqueError(
                    f"{place}.source: {derivation.source!r} is not a source of the bibliography"
                )
            if derivation.source == source.code:
                raise BeziqueError(f"{place}.source: a text cannot derive from itself")
            for rid in derivation.readings:
                if rid not in found.readings:
                    raise BeziqueError(
                        f"{place}.readings: {rid!r} is not a reading of the bibliography"
                    )
    for code in found.sources:
        if code in _earlier(found, code):
            raise BeziqueError(
                f"{filename}: sources.{code}.derives_from: {code} derives from itself"
            )


def _earlier(found: Bibliography, code: str) -> set[str]:
    """Every text ``code`` derives from, directly or through others."""
    seen: set[str] = set()
    todo = [d.source for d in found.sources[code].derives_from]
    while todo:
        parent = todo.pop()
        if parent not in seen and parent in found.sources:
            seen.add(parent)
            todo.extend(d.source for d in found.sources[parent].derives_from)
    return seen

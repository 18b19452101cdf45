"""The bibliography: every code the project cites is explained in the package, and nothing else is.

The package data ``bibliography.yaml`` holds the sources and the readings; these tests
check that it is well formed (and that its schema refuses what is not), that every code
the variant files, plugins, README and site cite is in it, that each reading's settings are
real keys of real variants, that ``bezique validate`` reports an unknown code where it is
written, that ``bezique sources`` prints an entry, and that no tracked file of the
repository points at a document outside it.
"""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from clirun import run

from bezique.errors import BeziqueError, VariantError
from bezique.rulebook.page import bibliography_html
from bezique.variant import (
    apply_overrides,
    load_variant,
    validate_paths,
    variant_from_data,
    variant_summaries,
)
from bezique.variant.bibliography import (
    Citation,
    Option,
    Reading,
    anchor,
    bibliography,
    citations_in,
    code_shaped_in,
    parse_bibliography,
    uncited,
)

REPO = Path(__file__).resolve().parent.parent


def tracked_files() -> list[Path]:
    """The repository's tracked text files."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    return [REPO / name for name in listed.split("\0") if name]


# The names of documents outside the project, written so that this file does not hold them
# (one pattern each: each starts with a literal, which keeps the search over the golden
# records fast).
OUTSIDE = [
    re.compile(pattern)
    for pattern in (
        re.escape("RULES" + "_REFERENCE"),
        re.escape("BEY" + "OND"),
        re.escape("/work" + "/shared"),
        re.escape("../" + "shared"),
        re.escape("shared" + "/rules"),
        r"_[0-9a-f]{16}(?![0-9a-f])",
        r"[Ii]ssues? #?[0-9]",
        re.escape("PEER" + "_CASES"),
    )
]


def outside(text: str) -> bool:
    """Whether ``text`` names a document outside the project."""
    return any(pattern.search(text) for pattern in OUTSIDE)


def test_no_tracked_file_refers_to_a_document_outside_the_project() -> None:
    found = []
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        if not outside(text):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if outside(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert found == []


SOURCES_PAGE = REPO / "docs" / "compare" / "sources.md"
"""The site's page on sources and readings, which shows a file citing unknown codes."""


def cited_files() -> list[Path]:
    """The files whose citations must all be known: variants, plugins, schemas, the docs."""
    roots = ("variants/", "plugins/", "schemas/", "tests/thirdparty/", "README.md", "docs/")
    return [
        path
        for path in tracked_files()
        if path.relative_to(REPO).as_posix().startswith(roots)
        and path.suffix in (".py", ".yaml", ".json", ".md")
    ]


def cited_text(path: Path) -> str:
    """A file's text, without the sources page's example of a file citing unknown codes."""
    text = path.read_text(encoding="utf-8")
    if path == SOURCES_PAGE:
        start = text.index("```yaml\nname: club\n")
        text = text[:start] + text[text.index("lists them)\n```\n", start) :]
    return text


def test_every_code_cited_in_variants_plugins_and_readme_is_in_the_bibliography() -> None:
    known = bibliography()
    unknown = [
        f"{path.relative_to(REPO)}: {citation.code}"
        for path in cited_files()
        for citation in citations_in(cited_text(path))
        if known.lookup(citation.code) is None
    ]
    assert unknown == []
    cited = {c.code for path in cited_files() for c in citations_in(cited_text(path))}
    assert {"S0", "S2", "S3", "S4", "HMR", "F325", "F334", "BIC-R", "A33", "R-C1", "R18"} <= cited


def test_every_source_and_reading_an_entry_cites_is_in_it() -> None:
    known = bibliography()
    assert len(known.sources) == 31
    assert {f"A{n:02d}" for n in range(1, 40)} <= set(known.readings)
    assert {f"R-C{n}" for n in range(1, 8)} | {f"X-C{n}" for n in range(1, 8)} <= set(
        known.readings
    )
    for reading in known.readings.values():
        assert 0 <= reading.default < len(reading.options)
        assert reading.switch is not None or reading.no_switch, reading.id
        for option in reading.options:
            assert all(known.lookup(code) is not None for code in option.sources), reading.id
    source = known.sources["S0"]
    assert (source.year, source.edition) == (
        "1875",
        "Encyclopaedia Britannica, 9th edition, volume 3",
    )
    assert known.lookup("A05") == known.readings["A05"]
    assert known.lookup("Z9") is None


def test_a_work_has_one_entry_and_its_other_code_is_an_alias(
    capsys: pytest.CaptureFixture[str],
) -> None:
    known = bibliography()
    assert known.aliases == {"EB9": "S0", "EB1911": "EB11"}
    assert "EB9" not in known.sources and "EB1911" not in known.sources
    assert known.lookup("EB9") is known.sources["S0"]
    assert known.lookup("EB1911") is known.sources["EB11"]
    assert (known.alias_of("EB9"), known.alias_of("S0")) == ("S0", None)
    titles = [source.title for source in known.sources.values()]
    assert len(titles) == len(set(titles))
    status, out, err = run(capsys, "sources", "eb1911")
    assert (status, err) == (0, "")
    assert out.splitlines()[:2] == [
        "EB1911 is an alias of EB11, whose entry follows.",
        "EB11: Encyclopaedia Britannica: Bezique (revised)",
    ]
    _, out, _ = run(capsys, "sources")
    assert "  EB9       an alias of S0" in out.splitlines()
    page = "\n".join(bibliography_html(["S0 (EB9, 1875)"]))
    assert '<dt id="src-EB9">EB9</dt>\n<dd>Another code for <a href="#src-S0">S0</a>.</dd>' in page
    assert page.count('<dt id="src-S0">') == 1


def test_citations_are_found_in_free_text_with_their_place() -> None:
    text = "S0 footnote 4 (A08); F325-F326; R21-R24, BIC-R: R18; QS and JD; BRIT-old, A22a, S07a."
    assert citations_in(text) == [
        Citation("S0", 0, 2),
        Citation("A08", 15, 18),
        Citation("F325", 21, 25),
        Citation("F326", 26, 30),
        Citation("R21", 32, 35),
        Citation("R24", 36, 39),
        Citation("BIC-R", 41, 46),
        Citation("R18", 48, 51),
        Citation("BRIT-old", 64, 72),
        Citation("A22a", 74, 78),
        Citation("S07a", 80, 84),
    ]
    assert [anchor(code) for code in ("S0", "BIC-R", "A33", "R-C1", "S07a")] == [
        "src-S0",
        "src-BIC-R",
        "reading-A33",
        "reading-R-C1",
        "reading-S07a",
    ]


UNCITED = {
    "S3's two-hand game - one declaration at a time (S3's text ends before it).": (
        "Two-hand game - one declaration at a time."
    ),
    "Four-hand bezique (EB9, four packs, each for himself)": (
        "Four-hand bezique (four packs, each for himself)"
    ),
    "Grand bezique (EB9 four-pack game, also called Chinese)": (
        "Grand bezique (also called Chinese)"
    ),
    "Six-pack bezique with the dealer's lift (PW6, HER).": (
        "Six-pack bezique with the dealer's lift."
    ),
    "Ordinary bezique with S0's swapped bezique cards (S0 footnote 4)": (
        "Ordinary bezique with swapped bezique cards"
    ),
    # a name that is no code stays, and so does a parenthesis of words
    "One declaration scored a trick (Foster), four tens scoring 90 (by agreement).": (
        "One declaration scored a trick (Foster), four tens scoring 90 (by agreement)."
    ),
    "Polish (open) bezique": "Polish (open) bezique",
}


@pytest.mark.parametrize(("text", "plain"), UNCITED.items())
def test_a_title_or_summary_is_said_to_players_without_its_codes(text: str, plain: str) -> None:
    assert uncited(text) == plain


GOOD = """\
sources:
  S0:
    title: "A title"
    author: "Someone"
    edition: "first"
    year: "1875"
    sections: ["all"]
    about: "What it is."
readings:
  A01:
    question: "Which?"
    options:
      - {text: "this one", sources: [S0], setting: "game.target: 1000"}
    default: 0
    switch: game.target
"""


def test_a_well_formed_bibliography_reads() -> None:
    read = parse_bibliography(GOOD, "b.yaml")
    assert read.readings["A01"] == Reading(
        "A01", "Which?", (Option("this one", ("S0",), "game.target: 1000"),), 0, "game.target"
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('    about: "What it is."\n', "", "b.yaml: sources.S0: 'about' is a required property"),
        ('year: "1875"', "year: 1875", "b.yaml: sources.S0.year: 1875 is not of type 'string'"),
        ("  S0:\n", "  s0:\n", "b.yaml: sources: 's0' does not match"),
        ("default: 0", "default: 1", "b.yaml: readings.A01.default: 1 is not the index of one"),
        ("sources: [S0]", "sources: [S9]", "b.yaml: readings.A01.options.0.sources: 'S9' is not"),
        ('"game.target: 1000"', '"target 1000"', "b.yaml: readings.A01.options.0.setting:"),
        ("switch: game.target", "switch: null", "b.yaml: readings.A01: 'no_switch' is a required"),
        ("readings:\n", "aliases: {EB9: S9}\nreadings:\n", "b.yaml: aliases.EB9: 'S9' is not a"),
        ("readings:\n", "aliases: {S0: S0}\nreadings:\n", "b.yaml: aliases.S0: 'S0' is an entry"),
        ("readings:\n", "aliases: {eb9: S0}\nreadings:\n", "b.yaml: aliases: 'eb9' does not"),
    ],
)
def test_the_schema_refuses_a_malformed_bibliography(old: str, new: str, message: str) -> None:
    assert old in GOOD
    with pytest.raises(BeziqueError) as refused:
        parse_bibliography(GOOD.replace(old, new), "b.yaml")
    assert str(refused.value).startswith(message), str(refused.value)


# --- each reading's settings are real ------------------------------------------------


@functools.cache
def shipped() -> dict[str, dict[str, Any]]:
    return {name: load_variant(name).data for name, _ in variant_summaries()}


def concrete(data: dict[str, Any], setting: str) -> list[tuple[tuple[str, ...], Any]]:
    """The paths and values a setting writes into ``data`` (``*``: every four of a kind)."""
    found = []
    for part in setting.split("; "):
        key, _, value = part.partition(": ")
        keys = key.split(".")
        if "*" in keys:
            at = keys.index("*")
            combinations = data["declarations"]["combinations"]
            names = [n for n, c in combinations.items() if "rank" in c and c["suit"] == "any"]
            paths = [(*keys[:at], name, *keys[at + 1 :]) for name in names]
        else:
            paths = [tuple(keys)]
        found += [(path, yaml.safe_load(value)) for path in paths]
    return found


def nested(pairs: list[tuple[tuple[str, ...], Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path, value in pairs:
        node = out
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
    return out


BASES = ["ordinary", "rubicon", "six-pack", "polish", "four-hand", "four-hand-partners"]
EXTRA = ["six-pack-lift", "eight-pack"]


def applies(setting: str, bases: list[str]) -> str | None:
    """The first of ``bases`` that still validates with ``setting`` written into it."""
    for base in bases:
        data = shipped()[base]
        try:
            variant_from_data(
                apply_overrides(data, nested(concrete(data, setting))), "x", origin="x"
            )
        except VariantError:
            continue
        bases.remove(base)
        bases.insert(0, base)  # the next setting most likely belongs to the same game
        return base
    return None


def held(setting: str) -> str | None:
    """A shipped variant whose merged data holds every value of ``setting``."""
    for name, data in shipped().items():
        if all(holds(data, path, value) for path, value in concrete(data, setting)):
            return name
    return None


def holds(data: dict[str, Any], path: tuple[str, ...], value: Any) -> bool:
    """Whether ``data`` has ``value`` at ``path`` (a section it lacks is ``enabled: false``)."""
    if path[-1] == "enabled" and value is False and _value(data, path[:-1]) is None:
        return True
    return bool(_value(data, path) == value)


def _value(data: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def test_every_setting_of_a_reading_makes_a_valid_variant_and_each_default_is_shipped() -> None:
    bases = [name for name in BASES + EXTRA if name in shipped()]
    readings = bibliography().readings.values()
    # A default's setting is held by a shipped variant (which validates); any other
    # option's, written into a shipped variant of its game, still makes a valid variant.
    defaults = [(r.id, r.options[r.default].setting) for r in readings]
    assert [(rid, s) for rid, s in defaults if s is not None and held(s) is None] == []
    others = {
        option.setting
        for reading in readings
        for number, option in enumerate(reading.options)
        if option.setting is not None and number != reading.default
    }
    assert [s for s in sorted(others) if applies(s, bases) is None] == []


SOURCE_PRESETS = {
    "eb1875": "S0",
    "hoyle1909": "S2",
    "cards-encyclopedia": "S3",
    "modern-article": "S4",
}
"""The presets that follow one source each, and that source's code."""


def in_force(data: dict[str, Any], switch: str) -> bool:
    """Whether a variant plays the rule ``switch`` names: it has the key (up to a ``*``),
    and the section is not switched off (``enabled: false``, as carte blanche in two-hand)."""
    keys = tuple(switch.split(".*")[0].split("."))
    return _value(data, keys) is not None and _value(data, (keys[0], "enabled")) is not False


def test_each_source_preset_holds_the_one_option_its_source_gives() -> None:
    # For each reading with a switch whose rule the preset plays, when exactly one option
    # cites the preset's source, the preset holds that option's setting (an option of a
    # preset's own source must be selectable).
    checked, wrong = [], []
    for preset, code in SOURCE_PRESETS.items():
        data = shipped()[preset]
        for reading in bibliography().readings.values():
            citing = [option for option in reading.options if code in option.sources]
            if reading.switch is None or len(citing) != 1 or not in_force(data, reading.switch):
                continue
            checked.append((preset, reading.id))
            setting = citing[0].setting
            pairs = [] if setting is None else concrete(data, setting)
            if setting is None or not all(holds(data, path, value) for path, value in pairs):
                wrong.append(f"{preset} ({code}) {reading.id}: {setting}")
    assert wrong == []
    assert len(checked) == 31
    assert {
        ("eb1875", "A11"),
        ("eb1875", "P09"),
        ("hoyle1909", "A09"),
        ("cards-encyclopedia", "P05"),
        ("cards-encyclopedia", "P09"),
        ("modern-article", "A16"),
        ("modern-article", "P08"),
        ("modern-article", "P12"),
    } <= set(checked)


def test_an_option_no_setting_selects_is_said_to_be_so(capsys: pytest.CaptureFixture[str]) -> None:
    unselectable = [
        (reading.id, number)
        for reading in bibliography().readings.values()
        for number, option in enumerate(reading.options)
        if reading.switch is not None and option.setting is None
    ]
    assert unselectable == [("A10", 3)]
    status, out, _ = run(capsys, "sources", "A10")
    assert status == 0
    assert out.splitlines()[-4:] == [
        "  4. the non-dealer counts his aces and tens first; EW's sentence breaks off there, so",
        "     the engine cannot play it [EW]",
        "     no setting selects it",
        "  Switch: game in a variant file.",
    ]
    page = "\n".join(bibliography_html(["A10"]))
    assert page.count(" — no setting selects it") == 1
    assert page.count(" — <code>game.check: ") == 3


# --- bezique validate and bezique sources ----------------------------------------------


def test_every_shipped_variant_validates_with_its_citations() -> None:
    assert validate_paths([name for name, _ in variant_summaries()]) == []


TAIL = "is not a source or reading of the bibliography (`bezique sources` lists them)"
"""How validate ends the line of an unknown citation."""


def validate_failing(
    capsys: pytest.CaptureFixture[str], path: Path, text: str
) -> tuple[Path, list[str]]:
    """Write ``text`` to ``path``, validate it, check it fails; the path and the error lines."""
    path.write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "validate", str(path))
    assert (status, out) == (1, "")
    return path, err.splitlines()


def test_validate_reports_an_unknown_code_at_its_line_and_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, err = validate_failing(
        capsys,
        tmp_path / "club.yaml",
        "name: club\nextends: ordinary\nsummary: Club rules.\n"
        "source: S0 and A99.\n"
        "brisques:\n  timing: end_of_hand\n  source: >-\n"
        "    S0 footnote 4 (A08) and\n    F325-F327 with BIC-X.\n",
    )
    assert err == [
        f"{path}:4:16: source: 'A99' {TAIL}",
        f"{path}:9:10: brisques.source: 'F327' {TAIL}",
        f"{path}:9:20: brisques.source: 'BIC-X' {TAIL}",
    ]


def test_validate_reports_a_code_of_no_known_family_and_not_the_words_in_capitals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, err = validate_failing(
        capsys,
        tmp_path / "typos.yaml",
        "name: typos\nextends: rubicon\nsummary: Misspelt codes.\n"
        "source: HRM laws, as PAR has them.\n"
        "brisques:\n  source: >-\n"
        "    The OCR of CARDS; PRA and\n    ZZ9, QS and JD, UTF-8, EB9.\n",
    )
    assert err == [
        f"{path}:4:9: source: 'HRM' {TAIL}",
        f"{path}:7:23: brisques.source: 'PRA' {TAIL}",
        f"{path}:8:5: brisques.source: 'ZZ9' {TAIL}",
    ]
    assert [c.code for c in code_shaped_in("HMR, HRM; F325-F327; A22a, QS, TH, UTF-8 SHA-256")] == [
        "HMR",
        "HRM",
        "F325",
        "F327",
        "A22a",
    ]


def test_sources_prints_one_entry_and_refuses_an_unknown_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "sources", "A25")
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "A25: In four-hand partnerships, may a double or triple bezique take cards from both "
        "partners?",
        "  1. yes, from either partner's hand [S0] (default)",
        "     set partnerships.shared_beziques: true",
        "  2. no, all its cards from one player [BIC-4]",
        "     set partnerships.shared_beziques: false",
        "  Switch: partnerships.shared_beziques in a variant file.",
    ]
    status, out, err = run(capsys, "sources", "bic-4")
    assert status == 0 and out.startswith("BIC-4: Bicycle rules: Four-Hand Bezique\n")
    status, out, err = run(capsys, "sources", "A99")
    assert (status, out) == (1, "")
    assert err == (
        "bezique: 'A99' is neither a source code nor a reading id; `bezique sources` lists them\n"
    )
    status, out, _ = run(capsys, "sources")
    assert status == 0
    assert "  S0        Encyclopaedia Britannica: Bézique, 1875" in out.splitlines()


def readme_blocks() -> list[tuple[str, list[str]]]:
    """The fenced blocks of the site's page on sources: each one's language and lines."""
    lines = SOURCES_PAGE.read_text(encoding="utf-8").splitlines()
    blocks: list[tuple[str, list[str]]] = []
    index = 0
    while index < len(lines):
        if lines[index].startswith("```"):
            end = lines.index("```", index + 1)
            blocks.append((lines[index][3:], lines[index + 1 : end]))
            index = end
        index += 1
    return blocks


def readme_transcripts() -> list[tuple[list[str], list[str]]]:
    """Each ``$ bezique ...`` command a plain block of the page shows, and what it printed."""
    found: list[tuple[list[str], list[str]]] = []
    for language, lines in readme_blocks():
        for line in lines if language == "" else []:
            if line.startswith("$ bezique "):
                found.append((line.split()[2:], []))
            elif found and lines[0].startswith("$ "):
                found[-1][1].append(line)
    return found


def test_the_sources_page_shows_what_bezique_sources_and_validate_print(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = [lines for language, lines in readme_blocks() if lines[:1] == ["name: club"]]
    (tmp_path / "club.yaml").write_text("\n".join(club[0]) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    shown = [
        (argv, lines) for argv, lines in readme_transcripts() if argv[0] in ("sources", "validate")
    ]
    assert [argv for argv, _ in shown] == [
        ["sources", "S0"],
        ["sources", "R-C3"],
        ["validate", "club.yaml"],
    ]
    for argv, lines in shown:
        _, out, err = run(capsys, *argv)
        assert (out + err).splitlines() == lines

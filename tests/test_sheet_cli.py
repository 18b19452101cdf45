"""``bezique sheet``: a real game's score sheet kept at the terminal, over ``bezique.sheet``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bezique.commands.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line; return its exit status, stdout and stderr."""
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse: usage errors
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def new_sheet(capsys: pytest.CaptureFixture[str], path: Path, *more: str) -> None:
    status, _, err = run(
        capsys, "sheet", "new", str(path), "--variant", "ordinary", "--players", "Ann,Bob", *more
    )
    assert (status, err) == (0, "")


def add(capsys: pytest.CaptureFixture[str], path: Path, words: str) -> str:
    """Enter ``words`` on the sheet; it must be taken; return what the command printed."""
    status, out, err = run(capsys, "sheet", "add", str(path), *words.split())
    assert (status, err) == (0, ""), err
    return out


# The ordinary game's table (S0): royal marriage 40, bezique 40, four aces 100, brisques
# (aces and tens won) 10 each, the last trick 10.
SHORT_GAME = [
    ("trumps H", None),
    ("Ann royal marriage KH QH", 40),
    ("Ann bezique QS JD", 40),
    ("Bob four aces AS AH AD AC", 100),
    ("Ann last trick", 10),
    ("stock gone", None),
    ("Bob brisques 9", 90),
    ("Ann brisques 7", 70),
    ("hand over", None),
]


def enter_short_game(capsys: pytest.CaptureFixture[str], path: Path) -> list[str]:
    new_sheet(capsys, path)
    return [add(capsys, path, words) for words, _ in SHORT_GAME]


def test_a_short_game_entered_from_the_command_line_totals_by_the_variants_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    said = enter_short_game(capsys, path)
    for number, ((_words, points), out) in enumerate(zip(SHORT_GAME, said, strict=True)):
        first = out.splitlines()[0]
        assert first.startswith(f"entry {number}, hand 1: "), first
        if points is not None:
            assert first.endswith(f" {points:+d}"), first
    assert said[1].splitlines()[1] == (
        "checked: the variant's table; no declaration once the stock is gone; no more copies "
        "of a card than the packs hold; the cards form the combination (and the class rules, "
        "where the variant's plugins check them)"
    )
    # Ann: 40 + 40 + 10 + 70; Bob: 100 + 90
    assert said[-1].splitlines()[-1] == "totals: Ann 160, Bob 190"
    status, out, err = run(capsys, "sheet", "show", str(path))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "ordinary: Ann, Bob"
    assert lines[-4:] == [
        "hand 1: Ann 160, Bob 190",
        "hand 2: Ann 0, Bob 0",
        "totals: Ann 160, Bob 190",
        "the game goes on",
    ]
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["entries"][3] == {
        "kind": "score",
        "player": 1,
        "name": "four_aces",
        "cards": ["AS", "AH", "AD", "AC"],
    }


def test_cards_and_names_are_read_as_a_player_writes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    new_sheet(capsys, path)
    out = add(capsys, path, "ann The Bezique qs jd")
    assert out.splitlines()[0] == "entry 0, hand 1: Ann bezique QS JD +40"
    assert json.loads(path.read_text())["entries"][0]["cards"] == ["QS", "JD"]
    # a player called with several words, the longest name first
    argv = ["sheet", "new", str(path), "--variant", "ordinary", "--players", "Ann,Ann Lee"]
    assert run(capsys, *argv, "--overwrite")[0] == 0
    assert add(capsys, path, "ann lee four kings").splitlines()[-1] == "totals: Ann 0, Ann Lee 80"


def test_new_refuses_a_file_that_exists_unless_told_to_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    enter_short_game(capsys, path)
    before = path.read_bytes()
    argv = ["sheet", "new", str(path), "--variant", "ordinary", "--players", "Cy,Di"]
    status, _, err = run(capsys, *argv)
    assert status == 1 and err == f"bezique: {path}: exists; add --overwrite to replace it\n"
    assert path.read_bytes() == before
    # what the file's schema refuses is not written, to be refused at the next read
    status, _, err = run(capsys, *argv[:-1], "Cy," + "D" * 101, "--overwrite")
    assert status == 1 and err.startswith("bezique: the new sheet: players[1]: 'DDD"), err
    assert path.read_bytes() == before
    status, _, err = run(capsys, *argv, "--overwrite", "--dealer", "1")
    assert (status, err) == (0, "")
    data = json.loads(path.read_text())
    assert (data["players"], data["first_dealer"], data["entries"]) == (["Cy", "Di"], 1, [])


@pytest.mark.parametrize(
    ("before", "words", "message"),
    [
        ((), "Carl last trick", "'Carl' is not a player of the sheet (Ann, Bob)"),
        ((), "Ann fifteen aces", "ordinary has no score called 'fifteen aces' (it has: bezique, "),
        ((), "Bob", "say what Bob scored: a name, then cards or a count"),
        ((), "Bob 5 bezique", "ordinary has no score called '5 bezique'"),
        ((), "Bob brisques", "brisques, aces and tens won takes one count"),
        ((), "Bob brisques five", "'five' is not a count"),
        ((), "Bob brisques 99999999999999", "is not a count"),
        ((), "Bob four aces 2", "four aces takes no count ('2')"),
        ((), "Ann marriage KX QS", "marriage: 'KX' is not a card"),
        ((), "trumps Z", "trumps: name one suit of S H D C"),
        # a second last trick in the hand: the packs hold one
        (
            (),
            "Bob last trick",
            "entries[5]: 1 the last trick of the stock would make 2 in the hand",
        ),
        # a third queen of spades in two packs
        ((), "Bob four queens QS QS QS QD", "entries[5]: 3 of QS: the 2 packs hold 2 at most"),
        # hearts are trumps: a royal marriage in spades is none
        ((), "Bob royal marriage KS QS", "entries[5]: KS QS do not form royal marriage"),
        # no declaration once the stock is gone (S0)
        (("stock gone",), "Bob marriage KS QS", "entries[6]: marriage after the stock is gone"),
        # brisques beyond the 16 aces and tens of two packs
        (
            ("Bob brisques 9", "Ann brisques 7"),
            "Ann brisques 1",
            "entries[7]: 1 brisques, aces and tens won would make 17 in the hand",
        ),
    ],
)
def test_a_refused_entry_is_one_line_naming_the_rule_and_the_file_is_as_it_was(
    before: tuple[str, ...],
    words: str,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "game.json"
    new_sheet(capsys, path)
    for entry in [words for words, _ in SHORT_GAME[:5]] + list(before):
        add(capsys, path, entry)
    kept = path.read_bytes()
    status, out, err = run(capsys, "sheet", "add", str(path), *words.split())
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("bezique: ") and message in err, err
    assert path.read_bytes() == kept
    assert sorted(os.listdir(tmp_path)) == ["game.json"]  # no side file left


def test_undo_takes_back_the_last_entry_and_fix_replaces_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    new_sheet(capsys, path)
    add(capsys, path, "Ann bezique")
    add(capsys, path, "Bob royal marriage")
    status, out, err = run(capsys, "sheet", "undo", str(path))
    assert (status, err) == (0, "")
    assert out.splitlines() == ["took back entry 1: Bob royal marriage", "totals: Ann 40, Bob 0"]
    # four kings are 80 (S0)
    status, out, err = run(capsys, "sheet", "fix", str(path), "0", "Bob", "four", "kings")
    assert (status, err) == (0, "")
    assert out.splitlines()[0] == "entry 0, hand 1: Bob four kings +80"
    assert out.splitlines()[-1] == "totals: Ann 0, Bob 80"
    before = path.read_bytes()
    status, _, err = run(capsys, "sheet", "fix", str(path), "3", "Bob", "bezique")
    assert (status, err) == (1, f"bezique: {path}: no entry 3: the sheet has 1\n")
    status, _, err = run(capsys, "sheet", "fix", str(path), "0", "Bob", "bezique", "QS", "JH")
    assert status == 1 and ": entries[0]: QS JH do not form bezique" in err, err
    assert path.read_bytes() == before
    assert run(capsys, "sheet", "undo", str(path))[0] == 0
    status, _, err = run(capsys, "sheet", "undo", str(path))
    assert (status, err) == (1, f"bezique: {path}: the sheet has no entry to undo\n")
    assert json.loads(path.read_text())["entries"] == []


def test_show_of_a_bad_file_says_where_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    enter_short_game(capsys, path)
    data = json.loads(path.read_text())
    data["entries"][2]["player"] = "Ann"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    status, out, err = run(capsys, "sheet", "show", str(bad))
    assert (status, out) == (1, "")
    assert err == f"bezique: {bad}: entries[2].player: 'Ann' is not of type 'integer'\n"
    # well formed, but an entry the rules refuse: two last tricks in one hand
    data = json.loads(path.read_text())
    data["entries"].insert(5, {"kind": "score", "player": 1, "name": "last trick"})
    bad.write_text(json.dumps(data))
    status, out, err = run(capsys, "sheet", "show", str(bad))
    assert (status, out) == (1, "")
    assert err.startswith(
        f"bezique: {bad}: entries[5]: 1 the last trick of the stock would make 2 in the hand"
    )
    bad.write_text("{")
    assert run(capsys, "sheet", "show", str(bad))[:2] == (1, "")
    assert run(capsys, "sheet", "add", str(bad), "hand", "over")[0] == 1
    assert bad.read_text() == "{"
    status, _, err = run(capsys, "sheet", "show", str(tmp_path / "none.json"))
    assert status == 1 and "none.json: cannot read" in err


def test_export_writes_csv_and_html_and_only_the_file_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    enter_short_game(capsys, path)
    before = path.read_bytes()
    csv = tmp_path / "game.csv"
    status, _, err = run(capsys, "sheet", "export", str(path), "--csv", str(csv))
    assert (status, err) == (0, "")
    assert csv.read_text().splitlines() == [
        "hand,Ann,Bob,Ann total,Bob total",
        "1,160,190,160,190",
        "2,0,0,160,190",
    ]
    page = tmp_path / "game.html"
    status, _, err = run(capsys, "sheet", "export", str(path), "--html", str(page))
    assert (status, err) == (0, "")
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>")
    assert "<tr><td>1</td><td>160</td><td>160</td><td>190</td><td>190</td></tr>" in text
    assert sorted(os.listdir(tmp_path)) == ["game.csv", "game.html", "game.json"]
    assert path.read_bytes() == before
    # an OUT that exists is kept unless told; the sheet itself is never the OUT
    status, _, err = run(capsys, "sheet", "export", str(path), "--csv", str(page))
    assert status == 1 and "exists; add --overwrite" in err
    assert page.read_text() == text
    status, _, err = run(capsys, "sheet", "export", str(path), "--csv", str(path), "--overwrite")
    assert status == 1 and "is the sheet itself" in err
    assert path.read_bytes() == before
    status, _, err = run(capsys, "sheet", "export", str(path))
    assert status == 2 and "one of the arguments --csv --html is required" in err


def test_a_house_rule_file_scores_by_its_table_and_is_kept_in_the_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "name: our-house\nsummary: Ordinary with a last trick of 50.\nextends: ordinary\n"
        "last_trick:\n  points: 50\n"
    )
    path = tmp_path / "game.json"
    argv = ["sheet", "new", str(path), "--house", str(house), "--players", "Ann,Bob"]
    assert run(capsys, *argv)[:1] == (0,)
    house.unlink()  # the sheet carries the rules
    assert add(capsys, path, "Bob last trick").splitlines()[-1] == "totals: Ann 0, Bob 50"
    data = json.loads(path.read_text())
    assert data["variant"] == "ordinary" and data["overrides"]["last_trick"] == {"points": 50}
    house.write_text("name: our-house\nsummary: x\nextends: ordinary\n")
    status, _, err = run(capsys, *argv, "--overwrite", "--variant", "rubicon")
    assert status == 1 and "its rules build on ordinary, not rubicon" in err
    new = ["sheet", "new", str(tmp_path / "other.json"), "--players", "Ann,Bob"]
    status, _, err = run(capsys, *new)
    assert (status, err) == (1, "bezique: say the variant: --variant NAME, or --house FILE.yaml\n")
    status, _, err = run(capsys, *new, "--variant", str(house))
    assert status == 1 and "a house-rule file goes in --house" in err
    assert sorted(os.listdir(tmp_path)) == ["game.json", "house.yaml"]


def test_a_sheet_write_that_fails_leaves_the_file_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    new_sheet(capsys, path)
    add(capsys, path, "Ann bezique")
    before = path.read_bytes()

    def no_room(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_room)
    status, _, err = run(capsys, "sheet", "add", str(path), "Bob", "four", "aces")
    assert status == 1 and err == f"bezique: {path}: cannot be written (No space left on device)\n"
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["game.json"]


def test_a_penalty_is_entered_by_name_and_claimed_as_the_variant_awards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    new_sheet(capsys, path)
    said = add(capsys, path, "penalty Bob drew out of turn add")
    assert "entry 0, hand 1: penalty on Bob for drawing out of turn: Ann +20\n" in said
    said = add(capsys, path, "penalty Ann nine cards deduct")
    assert "Ann -200" in said and "totals: Ann -180, Bob 0" in said
    before = path.read_bytes()
    status, _, err = run(capsys, "sheet", "add", str(path), "penalty", "Ann", "nine", "cards")
    assert status == 1 and "say how it is claimed, add or deduct (penalties.award)" in err
    status, _, err = run(capsys, "sheet", "add", str(path), "penalty", "Zoe", "revoke")
    assert status == 1 and "name the offender first, one of Ann, Bob" in err
    assert path.read_bytes() == before
    status, out, _ = run(capsys, "sheet", "show", str(path))
    assert status == 0 and "penalty on Ann for holding nine cards  Ann -200" in out

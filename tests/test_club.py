"""The club (bezique.sheet.club): players, finished sheets by evening, ladder, file, luck."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_sheet import played, sheet_of

from bezique.commands.cli import main
from bezique.game import GameState
from bezique.sheet import Sheet
from bezique.sheet.club import Club, ClubError
from bezique.simulation.ratings import PairResult, fit_elo
from bezique.web.store import MIGRATIONS, Store, open_database


@functools.cache
def game(seed: int) -> GameState:
    """A random ordinary game played to its end (the sheet's totals are the engine's)."""
    return played("ordinary", seed)


def sheet_won_by(seed: int, winner: str, loser: str) -> Sheet:
    """Game ``seed``'s sheet with ``winner`` at the seat that won it."""
    state = game(seed)
    names = [loser, loser]
    names[state.winner] = winner
    entered = sheet_of(state)
    return Sheet("ordinary", names, entered.first_dealer, entries=entered.entries)


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    db = open_database(tmp_path / "club.sqlite")
    yield Club(db)
    db.close()


def test_players_and_games_are_added(club: Club) -> None:
    assert club.add_player("  Ann   Smith ") == "Ann Smith"
    club.add_player("Bob")
    assert club.players() == ["Ann Smith", "Bob"]
    first = club.add_game(sheet_won_by(1, "Ann Smith", "Bob"), "2026-11-05")
    second = club.add_game(sheet_won_by(2, "Bob", "Ann Smith"), "2026-11-12")
    games = club.games()
    assert [(g.number, g.evening) for g in games] == [(first, "2026-11-05"), (second, "2026-11-12")]
    assert games[0].players[game(1).winner] == "Ann Smith"
    assert games[0].sheet.tally().scores == game(1).scores
    assert [g.number for g in club.games("2026-11-12")] == [second]
    assert club.games("2026-11-19") == []


def test_a_name_taken_twice_or_empty_is_refused(club: Club) -> None:
    club.add_player("Ann")
    with pytest.raises(ClubError, match="'Ann' is a club player already"):
        club.add_player(" Ann ")
    with pytest.raises(ClubError, match="cannot be empty"):
        club.add_player("   ")
    assert club.players() == ["Ann"]


def test_a_sheet_not_finished_is_refused(club: Club) -> None:
    club.add_player("Ann")
    club.add_player("Bob")
    whole = sheet_won_by(1, "Ann", "Bob")
    unfinished = Sheet("ordinary", whole.players, entries=whole.entries[:-1])
    assert not unfinished.tally().over
    with pytest.raises(ClubError, match="not finished"):
        club.add_game(unfinished, "2026-11-05")
    assert club.games() == []


def test_an_unknown_player_or_a_bad_evening_is_refused(club: Club) -> None:
    club.add_player("Ann")
    with pytest.raises(ClubError, match="'Bob' is not a club player"):
        club.add_game(sheet_won_by(1, "Ann", "Bob"), "2026-11-05")
    club.add_player("Bob")
    with pytest.raises(ClubError, match="an evening is a date"):
        club.add_game(sheet_won_by(1, "Ann", "Bob"), "2026-13-05")
    assert club.games() == []


def test_the_ladder_elo_is_the_tournaments_fit(club: Club) -> None:
    for name in ("Ann", "Bob", "Cid", "Dee"):
        club.add_player(name)
    played_games = [(1, "Ann", "Bob"), (2, "Bob", "Cid"), (3, "Cid", "Ann"), (4, "Ann", "Cid")]
    for seed, winner, loser in played_games:
        club.add_game(sheet_won_by(seed, winner, loser), "2026-11-05")
    index = {"Ann": 0, "Bob": 1, "Cid": 2}  # by joining; Dee has no game
    expected = fit_elo(
        3, [PairResult(index[w], index[lo], 1.0, 1) for _, w, lo in played_games]
    ).ratings
    assert expected is not None
    rows = {row.name: row for row in club.ladder()}
    assert (rows["Ann"].games, rows["Ann"].wins) == (3, 2)
    assert (rows["Bob"].games, rows["Bob"].wins) == (2, 1)
    for name, at in index.items():
        assert rows[name].elo == pytest.approx(expected[at])
    bob, bob_elo = rows["Bob"].interval, rows["Bob"].elo
    assert bob is not None and bob_elo is not None and bob[0] < bob_elo < bob[1]
    assert rows["Ann"].elo == 0  # the anchor
    ann_won = sum(game(s).scores[game(s).winner] for s, w, _ in played_games if w == "Ann")
    ann_lost = sum(game(s).scores[1 - game(s).winner] for s, _, lo in played_games if lo == "Ann")
    ann_total = sum(sum(game(s).scores) for s, w, lo in played_games if "Ann" in (w, lo))
    assert rows["Ann"].points_share == pytest.approx((ann_won + ann_lost) / ann_total)
    assert (rows["Dee"].games, rows["Dee"].elo, rows["Dee"].points_share) == (0, None, None)
    assert [name for name, row in rows.items() if row.anchor] == ["Ann"]


def test_export_import_round_trip(club: Club, tmp_path: Path) -> None:
    for name in ("Ann", "Bob", "Cid"):
        club.add_player(name)
    club.add_game(sheet_won_by(1, "Ann", "Bob"), "2026-11-05")
    club.add_game(sheet_won_by(2, "Cid", "Ann"), "2026-11-12")
    document = club.export()
    other = Club(open_database(tmp_path / "other.sqlite"))
    assert other.import_(json.loads(json.dumps(document))) == (3, 2)
    assert other.export() == document
    assert other.import_(document) == (0, 0)  # the same games are not added twice
    assert other.export() == document
    assert [row.to_json() for row in other.ladder()] == [row.to_json() for row in club.ladder()]


def test_a_bad_import_changes_nothing(club: Club) -> None:
    club.add_player("Ann")
    club.add_player("Bob")
    club.add_game(sheet_won_by(1, "Ann", "Bob"), "2026-11-05")
    before = club.export()
    good = {"evening": "2026-11-12", "sheet": sheet_won_by(2, "Ann", "Eve").to_json()}
    unfinished = sheet_won_by(3, "Ann", "Eve").to_json()
    unfinished["entries"] = unfinished["entries"][:-1]
    bad_documents = [
        (
            {"format": "bezique-club/1", "players": ["Eve"], "games": [good, good, {}]},
            r"games\[2\]: a game is",
        ),
        (
            {
                "format": "bezique-club/1",
                "players": ["Eve"],
                "games": [good, {"evening": "2026-11-19", "sheet": unfinished}],
            },
            r"games\[1\]\.sheet: the game is not finished",
        ),
        ({"format": "bezique-club/1", "players": [], "games": [good]}, "'Eve' is not a club"),
        ({"format": "bezique-club/1", "players": ["Eve", ""], "games": []}, r"players\[1\]"),
        ({"format": "bezique-sheet/1"}, "not a club file"),
    ]
    for document, where in bad_documents:
        with pytest.raises(ClubError, match=where):
            club.import_(document, "club.json")
        assert club.export() == before


def test_a_bad_sheet_in_an_import_is_located(club: Club) -> None:
    sheet = sheet_won_by(1, "Ann", "Bob").to_json()
    sheet["entries"][4] = {"kind": "score", "player": 0, "name": "grand slam"}
    document = {
        "format": "bezique-club/1",
        "players": ["Ann", "Bob"],
        "games": [{"evening": "2026-11-05", "sheet": sheet}],
    }
    with pytest.raises(ClubError, match=r"^club.json: games\[0\]\.sheet: .*grand slam"):
        club.import_(document, "club.json")
    assert club.players() == []


def test_luck_is_deterministic_for_a_seed(club: Club) -> None:
    club.add_player("Ann")
    club.add_player("Bob")
    for seed in (1, 2):
        club.add_game(sheet_won_by(seed, "Ann", "Bob"), "2026-11-05")
    first = club.luck("Ann", 6, seed=7)
    assert first == club.luck("Ann", 6, seed=7)
    assert first != club.luck("Ann", 6, seed=8)
    [luck] = first
    assert luck.variant == "ordinary"
    assert luck.bot.count == 6
    combos = set(game(1).rules.combo_names)
    per_hand = [
        sum(
            e.points
            for e, h in zip(game(s).events, game(s).event_hands, strict=True)
            if h == hand and e.player == game(s).winner and e.rule in combos
        )
        for s in (1, 2)
        for hand in range(game(s).hand_no + 1)
    ]
    assert luck.player.count == len(per_hand)
    assert luck.player.mean == pytest.approx(sum(per_hand) / len(per_hand))
    assert luck.player.low <= luck.player.mean <= luck.player.high
    with pytest.raises(ClubError, match="--hands 0"):
        club.luck("Ann", 0, seed=7)


def test_luck_names_a_variant_played_with_house_rules_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.sqlite")
    plain = sheet_won_by(1, "Ann", "Bob")
    house = Sheet(
        "ordinary",
        plain.players,
        plain.first_dealer,
        overrides={"game": {"source": "the club's own reading"}},
        entries=plain.entries,
    )
    for n, sheet in enumerate((plain, house)):
        path = tmp_path / f"game{n}.json"
        path.write_text(sheet.dumps(), encoding="utf-8")
        if n == 0:
            for name in ("Ann", "Bob"):
                assert main(["club", "--db", db, "add-player", name]) == 0
        assert main(["club", "--db", db, "add-game", str(path), "--evening", "2026-11-05"]) == 0
    capsys.readouterr()
    assert main(["club", "--db", db, "luck", "Ann", "--hands", "2", "--seed", "1"]) == 0
    headings = [line for line in capsys.readouterr().out.splitlines() if "interval" in line]
    assert headings == [
        "Ordinary two-hand bezique: points declared a hand (95% interval)",
        "Ordinary two-hand bezique with house rules: points declared a hand (95% interval)",
    ]
    assert main(["club", "--db", db, "luck", "Ann", "--hands", "2", "--seed", "1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [row["title"] for row in found] == [
        "Ordinary two-hand bezique",
        "Ordinary two-hand bezique with house rules",
    ]
    assert found[1]["variant"].startswith("ordinary {")


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    won = tmp_path / "won.json"
    won.write_text(sheet_won_by(1, "Ann", "Bob").dumps(), encoding="utf-8")
    half = sheet_won_by(1, "Ann", "Bob")
    half = Sheet("ordinary", half.players, entries=half.entries[:10])
    unfinished = tmp_path / "half.json"
    unfinished.write_text(half.dumps(), encoding="utf-8")
    for name in ("Ann", "Bob"):
        assert main(["club", "--db", db, "add-player", name]) == 0
    assert main(["club", "--db", db, "add-game", str(won), "--evening", "2026-11-05"]) == 0
    capsys.readouterr()
    assert main(["club", "--db", db, "add-game", str(unfinished)]) == 1
    error = capsys.readouterr().err
    assert error.startswith("bezique: sheet: the game is not finished")
    assert error.count("\n") == 1
    assert main(["club", "--db", db, "games"]) == 0
    assert "2026-11-05  game 1  ordinary:" in capsys.readouterr().out
    assert main(["club", "--db", db, "ladder", "--json"]) == 0
    ladder = json.loads(capsys.readouterr().out)
    assert [(row["name"], row["games"]) for row in ladder] == [("Ann", 1), ("Bob", 1)]
    out = tmp_path / "club.json"
    assert main(["club", "--db", db, "export", str(out)]) == 0
    assert main(["club", "--db", db, "export", str(out)]) == 1
    other = str(tmp_path / "other.sqlite")
    assert main(["club", "--db", other, "import", str(out)]) == 0
    capsys.readouterr()
    out.write_text("{" * 10, encoding="utf-8")
    assert main(["club", "--db", other, "import", str(out)]) == 1
    assert capsys.readouterr().err.startswith(f"bezique: {out}:")
    with sqlite3.connect(other) as raw:
        assert raw.execute("SELECT count(*) FROM club_games").fetchone() == (1,)


def test_a_sheet_naming_one_player_twice_is_refused(club: Club) -> None:
    club.add_player("Ann")
    sheet = sheet_won_by(1, "Ann", "Ann")
    with pytest.raises(ClubError, match="named at two seats"):
        club.add_game(sheet, "2026-11-05")
    assert club.games() == []


def test_an_older_store_gains_the_club_and_keeps_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    with sqlite3.connect(path) as old:  # the store as it was before the club
        old.executescript(MIGRATIONS[0] + "PRAGMA user_version=1;")
    Store(path).add_table("t1", {"variant": "ordinary"})
    db = open_database(path)
    assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
    Club(db).add_player("Ann")
    db.close()
    assert Store(path).table("t1") == ({"variant": "ordinary"}, [])


def test_a_bad_club_file_is_one_located_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.sqlite")
    sheet = sheet_won_by(1, "Ann", "Bob").to_json()
    bad = tmp_path / "club.json"
    kept = {"evening": "2026-11-05", "sheet": sheet}
    document = {"format": "bezique-club/1", "players": ["Ann"], "games": [kept]}
    bad.write_text(json.dumps(document), encoding="utf-8")
    assert main(["club", "--db", db, "import", str(bad)]) == 1
    error = capsys.readouterr().err
    assert (
        error == f"bezique: {bad}: games[0].sheet: 'Bob' is not a club player (add-player first)\n"
    )
    assert main(["club", "--db", db, "players"]) == 0
    assert capsys.readouterr().out == ""

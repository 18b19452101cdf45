"""The score sheet on the web: ``/api/sheets`` driven as its page drives it, and the page itself.

The requests run in-process (Starlette's test client over the application ``bezique
serve`` runs); the last test enters a few scores by clicks in the system's Chromium on
a phone-sized page at the real server (:mod:`webserver`).  The points asserted are the
ordinary game's table (S1): bezique 40, royal marriage 40, marriage 20, each brisque
10, the last trick 10.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect, sync_playwright
from starlette.testclient import TestClient
from webserver import WebServer

from bezique.sheet import MAX_ENTRIES, Sheet, sheet_csv
from bezique.web.app import make_app
from bezique.web.store import MIGRATIONS, SCHEMA_VERSION, Store


def new_sheet(client: TestClient, **body: Any) -> tuple[str, str]:
    """A sheet of Ann and Bob (ordinary unless said); its id and edit token."""
    answer = client.post("/api/sheets", json={"players": ["Ann", "Bob"], **body})
    assert answer.status_code == 200, answer.text
    made = answer.json()
    assert made["url"] == f"/sheet/{made['id']}#{made['token']}"
    return made["id"], made["token"]


def enter(client: TestClient, sheet: str, token: str, entry: dict[str, Any]) -> Any:
    return client.post(f"/api/sheets/{sheet}/entries", json=entry, headers={"X-Sheet-Token": token})


def stored(db: str, sheet: str) -> tuple[dict[str, Any], str]:
    store = Store(db)
    try:
        found = store.sheet(sheet)
    finally:
        store.close()
    assert found is not None
    return found


FIRST_HAND: list[dict[str, Any]] = [
    {"kind": "trumps", "suit": "H"},
    {"player": 0, "name": "bezique", "cards": ["QS", "JD"]},
    {"player": 1, "name": "royal marriage", "cards": ["KH", "QH"]},
    {"player": 1, "name": "marriage"},
    {"kind": "stock_gone"},
    {"player": 0, "name": "brisques", "count": 7},
    {"player": 1, "name": "brisques", "count": 9},
    {"player": 1, "name": "last trick"},
    {"kind": "hand_end"},
]
"""A hand entered as a phone enters it: Ann 40 + 70, Bob 40 + 20 + 90 + 10."""


def test_a_sheet_is_made_and_its_entries_total_by_the_table(client: TestClient, db: str) -> None:
    sheet, token = new_sheet(client, variant="ordinary", first_dealer=1)
    for entry in FIRST_HAND:
        answer = enter(client, sheet, token, entry)
        assert answer.status_code == 200, answer.text
    view = client.get(f"/api/sheets/{sheet}").json()
    assert view["scores"] == [110, 160]
    assert view["hands"] == [[110, 160], [0, 0]]
    assert [e["points"] for e in view["entries"]] == [0, 40, 40, 20, 0, 70, 90, 10, 0]
    assert view["entries"][1]["words"] == "Ann bezique QS JD"
    # what each scored, said as the terminal's sheet says it: the page shows these words
    assert [e["said"] for e in view["entries"][:3]] == ["", " +40", " +40"]
    assert view["over"] is False and view["first_dealer"] == 1
    # the checks that ran: the cards were checked for the bezique, not for the bare marriage
    assert any("form the combination" in c for c in view["entries"][1]["checks"])
    assert view["entries"][3]["checks"][-1].startswith("not made without the cards")
    # the page's choices: the variant's names with their points, from the library
    names = {n["name"]: n["points"] for n in view["names"]}
    assert names["bezique"] == 40 and names["double bezique"] == 500
    # what the store holds is the sheet file: no totals, the token only as its hash
    data, hashed = stored(db, sheet)
    assert "scores" not in data and token not in hashed
    assert Sheet.from_json(data).tally().scores == [110, 160]


def test_a_refusal_says_the_rule_and_changes_nothing(client: TestClient, db: str) -> None:
    sheet, token = new_sheet(client)
    for entry in FIRST_HAND[:6]:
        assert enter(client, sheet, token, entry).status_code == 200
    before = stored(db, sheet)
    late = enter(client, sheet, token, {"player": 0, "name": "four aces"})
    assert late.status_code == 400
    assert late.json() == {
        "error": "entry 6: four aces after the stock is gone: the end-game is played "
        "without declarations"
    }
    wrong = client.post(
        f"/api/sheets/{sheet}/fix/1",
        json={"player": 0, "name": "bezique", "cards": ["QS", "JS"]},
        headers={"X-Sheet-Token": token},
    )
    assert wrong.status_code == 400 and "do not form bezique" in wrong.json()["error"]
    unknown = enter(client, sheet, token, {"player": 0, "name": "trick"})
    assert unknown.status_code == 400 and "has no score called 'trick'" in unknown.json()["error"]
    shape = enter(client, sheet, token, {"player": 0, "name": "brisques", "count": -1})
    assert shape.status_code == 400 and shape.json()["error"].startswith("count:")
    fix = client.post(
        f"/api/sheets/{sheet}/fix/5",
        json={"player": 0, "name": "four aces"},
        headers={"X-Sheet-Token": token},
    )
    assert fix.status_code == 400  # the brisques made four aces: after the stock is gone
    assert "after the stock is gone" in fix.json()["error"]
    assert stored(db, sheet) == before
    assert client.get(f"/api/sheets/{sheet}").json()["scores"] == [110, 60]


def test_undo_and_fix_are_stored_and_retotalled(client: TestClient, db: str) -> None:
    sheet, token = new_sheet(client)
    headers = {"X-Sheet-Token": token}
    for entry in FIRST_HAND[:4]:
        assert enter(client, sheet, token, entry).status_code == 200
    fixed = client.post(
        f"/api/sheets/{sheet}/fix/3", json={"player": 0, "name": "sequence"}, headers=headers
    )
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["scores"] == [290, 40]
    undone = client.post(f"/api/sheets/{sheet}/undo", json={}, headers=headers)
    assert undone.json()["scores"] == [40, 40]
    assert len(stored(db, sheet)[0]["entries"]) == 3


def test_only_the_token_edits_and_unknown_sheets_are_404(client: TestClient, db: str) -> None:
    sheet, token = new_sheet(client)
    entry = {"player": 0, "name": "bezique"}
    wrong_last = "y" if token.endswith("x") else "x"
    assert enter(client, sheet, token[:-1] + wrong_last, entry).status_code == 403
    assert enter(client, sheet, "", entry).status_code == 403
    assert client.post(f"/api/sheets/{sheet}/undo", json={}).status_code == 403
    assert stored(db, sheet)[0]["entries"] == []
    missing = client.get("/api/sheets/0000")
    assert missing.status_code == 404 and "no sheet" in missing.json()["error"]
    assert enter(client, "0000", token, entry).status_code == 404


def test_a_full_sheet_takes_no_more(client: TestClient, db: str) -> None:
    sheet, token = new_sheet(client)
    data = stored(db, sheet)[0]
    store = Store(db)
    try:
        store.set_sheet(sheet, {**data, "entries": [{"kind": "stock_gone"}] * MAX_ENTRIES})
    finally:
        store.close()
    full = enter(client, sheet, token, {"kind": "hand_end"})
    assert full.status_code == 400 and "at most 5000 entries" in full.json()["error"]
    assert len(stored(db, sheet)[0]["entries"]) == MAX_ENTRIES


def test_a_new_sheet_is_checked(client: TestClient) -> None:
    three = client.post("/api/sheets", json={"variant": "ordinary", "players": ["A", "B", "C"]})
    assert three.status_code == 400
    assert three.json()["error"] == "players: 3 named, but ordinary is played by 2"
    path = client.post("/api/sheets", json={"variant": "/etc/passwd", "players": ["A", "B"]})
    assert path.status_code == 400 and "never a file's" in path.json()["error"]
    dealer = client.post("/api/sheets", json={"players": ["A", "B"], "first_dealer": 2})
    assert dealer.status_code == 400 and dealer.json()["error"].startswith("first_dealer")


def test_house_rules_pasted_are_kept_as_overrides(client: TestClient) -> None:
    house = "extends: ordinary\nname: ours\ngame:\n  target: 300\n"
    sheet, token = new_sheet(client, house=house)
    view = client.get(f"/api/sheets/{sheet}").json()
    assert view["variant"] == "ordinary" and view["overrides"]["game"]["target"] == 300
    for entry in [
        {"player": 0, "name": "sequence"},
        {"player": 0, "name": "bezique"},
        {"player": 0, "name": "marriage"},
    ]:
        assert enter(client, sheet, token, entry).status_code == 200
    view = client.get(f"/api/sheets/{sheet}").json()
    assert view["scores"] == [310, 0]
    assert view["over"] is True and view["winner"] == "Ann"


def test_downloads_are_the_librarys(client: TestClient) -> None:
    sheet, token = new_sheet(client)
    for entry in FIRST_HAND:
        assert enter(client, sheet, token, entry).status_code == 200
    got = client.get(f"/api/sheets/{sheet}/download/json")
    kept = Sheet.from_json(got.json())
    assert kept.tally().scores == [110, 160]
    assert "attachment" in got.headers["content-disposition"]
    csv = client.get(f"/api/sheets/{sheet}/download/csv").text
    assert csv == sheet_csv(kept)
    assert csv.splitlines()[1] == "1,110,160,110,160"
    printable = client.get(f"/api/sheets/{sheet}/download/html")
    assert printable.headers["content-type"].startswith("text/html")
    assert "<td>110</td>" in printable.text
    assert client.get(f"/api/sheets/{sheet}/download/pdf").status_code == 404


def test_a_restarted_server_keeps_the_sheet(db: str) -> None:
    with TestClient(make_app(db, workers=1)) as first:
        sheet, token = new_sheet(first)
        for entry in FIRST_HAND[:3]:
            assert enter(first, sheet, token, entry).status_code == 200
    with TestClient(make_app(db, workers=1)) as second:
        assert second.get(f"/api/sheets/{sheet}").json()["scores"] == [40, 40]
        assert enter(second, sheet, token, {"player": 0, "name": "marriage"}).status_code == 200
        assert second.get(f"/api/sheets/{sheet}").json()["scores"] == [60, 40]


def test_an_older_store_gains_the_sheets_table(db: str) -> None:
    with sqlite3.connect(db) as old:
        old.executescript(f"{MIGRATIONS[0]} PRAGMA user_version=1;")
    store = Store(db)
    try:
        store.add_sheet("s1", {"format": "x"}, "hash")
        assert store.sheet("s1") == ({"format": "x"}, "hash")
    finally:
        store.close()
    with sqlite3.connect(db) as again:
        assert again.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def on_a_phone(tmp_path: Path, taps: Callable[[Page, WebServer], None]) -> None:
    """Start the server on a fresh store and run ``taps`` on a 375-pixel page of Chromium."""
    server = WebServer(tmp_path / "tables.sqlite").start()
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(
                executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                args=["--no-sandbox"],
            )
            try:
                taps(browser.new_page(viewport={"width": 375, "height": 740}), server)
            finally:
                browser.close()
    finally:
        server.stop()


@pytest.mark.slow
def test_the_sheet_page_on_a_phone(tmp_path: Path) -> None:
    """A sheet made, scores entered, fixed and undone by taps on a 375-pixel page; totals read."""
    on_a_phone(tmp_path, phone_sheet)


def start_ann_and_bob(page: Page, server: WebServer) -> None:
    """Start a sheet of ordinary bezique for Ann and Bob by taps on the page /sheet."""
    page.goto(server.origin + "/sheet")
    page.wait_for_selector("#variant option", state="attached")
    page.select_option("#variant", "ordinary")
    page.fill('[data-name="0"]', "Ann")
    page.fill('[data-name="1"]', "Bob")
    page.click("#create")


def phone_sheet(page: Page, server: WebServer) -> None:
    # the variants as the lobby lists them: each told apart, in a player's words
    page.goto(server.origin + "/sheet")
    page.wait_for_selector("#variant option", state="attached")
    shown = page.locator("#variant option").all_inner_texts()
    assert len(set(shown)) == len(shown) == len(server.get("/api/variants"))
    assert "Ordinary bezique with carte blanche" in shown
    page.select_option("#variant", "eb1875")
    said = page.inner_text("#summary")
    assert said.startswith("Two-hand game - several declarations a trick, swapped bezique cards")
    start_ann_and_bob(page, server)
    page.wait_for_selector("#entry-form:not([hidden])")
    assert "#" in page.url
    page.select_option("#player", label="Ann")
    page.select_option("#name", label="bezique (40)")
    page.fill("#cards", "qs jd")
    page.click("#enter")
    page.wait_for_selector('[data-entry="0"]')
    page.select_option("#player", label="Bob")
    page.click("#brisques")
    page.fill("#count", "3")
    page.click("#enter")
    page.wait_for_selector('[data-entry="1"]')
    page.click("#last-trick")
    page.wait_for_selector('[data-entry="2"]')
    page.select_option("#name", label="four aces (100)")
    page.click("#stock-gone")
    page.wait_for_selector('[data-entry="3"]')
    page.click("#enter")
    page.wait_for_selector("#status.refused")
    assert "after the stock is gone" in page.inner_text("#status")
    totals = [page.inner_text(f'[data-side="{n}"] strong') for n in range(2)]
    assert totals == ["40", "40"]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} pixels wide on a 375-pixel phone"
    sheet_id = page.url.split("/sheet/")[1].split("#")[0]
    assert server.get(f"/api/sheets/{sheet_id}")["scores"] == [40, 40]
    # the bezique was a marriage after all: fixed, and the stock gone undone
    page.click('[aria-label="fix entry 0"]')
    page.select_option("#name", label="marriage (20)")
    page.fill("#cards", "")
    page.click("#enter")
    expect(page.locator('[data-side="0"] strong')).to_have_text("20")
    page.click("#undo")
    page.wait_for_selector('[data-entry="3"]', state="detached")
    assert server.get(f"/api/sheets/{sheet_id}")["scores"] == [20, 40]
    # the link without its token shows the sheet and offers no change
    page.goto(f"{server.origin}/sheet/{sheet_id}")
    page.wait_for_selector('[data-entry="2"]')
    assert page.is_hidden("#entry-form")
    assert page.locator("#entries button").count() == 0


def test_a_penalty_is_offered_from_the_variants_table_and_entered_as_the_terminal_does(
    client: TestClient, db: str
) -> None:
    # S0's table: 20 for drawing out of turn or playing with seven cards, 200 for
    # nine; the player not at fault adds them to his score or takes them off the
    # offender's
    sheet, token = new_sheet(client)
    view = client.get(f"/api/sheets/{sheet}").json()
    assert view["penalties"] == [
        {
            "name": "drew out of turn",
            "words": "drawing out of turn",
            "points": 20,
            "options": ["add", "deduct"],
        },
        {
            "name": "played with seven",
            "words": "playing with seven cards",
            "points": 20,
            "options": ["add", "deduct"],
        },
        {
            "name": "nine cards",
            "words": "holding nine cards",
            "points": 200,
            "options": ["add", "deduct"],
        },
    ]
    drew = {"kind": "penalty", "player": 1, "name": "drew out of turn", "option": "deduct"}
    answer = enter(client, sheet, token, drew)
    assert answer.status_code == 200, answer.text
    entry = answer.json()["entries"][0]
    assert entry["scored"] == [
        {"side": "Bob", "points": -20, "words": "penalty: drawing out of turn"}
    ]
    assert entry["words"] == "penalty on Bob for drawing out of turn"
    assert entry["said"] == ": Bob -20"
    assert answer.json()["scores"] == [0, -20]
    # the file holds what the terminal's `penalty Bob drew out of turn deduct` holds
    assert stored(db, sheet)[0]["entries"] == [
        {"kind": "penalty", "player": 1, "name": "drew out of turn", "option": "deduct"}
    ]
    # S3: 10, added to the opponent only; a deduction is refused and changes nothing
    s3, s3_token = new_sheet(client, variant="cards-encyclopedia")
    offered = client.get(f"/api/sheets/{s3}").json()["penalties"]
    assert offered[0] == {
        "name": "drew out of turn",
        "words": "drawing out of turn",
        "points": 10,
        "options": ["add"],
    }
    refused = enter(client, s3, s3_token, {**drew, "player": 0})
    assert refused.status_code == 400
    assert "say how it is claimed, add (penalties.award)" in refused.json()["error"]
    assert client.get(f"/api/sheets/{s3}").json()["entries"] == []
    # partners: the claimant named, of the other side
    four = client.post(
        "/api/sheets", json={"players": ["A", "B", "C", "D"], "variant": "four-hand-partners"}
    ).json()
    partner = {**drew, "player": 0, "option": "add", "claimant": 2}
    same_side = enter(client, four["id"], four["token"], partner)
    assert same_side.status_code == 400 and "on the offender's side" in same_side.json()["error"]
    claimed = enter(client, four["id"], four["token"], {**partner, "claimant": 1})
    assert claimed.status_code == 200 and claimed.json()["scores"] == [0, 20]
    said = claimed.json()["entries"][0]["words"]
    assert said == "penalty on A for drawing out of turn, claimed by B"
    # a partner's points said by the player who claimed them, not by the side
    assert claimed.json()["entries"][0]["said"] == ": B +20"


def test_a_penalty_is_fixed_as_a_score_is(client: TestClient, db: str) -> None:
    # S0's 20 for drawing out of turn, taken off Bob; fixed to be added to Ann's score,
    # then a fix the table refuses (S0 has no such irregularity) changes nothing
    sheet, token = new_sheet(client)
    headers = {"X-Sheet-Token": token}
    drew = {"kind": "penalty", "player": 1, "name": "drew out of turn", "option": "deduct"}
    assert enter(client, sheet, token, drew).json()["scores"] == [0, -20]
    fixed = client.post(
        f"/api/sheets/{sheet}/fix/0", json={**drew, "option": "add"}, headers=headers
    )
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["scores"] == [20, 0]
    assert fixed.json()["entries"][0]["words"] == "penalty on Bob for drawing out of turn"
    assert stored(db, sheet)[0]["entries"] == [{**drew, "option": "add"}]
    bad = {**drew, "name": "revoked"}
    refused = client.post(f"/api/sheets/{sheet}/fix/0", json=bad, headers=headers)
    assert refused.status_code == 400
    assert client.get(f"/api/sheets/{sheet}").json()["scores"] == [20, 0]


def test_the_cards_shown_are_asked_for_in_a_players_words(tmp_path: Path) -> None:
    """The notation typed is shown beside the cards it stands for, as the page draws them."""
    on_a_phone(tmp_path, cards_hint)


def cards_hint(page: Page, server: WebServer) -> None:
    start_ann_and_bob(page, server)
    page.wait_for_selector("#entry-form:not([hidden])")
    page.select_option("#name", label="bezique (40)")
    hint = page.inner_text("#cards-box").strip()
    assert hint == "Cards shown (optional, typed as QS JD for Q♠ J♦)"


def test_a_penalty_entered_by_taps_on_the_phone(tmp_path: Path) -> None:
    """Bob drew out of turn: Ann takes 20 off his score; he held nine cards: Ann adds 200."""
    on_a_phone(tmp_path, phone_penalties)


def phone_penalties(page: Page, server: WebServer) -> None:
    start_ann_and_bob(page, server)
    page.wait_for_selector("#penalty-box:not([hidden])")
    assert page.is_hidden("#claimant-box")  # two players: the other claims it
    page.select_option("#offender", label="Bob")
    # the irregularities in a player's words (the referee's), with their points
    offered = page.locator("#penalty option").all_inner_texts()
    assert offered == [
        "drawing out of turn (20)",
        "playing with seven cards (20)",
        "holding nine cards (200)",
    ]
    page.select_option("#penalty", label="drawing out of turn (20)")
    page.select_option("#option", label="taken off the offender's score")
    page.click("#enter-penalty")
    page.wait_for_selector('[data-entry="0"]')
    expect(page.locator('[data-side="1"] strong')).to_have_text("-20")
    page.select_option("#penalty", label="holding nine cards (200)")
    page.select_option("#option", label="added to the injured player's score")
    page.click("#enter-penalty")
    page.wait_for_selector('[data-entry="1"]')
    expect(page.locator('[data-side="0"] strong')).to_have_text("200")
    # said once, as a player says it: who, what he did, who scored what
    said = page.inner_text('[data-entry="1"] > span')
    assert said == "hand 1: penalty on Bob for holding nine cards: Ann +200"
    sheet_id = page.url.split("/sheet/")[1].split("#")[0]
    assert server.get(f"/api/sheets/{sheet_id}")["scores"] == [200, -20]
    # the first was added to Ann's score after all: fixed by its button
    page.click('[aria-label="fix entry 0"]')
    assert page.input_value("#penalty") == "0" and page.input_value("#offender") == "1"
    page.select_option("#option", label="added to the injured player's score")
    page.click("#enter-penalty")
    expect(page.locator('[data-side="0"] strong')).to_have_text("220")
    expect(page.locator('[data-side="1"] strong')).to_have_text("0")
    assert server.get(f"/api/sheets/{sheet_id}")["scores"] == [220, 0]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} pixels wide on a 375-pixel phone"

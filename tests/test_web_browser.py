"""The table in a real browser: ``bezique serve`` driven by clicks in headless Chromium.

Each test starts nothing but the real server (:mod:`webserver`, a subprocess on
127.0.0.1 with a store of its own) and the operating system's Chromium through
Playwright, and plays as a person plays: the lobby filled in, cards and buttons
clicked, moves typed.  What the page shows is checked against what the server's game
says: the store's actions replayed, the downloaded record replayed.

Chromium is the system's (Debian's package ``chromium``; ``.ci/run`` installs it):
without it these tests fail, saying so.  ``BEZIQUE_SCREENSHOTS=DIR`` writes the
screenshots the tests take into DIR (the README's and the site's are ``docs/screenshots``).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    ViewportSize,
    sync_playwright,
)
from webserver import WebServer
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bezique.actions import Kind
from bezique.game import GameState, new_game, ruleset_for
from bezique.players import decide, player_for
from bezique.records.record import hand_summaries, record_of, replay
from bezique.rulebook import rule_lines

QUICK_HOUSE = "extends: {parent}\nname: quick\ngame:\n  target: 100\n  check: hand_end\n"
"""House rules pasted into the lobby: the game is over at the end of the first hand in
which a side reaches 100, so one hand is one game."""
SEED = 7
"""The deal every test plays (the bots' chance is fixed by it too)."""
WAIT = 20.0
"""How long a page may take to show what it was sent (seconds)."""
PHONE: ViewportSize = {"width": 375, "height": 740}
TALL_PHONE: ViewportSize = {"width": 390, "height": 844}
TAP = 40
"""The least height of a control a finger taps (pixels)."""
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


def chromium_path() -> str:
    """The system's Chromium; the test fails, saying how to install it, without one."""
    found = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(found, os.X_OK):
        pytest.fail(
            "the browser tests need Chromium: apt-get install chromium "
            "(Debian's package; .ci/run installs it)"
        )
    return found


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
    yield launched
    launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    running = WebServer(tmp_path_factory.mktemp("web") / "tables.sqlite").start()
    yield running
    running.stop()


class Dialogs:
    """Every dialog (alert, confirm) a page opened: none is expected, ever."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    def watch(self, page: Page) -> None:
        def opened(dialog: Any) -> None:
            self.opened.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", opened)


@pytest.fixture
def dialogs() -> Iterator[Dialogs]:
    watching = Dialogs()
    yield watching
    assert not watching.opened, f"a page opened a dialog: {watching.opened}"


@pytest.fixture
def context(browser: Browser, dialogs: Dialogs) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    made.on("page", dialogs.watch)
    yield made
    made.close()


class Seat:
    """A page at a table: its socket's messages collected, its moves clicked."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.frames: list[str] = []
        self.clicked = 0
        """How many moves were clicked (:meth:`play_until_over`)."""
        page.on("websocket", lambda ws: ws.on("framereceived", self._received))

    def _received(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def views(self) -> list[dict[str, Any]]:
        """Every view of the table the page was sent, in order."""
        messages = [json.loads(frame) for frame in self.frames]
        return [m for m in messages if m.get("kind") == "view"]

    def view(self) -> dict[str, Any]:
        """The last view sent."""
        views = self.views()
        assert views, "the page was sent no view of its table"
        return views[-1]

    def wait(self, until: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        """Let the page run until ``until()`` holds; fail saying ``what`` did not happen."""
        deadline = time.monotonic() + timeout
        while not until():
            if time.monotonic() > deadline:
                pytest.fail(f"{what}: not within {timeout}s; status {self.status()!r}")
            self.page.wait_for_timeout(20)

    def has_view(self) -> bool:
        return bool(self.views())

    def wait_past(self, moves: int) -> None:
        """Wait for a view after ``moves`` moves."""
        self.wait(lambda: self.view()["moves"] > moves, f"a view after move {moves}")

    def status(self) -> str:
        return self.page.inner_text("#status")

    def settled(self) -> bool:
        """The last view is this seat's move (no bot thinking), or the game is over."""
        views = self.views()
        if not views:
            return False
        last = views[-1]
        return bool(last["over"]) or (last["to_act"] == last["seat"] and last["thinking"] < 0)

    def wait_for_move(self, after: int = -1) -> dict[str, Any]:
        """Wait for the seat's move (or the game's end) after ``after`` moves; the view."""
        self.wait(
            lambda: self.settled() and self.view()["moves"] > after,
            f"the seat's move after move {after}",
        )
        over = self.view()["over"]
        shown = "The game is over" if over else "Your move"
        self.wait(lambda: self.status().startswith(shown), f"the status {shown!r}")
        return self.view()

    def click_a_move(self, twice: bool = False) -> None:
        """Click a legal card, else a declaration, else the first other action.

        ``twice``: the button clicked twice at once, as an impatient player's double
        click on a slow line does before the page is sent the next view.
        """
        cards = self.page.locator("button.card.legal")
        actions = self.page.locator("#actions button")
        declare = self.page.locator('#actions button[data-action^="declare"]')
        if cards.count():
            button = cards.first
        else:
            assert actions.count(), f"no move to click: {self.status()!r}"
            button = declare.first if declare.count() else actions.first
        if twice:
            button.evaluate("button => { button.click(); button.click(); }")
        else:
            button.click()

    def play_until_over(self, max_moves: int = 400, twice: bool = False) -> dict[str, Any]:
        """Click moves until the game is over; the last view."""
        view = self.wait_for_move()
        for _ in range(max_moves):
            if view["over"]:
                return view
            self.click_a_move(twice)
            self.clicked += 1
            view = self.wait_for_move(view["moves"])
        pytest.fail(f"the game was not over after {max_moves} moves")

    def hand(self) -> list[str]:
        """The cards of the hand the page shows."""
        return [
            str(c)
            for c in self.page.locator("#hand [data-card]").evaluate_all(
                "nodes => nodes.map(n => n.dataset.card)"
            )
        ]

    def sheet(self) -> list[list[str]]:
        """The score sheet's rows as shown: side, this hand, game."""
        rows = self.page.locator("#sheet tr").evaluate_all(
            "rows => rows.slice(1).map(r => Array.from(r.cells, c => c.textContent))"
        )
        return [[str(cell) for cell in row] for row in rows]

    def game_scores(self) -> list[int]:
        """The game's scores the sheet shows, by side."""
        return [int(row[2]) for row in self.sheet()]


def open_lobby(page: Page, server: WebServer) -> None:
    page.goto(server.origin + "/")
    page.wait_for_selector("#variant option", state="attached")


def sit_down(
    page: Page, server: WebServer, variant: str, seats: list[str], house: str = ""
) -> None:
    """Fill the lobby in (variant, house rules, the seats' choices, the seed) and start."""
    open_lobby(page, server)
    page.select_option("#variant", variant)
    if house:
        page.click("#house-box summary")
        page.fill("#house", house)
    for number, kind in enumerate(seats):
        page.select_option(f'select[data-seat="{number}"]', kind)
    page.fill("#seed", str(SEED))
    page.click("#start")


def replayed(server: WebServer, table_id: str, upto: int | None = None) -> GameState:
    """The table's game as its store holds it: the setup's game, the actions replayed
    (the first ``upto`` of them, if given)."""
    setup, actions = server.stored(table_id)
    state = new_game(
        setup["variant"],
        overrides=setup["overrides"],
        seed=setup["seed"],
        decks=setup["decks"] or None,
        first_dealer=setup["first_dealer"],
    )
    for text in actions[:upto]:
        state.apply(text)
    return state


def moves_of(server: WebServer, table_id: str, seat: int) -> int:
    """How many of the table's stored actions the seat took."""
    state = replayed(server, table_id, upto=0)
    taken = 0
    for text in server.stored(table_id)[1]:
        taken += state.to_act == seat
        state.apply(text)
    return taken


def table_id_of(page: Page) -> str:
    return page.url.split("/table/")[1].split("#")[0]


def screenshot(page: Page, name: str, tmp_path: Path) -> Path:
    """A screenshot of the page, into ``BEZIQUE_SCREENSHOTS`` if set (else ``tmp_path``)."""
    folder = Path(os.environ.get("BEZIQUE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    page.screenshot(path=str(path), full_page=name.endswith("desktop.png"))
    assert path.stat().st_size > 1000
    return path


# --------------------------------------------------------------------------- whole games


@pytest.mark.slow
def test_an_ordinary_game_played_by_clicks_to_its_end(context, server, tmp_path):
    page = context.new_page()
    seat = Seat(page)
    sit_down(
        page, server, "ordinary", ["you", "bot:heuristic"], QUICK_HOUSE.format(parent="ordinary")
    )
    page.wait_for_url("**/table/**")
    last = seat.play_until_over(twice=True)
    # the whole hand was played: the stock drawn to the end and every card played
    seen = last["observation"]
    assert seen["stock"] == 0 and seen["hand_sizes"] == [0, 0]
    assert any("last trick" in e["why"] for e in last["scores"]["events"])
    page.wait_for_selector("#over", state="visible")
    truth = replayed(server, table_id_of(page))
    assert truth.is_over()
    assert seat.game_scores() == list(truth.scores)
    assert last["moves"] == len(truth.history)
    # every move double-clicked, and each taken once: the second click is not sent
    assert moves_of(server, table_id_of(page), 0) == seat.clicked
    # the record the page downloads replays to the scores it showed
    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(Path(download.value.path()).read_text())
    again = replay(record, "downloaded record")
    assert again.is_over() and list(again.scores) == seat.game_scores()
    assert record["actions"] == server.stored(table_id_of(page))[1]
    winner = truth.winner
    assert seat.status().startswith("The game is over")
    assert record["headers"]["players"][winner] in seat.status()


@pytest.mark.slow
def test_a_three_hand_game_played_by_clicks_against_two_bots(context, server):
    page = context.new_page()
    seat = Seat(page)
    sit_down(
        page,
        server,
        "three-hand",
        ["you", "bot:heuristic", "bot:random"],
        QUICK_HOUSE.format(parent="three-hand"),
    )
    page.wait_for_url("**/table/**")
    first = seat.wait_for_move()
    assert len(first["names"]) == 3
    assert page.locator("#others .seat").count() == 2
    last = seat.play_until_over()
    assert last["observation"]["stock"] == 0 and last["observation"]["hand_sizes"] == [0, 0, 0]
    truth = replayed(server, table_id_of(page))
    assert truth.is_over() and seat.game_scores() == list(truth.scores)
    assert len(seat.sheet()) == 3
    page.wait_for_selector("#over", state="visible")


# --------------------------------------------------------------------------- the review


def in_text(words: str) -> str:
    """A line as the page writes it: every card token with its suit's symbol (no mark)."""
    return re.sub(r"\b([AKQJT2-9][SHDC])\b[*@]?", lambda m: as_text(m.group(1)), words)


def test_the_review_is_told_in_the_past_by_hand_and_trick(context, server):
    """Asked at the game's end, the review clears the status when it comes, and tells
    each move as the log counts them (the hand, the trick) and in the past tense."""
    record, _ = bots_until("ordinary", lambda state: True)
    last = len(record["actions"]) - 1
    page = context.new_page()
    seat = seated_at(page, server, record, last)
    seat.click_a_move()
    seat.wait_for_move(last)
    page.wait_for_selector("#over", state="visible")
    over = seat.status()
    page.click("#review")
    page.wait_for_selector("#review-list li")
    messages = [json.loads(frame) for frame in seat.frames]
    items = next(m["items"] for m in messages if m.get("kind") == "review")
    assert items, "the heuristic's game differs from the search bot's somewhere"
    # the status said the review was under way; once it has come, it says the game again
    seat.wait(lambda: seat.status() == over, "the status cleared after the review")
    shown = page.locator("#review-list li").all_inner_texts()
    first = items[0]
    when = first["when"]
    assert shown[0] == in_text(
        f"{when[0].upper()}{when[1:]}: you {first['played_words']}; the bot would have "
        f"chosen to {first['bot_words']} (about {first['cost']:.0f} points better, "
        f"±{first['error']:.0f})"
    )
    assert shown[0].split(": you ")[1].startswith("played ")
    # the move is where the words say: its hand, its trick of the hand counted from 1
    position = replayed(server, table_id_of(page), upto=first["index"])
    won = sum(trick.hand == position.hand_no for trick in position.tricks)
    hand = position.hand_no + 1
    assert when in (f"hand {hand}, trick {won + 1}", f"hand {hand}, after trick {won}")
    assert position.action_text(position.parse_action(first["played"])) == first["played"]


# --------------------------------------------------------------------------- two friends

CARD = re.compile(r"\b[AKQJT2-9][SHDC]\b")


def tokens_in(frames: list[str]) -> set[str]:
    """Every card token anywhere in the messages."""
    return {token for frame in frames for token in CARD.findall(frame)}


def shown_cards(page: Page) -> str:
    """What the page shows of cards: every data-card, and its text (cards as 'Q♠')."""
    cards = page.locator("[data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.card)")
    return " ".join(str(c) for c in cards) + "\n" + page.inner_text("body")


def as_text(token: str) -> str:
    """A card as the page writes it in running text: 'TH' -> '10♥'."""
    rank = {"T": "10"}.get(token[0], token[0])
    return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[token[1]]


def kept_from(seat: Seat, other: Seat) -> set[str]:
    """The cards ``other`` held all along that ``seat`` never held nor saw shown.

    Shown: led or played to a trick, named in the log, declared, turned up.
    """
    held = [{item["card"] for item in view["hand"]} for view in other.views()]
    mine = {item["card"] for view in seat.views() for item in view["hand"]}
    shown = [
        json.dumps([v["observation"]["trick"], v["log"], v["table_cards"], v["last_trick"]])
        + str(v["observation"]["turn_up"])
        for v in seat.views()
    ]
    return set.intersection(*held) - mine - tokens_in(shown)


def test_two_friends_at_one_table_each_see_only_their_own_hand(browser, server, dialogs):
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    try:
        pages = [made.new_page() for made in contexts]
        for page in pages:
            dialogs.watch(page)
        host, guest = (Seat(page) for page in pages)
        sit_down(pages[0], server, "ordinary", ["you", "friend"])
        link = pages[0].locator("#links input").input_value()
        assert link.startswith(server.origin + "/table/")
        pages[0].click("#links a")
        pages[1].goto(link)
        for seat in (host, guest):
            seat.wait(seat.has_view, "the first view")
        assert (host.view()["seat"], guest.view()["seat"]) == (0, 1)
        # a few tricks, each seat clicking when it is its move
        seats = {0: host, 1: guest}
        for _ in range(8):
            mover = seats[host.view()["to_act"]]
            other = seats[1 - mover.view()["seat"]]
            moves = mover.view()["moves"]
            mover.click_a_move()
            for seat in (mover, other):
                seat.wait_past(moves)
            played = mover.view()["observation"]["trick"]
            if played:  # the card led shows on the other's page
                token = played[-1][1]
                other.page.wait_for_selector(f'#trick [data-card="{token}"]')
        for seat, other in ((host, guest), (guest, host)):
            secret = kept_from(seat, other)
            assert len(secret) >= 3, secret
            leaked = secret & tokens_in(seat.frames)
            assert not leaked, f"seat {seat.view()['seat']} was sent the other's {leaked}"
            shown = shown_cards(seat.page)
            for token in secret:
                assert token not in shown.split() and as_text(token) not in shown, token
    finally:
        for made in contexts:
            made.close()


# --------------------------------------------------------------------------- resuming


@pytest.mark.slow
def test_a_reload_and_a_killed_server_resume_the_game_unchanged(browser, tmp_path, dialogs):
    server = WebServer(tmp_path / "tables.sqlite").start()
    made = browser.new_context(viewport=DESKTOP)
    try:
        page = made.new_page()
        dialogs.watch(page)
        seat = Seat(page)
        sit_down(page, server, "ordinary", ["you", "bot:heuristic"])
        view = seat.wait_for_move()
        for _ in range(6):
            seat.click_a_move()
            view = seat.wait_for_move(view["moves"])

        def shown() -> tuple[Any, ...]:
            return seat.hand(), seat.sheet(), page.inner_text("#log"), page.inner_text("#stock")

        before, moves, heard = shown(), view["moves"], len(seat.views())
        page.reload()
        seat.wait(lambda: len(seat.views()) > heard, "a view after the reload")
        seat.wait_for_move(moves - 1)
        assert shown() == before and seat.view()["moves"] == moves
        heard = len(seat.views())
        server.kill()
        seat.wait(lambda: "reconnecting" in seat.status(), "the page seeing the server gone")
        server.start()
        seat.wait(lambda: len(seat.views()) > heard, "the page reconnected", timeout=30)
        seat.wait_for_move(moves - 1)
        assert shown() == before and seat.view()["moves"] == moves
        assert len(replayed(server, table_id_of(page)).history) == moves
        seat.click_a_move()  # and the game goes on
        assert seat.wait_for_move(moves)["moves"] > moves
    finally:
        made.close()
        server.stop()


# --------------------------------------------------------------------------- refusals


@pytest.mark.slow
def test_an_illegal_move_typed_is_refused_in_the_rules_words(context, server):
    page = context.new_page()
    seat = Seat(page)
    sit_down(page, server, "ordinary", ["you", "bot:heuristic"])
    view = seat.wait_for_move()
    hand = seat.hand()
    absent = next(f"{r}{s}" for s in "SHDC" for r in "AKQJT987" if f"{r}{s}" not in hand)
    page.fill("#entry", f"play {absent}")
    page.press("#entry", "Enter")
    page.wait_for_selector("#status.refused")
    said = seat.status()
    # the rule's words in brackets, then what is wrong with this move
    assert re.match(r"refused \(a player plays only a card he holds\): ", said), said
    assert as_text(absent) in said, said
    time.sleep(0.3)  # room for a wrongly accepted move to show
    assert seat.view()["moves"] == view["moves"] and seat.hand() == hand
    assert len(server.stored(table_id_of(page))[1]) == view["moves"]
    # a move of the right form is taken after it
    seat.click_a_move()
    assert seat.wait_for_move(view["moves"])["moves"] > view["moves"]


# --------------------------------------------------------------------------- nothing outside


def finished_record() -> dict[str, Any]:
    """A whole game of quick ordinary rules between two bots, as its record."""
    state = new_game(
        "ordinary", overrides={"game": {"target": 100, "check": "hand_end"}}, seed=SEED
    )
    bot, chance = player_for("heuristic"), random.Random(SEED)
    while not state.is_over():
        state.apply(decide(bot, state, chance))
    return record_of(state, {"players": ["north", "south"]})


@pytest.mark.slow
def test_the_pages_request_nothing_from_outside_the_server(context, server):
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.on("websocket", lambda ws: asked.append(ws.url))
    seat = Seat(page)
    sit_down(page, server, "ordinary", ["you", "bot:heuristic"])
    view = seat.wait_for_move()
    seat.click_a_move()
    seat.wait_for_move(view["moves"])
    page.goto(server.origin + f"/tables/{view['table']}/rules")
    page.goto(server.origin + "/rules/three-hand")
    open_lobby(page, server)
    text = json.dumps(finished_record()).encode()
    page.set_input_files(
        "#record-file", {"name": "game.json", "mimeType": "application/json", "buffer": text}
    )
    page.wait_for_url("**/replay/**")
    page.wait_for_selector("#where:has-text('move 0 of')")
    for _ in range(3):
        page.click("#next")
    page.wait_for_selector("#where:has-text('move 3 of')")
    page.click("#last")
    page.wait_for_selector("#move:not(:empty)")
    host = server.origin.removeprefix("http://")
    assert any(url.startswith(f"ws://{host}/ws/") for url in asked)
    assert sum("/api/records/" in url for url in asked) >= 5
    outside = [u for u in asked if not u.startswith((server.origin + "/", f"ws://{host}/"))]
    assert not outside, f"the pages asked outside the server: {outside}"
    assert all(url.startswith(("http://", "ws://")) for url in asked)


# --------------------------------------------------------------------------- hostile input

BILLION_LAUGHS = (
    "extends: ordinary\nname: lol\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    + "".join(
        f"{x}: &{x} [{','.join(['*' + p] * 9)}]\n"
        for p, x in zip("abcdefgh", "bcdefghi", strict=True)
    )
)
"""Nine levels of nine aliases: 387 million strings were it expanded."""
DEEP = "extends: ordinary\nname: deep\ngame: " + "[" * 20000 + "]" * 20000 + "\n"
"""A value nested 20000 deep."""


def socket_exchange(server: WebServer, table: str, *messages: str) -> list[dict[str, Any]]:
    """Send ``messages`` on the table's socket; the answers, until it closes or goes quiet.

    An answer is awaited for each message (the first message's may be a view and, for
    a refused token, the socket closes after it, and the messages after it may find it
    closed); then 0.3 seconds for anything more.
    """
    answers: list[dict[str, Any]] = []
    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}", open_timeout=10) as ws:
        try:
            for message in messages:
                ws.send(message)
        except ConnectionClosed:
            pass  # refused and closed before the rest was sent: its answers are still read
        try:
            while True:
                wait = 10 if len(answers) < len(messages) else 0.3
                answers.append(json.loads(ws.recv(timeout=wait)))
        except (TimeoutError, ConnectionClosed):
            pass
    return answers


@pytest.mark.slow
def test_hostile_requests_are_refused_clearly_and_change_nothing(server):
    made = server.new_table(
        variant="ordinary", seed=SEED, seats=[{"kind": "human"}, {"kind": "human"}]
    )
    table = made["table"]
    tokens = [seat["url"].split("#")[1] for seat in made["seats"]]
    other = server.new_table(seed=SEED, seats=[{"kind": "human"}, {"kind": "human"}])
    before = server.stored_counts()
    records = server.record_count()
    refusals = {
        "malformed JSON": server.request("/api/tables", b'{"variant": "ordinary", '),
        "not an object": server.request("/api/tables", b"[1, 2]"),
        "oversized body": server.request("/api/tables", b'{"x": "' + b"a" * 310_000 + b'"}'),
        "billion laughs": server.post("/api/tables", {"house": BILLION_LAUGHS, "seats": []}),
        "nested house rules": server.post("/api/tables", {"house": DEEP, "seats": []}),
        "unknown variant": server.post("/api/tables", {"variant": "nope", "seats": []}),
        "record not JSON": server.post("/api/records", {"record": "{"}),
        "record of nothing": server.post("/api/records", {"record": "[]"}),
    }
    tampered = finished_record()
    tampered["actions"][5] = "play XX"
    refusals["record that does not replay"] = server.post(
        "/api/records", {"record": json.dumps(tampered)}
    )
    refusals["record before the end"] = server.request(
        f"/api/tables/{table}/record", headers={"X-Seat-Token": tokens[0]}
    )
    refusals["record without a token"] = server.request(f"/api/tables/{table}/record")
    for what, (status, answer) in refusals.items():
        assert status in (400, 403, 404), (what, status, answer)
        assert set(answer) == {"error"} and len(answer["error"]) > 10, (what, answer)
    assert "300 KiB" in refusals["oversized body"][1]["error"]
    assert "house.yaml" in refusals["billion laughs"][1]["error"]
    assert "house.yaml" in refusals["nested house rules"][1]["error"]
    assert "action 5" in refusals["record that does not replay"][1]["error"]

    to_act = server.stored(table)  # nobody has moved: seat 1 (not the dealer) leads
    assert to_act[1] == []
    for what, messages in {
        "no token": ['{"act": 0}'],
        "a token that is no JSON object": ['"token"'],
        "another table's token": [json.dumps({"token": other["seats"][0]["url"].split("#")[1]})],
        "a made-up token": [json.dumps({"token": "x" * 32}), '{"act": 0}'],
    }.items():
        answers = socket_exchange(server, table, *messages)
        assert [a["kind"] for a in answers] == ["error"], (what, answers)
        assert "token" in answers[0]["message"] or "JSON" in answers[0]["message"], what
    seat0 = json.dumps({"token": tokens[0]})
    seat1 = json.dumps({"token": tokens[1]})
    for who, messages in {
        "not JSON": [seat1, "{act"],
        "a message too long": [seat1, json.dumps({"act": "x" * 5000})],
        "an unknown question": [seat1, '{"ask": "cards"}'],
        "an id out of range": [seat1, '{"act": 999}'],
        "an act that is no text": [seat1, '{"act": [1]}'],
        "seat 0 moving in seat 1's turn": [seat0, '{"act": "play AS"}', '{"act": 0}'],
    }.items():
        answers = socket_exchange(server, table, *messages)
        kinds = [a["kind"] for a in answers]
        assert kinds[0] == "view" and set(kinds[1:]) == {"refused"}, (who, answers)
        assert all(len(a["message"]) > 10 for a in answers[1:]), (who, answers)
    assert server.stored_counts() == before
    assert server.record_count() == records
    assert server.stored(table)[1] == []


# --------------------------------------------------------------------------- names as text

SCRIPT = "<script>alert(1)</script>"


@pytest.mark.parametrize(("name", "shown"), [("you", "you"), ("Bea", "Bea (you)")])
def test_the_own_seat_is_marked_once_even_when_named_you(context, server, name, shown):
    page = context.new_page()
    seat = Seat(page)
    open_lobby(page, server)
    page.fill('[data-name="0"]', name)
    page.click("#start")
    seat.wait_for_move()
    assert [row[0] for row in seat.sheet()] == [shown, "steady bot"]


@pytest.mark.slow
def test_a_script_for_a_name_or_a_title_shows_as_text(context, server, dialogs):
    page = context.new_page()
    seat = Seat(page)
    house = f'extends: ordinary\nname: quick\ntitle: "{SCRIPT}"\n'
    open_lobby(page, server)
    page.fill('[data-name="0"]', SCRIPT)
    page.fill('[data-name="1"]', "<img src=x onerror=alert(2)>")
    page.click("#house-box summary")
    page.fill("#house", house)
    page.click("#start")
    seat.wait_for_move()
    assert page.inner_text("#title") == SCRIPT
    assert f"{SCRIPT} (you)" in page.inner_text("#sheet")
    assert "<img src=x onerror=alert(2)>" in page.inner_text("#others")
    assert page.locator("script").count() == 2 and page.locator("main img").count() == 0
    page.goto(server.origin + f"/tables/{seat.view()['table']}/rules")
    assert SCRIPT in page.inner_text("body")
    assert page.locator("script").count() == 0
    assert not dialogs.opened


# --------------------------------------------------------------------------- screenshots


def mid_hand(view: dict[str, Any]) -> bool:
    """A few tricks played and scored, and a card led to this seat."""
    seen = view["observation"]
    assert not view["over"], "the hand ended before the screenshot's moment"
    return seen["stock"] <= 36 and bool(view["scores"]["events"]) and bool(seen["trick"])


@pytest.mark.slow
def test_the_table_on_a_phone_and_a_desktop(browser, server, tmp_path, dialogs):
    for name, viewport in (("table-phone.png", PHONE), ("table-desktop.png", DESKTOP)):
        made = browser.new_context(
            viewport=viewport, device_scale_factor=2 if viewport is PHONE else 1
        )
        try:
            page = made.new_page()
            dialogs.watch(page)
            seat = Seat(page)
            sit_down(page, server, "ordinary", ["you", "bot:heuristic"])
            view = seat.wait_for_move()
            while not mid_hand(view):  # a few tricks in, the other's card led to this seat
                seat.click_a_move()
                view = seat.wait_for_move(view["moves"])
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{name}: the page is {width} pixels wide"
            for box in page.locator("#hand .card").evaluate_all(
                "cards => cards.map(c => c.getBoundingClientRect().right)"
            ):
                assert box <= viewport["width"], f"{name}: a card of the hand is off the screen"
            # the header's links (the rules, a new table) are tall enough for a finger
            heights = page.locator("header a").evaluate_all(
                "links => links.map(a => a.getBoundingClientRect().height)"
            )
            assert len(heights) == 2 and min(heights) >= TAP, heights
            screenshot(page, name, tmp_path)
        finally:
            made.close()


# --------------------------------------------------------------------------- cards on the table


def bots_until(variant: str, wanted: Callable[[GameState], bool]) -> tuple[dict[str, Any], int]:
    """A game of heuristic bots on the test's deal, as a record, and the first step at
    which ``wanted`` holds of it (the game up to there; the record goes on to the end)."""
    state = new_game(variant, seed=SEED)
    bot, chance = player_for("heuristic"), random.Random(SEED)
    found = -1
    while not state.is_over():
        if found < 0 and wanted(state):
            found = len(state.history)
        state.apply(decide(bot, state, chance))
    assert found >= 0, f"no position of {variant} on deal {SEED} is wanted"
    return record_of(state, {"players": ["north", "south"]}), found


def seated_at(page: Page, server: WebServer, record: dict[str, Any], step: int) -> Seat:
    """The page seated, as the player to act, at the record's position after ``step``."""
    state = replay({**record, "actions": record["actions"][:step]}, "record")
    status, made = server.post("/api/records", {"record": json.dumps(record)})
    assert status == 200, made
    seats = [
        {"kind": "human", "name": "Ann"} if n == state.to_act else {"kind": "bot"}
        for n in range(state.players)
    ]
    status, table = server.post(
        f"/api/records/{made['id']}/play-on", {"step": step, "seats": seats}
    )
    assert status == 200, table
    seat = Seat(page)
    page.goto(server.origin + table["seats"][0]["url"])
    seat.wait_for_move()
    return seat


def plays_from_the_table(state: GameState) -> bool:
    texts = [state.action_text(action) for action in state.legal_actions()]
    return any(text.startswith("play ") and text.endswith("*") for text in texts)


def test_a_declared_card_on_the_table_is_played_by_a_click(context, server):
    record, step = bots_until("ordinary", plays_from_the_table)
    page = context.new_page()
    seat = seated_at(page, server, record, step)
    legal = {a["card"] for a in seat.view()["legal"] if a["kind"] == "play"}
    lit = page.locator("#hand button.card.legal").evaluate_all(
        "cards => cards.map(c => c.dataset.token)"
    )
    assert set(lit) == legal
    on_table = sorted(c for c in legal if c.endswith("*"))[0]
    moves = seat.view()["moves"]
    page.locator(f'#hand button.card.legal[data-token="{on_table}"]').first.click()
    seat.wait_past(moves)
    assert server.stored(table_id_of(page))[1][moves] == f"play {on_table}"
    said = page.inner_text("#log")
    assert f"Ann played {as_text(on_table[:2])}\n" in said + "\n" and "*" not in said


def last_tricks(state: GameState) -> bool:
    """The first hand's last eight tricks, a trick about to be led."""
    return state.hand_no == 0 and state.stock_left() == 0 and not state.trick


def test_the_log_counts_the_hands_from_one(context, server):
    record, step = bots_until("ordinary", last_tricks)
    page = context.new_page()
    seat = seated_at(page, server, record, step)
    view = seat.view()
    while "hand 1 over" not in page.inner_text("#log"):
        seat.click_a_move()
        view = seat.wait_for_move(view["moves"])
    points = hand_summaries(replayed(server, table_id_of(page)))[0]["points"]
    names = view["names"]
    told = f"hand 1 over: {names[0]} {points[0]}, {names[1]} {points[1]}; hand 2 dealt"
    assert told in page.inner_text("#log").split("\n")


# --------------------------------------------------------------------------- the lobby


def test_the_lobby_tells_every_variant_apart(context, server):
    page = context.new_page()
    open_lobby(page, server)
    options = page.locator("#variant option").evaluate_all(
        "options => options.map(o => [o.value, o.textContent])"
    )
    shown = dict(options)
    assert len(set(shown.values())) == len(options) == len(server.get("/api/variants"))
    # a house rule is named by what it changes, its sources left out
    assert shown["rubicon-four-tens"] == "Rubicon bezique with any four tens scoring 90 (2 players)"
    assert shown["house-carte-blanche"] == "Ordinary bezique with carte blanche (2 players)"
    assert shown["ordinary"] == "Ordinary two-hand bezique (2 players)"
    # a seat's choices: the bots in a player's words, the steady one for an empty seat
    seat = page.locator('[data-seat="1"]')
    assert seat.locator("option").all_inner_texts() == [
        "you",
        "a friend (gets a link)",
        "a steady bot (heuristic)",
        "a beginner bot (random)",
        "a thinking bot (search)",
    ]
    assert seat.input_value() == "bot:heuristic"
    # the summary under the choice, in a player's words: no source codes
    page.select_option("#variant", "eb1875")
    said = page.inner_text("#summary")
    assert said.startswith("Two-hand game - several declarations a trick, swapped bezique cards")


def test_the_move_controls_are_hidden_when_the_game_is_over(context, server):
    record = finished_record()
    page = context.new_page()
    seat = seated_at(page, server, record, len(record["actions"]) - 1)
    controls = ("#entry", "#send", "#values")
    assert all(page.locator(control).is_visible() for control in controls)
    seat.click_a_move()
    assert seat.wait_for_move(len(record["actions"]) - 1)["over"]
    assert not any(page.locator(control).is_visible() for control in controls)
    assert page.locator("header a", has_text="New table").is_visible()
    assert page.locator("#over").is_visible()


@pytest.mark.parametrize(("variant", "one_deal"), [("ordinary", False), ("rubicon", True)])
def test_the_header_says_what_a_game_is_played_to(context, server, variant, one_deal):
    page = context.new_page()
    seat = Seat(page)
    sit_down(page, server, variant, ["you", "bot:heuristic"])
    target = seat.wait_for_move()["target"]
    assert bool(target) != one_deal
    said = "(one deal)" if one_deal else f"(game to {target})"
    assert page.locator("#score-line").inner_text() == f"player 1 0 · steady bot 0 {said}"


def test_the_lobby_is_tapped_by_a_finger_on_a_phone(browser, server):
    made = browser.new_context(viewport=TALL_PHONE, is_mobile=True, has_touch=True)
    try:
        page = made.new_page()
        open_lobby(page, server)
        page.click("#house-box summary")
        targets = "main :is(select, input:not([type=checkbox]), button, a, summary)"
        checkbox = "label:has(> input[type=checkbox])"
        sizes = page.locator(f"{targets}, main {checkbox}, main input[type=checkbox]")
        measured = sizes.evaluate_all(
            "nodes => nodes.map(n => [n.outerHTML.slice(0, 60), n.getBoundingClientRect().height])"
        )
        ids = ["variant", "rules-link", "house-file", "referee", "seed", "start", "record-file"]
        marks = [f'id="{name}"' for name in ids] + ['data-seat="1"', 'data-name="1"', "/sheet"]
        assert all(any(mark in what for what, _ in measured) for mark in marks)
        small = [(what, height) for what, height in measured if height < TAP]
        # the checkbox itself is tapped by its line (its label), which is tall enough
        assert [what for what, _ in small] == ['<input id="referee" type="checkbox">']
        assert small[0][1] >= TAP / 2
        assert page.evaluate("document.documentElement.scrollWidth") == TALL_PHONE["width"]
    finally:
        made.close()


# --------------------------------------------------------------------------- the rules page


@pytest.mark.parametrize("name", ["ordinary", "rubicon"])
def test_the_rules_page_fits_a_phone(browser, server, name):
    made = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = made.new_page()
        page.goto(server.origin + f"/rules/{name}")
        # laid out at the phone's width (a page without the viewport's meta is laid out
        # 980 pixels wide and shrunk), and nothing wider than it
        assert page.evaluate("window.innerWidth") == PHONE["width"]
        assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    finally:
        made.close()


def test_the_house_rules_differences_are_said_in_words(context, server):
    """The house rules' page says each rule that differs in the rulebook's words, a
    column a variant; the setting's key is only the row's tooltip."""
    page = context.new_page()
    seat = Seat(page)
    sit_down(
        page, server, "ordinary", ["you", "bot:heuristic"], QUICK_HOUSE.format(parent="ordinary")
    )
    view = seat.wait_for_move()
    page.goto(server.origin + f"/tables/{view['table']}/rules")
    table = page.locator(".rule-diff table")
    rows = table.locator("tr[title]")
    keys = rows.evaluate_all("rows => rows.map(r => r.title)")
    assert "game.target" in keys
    shown = table.inner_text()
    assert not [key for key in keys if key in shown]
    assert table.locator("code").count() == 0
    target = rows.nth(keys.index("game.target")).locator("td").all_inner_texts()
    # each cell the rule's sentence in its rulebook, then its citation
    said = {line.key: line.text for line in rule_lines(ruleset_for("ordinary"))}
    assert target[0].split("\n")[0] == said["game.target"]
    assert target[1].split("\n")[0].startswith("The game is 100 points up")


# --------------------------------------------------------------------------- the replay page


def test_the_replay_names_the_scores_by_player(context, server):
    record = finished_record()
    page = context.new_page()
    open_lobby(page, server)
    text = json.dumps(record).encode()
    page.set_input_files(
        "#record-file", {"name": "game.json", "mimeType": "application/json", "buffer": text}
    )
    page.wait_for_url("**/replay/**")
    page.wait_for_selector("#where:has-text('move 0 of')")
    page.click("#last")
    steps = len(record["actions"])
    page.wait_for_selector(f"#where:has-text('move {steps} of {steps}')")
    scores = replay(record, "record").scores
    assert page.inner_text("#scores") == f"north {scores[0]} · south {scores[1]}"
    # the buttons to the start and the end are drawn in characters every phone has
    assert [page.inner_text(f"#{end}") for end in ("first", "last")] == ["|◀", "▶|"]


# --------------------------------------------------------------------------- the Polish table


def declares_from_open_rows(state: GameState) -> bool:
    """A Polish declaration is to be made: it names no cards (they are the open rows')."""
    texts = [state.action_text(action) for action in state.legal_actions()]
    return any(text.startswith("declare ") and text.count(" ") == 1 for text in texts)


def test_a_polish_declaration_is_said_without_a_list_of_cards(context, server):
    record, step = bots_until("polish", declares_from_open_rows)
    page = context.new_page()
    seat = seated_at(page, server, record, step)
    offer = next(
        a for a in seat.view()["legal"] if a["kind"] == "declare" and a["text"].count(" ") == 1
    )
    button = page.locator(f'#actions button[data-action="{offer["text"]}"]')
    words = new_game("polish").rules.words
    named = words.combination(offer["text"].split(" ")[1])
    # the button's words, then its points
    assert button.evaluate("b => b.firstChild.textContent") == f"Declare {named}"
    moves = seat.view()["moves"]
    button.click()
    seat.wait_past(moves)
    assert page.inner_text("#log").split("\n")[0] == f"Ann declared {named}"


def announces(state: GameState) -> bool:
    """A second combination may be announced, to be scored at a later trick (Rubicon)."""
    return any(action.kind == Kind.ANNOUNCE for action in state.legal_actions())


def test_an_announcement_says_what_it_will_score(context, server):
    record, step = bots_until("rubicon", announces)
    page = context.new_page()
    seat = seated_at(page, server, record, step)
    offer = next(a for a in seat.view()["legal"] if a["kind"] == "announce")
    name = offer["text"].split(" ")[1]
    table = new_game("rubicon").rules.data["declarations"]["combinations"][name]["points"]
    text = offer["text"]
    button = page.locator(f'#actions button[data-action="{text}"]')
    # F334: Rubicon scores one declaration a trick; F326: another is announced, scored later
    said = button.locator(".points").inner_text()
    assert said == f"{table} points, scored at a trick you win"


def test_the_bots_are_named_as_the_lobby_names_them_and_numbered(context, server):
    page = context.new_page()
    seat = Seat(page)
    sit_down(page, server, "four-hand", ["you", "bot:heuristic", "bot:heuristic", "bot:random"])
    view = seat.wait_for_move()
    while len(view["observation"]["trick"]) < 3:  # the three bots' cards in the trick
        seat.click_a_move()
        view = seat.wait_for_move(view["moves"])
    bots = ["steady bot 2", "steady bot 3", "beginner bot"]
    assert view["names"] == ["player 1", *bots]
    # the header names the game without the source code its file's title cites (EB9)
    assert page.inner_text("#title") == "Four-hand bezique (four packs, each for himself)"
    assert page.locator("#others .seat > .name").all_inner_texts() == bots
    shown = page.locator("#score-line").inner_text()
    assert shown.startswith(" · ".join(f"{name} 0" for name in ["player 1", *bots]))
    labels = page.locator("#trick .muted").all_inner_texts()
    assert labels == [view["names"][s] for s, _ in view["observation"]["trick"]]
    said = {line.split(" played ")[0] for line in page.locator("#log li").all_inner_texts()}
    assert set(bots) <= said
    setup, _ = server.stored(table_id_of(page))
    assert [s["name"] for s in setup["seats"]] == ["player 1", *bots]


def test_the_trick_labels_keep_to_their_cards(context, server):
    page = context.new_page()
    seat = Seat(page)
    sit_down(page, server, "four-hand", ["you", "bot:heuristic", "bot:heuristic", "bot:random"])
    view = seat.wait_for_move()
    names = [view["names"][s] for s, _ in view["observation"]["trick"]]
    assert len(names) == 3
    played = page.locator("#trick > div").evaluate_all(
        """items => items.map(item => {
            const [label, card] = item.children;
            const [s, l, c] = [item, label, card].map(n => n.getBoundingClientRect());
            const centred = Math.abs((l.left + l.right) - (c.left + c.right)) <= 2;
            return [label.title, l.left, l.right, s.left, s.right, l.bottom <= c.top && centred];
        })"""
    )
    # each name (said in full when pointed at) is centred over its card, within its slot
    assert [label[0] for label in played] == names
    for _, left, right, slot_left, slot_right, over_the_card in played:
        assert slot_left <= left and right <= slot_right and over_the_card
    ends = [(left, right) for _, left, right, *_ in played]
    assert all(ends[n][1] < ends[n + 1][0] for n in range(len(ends) - 1))


def test_the_partner_is_marked_at_a_partnership_table(context, server):
    page = context.new_page()
    seat = Seat(page)
    sit_down(page, server, "four-hand-partners", ["you"] + ["bot:heuristic"] * 3)
    view = seat.wait_for_move()
    sides = view["scores"]["side_of"]
    shown = page.locator("#others .seat > .name").all_inner_texts()
    partner = " (your partner)"
    assert shown == [
        view["names"][n] + (partner if sides[n] == sides[0] else "") for n in (1, 2, 3)
    ]
    assert sum(name.endswith(partner) for name in shown) == 1

"""The web table's server, driven as a page drives it: its requests and its sockets.

The server runs in-process (Starlette's test client, the same application ``bezique
serve`` runs); the browser tests (``tests/test_web_browser.py``) drive the real one.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bezique.game import GameState, new_game
from bezique.records.record import record_of, replay
from bezique.variant.bibliography import citations_in
from bezique.web.analysis import exact_values
from bezique.web.app import make_app
from bezique.web.store import Store
from bezique.web.tables import Table

TWO_SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "spec": "heuristic"}]
SHORT_GAME = "extends: ordinary\nname: short\ngame:\n  target: 300\n"
CARD = re.compile(r"\b[AKQJT2-9][SHDC]\b")


def server_of(client: TestClient) -> Any:
    return client.app.app.state.server  # type: ignore[attr-defined]


def new_table(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    answer = client.post("/api/tables", json={"seats": TWO_SEATS, "seed": 7, **body})
    assert answer.status_code == 200, answer.text
    made = answer.json()
    tokens = [seat["url"].split("#")[1] for seat in made["seats"]]
    return made["table"], tokens


def until_my_move(socket: Any, seat: int) -> dict[str, Any]:
    """The views received until it is ``seat``'s move (or the game is over); the last."""
    while True:
        message = socket.receive_json()
        if message["kind"] != "view":
            continue
        if message["over"] or (message["to_act"] == seat and message["thinking"] == -1):
            return dict(message)


# --- setting up a table ---------------------------------------------------------------------


def test_a_table_is_set_up_and_each_person_gets_a_link(client: TestClient, db: str) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    table, tokens = new_table(client, seats=seats)
    assert len(tokens) == 2 and tokens[0] != tokens[1] and len(tokens[0]) >= 32
    setup, actions = Store(db).table(table) or ({}, [])
    assert [s["name"] for s in setup["seats"]] == ["Ann", "Bob"]
    assert tokens[0] not in json.dumps(setup)  # only the tokens' hashes are kept
    assert setup["variant"] == "ordinary" and setup["seed"] == 7 and actions == []


BAD_SETUPS = {
    "seats_of_another_count": (
        {"seats": TWO_SEATS[:1]},
        "seats: this variant is played by 2; give one seat each",
    ),
    "no_person": (
        {"seats": [TWO_SEATS[1], TWO_SEATS[1]]},
        "seats: give at least one seat to a person",
    ),
    "unknown_variant": ({"variant": "ordinery"}, "did you mean 'ordinary'?"),
    "variant_by_a_files_path": ({"variant": "pyproject.yaml"}, "never a file's"),
    "variant_by_a_folder": ({"variant": "/etc/house.yaml"}, "never a file's"),
    "unknown_bot": ({"seats": [TWO_SEATS[0], {"kind": "bot", "spec": "genius"}]}, "genius"),
    "bot_beyond_the_budget": (
        {"seats": [TWO_SEATS[0], {"kind": "bot", "spec": "search:iterations=900000"}]},
        "at most 5000 iterations",
    ),
    "seed_not_a_number": ({"seed": "seven"}, "seed: must be a whole number"),
    "misspelt_house_rule": (
        {"house": "extends: ordinary\nname: h\ngame:\n  taget: 500\n"},
        "house.yaml:4:3: game.taget: unknown key 'taget'; did you mean 'target'?",
    ),
    "house_rule_bomb": (
        {"house": "extends: ordinary\nname: h\na: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n"},
        "house.yaml:3:4: anchor '&a' is not allowed",
    ),
    "house_rule_extends_a_file": (
        {"house": "extends: ../../etc/passwd.yaml\nname: h\n"},
        "must be a variant name or a file name without any folder part",
    ),
}


def test_the_lobby_lists_the_variants_in_a_players_words(client: TestClient) -> None:
    listed = client.get("/api/variants").json()
    # the source codes are the historians' (the rulebook keeps them), not the player's
    assert [v["label"] for v in listed if citations_in(v["label"])] == []
    assert [v["plain_summary"] for v in listed if citations_in(v["plain_summary"])] == []
    by_name = {v["name"]: v for v in listed}
    assert by_name["four-hand"]["title"] == "Four-hand bezique (EB9, four packs, each for himself)"
    assert by_name["four-hand"]["label"] == "Four-hand bezique (four packs, each for himself)"
    assert by_name["eb1875"]["plain_summary"].startswith("Two-hand game - several declarations")


def test_the_lobby_offers_the_bots_the_tables_name(client: TestClient, db: str) -> None:
    offered = client.get("/api/bots").json()
    assert offered == [
        {"spec": "heuristic", "words": "a steady bot (heuristic)"},
        {"spec": "random", "words": "a beginner bot (random)"},
        {"spec": "search:iterations=400", "words": "a thinking bot (search)"},
    ]
    # each one is a seat a table takes, named as the lobby names it
    bots = [{"kind": "bot", "spec": bot["spec"]} for bot in offered]
    table, _ = new_table(client, variant="four-hand", seats=[TWO_SEATS[0], *bots])
    setup, _ = Store(db).table(table) or ({}, [])
    assert [s["name"] for s in setup["seats"][1:]] == ["steady bot", "beginner bot", "thinking bot"]


@pytest.mark.parametrize("case", BAD_SETUPS.values(), ids=list(BAD_SETUPS))
def test_a_bad_setup_is_refused_in_words_and_nothing_stored(
    client: TestClient, db: str, case: tuple[dict[str, Any], str]
) -> None:
    body, words = case
    answer = client.post("/api/tables", json={"seats": TWO_SEATS, **body})
    assert answer.status_code == 400
    assert words in answer.json()["error"]
    assert Store(db).table_ids() == []


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"{not json", "the request is not JSON"),
        (b"[1, 2]", "the request must be a JSON object"),
        (b"x" * (301 * 1024), "the request is over 300 KiB"),
        (b"[" * 100_000 + b"]" * 100_000, "the request is not JSON"),
    ],
)
def test_a_malformed_request_is_refused(
    client: TestClient, db: str, body: bytes, words: str
) -> None:
    answer = client.post("/api/tables", content=body)
    assert answer.status_code == 400 and words in answer.json()["error"]
    assert Store(db).table_ids() == []


def test_every_answer_carries_the_content_security_policy(client: TestClient) -> None:
    for path in ("/", "/api/variants", "/rules/ordinary", "/static/table.js"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert "script-src 'self'" in answer.headers["content-security-policy"]


# --- a seat and its socket ---------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "", "not-a-token", 12])
def test_a_socket_without_its_seats_token_is_refused(client: TestClient, token: Any) -> None:
    table, _ = new_table(client)
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"token": token})
        message = socket.receive_json()
    assert message == {
        "kind": "error",
        "message": "this link's token is not one of this table's seats",
    }


def test_another_tables_token_is_refused(client: TestClient) -> None:
    first, _ = new_table(client)
    _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{first}") as socket:
        socket.send_json({"token": tokens[0]})
        assert socket.receive_json()["kind"] == "error"


def test_each_friend_is_sent_only_his_own_hand(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    table, tokens = new_table(client, seats=seats)
    state = server_of(client).tables[table].state
    for seat, token in enumerate(tokens):
        with client.websocket_connect(f"/ws/{table}") as socket:
            socket.send_json({"token": token})
            view = socket.receive_json()
        assert view["seat"] == seat
        assert view["observation"] == _without_legal(state.observation(seat))
        others = {state.deck.card_text(c) for c in state.hands[1 - seat]}
        own = {state.deck.card_text(c) for c in state.hands[seat]}
        assert {card["card"] for card in view["hand"]} == own
        assert not (others - own - {view["observation"]["turn_up"]}) & _cards_in(view)


def _without_legal(observation: dict[str, Any]) -> dict[str, Any]:
    observation.pop("legal", None)
    return observation


def _cards_in(message: Any) -> set[str]:
    return set(CARD.findall(json.dumps(message)))


def test_an_illegal_move_is_refused_with_the_rule_and_changes_nothing(
    client: TestClient, db: str
) -> None:
    table, tokens = new_table(client, seed=11)
    state = server_of(client).tables[table].state
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"token": tokens[0]})
        view = until_my_move(socket, 0)
        held = {c["card"] for c in view["hand"]}
        missing = next(
            state.deck.card_text(c) for c in range(52) if state.deck.card_text(c) not in held
        )
        before = state.to_json()
        for act, words in [
            (f"play {missing}", "refused (a player plays only a card he holds)"),
            (99, "action id 99 is not one of your legal actions"),
            ("dance", "refused (notation):"),
            (True, "act: an action's text, or a legal action's id"),
        ]:
            socket.send_json({"act": act})
            answer = socket.receive_json()
            assert answer["kind"] == "refused" and words in answer["message"], answer
        socket.send_text("x" * 5000)
        assert "at most 4096 characters" in socket.receive_json()["message"]
        assert state.to_json() == before
    assert len(Store(db).table(table)[1]) == view["moves"]  # type: ignore[index]


# --- whole games -------------------------------------------------------------------------


def play_game(
    client: TestClient, table: str, token: str, seat: int, seed: int
) -> list[dict[str, Any]]:
    """Play ``seat`` at random to the game's end; every message the seat was sent."""
    rng = random.Random(seed)
    sent: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"token": token})
        while True:
            message = socket.receive_json()
            sent.append(message)
            if message["kind"] != "view":
                continue
            if message["over"]:
                return sent
            if message["to_act"] == seat and message["thinking"] == -1 and message["legal"]:
                socket.send_json({"act": rng.choice(message["legal"])["id"]})


def seen_by(state: GameState, seat: int) -> list[set[str]]:
    """The cards ``seat`` has seen, by the number of actions taken (from its observations)."""
    replayed = replay({**Table_record(state), "actions": []})
    seen: set[str] = set()
    found = []
    for action in [*state.history, None]:
        seen |= _cards_in(replayed.observation(seat))
        found.append(set(seen))
        if action is not None:
            replayed.apply(action)
    return found


def Table_record(state: GameState) -> dict[str, Any]:
    from bezique.records.record import record_of

    return record_of(state)


@pytest.mark.parametrize(
    ("variant", "seats"),
    [
        ({"house": SHORT_GAME}, 2),
        ({"variant": "rubicon"}, 2),
        ({"variant": "three-hand"}, 3),
        ({"variant": "polish"}, 2),
        ({"variant": "four-hand-partners"}, 4),
    ],
)
def test_a_whole_game_sends_no_seat_a_card_it_has_not_seen(
    client: TestClient, db: str, variant: dict[str, Any], seats: int
) -> None:
    bots = [{"kind": "bot", "spec": "heuristic"}] * (seats - 1)
    table, tokens = new_table(client, seats=[TWO_SEATS[0], *bots], seed=3, **variant)
    sent = play_game(client, table, tokens[0], 0, seed=5)
    state = server_of(client).tables[table].state
    assert state.is_over()
    seen = seen_by(state, 0)
    for message in sent:
        if message["kind"] == "view":
            leaked = _cards_in(message) - seen[message["moves"]]
            assert not leaked, (message["moves"], leaked)
    # every action was stored, and the store replays to the same game
    setup, actions = Store(db).table(table) or ({}, [])
    resumed = Table.resume(table, setup, actions, Store(db))
    assert resumed.state == state


def test_the_record_is_given_to_a_seat_once_the_game_is_over(client: TestClient) -> None:
    table, tokens = new_table(client, house=SHORT_GAME)
    path = f"/api/tables/{table}/record"
    refused = client.get(path, headers={"X-Seat-Token": tokens[0]})
    assert refused.status_code == 400 and "once the game is over" in refused.json()["error"]
    play_game(client, table, tokens[0], 0, seed=1)
    assert client.get(path).status_code == 403
    assert client.get(path, headers={"X-Seat-Token": "x" * 30}).status_code == 403
    record = client.get(path, headers={"X-Seat-Token": tokens[0]}).json()
    state = server_of(client).tables[table].state
    assert replay(record).scores == state.scores and record["headers"]["players"][0] == "Ann"


# --- nothing lost ------------------------------------------------------------------------------


def test_a_restarted_server_resumes_every_table_where_it_stood(db: str) -> None:
    with TestClient(make_app(db, workers=1)) as client:
        table, tokens = new_table(client)
        with client.websocket_connect(f"/ws/{table}") as socket:
            socket.send_json({"token": tokens[0]})
            for _ in range(5):
                view = until_my_move(socket, 0)
                socket.send_json({"act": view["legal"][0]["id"]})
            view = until_my_move(socket, 0)
        before = server_of(client).tables[table].state
        # every action acknowledged is in the store
        assert len(Store(db).table(table)[1]) == view["moves"]  # type: ignore[index]
    with TestClient(make_app(db, workers=1)) as client:
        after = server_of(client).tables[table].state
        assert after == before
        with client.websocket_connect(f"/ws/{table}") as socket:
            socket.send_json({"token": tokens[0]})
            again = socket.receive_json()
        assert again["observation"] == view["observation"] and again["moves"] == view["moves"]


def test_a_bot_to_act_when_the_server_stopped_plays_on_after_the_restart(db: str) -> None:
    store = Store(db)
    with TestClient(make_app(db, workers=1)) as client:
        table, _ = new_table(client, seed=2)  # the bot, not the dealer, leads at once
        client.portal.call(server_of(client).idle)  # type: ignore[union-attr]
        assert len(store.table(table)[1]) == 1  # type: ignore[index]
    store.remove_actions_from(table, 0)  # as if stopped before the bot's first move
    with TestClient(make_app(db, workers=1)) as client:
        server = server_of(client)
        client.portal.call(server.idle)  # type: ignore[union-attr]
        assert server.tables[table].state.to_act == 0
        assert len(store.table(table)[1]) == 1  # type: ignore[index]


# --- replay, analysis, rules ---------------------------------------------------------------


def test_an_uploaded_record_steps_and_plays_on(client: TestClient) -> None:
    table, tokens = new_table(client, house=SHORT_GAME)
    play_game(client, table, tokens[0], 0, seed=2)
    record = client.get(f"/api/tables/{table}/record", headers={"X-Seat-Token": tokens[0]}).json()
    made = client.post("/api/records", json={"record": json.dumps(record)}).json()
    step = client.get(f"/api/records/{made['id']}/step/3?seat=all").json()
    at_three = replay({**record, "actions": record["actions"][:3]})
    assert step["step"] == 3 and step["steps"] == len(record["actions"])
    assert [c["card"] for c in step["hands"]["1"]] == at_three.observation(1)["hand"]
    one = client.get(f"/api/records/{made['id']}/step/3?seat=1").json()
    assert list(one["hands"]) == ["1"]
    assert step["trick_starts"][0] == 0
    beyond = client.get(f"/api/records/{made['id']}/step/99999")
    assert beyond.status_code == 400 and "the record holds" in beyond.json()["error"]
    played_on = client.post(
        f"/api/records/{made['id']}/play-on", json={"step": 3, "seats": TWO_SEATS}
    ).json()
    state = server_of(client).tables[played_on["table"]].state
    assert [state.action_text(a) for a in state.history][:3] == record["actions"][:3]


def test_a_replays_title_is_said_without_source_codes(client: TestClient) -> None:
    state = new_game("four-hand", seed=1)
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    made = client.post("/api/records", json={"record": json.dumps(record_of(state))}).json()
    step = client.get(f"/api/records/{made['id']}/step/2").json()
    assert step["title"] == "Four-hand bezique (four packs, each for himself)"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not json", "uploaded record"),
        (json.dumps({"format": "bezique-record/2"}), "uploaded record"),
    ],
)
def test_a_record_that_does_not_replay_is_refused(
    client: TestClient, db: str, text: str, words: str
) -> None:
    answer = client.post("/api/records", json={"record": text})
    assert answer.status_code == 400 and words in answer.json()["error"]


def test_a_record_whose_action_is_refused_is_not_stored(client: TestClient) -> None:
    table, tokens = new_table(client, house=SHORT_GAME)
    play_game(client, table, tokens[0], 0, seed=4)
    record = client.get(f"/api/tables/{table}/record", headers={"X-Seat-Token": tokens[0]}).json()
    record["actions"][2] = "play AS" if record["actions"][2] != "play AS" else "play KS"
    answer = client.post("/api/records", json={"record": json.dumps(record)})
    assert answer.status_code == 400 and "action 2" in answer.json()["error"]


def test_after_the_stock_the_values_are_exact(client: TestClient) -> None:
    table, tokens = new_table(client, seed=9)
    server = server_of(client)
    state = server.tables[table].state
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"token": tokens[0]})
        view = until_my_move(socket, 0)
        while view["observation"]["stock"] > 0 or view["observation"]["turn_up"]:
            socket.send_json({"act": view["legal"][0]["id"]})
            view = until_my_move(socket, 0)
        socket.send_json({"ask": "values"})
        answer = socket.receive_json()
    assert answer["kind"] == "values" and answer["exact"] is True
    assert answer["values"] == exact_values(state, 0)
    assert set(answer["values"]) == {a["text"] for a in view["legal"]}


def test_a_tables_rulebook_says_how_its_house_rule_differs(client: TestClient) -> None:
    table, tokens = new_table(client, house=SHORT_GAME)
    page = client.get(f"/tables/{table}/rules").text
    assert "How it differs from" in page and "300" in page
    # the header names the house rule, not only the game it builds on
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"token": tokens[0]})
        assert socket.receive_json()["title"] == "Ordinary two-hand bezique: short"
    summed = SHORT_GAME.replace("name: short\n", "name: short\nsummary: Ordinary bezique to 300.\n")
    table, tokens = new_table(client, house=summed)
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"token": tokens[0]})
        assert socket.receive_json()["title"] == "Ordinary bezique to 300"
    assert client.get("/rules/nothing-such").status_code == 400
    assert client.get("/rules/pyproject.yaml").status_code == 404


def test_a_refereed_table_takes_a_report_typed_by_the_seat(client: TestClient, db: str) -> None:
    table, tokens = new_table(client, seats=[TWO_SEATS[0], TWO_SEATS[0]], referee=True)
    state = server_of(client).tables[table].state
    assert state.at_table and state.to_act == 1
    exposed = state.deck.card_text(state.hands[0][0])
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"token": tokens[0]})  # seat 0 reports though seat 1 is to play
        socket.receive_json()
        socket.send_json({"act": f"irregular exposed_card {exposed}"})
        view = socket.receive_json()
    assert view["kind"] == "view" and view["moves"] == 1
    assert state.phase == "remedy" and {a["text"] for a in view["legal"]} == set()
    setup, actions = Store(db).table(table) or ({}, [])
    assert setup["referee"] is True and actions == [f"irregular exposed_card {exposed}"]
    assert Table.resume(table, setup, actions, Store(db)).state == state


def test_a_move_chosen_from_a_stale_view_is_refused(client: TestClient, db: str) -> None:
    table, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"token": tokens[0]})
        view = until_my_move(socket, 0)
        socket.send_json({"act": view["legal"][0]["id"], "at": view["moves"]})
        after = until_my_move(socket, 0)
        socket.send_json({"act": view["legal"][0]["id"], "at": view["moves"]})  # a second click
        answer = socket.receive_json()
    assert answer["kind"] == "refused" and "the table has moved on" in answer["message"]
    assert len(Store(db).table(table)[1]) == after["moves"]  # type: ignore[index]


def test_serve_without_the_web_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from bezique.commands.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *rest: None if name == "uvicorn" else real(name, *rest),
    )
    assert main(["serve", "--db", "never-made.sqlite"]) == 1
    assert "needs uvicorn: install the web extra, pip install 'bezique[web]'" in (
        capsys.readouterr().err
    )
    assert not Path("never-made.sqlite").exists()


@pytest.mark.parametrize(
    ("argv", "words"),
    [(["--port", "0"], "--port 0: a port from 1 to 65535"), (["--workers", "99"], "from 1 to 16")],
)
def test_serve_refuses_bad_options(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    from bezique.commands.cli import main

    assert main(["serve", "--db", "never-made.sqlite", *argv]) == 1
    assert words in capsys.readouterr().err
    assert not Path("never-made.sqlite").exists()

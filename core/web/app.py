"""The web server's routes (Starlette): the pages, the JSON requests and the tables' sockets.

Pages (plain HTML, CSS and JavaScript shipped in ``bezique/web/static``, nothing
fetched from outside; every page under a Content-Security-Policy allowing only the
server's own scripts):

* ``/`` the lobby: a variant (or a house rule pasted or uploaded), the seats, a seed;
* ``/table/ID#TOKEN`` a seat at a table (the token, in the link's fragment, never
  reaches a server log), its socket ``/ws/ID``;
* ``/replay/ID`` an uploaded record, stepped through;
* ``/sheet`` a new score sheet of a game played with real cards, ``/sheet/ID#TOKEN``
  the sheet (the token lets its holder edit; without it the page only shows it);
* ``/rules/NAME`` a variant's rulebook; ``/tables/ID/rules`` a table's, with its
  differences from the variant it builds on.

Requests (JSON in and out; every refusal is ``{"error": "..."}`` with status 400,
403 or 404, and changes nothing): ``GET /api/variants``, ``GET /api/bots`` (what a
seat may be given), ``POST /api/tables``,
``GET /api/tables/ID/record`` (the seat's token in ``X-Seat-Token``; once the game is
over), ``POST /api/records`` (a record to replay), ``GET /api/records/ID/step/N``,
``POST /api/records/ID/play-on``; the score sheets' (:mod:`bezique.web.sheets`; a change
needs the sheet's token in ``X-Sheet-Token``, and is stored before it is answered):
``POST /api/sheets``, ``GET /api/sheets/ID``, ``POST /api/sheets/ID/entries``,
``POST /api/sheets/ID/undo``, ``POST /api/sheets/ID/fix/N``,
``GET /api/sheets/ID/download/FORM`` (``json``, ``csv`` or ``html``).

The socket speaks JSON messages: the page sends ``{"token": ...}`` first, then
``{"act": TEXT}`` or ``{"act": ID}`` (an action in the notation, or a legal action's
id; with ``"at": MOVES``, the number of moves of the view it was chosen from, it is
refused if the table has moved on since), ``{"ask": "values"}`` or
``{"ask": "review"}``; it is sent its seat's view
(:func:`bezique.web.seatview.seat_message`) after every action at the table, and
``{"kind": "refused", "message": ...}`` for an action refused.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import AsyncIterator, Callable, Mapping
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from bezique.errors import BeziqueError, IllegalActionError
from bezique.rules.ruleset import is_variant_name, ruleset_for
from bezique.web import replays, sheets
from bezique.web.bots import BotPool
from bezique.web.seatview import seat_message
from bezique.web.server import Server
from bezique.web.store import Store
from bezique.web.tables import HUMAN, SetupError, Table, house_variant, lobby_bots, new_table

MAX_BODY = 300 * 1024
"""The largest request body taken (a house rule's YAML is at most 256 KiB)."""
MAX_MESSAGE = 4096
"""The largest message a table's socket takes from a page."""
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)
"""The Content-Security-Policy of every answer: the server's own scripts only."""


class RequestError(BeziqueError):
    """A request the server refuses: its status and what is wrong."""

    def __init__(self, message: str, status: int = 400) -> None:
        """Refused with ``status`` (400, 403 or 404) saying ``message``."""
        super().__init__(message)
        self.status = status


def refused(message: str, status: int = 400) -> JSONResponse:
    """A refusal: ``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status)


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most :data:`MAX_BODY` bytes, or :class:`RequestError`."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise RequestError(f"the request is over {MAX_BODY // 1024} KiB")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise RequestError(f"the request is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RequestError("the request must be a JSON object")
    return data


def page(name: str) -> HTMLResponse:
    """One of the shipped pages."""
    return HTMLResponse(resources.files("bezique.web").joinpath("static", name).read_text("utf-8"))


class Pages:
    """The routes' handlers, over one :class:`~bezique.web.server.Server`."""

    def __init__(self, server: Server) -> None:
        """Handlers serving ``server``'s tables."""
        self.server = server

    def table(self, table_id: str) -> Table:
        """The table ``table_id``, or a 404 refusal."""
        found = self.server.tables.get(table_id)
        if found is None:
            raise RequestError(f"there is no table {table_id!r}", 404)
        return found

    async def variants(self, request: Request) -> Response:
        """``GET /api/variants``: every registered variant, its title, players and summary."""
        return JSONResponse(replays.variant_list())

    async def bots(self, request: Request) -> Response:
        """``GET /api/bots``: the bots a seat may be given, each its spec and its words."""
        return JSONResponse(lobby_bots())

    async def create(self, request: Request) -> Response:
        """``POST /api/tables``: set up a table; its id and each person's link."""
        data = await json_body(request)
        house = data.get("house")
        if house is not None:
            if not isinstance(house, str):
                raise RequestError("house: must be the text of a variant file")
            variant: Any = house_variant(house)
        else:
            variant = data.get("variant", "ordinary")
            if not isinstance(variant, str) or not is_variant_name(variant):
                raise RequestError("variant: must be a variant's name (never a file's)")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RequestError("seed: must be a whole number, or left out for a random one")
        referee = data.get("referee", False)
        if not isinstance(referee, bool):
            raise RequestError("referee: must be true or false")
        table, tokens = new_table(
            self.server.store,
            variant=variant,
            seats=data.get("seats") or [],
            seed=seed,
            referee=referee,
        )
        self.server.add(table)
        return JSONResponse(_links(table, tokens))

    async def record(self, request: Request) -> Response:
        """``GET /api/tables/ID/record``: the game's record, to a seat, once it is over."""
        table = self.table(request.path_params["table"])
        if table.seat_of(request.headers.get("x-seat-token")) is None:
            raise RequestError("this table's record is given only to its seats", 403)
        if not table.state.is_over():
            raise RequestError("the record is given once the game is over: it shows every card")
        name = f"bezique-{table.id}.json"
        return JSONResponse(
            table.record(), headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    async def upload(self, request: Request) -> Response:
        """``POST /api/records``: a record (``{"record": TEXT}``) checked to replay, stored."""
        data = await json_body(request)
        text = data.get("record")
        if not isinstance(text, str):
            raise RequestError("record: must be the text of a bezique record")
        record_id = replays.store_record(self.server.store, text)
        return JSONResponse({"id": record_id, "url": f"/replay/{record_id}"})

    async def step(self, request: Request) -> Response:
        """``GET /api/records/ID/step/N?seat=S``: the game after N actions, seen by S or by all."""
        record = self._record(request)
        seat = request.query_params.get("seat", "all")
        number = _number(request.path_params["step"], "step")
        return JSONResponse(replays.step(record, number, seat))

    async def play_on(self, request: Request) -> Response:
        """``POST /api/records/ID/play-on``: a new table from the record's position N."""
        record = self._record(request)
        data = await json_body(request)
        table, tokens = replays.play_on(self.server.store, record, data)
        self.server.add(table)
        return JSONResponse(_links(table, tokens))

    def _record(self, request: Request) -> dict[str, Any]:
        found = self.server.store.record(request.path_params["record"])
        if found is None:
            raise RequestError("there is no such record", 404)
        return found

    async def rules(self, request: Request) -> Response:
        """``GET /rules/NAME``: a registered variant's rulebook (by name only, never a path)."""
        name = request.path_params["name"]
        if not is_variant_name(name):
            raise RequestError(f"there is no variant {name[:60]!r}", 404)
        return HTMLResponse(replays.rulebook(ruleset_for(name)))

    async def table_rules(self, request: Request) -> Response:
        """``GET /tables/ID/rules``: a table's rulebook and what differs from its parent."""
        table = self.table(request.path_params["table"])
        return HTMLResponse(replays.rulebook(table.state.rules, differences=True))

    async def socket(self, websocket: WebSocket) -> None:
        """``/ws/ID``: a seat's connection to its table (see the module's docstring)."""
        await websocket.accept()
        try:
            table, seat = await self._join(websocket)
        except WebSocketDisconnect:
            return
        except RequestError as exc:
            await websocket.send_json({"kind": "error", "message": str(exc)})
            await websocket.close(code=4403)
            return

        async def send(message: dict[str, Any]) -> None:
            await websocket.send_json(message)

        self.server.connect(table, seat, send)
        try:
            await send(seat_message(table, seat))
            while True:
                await self._message(websocket, table, seat)
        except WebSocketDisconnect:
            pass
        finally:
            self.server.disconnect(table, seat, send)

    async def _join(self, websocket: WebSocket) -> tuple[Table, int]:
        table = self.table(websocket.path_params["table"])
        first = await _received(websocket)
        seat = table.seat_of(first.get("token"))
        if seat is None:
            raise RequestError("this link's token is not one of this table's seats", 403)
        return table, seat

    async def _message(self, websocket: WebSocket, table: Table, seat: int) -> None:
        try:
            message = await _received(websocket)
            if "act" in message:
                act, at = message["act"], message.get("at")
                if not isinstance(act, (str, int)) or isinstance(act, bool):
                    raise RequestError("act: an action's text, or a legal action's id")
                if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
                    raise RequestError("at: the number of moves of the view the action is for")
                await self.server.act(table, seat, act, at)
            elif message.get("ask") in replays.QUESTIONS:
                answer = await replays.answer(self.server, table, seat, str(message["ask"]))
                await websocket.send_json(answer)
            else:
                raise RequestError('a message is {"act": ...} or {"ask": "values" | "review"}')
        except IllegalActionError as exc:
            words = table.state.rules.words
            rule = f" ({words.rule(exc.rule)})" if exc.rule else ""
            await websocket.send_json({"kind": "refused", "message": f"refused{rule}: {exc}"})
        except BeziqueError as exc:
            await websocket.send_json({"kind": "refused", "message": str(exc)})


class SheetPages:
    """The score sheets' requests (:mod:`bezique.web.sheets`), over the server's store.

    A sheet's work (its tally: up to 5000 entries) runs in a worker thread, so that
    the tables' sockets are not kept waiting, and one request's at a time, so that
    two changes at once to one sheet cannot lose either.
    """

    def __init__(self, store: Store) -> None:
        """Handlers keeping their sheets in ``store``."""
        self.store = store
        self._one_at_a_time = threading.Lock()

    async def _run(self, work: Callable[[], dict[str, Any]]) -> JSONResponse:
        def locked() -> dict[str, Any]:
            with self._one_at_a_time:
                return work()

        return JSONResponse(await run_in_threadpool(locked))

    @staticmethod
    def _token(request: Request) -> str:
        return request.headers.get("x-sheet-token", "")

    async def create(self, request: Request) -> Response:
        """``POST /api/sheets``: a new sheet; its id, its edit token and its view."""
        data = await json_body(request)

        def create() -> dict[str, Any]:
            sheet_id, token, sheet = sheets.create_sheet(self.store, data)
            view = sheets.sheet_view(sheet_id, sheet)
            return {**view, "token": token, "url": f"/sheet/{sheet_id}#{token}"}

        return await self._run(create)

    async def show(self, request: Request) -> Response:
        """``GET /api/sheets/ID``: the sheet, its entries' points and checks, its totals."""
        sheet_id = request.path_params["sheet"]
        return await self._run(
            lambda: sheets.sheet_view(sheet_id, sheets.load_sheet(self.store, sheet_id))
        )

    async def add(self, request: Request) -> Response:
        """``POST /api/sheets/ID/entries``: an entry added, if the rules allow it."""
        data = await json_body(request)
        sheet_id, token = request.path_params["sheet"], self._token(request)
        return await self._run(
            lambda: sheets.sheet_view(sheet_id, sheets.add_entry(self.store, sheet_id, token, data))
        )

    async def undo(self, request: Request) -> Response:
        """``POST /api/sheets/ID/undo``: the last entry taken back."""
        sheet_id, token = request.path_params["sheet"], self._token(request)
        return await self._run(
            lambda: sheets.sheet_view(sheet_id, sheets.undo_entry(self.store, sheet_id, token))
        )

    async def fix(self, request: Request) -> Response:
        """``POST /api/sheets/ID/fix/N``: entry N (0 the first) replaced, if the sheet adds up."""
        data = await json_body(request)
        sheet_id, token = request.path_params["sheet"], self._token(request)
        number = _number(request.path_params["number"], "the entry's number")

        def fix() -> dict[str, Any]:
            sheet = sheets.fix_entry(self.store, sheet_id, token, number, data)
            return sheets.sheet_view(sheet_id, sheet)

        return await self._run(fix)

    async def download(self, request: Request) -> Response:
        """``GET /api/sheets/ID/download/FORM``: the sheet's file, CSV or printable page."""
        sheet_id, form = request.path_params["sheet"], request.path_params["form"]

        def download() -> tuple[str, str, str]:
            with self._one_at_a_time:
                return sheets.download(sheets.load_sheet(self.store, sheet_id), sheet_id, form)

        text, media, name = await run_in_threadpool(download)
        disposition = f'attachment; filename="{name}"'
        return Response(text, media_type=media, headers={"Content-Disposition": disposition})


async def _received(websocket: WebSocket) -> dict[str, Any]:
    text = await websocket.receive_text()
    if len(text) > MAX_MESSAGE:
        raise RequestError(f"a message is at most {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise RequestError("a message is a JSON object") from None
    if not isinstance(data, dict):
        raise RequestError("a message is a JSON object")
    return data


def _number(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > 7:
        raise RequestError(f"{what}: must be a whole number")
    return int(text)


def _links(table: Table, tokens: Mapping[int, str]) -> dict[str, Any]:
    return {
        "table": table.id,
        "seats": [
            {"seat": n, "name": s.name, "url": f"/table/{table.id}#{tokens[n]}"}
            for n, s in enumerate(table.seats)
            if s.kind == HUMAN
        ],
    }


class Guard:
    """Every answer gets the security headers; every refusal becomes ``{"error": ...}``."""

    def __init__(self, app: ASGIApp) -> None:
        """Guard ``app``."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve ``scope``, adding the headers to an HTTP answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def headed(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", POLICY.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, headed)


async def _refusal(request: Request, exc: Exception) -> Response:
    if isinstance(exc, (RequestError, sheets.SheetRequestError)):
        return refused(str(exc), exc.status)
    if isinstance(exc, BeziqueError):
        return refused(str(exc))
    raise exc


def make_app(db: str, workers: int = 2) -> ASGIApp:
    """The web application serving the tables stored in the SQLite file ``db``."""
    store = Store(db)
    server = Server(store, BotPool(workers))
    pages = Pages(server)
    sheet_pages = SheetPages(store)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.resume()
        yield
        server.close()

    static = StaticFiles(packages=[("bezique.web", "static")])
    routes = [
        Route("/", lambda request: page("index.html")),
        Route("/table/{table}", lambda request: page("table.html")),
        Route("/replay/{record}", lambda request: page("replay.html")),
        Route("/rules/{name}", pages.rules),
        Route("/tables/{table}/rules", pages.table_rules),
        Route("/api/variants", pages.variants),
        Route("/api/bots", pages.bots),
        Route("/api/tables", pages.create, methods=["POST"]),
        Route("/api/tables/{table}/record", pages.record),
        Route("/api/records", pages.upload, methods=["POST"]),
        Route("/api/records/{record}/step/{step}", pages.step),
        Route("/api/records/{record}/play-on", pages.play_on, methods=["POST"]),
        Route("/sheet", lambda request: page("sheet.html")),
        Route("/sheet/{sheet}", lambda request: page("sheet.html")),
        Route("/api/sheets", sheet_pages.create, methods=["POST"]),
        Route("/api/sheets/{sheet}", sheet_pages.show),
        Route("/api/sheets/{sheet}/entries", sheet_pages.add, methods=["POST"]),
        Route("/api/sheets/{sheet}/undo", sheet_pages.undo, methods=["POST"]),
        Route("/api/sheets/{sheet}/fix/{number}", sheet_pages.fix, methods=["POST"]),
        Route("/api/sheets/{sheet}/download/{form}", sheet_pages.download),
        WebSocketRoute("/ws/{table}", pages.socket),
        Mount("/static", static, name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={BeziqueError: _refusal, SetupError: _refusal},
    )
    app.state.server = server
    return Guard(app)

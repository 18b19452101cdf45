"""What the web pages ask beside play: variants, records replayed, rulebooks, analysis.

Framework-free helpers of :mod:`bezique.web.app`: the list of variants, a record
uploaded (checked to replay before it is stored), a record's position after N actions
(one seat's view, or every hand: a record is a finished game's), a new table played on
from such a position, a table's rulebook with its differences from the variant it
builds on, and the analysis a seat may ask for (:mod:`bezique.web.analysis`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bezique.errors import BeziqueError, RecordError
from bezique.records.record import parse_record, replay
from bezique.rulebook import diff_html, render_html, rule_lines
from bezique.rulebook.book import list_label
from bezique.rules.ruleset import Ruleset, ruleset_for
from bezique.variant import variant_summaries
from bezique.variant.bibliography import uncited
from bezique.web import analysis
from bezique.web.seatview import card
from bezique.web.store import Store
from bezique.web.tables import Table, new_table

if TYPE_CHECKING:
    from bezique.game import GameState
    from bezique.web.server import Server

QUESTIONS = ("values", "review")
"""What a seat may ask of its table: the values of its legal actions, a review of its play."""
ESTIMATE_ITERATIONS = 400
"""The play-outs an estimate of the actions' values may take (the budget a request gets)."""
REVIEW_BUDGET = 12
"""The most decisions a review of a game looks at again, the costliest first."""


def variant_list() -> list[dict[str, Any]]:
    """Every registered variant: its name, title, label, players and one-line summary.

    The label (:func:`~bezique.rulebook.book.list_label`) tells a house rule from its parent;
    it and ``plain_summary`` are a player's words, without the source codes.
    """
    listed = []
    for name, summary in variant_summaries():
        rules = ruleset_for(name)
        listed.append(
            {
                "name": name,
                "title": rules.variant.title,
                "label": list_label(rules),
                "players": rules.data["players"],
                "summary": summary,
                "plain_summary": uncited(summary),
            }
        )
    return listed


def store_record(store: Store, text: str) -> str:
    """Check that the record ``text`` replays, store it; its id.

    Raise :class:`~bezique.errors.RecordError` saying where and what when it is no record
    or does not replay; nothing is stored then.
    """
    record = parse_record(text, "uploaded record")
    replay(record, "uploaded record")
    record_id = secrets.token_hex(8)
    store.add_record(record_id, record)
    return record_id


def position(record: Mapping[str, Any], number: int) -> GameState:
    """The record's game after its first ``number`` actions."""
    actions = record["actions"]
    if number > len(actions):
        raise RecordError(f"step {number}: the record holds {len(actions)} actions")
    return replay({**record, "actions": actions[:number]}, "record")


def step(record: Mapping[str, Any], number: int, seat: str) -> dict[str, Any]:
    """The record's position after ``number`` actions, seen by ``seat`` or (``all``) by all."""
    state = position(record, max(number - 1, 0))
    last_seat = state.to_act if number else -1
    if number:
        state.apply(record["actions"][number - 1])
    words = state.rules.words
    seats = range(state.players) if seat == "all" else [_seat(seat, state.players)]
    names = record.get("headers", {}).get("players") or [
        f"seat {n + 1}" for n in range(state.players)
    ]
    return {
        "kind": "step",
        "step": number,
        "steps": len(record["actions"]),
        "title": uncited(state.rules.variant.title),
        "names": names,
        "last": record["actions"][number - 1] if number else "",
        "last_seat": last_seat,
        "last_words": words.action(record["actions"][number - 1], past=True) if number else "",
        "hands": {str(n): [card(t, words) for t in state.observation(n)["hand"]] for n in seats},
        "observation": state.observation(seats[0]),
        "trick_starts": _trick_starts(record),
    }


def _seat(text: str, players: int) -> int:
    if not text.isdigit() or not 0 <= int(text) < players:
        raise RecordError(f"seat: 'all' or a seat from 0 to {players - 1}")
    return int(text)


def _trick_starts(record: Mapping[str, Any]) -> list[int]:
    """The step at which each trick's lead was played (for a jump to a trick)."""
    state = replay({**record, "actions": []}, "record")
    starts = []
    for number, text in enumerate(record["actions"]):
        if text.startswith("play ") and not state.trick:
            starts.append(number)
        state.apply(text)
    return starts


def play_on(store: Store, record: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
    """A new table from the record's position after ``data["step"]`` actions.

    ``data["seats"]`` sets the seats as for a new table.  The new game has the
    record's variant, seed and decks, and the record's first actions already played.
    """
    number = data.get("step")
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise RecordError("step: a whole number of actions")
    state = position(record, number)
    saved = state.to_json()
    return new_table(
        store,
        variant=saved["variant"],
        overrides=saved["overrides"],
        seats=data.get("seats") or [],
        seed=state.seed,
        decks=saved["decks"],
        first_dealer=state.first_dealer,
        prefix=list(record["actions"][:number]),
    )


def rulebook(rules: Ruleset, differences: bool = False) -> str:
    """The variant's rulebook page; with ``differences``, its differences from its parent."""
    page = render_html(rule_lines(rules), rules.variant.title)
    parent = _parent(rules)
    if not differences or parent is None:
        return page
    table = diff_html([parent, rules])
    return page.replace(
        "<body>",
        f"<body><section><h2>How it differs from {parent.variant.title}</h2>{table}</section>",
        1,
    )


def _parent(rules: Ruleset) -> Ruleset | None:
    """The variant these rules build on: the file under their overrides, or its parent file."""
    variant = rules.variant
    if variant.overrides:
        base = variant.chain[-1]
    elif len(variant.chain) >= 2:
        base = variant.chain[-2]
    else:
        return None
    try:
        return ruleset_for(base)
    except BeziqueError:
        return None


async def answer(server: Server, table: Table, seat: int, question: str) -> dict[str, Any]:
    """The answer to a seat's question of :data:`QUESTIONS`, worked out in the bots' pool."""
    state = table.state
    if question == "values":
        if state.to_act != seat or state.is_over():
            raise BeziqueError("the values are given for your own move")
        exact = analysis.exact_values(state, seat)
        if exact is not None:
            return {"kind": "values", "exact": True, "values": exact}
        found = await server.bots.run(
            analysis.estimates_of_saved, state.to_json(), seat, ESTIMATE_ITERATIONS
        )
        return {"kind": "values", "exact": False, "values": found}
    if not state.is_over():
        raise BeziqueError("a review is given once the game is over")
    items = await server.bots.run(analysis.review_of_record, table.record(), seat, REVIEW_BUDGET)
    return {"kind": "review", "items": items}

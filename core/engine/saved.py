"""Reading a saved game state: the checks of untrusted input :func:`~bezique.game.from_json` makes.

A saved state is rebuilt by replaying its history (see :func:`bezique.game.from_json`);
these functions read the keys that rebuild it, refuse a state with a key missing or
unknown (the keys are those of :data:`bezique.engine.state.FIELDS`), and find the keys whose
saved value is not what the replay gives.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from bezique.actions import Action
from bezique.engine.state import DERIVED_KEYS, INPUT_KEYS, MAX_SEED, STATE_FORMAT, STATE_FORMAT_V1
from bezique.errors import BeziqueError, IllegalActionError, RecordError
from bezique.rules.pinned import not_a_name, pinned_rules
from bezique.rules.ruleset import Ruleset, ruleset_for

if TYPE_CHECKING:
    from bezique.engine.machine import Machine

_PINNED_KEYS = frozenset({"bezique", "variant_digest", "variant_data"})
"""The keys that came with ``bezique-state/2``."""
_OPTIONAL_V1 = frozenset({"trick_order", "won_at_exhaustion"})
"""Keys that early ``bezique-state/1`` states may lack."""
_ADDED_LATER = frozenset({"referee", "tricks"})
"""Keys that any state saved before they came may lack: ``referee`` (the key of
:attr:`~bezique.engine.state.StateData.at_table`: such a state is of a game not at a table)
and ``tricks`` (the trick record, which the replay rebuilds: a derived key is checked only
when the state holds it)."""
MOVED_INTO_EXTRA = ("pending",)
"""Keys of saved states written before plugins kept typed states (see
:class:`bezique.engine.state.PluginState`), now written inside ``extra`` by the plugin that
keeps them (the ordinary plugin's announced combinations): :func:`upgraded` moves them."""
OLD_TURN = ("declared", "scored", "blocked", "first_declared")
"""The items of ``turn`` before plugins kept typed states, a list; now the keys under which
the ordinary plugin's state of the turn writes them in the ``turn`` mapping."""
STATE = "saved game state"
"""How messages name a saved state."""
MAX_HISTORY = 100_000
"""The most actions a saved state's history may hold (as many as a record's)."""


def upgraded(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """Return ``data`` in the present layout, from that of states saved before typed states.

    The keys of :data:`MOVED_INTO_EXTRA` go into ``extra``; ``turn``, once the list of
    :data:`OLD_TURN`, becomes the mapping of them (``{}`` for a turn in which nothing was
    done).  A copy; ``data`` itself when it is in the present layout (or not a mapping:
    the checks say what is wrong).
    """
    if not isinstance(data, Mapping):
        return data
    moved = dict(data)
    extra = moved.get("extra")
    if isinstance(extra, Mapping) and any(key in moved for key in MOVED_INTO_EXTRA):
        extra = dict(extra)
        for key in MOVED_INTO_EXTRA:
            if key in moved and key not in extra:
                extra[key] = moved.pop(key)
        moved["extra"] = extra
    turn = moved.get("turn")
    if isinstance(turn, list) and len(turn) == len(OLD_TURN):
        moved["turn"] = dict(zip(OLD_TURN, turn, strict=True)) if any(turn) else {}
    return moved


def saved_at_table(data: Mapping[str, Any]) -> bool:
    """Return whether a saved state is of a game at a real table (a refereed game).

    Its key is ``referee``, as saved states have always written it; a state saved
    before that key is of a game not at a table.
    """
    flag = data.get("referee", False)
    if not isinstance(flag, bool):
        raise RecordError(f"{STATE}: referee: {short(flag)} is not true or false")
    return flag


def check_state_keys(data: Mapping[str, Any], old: bool) -> None:
    """Refuse a saved state with a key missing or a key it should not have."""
    known = [*INPUT_KEYS, *DERIVED_KEYS]
    if old:
        known = [k for k in known if k not in _PINNED_KEYS]
    missing = [
        k
        for k in known
        if k not in data and k not in _ADDED_LATER and not (old and k in _OPTIONAL_V1)
    ]
    unknown = sorted(repr(k) for k in data if k not in known)
    problems = [f"{STATE}: {key}: missing" for key in missing]
    problems += [f"{STATE}: {key}: not a key of a saved state" for key in unknown[:10]]
    if problems:
        raise RecordError("\n".join(problems))


def whole(value: Any, key: str, low: int, high: int) -> int:
    """Return ``value`` if it is a whole number (not a boolean) from ``low`` below ``high``."""
    if value.__class__ is not int or not low <= value < high:
        raise RecordError(
            f"{STATE}: {key}: {short(value)} is not a whole number from {low} below {high}"
        )
    result: int = value
    return result


def saved_history(value: Any) -> list[Action]:
    """Read a saved history: ``[kind, [card, ...], combo]`` for each action."""
    if not isinstance(value, list) or len(value) > MAX_HISTORY:
        raise RecordError(f"{STATE}: history: must be a list of at most {MAX_HISTORY} actions")
    actions = []
    made: dict[tuple[Any, ...], Action] = {}  # (a game plays each card's action many times)
    for index, item in enumerate(value):
        if not isinstance(item, (list, tuple)) or len(item) != 3:
            raise RecordError(
                f"{STATE}: history[{index}]: {short(item)} is not [kind, [cards...], combination]"
            )
        kind, cards, combo = item
        try:
            if not isinstance(cards, (list, tuple)) or len(cards) > 64:
                raise IllegalActionError(f"cards {short(cards)} must be a list of card numbers")
            actions.append(_action(made, kind, tuple(cards), combo))
        except IllegalActionError as exc:
            raise RecordError(f"{STATE}: history[{index}]: {exc}") from None
    return actions


def _action(
    made: dict[tuple[Any, ...], Action], kind: Any, cards: tuple[Any, ...], combo: Any
) -> Action:
    """The action of a history's item, made (and its fields checked) once for equal items.

    Only an item of a whole-number kind, whole-number cards and a text combination is
    looked up (``true`` and ``1.0`` equal ``1``: any other item is made as it stands, and
    :class:`Action` refuses it).
    """
    plain = kind.__class__ is int and combo.__class__ is str
    if not plain or any(card.__class__ is not int for card in cards):
        return Action(kind, cards, combo)
    key = (kind, combo, cards)
    found = made.get(key)
    if found is None:
        found = made[key] = Action(kind, cards, combo)
    return found


def saved_decks(value: Any, size: int) -> list[list[int]]:
    """Read saved stacked decks: each every physical card number once, top first."""
    if not isinstance(value, list) or len(value) > 1000:
        raise RecordError(f"{STATE}: decks: must be a list of at most 1000 decks")
    decks = []
    whole = list(range(size))
    for index, deck in enumerate(value):
        if (
            not isinstance(deck, list)
            or len(deck) != size
            or any(c.__class__ is not int for c in deck)
            or sorted(deck) != whole
        ):
            raise RecordError(
                f"{STATE}: decks[{index}]: must hold every card number from 0 to {size - 1} once"
            )
        decks.append(list(deck))
    return decks


def same_json(given: Any, expected: Any) -> bool:
    """Whether ``given`` writes as the same JSON as ``expected`` (``true`` is not ``1``).

    Nor is ``1.0``; anything JSON cannot write, or nested too deeply to write, differs.
    """
    try:
        return json.dumps(given, sort_keys=True) == json.dumps(expected, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return False


def short(value: Any, limit: int = 60) -> str:
    """Show a value in a message, cut to ``limit`` characters."""
    try:
        text = repr(value)
    except RecursionError:
        text = "a value nested too deeply"
    except ValueError:  # an int past Python's digit limit for text
        text = "a number too long to show"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Inputs(NamedTuple):
    """What rebuilds a saved state, read and checked (see :func:`read_inputs`)."""

    ruleset: Ruleset
    spec: str
    overrides: Mapping[str, Any]
    seed: int
    first_dealer: int
    decks: list[list[int]]
    history: list[Action]


def read_inputs(data: Mapping[str, Any], rules: str) -> Inputs:
    """Check a saved state's format and keys, and read what rebuilds it.

    ``rules`` is the policy of :mod:`bezique.rules.pinned`; a ``bezique-state/1`` state
    (no rules carried) is read with a :class:`DeprecationWarning`.
    """
    form = data.get("format") if isinstance(data, Mapping) else None
    if form not in (STATE_FORMAT, STATE_FORMAT_V1):
        raise RecordError(f"not a saved game state (expected format {STATE_FORMAT!r})")
    old = form == STATE_FORMAT_V1
    if old:
        warnings.warn(
            f"a {STATE_FORMAT_V1} state names its variant without its rules, so it is rebuilt "
            f"by the variant as it loads now; GameState.to_json() now writes {STATE_FORMAT}",
            DeprecationWarning,
            stacklevel=3,
        )
    check_state_keys(data, old)
    spec = data["variant"]
    if not isinstance(spec, str) or not 0 < len(spec) <= 4096 or not spec.isprintable():
        raise RecordError(f"{STATE}: variant: {short(spec)} is not a variant name or path")
    overrides = data["overrides"]
    if not isinstance(overrides, Mapping):
        raise RecordError(f"{STATE}: overrides: must be a mapping, not {short(overrides)}")
    seed = whole(data["seed"], "seed", 0, MAX_SEED + 1)
    first_dealer = whole(data["first_dealer"], "first_dealer", 0, 1000)
    history = saved_history(data["history"])
    if not old:
        _check_pins(data)
    if old and not_a_name(spec):
        raise RecordError(f"{STATE}: {not_a_name(spec)}")
    try:
        if old:
            ruleset = ruleset_for(spec, overrides or None)
        else:
            ruleset, spec, overrides = pinned_rules(
                spec,
                overrides,
                data["variant_data"],
                data["variant_digest"],
                STATE,
                rules,
                version=data["bezique"],
            )
    except RecordError:
        raise
    except BeziqueError as exc:
        raise RecordError(f"{STATE}: {exc}") from exc
    decks = saved_decks(data["decks"], ruleset.deck.size)
    return Inputs(ruleset, spec, overrides, seed, first_dealer, decks, history)


def _check_pins(data: Mapping[str, Any]) -> None:
    """Refuse pinned rules of the wrong type before anything reads them."""
    checks = (
        ("bezique", str, "the bezique version, as text"),
        ("variant_digest", str, "sha256: and 64 hexadecimal digits"),
        ("variant_data", dict, "the variant's merged data, a mapping"),
    )
    for key, kind, what in checks:
        if not isinstance(data[key], kind):
            raise RecordError(f"{STATE}: {key}: {short(data[key])} is not {what}")


def replay(state: Machine, history: list[Action]) -> None:
    """Apply a saved history to the state rebuilt from its inputs; say where it fails."""
    for index, action in enumerate(history):
        try:
            state.apply(action)
        except BeziqueError as exc:
            raise RecordError(
                f"{STATE}: history[{index}] ({short(list(action))}, seat {state.to_act}, "
                f"hand {state.hand_no}): {exc}"
            ) from exc


def edited_keys(data: Mapping[str, Any], rebuilt: Mapping[str, Any]) -> list[str]:
    """Say, for each key the history decides, where ``data`` differs from the replay ``rebuilt``.

    All the keys are compared at once first (one JSON text each side: a state that
    was not edited, the usual case, is done), then, if they differ, key by key.
    """
    decided = [key for key in rebuilt if key not in INPUT_KEYS and key in data]
    if same_json({key: data[key] for key in decided}, {key: rebuilt[key] for key in decided}):
        return []
    return [
        f"{STATE}: {key}: the saved value is not what the history replays to (saved "
        f"{short(data[key])}, replayed {short(value)}); the state was edited or damaged"
        for key, value in rebuilt.items()
        if key not in INPUT_KEYS and key in data and not same_json(data[key], value)
    ]

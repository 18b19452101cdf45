"""The loader's sense checks: what the schema cannot say, located at the key.

The kernel checks here only what it reads itself: the packets add up to the hand,
the pack holds the hands and what is left goes round the players, every rank, suit
and card a section names (a value its schema types as ``#/$defs/rank``, ``suit`` or
``card``) is one of the pack, the partnerships hold every seat once, and the plugin
list: every plugin is known, listed after the plugins it builds on
(``bezique_requires``), and no two answer a hook one of them keeps to itself
(``bezique_exclusive_hooks``).  Each plugin checks its own sections through the
collect hook ``bezique_variant_problems`` (:func:`plugin_problems`).

:func:`section`, :func:`count` and :func:`letters` read ill-typed data safely; plugin
checks may use them.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

from bezique.reading.yamlsafe import MAX_DEPTH, JsonPath
from bezique.variant import registry
from bezique.variant.locate import Locator, Message
from bezique.variant.schema import VariantSchema

RANK_FORM = re.compile(r"[A-Z0-9]")
"""A rank letter."""
SUIT_FORM = re.compile(r"[A-Z]")
"""A suit letter."""
CARD_FORM = re.compile(r"[A-Z0-9][A-Z]")
"""A card: a rank letter, then a suit letter."""

PACK_TYPES = ("rank", "suit", "card")
"""The kernel's value types (``#/$defs/NAME``) that must name a part of the pack."""


def section(data: Any, *keys: str) -> dict[str, Any]:
    """Return the mapping at ``keys`` (an empty one if it is missing or not a mapping)."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def count(value: Any) -> int | None:
    """Return ``value`` if it is a whole number (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def letters(value: Any, form: re.Pattern[str]) -> list[str]:
    """Return the items of a list that have the right form (ill-formed ones are the schema's)."""
    return (
        [v for v in value if isinstance(v, str) and form.fullmatch(v)]
        if isinstance(value, list)
        else []
    )


def sense_problems(data: dict[str, Any], schema: VariantSchema, locator: Locator) -> list[Message]:
    """Run the kernel's checks the schema cannot express; each skips ill-typed data."""
    messages = [*_check_packets(data, locator), *_check_pack_size(data, locator)]
    messages += _check_pack_names(data, schema, locator)
    messages += _check_sides(data, locator)
    return messages


# --- the deal and the pack -----------------------------------------------------------------


def _check_packets(data: dict[str, Any], locator: Locator) -> Iterator[Message]:
    deal = section(data, "deal")
    packets, hand = deal.get("packets"), count(deal.get("hand_size"))
    if hand is None or not isinstance(packets, list) or None in map(count, packets):
        return
    if sum(packets) != hand:
        where = locator.latest([("deal", "packets"), ("deal", "hand_size")])
        yield locator.message(
            where,
            f"the packets {packets} deal {sum(packets)} cards but deal.hand_size is {hand}; "
            f"make the packets add up to {hand}, or change hand_size",
        )


def _check_pack_size(data: dict[str, Any], locator: Locator) -> Iterator[Message]:
    """The pack holds the hands and a card more, and what is left goes round the players.

    After every trick each player draws one card, the turn-up last of all, so the
    cards left after the deal must be a multiple of the players.
    """
    cards = section(data, "cards")
    players, hand = count(data.get("players")), count(section(data, "deal").get("hand_size"))
    packs = count(cards.get("packs"))
    ranks, suits = cards.get("ranks"), cards.get("suits")
    if None in (players, hand, packs) or not isinstance(ranks, list) or not isinstance(suits, list):
        return
    assert players is not None and hand is not None and packs is not None
    have, need = packs * len(ranks) * len(suits), players * hand + 1
    where = locator.latest(
        [
            ("deal", "hand_size"),
            ("players",),
            ("cards", "packs"),
            ("cards", "ranks"),
            ("cards", "suits"),
        ]
    )
    if need > have:
        yield locator.message(
            where,
            f"{players} hands of {hand} cards and one card left over need {need} cards, but the "
            f"pack holds {have} ({packs} x {len(ranks)} ranks x {len(suits)} suits); "
            "deal fewer cards or shuffle in more packs",
        )
    elif (have - players * hand) % players:
        left = have - players * hand
        turn_up = (
            " (the turn-up included)" if section(data, "trumps").get("mode") == "turn_up" else ""
        )
        yield locator.message(
            where,
            f"{players} hands of {hand} card{'s' * (hand != 1)} leave {left} of the {have} "
            f"cards to draw{turn_up}, which do not go round {players} players one card each a "
            f"trick; make the cards left a multiple of {players} (deal.hand_size, cards.packs, "
            "players)",
        )


def _check_pack_names(
    data: dict[str, Any], schema: VariantSchema, locator: Locator
) -> Iterator[Message]:
    """Every rank, suit and card a section names (outside ``cards`` itself) is of the pack."""
    cards = section(data, "cards")
    ranks, suits = letters(cards.get("ranks"), RANK_FORM), letters(cards.get("suits"), SUIT_FORM)
    for path, typed, value, key in named_parts(schema.document, data):
        text = _pack_problem(typed, value, ranks, suits) if path[:1] != ("cards",) else None
        if text:
            yield locator.message(path, text, key=key)


def _pack_problem(typed: str, value: Any, ranks: list[str], suits: list[str]) -> str | None:
    """Why ``value``, of the schema's type ``typed``, is not of the pack (None: it is)."""
    if not isinstance(value, str):
        return None
    if typed == "rank" and ranks and RANK_FORM.fullmatch(value) and value not in ranks:
        return f"rank {value!r} is not in cards.ranks; use one of: {' '.join(ranks)}"
    if typed == "suit" and suits and SUIT_FORM.fullmatch(value) and value not in suits:
        return f"{value!r} is not a suit of cards.suits; use one of: {' '.join(suits)}"
    if (
        typed == "card"
        and ranks
        and suits
        and CARD_FORM.fullmatch(value)
        and (value[0] not in ranks or value[1] not in suits)
    ):
        return (
            f"{value!r} is not a card of this pack; write a rank of {' '.join(ranks)} "
            f"then a suit of {' '.join(suits)}, as in QS"
        )
    return None


def named_parts(document: dict[str, Any], data: Any) -> Iterator[tuple[JsonPath, str, Any, bool]]:
    """Yield ``(path, type, value, is_key)`` for each rank, suit and card of ``data``.

    Those are the values the schema ``document`` types as ``#/$defs/rank``, ``suit``
    or ``card`` (``is_key``: a mapping's key, typed by ``propertyNames``).
    """
    defs = document.get("$defs", {})

    def walk(node: Any, value: Any, path: JsonPath, key: bool, depth: int) -> Iterator[Any]:
        if not isinstance(node, dict) or depth > 4 * MAX_DEPTH:
            return
        ref = node.get("$ref")
        name = ref[len("#/$defs/") :] if isinstance(ref, str) and ref.startswith("#/$defs/") else ""
        if name in PACK_TYPES:
            yield path, name, value, key
            return
        if name:
            yield from walk(defs.get(name), value, path, key, depth + 1)
        if isinstance(value, dict):
            properties, extra = node.get("properties", {}), node.get("additionalProperties")
            for item_key, item in value.items():
                child = (*path, item_key)
                yield from walk(node.get("propertyNames"), item_key, child, True, depth + 1)
                sub = properties.get(item_key, extra) if isinstance(properties, dict) else None
                yield from walk(sub, item, child, False, depth + 1)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from walk(node.get("items"), item, (*path, index), False, depth + 1)

    yield from walk(document, data, (), False, 0)


# --- partnerships --------------------------------------------------------------------------


def _check_sides(data: dict[str, Any], locator: Locator) -> Iterator[Message]:
    sides, players = section(data, "partnerships").get("sides"), count(data.get("players"))
    if not isinstance(sides, list) or players is None:
        return
    seats = [s for side in sides if isinstance(side, list) for s in side if count(s) is not None]
    if sorted(seats) != list(range(players)):
        yield locator.message(
            locator.latest([("partnerships", "sides"), ("players",)]),
            f"the partnerships {sides} must hold every seat from 0 to {players - 1} exactly once",
        )


# --- the plugins ---------------------------------------------------------------------------


def plugin_list(data: dict[str, Any], locator: Locator) -> tuple[list[str] | None, list[Message]]:
    """Check the ``plugins`` list; return it if the variant can be checked by it, and problems.

    The list is returned (else None) when it names distinct plugins, each usable,
    and none of the problems below: then the variant is validated against the schema
    of those plugins and asked their checks.
    """
    names = data.get("plugins")
    if not isinstance(names, list):
        return None, []
    messages: list[Message] = []
    usable = []
    for index, name in enumerate(names):
        problem = registry.plugin_problem(name) if isinstance(name, str) and name else None
        if problem is not None:
            messages.append(locator.message(("plugins", index), problem))
        elif isinstance(name, str) and name:
            usable.append(name)
    if not (len(usable) == len(names) == len(set(usable))) or not usable:
        return None, messages
    messages += _check_plugin_needs(usable, locator)
    return (None if messages else usable), messages


def _check_plugin_needs(names: list[str], locator: Locator) -> Iterator[Message]:
    """What the plugins declare of each other: those they build on, the hooks they keep.

    A plugin's ``bezique_requires`` names plugins to list before it; its
    ``bezique_exclusive_hooks`` names hooks that no other plugin listed may answer,
    except those it builds on.
    """
    try:
        manager = registry.checking_manager(registry.game_plugins(names))
        requires = _plugin_answers(manager.hook.bezique_requires)
        exclusive = _plugin_answers(manager.hook.bezique_exclusive_hooks)
    except Exception as exc:  # an outside plugin failed to answer: say so, at the list
        yield locator.message(("plugins",), f"cannot ask the plugins what they need: {exc}")
        return
    for index, name in enumerate(names):
        for need in requires.get(name, ()):
            if need in names[:index]:
                continue
            order = [n for n in names if n != need]
            order.insert(order.index(name), need)
            yield locator.message(
                ("plugins", index),
                f"plugin {name!r} builds on plugin {need!r}, which must be listed before it; "
                f"write plugins: [{', '.join(order)}]",
            )
    answering = {
        hook: {impl.plugin_name for impl in getattr(manager.hook, hook).get_hookimpls()}
        for hook in {hook for hooks in exclusive.values() for hook in hooks}
        if hasattr(manager.hook, hook)
    }
    for index, second in enumerate(names):
        for first in names[:index]:
            yield from _exclusive_clash(
                index, first, second, requires, exclusive, answering, locator
            )


def _exclusive_clash(
    index: int,
    first: str,
    second: str,
    requires: dict[str, list[str]],
    exclusive: dict[str, list[str]],
    answering: dict[str, set[str]],
    locator: Locator,
) -> Iterator[Message]:
    """Refuse ``first`` and ``second`` together if one answers alone a hook the other answers."""
    for owner, other in ((first, second), (second, first)):
        if other in requires.get(owner, ()):
            continue
        hooks = [h for h in exclusive.get(owner, ()) if other in answering.get(h, ())]
        if hooks:
            yield locator.message(
                ("plugins", index),
                f"plugins {first!r} and {second!r} cannot be played together: "
                f"{owner!r} answers {', '.join(hooks)} alone (beside the plugins it "
                f"builds on), and {other!r} answers {'them' if len(hooks) > 1 else 'it'} "
                "too; list only one of them",
            )
            return


def _plugin_answers(caller: Any) -> dict[str, list[str]]:
    """Ask each plugin's implementation of a hook that takes no argument: names by plugin."""
    answers: dict[str, list[str]] = {}
    for impl in caller.get_hookimpls():
        answer = impl.function()
        answers[impl.plugin_name] = [answer] if isinstance(answer, str) else list(answer or ())
    return answers


def plugin_problems(data: dict[str, Any], names: list[str], locator: Locator) -> list[Message]:
    """Ask every plugin of the variant (``names``, and those joining them) what it cannot play."""
    try:
        manager = registry.checking_manager(registry.game_plugins(names))
        answers = manager.hook.bezique_variant_problems(data=copy.deepcopy(data))
    except Exception as exc:  # an outside plugin's check failed: say so, at the list
        return [locator.message(("plugins",), f"cannot ask the plugins to check it: {exc}")]
    messages: list[Message] = []
    for answer in answers:
        for where, text in answer or ():
            paths = where if isinstance(where, list) else [where]
            known = [_known_part(data, tuple(path)) for path in paths] or [()]
            messages.append(locator.message(locator.latest(known), str(text)))
    return messages


def _known_part(data: Any, path: JsonPath) -> JsonPath:
    """The longest start of ``path`` that names a value in ``data`` (a plugin may name more)."""
    for index, part in enumerate(path):
        in_mapping = isinstance(data, dict) and isinstance(part, str) and part in data
        in_list = isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)
        if not (in_mapping or in_list):
            return path[:index]
        data = data[part]
    return path

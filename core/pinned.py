"""Pinned rules: the merged variant a record or a saved state carries, and its digest.

A ``bezique-record/2`` record (:mod:`bezique.record`) and a ``bezique-state/2``
saved state (:meth:`bezique.game.GameState.to_json`) carry, beside the variant's
name as it was given, the variant's merged data (``variant_data``: every key,
overrides and defaults included), the digest of that data's canonical JSON form
(``variant_digest``) and the bezique version that wrote them.  So they replay
anywhere with no variant file, and can tell when the variant they name now
merges to other rules.

The carried data is untrusted input: it is checked exactly as a variant file
is (:func:`bezique.variant.variant_from_data`: the schema, the sense checks,
plugins by registered name only) unless it is identical to the named variant
as it loads now.

What to do when the named variant now merges to different data, or cannot be
loaded here (:data:`POLICIES`):

``recorded`` (the default)
    play by the rules carried, with a :class:`RulesWarning` that says so;
``strict``
    refuse with a :class:`~bezique.errors.RecordError` that says what changed;
``current``
    play by the named variant as it loads now, with a :class:`RulesWarning`
    (a variant that cannot be loaded is then an error).
"""

from __future__ import annotations

import hashlib
import json
import re
import warnings
from collections.abc import Mapping
from typing import Any

from bezique import __version__
from bezique.errors import BeziqueError, RecordError
from bezique.ruleset import Ruleset, ruleset_for
from bezique.variant import Variant, apply_overrides, variant_from_data

RECORDED = "recorded"
"""Policy: play by the rules the record carries (the default)."""
STRICT = "strict"
"""Policy: refuse a record whose named variant now merges to other rules."""
CURRENT = "current"
"""Policy: play by the named variant as it loads now."""
POLICIES = (RECORDED, STRICT, CURRENT)
"""The policies, the default first."""

DIGEST_PREFIX = "sha256:"
"""How a variant digest starts; 64 hexadecimal digits follow."""

_CACHE_SIZE = 64


class RulesWarning(UserWarning):
    """The rules carried differ from the named variant as it loads now, or it cannot be loaded."""


def canonical_json(data: Any) -> bytes:
    """Return the canonical JSON form of plain data: keys sorted, no spaces, UTF-8.

    Raise :class:`TypeError` or :class:`ValueError` for what JSON cannot hold
    (a NaN, a set, an object).
    """
    text = json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return text.encode("utf-8", errors="surrogatepass")


def digest_of(data: Any) -> str:
    """Return ``sha256:`` and the SHA-256 of ``data``'s canonical JSON form."""
    return DIGEST_PREFIX + hashlib.sha256(canonical_json(data)).hexdigest()


_DIGESTS: dict[int, tuple[Variant, str]] = {}


def variant_digest(variant: Variant) -> str:
    """Return the digest of ``variant``'s merged data (kept for the variants last asked)."""
    found = _DIGESTS.get(id(variant))
    if found is not None and found[0] is variant:
        return found[1]
    digest = digest_of(variant.data)
    if len(_DIGESTS) >= _CACHE_SIZE:
        _DIGESTS.pop(next(iter(_DIGESTS)))
    _DIGESTS[id(variant)] = (variant, digest)
    return digest


_PINNED: dict[tuple[str, str, str], Ruleset] = {}
"""Rulesets built from carried data, by digest, name and overrides (the data is checked once)."""


VERSION = re.compile(r"\d{1,6}(\.\d{1,6}){0,3}([.+-]?[0-9A-Za-z]{1,16}){0,4}")
"""What a bezique version looks like (``0.1.0``, ``1.2rc1``, ``0.2.0.dev3+g1a2b3c``)."""


def pinned_ruleset(
    spec: str,
    overrides: Mapping[str, Any],
    data: Any,
    digest: str,
    where: str,
    policy: str = RECORDED,
    *,
    version: str | None = None,
) -> Ruleset:
    """Return the ruleset to replay by, from the variant named and the data carried.

    ``spec`` and ``overrides`` are the variant as named; ``data`` and ``digest``
    the merged data carried and the digest written beside it; ``where`` starts
    every message (``game.json``).  ``data`` is None for a record that pins its
    rules by the digest alone (:func:`digest_pinned_ruleset`).  ``version`` is
    the bezique version that wrote the data: another one than this is told in a
    :class:`RulesWarning`.
    Raise :class:`~bezique.errors.RecordError` when the digest does not match
    the data, the data fails the variant checks, or ``policy`` says to refuse.
    """
    if policy not in POLICIES:
        raise RecordError(f"rules policy {policy!r}: use one of {', '.join(POLICIES)}")
    if data is None:
        return digest_pinned_ruleset(spec, overrides, digest, where, policy)
    try:
        carried = digest_of(data)
    except (TypeError, ValueError, RecursionError) as exc:
        raise RecordError(f"{where}: variant_data: not plain JSON data ({exc})") from None
    if carried != digest:
        raise RecordError(
            f"{where}: variant_digest: {str(digest)[:80]!r} is not the digest of variant_data "
            f"({carried}); the rules were edited after they were recorded"
        )
    _check_overrides_carried(data, overrides, where)
    if version is not None and not VERSION.fullmatch(version):
        raise RecordError(
            f"{where}: bezique: {version[:40]!r} is not a bezique version (such as "
            f"{__version__!r}); the file was edited or damaged"
        )
    if version is not None and version != __version__:
        warnings.warn(
            f"{where}: recorded with bezique {version}; this is bezique {__version__}",
            RulesWarning,
            stacklevel=3,
        )
    named, failure = _named_ruleset(spec, overrides)
    if named is not None and variant_digest(named.variant) == carried:
        return named
    if named is None:
        problem = f"the variant {spec!r} cannot be loaded here ({failure})"
        if policy != RECORDED:
            raise RecordError(f"{where}: {problem}; its rules cannot be checked")
        warnings.warn(
            f"{where}: {problem}; replaying with the rules recorded ({carried[:19]}...)",
            RulesWarning,
            stacklevel=3,
        )
        return _carried_ruleset(spec, overrides, data, carried, where)
    now = variant_digest(named.variant)
    changes = "; ".join(differences(data, named.variant.data)) or "the data differs"
    problem = (
        f"the variant {spec!r} now merges to different rules than those recorded ({changes}; "
        f"recorded {carried[:19]}..., now {now[:19]}...)"
    )
    if policy == STRICT:
        raise RecordError(
            f"{where}: {problem}; refusing to replay (the rules 'recorded' replay by the "
            "recorded rules, 'current' by the variant as it is now)"
        )
    if policy == CURRENT:
        return _as_it_is_now(named, where, problem)
    warnings.warn(
        f"{where}: {problem}; replaying with the rules recorded", RulesWarning, stacklevel=3
    )
    return _carried_ruleset(spec, overrides, data, carried, where)


def _check_overrides_carried(data: Any, overrides: Mapping[str, Any], where: str) -> None:
    """Refuse overrides that the carried data does not already hold merged.

    ``variant_data`` is the variant with its overrides merged, so merging them
    over it again must change nothing (a ``null`` deletes a key already gone);
    overrides that would are not those the game was played by.
    """
    if not isinstance(data, dict):
        raise RecordError(f"{where}: variant_data: must be a mapping, not {_short(data)}")
    try:
        merged = apply_overrides(data, overrides)
    except BeziqueError as exc:
        raise RecordError(f"{where}: overrides: {exc}") from None
    if merged != data:
        raise RecordError(
            f"{where}: overrides: {_short(dict(overrides))} would change the rules carried in "
            "variant_data, which hold the overrides merged already; the record was edited"
        )


def digest_pinned_ruleset(
    spec: str, overrides: Mapping[str, Any], digest: str, where: str, policy: str = RECORDED
) -> Ruleset:
    """Return the named variant if it still merges to the rules ``digest`` pins.

    A record may carry the digest of its rules without the rules themselves
    (shorter, but it replays only where the named variant can be loaded).  When
    the variant now merges to other rules, the rules recorded cannot be
    replayed: ``current`` plays by the variant as it is now with a
    :class:`RulesWarning`; ``recorded`` and ``strict`` refuse with a
    :class:`~bezique.errors.RecordError` that says so.
    """
    named, failure = _named_ruleset(spec, overrides)
    if named is None:
        raise RecordError(
            f"{where}: the variant {spec!r} cannot be loaded here ({failure}), and the record "
            "pins its rules by variant_digest without carrying them (variant_data)"
        )
    now = variant_digest(named.variant)
    if now == digest:
        return named
    problem = (
        f"the variant {spec!r} now merges to different rules than those recorded "
        f"(recorded {digest[:19]}..., now {now[:19]}...)"
    )
    if policy == CURRENT:
        return _as_it_is_now(named, where, problem)
    raise RecordError(
        f"{where}: {problem}, and the record carries only their digest, not the rules "
        "(variant_data); the rules 'current' replay it by the variant as it is now"
    )


def _as_it_is_now(named: Ruleset, where: str, problem: str) -> Ruleset:
    """Replay by the named variant as it loads now, saying why (the ``current`` policy)."""
    warnings.warn(
        f"{where}: {problem}; replaying with the variant as it is now", RulesWarning, stacklevel=4
    )
    return named


def _named_ruleset(spec: str, overrides: Mapping[str, Any]) -> tuple[Ruleset | None, str]:
    """Load the variant as named; return it, or None and the first line of the reason."""
    try:
        return ruleset_for(spec, overrides or None), ""
    except BeziqueError as exc:
        lines = str(exc).splitlines() or ["an error"]
        more = f" and {len(lines) - 1} more problem(s)" if len(lines) > 1 else ""
        return None, lines[0] + more


def _carried_ruleset(
    spec: str, overrides: Mapping[str, Any], data: Any, digest: str, where: str
) -> Ruleset:
    """Check the carried data as a variant file and build its ruleset (once per digest)."""
    try:
        key = (digest, spec, json.dumps(overrides, sort_keys=True))
    except (TypeError, ValueError):
        key = None
    found = _PINNED.get(key) if key is not None else None
    if found is not None:
        return found
    try:
        variant = variant_from_data(
            data, f"{where}: variant_data", origin=spec, overrides=overrides
        )
        rules = Ruleset(variant)
    except BeziqueError as exc:
        raise RecordError(str(exc)) from exc
    if key is not None:
        if len(_PINNED) >= _CACHE_SIZE:
            _PINNED.pop(next(iter(_PINNED)))
        _PINNED[key] = rules
    return rules


def differences(recorded: Any, now: Any, limit: int = 4) -> list[str]:
    """List where two variants' data differ, as ``path: X recorded, Y now`` (at most ``limit``).

    Mappings are compared key by key; anything else (lists included) as a whole.
    """
    found: list[str] = []
    stack: list[tuple[str, Any, Any]] = [("", recorded, now)]
    while stack and len(found) <= limit:
        path, old, new = stack.pop()
        if isinstance(old, Mapping) and isinstance(new, Mapping):
            for key in sorted(set(old) | set(new), key=str, reverse=True):
                child = f"{path}.{key}" if path else str(key)
                stack.append((child, old.get(key, _MISSING), new.get(key, _MISSING)))
        elif not _same(old, new):
            found.append(f"{path or 'the data'}: {_short(old)} recorded, {_short(new)} now")
    if len(found) > limit:
        found[limit:] = ["..."]
    return found


class _Missing:
    def __repr__(self) -> str:
        return "absent"


_MISSING = _Missing()


def _same(old: Any, new: Any) -> bool:
    try:
        return canonical_json(old) == canonical_json(new)
    except (TypeError, ValueError, RecursionError):
        return False


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."

"""Pinned rules: the merged variant a record or a saved state carries, and its digest.

A ``bezique-record/2`` record (:mod:`bezique.records.record`) and a ``bezique-state/2``
saved state (:meth:`bezique.game.GameState.to_json`) carry, beside the variant's
name as it was given, the variant's merged data (``variant_data``: every key,
overrides and defaults included), the digest of that data's canonical JSON form
(``variant_digest``) and the bezique version that wrote them.  So they replay
anywhere with no variant file, and can tell when the variant they name now
merges to other rules.

The carried data is untrusted input: it is checked exactly as a variant file
is (:func:`bezique.variant.variant_from_data`: the schema, the sense checks,
plugins by registered name only) unless it is identical to the named variant
as it loads now.  A record names its variant by registered name, never by a
file's path (:func:`recorded_as` says how a game of a house-rule file is named):
a name that is a path is never read, and such a record replays by the rules it
carries.

The named variant and the carried rules are compared as rules
(:func:`same_rules`): citations (``source:`` texts at any level) and the prose
of ``title`` and ``summary`` are not rules, so rewording them since changes
nothing; and a key absent on one side means the default the schema declares for
it (:func:`comparable`), so a key added to a variant since, with the value its
absence meant, changes nothing either.  A record whose ``variant`` names another
variant than the one whose rules it carries (the ``name`` in ``variant_data``; a
renamed or edited file) is refused under ``strict``, and under ``recorded``
replays by the rules carried and is reported as the variant they are.

Rules carried from before a key changed its form are read in the form that says the
same now (:func:`in_current_form`): a Rubicon game's placeholder ``game.target: 1``
is ``game.end: one_deal``, so it is no change of rules.

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

import copy
import hashlib
import json
import re
import warnings
from collections.abc import Mapping
from typing import Any, NamedTuple

from bezique import __version__
from bezique.errors import BeziqueError, RecordError
from bezique.rules.ruleset import Ruleset, is_variant_name, ruleset_for
from bezique.variant import (
    BUILTIN_PREFIX,
    ONE_DEAL,
    Variant,
    apply_overrides,
    overrides_between,
    variant_from_data,
)
from bezique.variant.schema import VariantSchema, full_schema, schema_for, with_defaults

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


PROSE_KEYS = frozenset({"source"})
"""Keys that hold prose, not rules, at any level of a variant (citations, in our words)."""
TOP_PROSE_KEYS = frozenset({"title", "summary"})
"""Top-level keys that hold prose, not rules: the variant's full name and its summary."""


def rules_of(data: Any) -> Any:
    """Return a copy of a variant's data without its prose: the text of the prose keys.

    Those are :data:`PROSE_KEYS` at any level and :data:`TOP_PROSE_KEYS` at the top, when
    they hold text (anything else there is not prose, and the schema refuses it).

    What is left is what the game is played by.  Raise :class:`RecursionError`
    for data nested too deeply to copy.
    """
    if not isinstance(data, Mapping):
        return data
    return _without_prose(data, TOP_PROSE_KEYS | PROSE_KEYS)


def _without_prose(value: Any, prose: frozenset[str] = PROSE_KEYS) -> Any:
    """``value`` without the text held by the keys ``prose`` (at this level; below, citations)."""
    if isinstance(value, Mapping):
        return {
            k: _without_prose(v)
            for k, v in value.items()
            if not (k in prose and isinstance(v, str))
        }
    if isinstance(value, list):
        return [_without_prose(v) for v in value]
    return value


def same_rules(recorded: Any, now: Any, schema: VariantSchema | None = None) -> bool:
    """Whether two variants' data hold the same rules, whatever their prose says.

    A key absent on one side and set to its default on the other is the same rule
    (:func:`comparable`; ``schema`` declares the defaults, None: the schema of
    ``now``'s plugins).  Data that cannot be compared (not plain JSON data, or
    nested too deeply) is not the same.
    """
    schema = schema_of(now) if schema is None else schema
    try:
        return canonical_json(comparable(recorded, schema)) == canonical_json(
            comparable(now, schema)
        )
    except (TypeError, ValueError, RecursionError):
        return False


def comparable(data: Any, schema: VariantSchema) -> Any:
    """A variant's rules as they are compared: no prose, and every default filled in.

    That is :func:`rules_of` the data, with the default ``schema`` declares
    written for every key it lacks (:func:`~bezique.variant.schema.with_defaults`).
    So a key added to a variant since a record was written, whose absence meant
    the value now written, is no change of rules.  Raise :class:`RecursionError`
    for data nested too deeply to copy.
    """
    return with_defaults(rules_of(data), schema)


def schema_of(data: Any) -> VariantSchema:
    """The schema of a variant's data: that of the plugins it lists, else of every plugin.

    Its declared defaults fill in what the data lacks when rules are compared.
    """
    plugins = data.get("plugins") if isinstance(data, Mapping) else None
    if isinstance(plugins, list) and all(isinstance(name, str) for name in plugins):
        try:
            return schema_for(plugins)[0]
        except BeziqueError:
            pass
    return full_schema()


_PINNED: dict[tuple[str, str, str], Ruleset] = {}
"""Rulesets built from carried data, by digest, name and overrides (the data is checked once)."""


VERSION = re.compile(r"\d{1,6}(\.\d{1,6}){0,3}([.+-]?[0-9A-Za-z]{1,16}){0,4}")
"""What a bezique version looks like (``0.1.0``, ``1.2rc1``, ``0.2.0.dev3+g1a2b3c``)."""


class Pinned(NamedTuple):
    """The rules to replay by, and the variant they are reported as (its name and overrides)."""

    ruleset: Ruleset
    spec: str
    overrides: dict[str, Any]


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
    """Return the ruleset to replay by (:func:`pinned_rules`, without the name reported)."""
    return pinned_rules(spec, overrides, data, digest, where, policy, version=version).ruleset


def pinned_rules(
    spec: str,
    overrides: Mapping[str, Any],
    data: Any,
    digest: str,
    where: str,
    policy: str = RECORDED,
    *,
    version: str | None = None,
) -> Pinned:
    """Return the rules to replay by, from the variant named and the data carried.

    ``spec`` and ``overrides`` are the variant as named; ``data`` and ``digest``
    the merged data carried and the digest written beside it; ``where`` starts
    every message (``game.json``).  ``data`` is None for a record that pins its
    rules by the digest alone (:func:`digest_pinned_ruleset`).  ``version`` is
    the bezique version that wrote the data: another one than this is told in a
    :class:`RulesWarning`.  The variant is reported as named, unless the rules
    carried are played and ``spec`` is a path or names another variant than
    theirs: then as :func:`recorded_as` names them.
    Raise :class:`~bezique.errors.RecordError` when the digest does not match
    the data, the data fails the variant checks, or ``policy`` says to refuse.
    """
    if policy not in POLICIES:
        raise RecordError(f"rules policy {policy!r}: use one of {', '.join(POLICIES)}")
    as_named = dict(overrides)
    if data is None:
        return Pinned(digest_pinned_ruleset(spec, overrides, digest, where, policy), spec, as_named)
    carried = _checked_digest(data, digest, where)
    _check_overrides_carried(data, overrides, where)
    _check_version(version, where)
    data = in_current_form(data)
    named, failure = _named_ruleset(spec, overrides)
    if named is None:
        return _unloadable(spec, overrides, data, where, policy, failure)
    if variant_digest(named.variant) == carried:
        return Pinned(named, spec, as_named)
    if data.get("name") != named.variant.name:
        return _another_variant(spec, overrides, data, named, where, policy)
    if same_rules(data, named.variant.data):  # only prose, or a default's absence, since
        if policy == CURRENT:
            return Pinned(named, spec, as_named)
        return Pinned(_carried_ruleset(spec, overrides, data, carried, where), spec, as_named)
    return _changed(spec, overrides, data, named, where, policy)


ONE_DEAL_PLUGIN = "rubicon"
"""The plugin whose games were of one deal before ``game.end`` said so (it decided them)."""


def in_current_form(data: dict[str, Any]) -> dict[str, Any]:
    """Carried rules written before ``game.end`` existed, in the form that says the same now.

    Such a variant listing the rubicon plugin was a game of one deal whatever its
    ``game.target`` said (a placeholder, 1: the plugin decided the game when the hand
    was over); that is ``game.end: one_deal`` with no target now, so the rules
    compare equal to the variant as it loads now and replay as they did.  Any other
    data is returned as it is.
    """
    game, plugins = data.get("game"), data.get("plugins")
    if (
        not isinstance(game, dict)
        or "end" in game
        or not isinstance(plugins, list)
        or ONE_DEAL_PLUGIN not in plugins
    ):
        return data
    upgraded = dict(data)
    upgraded["game"] = {k: v for k, v in game.items() if k != "target"} | {"end": ONE_DEAL}
    return upgraded


def _unloadable(
    spec: str,
    overrides: Mapping[str, Any],
    data: Mapping[str, Any],
    where: str,
    policy: str,
    failure: str,
) -> Pinned:
    """A record whose variant cannot be loaded here (unknown, or named by a path).

    ``recorded`` plays the rules carried, reported by a registered name when
    ``spec`` is a path; the others refuse it.
    """
    problem = f"the variant {spec!r} cannot be loaded here ({failure})"
    if policy != RECORDED:
        raise RecordError(f"{where}: {problem}; its rules cannot be checked")
    carried = digest_of(data)
    warnings.warn(
        f"{where}: {problem}; replaying with the rules recorded ({carried[:19]}...)",
        RulesWarning,
        stacklevel=4,
    )
    rules = _carried_ruleset(spec, overrides, data, carried, where)
    return Pinned(rules, *recorded_as(rules.variant, spec, overrides))


def _changed(
    spec: str,
    overrides: Mapping[str, Any],
    data: Mapping[str, Any],
    named: Ruleset,
    where: str,
    policy: str,
) -> Pinned:
    """A record of a variant that now merges to other rules than those it carries.

    ``recorded`` plays the rules carried, ``current`` the variant as it is now,
    each saying what changed; ``strict`` refuses it.
    """
    carried, now = digest_of(data), variant_digest(named.variant)
    changes = "; ".join(differences(data, named.variant.data))
    problem = (
        f"the variant {spec!r} now merges to different rules than those recorded "
        f"({changes or 'the data differs'}; recorded {carried[:19]}..., now {now[:19]}...)"
    )
    if policy == STRICT:
        raise RecordError(
            f"{where}: {problem}; refusing to replay (the rules 'recorded' replay by the "
            "recorded rules, 'current' by the variant as it is now)"
        )
    if policy == CURRENT:
        return Pinned(_as_it_is_now(named, where, problem), spec, dict(overrides))
    warnings.warn(
        f"{where}: {problem}; replaying with the rules recorded", RulesWarning, stacklevel=4
    )
    return Pinned(_carried_ruleset(spec, overrides, data, carried, where), spec, dict(overrides))


def _checked_digest(data: Any, digest: str, where: str) -> str:
    """Return the digest of the carried data, refusing one that is not the digest written."""
    try:
        carried = digest_of(data)
    except (TypeError, ValueError, RecursionError) as exc:
        raise RecordError(f"{where}: variant_data: not plain JSON data ({exc})") from None
    if carried != digest:
        raise RecordError(
            f"{where}: variant_digest: {str(digest)[:80]!r} is not the digest of variant_data "
            f"({carried}); the rules were edited after they were recorded"
        )
    return carried


def _check_version(version: str | None, where: str) -> None:
    """Refuse a version that is not one; tell of another version than this."""
    if version is not None and not VERSION.fullmatch(version):
        raise RecordError(
            f"{where}: bezique: {version[:40]!r} is not a bezique version (such as "
            f"{__version__!r}); the file was edited or damaged"
        )
    if version is not None and version != __version__:
        warnings.warn(
            f"{where}: recorded with bezique {version}; this is bezique {__version__}",
            RulesWarning,
            stacklevel=4,
        )


def _another_variant(
    spec: str,
    overrides: Mapping[str, Any],
    data: Mapping[str, Any],
    named: Ruleset,
    where: str,
    policy: str,
) -> Pinned:
    """A record that names another variant than the one whose rules it carries.

    ``strict`` refuses it, ``current`` plays the variant named as it is now, and
    ``recorded`` plays the rules carried and reports them as the variant they are.
    """
    named_as = "" if named.variant.name == spec else f" (the variant {named.variant.name!r})"
    problem = (
        f"variant: names {spec!r}{named_as}, but the rules carried (variant_data) are those "
        f"of {_short(data.get('name'))}"
    )
    if policy == STRICT:
        raise RecordError(
            f"{where}: {problem}; refusing to replay (the file was edited, or names another "
            "variant than the one played)"
        )
    if policy == CURRENT:
        return Pinned(_as_it_is_now(named, where, problem), spec, dict(overrides))
    rules = _carried_ruleset(spec, overrides, data, digest_of(data), where)
    name, extra = recorded_as(rules.variant)
    warnings.warn(
        f"{where}: {problem}; replaying with the rules recorded, as the variant {name!r}",
        RulesWarning,
        stacklevel=4,
    )
    return Pinned(rules, name, extra)


def _check_overrides_carried(data: Any, overrides: Mapping[str, Any], where: str) -> None:
    """Refuse overrides that the carried data does not already hold merged.

    ``variant_data`` is the variant with its overrides merged, so merging them
    over it again must change nothing (a ``null`` deletes a key already gone);
    overrides that would are not those the game was played by.
    """
    if not isinstance(data, dict):
        raise RecordError(f"{where}: variant_data: must be a mapping, not {_short(data)}")
    if not overrides:  # (nothing to merge: nothing changes; no copy of the rules made)
        return
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
        f"{where}: {problem}; replaying with the variant as it is now", RulesWarning, stacklevel=5
    )
    return named


NOT_A_NAME = (
    "it is a file's path, and a record names its variant by registered name: the file is not read"
)
"""Why a variant named by a path is not loaded from a record or a saved state."""


def not_a_name(spec: str) -> str:
    """Say why a record or saved state with no rules carried cannot name ``spec`` ('': it can).

    A path is refused without reading the file.
    """
    if is_variant_name(spec):
        return ""
    return (
        f"variant: {_short(spec, 300)} is a file's path, not a registered variant name; a record "
        "names its variant by registered name and the file is not read, and this one carries "
        "no rules (variant_data) to replay by"
    )


def _named_ruleset(spec: str, overrides: Mapping[str, Any]) -> tuple[Ruleset | None, str]:
    """Load the variant as named; return it, or None and the first line of the reason.

    Only a registered name is loaded: a path (anything but a name) is not read.
    """
    if not is_variant_name(spec):
        return None, NOT_A_NAME
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


_FORMS: dict[int, tuple[Variant, str, dict[str, Any]]] = {}
"""What :func:`recorded_as` found for the variants last asked (each kept with its variant)."""


def recorded_as(
    variant: Variant, spec: str | None = None, overrides: Mapping[str, Any] | None = None
) -> tuple[str, dict[str, Any]]:
    """Return the registered name and the overrides a record names ``variant`` by (never a path).

    ``spec`` and ``overrides`` are the variant as it was named (None: as its
    origin names it); a name is kept with its overrides.  A variant loaded from
    a file (a house rule) is named by the registered variant its ``extends:``
    chain builds on (the nearest one), with the overrides that make the file's
    rules of it (its own keys and those given), checked to merge to the same
    data; a variant with no such base (a file that extends nothing, the rules
    an older record carried beside a path) by another registered variant
    (:func:`_registered_base`), else by its own name (unknown here: a record
    replays it by the rules it carries).
    """
    if spec is not None and is_variant_name(spec):
        return spec, copy.deepcopy(dict(overrides or {}))
    if spec is None and variant.origin.startswith(BUILTIN_PREFIX):
        return variant.origin[len(BUILTIN_PREFIX) : -len(".yaml")], dict(variant.overrides)
    found = _FORMS.get(id(variant))
    if found is None or found[0] is not variant:
        found = (variant, *_registered_base(variant))
        if len(_FORMS) >= _CACHE_SIZE:
            _FORMS.pop(next(iter(_FORMS)))
        _FORMS[id(variant)] = found
    return found[1], copy.deepcopy(found[2])


DEFAULT_BASE = "ordinary"
"""The registered variant a record names rules by when no nearer base is found."""


def _registered_base(variant: Variant) -> tuple[str, dict[str, Any]]:
    """The nearest registered variant that, with overrides, merges to ``variant``'s data.

    Tried in turn: the registered files of its ``extends:`` chain (the nearest
    first), the variant of its name, those named as its plugins are (the last
    first), :data:`DEFAULT_BASE`; the first whose data, with the overrides that
    make ``variant``'s of it, loads to the same data is taken.
    """
    chain = [
        origin[len(BUILTIN_PREFIX) : -len(".yaml")]
        for origin in reversed(variant.chain)
        if origin.startswith(BUILTIN_PREFIX) and origin.endswith(".yaml")
    ]
    plugins = [str(name) for name in reversed(variant.data.get("plugins") or [])]
    digest = variant_digest(variant)
    for base in dict.fromkeys([*chain, variant.name, *plugins, DEFAULT_BASE]):
        try:
            extra = overrides_between(ruleset_for(base).variant.data, variant.data)
            if variant_digest(ruleset_for(base, extra or None).variant) == digest:
                return base, extra
        except BeziqueError:
            continue
    return variant.name, {}


def differences(
    recorded: Any, now: Any, limit: int = 4, schema: VariantSchema | None = None
) -> list[str]:
    """List where two variants' rules differ, as ``path: X recorded, Y now`` (at most ``limit``).

    They are compared as :func:`same_rules` compares them (:func:`comparable`: no
    prose, defaults filled in from ``schema``, None: the schema of ``now``'s
    plugins); mappings key by key, anything else (lists included) as a whole.
    """
    schema = schema_of(now) if schema is None else schema
    try:
        recorded, now = comparable(recorded, schema), comparable(now, schema)
    except RecursionError:
        return ["the data: nested too deeply to compare"]
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

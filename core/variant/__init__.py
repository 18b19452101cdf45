"""Load a variant: safe YAML, ``extends:`` merging, overrides, schema and sense checks.

A variant is named by a registered name (``ordinary``, see
:func:`bezique.variant.registry.variant_files`), by ``builtin/NAME.yaml`` (the
:attr:`Variant.origin` of a registered variant), or by the path of a ``.yaml``
file.  A file may say ``extends: PARENT`` (a registered name, or the file name
of a ``.yaml`` file in the same folder): mappings merge key by key, lists are
replaced, and ``null`` deletes an inherited key.  Overrides from the API or a
game record merge on top the same way (:mod:`bezique.variant.loader`).

The merged data is checked against the schema of the kernel and of the plugins
it lists (:mod:`bezique.variant.schema`: each plugin brings its own sections, so a
key no listed plugin owns is refused, naming the installed plugin that owns it),
then for sense, so that a variant that validates plays: the kernel's checks
(:mod:`bezique.variant.checks`: packets add up, the pack holds the hands and what
is left goes round the players, every rank, suit and card named is of the pack,
every plugin is known and listed after the plugins it builds on, ...) and each
plugin's (``bezique_variant_problems``).  Every problem is reported as
``FILE:LINE:COL: path.to.key: message`` at the file that set the offending
value (and :func:`validate_paths` adds each code a ``source:`` text cites that
the bibliography does not hold, at the code's own column:
:mod:`bezique.variant.citations`), or ``<overrides>: path.to.key: message``
(:mod:`bezique.variant.locate`);
all of them are raised together as one :class:`~bezique.errors.VariantError`,
at most :data:`~bezique.reading.yamlsafe.MAX_PROBLEMS` for each file (and for the
overrides), then a line counting the rest.  A misspelt key is told the nearest
key of the schema, at its own level or anywhere else (``tarrget:`` ->
``game.target``; :mod:`bezique.variant.explain`).  Nothing is written, and the
only thing kept is a small memo of parsed file contents (keyed by the bytes), so
a rejected file leaves nothing behind.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bezique.errors import VariantError
from bezique.reading.yamlsafe import MAX_NODES, JsonPath
from bezique.variant import checks, explain, loader
from bezique.variant.loader import (
    BUILTIN_PREFIX,
    MAX_CHAIN_VALUES,
    apply_overrides,
    overrides_between,
)
from bezique.variant.locate import (
    MAX_CHAIN,
    OVERRIDES,
    Locator,
    Message,
    Origins,
    Source,
    kind,
    ordered,
)
from bezique.variant.schema import (
    ONE_DEAL,
    SCHEMA_FILE,
    VariantSchema,
    declared_default,
    full_schema,
    game_target,
    load_fragment,
    schema_for,
    variant_schema,
)

__all__ = [
    "BUILTIN_PREFIX",
    "MAX_CHAIN",
    "MAX_CHAIN_VALUES",
    "ONE_DEAL",
    "OVERRIDES",
    "SCHEMA_FILE",
    "Variant",
    "apply_overrides",
    "declared_default",
    "game_target",
    "load_fragment",
    "load_variant",
    "load_variant_text",
    "overrides_between",
    "validate_paths",
    "variant_from_data",
    "variant_listing",
    "variant_schema",
    "variant_summaries",
]


@dataclass(frozen=True)
class Variant:
    """A loaded, merged and validated variant.

    ``data`` is the merged mapping without ``extends``; ``origin`` is the file
    it was loaded from (a path, or ``builtin/NAME.yaml`` for a registered
    variant, which :func:`load_variant` accepts back); ``chain`` lists the
    files merged, base first; ``overrides`` are those merged on top.
    """

    name: str
    data: dict[str, Any] = field(hash=False)
    origin: str
    chain: tuple[str, ...]
    overrides: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def title(self) -> str:
        """The variant's full name for people (its ``name`` when it has no title)."""
        return str(self.data.get("title", self.name))

    @property
    def summary(self) -> str:
        """The variant's one-line summary."""
        return str(self.data["summary"])

    @property
    def plugins(self) -> tuple[str, ...]:
        """The registered names of the plugins the variant needs, in order."""
        return tuple(self.data["plugins"])


def load_variant(
    spec: str | os.PathLike[str], overrides: Mapping[str, Any] | None = None
) -> Variant:
    """Load the variant ``spec`` (a registered name or a ``.yaml`` path) with ``overrides``.

    Raise :class:`VariantError` listing every problem found.
    """
    variant, problems = _checked(spec, overrides)
    if variant is None:
        raise VariantError(ordered(problems))
    return variant


def load_variant_text(text: str, display: str = "house.yaml") -> Variant:
    """Load a variant from its file's text, given in memory (pasted into a page).

    It is read and checked as a file called ``display`` would be, every problem
    reported at ``display:LINE:COL``; having no folder, it may extend only a
    registered variant.  Raise :class:`VariantError` listing every problem found.
    """
    variant, problems = _checked(loader.text_source(text, display), None)
    if variant is None:
        raise VariantError(ordered(problems))
    return variant


def _checked(
    spec: str | os.PathLike[str] | Source, overrides: Mapping[str, Any] | None
) -> tuple[Variant | None, list[Message]]:
    """Load ``spec`` with ``overrides``: the variant, or None and every problem found.

    The problems of each file's YAML reading, of its schema and of the sense checks
    come together; raise :class:`VariantError` only for what stops the loading (a file
    that cannot be read whole, a broken ``extends:`` chain, bad overrides).
    """
    top = spec if isinstance(spec, Source) else loader.resolve_spec(spec)
    chain, problems = loader.load_chain(top)
    data, origins = loader.merge_chain(chain)
    plain_overrides: dict[str, Any] = {}
    if overrides:
        plain_overrides = loader.plain_overrides(overrides)
        deleting_nothing = loader.deleting_nothing(data, plain_overrides, ())
        if deleting_nothing:
            raise VariantError(deleting_nothing)
        loader.merge_into(data, plain_overrides, (), None, origins)
    problems += _problems(data, Locator(origins))
    if problems:
        return None, loader.past_refused(chain, problems)
    _fill_defaults(data)
    return Variant(
        name=data["name"],
        data=data,
        origin=chain[-1].source.display,
        chain=tuple(file.source.display for file in chain),
        overrides=plain_overrides,
    ), []


def variant_from_data(
    data: Any, where: str, *, origin: str, overrides: Mapping[str, Any] | None = None
) -> Variant:
    """Check merged variant data held outside any file (a game record's) as a file is checked.

    ``data`` is a whole merged variant, as :attr:`Variant.data` holds it: it
    extends nothing, it is copied as plain data within the YAML reader's limits
    (:data:`~bezique.reading.yamlsafe.MAX_DEPTH` levels, :data:`~bezique.reading.yamlsafe.MAX_NODES`
    values), then checked against the schema, for sense and by its plugins (named
    by registered name only).  Every problem is reported as ``WHERE: path.to.key:
    message``, all of them together in one :class:`VariantError`.  ``origin``
    is what the variant gives as its origin and chain (the name a record gives);
    ``overrides`` what it says was merged into the data.
    """
    if not isinstance(data, Mapping):
        raise VariantError(f"{where}: must be a mapping of a variant's keys, not {kind(data)}")
    if loader.values_beyond(data, MAX_NODES):
        raise VariantError(
            f"{where}: holds more than {MAX_NODES} values, more than a variant file may"
        )
    texts: list[str] = []
    plain = loader.plain_data(data, (), texts)
    if isinstance(plain, dict) and "extends" in plain:
        texts.append(f"{OVERRIDES}: extends: merged variant data extends nothing")
    if not texts:
        texts = ordered(_problems(plain, Locator(Origins(None))))
    if texts:
        raise VariantError([where + t.removeprefix(OVERRIDES) for t in texts])
    _fill_defaults(plain)
    return Variant(
        name=plain["name"],
        data=plain,
        origin=origin,
        chain=(origin,),
        overrides=loader.plain_overrides(overrides) if overrides else {},
    )


def _problems(data: dict[str, Any], locator: Locator) -> list[Message]:
    """Every problem of merged ``data``: its plugin list, the schema, the sense checks.

    The data is validated against the schema of the plugins it lists when the list
    is sound, else against every installed plugin's (so that only the list is
    refused).  The plugins' own checks read well-formed data only: they are asked
    once the list is sound and the data satisfies its schema.
    """
    names, problems = checks.plugin_list(data, locator)
    schema: VariantSchema | None = None
    if names is not None:
        schema, bad = schema_for(names)
        problems += [
            locator.message(
                ("plugins", names.index(name)), f"plugin {name!r} cannot be used: {text}"
            )
            for name, text in bad.items()
        ]
    if schema is None or problems:
        names, schema = None, full_schema()
    found = explain.schema_problems(data, schema, locator, _owner_of)
    problems += found
    problems += checks.sense_problems(data, schema, locator)
    if names is not None and not found:
        problems += checks.plugin_problems(data, names, locator)
    return problems


def _owner_of(path: JsonPath) -> str | None:
    """The installed plugin whose schema fragment brings the key at ``path`` (None: none)."""
    return full_schema().owners.get(path)


def _fill_defaults(data: dict[str, Any]) -> None:
    """Write the schema's defaults into same-rank combinations (suit any, any suits).

    The ordinary plugin's table; a variant without it has none to fill.
    """
    for combo in checks.section(data, "declarations", "combinations").values():
        if "rank" in combo:
            combo.setdefault("suit", "any")
            combo.setdefault("distinct_suits", False)


def validate_paths(paths: Sequence[str]) -> list[str]:
    """Load each of ``paths`` as a variant spec; return every problem found (none: ``[]``).

    Besides what loading finds, each code a ``source:`` text cites must be in the
    bibliography (:mod:`bezique.variant.citations`).  The problems of one path come in
    file order, those of its YAML reading, its schema, its sense and its citations
    together; a problem of a file shared by several of ``paths`` (a parent) is listed once.
    """
    # Imported here, not with the package: it loads the bibliography's reader, which
    # listing or loading a variant does not need.
    from bezique.variant import citations

    messages: list[str] = []
    for path in paths:
        try:
            _, problems = _checked(path, None)
        except VariantError as exc:  # the loading stopped: what was found, then the citations
            messages += exc.problems
            messages += citations.citation_problems(path)
            continue
        messages += ordered([*problems, *citations.citation_messages(path)])
    return list(dict.fromkeys(messages))


def variant_summaries() -> list[tuple[str, str]]:
    """Return ``(name, summary)`` of every registered variant (see :func:`variant_listing`).

    Raise :class:`VariantError` with the problems of every variant that cannot be listed.
    """
    summaries, problems = variant_listing()
    if problems:
        raise VariantError(problems)
    return summaries


def variant_listing() -> tuple[list[tuple[str, str]], list[str]]:
    """Return ``(name, summary)`` of each registered variant, and the problems of the others.

    Cheap by design: each file's ``extends:`` chain is read and merged as
    :func:`load_variant` reads it, but neither validated nor joined to its plugins
    (a file whose YAML reading refused something is not listed: its problems are).
    Only a variant whose merged summary is not text is loaded in full, for its problems.
    """
    summaries: list[tuple[str, str]] = []
    problems: list[str] = []
    for name in loader.catalogue():
        try:
            chain, _ = loader.load_chain(loader.resolve_spec(name))
            unreadable = [m for file in chain for m in loader.yaml_problems(file)]
            if unreadable:  # what its YAML reading refused, as before it was read whole
                problems.extend(ordered(unreadable))
                continue
            summary = loader.merge_chain(chain)[0].get("summary")
            if not isinstance(summary, str) or not summary:
                summary = load_variant(name).summary
            summaries.append((name, summary))
        except VariantError as exc:
            problems.extend(exc.problems)
    return summaries, problems

"""Which file of a variant's ``extends:`` chain set each value: what a rule inherits.

A rule keeps the citation of the file that set it: that file's ``source:`` text, or its
name as a house rule when it gives none.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bezique.errors import BeziqueError
from bezique.variant import loader
from bezique.variant.locate import File, Origins

if TYPE_CHECKING:
    from bezique.variant import Variant


class Inheritance:
    """Answers, for dotted paths of a variant's merged data, the parent that set them.

    The chain is read again from the variant's origin (the files are memoised by the
    loader); a variant held outside any file (a game record's) inherits nothing.
    """

    def __init__(self, variant: Variant) -> None:
        """Read the chain of ``variant`` and who wrote each of its values."""
        self.origins: Origins | None = None
        self.top: File | None = None
        self.chain: list[File] = []
        if len(variant.chain) < 2:  # one file, or merged data held outside any file
            return
        try:
            chain, _ = loader.load_chain(loader.resolve_spec(variant.origin))
        except BeziqueError:
            return
        if [file.source.display for file in chain] != list(variant.chain):
            return  # the files changed since the variant was loaded: claim nothing
        merged, origins = loader.merge_chain(chain)
        if variant.overrides:
            loader.merge_into(merged, variant.overrides, (), None, origins)
        self.origins, self.top, self.chain = origins, chain[-1], chain

    def parent_of(self, paths: Iterable[str]) -> str | None:
        """The variant that set every one of ``paths`` when the variant's own file set none.

        None when the variant's own file (or its overrides) set one of them: the rule is
        its own.  The nearest such parent when several set them.
        """
        nearest = self._nearest(paths)
        return _name(nearest) if nearest is not None else None

    def citation(self, paths: Iterable[str], source: tuple[str, ...], data: Any) -> str | None:
        """The citation of a rule that states ``paths``, its section citing ``source``.

        The rule is the work of the nearest file that set one of ``paths`` (the variant's
        own file, or the parent it is inherited from), and is cited to that file's own
        ``source:`` text at ``source``, else to its nearest one above it (the section's,
        then the file's).  A file that sets it without any makes it a rule of its own,
        cited as a house rule of that file (:func:`house_rule`), never with the text of a
        parent about what the parent set.  The base of the chain is cited as it would be
        alone, by its text at ``source`` only.  A nearer file's text counts too, for an
        inherited rule, when that file sets nothing else in the section: it is a note on
        the inherited rules themselves ("inherited from ordinary").  A variant whose chain
        is not known, or a rule the overrides set, is cited to the text of the merged
        ``data``.
        """
        writer = self._writer(paths)
        if writer is None:
            return _text(_at(data, source))
        for file in sorted(self.chain, key=lambda f: f.rank):
            if file.rank >= writer.rank:
                break
            section = _at(file.data, source[:-1])
            if isinstance(section, dict) and set(section) <= {source[-1]}:
                text = _text(section.get(source[-1]))
                if text is not None:
                    return text
        if writer is self.chain[0]:  # the base, cited as it would be alone
            return _text(_at(writer.data, source))
        for end in range(len(source) - 1, -1, -1):  # the writer's own, or its nearest above
            text = _text(_at(writer.data, (*source[:end], source[-1])))
            if text is not None:
                return text
        return house_rule(writer)

    def _writer(self, paths: Iterable[str]) -> File | None:
        """The nearest file that set one of ``paths`` (None: the overrides, or unknown)."""
        if self.origins is None:
            return None
        writers = [self.origins.of(tuple(path.split("."))) for path in paths]
        if not writers or any(w is None for w in writers):
            return None
        return min((w for w in writers if w is not None), key=lambda w: w.rank)

    def _nearest(self, paths: Iterable[str]) -> File | None:
        """The nearest parent file that set all of ``paths`` (None: one is the variant's own)."""
        writer = self._writer(paths)
        return None if writer is None or writer is self.top else writer


def _at(data: Any, path: tuple[str, ...]) -> Any:
    """The value at ``path`` of nested mappings, or None."""
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _text(found: Any) -> str | None:
    """A ``source:`` text on one line (None: no text)."""
    return " ".join(found.split()) if isinstance(found, str) else None


def house_rule(file: File) -> str:
    """The citation of a value a file sets without a ``source:`` of its own there."""
    return f"house rule ({Path(file.source.display).name})"


def _name(file: File) -> str:
    """A chain file's variant name (its file name's stem when it has no name)."""
    name = file.data.get("name")
    return name if isinstance(name, str) else Path(file.source.display).stem

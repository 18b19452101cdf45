"""Which file of a variant's ``extends:`` chain set each value: what a rule inherits."""

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

    def source_of(self, paths: Iterable[str], source: tuple[str, ...]) -> str | None:
        """The ``source:`` text at ``source`` in the parent that set every one of ``paths``.

        Read from that parent's own file, or the nearest of its ancestors that has one
        there, so an inherited rule keeps the citation of the file that set it (never an
        overlay's text about another rule).  A nearer file's text counts too when that file
        sets nothing else in the section: it is a note on the inherited rules themselves
        ("inherited from ordinary").  None when the rule is not inherited, or no file of
        that part of the chain cites it.
        """
        nearest = self._nearest(paths)
        if nearest is None:
            return None
        for file in sorted(self.chain, key=lambda f: f.rank):
            section = _at(file.data, source[:-1])
            notes_only = isinstance(section, dict) and set(section) <= {source[-1]}
            if file.rank >= nearest.rank or notes_only:
                text = _at(file.data, source)
                if isinstance(text, str):
                    return " ".join(text.split())
        return None

    def _nearest(self, paths: Iterable[str]) -> File | None:
        """The nearest parent file that set all of ``paths`` (None: one is the variant's own)."""
        if self.origins is None or self.top is None:
            return None
        writers = [self.origins.of(tuple(path.split("."))) for path in paths]
        if not writers or any(w is None or w is self.top for w in writers):
            return None
        return min((w for w in writers if w is not None), key=lambda w: w.rank)


def _at(data: Any, path: tuple[str, ...]) -> Any:
    """The value at ``path`` of nested mappings, or None."""
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _name(file: File) -> str:
    """A chain file's variant name (its file name's stem when it has no name)."""
    name = file.data.get("name")
    return name if isinstance(name, str) else Path(file.source.display).stem

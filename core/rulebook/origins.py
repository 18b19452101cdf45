"""Which file of a variant's ``extends:`` chain set each value: what a rule inherits."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

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
        self.origins, self.top = origins, chain[-1]

    def parent_of(self, paths: Iterable[str]) -> str | None:
        """The variant that set every one of ``paths`` when the variant's own file set none.

        None when the variant's own file (or its overrides) set one of them: the rule is
        its own.  The nearest such parent when several set them.
        """
        if self.origins is None or self.top is None:
            return None
        writers = [self.origins.of(tuple(path.split("."))) for path in paths]
        if not writers or any(w is None or w is self.top for w in writers):
            return None
        nearest = max(writers, key=lambda w: -w.rank if w is not None else 0)
        return _name(nearest) if nearest is not None else None


def _name(file: File) -> str:
    """A chain file's variant name (its file name's stem when it has no name)."""
    name = file.data.get("name")
    return name if isinstance(name, str) else Path(file.source.display).stem

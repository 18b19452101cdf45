"""A tree computed from distances: UPGMA (average linkage), small and deterministic.

:func:`upgma` joins, again and again, the two groups whose average distance (over every
pair of their members) is the least, until one group is left: the tree of
:class:`Clade`, each recording the average distance at which its two parts were joined.
Ties are broken by the order the labels were given in, so the same distances always give
the same tree.  :func:`smallest_clade` finds the least group holding two members, which
is how a computed tree is read against an asserted one (are two texts sisters?).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bezique.errors import BeziqueError


@dataclass(frozen=True)
class Clade:
    """A group of the tree: a leaf (no parts), or two groups joined at ``distance``."""

    members: tuple[str, ...]
    """The labels of its leaves, in the order the tree draws them."""
    distance: float = 0.0
    """The average distance between the members of its two parts (0 for a leaf)."""
    parts: tuple[Clade, ...] = ()
    """The two groups it joins (none for a leaf)."""

    @property
    def is_leaf(self) -> bool:
        """Whether the group is one label."""
        return not self.parts

    def groups(self) -> Iterator[Clade]:
        """The group itself and every group inside it, parents before their parts."""
        yield self
        for part in self.parts:
            yield from part.groups()


def upgma(labels: Sequence[str], matrix: Sequence[Sequence[float]]) -> Clade:
    """The UPGMA tree of ``labels`` from their distances ``matrix[i][j]``.

    Raise :class:`BeziqueError` for no labels, labels given twice, or a matrix that is not
    square, symmetric, zero on its diagonal and nowhere negative.
    """
    _check(labels, matrix)
    groups = [Clade((label,)) for label in labels]
    sizes = [1] * len(labels)
    between = [list(row) for row in matrix]
    while len(groups) > 1:
        i, j = min(
            ((i, j) for i in range(len(groups)) for j in range(i + 1, len(groups))),
            key=lambda pair: between[pair[0]][pair[1]],
        )
        joined = Clade(groups[i].members + groups[j].members, between[i][j], (groups[i], groups[j]))
        row = [
            (between[i][k] * sizes[i] + between[j][k] * sizes[j]) / (sizes[i] + sizes[j])
            for k in range(len(groups))
        ]
        row[i] = 0.0
        for k, value in enumerate(row):
            between[i][k] = between[k][i] = value
        groups[i], sizes[i] = joined, sizes[i] + sizes[j]
        for table in (groups, sizes, between):
            del table[j]
        for rest in between:
            del rest[j]
    return groups[0]


def smallest_clade(root: Clade, first: str, second: str) -> Clade:
    """The least group of ``root`` holding both ``first`` and ``second``."""
    if first not in root.members or second not in root.members:
        raise BeziqueError(f"{first!r} and {second!r} are not both leaves of the tree")
    group = root
    while True:
        inner = [p for p in group.parts if first in p.members and second in p.members]
        if not inner:
            return group
        group = inner[0]


def _check(labels: Sequence[str], matrix: Sequence[Sequence[float]]) -> None:
    """Refuse labels or distances a tree cannot be built from, saying which."""
    if not labels:
        raise BeziqueError("a tree needs at least one label")
    if len(set(labels)) != len(labels):
        raise BeziqueError("a tree's labels must differ; one is given twice")
    if len(matrix) != len(labels) or any(len(row) != len(labels) for row in matrix):
        raise BeziqueError(f"the distances must be a {len(labels)} by {len(labels)} table")
    for i, row in enumerate(matrix):
        for j, value in enumerate(row):
            if value < 0 or (i == j and value != 0) or value != matrix[j][i]:
                raise BeziqueError(
                    f"the distance from {labels[i]!r} to {labels[j]!r} is {value}: distances "
                    "must be symmetric, nowhere negative and 0 from a label to itself"
                )

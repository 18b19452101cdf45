"""``python -m bezique.variant``: print the schema of variants that editors use.

It is the kernel's schema merged with every built-in plugin's fragment (see
:mod:`bezique.variant.schema`); ``python -m bezique.variant >
schemas/variant.schema.json`` regenerates the shipped file, which a test compares
with the merge.
"""

from __future__ import annotations

import sys

from bezique.variant.schema import render, variant_schema


def main() -> None:
    """Write the merged schema to standard output."""
    sys.stdout.write(render(variant_schema()))


if __name__ == "__main__":
    main()

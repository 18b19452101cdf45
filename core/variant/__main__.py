"""``python -m bezique.variant``: print, or write, the schemas of variants that editors use.

The schema of variant files is the kernel's schema merged with every built-in
plugin's fragment (see :mod:`bezique.variant.schema`), and the schema of a
house-rule file is made from it (:mod:`bezique.variant.overlay`).  With no argument
the first is printed; ``python -m bezique.variant --write schemas`` writes both
shipped files (``variant.schema.json``, ``variant-overlay.schema.json``) into the
folder ``schemas``, which tests compare with the merge.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bezique.reading.safeio import write_output
from bezique.variant.schema import (
    OVERLAY_FILE,
    SCHEMA_FILE,
    render,
    variant_overlay_schema,
    variant_schema,
)


def main(argv: list[str] | None = None) -> None:
    """Write the merged schema to standard output, or both schemas into a folder."""
    parser = argparse.ArgumentParser(prog="python -m bezique.variant", description=__doc__)
    parser.add_argument("--write", metavar="DIR", help="write both schema files into DIR")
    args = parser.parse_args(argv)
    document = variant_schema()
    if args.write is None:
        sys.stdout.write(render(document))
        return
    folder = Path(args.write)
    for name, schema in ((SCHEMA_FILE, document), (OVERLAY_FILE, variant_overlay_schema(document))):
        write_output(folder / name, render(schema), overwrite=True)
        print(f"wrote {folder / name}")


if __name__ == "__main__":
    main()

"""``python -m bezique``: the same command line as the ``bezique`` script."""

from __future__ import annotations

import sys

from bezique.commands.cli import main

if __name__ == "__main__":
    sys.exit(main())

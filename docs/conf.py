"""Sphinx configuration of the bezique site.

Build it (no network needed) with:

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The reference pages that come from the code and the data (every command, every hook,
the file formats, the bibliography, each shipped variant's rulebook, the differences
between the source presets) are written into ``docs/generated/`` at each build by the
extension ``docs/_ext/bezique_site.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "bezique"
author = "the bezique authors"
copyright = "2026, the bezique authors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "bezique_site",
]
source_suffix = {".md": "markdown"}
# the generated pages that other pages include are not pages of their own
exclude_patterns = ["_build", "_ext", "generated/*.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}

html_theme = "furo"
html_title = "bezique"

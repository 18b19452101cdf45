"""A Sphinx extension that writes the site's generated pages before the sources are read.

Everything it writes goes into ``docs/generated/`` (not tracked: each build writes it
again) and comes from :mod:`bezique.commands.reference`: the command reference from
the argparse parser, the hook reference from :mod:`bezique.hookspecs`, the variant and
record formats from their JSON Schemas, the bibliography, every shipped variant's
rulebook, the differences between the source presets and the genealogy's figure
(``bezique genealogy --format svg``).  The hooks' own functions are
left out of the API page's autodoc of :mod:`bezique.hookspecs`, since the hook
reference describes each of them once.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from bezique.commands import reference
from bezique.compare.genealogy import genealogy
from bezique.compare.genealogyshow import svg

DOCS = Path(__file__).resolve().parent.parent
SCHEMAS = DOCS.parent / "schemas"
GENERATED = DOCS / "generated"

SOURCE_PRESETS = ("eb1875", "hoyle1909", "cards-encyclopedia", "modern-article")
"""The presets of the two-hand game's source texts, compared rule by rule."""

RUBICON_PRESETS = ("rubicon", "six-pack")
"""The Rubicon family's presets, compared rule by rule."""

DIFFERENCES = """# The presets of the source texts, rule by rule

Each preset of a source text compared with the others on its merged rules, as
`bezique diff` prints it: a matrix of the rules on which any of them differs, each
cell the rule's value in short. [Rulebooks and rule-by-rule
differences](../../compare/rulebooks.md) says how it is made.

"""


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_pages(_app: Sphinx | None = None) -> None:
    """Write every generated page into ``docs/generated/``."""
    if GENERATED.exists():
        shutil.rmtree(GENERATED)
    _write(GENERATED / "commands.md", reference.command_reference())
    _write(GENERATED / "hooks.md", reference.hook_reference())
    for name in ("variant", "record"):
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
        _write(GENERATED / f"{name}-format.md", reference.schema_reference(schema))
    _write(GENERATED / "rulebooks" / "bibliography.md", reference.bibliography_page())
    sections = [
        reference.differences_page(SOURCE_PRESETS, "The two-hand game's source presets"),
        reference.differences_page(RUBICON_PRESETS, "Rubicon and six-pack"),
    ]
    _write(GENERATED / "rulebooks" / "differences.md", DIFFERENCES + "\n".join(sections))
    books = GENERATED / "rulebooks" / "variants"
    variants = reference.shipped_variants()
    _write(GENERATED / "rulebooks" / "index.md", reference.rulebooks_index(variants, "variants"))
    for variant in variants:
        page = reference.linked_citations(reference.rulebook_page(variant))
        _write(books / f"{variant}.md", page)
    _write(GENERATED / "genealogy.svg", svg(genealogy()))


def _skip_hooks(_app: Sphinx, what: str, name: str, _obj: Any, skip: bool, _options: Any) -> bool:
    """Leave the hooks out of autodoc's pages: the hook reference describes them."""
    return skip or (what == "module" and name.startswith("bezique_"))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the page writer and the autodoc filter."""
    app.connect("builder-inited", write_pages)
    app.connect("autodoc-skip-member", _skip_hooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

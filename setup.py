"""The optional compiled build: the kernel's hot modules compiled by mypyc, from the one source.

``pip install .`` (or ``python -m build``) builds the plain package, pure Python, as
pyproject.toml describes it.  With the environment variable ``BEZIQUE_COMPILE=1`` the
modules of :data:`COMPILED_MODULES` are compiled to C extensions by mypyc as well (the
wheel is then for one platform and Python version); everything else, the public
``bezique.game`` and ``bezique.players`` and the plugins' hooks among it, stays interpreted.
See docs/development.md.

mypyc names a module by its path, and the package ``bezique`` is mapped from ``core/``
and ``plugins/`` (pyproject's package-dir), so the modules are compiled from a tree of
links under ``build/`` that has the package's own layout.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import setup

COMPILED_MODULES = (
    "bezique.cards",
    "bezique.engine.pluginstate",
    "bezique.engine.tricks",
    "bezique.engine.state",
    "bezique.engine.machine",
    "bezique.engine.notation",
    "bezique.engine.board",
    "bezique.engine.playout",
    "bezique.engine.scores",
    "bezique.engine.questions",
    "bezique.engine.stock",
    "bezique.engine.turns",
    "bezique.engine.refusals",
    "bezique.engine.views",
    "bezique.engine.phases",
    "bezique.rules.hooks",
    "bezique.players.search",
    "bezique.players.worlds",
    "bezique.players.rollout",
    "bezique.players.heuristic",
    "bezique.players.cardvalues",
    "bezique.players.endgame",
    "bezique.players.calibration",
    "bezique.plugins.ordinary.declaring",
    "bezique.plugins.ordinary.forms",
    "bezique.plugins.ordinary.sevens",
    "bezique.plugins.ordinary.quicktests",
    "bezique.plugins.ordinary.cardplay",
    "bezique.plugins.ordinary.combinations",
)
"""The modules the compiled build compiles: the cards, the engine's parts (the phase machine
among them), the hooks' plumbing, the search player's modules (its tree, worlds and
play-outs, the valuations, the heuristic it consults and the end-game solver), and the
ordinary plugin's declaring role with the helpers of its card loop (its forms, the seven of
trumps, the quick tests), its compiled tables and combinations, and the bodies of its hooks
of every card and every trick (the trick's winner, the legal plays, the trick's scores); the
role's class allows interpreted subclasses, as every variant plugin's role is one.  Not a
role that calls ``super()``, as the variant plugins' roles do: mypyc settles the method a
``super()`` call reaches when it compiles, so in a role the kernel composes at run time
(several plugins' roles as the bases of one class) it would skip the roles between, where
the interpreted call reaches the next in the composed class's method order.  Not the
plugin's state of the hand (``hand``): mypyc cannot compile a dataclass with
``slots=True``.  Not the plugin's hook functions: pluggy marks each with an attribute,
which a compiled function cannot carry, so each calls its compiled body.

Not :mod:`bezique.rules.answers`: its checks read plugins' answers of any type through
the classes they should be, where compiled code would raise a TypeError of its own
before the check could say what is wrong."""

HERE = Path(__file__).resolve().parent
MAPPED = {"bezique": "core", "bezique.plugins": "plugins"}
"""pyproject's package-dir, for the packages mypyc reads (the others hold no Python)."""


def link_tree(root: Path) -> Path:
    """Make ``root/bezique``, the package's layout linked to core/ and plugins/; return it."""
    package = root / "bezique"
    if package.exists():
        shutil.rmtree(package)
    package.mkdir(parents=True)
    for entry in (HERE / MAPPED["bezique"]).iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    (package / "plugins").symlink_to(HERE / MAPPED["bezique.plugins"])
    return package


def compiled_extensions() -> list[object]:
    """The C extensions of :data:`COMPILED_MODULES` (mypyc; imported only when compiling)."""
    from mypyc.build import mypycify

    root = link_tree(HERE / "build" / "mypyc-src")
    paths = [str(root.parent / (name.replace(".", "/") + ".py")) for name in COMPILED_MODULES]
    return list(mypycify(paths, opt_level="3", target_dir=str(HERE / "build" / "mypyc")))


if os.environ.get("BEZIQUE_COMPILE") == "1":
    setup(ext_modules=compiled_extensions())
else:
    setup()

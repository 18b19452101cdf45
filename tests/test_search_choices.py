"""The players' choices are unchanged: the quick part of ``tests/search_choices.py``'s record.

The ``search`` player's choice (and its root's statistics) on a few seeded positions of
the ordinary game, Grand and four-hand bezique, and the ``heuristic``'s on a few hundred,
against ``tests/search_choices.json``; ``python tests/search_choices.py`` checks them all.
"""

from __future__ import annotations

import json

from search_choices import RECORD, differences, record


def test_choices_unchanged() -> None:
    found = record(quick=True)
    assert differences(found, json.loads(RECORD.read_text(encoding="utf-8"))) == []

"""Faults injected at the score sheet's hooks: a clear error naming the plugin, the sheet unchanged.

The sheet asks its plugins through the kernel's checked boundary (as a game does): a
plugin listed last (so that it answers a decide hook first, and a collect hook's list
last) misbehaves when armed, by raising or by answering nonsense, and the error must
be a :class:`PluginHookError` naming the plugin and the hook, with the sheet's entries
and totals what they were.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bezique.actions import ScoreEvent
from bezique.errors import PluginHookError
from bezique.hookspecs import SHEET_HOOKS, SheetEntryKind, hookimpl
from bezique.rules import ruleset
from bezique.sheet import Entry, Sheet
from bezique.variant import registry


@pytest.fixture(autouse=True)
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Plugins registered by a test are forgotten after it."""
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    monkeypatch.delenv(registry.BLOCK_ENV, raising=False)
    yield


NONSENSE: dict[str, Any] = {
    "bezique_sheet_entries": [SheetEntryKind("bezique", "bezique", "forty")],  # type: ignore[arg-type]
    "bezique_sheet_declaration_problem": 42,
    "bezique_sheet_penalty": [ScoreEvent(7, 20, "drew_out_of_turn", "")],
    "bezique_sheet_scores": [ScoreEvent(0, 20, "", "")],
    "bezique_sheet_winner": 5,
    "bezique_sheet_hand_end": [ScoreEvent(0, 1.5, "brisques", "")],  # type: ignore[arg-type]
    "bezique_sheet_settlement": "all of it",
}
"""An answer each hook may not give."""

REFUSED = {
    "bezique_sheet_entries": "the points, cards and most must be whole numbers",
    "bezique_sheet_declaration_problem": "42 is not text",
    "bezique_sheet_penalty": "seat 7 is no seat (0 to 1)",
    "bezique_sheet_scores": "the rule and the detail must be text (the rule not empty)",
    "bezique_sheet_winner": "5 is not a side (0 to 1)",
    "bezique_sheet_hand_end": "points 1.5 are not a whole number",
    "bezique_sheet_settlement": "'all of it' is not a list of score events",
}
"""What the boundary says of each answer of :data:`NONSENSE`."""


def fault_plugin(hook: str, fault: str) -> Any:
    """A plugin whose ``hook`` raises ``ValueError`` or answers nonsense when armed."""

    def misbehave(self: Any) -> Any:
        if not self.armed:
            return None
        if fault == "nonsense":
            return NONSENSE[hook]
        raise ValueError("boom")

    misbehave.__name__ = hook
    return type("SheetFault", (), {hook: hookimpl(misbehave), "armed": False})()


def house(tmp_path: Path) -> str:
    """A house rule of Rubicon (every sheet hook is asked in it) with the fault listed last."""
    path = tmp_path / "house-sheet-faults.yaml"
    path.write_text(
        "name: house-sheet-faults\nextends: rubicon\nsummary: Faults injected.\n"
        "plugins: [ordinary, grand, rubicon, referee, fault]\n",
        encoding="utf-8",
    )
    return os.fspath(path)


ENTRIES = [
    Entry("score", 0, "bezique", ("QS", "JD")),
    Entry("score", 1, "four aces"),
    Entry("penalty", 1, "drew out of turn", option="deduct"),
]
"""A sheet that asks the entries', the declaration's and the penalty's hooks."""

LAST = {
    "bezique_sheet_entries": Entry("score", 0, "marriage"),
    "bezique_sheet_declaration_problem": Entry("score", 0, "marriage", ("KS", "QS")),
    "bezique_sheet_penalty": Entry("penalty", 0, "drew out of turn", option="add"),
    "bezique_sheet_scores": Entry("score", 0, "marriage"),
    "bezique_sheet_winner": Entry("hand_end"),
    "bezique_sheet_hand_end": Entry("hand_end"),
    "bezique_sheet_settlement": Entry("hand_end"),
}
"""The entry whose adding asks the hook once the fault is armed."""


@pytest.mark.parametrize("fault", ["ValueError", "nonsense"])
@pytest.mark.parametrize("hook", sorted(SHEET_HOOKS))
def test_a_fault_at_a_sheet_hook_names_the_plugin_and_leaves_the_sheet_as_it_was(
    tmp_path: Path, hook: str, fault: str
) -> None:
    plugin = fault_plugin(hook, fault)
    registry.register_plugin("fault", plugin)
    variant = house(tmp_path)
    sheet = Sheet(variant, ["Ann", "Bob"], entries=ENTRIES)
    before = sheet.tally()
    # bezique 40; four aces 100, less S0's 20 for drawing out of turn, which Rubicon
    # keeps, deducted from Bob at Ann's choice
    assert before.scores == [40, 100 - 20]
    plugin.armed = True
    said = (
        rf"plugin 'fault' failed in {hook} \(test_sheet_hooks.py:\d+ in misbehave\): "
        "ValueError: boom"
        if fault == "ValueError"
        else rf"plugin 'fault' gave a wrong answer to {hook}: .*{re.escape(REFUSED[hook])}"
    )
    with pytest.raises(PluginHookError, match=said) as caught:
        if hook == "bezique_sheet_entries":
            Sheet(variant, ["Ann", "Bob"], entries=ENTRIES)
        else:
            sheet.add(LAST[hook])
    assert (caught.value.plugin, caught.value.hook) == ("fault", hook)
    plugin.armed = False
    assert sheet.entries == ENTRIES
    assert sheet.tally().scores == before.scores


def test_a_sheet_hook_answered_by_no_plugin_gives_no_answer() -> None:
    # Ordinary bezique has no plugin that settles (Rubicon's): its hand's end adds nothing
    sheet = Sheet("ordinary", ["Ann", "Bob"], entries=[Entry("score", 0, "bezique")])
    assert sheet.add(Entry("hand_end")).events == []

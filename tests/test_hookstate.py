"""The game state as hooks see it: the protocols of bezique.hookstate, which the game has.

The hooks' specifications and the declaring role name the state by its protocol
(:class:`~bezique.hookstate.HookState`) and the rules by theirs
(:class:`~bezique.hookstate.HookRules`), not by the game's classes: so the hooks stand
below the game with no import circle, type-only ones included (the import contract).
The type checker checks here that the game's classes have every member of the
protocols (the annotated assignments below), and the tests check it at run time too.
"""

from __future__ import annotations

import ast
import inspect

import pytest

from bezique import hookspecs
from bezique.engine.state import StateData
from bezique.game import GameState, new_game
from bezique.hookstate import HookRules, HookState, HookStateData, HookWords
from bezique.rules.ruleset import Ruleset


def test_a_game_is_the_state_hooks_see() -> None:
    game = new_game("ordinary", seed=7)
    state: HookState = game
    data: HookStateData = game
    rules: HookRules = game.rules
    words: HookWords = game.rules.words
    assert isinstance(state, HookState) and isinstance(data, HookStateData)
    assert isinstance(rules, HookRules)
    assert words.combination("royal_marriage") == "royal marriage"


def test_the_protocols_name_only_what_the_game_has() -> None:
    state = new_game("ordinary", seed=3)
    for protocol, cls in ((HookState, GameState), (HookStateData, StateData), (HookRules, Ruleset)):
        members = {name for name in vars(protocol) if not name.startswith("_")}
        members |= set(vars(protocol).get("__annotations__", {}))
        instance = state.rules if cls is Ruleset else state
        assert isinstance(instance, cls)
        missing = sorted(name for name in members if not hasattr(instance, name))
        assert missing == [], f"{cls.__name__} lacks {missing}"


def test_a_state_missing_a_member_is_no_hook_state() -> None:
    class Partial:
        phase = "play"
        players = 2

    assert not isinstance(Partial(), HookState)


@pytest.mark.parametrize("name", sorted(n for n in dir(hookspecs) if n.startswith("bezique_")))
def test_the_hooks_name_the_state_and_rules_by_their_protocols(name: str) -> None:
    parameters = inspect.signature(getattr(hookspecs, name)).parameters
    expected = {"state": "HookState", "rules": "HookRules"}
    for argument, protocol in expected.items():
        if argument in parameters:
            assert parameters[argument].annotation == protocol


def test_the_declaring_role_takes_the_protocols() -> None:
    for method in ("turn_actions", "refusal", "apply"):
        parameters = inspect.signature(getattr(hookspecs.DeclaringRole, method)).parameters
        assert parameters["state"].annotation == "HookState"
    # read from the source: before Python 3.11, a Protocol's own __init__ is replaced
    (role,) = (
        node
        for node in ast.parse(inspect.getsource(hookspecs)).body
        if isinstance(node, ast.ClassDef) and node.name == "DeclaringRole"
    )
    (init,) = (n for n in role.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    (rules,) = (a for a in init.args.args if a.arg == "rules")
    assert rules.annotation is not None and ast.unparse(rules.annotation) == "HookRules"

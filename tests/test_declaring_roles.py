"""The declaring procedure as one role per variant, composed from its plugins' roles.

Each plugin answers ``bezique_declaring_roles`` with classes that subclass the
ordinary plugin's ``OrdinaryDeclarations``; the ruleset composes them, the plugin
listed last first in the method order, so that two relaxations of the class rule
both apply.  The house rule here plays Grand bezique (S0's re-declaration once a
card is played away: a widow marries again, A24) with three players and the
three-hand rules (S0's second double bezique, the triple and
``declarations.bezique_ladder``, A15): both relaxations in one game.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pluggy
import pytest

from bezique import hookspecs
from bezique.errors import IllegalActionError, PluginError
from bezique.game import GameState, new_game
from bezique.hookspecs import hookimpl
from bezique.plugins.grand import GrandDeclarations
from bezique.plugins.multihand import MultihandDeclarations
from bezique.plugins.ordinary import OrdinaryDeclarations
from bezique.plugins.partnership import PartnershipDeclarations
from bezique.rules import ruleset
from bezique.rules.roles import declaring_role
from bezique.rules.ruleset import Ruleset, ruleset_for
from bezique.testing import check_invariants, points_by_rule, refuse, scenario
from bezique.variant import registry

HOUSE = """\
name: grand-three-hand
extends: grand
summary: Grand bezique for three, each for himself, with the three-hand second double bezique.
plugins: {plugins}
players: 3
cards:
  packs: 3
deal:
  first_lead: left_of_dealer
  next_dealer: left_of_dealer
declarations:
  bezique_ladder: {ladder}
"""
"""Grand (four packs would not go round three players: three, as three-hand) with the
plugins given; the seats deal and lead to the left (S0 three-hand)."""

BOTH = "[ordinary, multihand, grand]"
JUNK = ["7C", "8C", "9C", "7D", "8D", "9D", "7S", "8S", "9S"]
"""Seats 0 and 2: no trump (hearts), nothing above a nine, no combination."""
BEZIQUES = ["AH", "QS", "QS", "QS", "JD", "JD", "JD", "KC", "QC"]
"""Seat 1 (first to lead): three beziques, the ace of trumps, the marriage of clubs."""
STOCK = ["AH", "JS", "JS", "KC", "JC", "JC"]
"""Seat 1 draws the other ace of trumps, then a second king of clubs."""


def role_class(rules: Ruleset) -> type:
    """The class of ``rules``' declaring role, the plugins' classes composed."""
    return type(rules.declaring)


def house(folder: Path, plugins: str = BOTH, ladder: str = "additive") -> str:
    path = folder / "grand-three-hand.yaml"
    path.write_text(HOUSE.format(plugins=plugins, ladder=ladder), encoding="utf-8")
    return os.fspath(path)


def deal(variant: str) -> GameState:
    return scenario(variant, hands=[JUNK, BEZIQUES, JUNK], turn_up="9H", stock=STOCK)


def trick(game: GameState, lead: str, low: str) -> None:
    """Seat 1 leads ``lead``; seats 2 and 0 play ``low`` under it."""
    for text in (f"play {lead}", f"play {low}", f"play {low}"):
        game.apply(text)
    assert game.to_act == 1 and game.phase == "turn"
    check_invariants(game)


def declarations(game: GameState) -> list[str]:
    return [t for t in map(game.action_text, game.legal_actions()) if t.startswith("declare")]


# ------------------------------------------------------------------ the house rule


@pytest.mark.parametrize("plugins", [BOTH, "[ordinary, grand, multihand]"])
def test_grand_re_declaration_and_the_second_double_in_one_game(
    tmp_path: Path, plugins: str
) -> None:
    game = deal(house(tmp_path, plugins))
    trick(game, "AH", "7C")
    game.apply("declare double_bezique QS QS JD JD")
    game.apply("declare marriage KC QC")
    game.apply("draw")
    trick(game, "AH", "8C")
    # S0 three-hand: a bezique already used in a double, with a new one, is a second double;
    # the Grand rule alone would hold the whole double's cards to it.
    assert declarations(game) == [
        "declare bezique QS JD",
        "declare double_bezique QS QS* JD JD*",
        "declare four_queens QS QS* QS* QC*",
        "declare triple_bezique QS QS* QS* JD JD* JD*",
    ]
    game.apply("declare double_bezique QS QS* JD JD*")
    game.apply("draw")
    trick(game, "KC*", "9C")
    # S0 Grand: the declared king played away, his queen (a widow) marries the new king.
    assert declarations(game) == ["declare marriage KC QC*"]
    game.apply("declare marriage KC QC*")
    check_invariants(game)
    assert points_by_rule(game, 1) == {"brisques": 20, "double_bezique": 1000, "marriage": 40}
    assert game.scores == [0, 1060, 0]


def test_without_multihand_the_grand_rule_holds_the_double(tmp_path: Path) -> None:
    game = deal(house(tmp_path, "[ordinary, grand]"))
    assert role_class(game.rules) is GrandDeclarations
    trick(game, "AH", "7C")
    game.apply("declare double_bezique QS QS JD JD")
    game.apply("draw")
    trick(game, "AH", "8C")
    assert "declare double_bezique QS QS* JD JD*" not in declarations(game)
    error = refuse(game, "declare double_bezique QS QS* JD JD*")
    assert str(error) == (
        "QS is declared in a double_bezique whose cards are all unplayed: it may join only a "
        "higher combination of that class, or a double_bezique again once a card of this one "
        "has been played away (Grand bezique, S0)"
    )


def test_without_grand_the_widow_may_not_marry_again(tmp_path: Path) -> None:
    game = deal(house(tmp_path, "[ordinary, multihand]"))
    trick(game, "AH", "7C")
    game.apply("declare marriage KC QC")
    game.apply("draw")
    trick(game, "AH", "8C")
    game.apply("draw")
    trick(game, "KC*", "9C")
    assert "declare marriage KC QC*" not in declarations(game)
    error = refuse(game, "declare marriage KC QC*")
    assert str(error).startswith("QC was already declared in a combination of the same class")


@pytest.mark.parametrize(("ladder", "triple"), [("additive", 1500), ("difference", 1000)])
def test_the_ladder_in_the_house_rule(tmp_path: Path, ladder: str, triple: int) -> None:
    # A third bezique added to a double already scored (A15): 1500 more, or 1000 more.
    game = deal(house(tmp_path, ladder=ladder))
    trick(game, "AH", "7C")
    game.apply("declare double_bezique QS QS JD JD")
    game.apply("draw")
    trick(game, "AH", "8C")
    game.apply("declare triple_bezique QS QS* QS* JD JD* JD*")
    assert points_by_rule(game, 1) == {
        "brisques": 20,
        "double_bezique": 500,
        "triple_bezique": triple,
    }
    # Every bezique card is now at the triple's level: no second double is left.
    assert [t for t in declarations(game) if "bezique" in t] == []


# ------------------------------------------------------------------ composing the roles


def test_roles_compose_the_plugin_listed_last_first() -> None:
    mro = type(ruleset_for("four-hand-partners").declaring).__mro__
    assert mro[1:] == (
        PartnershipDeclarations,
        MultihandDeclarations,
        OrdinaryDeclarations,
        object,
    )
    assert role_class(ruleset_for("three-hand")) is MultihandDeclarations
    assert role_class(ruleset_for("ordinary")) is OrdinaryDeclarations


def test_the_role_is_made_once_per_ruleset() -> None:
    rules = ruleset_for("grand")
    role = rules.declaring
    first, second = new_game(rules, seed=1), new_game(rules, seed=2)
    assert first.rules.declaring is role and second.rules.declaring is role


class Lenient(OrdinaryDeclarations):
    """A house plugin's role."""


class Stricter(Lenient):
    """Another house plugin's role, built on the first one's."""


class Roles:
    """A plugin that answers the declaring roles it is given."""

    def __init__(self, *roles: object) -> None:
        self.roles = list(roles)

    @hookimpl
    def bezique_declaring_roles(self) -> list[object]:
        return self.roles


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fresh registry: the plugins registered here go away after the test."""
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    yield


def variant(folder: Path, names: str) -> str:
    path = folder / "house.yaml"
    path.write_text(
        f"name: house\nextends: ordinary\nsummary: A house rule.\nplugins: [ordinary, {names}]\n",
        encoding="utf-8",
    )
    return os.fspath(path)


def test_roles_without_a_consistent_order_are_a_plugin_error(tmp_path: Path, plugins: None) -> None:
    registry.register_plugin("lenient", Roles(Lenient))
    registry.register_plugin("stricter", Roles(Stricter))
    composed = role_class(ruleset_for(variant(tmp_path, "lenient, stricter")))
    assert composed is Stricter  # listed after the role it builds on: it comes first
    with pytest.raises(PluginError) as caught:
        new_game(variant(tmp_path, "stricter, lenient"))
    assert str(caught.value) == (
        "the declaring roles of the plugins cannot be composed (Lenient of 'lenient', "
        "Stricter of 'stricter', OrdinaryDeclarations of 'ordinary', the plugin listed last "
        "first): they have no consistent method order; a plugin whose role subclasses another "
        "plugin's must be listed after it"
    )


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ([int], "offers <class 'int'>, which is not a declaring role"),
        (["Lenient"], "offers 'Lenient', which is not a declaring role"),
        (Lenient, "returned a type, not a list of classes"),
    ],
)
def test_an_answer_that_is_not_a_role_is_a_plugin_error(
    tmp_path: Path, plugins: None, answer: object, problem: str
) -> None:
    plugin = Roles()
    plugin.roles = answer  # type: ignore[assignment]
    registry.register_plugin("odd", plugin)
    with pytest.raises(PluginError) as caught:
        new_game(variant(tmp_path, "odd"))
    assert str(caught.value).startswith(f"plugin 'odd': its bezique_declaring_roles() {problem}")


def test_no_role_offered_no_turn_action() -> None:
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    role = declaring_role(SimpleNamespace(manager=manager))  # type: ignore[arg-type]
    game = new_game("ordinary", seed=3)
    assert role.turn_actions(game, 0) == []
    assert role.refusal(game, 0, game.legal_actions()[0]) is None
    with pytest.raises(PluginError):
        role.apply(game, 0, game.legal_actions()[0])


def test_a_refused_second_double_says_what_it_takes(tmp_path: Path) -> None:
    game = deal(house(tmp_path))
    trick(game, "AH", "7C")
    game.apply("declare double_bezique QS QS JD JD")
    game.apply("draw")
    trick(game, "AH", "8C")
    with pytest.raises(IllegalActionError) as caught:
        game.apply("declare double_bezique QS* QS* JD JD*")  # two old queens
    assert str(caught.value).endswith(
        "; a second double bezique takes a bezique already used in a double and a new one "
        "(S0 three- and four-hand)"
    )


def readme_plugin_example() -> str:
    """The house role of the site's page on roles (docs/plugins/roles.md)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "plugins" / "roles.md").read_text(
        encoding="utf-8"
    )
    start = text.index("```python\n", text.index("# Rules as roles that compose"))
    return text[start + len("```python\n") : text.index("```\n", start + 1)]


def test_the_readme_house_role_is_asked_even_before_anything_is_declared(plugins: None) -> None:
    namespace: dict[str, object] = {"__name__": "readme_example"}
    exec(compile(readme_plugin_example(), "docs/plugins/roles.md", "exec"), namespace)
    assert isinstance(namespace["game"], GameState)
    game = scenario(
        "ordinary",
        overrides={"plugins": ["ordinary", "no-four-knaves"]},
        hands=[
            ["JS", "JH", "JD", "JC", "QS", "AH", "7C", "8C"],
            ["7S", "8S", "7D", "8D", "9S", "9C", "9D", "TC"],
        ],
        turn_up="9H",
        dealer=1,
    )
    assert type(game.rules.declaring).__name__ == "NoFourKnaves"
    game.apply("play AH")
    game.apply("play 7S")
    # Nothing declared yet: the ordinary role would skip the checks, this one may not.
    assert declarations(game) == ["declare bezique QS JD"]
    error = refuse(game, "declare four_knaves JS JH JD JC")
    assert str(error) == "four knaves do not score at this table (house rule)"

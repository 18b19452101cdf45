"""The rules of ordinary bezique, as a plugin registered like any other.

Everything a rulebook states as a number lives in the variant's YAML; this
package holds the procedures a table cannot say, one module per job:

* :mod:`~bezique.plugins.ordinary.declaring`: the declaring procedure after a won
  trick, :class:`OrdinaryDeclarations`, the role other plugins subclass;
* :mod:`~bezique.plugins.ordinary.combinations`: the combination table and the
  variant's data, compiled once per ruleset (:class:`Tables`, :class:`Combination`);
* :mod:`~bezique.plugins.ordinary.forms`: the forms of a combination in a hand;
* :mod:`~bezique.plugins.ordinary.quicktests`: the bitboard pre-filter;
* :mod:`~bezique.plugins.ordinary.sevens`: the seven of trumps;
* :mod:`~bezique.plugins.ordinary.hand`: what the plugin keeps for a hand
  (:class:`OrdinaryHand`);
* :mod:`~bezique.plugins.ordinary.carteblanche`: carte blanche, announced at its
  holder's choice before he plays a card;
* :mod:`~bezique.plugins.ordinary.tricks`: the hook answers of the deal's scores, the
  trick, the end-game duties, brisques, the last trick and the game's winner;
* :mod:`~bezique.plugins.ordinary.cardplay`: the bodies of those of every card and
  every trick, as plain functions the compiled build compiles.

Cards a player has declared lie on the table but stay in his hand.  A card's
``state.levels`` entry keeps, four bits per combination class (in the order of
``ruleset.classes``), the highest level it has been declared at in that class.

The public API, for plugins that build on these rules, is :data:`__all__`; every
other name (in this package's modules too) is internal.
"""

from __future__ import annotations

from typing import Any

from bezique.hookspecs import DeclaringRole, hookimpl
from bezique.plugins.ordinary import checks
from bezique.plugins.ordinary.cardplay import endgame_plays
from bezique.plugins.ordinary.carteblanche import bezique_play_option as bezique_play_option
from bezique.plugins.ordinary.carteblanche import bezique_play_options as bezique_play_options
from bezique.plugins.ordinary.carteblanche import offer_drawn, shown_at_deal
from bezique.plugins.ordinary.combinations import Combination, Tables, tables, tables_of
from bezique.plugins.ordinary.declaring import OrdinaryDeclarations
from bezique.plugins.ordinary.forms import (
    Form,
    choose_copies,
    combination_forms,
    copy_groups,
    each_form,
    forms_combination,
)
from bezique.plugins.ordinary.hand import (
    OrdinaryHand,
    OrdinaryTurn,
    announced,
    blocked,
    sevens_scored,
    this_turn,
)
from bezique.plugins.ordinary.prose import bezique_describe_rules as bezique_describe_rules
from bezique.plugins.ordinary.prose import bezique_words as bezique_words
from bezique.plugins.ordinary.quicktests import quick_tests
from bezique.plugins.ordinary.sheet import (
    bezique_sheet_declaration_problem as bezique_sheet_declaration_problem,
)
from bezique.plugins.ordinary.sheet import bezique_sheet_entries as bezique_sheet_entries
from bezique.plugins.ordinary.sheet import bezique_sheet_scores as bezique_sheet_scores
from bezique.plugins.ordinary.sheet import bezique_sheet_winner as bezique_sheet_winner
from bezique.plugins.ordinary.sheet import declaration_problem

# The hook answers that only the plugin manager calls (registering this package
# registers them).
from bezique.plugins.ordinary.tricks import bezique_after_deal as bezique_after_deal
from bezique.plugins.ordinary.tricks import bezique_deal_scores, bezique_trick_scores
from bezique.plugins.ordinary.tricks import bezique_game_winner as bezique_game_winner
from bezique.plugins.ordinary.tricks import bezique_hand_scores as bezique_hand_scores
from bezique.plugins.ordinary.tricks import bezique_legal_plays as bezique_legal_plays
from bezique.plugins.ordinary.tricks import bezique_stock_exhausted as bezique_stock_exhausted
from bezique.plugins.ordinary.tricks import bezique_trick_winner as bezique_trick_winner

__all__ = [
    "Combination",
    "Form",
    "OrdinaryDeclarations",
    "OrdinaryHand",
    "OrdinaryTurn",
    "Tables",
    "announced",
    "bezique_deal_scores",
    "bezique_trick_scores",
    "blocked",
    "choose_copies",
    "combination_forms",
    "copy_groups",
    "declaration_problem",
    "each_form",
    "endgame_plays",
    "forms_combination",
    "offer_drawn",
    "quick_tests",
    "sevens_scored",
    "shown_at_deal",
    "tables",
    "tables_of",
    "this_turn",
]
"""What other plugins may use: the declaring role to subclass, the compiled tables and
their combinations, the forms of a combination in a player's cards, the quick tests, the
plugin's state of the hand (:class:`OrdinaryHand`: the sevens scored, the combinations
announced) and of a turn (:class:`OrdinaryTurn`: what the winner declared, the card taken for the
seven; :func:`this_turn`), the end-game
duties, the deal's and a trick's scores (for a plugin that answers those hooks
itself and adds to the ordinary answer), and a carte blanche offered again for a card
drawn (:func:`offer_drawn`, :func:`shown_at_deal`)."""


@hookimpl
def bezique_declaring_roles() -> list[type[DeclaringRole]]:
    """The ordinary declaring procedure, which the other plugins' roles build on."""
    return [OrdinaryDeclarations]


@hookimpl
def bezique_variant_schema() -> dict[str, Any]:
    """The sections these rules read (``schema.json``; see :mod:`.checks`)."""
    return checks.schema_fragment()


@hookimpl
def bezique_variant_problems(data: dict[str, Any]) -> list[checks.Problem]:
    """What in a variant's data these rules cannot play (see :mod:`.checks`)."""
    return checks.problems(data)

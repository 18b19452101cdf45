"""The declaring procedure of the ordinary game, as one role whose methods a variant overrides.

After a won trick and before drawing, the winner may declare: which
combinations he may declare, the class rule (a declared card may join only a
combination of another class or a higher one of its own), the one-new-card
rule, several disjoint combinations per trick or one with the others announced
for later (S0 declaring paragraph; Foster, S3, S4), and the seven of trumps.

:class:`OrdinaryDeclarations` is that procedure.  The kernel calls its
:meth:`~OrdinaryDeclarations.turn_actions`, :meth:`~OrdinaryDeclarations.refusal`
and :meth:`~OrdinaryDeclarations.apply` (the :class:`~bezique.hookspecs.DeclaringRole`
protocol); a plugin whose variant declares otherwise subclasses it, overrides the
methods its rules change and calls ``super()`` for the rest, and answers
``bezique_declaring_roles`` with its class.  The ruleset composes the classes of a
variant's plugins into one (the plugin listed last first in the method order), so
two plugins that each relax a rule both apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from mypy_extensions import mypyc_attr

from bezique.actions import Action, Kind, ScoreEvent
from bezique.plugins.ordinary import carteblanche, sevens
from bezique.plugins.ordinary.cardplay import play_refusal
from bezique.plugins.ordinary.combinations import (
    NEW_CARD_RULE,
    Combination,
    Tables,
    class_refusal,
    grows_this_turn,
    ladder_points,
    needs_new_card,
    raised_levels,
    tables_of,
)
from bezique.plugins.ordinary.forms import (
    Form,
    combination_forms,
    copy_groups,
    forms_combination,
    forms_of_single_copies,
)
from bezique.plugins.ordinary.hand import (
    HAND_KEY,
    NOTHING_YET,
    OrdinaryHand,
    changing_turn,
    hand_state,
    this_turn,
)
from bezique.plugins.ordinary.quicktests import quick_tests

if TYPE_CHECKING:
    from bezique.hookstate import HookRules, HookState


@mypyc_attr(allow_interpreted_subclasses=True)
class OrdinaryDeclarations:
    """The ordinary game's declaring: candidates, the rules with their reasons, applying them.

    Made once per ruleset (its :attr:`tables` are the variant's, compiled once);
    every method takes the game state, so one role serves every game of the
    ruleset.  The methods a variant overrides:

    * :meth:`form_refusal`: the one place a form's legality is decided (the turn's
      rules, the one-new-card rule, the class rule), reading :meth:`class_levels`;
    * :meth:`class_levels`: the class levels the rules read for a form;
    * :meth:`declared_bits` and :attr:`table_cards_apart`: what counts as declared
      before, and whether copies on the table are told apart;
    * :meth:`candidates`: the forms in the player's cards;
    * :meth:`explain`: the reason given for a refused, well-formed declaration;
    * :meth:`declare`: scoring a declaration and laying its cards on the table;
    * :meth:`refuses_nothing`: when the form checks may be skipped (a speed-up that
      an override adding refusals must switch off);
    * the seven of trumps: :meth:`seven_actions`, :meth:`seven_refusal`,
      :meth:`exchange_seven`, :meth:`show_seven`.
    """

    table_cards_apart: ClassVar[bool] = False
    """Try each card on the table on its own, rather than one copy per ``state.card_key``."""

    declares_after_stock: ClassVar[bool] = False
    """Whether declaring goes on once the stock is gone: not in the ordinary game (S0, the
    last eight tricks); a role whose rules say otherwise sets it (Polish bezique) and
    offers its declarations then, and a score sheet reads it."""

    def __init__(self, rules: HookRules) -> None:
        """The declaring role of ``rules``' variant."""
        self.rules = rules
        self.tables: Tables = tables_of(rules)
        self.may_skip_checks = _vouched(type(self))
        """Whether :meth:`refuses_nothing` may be asked (see there), for this class's rules."""
        self.remembers_quiet = type(self).declared_bits is OrdinaryDeclarations.declared_bits
        """Whether a hand with nothing to declare is remembered (see :meth:`turn_actions`):
        not where :meth:`declared_bits` is overridden, as a card may be fresh again then
        (Grand's re-declaration)."""

    # ------------------------------------------------------------------ the kernel's protocol

    def turn_actions(self, state: HookState, player: int) -> list[Action]:
        """What the trick's winner may do before drawing: the seven, then combinations.

        A hand of his in which nothing could be declared is remembered; the next
        time, if he announced nothing and the turn has just begun, only the
        combinations his new cards could join are tested: removing cards never makes
        a combination, and a card of his that was not fresh then is not now.
        """
        if not state.stock and state.turn_up < 0 and not self.declares_after_stock:
            return []
        t = self.tables
        trump = state.trump
        tests = t.tests_by_trump.get(trump) or quick_tests(t, trump)
        held = state.held[player]
        kept: OrdinaryHand = state.extra[HAND_KEY]  # hand_state(), inlined
        pending = kept.pending[player]
        actions = self.seven_actions(state, player) if held & tests.sevens else []
        fresh_turn = not state.turn.plugins and self.remembers_quiet
        if fresh_turn and not pending:
            quiet_trump, quiet_held = kept.quiet[player]
            if quiet_trump == trump and not tests.any_with(held, held & ~quiet_held):
                kept.quiet[player] = (trump, held)
                return actions
        # Cards never declared; any card counts when the rules need no new card, or may
        # score an announced combination.
        fresh_cards = held
        if t.new_card_required and not pending:
            fresh_cards = held & ~self.declared_bits(state, player)
        turn = this_turn(state) if state.turn.plugins else NOTHING_YET
        first_declared = turn.first_declared
        if first_declared:  # new when the turn began (see form_refusal)
            fresh_cards |= state.deck.mask(first_declared)
        possible = tests.possible(held, fresh_cards)
        if not possible and not pending:
            if fresh_turn:
                kept.quiet[player] = (trump, held)
            return actions
        kind = Kind.ANNOUNCE if t.one_per_trick and turn.scored else Kind.DECLARE
        for combo, cards in self.legal_forms(state, player, kind, possible):
            actions.append(Action(kind, cards, combo.name))
        return actions

    def refusal(self, state: HookState, player: int, action: Action) -> str | None:
        """Explain why a play or turn action is refused (a sentence naming the rule)."""
        if action.kind == Kind.PLAY:
            return play_refusal(state, player)
        if action.kind == Kind.DECLARE and action.combo == carteblanche.CARTE_BLANCHE:
            return carteblanche.refusal(state, player)
        if not state.stock_left() and not self.declares_after_stock:
            return "declarations cease once the stock is exhausted (S0)"
        if action.kind in (Kind.EXCHANGE, Kind.SHOW):
            return self.seven_refusal(state, player, action)
        if action.kind in (Kind.DECLARE, Kind.ANNOUNCE):
            return self.declaration_refusal(state, player, action)
        return None

    def apply(self, state: HookState, player: int, action: Action) -> None:
        """Carry out a declaration, an announcement, or the seven of trumps."""
        kind = action.kind
        if kind == Kind.DECLARE:
            combo = self.tables.combination(state, action.combo)
            assert combo is not None
            self.declare(state, player, combo, action.cards)
        elif kind == Kind.ANNOUNCE:
            for card in action.cards:
                state.set_card(card, True, state.levels[card])
            hand_state(state).pending[player].append((action.combo, action.cards))
        elif kind == Kind.EXCHANGE:
            self.exchange_seven(state, player, action.cards[0])
        elif kind == Kind.SHOW:
            self.show_seven(state, player, action.cards[0])
        else:
            raise ValueError(f"the declaring role cannot carry out {action!r}")

    # ------------------------------------------------------------------ candidates

    def declared_bits(self, state: HookState, player: int) -> int:
        """Bit ``1 << card`` for the cards that count as declared before (one-new-card rule)."""
        return state.declared_bits

    def legal_forms(
        self, state: HookState, player: int, kind: Kind, combos: list[Combination]
    ) -> list[Form]:
        """Return each distinct legal form of ``combos`` (one per choice the rules tell apart)."""
        candidates = self.candidates(state, player, combos)
        pending = hand_state(state).pending[player]
        checked = not (
            kind == Kind.DECLARE and self.may_skip_checks and self.refuses_nothing(state, player)
        )
        refuse = self.form_refusal
        if not (pending or self.table_cards_apart):
            # Each group of interchangeable copies has a key of its own (copy_groups), so
            # forms that choose differently from the groups differ in keys: no duplicates.
            if not checked:
                return candidates
            return [
                (combo, cards)
                for combo, cards in candidates
                if refuse(state, player, combo, cards, kind) is None
            ]
        # The first legal form of each choice of interchangeable copies stands for it: a
        # form whose choice one before it stands for is not asked about (it would go).
        seen: set[tuple[str, tuple[int, ...]]] = set()
        distinct = []
        card_key = state.card_key
        for combo, cards in candidates:
            key = (combo.name, tuple(sorted([card_key[c] for c in cards])))
            if key in seen:
                continue
            if not checked or (
                not (kind == Kind.ANNOUNCE and (combo.name, cards) in pending)
                and refuse(state, player, combo, cards, kind) is None
            ):
                seen.add(key)
                distinct.append((combo, cards))
        return distinct

    def refuses_nothing(self, state: HookState, player: int) -> bool:
        """Whether :meth:`form_refusal` cannot refuse any declaration of ``player`` now.

        Nothing declared this turn, no card taken for the seven (nothing kept for the
        turn) and none of his cards ever declared: no rule of the ordinary game can
        refuse a form, so the checks are skipped.  A class that
        overrides :meth:`form_refusal` or :meth:`class_levels` vouches for its rules by
        overriding this too (returning ``super()``'s answer where it refuses no more,
        False where it may); until it does, its forms are always checked.
        """
        return not (state.turn.plugins or state.declared_bits & state.held[player])

    def candidates(self, state: HookState, player: int, combos: list[Combination]) -> list[Form]:
        """The forms of ``combos`` in the player's cards, legal or not, and announced ones."""
        t = self.tables
        hand = state.hands[player]
        held = state.held[player]
        found: list[Form] = []
        groups: dict[int, dict[int, list[int]]] | None = None
        present = 0
        for combo in combos:
            forms = forms_of_single_copies(t, combo, held)
            if forms is None:  # some face held twice: its copies may or may not be alike
                if groups is None:
                    faces = 0
                    for each in combos:
                        faces |= each.mask
                    groups = copy_groups(state, hand, self.table_cards_apart, faces)
                    for face in groups:
                        present |= 1 << face
                forms = combination_forms(state, combo, groups, present)
            found += forms
        for combo_name, cards in hand_state(state).pending[player]:
            pending = t.combination(state, combo_name)
            if (
                pending is not None
                and all(c in hand and state.on_table[c] for c in cards)
                and forms_combination(state, pending, cards)  # trumps may have been named since
            ):
                found.append((pending, cards))
        return found

    # ------------------------------------------------------------------ the rules

    def form_refusal(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...], kind: Kind
    ) -> str | None:
        """Return why ``cards`` may not be declared (or announced) as ``combo`` now, or None.

        The one place the declaring rules are decided: the candidates kept are the
        forms this returns None for, and a refused action quotes its answer.
        """
        t = self.tables
        turn = this_turn(state)
        if turn.blocked and not frozenset(turn.blocked).isdisjoint(cards):
            return (
                "a card just taken in exchange for the seven of trumps may not be declared in "
                "the same turn (A13)"
            )
        if kind == Kind.DECLARE and turn.scored:
            if t.one_per_trick:
                return (
                    "only one combination may be scored for each trick won (declarations."
                    "per_trick: one); 'announce' it to score it after a later trick"
                )
            if not t.compound and not frozenset(turn.declared).isdisjoint(cards):
                return (
                    "no card may serve in two combinations declared after the same trick "
                    "(declarations.per_trick: several, S0)"
                )
        levels = self.class_levels(state, player, combo, cards)
        grows = t.compound and not combo.grows_in_one_trick
        if grows and grows_this_turn(turn.first_declared, combo, cards, levels):
            return (
                f"{combo.name} may not be completed from cards declared after this same trick "
                "in a lower combination of its class: declared together they score only once "
                "(S0 footnote 3)"
            )
        if needs_new_card(t, levels):
            pending = hand_state(state).pending[player]
            announced = bool(pending) and (combo.name, cards) in pending
            # An announcement, or a compound declaration, may lean on a card that was new
            # when this turn began.
            renewed = (kind == Kind.ANNOUNCE or t.compound) and not frozenset(
                turn.first_declared
            ).isdisjoint(cards)
            if not announced and not renewed:
                return NEW_CARD_RULE
        return class_refusal(state, combo, cards, levels)

    def class_levels(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...]
    ) -> list[int]:
        """The class levels the rules read for ``cards`` declared as ``combo`` (``state.levels``).

        Four bits per class (see the plugin's docstring).  A rule that lets cards join
        a combination of their class again (the three-hand second double bezique) lowers
        their level in that class here, and every rule reading levels honours it.
        """
        levels = state.levels
        return [levels[c] for c in cards]

    def explain(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...], kind: Kind
    ) -> str:
        """The reason given for refusing a well-formed declaration or announcement."""
        return self.form_refusal(state, player, combo, cards, kind) or (
            "that declaration is not legal now"
        )

    def declaration_refusal(self, state: HookState, player: int, action: Action) -> str:
        """Why a declaration or announcement is refused: its form, then :meth:`explain`."""
        t = self.tables
        combo = t.combination(state, action.combo)
        if combo is None:
            names = ", ".join(state.rules.combo_names)
            return (
                f"{action.combo!r} is not a combination of this variant; its combinations: {names}"
            )
        if action.kind == Kind.ANNOUNCE and (not t.one_per_trick or not this_turn(state).scored):
            return (
                "'announce' shows a second combination after one has been scored this turn, "
                "and only under declarations.per_trick: one"
            )
        hand = state.hands[player]
        if not all(c in hand for c in action.cards):
            return "a declaration uses only the player's own cards, in hand or on the table"
        if not forms_combination(state, combo, action.cards):
            return f"those cards do not form {combo.name}"
        return self.explain(state, player, combo, tuple(sorted(action.cards)), action.kind)

    # ------------------------------------------------------------------ carrying out

    def declare(
        self,
        state: HookState,
        player: int,
        combo: Combination,
        cards: tuple[int, ...],
        new_cards: list[int] | None = None,
    ) -> None:
        """Score ``cards`` as ``combo`` and lay them on the table with their class levels.

        ``new_cards`` are those never declared before (default: those at level 0).  A
        double or higher built on a lower one scores its value, less that lower one's
        under ``declarations.bezique_ladder: difference`` (see :attr:`Combination.taken_off`).
        """
        points = combo.points
        if combo.taken_off:  # bezique_ladder: difference
            points = ladder_points(combo, [state.levels[c] for c in cards])
        if new_cards is None:
            new_cards = [c for c in cards if not state.levels[c]]
        turn = changing_turn(state)
        turn.first_declared.extend(new_cards)
        for card in cards:
            state.set_card(card, True, raised_levels(state.levels[card], combo))
        turn.declared.extend(cards)
        turn.scored += 1
        if combo.fixes_trumps:
            state.fix_trump(state.deck.card_suit[cards[0]])
        pending = hand_state(state).pending[player]
        if (combo.name, cards) in pending:
            pending.remove((combo.name, cards))
        texts = state.deck.card_texts
        detail = " ".join([texts[c] for c in cards])
        state.score([ScoreEvent(player, points, combo.name, detail)])

    # ------------------------------------------------------------------ the seven of trumps

    def seven_actions(self, state: HookState, player: int) -> list[Action]:
        """Exchange and show for the player's first seven of trumps that has not scored."""
        return sevens.seven_actions(state, self.tables, player)

    def seven_refusal(self, state: HookState, player: int, action: Action) -> str | None:
        """Why an exchange or show is refused."""
        return sevens.seven_refusal(state, self.tables, player, action)

    def exchange_seven(self, state: HookState, player: int, seven: int) -> None:
        """Exchange ``seven`` for the turn-up."""
        sevens.exchange(state, self.tables, player, seven)

    def show_seven(self, state: HookState, player: int, seven: int) -> None:
        """Show ``seven``, which scores."""
        sevens.show(state, self.tables, player, seven)


def _vouched(role: type[OrdinaryDeclarations]) -> bool:
    """Whether every class of ``role`` that changes the form rules says when they refuse nothing."""
    for klass in role.__mro__:
        rules = vars(klass)
        if ("form_refusal" in rules or "class_levels" in rules) and "refuses_nothing" not in rules:
            return False
    return True

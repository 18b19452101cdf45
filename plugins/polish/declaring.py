"""Polish bezique's declaring: from the open rows only, each time with a card of the trick.

:class:`PolishDeclarations` overrides the ordinary role's turn, refusal and
application; the ordinary form rules (the class rule) still judge each form.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from bezique.actions import Action, Kind, ScoreEvent
from bezique.hookstate import HookState
from bezique.plugins.ordinary import (
    Combination,
    OrdinaryDeclarations,
    combination_forms,
    each_form,
    quick_tests,
)
from bezique.plugins.polish.rows import EXCHANGE, hand, open_cards, polish_tables


class PolishDeclarations(OrdinaryDeclarations):
    """Declarations from the open rows only, each holding a card of the trick just won.

    The class rule and the rest of the ordinary form rules still judge each form
    (:meth:`form_refusal` adds the trick card's rule before them).
    """

    declares_after_stock: ClassVar[bool] = True
    """Declaring goes on through the last eight tricks (S0 Polish section, A20c)."""

    def turn_actions(self, state: HookState, player: int) -> list[Action]:
        """What the trick's winner may do before drawing: exchange the seven, declare.

        Declarations continue after the stock is gone (S0 Polish section, A20c).
        """
        kept = hand(state)
        actions = [EXCHANGE] if kept.seven >= 0 else []
        new = kept.new
        if not new:
            return actions
        rows = kept.rows[player]
        open_bits, new_bits = state.deck.mask(rows), state.deck.mask(new)
        # The quick tests first: a combination none of whose forms among the open cards
        # takes a card of the trick is never declared (form_refusal).
        t = self.tables
        tests = t.tests_by_trump.get(state.trump) or quick_tests(t, state.trump)
        possible = tests.possible(open_bits, new_bits)
        if not possible:
            return actions
        groups = _groups(state, rows, new)
        for combo in t.combinations(state):  # in the table's order
            if combo in possible and self.has_form(state, player, combo, groups):
                actions.append(Action(Kind.DECLARE, (), combo.name))
        return actions

    def has_form(
        self,
        state: HookState,
        player: int,
        combo: Combination,
        groups: dict[int, dict[int, list[int]]],
    ) -> bool:
        """Whether ``combo`` has a legal form among the open cards (:meth:`best_form` finds one)."""
        return any(
            self.form_refusal(state, player, combo, cards, Kind.DECLARE) is None
            for _, cards in each_form(state, combo, groups)
        )

    def form_refusal(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...], kind: Kind
    ) -> str | None:
        """Return why ``cards`` (open cards) may not be declared as ``combo`` now, or None."""
        new = hand(state).new
        if not any(card in new for card in cards):
            return (
                "every declaration must include a card of the trick just won (S0 Polish "
                "section); a combination left undeclared scores later only when a new trick "
                "card joins it (A20a)"
            )
        return super().form_refusal(state, player, combo, cards, Kind.DECLARE)

    def best_form(
        self,
        state: HookState,
        player: int,
        combo: Combination,
        groups: dict[int, dict[int, list[int]]],
    ) -> tuple[int, ...] | None:
        """Return the legal form of ``combo`` that keeps most for later, or None if none is.

        It uses the cards already furthest up the combination's class (a married king
        and queen go into the sequence, a fresh pair stays free to marry), then the
        fewest cards of the trick just won (the others may still make a second
        combination of the same kind); ties go to the first form in suit order.
        """
        new = hand(state).new
        levels = state.levels
        shift = combo.shift
        best: tuple[int, ...] | None = None
        best_key = (-1, 0)
        for _, cards in combination_forms(state, combo, groups):
            if self.form_refusal(state, player, combo, cards, Kind.DECLARE) is not None:
                continue
            key = (
                sum((levels[c] >> shift) & 15 for c in cards),
                -sum(c in new for c in cards),
            )
            if key > best_key:
                best, best_key = cards, key
        return best

    def apply(self, state: HookState, player: int, action: Action) -> None:
        """Carry out a declaration from the open rows, or the exchange of the seven."""
        if action.kind == Kind.DECLARE:
            combo = self.tables.combination(state, action.combo)
            assert combo is not None
            kept = hand(state)
            groups = _groups(state, kept.rows[player], kept.new)
            form = self.best_form(state, player, combo, groups)
            assert form is not None
            self.declare(state, player, combo, form)
        elif action.kind == Kind.EXCHANGE:
            self.exchange_seven(state, player, hand(state).seven)
        else:
            super().apply(state, player, action)

    def exchange_seven(self, state: HookState, player: int, seven: int) -> None:
        """Put the seven of trumps just won under the stock; the turn-up joins the trick (A21)."""
        kept = hand(state)
        state.take_won(player, seven)
        turn_up = state.swap_turn_up(seven)
        kept.seven = -1
        if polish_tables(state).is_open(state)[turn_up]:
            kept.rows[player].append(turn_up)
            kept.new.append(turn_up)
            state.set_card(turn_up, True, 0)
        else:
            state.give_won(player, turn_up)
        t = self.tables
        if t.brisques_now and t.brisque[turn_up]:
            detail = f"{state.deck.card_text(turn_up)} taken for the seven"
            state.score([ScoreEvent(player, t.brisque_points, "brisques", detail)])

    def refusal(self, state: HookState, player: int, action: Action) -> str | None:
        """Explain why a declaration, exchange, show or announcement is refused."""
        if action.kind == Kind.DECLARE:
            return self.open_declaration_refusal(state, player, action)
        if action.kind == Kind.EXCHANGE:
            return (
                "only the winner of the trick holding an unscored seven of trumps may exchange "
                "it, before drawing, while a turn-up other than a seven lies under the stock "
                "(S0 Polish section); write 'exchange' alone, the seven is the one just won"
            )
        if action.kind == Kind.SHOW:
            return (
                "in Polish bezique the seven of trumps is never shown: it scores for the winner "
                "of the trick that holds it (S0 Polish section)"
            )
        if action.kind == Kind.ANNOUNCE:
            return (
                "Polish bezique declares combinations at once (compound declarations); nothing "
                "is announced for later (S0 Polish section)"
            )
        return super().refusal(state, player, action)  # the end-game duties: the ordinary's

    def open_declaration_refusal(self, state: HookState, player: int, action: Action) -> str:
        """Why a declaration is refused: its form, or the rules on the open cards."""
        combo = self.tables.combination(state, action.combo)
        if combo is None:
            names = ", ".join(state.rules.combo_names)
            return (
                f"{action.combo!r} is not a combination of this variant; its combinations: {names}"
            )
        if action.cards:
            if not set(action.cards) <= set(open_cards(state, player)):
                return (
                    "nothing is declared from the hand in Polish bezique, only from the open "
                    f"cards won in tricks (S0 Polish section): write 'declare {combo.name}' alone"
                )
            return (
                f"a Polish declaration names its combination only ('declare {combo.name}'): the "
                "cards are taken from the open rows"
            )
        kept = hand(state)
        groups = _groups(state, kept.rows[player], kept.new)
        reasons = [
            self.form_refusal(state, player, combo, cards, Kind.DECLARE)
            for _, cards in combination_forms(state, combo, groups)
        ]
        if not reasons:
            return (
                f"seat {player}'s open cards do not form {combo.name}; only cards won in tricks "
                "count, never those in the hand (S0 Polish section)"
            )
        trick_card = [r for r in reasons if r is not None and "trick just won" not in r]
        return (trick_card or [r for r in reasons if r is not None] or ["not legal now"])[0]


def _groups(
    state: HookState, cards: list[int], new: Iterable[int]
) -> dict[int, dict[int, list[int]]]:
    """Group open cards: face -> what tells copies apart for the rules -> those cards.

    Copies of a face are interchangeable when they have been declared in the same
    classes and are both new or both old: the key is ``levels * 2 + new``.
    """
    fresh = set(new)
    levels = state.levels
    face_of = state.deck.card_face
    groups: dict[int, dict[int, list[int]]] = {}
    for card in cards:
        key = levels[card] * 2 + (card in fresh)
        groups.setdefault(face_of[card], {}).setdefault(key, []).append(card)
    return groups

"""Rubicon bezique's game: one deal, brisques kept back, the settlement, carte blanche again.

The Portland Club's Rubicon game of 1887 (HMR, F334, BIC-R; six- and eight-pack bezique
follow it, PAR and CM-6) plays its deal with the ordinary and Grand plugins' rules:
trumps named by the first marriage or sequence (``trumps.mode: first_marriage``), the
score table in the variant file, combinations formed again once a card of them has been
played away (the ``grand`` plugin).  What this plugin adds is the rest of the game:

* **one deal is the game** (BIC-R, CM-R: R20) is the variant's data, ``game.end:
  one_deal``, which this plugin requires: the kernel ends the game with the hand, and
  the ordinary plugin names the higher total the winner (equal totals draw);
* **brisques** (``brisques.timing: settlement``) are not scored with the hand; they are
  counted, for both players, only when the two totals are equal or when they lift the
  lower total to the rubicon line (HMR, BIC-R: R18), and never under
  ``rubicon.brisques: never`` (six- and eight-pack: S14, A30);
* **the settlement** (BIC-R, R21-R24; the readings are switches of the ``rubicon``
  section): the higher total wins.  A loser at or over ``rubicon.line`` has his total
  taken off the winner's and the winner adds ``game_bonus``.  A loser under it is
  *rubiconed*: his total is added to the winner's, who adds ``rubicon_bonus`` instead of
  the game bonus and ``brisques_bonus`` (320, all the brisques of four packs, which
  replaces any brisques counted, A22b).  The loser's total then goes to nothing, so the
  game's score is the winner's.  Fractions of ``rounding.to`` are dropped from the
  winner's final total (as SPEC's 1300 implies, A22a), and under ``rounding.stage:
  totals`` from each total before the settlement too; never so far that the winner's
  score falls to nothing, since the fractions then decide who won (R22).  The winner is
  the higher total, brisques counted when they are: counting them to save the lower
  total may put it ahead, and the other player is then the loser, rubiconed or not (an
  inference: both count once either does, and the higher total wins).  Totals the
  brisques leave equal make a drawn game, with no bonus (A22e);
* **declaring** (:class:`RubiconDeclarations`): Grand's re-forming under F334's class
  rule read on each card's history, and WK-R's two readings as switches (R-C4, R-C5);
* **carte blanche again** (``rubicon.carte_blanche: per_drawn_card``, WK-R, CM-R, PAR,
  A19): a player who announced a carte blanche at the deal, showing his hand, may
  announce it again for each card he draws that is not one of the carte blanche ranks,
  showing that card, before he plays his next card, until he draws one of them; ``once``
  is F334's reading (R-C1).  The announcement, at the deal and again, is the ordinary
  plugin's (:mod:`bezique.plugins.ordinary.carteblanche`): this plugin offers each card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bezique.actions import Kind, ScoreEvent
from bezique.engine.state import PluginState
from bezique.hookspecs import DeclaringRole, KeyPath, RuleProse, hookimpl
from bezique.hookstate import HookRules, HookState
from bezique.plugins.grand import GrandDeclarations
from bezique.plugins.ordinary import Combination, offer_drawn, shown_at_deal, tables, tables_of
from bezique.rules.english import value
from bezique.variant import game_target, load_fragment

__all__ = [
    "RubiconDeclarations",
    "RubiconHand",
    "Settlement",
    "brisques_counted",
    "rubicon_hand",
    "settle",
]
"""The declaring role, the hand's state this plugin keeps, and the settlement as pure
computations."""

_KEY = "rubicon"
"""Where this plugin keeps its :class:`RubiconHand` (``state.plugin_state``)."""


# ---------------------------------------------------------------------- carte blanche again


@dataclass
class RubiconHand(PluginState):
    """What this plugin keeps for a hand (made at each deal)."""

    blank: list[bool]
    """Per seat: no carte blanche rank drawn since the deal (his carte blanche, if he
    showed one, still runs)."""
    ever: dict[int, int]
    """For each card declared this hand, the highest level it has ever been declared at
    in each class (four bits a class, as ``state.levels``, but never lowered when a
    combination is broken: the grand plugin's effective levels are)."""

    def copy(self) -> RubiconHand:
        """An independent copy."""
        return RubiconHand(list(self.blank), dict(self.ever))

    def seen_by(self, seat: int) -> RubiconHand:
        """What a card drawn by another seat ended is his to tell: his run shows as going on."""
        blank = [mine if other == seat else True for other, mine in enumerate(self.blank)]
        return RubiconHand(blank, dict(self.ever))

    def to_json(self) -> dict[str, Any]:
        """``{"rubicon": {"blank": [...], "ever": {"CARD": LEVELS, ...}}}``."""
        ever = {str(card): levels for card, levels in sorted(self.ever.items())}
        return {_KEY: {"blank": list(self.blank), "ever": ever}}


def rubicon_hand(state: HookState) -> RubiconHand:
    """Return this hand's :class:`RubiconHand`."""
    return state.plugin_state(_KEY, RubiconHand)


def _repeats(data: dict[str, Any]) -> bool:
    """Whether carte blanche scores again on drawn cards in this variant."""
    return bool(data["carte_blanche"]["enabled"]) and (
        data["rubicon"]["carte_blanche"] == "per_drawn_card"
    )


@hookimpl
def bezique_after_deal(state: HookState) -> None:
    """Start the hand: nothing declared, no carte blanche rank drawn."""
    state.set_plugin_state(_KEY, RubiconHand([True] * state.players, {}))


@hookimpl
def bezique_draw_scores(state: HookState, player: int, card: int) -> list[ScoreEvent]:
    """A carte blanche shown at the deal is offered again for a drawn card of no barred rank.

    A barred rank drawn ends it.  Nothing scores here: the holder announces the card
    before his next one, or declines it by playing (the ordinary plugin's option).
    """
    hand = rubicon_hand(state)
    if not hand.blank[player] or not _repeats(state.rules.data):
        return []
    if not tables(state).blank((card,)):
        hand.blank[player] = False
    elif shown_at_deal(state, player):
        offer_drawn(state, player, card)
    return []


# ---------------------------------------------------------------------- declaring (R14, R-C4, R-C5)


@hookimpl
def bezique_requires() -> list[str]:
    """The ordinary rules and Grand's re-forming, listed before it."""
    return ["ordinary", "grand"]


@hookimpl
def bezique_declaring_roles() -> list[type[DeclaringRole]]:
    """Rubicon's class rule on the hand's history, and WK-R's readings as switches."""
    return [RubiconDeclarations]


def _same_suit(combo: Combination) -> bool:
    """Whether ``combo`` is cards of one suit (a marriage, a sequence)."""
    return bool(combo.faces) and not combo.pairs


class RubiconDeclarations(GrandDeclarations):
    """Grand's declaring under the Rubicon class rule, read on each card's history.

    Grand forms a combination again once a card of it is played away; Rubicon adds:

    * a card never scores again in a lower combination of its class, not even once
      the higher one is broken (F334, R14): a queen of a broken sequence marries no
      new king, though the sequence may be formed again (R16);
    * ``rubicon.married_into_sequence: false`` (WK-R, R-C5): a king or queen once in a
      marriage joins no sequence;
    * ``rubicon.repair_marriages: true`` (WK-R, R-C4): a marriage may be formed from
      cards already declared, without a card from the hand, when one of them has been
      in a marriage; and a king or queen of a marriage still whole may leave its
      partner to marry a widowed card (one married before, whose partner has been
      played away), which Grand's bigamy rule (A24) bars otherwise.
    """

    def __init__(self, rules: HookRules) -> None:
        """The declaring role of ``rules``' variant, its Rubicon switches read once."""
        super().__init__(rules)
        section = rules.data["rubicon"]
        self.repairs_marriages: bool = section["repair_marriages"]
        """``rubicon.repair_marriages`` (WK-R, R-C4)."""
        self.marries_into_sequence: bool = section["married_into_sequence"]
        """``rubicon.married_into_sequence`` (WK-R, R-C5)."""

    def form_refusal(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...], kind: Kind
    ) -> str | None:
        """The history's class rule first, then Grand's and the ordinary rules."""
        return self.history_refusal(state, combo, cards) or super().form_refusal(
            state, player, combo, cards, kind
        )

    def history_refusal(
        self, state: HookState, combo: Combination, cards: tuple[int, ...]
    ) -> str | None:
        """Why a card's earlier declarations in ``combo``'s class bar it (see the class)."""
        ever = rubicon_hand(state).ever
        sequences = self.marries_into_sequence
        for card in cards:
            level = (ever.get(card, 0) >> combo.shift) & 15
            if level > combo.level:
                return (
                    f"{state.deck.card_text(card)} has been declared in a higher combination "
                    f"of the class of {combo.name}: a card never scores again in a lower one "
                    "of its class, even once the higher one is broken (F334, R14)"
                )
            if not sequences and level and combo.level > level and _same_suit(combo):
                return (
                    f"{state.deck.card_text(card)} has been declared in a marriage, and a "
                    "married king or queen joins no sequence (rubicon.married_into_sequence: "
                    "false; WK-R, R-C5)"
                )
        return None

    def class_levels(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...]
    ) -> list[int]:
        """The levels read, a married card taking a widow read as free in its class (WK-R).

        Under ``repair_marriages`` a marriage of a widowed card (married before, no
        marriage of it whole now: its partner was played away) with a card of a marriage
        still whole takes that card from its partner: the rules read its level in the
        class of marriages as nothing, so neither the class rule nor Grand's bigamy
        rule (A24) holds it to the old marriage.
        """
        levels = super().class_levels(state, player, combo, cards)
        if not self.takes_a_widow(state, combo, cards):
            return levels
        return [level & ~(15 << combo.shift) for level in levels]

    def takes_a_widow(self, state: HookState, combo: Combination, cards: tuple[int, ...]) -> bool:
        """Whether ``cards`` marry a widowed card under WK-R's re-pairing (R-C4)."""
        if not (self.repairs_marriages and _same_suit(combo) and combo.size == 2):
            return False
        ever = rubicon_hand(state).ever
        shift = combo.shift
        return any(
            (ever.get(card, 0) >> shift) & 15 and not (state.levels[card] >> shift) & 15
            for card in cards
        )

    def new_card_refusal(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...], kind: Kind
    ) -> str | None:
        """Grand's rule, but WK-R's re-paired marriage needs no card from the hand."""
        if (
            self.repairs_marriages
            and _same_suit(combo)
            and combo.size == 2
            and any((rubicon_hand(state).ever.get(c, 0) >> combo.shift) & 15 for c in cards)
        ):
            return None
        return super().new_card_refusal(state, player, combo, cards, kind)

    def declared_bits(self, state: HookState, player: int) -> int:
        """Grand's, less the cards WK-R's re-pairing may marry again without a new card."""
        declared = super().declared_bits(state, player)
        if not self.repairs_marriages:
            return declared
        marriage = next(
            (c for c in self.tables.combinations(state) if _same_suit(c) and c.size == 2), None
        )
        if marriage is None:
            return declared
        ever = rubicon_hand(state).ever
        married = [card for card, levels in ever.items() if (levels >> marriage.shift) & 15]
        return declared & ~state.deck.mask(married)

    def declare(
        self,
        state: HookState,
        player: int,
        combo: Combination,
        cards: tuple[int, ...],
        new_cards: list[int] | None = None,
    ) -> None:
        """Note the level each card reaches in ``combo``'s class, then declare as Grand does."""
        ever = rubicon_hand(state).ever
        mask = 15 << combo.shift
        for card in cards:
            old = ever.get(card, 0)
            level = max((old >> combo.shift) & 15, combo.level)
            ever[card] = (old & ~mask) | (level << combo.shift)
        super().declare(state, player, combo, cards, new_cards)


# ---------------------------------------------------------------------- the game's end


def _brisques(state: HookState) -> list[int]:
    """Per seat, the points of the brisques in the tricks he has won."""
    t = tables(state)
    return [t.brisque_points * sum(map(t.brisque.__getitem__, won)) for won in state.won]


def brisques_counted(totals: list[int], brisques: list[int], line: int) -> bool:
    """Whether the brisques are counted: to break a tie, or to save the lower total (R18)."""
    low = min(totals)
    if totals[0] == totals[1]:
        return True
    return low < line <= low + brisques[totals.index(low)]


@hookimpl
def bezique_hand_scores(state: HookState) -> list[ScoreEvent]:
    """Both players' brisques, if they break a tie or save a rubicon (one counts: both do)."""
    return counted_brisques(state.rules, state.scores, _brisques(state))


def counted_brisques(
    rules: HookRules, scores: Sequence[int], brisques: Sequence[int]
) -> list[ScoreEvent]:
    """The brisques' points (per seat) added at the game's end, if they count (R18)."""
    section = rules.data["rubicon"]
    if section["brisques"] == "never":
        return []
    if not brisques_counted(list(scores), list(brisques), section["line"]):
        return []
    return [
        ScoreEvent(seat, points, "brisques", "counted at the game's end")
        for seat, points in enumerate(brisques)
        if points
    ]


@hookimpl
def bezique_sheet_hand_end(
    rules: HookRules, scores: Sequence[int], brisques: Sequence[int]
) -> list[ScoreEvent]:
    """A score sheet's brisques (cards per seat), counted as the game counts them."""
    points = tables_of(rules).brisque_points
    return counted_brisques(rules, scores, [points * count for count in brisques])


@dataclass(frozen=True)
class Settlement:
    """The settlement of one game, worked out from the two totals (see :func:`settle`)."""

    rubiconed: bool
    """The loser's total is under the rubicon line."""
    winner_events: list[tuple[int, str, str]]
    """What the winner scores: (points, rule, detail), in order."""
    loser_rounding: int
    """What rounding takes off the loser's total before it is settled (``totals`` stage)."""
    loser_total: int
    """The loser's total that the settlement takes away (after rounding)."""


def settle(winner: int, loser: int, counted: int, rules: dict[str, Any]) -> Settlement:
    """Work out the settlement of totals ``winner`` > ``loser`` under the ``rubicon`` section.

    ``counted`` is the brisque points already in the two totals (both players', A22b).
    """
    step = rules["rounding"]["to"]
    start = winner
    events: list[tuple[int, str, str]] = []
    loser_rounding = 0
    rubiconed = loser < rules["line"]
    if rules["rounding"]["stage"] == "totals":
        if winner % step:
            events.append((-(winner % step), "rubicon.rounding", f"to the {step} below"))
        loser_rounding = loser % step
        winner, loser = winner - winner % step, loser - loser_rounding
    if rubiconed:
        events.append((loser, "rubicon.loser_added", "the rubiconed loser's total"))
        events.append((rules["rubicon_bonus"], "rubicon.rubicon", "the loser is rubiconed"))
        if rules["brisques_bonus"]:
            events.append((rules["brisques_bonus"], "rubicon.brisques", "all the brisques"))
            if counted:
                events.append((-counted, "rubicon.brisques_replaced", "counted brisques"))
    else:
        events.append((-loser, "rubicon.loser_deducted", "the loser's total"))
        events.append((rules["game_bonus"], "rubicon.game", "for the game"))
    final = start + sum(points for points, _, _ in events)
    if final % step and final - final % step > 0:  # never so far as to hide who won (R22)
        events.append((-(final % step), "rubicon.rounding", f"to the {step} below"))
    return Settlement(rubiconed, events, loser_rounding, loser)


@hookimpl
def bezique_settlement(state: HookState) -> list[ScoreEvent]:
    """The Rubicon settlement of the game won (nothing for a drawn game, A22e)."""
    counted = sum(e.points for e in state.events if e.rule == "brisques")
    return settlement(state.rules, state.scores, state.winner, counted)


@hookimpl
def bezique_sheet_settlement(
    rules: HookRules, scores: Sequence[int], winner: int, counted: int
) -> list[ScoreEvent]:
    """A score sheet's settlement, as the game's (:func:`settlement`)."""
    return settlement(rules, scores, winner, counted)


def settlement(
    rules: HookRules, scores: Sequence[int], winner: int, counted: int
) -> list[ScoreEvent]:
    """The settlement of totals ``scores`` won by ``winner`` (none if -1); ``counted``: brisques."""
    if winner < 0:
        return []
    loser = 1 - winner
    result = settle(scores[winner], scores[loser], counted, rules.data["rubicon"])
    events = [
        ScoreEvent(winner, points, rule, detail) for points, rule, detail in result.winner_events
    ]
    if result.loser_rounding:
        events.append(
            ScoreEvent(loser, -result.loser_rounding, "rubicon.rounding", "to the round figure")
        )
    if result.loser_total:
        events.append(
            ScoreEvent(loser, -result.loser_total, "rubicon.settled", "paid to the winner")
        )
    return events


# ---------------------------------------------------------------------- the variant file


@hookimpl
def bezique_variant_schema() -> dict[str, Any]:
    """The ``rubicon`` section (``rubicon.schema.json``)."""
    return load_fragment(__package__ or "bezique.plugins", "rubicon.schema.json")


@hookimpl
def bezique_variant_problems(data: dict[str, Any]) -> list[tuple[list[KeyPath], str]]:
    """Rubicon is a two-hand game of one deal whose brisques the settlement counts."""
    problems: list[tuple[list[KeyPath], str]] = []
    if "rubicon" not in data:
        problems.append(
            (
                [("plugins",)],
                "the rubicon plugin settles the game by the variant's 'rubicon' section, "
                "which is missing; add it (see variants/rubicon.yaml) or extend rubicon",
            )
        )
    if game_target(data) is not None:
        problems.append(
            (
                [("game", "end"), ("game", "target")],
                "the Rubicon settlement ends a game of one deal (R20), not one to a target; "
                "set game.end: one_deal and leave game.target out (target: null)",
            )
        )
    if data["players"] != 2:
        problems.append(
            (
                [("players",)],
                "the Rubicon settlement is between two players (R02); set players: 2",
            )
        )
    if data["brisques"]["timing"] != "settlement":
        problems.append(
            (
                [("brisques", "timing")],
                "the rubicon plugin counts the brisques itself at the game's end (R18), so "
                "they would score twice; set brisques.timing: settlement",
            )
        )
    return problems


WORDS: Mapping[str, str] = {
    "carte_blanche.drawn": "carte blanche shown again with the card drawn",
    "rubicon.rounding": "rounded down to the round figure",
    "rubicon.loser_added": "the rubiconed loser's total added",
    "rubicon.rubicon": "the rubicon bonus",
    "rubicon.brisques": "the bonus for all the brisques",
    "rubicon.brisques_replaced": "the brisques counted, replaced by that bonus",
    "rubicon.loser_deducted": "the loser's total deducted",
    "rubicon.game": "the game bonus",
    "rubicon.settled": "the loser's total, paid to the winner",
}
"""The words of the Rubicon settlement's and carte blanche's score keys."""


@hookimpl
def bezique_words() -> Mapping[str, str]:
    """The Rubicon game's keys in a player's words (:mod:`bezique.rules.words`)."""
    return WORDS


@hookimpl
def bezique_describe_rules(data: Mapping[str, Any]) -> list[RuleProse]:
    """The settlement's numbers and readings, the winner on the totals, and a tie."""
    return [
        *settings(data),
        RuleProse(
            "rubicon",
            "rubicon.winner",
            "The higher total wins, brisques counted when they are counted at all: brisques "
            "counted to save the lower total may put it ahead.  Totals still equal make a "
            "drawn game, with no bonus to either.",
            "BIC-R; R18, R21; A22e",
        ),
    ]


def _setting(
    key: str,
    text: str,
    covers: tuple[str, ...],
    cell: str,
    where: tuple[str, tuple[str, ...] | str] = ("rubicon", ("rubicon", "source")),
) -> RuleProse:
    """A rule of the variant's ``rubicon`` data, in the settlement's section.

    ``where`` names another section and its citation (a ``source:`` path of the data, or
    the citation itself).
    """
    section, cited = where
    paths = tuple(f"rubicon.{c}" for c in covers)
    if isinstance(cited, str):
        return RuleProse(section, f"rubicon.{key}", text, cited, paths, True, cell)
    return RuleProse(section, f"rubicon.{key}", text, None, paths, True, cell, cited)


def settings(data: Mapping[str, Any]) -> list[RuleProse]:
    """How a one-deal game is settled, and the Rubicon readings of declaring."""
    r = data.get("rubicon")
    if r is None:
        return []
    brisques = (
        "Brisques are counted, for both players, only when the totals are equal or when "
        "they bring the lower total up to the rubicon line."
        if r["brisques"] == "tie_or_rubicon"
        else "Brisques are never counted."
    )
    stage = (
        "the winner's total after the settlement"
        if r["rounding"]["stage"] == "final"
        else ("each total before the settlement, and the winner's after it")
    )
    rounding = (
        "Nothing is rounded."
        if r["rounding"]["to"] == 1
        else f"Fractions of {r['rounding']['to']} are dropped from {stage}, never so far that "
        "the winner's score falls to nothing."
    )
    blanche = (
        "A player who announced a carte blanche at the deal may announce it again, at his "
        "choice, for each card he draws that is not of its ranks, showing that card before "
        "he plays his next one, and score it again, until he draws one of its ranks."
        if r["carte_blanche"] == "per_drawn_card"
        else "A carte blanche is announced only once, at the deal."
    )
    return [
        _setting(
            "game_bonus",
            f"The higher total wins; if the loser reaches {r['line']} the winner "
            f"adds {r['game_bonus']} for the game, and the loser's total is taken off his.",
            ("game_bonus", "line"),
            f"{r['game_bonus']} at {r['line']}",
        ),
        _setting(
            "rubicon_bonus",
            f"A loser under {r['line']} is rubiconed: the winner adds "
            f"{r['rubicon_bonus']} instead of {r['game_bonus']} and the loser's total"
            + (
                f", and {r['brisques_bonus']} for all the brisques."
                if r["brisques_bonus"]
                else ", and nothing for the brisques."
            ),
            ("rubicon_bonus", "brisques_bonus"),
            f"{r['rubicon_bonus']} + {r['brisques_bonus']}",
        ),
        _setting("brisques", brisques, ("brisques",), str(r["brisques"])),
        _setting(
            "rounding",
            rounding,
            ("rounding.to", "rounding.stage"),
            f"{r['rounding']['to']} {r['rounding']['stage']}",
        ),
        _setting(
            "carte_blanche",
            blanche,
            ("carte_blanche",),
            str(r["carte_blanche"]),
            ("carte_blanche", ("carte_blanche", "source")),
        ),
        _setting(
            "repair_marriages",
            "Once a card of a marriage has been played, its partner may be married again to a "
            "card already declared, with no card from the hand, even to a king or queen taken "
            "from a marriage still on the table."
            if r["repair_marriages"]
            else "Every declaration brings a card never declared before; no marriage is re-paired "
            "from declared cards alone.",
            ("repair_marriages",),
            value(r["repair_marriages"]),
            ("declarations", "A23; R-C4"),
        ),
        _setting(
            "married_into_sequence",
            "A king or queen once married may still join a sequence."
            if r["married_into_sequence"]
            else "A king or queen once married may not join a sequence.",
            ("married_into_sequence",),
            value(r["married_into_sequence"]),
            ("declarations", "A07; R-C5"),
        ),
    ]

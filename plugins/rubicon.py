"""Rubicon bezique's game: one deal, brisques kept back, the settlement, carte blanche again.

The Portland Club's Rubicon game of 1887 (HMR, F334, BIC-R; six- and eight-pack bezique
follow it, PAR and CM-6) plays its deal with the ordinary and Grand plugins' rules:
trumps named by the first marriage or sequence (``trumps.mode: first_marriage``), the
score table in the variant file, combinations formed again once a card of them has been
played away (the ``grand`` plugin).  What this plugin adds is the rest of the game:

* **one deal is the game** (BIC-R, CM-R): the game is decided when the hand is over,
  whatever the scores (:func:`bezique_game_winner`);
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
  winner's final total (``rounding.stage: final``, A22a, as SPEC's 1300 implies) or from
  each total before the settlement (``totals``).  Totals the brisques leave equal make a
  drawn game, with no bonus (A22e);
* **carte blanche again** (``rubicon.carte_blanche: per_drawn_card``, WK-R, CM-R, PAR,
  A19): a player who showed a carte blanche at the deal scores it again for each card he
  draws that is not one of the carte blanche ranks, shown as it is drawn, until he draws
  one; ``once`` is F334's reading (R-C1).  The first carte blanche is the ordinary
  plugin's, at the deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bezique.actions import ScoreEvent
from bezique.game import GameState
from bezique.hookspecs import KeyPath, hookimpl
from bezique.state import DRAWN_GAME, PluginState
from bezique.variant import load_fragment

__all__ = ["RubiconHand", "Settlement", "settle"]
"""The hand's state this plugin keeps and the settlement as a pure computation."""

_KEY = "rubicon"
"""Where this plugin keeps its :class:`RubiconHand` (``state.plugin_state``)."""


# ---------------------------------------------------------------------- carte blanche again


@dataclass
class RubiconHand(PluginState):
    """Per seat, whether his carte blanche still runs (made at each deal)."""

    blank: list[bool]
    """A carte blanche shown at the deal, and no carte blanche rank drawn since."""

    def copy(self) -> RubiconHand:
        """An independent copy."""
        return RubiconHand(list(self.blank))

    def to_json(self) -> dict[str, Any]:
        """``{"rubicon": {"blank": [...]}}``."""
        return {_KEY: {"blank": list(self.blank)}}


def _barred_ranks(state: GameState) -> frozenset[int]:
    return frozenset(state.deck.rank_index(r) for r in state.rules.data["carte_blanche"]["ranks"])


def _repeats(data: dict[str, Any]) -> bool:
    """Whether carte blanche scores again on drawn cards in this variant."""
    return bool(data["carte_blanche"]["enabled"]) and (
        data["rubicon"]["carte_blanche"] == "per_drawn_card"
    )


@hookimpl
def bezique_after_deal(state: GameState) -> None:
    """Note which hands were dealt without a carte blanche rank (their carte blanche runs)."""
    if not _repeats(state.rules.data):
        return
    barred = _barred_ranks(state)
    rank_of = state.deck.card_rank
    blank = [not any(rank_of[c] in barred for c in hand) for hand in state.hands]
    state.set_plugin_state(_KEY, RubiconHand(blank))


@hookimpl
def bezique_draw_scores(state: GameState, player: int, card: int) -> list[ScoreEvent]:
    """A running carte blanche scores again for a drawn card that is not a barred rank."""
    hand = state.extra.get(_KEY)
    if not isinstance(hand, RubiconHand) or not hand.blank[player]:
        return []
    if state.deck.card_rank[card] in _barred_ranks(state):
        changed = hand.copy()
        changed.blank[player] = False
        state.set_plugin_state(_KEY, changed)
        return []
    points = state.rules.data["carte_blanche"]["points"]
    return [ScoreEvent(player, points, "carte_blanche.drawn", state.deck.card_text(card))]


# ---------------------------------------------------------------------- the game's end


def _brisques(state: GameState) -> list[int]:
    """Per seat, the points of the brisques in the tricks he has won."""
    data = state.rules.data["brisques"]
    ranks = {state.deck.rank_index(r) for r in data["ranks"]}
    rank_of = state.deck.card_rank
    return [data["points"] * sum(rank_of[c] in ranks for c in won) for won in state.won]


def brisques_counted(totals: list[int], brisques: list[int], line: int) -> bool:
    """Whether the brisques are counted: to break a tie, or to save the lower total (R18)."""
    low = min(totals)
    if totals[0] == totals[1]:
        return True
    return low < line <= low + brisques[totals.index(low)]


@hookimpl
def bezique_hand_scores(state: GameState) -> list[ScoreEvent]:
    """Both players' brisques, if they break a tie or save a rubicon (one counts: both do)."""
    rules = state.rules.data["rubicon"]
    if rules["brisques"] == "never":
        return []
    brisques = _brisques(state)
    if not brisques_counted(list(state.scores), brisques, rules["line"]):
        return []
    return [
        ScoreEvent(seat, points, "brisques", "counted at the game's end")
        for seat, points in enumerate(brisques)
        if points
    ]


@hookimpl
def bezique_game_winner(state: GameState, hand_over: bool) -> int:
    """One deal is the game: the higher total when the hand is over; equal totals draw."""
    if not hand_over:
        return -1
    first, second = state.scores
    return DRAWN_GAME if first == second else 0 if first > second else 1


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
    final = winner + sum(points for points, _, _ in events)
    if rules["rounding"]["stage"] == "final" and final % step:
        events.append((-(final % step), "rubicon.rounding", f"to the {step} below"))
    return Settlement(rubiconed, events, loser_rounding, loser)


@hookimpl
def bezique_settlement(state: GameState) -> list[ScoreEvent]:
    """The Rubicon settlement of the game won (nothing for a drawn game, A22e)."""
    winner = state.winner
    if winner < 0:
        return []
    loser = 1 - winner
    rules = state.rules.data["rubicon"]
    counted = sum(e.points for e in state.events if e.rule == "brisques")
    result = settle(state.scores[winner], state.scores[loser], counted, rules)
    events = [
        ScoreEvent(winner, points, rule, detail) for points, rule, detail in result.winner_events
    ]
    if result.loser_rounding:
        events.append(
            ScoreEvent(loser, -result.loser_rounding, "rubicon.rounding", "to the hundred")
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

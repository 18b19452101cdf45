"""The dealer's lift before the deal, and the adversary's guess of it (six-pack bezique).

PW6 and HER give six-pack bezique a bonus before the deal (S04, conflict
X-C4, M05a): the dealer takes a packet off the top of the pack
without counting it, trying for exactly the cards the deal takes (24 for two
hands of twelve); his adversary says how many cards he thinks it holds; then
the packet is counted.  A right guess scores the guesser ``guess_bonus`` (150),
a packet of exactly ``target`` cards scores the dealer ``exact_bonus`` (250);
both may score in one hand.  PAR and CM-6 do not have it, so it is a switch
(``lift.enabled``).

The variant's ``lift`` section::

    lift: {enabled: true, target: 24, exact_bonus: 250, guess_bonus: 150, sizes: [20, 28]}

How it is played here:

* **The packet's size is chance**, drawn from the game's random source
  (``state.rng``) when the hand is dealt, uniformly among ``sizes`` (from the
  first to the second, both included).  *No source says how close a dealer comes
  to his aim*: the range, and that every size in it is as likely as another, is
  this plugin's assumption, which a variant sets to its own taste.
* **The guess is a decision**: the dealer's adversary (the elder hand, on the
  dealer's left, with more than two players) answers the kernel's question
  ``lift`` (:func:`bezique.hookspecs.bezique_hand_question`) with one of the sizes
  of the range, ``choose lift 24``, before the first lead.  He sees nothing of the
  packet (it is in the full state, as the stock's order is, never in his
  observation).
* **The deal is unchanged**: the packet is what the deal is dealt from, so the
  cards dealt, the turn-up and the stock are those of the game without the lift
  (a stacked deck deals as stacked); only the later hands' shuffles differ, as
  the draw of each packet takes from the same random source.
* The scores are the events ``lift.exact`` (the dealer's) and ``lift.guessed``
  (the guesser's), scored when the packet is counted, before the deal's own
  scores.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bezique.actions import ScoreEvent
from bezique.engine.state import PluginState
from bezique.hookspecs import KeyPath, Question, RuleProse, hookimpl
from bezique.variant import load_fragment

if TYPE_CHECKING:
    from bezique.hookstate import HookState

__all__ = ["KEY", "QUESTION", "LiftState", "lift_state"]
"""What the plugin offers others: its state's key, its question's name, its state."""

KEY = "lift"
"""Where the plugin keeps its state of the hand (``state.extra``), and its section."""
QUESTION = "lift"
"""The name of the question the guesser answers (``choose lift N``)."""


UNCOUNTED = -1
"""A view's packet size before the guess: nobody has counted it."""


@dataclass(frozen=True)
class LiftState(PluginState):
    """The hand's lift: who lifted and who guesses, the packet's size, and the guess."""

    dealer: int
    guesser: int
    packet: int
    """How many cards the dealer lifted (hidden from every seat until counted)."""
    guess: int | None = None
    """The guesser's answer; None until he gives it."""

    def copy(self) -> LiftState:
        """Frozen: a clone shares it."""
        return self

    def seen_by(self, seat: int) -> LiftState:
        """The packet's size is nobody's to see until the guess has been given."""
        return self if self.guess is not None else replace(self, packet=UNCOUNTED)

    def in_world(self, data: Mapping[str, Any], rng: random.Random) -> LiftState:
        """A world's packet, when uncounted, drawn from the variant's sizes."""
        if self.packet != UNCOUNTED:
            return self
        low, high = data[KEY]["sizes"]
        return replace(self, packet=rng.randint(low, high))

    def to_json(self) -> dict[str, Any]:
        """The saved form: ``{"lift": {...}}``."""
        return {
            KEY: {
                "dealer": self.dealer,
                "guesser": self.guesser,
                "packet": self.packet,
                "guess": self.guess,
            }
        }


def lift_state(state: HookState) -> LiftState | None:
    """The hand's lift, or None when the variant's lift is off."""
    found = state.extra.get(KEY)
    return found if isinstance(found, LiftState) else None


def _section(state: HookState) -> dict[str, Any]:
    section: dict[str, Any] = state.rules.data[KEY]
    return section


@hookimpl
def bezique_variant_schema() -> dict[str, Any]:
    """The section this plugin reads: ``lift`` (``lift.schema.json``)."""
    return load_fragment(__package__ or "bezique.plugins", "lift.schema.json")


@hookimpl
def bezique_variant_problems(data: dict[str, Any]) -> list[tuple[KeyPath, str]]:
    """No ``lift`` section; a range of sizes that runs backwards, or that the target lies outside.

    (The schema cannot require the section: the full schema of every installed plugin
    would then require it of every variant.)
    """
    section = data.get(KEY)
    if section is None:
        return [((), "the plugin 'lift' is listed, but the variant has no 'lift' section")]
    low, high = section["sizes"]
    if low > high:
        return [((KEY, "sizes"), f"the smallest packet ({low}) is larger than the largest")]
    if not low <= section["target"] <= high:
        return [
            (
                (KEY, "target"),
                f"the target {section['target']} lies outside the sizes {low} to {high}: "
                "the dealer could never lift it",
            )
        ]
    return []


@hookimpl
def bezique_after_deal(state: HookState) -> None:
    """The dealer lifts his packet: its size is drawn from the range (the deal is as dealt)."""
    state.extra.pop(KEY, None)
    section = _section(state)
    if not section["enabled"]:
        return
    low, high = section["sizes"]
    packet = state.rng.randint(low, high)
    guesser = (state.dealer + 1) % state.players
    state.set_plugin_state(KEY, LiftState(state.dealer, guesser, packet))


@hookimpl
def bezique_hand_question(state: HookState) -> Question | None:
    """Before the first lead: the guesser says how many cards the packet holds."""
    lift = lift_state(state)
    if lift is None or lift.guess is not None:
        return None
    low, high = _section(state)["sizes"]
    return Question(
        QUESTION,
        lift.guesser,
        [str(size) for size in range(low, high + 1)],
        f"play waits for seat {lift.guesser} to guess how many cards the dealer lifted",
        "lift",
    )


@hookimpl
def bezique_answer(
    state: HookState, player: int, question: str, answer: str
) -> list[ScoreEvent] | None:
    """The guess is given and the packet counted: the bonuses it earns."""
    lift = lift_state(state)
    if question != QUESTION or lift is None:
        return None
    guess = int(answer)
    state.set_plugin_state(KEY, replace(lift, guess=guess))
    section = _section(state)
    events = []
    if lift.packet == section["target"] and section["exact_bonus"]:
        detail = f"seat {lift.dealer} lifted exactly {lift.packet} cards"
        events.append(ScoreEvent(lift.dealer, section["exact_bonus"], "lift.exact", detail))
    if guess == lift.packet and section["guess_bonus"]:
        detail = f"seat {player} guessed the {lift.packet} cards the dealer lifted"
        events.append(ScoreEvent(player, section["guess_bonus"], "lift.guessed", detail))
    return events


@hookimpl
def bezique_words() -> Mapping[str, str]:
    """The lift's score keys in a player's words (:mod:`bezique.rules.words`)."""
    return {
        "lift.exact": "the dealer's lift of exactly the right number",
        "lift.guessed": "the dealer's lift guessed",
        "phase.question": "answer the question asked before the first lead",
    }


@hookimpl
def bezique_describe_rules(data: Mapping[str, Any]) -> list[RuleProse]:
    """The lift's numbers, how the packet's size is drawn and when the guess is made."""
    section = data.get(KEY)
    if section is None:
        return []
    if not section["enabled"]:
        return [setting(section)]
    return [
        setting(section),
        RuleProse(
            "lift",
            "lift.procedure",
            "The packet's size is chance: every size of the range is as likely as another "
            "(no source says how near a dealer comes to his aim, so this is the project's "
            "assumption).  The dealer's adversary, on his left, names his guess before the "
            "first lead; both bonuses may score in one hand, and the cards are dealt as the "
            "pack lies.",
            "PW6, HER; S04, X-C4",
        ),
    ]


def setting(x: Mapping[str, Any]) -> RuleProse:
    """The dealer's lift before the deal and the adversary's guess (the variant's ``lift``)."""
    covers = tuple(
        f"lift.{k}" for k in ("enabled", "target", "exact_bonus", "guess_bonus", "sizes")
    )
    low, high = x["sizes"]
    text = (
        f"Before each deal the dealer lifts a packet off the pack without counting it, aiming "
        f"at {x['target']} cards; his adversary guesses its size, from {low} to {high}.  A right "
        f"guess scores {x['guess_bonus']} to the guesser, a packet of exactly {x['target']} "
        f"scores {x['exact_bonus']} to the dealer."
        if x["enabled"]
        else "The dealer does not lift before the deal."
    )
    cell = f"{x['target']}: {x['exact_bonus']}/{x['guess_bonus']}" if x["enabled"] else "off"
    return RuleProse(
        "lift", "lift", text, covers=covers, setting=True, value=cell, cited=("lift", "source")
    )

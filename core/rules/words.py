"""The words a player reads: one vocabulary for every key the game names things by.

The rules name things by keys: a score event by its rule (``last_trick``,
``seven_of_trumps.exchange_points``, ``rubicon.loser_deducted``), a combination by its
name in the variant's table (``four_knaves``), a declared card's classes
(``beziques``), a phase (``turn``).  Nothing a person reads shows those keys:
:class:`Words` says each in the words a player uses ("the last trick", "the seven of
trumps exchanged for the turn-up", "four knaves").

The kernel's own words (:data:`KERNEL_WORDS`: the phases and the actions) are merged
with what every plugin of the variant answers to the collect hook
:func:`bezique.hookspecs.bezique_words` (the built-in plugins give the words of their
combinations and score events so), a plugin listed later overriding one listed
before; :attr:`bezique.rules.ruleset.Ruleset.words` holds the result, made once per
ruleset.  A key nobody gives words to is said in a readable form of itself
(:func:`readable`: underscores to spaces, the dotted parts joined by ``: ``), never
as the raw key.

Keys: a score event's rule and a combination's name as they are; a declared-card
class as ``class.NAME``; a phase as ``phase.NAME``; an action's first word as
``action.WORD``; the rule that refuses an action as ``rule.RULE``; an irregularity of
the penalty table as ``irregularity.NAME`` (what the offender did, ``holding nine cards``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from bezique.errors import PluginError

CLASS = "class."
"""The prefix of a declared-card class's key (``class.beziques``)."""
PHASE = "phase."
"""The prefix of a phase's key (``phase.turn``)."""
ACTION = "action."
"""The prefix of an action's key, by its first word (``action.exchange``)."""
RULE = "rule."
"""The prefix of the key of a rule that refuses an action (``rule.play.own_cards``)."""
IRREGULARITY = "irregularity."
"""The prefix of an irregularity's key, by its name in the penalty table
(``irregularity.nine_cards``)."""

_KEY = re.compile(r"[a-z]+(?:[._][a-z]+)+")
"""What a key looks like: lower-case words joined by dots or underscores."""

KERNEL_WORDS: Mapping[str, str] = {
    "phase.play": "play a card",
    "phase.turn": "declare, exchange or end the turn, after winning the trick",
    "phase.question": "answer the question",
    "phase.game_over": "the game is over",
    "action.play": "play",
    "action.declare": "declare",
    "action.announce": "announce",
    "action.exchange": "exchange for the turn-up",
    "action.show": "show",
    "action.draw": "end the turn and draw",
    "action.pass": "end the turn",
    "action.choose": "choose",
    "action.irregular": "report the irregularity",
    "action.claim": "claim",
    "rule.play": "the rules of play",
    "rule.play.own_cards": "a player plays only a card he holds",
    "rule.declarations": "the rules of declaring",
    "rule.declarations.after_winning": "only a trick's winner declares, after winning it",
    "rule.declarations.before_drawing": "the trick's winner ends his turn before the next card",
    "rule.endgame": "the rules of the end-game",
    "rule.seven_of_trumps": "the rules of the seven of trumps",
    "rule.game.target": "the game is over",
}
"""The kernel's words: its phases and its actions (the plugins give the rest)."""


PAST: Mapping[str, str] = {
    "play": "played",
    "declare": "declared",
    "announce": "announced",
    "exchange": "exchanged",
    "show": "showed",
    "choose": "chose",
    "irregular": "reported",
    "claim": "claimed",
}
"""The past tense of each action's first word, as the log tells it."""


def readable(key: str) -> str:
    """A key without words, readable: ``rubicon.loser_deducted`` -> ``rubicon: loser deducted``."""
    parts = [part.replace("_", " ").strip() for part in key.split(".")]
    return ": ".join(part for part in parts if part) or key


class Words(Mapping[str, str]):
    """A vocabulary: each key the rules use and the words a player reads for it."""

    def __init__(self, words: Mapping[str, str] | None = None) -> None:
        """The vocabulary of :data:`KERNEL_WORDS` with ``words`` over it."""
        self._words = {**KERNEL_WORDS, **(words or {})}

    def __getitem__(self, key: str) -> str:
        """The words of ``key`` (KeyError when it has none: see :meth:`say`)."""
        return self._words[key]

    def __iter__(self) -> Iterator[str]:
        """The keys that have words."""
        return iter(self._words)

    def __len__(self) -> int:
        """How many keys have words."""
        return len(self._words)

    def say(self, key: str) -> str:
        """The words of ``key``; a key without words in a readable form of itself."""
        return self._words.get(key) or readable(key)

    def combination(self, name: str) -> str:
        """A combination's name in words (``four_knaves`` -> ``four knaves``)."""
        return self.say(name)

    def classes(self, names: Iterable[str]) -> str:
        """Declared-card classes in words: ``beziques+quartets`` -> a bezique and four of a kind."""
        said = [self.say(CLASS + name) for name in names if name]
        if len(said) <= 1:
            return "".join(said)
        return f"{', '.join(said[:-1])} and {said[-1]}"

    def action(self, text: str, *, past: bool = False) -> str:
        """An action's text in words, its card tokens left as they are (the table draws them).

        ``declare royal_marriage KS QS`` -> ``declare royal marriage: KS QS``;
        ``draw`` -> ``end the turn and draw``; ``past``: as the log tells another's move
        (``declared royal marriage: KS QS``).
        """
        word, _, rest = text.partition(" ")
        if word in ("declare", "announce"):
            name, _, cards = rest.partition(" ")
            told = f"{PAST[word] if past else word} {self.combination(name)}"
            if cards:  # a Polish declaration names no cards: they are the open rows'
                told += f": {cards}"
        elif word == "exchange":
            told = f"{PAST[word] if past else word} {rest} for the turn-up"
        elif word in ("draw", "pass"):
            told = "ended the turn" if past else self.say(ACTION + word)
        elif word == "choose":
            question, _, answer = rest.partition(" ")
            told = f"{PAST[word] if past else word} {answer} ({readable(question)})"
        elif word in ("irregular", "claim"):
            said = " ".join(readable(part) for part in rest.split(" "))
            told = f"{PAST[word] if past else self.say(ACTION + word)} {said}"
        else:
            told = f"{PAST.get(word, word) if past else word} {rest}"
        return told.strip()

    def detail(self, text: str) -> str:
        """A score event's detail with any key in it said in words (``carte_blanche voided``)."""
        return " ".join(
            self.say(word) if word in self._words or _KEY.fullmatch(word) else word
            for word in text.split(" ")
        )

    def rule(self, key: str) -> str:
        """A refusal's rule in words (``play.own_cards`` -> what that rule says)."""
        return self._words.get(RULE + key) or readable(key)

    def irregularity(self, name: str) -> str:
        """An irregularity in words (``nine_cards`` -> ``holding nine cards``).

        Without words, its name with spaces (``nine cards``).
        """
        return self._words.get(IRREGULARITY + name) or name.replace("_", " ")

    def phase(self, name: str) -> str:
        """A phase in words (``turn`` -> what the player may do in it)."""
        return self.say(PHASE + name)


def merged(answers: Iterable[tuple[str, Any]]) -> Words:
    """The vocabulary of the plugins' answers (plugin name, mapping), later answers winning.

    An answer that is not a mapping of words to non-empty texts is a
    :class:`PluginError` naming the plugin.
    """
    words: dict[str, str] = {}
    for plugin, answer in answers:
        if answer is None:
            continue
        if not isinstance(answer, Mapping) or not all(
            isinstance(key, str) and key and isinstance(text, str) and text.strip()
            for key, text in answer.items()
        ):
            raise PluginError(
                f"plugin {plugin!r}: bezique_words must return a mapping of keys to "
                f"words (non-empty strings), not {answer!r:.60}"
            )
        words.update(answer)
    return Words(words)

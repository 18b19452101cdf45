"""Hooks resolved by kind into plain callables, and the typed facade the kernel calls them by.

A hook's kind (:mod:`bezique.hookspecs`) says how its implementations combine:
*decide* hooks give the first answer that is not None (the plugin listed last is
asked first), *collect* hooks join every plugin's list in the order the plugins
are listed, *notify* hooks tell every plugin and return nothing.
:func:`resolve_hook` asks pluggy once for a hook's implementations and binds
them into one plain function of positional arguments; the protocols below are
what the kernel sees of each resolved hook (and of the declaring role), so its calls
are type-checked.  The kernel calls them with its game state; they take it as the
engine's parts know it, by its data (:class:`~bezique.hookstate.HookStateData`, which
:class:`~bezique.engine.state.StateData` has), and the plugins' implementations read it
as the :class:`~bezique.hookstate.HookState` it is (a :class:`~bezique.game.GameState`).

Each implementation is bound with its plugin's registered name: an exception it
raises (other than a :class:`~bezique.errors.BeziqueError`, which a plugin raises on
purpose, and ``KeyboardInterrupt`` or ``SystemExit``, which are not errors of the
plugin) becomes a :class:`~bezique.errors.PluginHookError` naming the plugin and the
hook, and every answer it gives is checked (:mod:`bezique.rules.answers`) before the
kernel uses it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from traceback import walk_tb
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

from bezique import hookspecs
from bezique.errors import BeziqueError, PluginError, PluginHookError
from bezique.rules.answers import CHECKS, Check
from bezique.variant.registry import known_plugins

if TYPE_CHECKING:
    from bezique.actions import Action, ScoreEvent
    from bezique.hookspecs import PhaseChoices, Question
    from bezique.hookstate import HookStateData

HookFunction = Callable[..., Any]
"""A hook implementation as pluggy holds it: the kernel calls it only through the facade."""


class ScoresOf(Protocol):
    """A resolved collect hook of the state alone: every plugin's score events, joined.

    None counts as no events (one plugin's answer is passed on as it is).
    """

    def __call__(self, state: HookStateData, /) -> list[ScoreEvent] | None:
        """The score events of every plugin, in the order the plugins are listed."""


class Notify(Protocol):
    """A resolved notify hook of the state alone: every plugin is told."""

    def __call__(self, state: HookStateData, /) -> None:
        """Tell every plugin."""


class HandQuestion(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_hand_question`."""

    def __call__(self, state: HookStateData, /) -> Question | None:
        """The question a seat must answer before the first lead, or None."""


class Answer(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_answer`."""

    def __call__(
        self, state: HookStateData, player: int, question: str, answer: str, /
    ) -> list[ScoreEvent] | None:
        """Carry out the answer; its score events, or None when no plugin takes it."""


class PlayOptions(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_play_options`."""

    def __call__(self, state: HookStateData, player: int, /) -> Sequence[Action] | None:
        """What the seat to play may do instead of playing a card, or None."""


class PlayOption(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_play_option`."""

    def __call__(
        self, state: HookStateData, player: int, action: Action, /
    ) -> list[ScoreEvent] | None:
        """Carry out the option; its score events, or None when no plugin takes it."""


class TrickWinner(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_trick_winner`."""

    def __call__(self, state: HookStateData, cards: list[int], /) -> int:
        """The position, in order of play, of the card that wins ``cards``."""


class LegalPlays(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_legal_plays`."""

    def __call__(self, state: HookStateData, player: int, cards: list[int], /) -> list[int]:
        """The cards of ``cards`` that ``player`` may play."""


class TrickScores(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_trick_scores`."""

    def __call__(
        self, state: HookStateData, winner: int, cards: list[int], /
    ) -> list[ScoreEvent] | None:
        """Every plugin's score events for the trick."""


class AfterTrick(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_after_trick`."""

    def __call__(self, state: HookStateData, winner: int, cards: list[int], /) -> None:
        """Tell every plugin of the trick."""


class DrawScores(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_draw_scores`."""

    def __call__(self, state: HookStateData, player: int, card: int, /) -> list[ScoreEvent] | None:
        """Every plugin's score events for the card drawn."""


class GameWinner(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_game_winner`."""

    def __call__(self, state: HookStateData, hand_over: bool, /) -> int | None:
        """The winning side, or -1 / None when the game goes on."""


class NextDeclarer(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_next_declarer`."""

    def __call__(self, state: HookStateData, player: int, declared: bool, /) -> int | None:
        """The next seat to declare, or -1 / None to draw."""


class TrickPlayers(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_trick_players`."""

    def __call__(self, state: HookStateData, /) -> list[int] | None:
        """The seats of the next trick, leader first; None for every seat."""


class TableAction(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_table_action`."""

    def __call__(self, state: HookStateData, action: Action, /) -> bool | None:
        """Carry out the table action; None when no plugin takes it."""


class PhaseChoicesOf(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_phase_choices`."""

    def __call__(self, state: HookStateData, /) -> PhaseChoices | None:
        """The legal actions of a phase a plugin opened."""


class WaitBeforeDraw(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_wait_before_draw`."""

    def __call__(self, state: HookStateData, /) -> bool | None:
        """Whether the trick's winner is given a turn to end with ``draw`` in any case."""


class BeforePlay(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_before_play`."""

    def __call__(self, state: HookStateData, player: int, card: int, /) -> None:
        """Tell every plugin of the card about to be played."""


class TrickOwner(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_trick_owner`."""

    def __call__(self, state: HookStateData, winner: int, /) -> int | None:
        """The seat that takes the trick, if not its winner."""


class Draw(Protocol):
    """Resolved :func:`~bezique.hookspecs.bezique_draw`."""

    def __call__(self, state: HookStateData, /) -> str | None:
        """DRAWN, HELD, or None for the kernel's draw."""


class Declaring(Protocol):
    """The variant's declaring role as the kernel calls it (:attr:`Ruleset.declaring`).

    The plugins' :class:`~bezique.hookspecs.DeclaringRole` classes composed; the kernel
    passes its game state (a :class:`~bezique.game.GameState`, whose parts know
    themselves by their data: :class:`~bezique.hookstate.HookStateData`).
    """

    def turn_actions(self, state: HookStateData, player: int, /) -> list[Action]:
        """What ``player``, a trick's winner, may do before drawing, besides ending his turn."""

    def refusal(self, state: HookStateData, player: int, action: Action, /) -> str | None:
        """Why ``action`` is not legal now (None: the kernel's general refusal)."""

    def apply(self, state: HookStateData, player: int, action: Action, /) -> None:
        """Carry out ``action``, one of :meth:`turn_actions`'."""


def _bind(impl: pluggy.HookImpl, argnames: tuple[str, ...]) -> HookFunction:
    """Adapt one implementation (which may take a subset of the arguments) to all of them."""
    wanted = tuple(argnames.index(name) for name in impl.argnames)
    function = impl.function
    if wanted == tuple(range(len(argnames))):
        return function

    def call(*args: Any) -> Any:
        return function(*(args[i] for i in wanted))

    return call


def _guarded(function: HookFunction, plugin: str, hook: str, kind: str) -> HookFunction:
    """One plugin's implementation, its failures named and its answers checked.

    A :class:`BeziqueError` (a refusal the plugin means, or a nested hook's failure
    already named) passes as it is, and so do ``KeyboardInterrupt`` and ``SystemExit``;
    any other exception becomes a :class:`PluginHookError` with it as the cause.  An
    answer the hook's check (:data:`bezique.rules.answers.CHECKS`) finds wrong is a
    :class:`PluginHookError`: for a decide hook any answer but None, for a collect hook
    any answer but an empty one.  The two hooks of every card and every trick have a
    check of their own, written into the guard, so that an answer that is right costs
    one test.
    """
    check = CHECKS.get(hook)
    if hook in _HOT and check is not None:
        return _HOT[hook](function, plugin, hook, check)
    if check is None or kind == hookspecs.NOTIFY:

        def told(*args: Any) -> Any:
            try:
                return function(*args)
            except BeziqueError:
                raise
            except Exception as exc:
                raise hook_failure(plugin, hook, exc) from exc

        return told
    if kind == hookspecs.DECIDE:

        def decide(*args: Any) -> Any:
            try:
                answer = function(*args)
            except BeziqueError:
                raise
            except Exception as exc:
                raise hook_failure(plugin, hook, exc) from exc
            if answer is not None:
                problem = check(answer, args)
                if problem is not None:
                    raise wrong_answer(plugin, hook, problem)
            return answer

        return decide

    def collect(*args: Any) -> Any:
        try:
            answer = function(*args)
        except BeziqueError:
            raise
        except Exception as exc:
            raise hook_failure(plugin, hook, exc) from exc
        if answer:  # None, or nothing to add: the kernel adds nothing
            problem = check(answer, args)
            if problem is not None:
                raise wrong_answer(plugin, hook, problem)
        return answer

    return collect


def _trick_winner(function: HookFunction, plugin: str, hook: str, check: Check) -> HookFunction:
    """The guard of ``bezique_trick_winner``: the answer is a position in the trick."""

    def call(state: Any, cards: list[int]) -> Any:
        try:
            answer = function(state, cards)
        except BeziqueError:
            raise
        except Exception as exc:
            raise hook_failure(plugin, hook, exc) from exc
        if (answer.__class__ is not int or not 0 <= answer < len(cards)) and answer is not None:
            raise wrong_answer(plugin, hook, check(answer, (state, cards)) or "")
        return answer

    return call


def _legal_plays(function: HookFunction, plugin: str, hook: str, check: Check) -> HookFunction:
    """The guard of ``bezique_legal_plays``: the cards offered themselves need no check."""

    def call(state: Any, player: int, cards: list[int]) -> Any:
        try:
            answer = function(state, player, cards)
        except BeziqueError:
            raise
        except Exception as exc:
            raise hook_failure(plugin, hook, exc) from exc
        if answer is not cards and answer is not None:
            problem = check(answer, (state, player, cards))
            if problem is not None:
                raise wrong_answer(plugin, hook, problem)
        return answer

    return call


_HOT: dict[str, Callable[[HookFunction, str, str, Check], HookFunction]] = {
    "bezique_trick_winner": _trick_winner,
    "bezique_legal_plays": _legal_plays,
}
"""The guards written for the hooks the kernel asks at every card and every trick."""


def wrong_answer(plugin: str, hook: str, problem: str) -> PluginHookError:
    """The error that names ``plugin`` and ``hook`` for an answer the hook may not give."""
    message = f"plugin {plugin!r} gave a wrong answer to {hook}: {problem}"
    return PluginHookError(message, plugin, hook)


def hook_failure(plugin: str, hook: str, exc: BaseException) -> PluginHookError:
    """The error that names ``plugin`` and ``hook`` for the exception ``exc`` it raised.

    It says where: the innermost line of the plugin's own code in the traceback (or the
    innermost line of all, when the plugin's code called something that failed).  Its
    cause is ``exc`` already (as ``raise ... from exc`` gives it), for the compiled build:
    mypyc's ``raise ... from`` does not always set the cause (see setup.py).
    """
    said = " ".join(f"{type(exc).__name__}: {exc}".split())
    where = _where(exc, plugin)
    error = PluginHookError(f"plugin {plugin!r} failed in {hook} ({where}): {said}", plugin, hook)
    error.__cause__ = exc
    return error


def _where(exc: BaseException, plugin: str) -> str:
    """``file:line in function`` of the innermost frame of ``plugin``'s code that ``exc`` passed."""
    owners = _owner_modules(plugin)
    last = ""
    found = ""
    for frame, line in walk_tb(exc.__traceback__):
        here = f"{Path(frame.f_code.co_filename).name}:{line} in {frame.f_code.co_name}"
        module = frame.f_globals.get("__name__", "")
        if any(module == m or module.startswith(m + ".") for m in owners):
            found = here
        last = here
    return found or last


def _owner_modules(plugin: str) -> tuple[str, ...]:
    """The modules of ``plugin``'s code: its module, or its object's class's module."""
    found = known_plugins().get(plugin)
    if found is None:
        return ()
    return (found.__name__ if isinstance(found, ModuleType) else type(found).__module__,)


def _first_result(functions: list[HookFunction]) -> HookFunction:
    """Decide: the first implementation that returns something other than None wins."""
    if not functions:
        return lambda *args: None
    if len(functions) == 1:
        return functions[0]

    def call(*args: Any) -> Any:
        for function in functions:
            result = function(*args)
            if result is not None:
                return result
        return None

    return call


def _joined(functions: list[HookFunction]) -> HookFunction:
    """Collect: every implementation's list, joined in order (None counts as empty).

    With one implementation, it is called as it is (its answer may be None).
    """
    if len(functions) == 1:
        return functions[0]

    def call(*args: Any) -> list[Any]:
        joined: list[Any] = []
        for function in functions:
            found = function(*args)
            if found:
                joined.extend(found)
        return joined

    return call


def _told(functions: list[HookFunction]) -> HookFunction:
    """Notify: call every implementation in order; the answers are ignored."""

    def call(*args: Any) -> None:
        for function in functions:
            function(*args)

    return call


_COMBINE: dict[str, Callable[[list[HookFunction]], HookFunction]] = {
    hookspecs.DECIDE: _first_result,
    hookspecs.COLLECT: _joined,
    hookspecs.NOTIFY: _told,
}


def answering(
    manager: pluggy.PluginManager, name: str, data: Mapping[str, Any] | None = None
) -> list[pluggy.HookImpl]:
    """The implementations of the hook ``name`` that can answer in the variant of ``data``.

    Those marked with :func:`~bezique.hookspecs.answers_when` whose predicate is false
    of ``data`` are left out (with ``data`` None, none is).  When a hook wrapper is among
    them, every implementation is kept: the wrappers see the call as pluggy makes it.
    """
    impls: list[pluggy.HookImpl] = getattr(manager.hook, name).get_hookimpls()
    if data is None or any(impl.hookwrapper or impl.wrapper for impl in impls):
        return impls
    return [impl for impl in impls if _can_answer(impl, name, data)]


def _can_answer(impl: pluggy.HookImpl, hook: str, data: Mapping[str, Any]) -> bool:
    """Whether ``impl`` can answer ``hook`` in the variant of ``data`` (its predicate, if any)."""
    predicate = getattr(impl.function, hookspecs.ANSWERS_WHEN, None)
    if predicate is None:
        return True
    try:
        return bool(predicate(data))
    except BeziqueError:
        raise
    except Exception as exc:
        raise hook_failure(impl.plugin_name, hook, exc) from exc


def resolve_hook(
    manager: pluggy.PluginManager, name: str, data: Mapping[str, Any] | None = None
) -> HookFunction:
    """Return one plain callable that does what the hook's kind says of ``manager``'s plugins.

    Decide hooks return the first answer that is not None, collect hooks the
    answers' lists joined, notify hooks nothing.  The implementations are taken
    in call order: the plugin listed last first for a decide hook, the plugins in
    the order they are listed for the others.  With the variant's ``data``, only
    those that can answer in it (:func:`answering`).
    """
    caller = getattr(manager.hook, name)
    spec = caller.spec
    if spec is None:  # pragma: no cover - every game hook has a spec
        raise PluginError(f"hook {name} has no specification")
    argnames = tuple(spec.argnames)
    impls = answering(manager, name, data)
    kind = hookspecs.GAME_HOOKS.get(name) or hookspecs.SHEET_HOOKS.get(name, hookspecs.DECIDE)
    if any(impl.hookwrapper or impl.wrapper for impl in impls):
        plugins = ", ".join(impl.plugin_name for impl in impls)  # one of them failed
        return _guarded(_through_pluggy(caller, argnames, kind), plugins, name, kind)
    # pluggy holds the implementations registered last last; it calls them first.
    functions = [_guarded(_bind(impl, argnames), impl.plugin_name, name, kind) for impl in impls]
    if kind == hookspecs.DECIDE:
        functions.reverse()
    return _COMBINE[kind](functions)


def resolve_unguarded(
    manager: pluggy.PluginManager, name: str, data: Mapping[str, Any] | None = None
) -> tuple[HookFunction, str]:
    """The hook as :func:`resolve_hook` makes it, but without the guard when one plugin answers.

    For the kernel's own card loop (:class:`~bezique.rules.ruleset.Ruleset`'s ``fast_`` hooks),
    which catches the plugin's failures and checks its answers itself, so that a card
    costs no call more than the plugin's.  Return the callable and the names of the
    plugins that implement the hook (the one to name when it fails).
    """
    caller = getattr(manager.hook, name)
    impls = answering(manager, name, data)
    owners = ", ".join(impl.plugin_name for impl in impls)
    if len(impls) == 1 and not (impls[0].hookwrapper or impls[0].wrapper):
        return _bind(impls[0], tuple(caller.spec.argnames)), owners
    return resolve_hook(manager, name, data), owners


def _through_pluggy(caller: Any, argnames: tuple[str, ...], kind: str) -> HookFunction:
    """Call a hook that has wrappers through pluggy itself (slower, but every wrapper runs)."""

    def call(*args: Any) -> Any:
        answers = caller(**dict(zip(argnames, args, strict=True)))
        if kind == hookspecs.COLLECT:
            return [item for found in reversed(answers) if found for item in found]
        return None if kind == hookspecs.NOTIFY else answers

    return call

"""The one exception family of the project.

Every error a user can cause (a bad variant file, a bad record, an illegal action,
a bad command-line argument) is a :class:`BeziqueError` whose message says where
and what, so the command line can print it without a traceback.
"""

from __future__ import annotations


class BeziqueError(Exception):
    """Base class of every error the framework raises on purpose."""


class VariantError(BeziqueError):
    """A variant file or variant name is invalid; the message lists every problem."""

    def __init__(self, problems: list[str] | str) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))


class PluginError(BeziqueError):
    """A plugin is unknown, or it could not be loaded or registered."""


class PluginHookError(PluginError):
    """A plugin's hook raised, or answered what the hook may not answer, during a game.

    The message names the plugin (its registered name) and the hook; an exception the
    plugin raised is the ``__cause__``.  The action that called the hook changed nothing
    (:meth:`bezique.game.GameState.apply` is all or nothing).
    """

    def __init__(self, message: str, plugin: str, hook: str) -> None:
        self.plugin = plugin
        """The registered name of the plugin at fault."""
        self.hook = hook
        """The hook it failed in (``bezique_trick_winner``)."""
        super().__init__(message)

    def __reduce__(self) -> tuple[type[PluginHookError], tuple[str, str, str]]:
        """Pickle it whole (a game played in another process reports it to the first)."""
        return (type(self), (str(self), self.plugin, self.hook))


class IllegalActionError(BeziqueError):
    """An action is not legal in the current state; the message names the rule."""

    def __init__(self, message: str, rule: str = "") -> None:
        self.rule = rule
        super().__init__(message)


class RecordError(BeziqueError):
    """A game record is malformed or cannot be replayed."""


class PlayerError(BeziqueError):
    """A player (a bot) is unknown, its options are wrong, or it chose an illegal action."""


class OutputError(BeziqueError):
    """A file the user named for output cannot be written: it exists, is a link or not a file."""

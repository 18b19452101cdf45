"""Bezique as a PettingZoo AEC environment, for every variant.

Each seat is an agent (``player_0``, ``player_1``...); the agent to act is the game's
seat to act, for every step of its turn (a trick's winner declares, then draws).
An agent's observation is a dict, as PettingZoo's classic card games give it:
``observation``, the seat's view as :mod:`bezique.rl.observation` writes it, and
``action_mask``, one ``int8`` per index of :mod:`bezique.rl.actions` (1: legal now;
all 0 for an agent not to act).  An action is an index of that space.  The reward
comes at the game's end: 1 to each agent of the winning side, -1 to the others, 0 to
all in a drawn game.  ``reset(seed=...)`` deals the game of that seed
(:func:`bezique.game.new_game`), so a seed replays the same game.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from bezique.game import GAME_OVER, GameState, new_game, ruleset_for
from bezique.hookspecs import DRAWN_GAME
from bezique.rl.actions import space_for
from bezique.rl.observation import encode, size

__all__ = ["BeziqueEnv", "env"]

_BOUND = 1e7
"""The observation box's bounds (scores and counts stay far inside them)."""


class BeziqueEnv(AECEnv):  # type: ignore[misc]
    """A game of a variant as a PettingZoo AEC environment (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "bezique_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "ordinary",
        overrides: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        """An environment of ``variant`` (a registered name), with ``overrides`` merged over it."""
        super().__init__()
        self.variant = variant
        self.rules = ruleset_for(variant, overrides)
        self.space = space_for(self.rules)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        count = len(self.space)
        self.action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}
        box = spaces.Box(-_BOUND, _BOUND, (size(self.rules),), np.float32)
        mask = spaces.Box(0, 1, (count,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.state: GameState | None = None
        self._seeds = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s actions: the indices of the action space."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: the game of ``seed``, or of a seed drawn from the last one."""
        if seed is not None:
            self._seeds.seed(seed)
        self.state = new_game(self.rules, seed=self._seeds.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_of(self.state.to_act)

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation and action mask now."""
        state = self._game()
        seat = self.possible_agents.index(agent)
        mask = np.zeros(len(self.space), dtype=np.int8)
        if state.phase != GAME_OVER and state.to_act == seat:
            mask[self.space.legal_indices(state)] = 1
        return {"observation": encode(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Carry out the agent to act's action (an index of the action space)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._game()
        assert action is not None, "an agent to act must choose an action"
        state.apply(self.space.action(state, int(action)))
        self._cumulative_rewards[agent] = 0
        if state.phase == GAME_OVER:
            self._finish(state)
        else:
            self.agent_selection = self._agent_of(state.to_act)
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def _finish(self, state: GameState) -> None:
        """The game is over: every agent terminated, the winners rewarded."""
        winner = state.winner
        for seat, agent in enumerate(self.possible_agents):
            self.terminations[agent] = True
            if winner == DRAWN_GAME or winner < 0:
                self.rewards[agent] = 0
            else:
                self.rewards[agent] = 1 if state.side_of[seat] == winner else -1

    def render(self) -> str:
        """The table as text (the game's board)."""
        return str(self._game())

    def close(self) -> None:
        """Nothing to release."""

    def _game(self) -> GameState:
        if self.state is None:
            self.reset()
        assert self.state is not None
        return self.state

    def _agent_of(self, seat: int) -> str:
        return self.possible_agents[seat]


def env(variant: str = "ordinary", **kwargs: Any) -> BeziqueEnv:
    """A :class:`BeziqueEnv` of ``variant`` (keywords: ``overrides``, ``render_mode``)."""
    return BeziqueEnv(variant, **kwargs)

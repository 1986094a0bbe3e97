"""The AEC environment: one side decides at a time, as the engine says; chance is rolled inside.

Rewards come at the end only: +1 to the winner, -1 to each other side, 0 for a draw
(the engine's returns). `reset(seed=N)` seeds both the engine's set-up (improved
counters chosen at random) and the dice. A game that reaches `max_steps` decisions is
truncated (the engine lets a battle be declared and cancelled again without end).
"""

from __future__ import annotations

import functools
from typing import Iterable

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rulec.adapters.catalogue import Catalogue
from rulec.adapters.games import default_length, load, start
from rulec.adapters.observation import Layout, position_text
from rulec.engine import Action, GameState, IllegalAction


def env(game: str, **kwargs) -> "RulecEnv":
    """The environment of a map game (its name in games/ or a path); see RulecEnv for the keywords."""
    return RulecEnv(game, **kwargs)


class RulecEnv(AECEnv):
    """A map game as a PettingZoo AEC environment; `engine` is the rulec state underneath."""

    metadata = {"name": "rulec", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, *, options: Iterable[str] = (), seed: int = 0, scenario: str | None = None,
                 max_steps: int | None = None, render_mode: str | None = None):
        super().__init__()
        self.model = load(game)
        self.catalogue = Catalogue(self.model)
        self.layout = Layout(self.model)
        self._scratch = np.zeros(self.layout.size, np.float32)  # what observe fills (see there)
        self._scratch_views = self.layout.views(self._scratch)
        self.options = tuple(options)
        self.scenario = scenario
        self.default_seed = seed
        self.max_steps = max_steps or default_length(self.model)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"rulec_{self.model.info.id}"}
        self.possible_agents = list(self.model.sides)
        self.engine: GameState = self._start(seed)  # checks the options and scenario now
        self._rng = np.random.default_rng(seed)
        self._steps = 0
        self._legal_at: tuple[int, dict] = (-1, {})  # (steps, legal actions by number) of the position last asked

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Space:
        return spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, shape=(self.layout.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.catalogue.size,), dtype=np.int8),
        })

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Space:
        return spaces.Discrete(self.catalogue.size)

    # ------------------------------------------------------------ the AEC cycle
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = self.default_seed
        self.engine = self._start(seed)
        self._rng = np.random.default_rng(seed)
        self._steps = 0
        self._legal_at = (-1, {})
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._roll_dice()
        self._after_change()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._legal()
        if action is None or int(action) not in legal:
            some = [self.engine.action_to_string(a) for a in list(legal.values())[:8]]
            raise IllegalAction(f"{self._describe(action)} is not legal for {agent} now (the action mask marks "
                                f"the legal ones: {', '.join(some)}{', ...' if len(legal) > len(some) else ''})")
        self._cumulative_rewards[agent] = 0.0
        self.engine.apply_action(legal[int(action)])
        self._steps += 1
        self._roll_dice()
        self._after_change()
        if self.render_mode == "ansi":
            print(self.render())

    def _start(self, seed: int) -> GameState:
        return start(self.model, options=self.options, seed=seed, scenario=self.scenario)

    def _legal(self) -> dict[int, Action]:
        """The legal actions by number, worked out once a position (observe and step both ask)."""
        if self._legal_at[0] != self._steps:
            self._legal_at = (self._steps, self.catalogue.legal(self.engine))
        return self._legal_at[1]

    def _describe(self, action: int | None) -> str:
        """An action number, and its order when the number stands for one here."""
        try:
            return f"action {action} ({self.engine.action_to_string(self.catalogue.decode(int(action), self.engine))})"
        except (TypeError, ValueError):
            return f"action {action}"

    def _roll_dice(self) -> None:
        """Chance nodes are the environment's: roll until a side must decide (or the game is over)."""
        engine = self.engine
        while engine.is_chance_node():
            outcomes = engine.chance_outcomes()
            pick = self._rng.choice(len(outcomes), p=[p for _, p in outcomes])
            engine.apply_action(outcomes[int(pick)][0])

    def _after_change(self) -> None:
        engine = self.engine
        over = engine.is_terminal()
        cut = not over and self._steps >= self.max_steps
        if over or cut:
            returns = engine.returns() if over else [0.0] * len(self.possible_agents)
            for agent, value in zip(self.possible_agents, returns):
                if agent in self.agents:
                    self.rewards[agent] = float(value)
                    self.terminations[agent] = over
                    self.truncations[agent] = cut
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        self.rewards = {agent: 0.0 for agent in self.agents}
        self.agent_selection = self.possible_agents[engine.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # Filled in the environment's own tensor, through views made once, then copied: the observation returned is
        # the caller's to keep
        scratch = self._scratch
        scratch.fill(0)
        self.layout.fill(self._scratch_views, self.engine, self.possible_agents.index(agent))
        tensor = scratch.copy()
        mask = np.zeros(self.catalogue.size, np.int8)
        if agent == self.agent_selection and not self.engine.is_terminal() and not self.truncations.get(agent):
            mask[list(self._legal())] = 1
        return {"observation": tensor, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return position_text(self.engine)

    def close(self) -> None:
        pass

"""Chicago as a PettingZoo AEC environment, ``chicago_v0`` (extra ``rl``).

>>> from chicago.env.pettingzoo import env
>>> e = env(players=4, rules="pagat", max_deals=1)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), int(obs["action_mask"].sum()), e.agent_selection in e.agents
(['action_mask', 'observation'], 32, True)
>>> e.step(52)  # keep the hand: see docs/ENVIRONMENTS.md for the action ids

Agents are ``player_0`` … ``player_{n-1}`` (the engine's seats; ``agent_selection`` is the
seat to act, not a fixed rotation). Each observation is ``{"observation": float32 vector
(chicago.env.observation), "action_mask": int8 vector of the 113 actions}``; the mask is
all zeros for an agent whose turn it is not. Rewards come at the end of the game (the
settlement in money, ``reward="game"``, the default) or at the end of every deal (the
points each seat scored in it, ``reward="deal"``). An illegal action raises ``ValueError``
and changes nothing (wrap the environment if you prefer to end the game instead).

Arguments of :func:`env` / :class:`raw_env`: ``players`` (2-6), ``rules`` (a
:class:`chicago.Rules`, a preset name or a rules dict; default ``pagat``), ``variations``
(variation ids put in force on them, as :meth:`chicago.Rules.build` does), ``reward``,
``max_deals`` (end the game after that many deals: the rules' house option; random play
can last thousands of deals), ``render_mode`` (``"ansi"`` returns the public table as
text, ``"human"`` prints it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chicago.extras import require

try:  # the extra's packages; without them, say which extra installs them
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]
except ImportError:
    require("rl", "the PettingZoo environment chicago_v0")  # MissingExtra naming them
    raise

from chicago.engine.game import Game
from chicago.env.actions import NUM_ACTIONS, action_mask, index_to_action
from chicago.env.observation import OBSERVATION_SIZE, SCORE_CLIP, encode_view, view_text
from chicago.rules import Rules

__all__ = ["env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard checks (order of calls, action bounds)."""
    environment = raw_env(**kwargs)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


def _rules_of(
    rules: Rules | str | dict[str, Any] | None, max_deals: int | None, variations: Sequence[str]
) -> Rules:
    """The environment's rules: a preset name goes through :meth:`Rules.build` with the
    variations and ``max_deals`` (an override); given rules get the variations, then it."""
    overrides = {} if max_deals is None else {"max_deals": max_deals}
    if rules is None or isinstance(rules, str):
        return Rules.build(rules or "pagat", variations=variations, overrides=overrides)
    if isinstance(rules, Rules):
        base = rules
    elif isinstance(rules, dict):
        base = Rules.from_dict(rules)
    else:
        raise TypeError(f"rules must be a Rules, a preset name or a dict, not {rules!r}")
    base = base.with_variations(*variations) if variations else base
    return base.replace(**overrides) if overrides else base


class raw_env(AECEnv):  # type: ignore[misc]
    """The Chicago AEC environment without wrappers (see the module docstring)."""

    metadata = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["ansi", "human"],
        "name": "chicago_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        rules: Rules | str | dict[str, Any] | None = None,
        reward: str = "game",
        max_deals: int | None = None,
        render_mode: str | None = None,
        variations: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.rules = _rules_of(rules, max_deals, variations)
        if self.rules.max_players < players <= 6:
            self.rules = self.rules.replace(max_players=players)
        Game(self.rules, players, seed=0)  # fail early on a bad table size
        if reward not in ("game", "deal"):
            raise ValueError(f"reward must be 'game' or 'deal', not {reward!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.players = players
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = list(self.possible_agents)
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=-SCORE_CLIP, high=SCORE_CLIP, shape=(OBSERVATION_SIZE,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {
            agent: observation_space for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.game: Game | None = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]

    # -- spaces -------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(113)`` for every agent (docs/ENVIRONMENTS.md has the table)."""
        return self.action_spaces[agent]

    # -- the AEC API --------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; the same ``seed`` gives the same game (first dealer, every card)."""
        self.game = Game(self.rules, self.players, seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        assert self.game.to_act is not None
        self.agent_selection = self.possible_agents[self.game.to_act]

    def observe(self, agent: str) -> Observation:
        """``{"observation", "action_mask"}`` of the agent's seat (its view only)."""
        game = self._game()
        seat = self.possible_agents.index(agent)
        view = game.view(seat)
        if game.to_act == seat:
            mask = action_mask(game.legal_actions(), view)
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": encode_view(view), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action id (None for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        seat = self.possible_agents.index(agent)
        if action is None:
            raise ValueError(f"{agent} must act: None is only for an agent whose game is over")
        act = index_to_action(int(action), sorted(game.hands[seat]))
        if not game.is_legal(act):
            raise ValueError(f"action {int(action)} ({act}) is not legal for {agent} now")
        deal = game.deal_number
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        game.apply(act)
        if self.reward_mode == "deal" and (game.deal_number != deal or game.is_over):
            points = game.deal_history[-1].points
            for s, name in enumerate(self.possible_agents):
                self.rewards[name] = float(points[s])
        if game.is_over:
            if self.reward_mode == "game":
                for s, money in enumerate(game.settlement()):
                    self.rewards[self.possible_agents[s]] = float(money)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            assert game.to_act is not None
            self.agent_selection = self.possible_agents[game.to_act]
        self._accumulate_rewards()
        if game.is_over:
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as everyone sees it (``"ansi"``: returned, ``"human"``: printed)."""
        if self.render_mode is None or self.game is None:
            return None
        text = view_text(self.game.view(None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

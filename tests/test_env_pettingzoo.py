"""The PettingZoo environment chicago_v0: PettingZoo's own api_test and seed_test, rewards
(R-END-2 settlement, per-deal points), bad input, hidden information."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs the extra [rl]")

from pettingzoo.test import api_test, seed_test

from chicago import Rules
from chicago.env.actions import NUM_ACTIONS
from chicago.env.observation import OBSERVATION_SIZE
from chicago.env.pettingzoo import env, raw_env


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        # PettingZoo warns that a dict observation "is not a NumPy array" (as for its own
        # card games); the dict with an action mask is its recommended form.
        warnings.simplefilter("ignore", UserWarning)
        function(*args, **kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 4, "max_deals": 3},
        {"players": 3, "rules": "wikipedia", "reward": "deal", "max_deals": 2},
        {"players": 6, "rules": Rules.preset("pagat").with_variations("V-LARGE", "V-ONE-UP"),
         "max_deals": 1},
        {"players": 2, "rules": "denexa", "max_deals": 2},
    ],
)
def test_pettingzoo_api_test(kwargs):
    _quiet(api_test, env(**kwargs), num_cycles=400)
    _quiet(api_test, raw_env(**kwargs), num_cycles=100)


@pytest.mark.parametrize("reward", ["game", "deal"])
def test_pettingzoo_seed_test(reward):
    _quiet(seed_test, lambda: env(players=4, reward=reward, max_deals=3), num_cycles=300)


def _play(e, seed: int) -> dict[str, float]:
    """A whole game with random legal actions; the total reward of each agent."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        e.step(rng.choice(legal))
    return totals


def test_game_reward_is_the_settlement():
    """R-END-2: the rewards at the end are the settlement in money, zero-sum."""
    e = raw_env(players=4, max_deals=2)
    totals = _play(e, 5)
    assert e.game is not None and e.game.is_over
    assert [totals[f"player_{s}"] for s in range(4)] == e.game.settlement()
    assert sum(totals.values()) == pytest.approx(0.0)


def test_deal_rewards_add_up_to_the_final_scores():
    e = raw_env(players=3, rules="wikipedia", reward="deal", max_deals=3)
    totals = _play(e, 2)
    assert e.game is not None
    assert [totals[f"player_{s}"] for s in range(3)] == e.game.scores


def test_observation_and_mask_shapes_and_turns():
    e = env(players=4)
    e.reset(seed=1)
    agent = e.agent_selection
    for other in e.agents:
        obs = e.observe(other)
        assert obs["observation"].shape == (OBSERVATION_SIZE,)
        assert obs["observation"].dtype == np.float32
        assert obs["action_mask"].shape == (NUM_ACTIONS,)
        assert obs["action_mask"].any() == (other == agent)
    assert e.action_space(agent).n == NUM_ACTIONS


def test_same_seed_same_game_and_reset_starts_over():
    a, b = raw_env(max_deals=2), raw_env(max_deals=2)
    assert _play(a, 9) == _play(b, 9)
    assert a.game is not None and b.game is not None
    assert [e.to_json() for e in a.game.events] == [e.to_json() for e in b.game.events]
    a.reset(seed=9)
    assert a.game.deal_number == 1 and not any(a.terminations.values())


def test_illegal_action_raises_and_changes_nothing():
    e = raw_env(players=4)
    e.reset(seed=3)
    agent = e.agent_selection
    assert e.game is not None
    before = len(e.game.events)
    with pytest.raises(ValueError, match="not legal"):
        e.step(0)  # play 2c: it is an exchange round
    with pytest.raises(ValueError, match="action id"):
        e.step(NUM_ACTIONS)
    with pytest.raises(ValueError, match="must act"):
        e.step(None)
    assert len(e.game.events) == before and e.agent_selection == agent


def test_bad_arguments():
    with pytest.raises(ValueError, match="reward"):
        raw_env(reward="money")
    with pytest.raises(ValueError, match="players"):
        raw_env(players=7)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="reset"):
        raw_env().observe("player_0")


def test_render_shows_only_public_information():
    e = raw_env(players=4, render_mode="ansi")
    e.reset(seed=4)
    assert e.game is not None
    text = e.render()
    assert isinstance(text, str) and "phase exchange" in text
    for seat in range(4):
        assert " ".join(map(str, e.game.view(seat).hand)) not in text


@pytest.mark.timeout(60)
def test_the_documented_example_runs():
    """The PettingZoo example of docs/ENVIRONMENTS.md plays its game to the end quickly."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "ENVIRONMENTS.md").read_text(
        encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    example = next(b for b in blocks if "chicago.env.pettingzoo import env" in b)
    scope: dict = {}
    exec(compile(example, "ENVIRONMENTS.md", "exec"), scope)
    assert scope["e"].unwrapped.game.is_over

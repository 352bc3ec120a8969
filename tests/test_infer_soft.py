"""The softer likelihood of play-based inference (``master:infer=2;soft=X``): the option is
parsed and checked, the tempered weights are the raw ones at power 1 and uniform at power 0,
and a seed fixes every world and card (R-TRICK-2: the observed plays are follows of the led
suit, as in :mod:`test_playmodel`)."""

from __future__ import annotations

import math
import random

import pytest

from chicago import Game
from chicago.bots import make_bot
from chicago.bots.master import MasterBot, tempered_weights
from chicago.bots.playmodel import observed_plays, policy_weights, resample
from chicago.bots.playpolicy import PlayPolicy
from chicago.bots.solver import Position
from chicago.engine.knowledge import Knowledge, knowledge
from engine_helpers import game as stacked_game


def _effective(weights: list[float]) -> float:
    """How many distinct worlds the weights amount to: (sum w)^2 / sum w^2."""
    return sum(weights) ** 2 / sum(w * w for w in weights)


def _trick_two() -> Game:
    """A pagat deal where seat 2 (holding Ah Qh Jh 8d 6c) leads the second trick: seat 0 led
    3h, seat 1 followed 2h, seat 2 won with Ah and seat 3 followed. Everyone stood pat, so
    the others' hands are hidden from seat 2, but their three plays are seen."""
    g = stacked_game("pagat", hands=["3h Ks Qs 8c 6s", "2h Kc Kd 9h 9s", "Ah Qh Jh 8d 6c"],
                     dealer=3)
    while str(g.phase) != "play":
        legal = g.legal_actions()
        g.apply(next((a for a in legal if str(a) in ("keep", "pass", "no chicago")), legal[0]))
    g.apply("play 3h")
    g.apply("play 2h")
    g.apply("play Ah")
    g.apply(g.legal_actions()[0])
    assert g.to_act == 2
    return g


def _knowledge() -> Knowledge:
    k = knowledge(_trick_two().view(2))
    assert len(observed_plays(k)) == 3
    return k


def test_soft_option_is_parsed_and_checked() -> None:
    bot = make_bot("master:infer=2;soft=0.5")
    assert isinstance(bot, MasterBot) and (bot.infer, bot.soft) == (2, 0.5)
    default = make_bot("master:infer=2")
    assert isinstance(default, MasterBot) and default.soft == 1.0
    assert MasterBot().soft == 1.0
    for bad in ("master:infer=2;soft=-0.5", "master:infer=2;soft=5", "master:soft=abc",
                "master:infer=2;soft=nan", "master:infer=2;soft="):
        with pytest.raises(ValueError, match="soft"):
            make_bot(bad)
    with pytest.raises(ValueError, match="soft"):
        MasterBot(infer=2, soft=-0.1)


def test_tempered_weights_power_one_is_the_raw_weights_and_zero_is_uniform() -> None:
    weights = [0.5, 0.02, 1e-6, 0.3, 0.0]
    assert tempered_weights(weights, 1.0) == weights
    # power 0: every world the likelihood allows alike; a world it rules out stays out
    assert tempered_weights(weights, 0.0) == [1.0, 1.0, 1.0, 1.0, 0.0]
    half = tempered_weights(weights, 0.5)
    assert half == pytest.approx([math.sqrt(w) for w in weights])
    # a softer power keeps more distinct worlds
    live = weights[:4]
    spreads = [_effective(tempered_weights(live, p)) for p in (2.0, 1.0, 0.5, 0.25, 0.0)]
    assert spreads == sorted(spreads) and spreads[-1] == pytest.approx(4.0)


def test_soft_one_deals_todays_worlds_and_soft_zero_resamples_uniformly() -> None:
    """``soft=1`` searches exactly the worlds of ``infer=2`` as it was; ``soft=0`` the
    worlds a uniform resampling of the same dealt pool gives."""
    k = _knowledge()
    today = MasterBot(infer=2, samples=12, pool=3)
    same = MasterBot(infer=2, samples=12, pool=3, soft=1.0)
    flat = MasterBot(infer=2, samples=12, pool=3, soft=0.0)
    worlds = [p.hands for p in today._positions(k, random.Random(8), None)]
    assert [p.hands for p in same._positions(k, random.Random(8), None)] == worlds

    rng = random.Random(8)
    dealt = [flat._sample(k, rng) for _ in range(36)]
    raw = policy_weights(dealt, observed_plays(k), PlayPolicy.load(), k.players)
    assert len(set(raw)) > 1  # the plays do tell the worlds apart here
    expected = [tuple(dealt[i]) for i in resample([1.0] * 36, 12, rng)]
    assert [p.hands for p in flat._positions(k, random.Random(8), None)] == expected
    # and infer=2 as it was resamples the same pool by the raw weights
    rng = random.Random(8)
    for _ in range(36):
        today._sample(k, rng)
    assert worlds == [tuple(dealt[i]) for i in resample(raw, 12, rng)]


def test_a_seed_fixes_every_world_and_card_with_soft() -> None:
    g = _trick_two()
    k = knowledge(g.view(2))
    bot = make_bot("master:infer=2;soft=0.5;samples=16")
    assert isinstance(bot, MasterBot)

    def worlds(seed: int) -> list[Position]:
        return list(bot._positions(k, random.Random(seed), None))

    assert worlds(5) == worlds(5)
    view, legal = g.view(2), g.legal_actions()
    cards = {bot.decide(view, legal, random.Random(11)) for _ in range(3)}
    assert len(cards) == 1

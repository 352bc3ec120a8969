"""The policy fitted to the experts' card play (:mod:`chicago.bots.playpolicy`) and its use
as the likelihood of the worlds with ``master:infer=2`` (:mod:`chicago.bots.playmodel`):
chances only for legal cards (R-TRICK-2: follow suit when possible), the shipped file,
determinism, and that the bot reads only what its seat saw."""

from __future__ import annotations

import random

import pytest

from chicago.bots import make_bot
from chicago.bots.master import MasterBot
from chicago.bots.playmodel import Play, observed_plays, policy_weights
from chicago.bots.playpolicy import CARD_FEATURES, HAND_SIZES, PlayPolicy, card_features
from chicago.cards import parse_cards
from chicago.engine.knowledge import knowledge
from chicago.engine.sampling import consistent
from test_playmodel import _trick_one


def _ids(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def _mask(text: str) -> int:
    return sum(1 << c for c in _ids(text))


def test_the_shipped_policy_loads_and_says_how_it_was_made() -> None:
    policy = PlayPolicy.load()
    assert len(policy.weights) == len(CARD_FEATURES) * len(HAND_SIZES)
    assert any(policy.weights)
    assert policy.meta is not None and policy.meta["level"] == "expert"
    assert policy.meta["seed"] == 49 and policy.meta["plays"] > 5_000
    again = PlayPolicy.from_dict(policy.to_dict())
    assert again == policy
    with pytest.raises(ValueError):
        PlayPolicy.from_dict({**policy.to_dict(), "features": ["rank"]})
    with pytest.raises(ValueError):
        PlayPolicy(weights=(0.0, 1.0))


def test_chances_cover_the_legal_cards_only_R_TRICK_2() -> None:
    """On a heart lead a player with hearts may only follow: the chances are over its
    hearts and sum to 1; leading, every card has a chance."""
    policy = PlayPolicy.load()
    hand = _ids("Kh 2h 7c 8c 9d")
    follow = policy.chances(hand, _ids("5h"), 0)
    assert sorted(follow) == sorted(_ids("Kh 2h"))
    assert sum(follow.values()) == pytest.approx(1.0)
    assert policy.chance(hand, _ids("5h"), 0, _ids("7c")[0]) == 0.0
    lead = policy.chances(hand, (), 0)
    assert sorted(lead) == sorted(hand) and all(p > 0 for p in lead.values())
    legal, features = card_features(hand, _ids("5h"), 0)
    assert legal == sorted(_ids("Kh 2h")) and len(features) == 2
    width = len(CARD_FEATURES)
    assert all(0 <= j < width for row in features for j in row), "five cards: first block"


def test_a_forced_play_weighs_one_and_an_unlikely_one_less() -> None:
    """Seat 1 put the king on a low heart lead. Where the king was its only heart the play
    was forced (weight 1); where it also held 2h it was a choice, so that world weighs the
    policy's chance of the king (less than 1), the same for the same hand."""
    plays = [Play(1, _ids("Kh")[0], tuple(_ids("5h")))]
    forced = [0, _mask("7c 8c 9d 4s"), 0, 0]
    choice = [0, _mask("2h 7c 8c 9d"), 0, 0]
    weights = policy_weights([forced, choice, choice], plays, PlayPolicy.load(), 4)
    assert weights[0] == 1.0
    assert 0 < weights[1] < 1 and weights[1] == weights[2]


def test_infer_2_reads_only_what_the_seat_saw() -> None:
    """Two deals with the same public history and different hidden hands give seat 2 the
    same observed plays, the same resampled worlds (each consistent with its view) and the
    same card, seed for seed."""
    found = []
    for hidden in [("3h Ks Qs 8c 6s", "2h Kc Kd 9h 9s"), ("3h Jc Td 7c 5d", "2h Tc 4d 8h 7s")]:
        g = _trick_one(hidden)
        k = knowledge(g.view(2))
        bot = make_bot("master:infer=2;samples=12")
        assert isinstance(bot, MasterBot) and bot.infer == 2
        worlds = [p.hands for p in bot._positions(k, random.Random(9), None)]
        assert all(not consistent(k, list(hands)) for hands in worlds)
        card = bot.decide(g.view(2), g.legal_actions(), random.Random(4))
        found.append((observed_plays(k), worlds, card))
    assert found[0] == found[1]


def test_infer_2_prefers_worlds_the_policy_explains_and_is_fixed_by_its_seed() -> None:
    g = _trick_one(("3h Ks Qs 8c 6s", "2h Kc Kd 9h 9s"))
    k = knowledge(g.view(2))
    plays = observed_plays(k)
    policy = PlayPolicy.load()
    on = MasterBot(infer=2, samples=60, pool=4)
    off = MasterBot(samples=60)

    def mean_weight(bot: MasterBot) -> float:
        worlds = [p.hands for p in bot._positions(k, random.Random(2), None)]
        return sum(policy_weights(worlds, plays, policy, 4)) / len(worlds)

    assert mean_weight(on) > mean_weight(off)
    view, legal = g.view(2), g.legal_actions()
    assert on.decide(view, legal, random.Random(7)) == on.decide(view, legal, random.Random(7))


def test_infer_2_options_are_checked() -> None:
    bot = make_bot("master:infer=2;pool=2")
    assert isinstance(bot, MasterBot) and (bot.infer, bot.pool) == (2, 2)
    assert bot.play_policy is not None
    assert MasterBot(infer=1).play_policy is None
    for bad in ("master:infer=4", "master:infer=1.5"):
        with pytest.raises(ValueError):
            make_bot(bad)

"""Play-based inference (``master:infer=1``, :mod:`chicago.bots.playmodel`): the weights of
the worlds by the opponents' plays, their resampling, the bot's determinism, and that it
reads only what its seat saw (R-TRICK-2: a player follows suit when it can)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from chicago import Game
from chicago.bots import make_bot
from chicago.bots.master import MasterBot
from chicago.bots.playmodel import Play, observed_plays, play_weight, resample
from chicago.cards import parse_cards
from chicago.engine.knowledge import knowledge
from chicago.engine.sampling import consistent
from engine_helpers import game as stacked_game


def _mask(text: str) -> int:
    return sum(1 << int(c) for c in parse_cards(text))


def _card(text: str) -> int:
    return int(parse_cards(text)[0])


def test_a_world_where_the_play_was_forced_outweighs_one_where_the_policy_plays_low_R_TRICK_2(
) -> None:
    """Seat 0 led 5h, seat 1 put the king on it. In a world where the king was its only
    heart the play was forced (weight 1); in one where it also held 2h, a sensible player
    would have followed low and kept the king, so that world weighs ``miss``."""
    plays = [Play(1, _card("Kh"), (_card("5h"),))]
    forced = [0, _mask("7c 8c 9d"), 0, 0]
    unexpected = [0, _mask("2h 7c 8c"), 0, 0]
    assert play_weight(forced, plays, miss=0.3) == 1.0
    assert play_weight(unexpected, plays, miss=0.3) == pytest.approx(0.3)
    # two unexpected plays multiply; no world ever weighs nothing
    twice = [*plays, Play(1, _card("8c"), ())]
    assert play_weight([0, _mask("2h 7c"), 0, 0], twice, miss=0.3) == pytest.approx(0.09)
    picks = Counter(resample([1.0, 0.3], 1300, random.Random(5)))
    assert picks[0] == 1000 and picks[1] == 300


def test_resampling_is_fixed_by_its_seed_and_refuses_no_weight() -> None:
    weights = [0.2, 1.0, 0.05, 0.7]
    assert resample(weights, 40, random.Random(3)) == resample(weights, 40, random.Random(3))
    with pytest.raises(ValueError):
        resample([0.0, 0.0], 3, random.Random(1))


def _trick_one(hidden: tuple[str, str]) -> Game:
    """A pagat deal where seat 2 (holding Ah Qh Jh 8d 6c) is to play to the first trick, after
    seat 0 led 3h and seat 1 followed with 2h; everyone stood pat and passed, so what seats
    0, 1 and 3 hold besides those cards is hidden from seat 2."""
    g = stacked_game("pagat", hands=[hidden[0], hidden[1], "Ah Qh Jh 8d 6c"], dealer=3)
    while str(g.phase) != "play":
        legal = g.legal_actions()
        g.apply(next((a for a in legal if str(a) in ("keep", "pass", "no chicago")), legal[0]))
    g.apply("play 3h")
    g.apply("play 2h")
    assert g.to_act == 2
    return g


def test_infer_reads_only_what_the_seat_saw() -> None:
    """Two deals with the same public history but different hidden hands give seat 2 the same
    observed plays, the same resampled worlds (each consistent with its view) and the same
    card, seed for seed: the inference reads the bot's own view, nothing hidden."""
    found = []
    for hidden in [("3h Ks Qs 8c 6s", "2h Kc Kd 9h 9s"), ("3h Jc Td 7c 5d", "2h Tc 4d 8h 7s")]:
        g = _trick_one(hidden)
        k = knowledge(g.view(2))
        bot = make_bot("master:infer=1;samples=12")
        assert isinstance(bot, MasterBot)
        worlds = [p.hands for p in bot._positions(k, random.Random(9), None)]
        assert all(not consistent(k, list(hands)) for hands in worlds)
        card = bot.decide(g.view(2), g.legal_actions(), random.Random(4))
        found.append((observed_plays(k), worlds, card))
    assert found[0] == found[1]
    assert found[0][0] == [Play(0, _card("3h"), ()), Play(1, _card("2h"), (_card("3h"),))]


def test_infer_prefers_worlds_that_explain_the_plays_and_is_fixed_by_its_seed() -> None:
    """The worlds searched with ``infer=1`` explain seat 1's 2h under 3h (the policy follows
    with its lowest heart but the top one) better than those dealt without it; a seed fixes
    the choice; the default ``master`` infers by each opponent's kind (``infer=3``)."""
    g = _trick_one(("3h Ks Qs 8c 6s", "2h Kc Kd 9h 9s"))
    k = knowledge(g.view(2))
    plays = observed_plays(k)
    on = MasterBot(infer=True, samples=60, pool=4)
    off = MasterBot(samples=60, infer=0)
    assert MasterBot().infer == 3
    mean_on = sum(play_weight(p.hands, plays) for p in on._positions(k, random.Random(2), None))
    mean_off = sum(play_weight(p.hands, plays) for p in off._positions(k, random.Random(2), None))
    assert mean_on > mean_off
    view, legal = g.view(2), g.legal_actions()
    assert on.decide(view, legal, random.Random(7)) == on.decide(view, legal, random.Random(7))


def test_infer_options_are_checked() -> None:
    bot = make_bot("master:infer=1;miss=0.5;pool=2")
    assert isinstance(bot, MasterBot) and (bot.infer, bot.miss, bot.pool) == (True, 0.5, 2)
    for bad in ("master:miss=0", "master:pool=0", "master:infer=4"):
        with pytest.raises(ValueError):
            make_bot(bad)

"""The growing pool of play-based inference (``master:infer=3;cap=N;fit=F``): the pool
grows by ``samples`` dealt worlds at a time, by count, while the effective number of worlds
is below ``fit × samples``, never past ``cap × samples``; a seed fixes every world; only the
seat's view is read; the options are checked (R-TRICK-2: the observed plays are follows
of the led suit, as in :mod:`test_playmodel`)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from chicago.bots import make_bot
from chicago.bots.master import MasterBot
from chicago.bots.playmodel import Play, effective_count, observed_plays
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.sampling import consistent
from test_playmodel import _trick_one


class _Counting(MasterBot):
    """``master`` that counts the worlds it deals."""

    dealt = 0

    def _sample(self, k: Knowledge, rng: random.Random) -> list[int]:
        self.dealt += 1
        return super()._sample(k, rng)


class _OneFits(_Counting):
    """One that finds only the first world it deals fitting the plays (effective count
    about 1, however many it deals)."""

    def _play_weights(self, k: Knowledge, dealt: Sequence[list[int]],
                      plays: Sequence[Play]) -> list[float]:
        weights = [1e-9] * len(dealt)
        if self.dealt == len(dealt):  # the first batch
            weights[0] = 1.0
        return weights


def _dealt(k: Knowledge, kind: type[_Counting] = _Counting, **options: float,
           ) -> tuple[int, list[tuple[int, ...]]]:
    """How many worlds a bot with ``options`` deals for the trick search of ``k``, and the
    worlds it searches (seed 9)."""
    bot = kind(infer=3, samples=8, eps=0.001, **options)  # type: ignore[arg-type]
    bot._kinds = {0: (1.0, 0.0, 0.0), 1: (1.0, 0.0, 0.0)}  # both play the rules of thumb
    worlds = [p.hands for p in bot._positions(k, random.Random(9), None)]
    assert len(worlds) == 8
    return bot.dealt, worlds


def test_effective_count() -> None:
    assert effective_count([2.0, 2.0, 2.0]) == pytest.approx(3.0)
    assert effective_count([1.0, 0.0, 0.0, 0.0]) == 1.0
    assert effective_count([]) == 0.0 and effective_count([0.0, 0.0]) == 0.0
    assert effective_count([1e-200, 1e-200]) == pytest.approx(2.0)  # no underflow
    assert 1.0 < effective_count([1.0, 0.1, 0.1]) < 3.0


def test_the_pool_grows_by_count_up_to_the_cap_and_a_seed_fixes_it() -> None:
    """At a decision with plays seen the pool deals ``pool × samples`` worlds without
    ``cap``; where one world of each batch fits, it deals exactly ``cap × samples`` for a
    ``fit`` above one effective world and stops at the first batch for a smaller one; the
    same seed gives the same worlds."""
    k = knowledge(_trick_one(("3h Ks Qs 8c 6s", "2h Kc Kd 9h 9s")).view(2))
    assert observed_plays(k)
    assert _dealt(k, pool=3)[0] == 24
    assert _dealt(k, _OneFits, pool=3)[0] == 24
    assert _dealt(k, _OneFits, pool=3, cap=7, fit=0.2)[0] == 7 * 8
    assert _dealt(k, _OneFits, pool=3, cap=7, fit=0.1)[0] == 24  # 1 effective world fits
    assert _dealt(k, pool=3, cap=7, fit=0.01)[0] == 24
    # the real weights: about half the worlds fit both plays, so from one batch of 8 the
    # pool grows until some 8 effective worlds are dealt, below the cap
    grown, worlds = _dealt(k, pool=1, cap=7, fit=1.0)
    assert 8 < grown < 7 * 8 and grown % 8 == 0
    assert _dealt(k, pool=1, cap=7, fit=1.0) == (grown, worlds)
    assert all(not consistent(k, list(hands)) for hands in worlds)


def test_the_growing_pool_reads_only_what_the_seat_saw() -> None:
    """Two deals with the same public history and different hidden hands give seat 2 the
    same worlds and card with ``cap``, seed for seed."""
    found = []
    for hidden in [("3h Ks Qs 8c 6s", "2h Kc Kd 9h 9s"), ("3h Jc Td 7c 5d", "2h Tc 4d 8h 7s")]:
        g = _trick_one(hidden)
        k = knowledge(g.view(2))
        bot = make_bot("master:infer=3;pool=3;samples=8;cap=6;fit=0.9")
        assert isinstance(bot, MasterBot) and (bot.cap, bot.fit) == (6, 0.9)
        worlds = [p.hands for p in bot._positions(k, random.Random(9), None)]
        card = bot.decide(g.view(2), g.legal_actions(), random.Random(4))
        found.append((worlds, card))
    assert found[0] == found[1]


def test_cap_and_fit_are_checked() -> None:
    default = make_bot("master:infer=3")
    assert isinstance(default, MasterBot) and (default.cap, default.fit) == (0, 0.5)
    for bad in ("cap=-1", "cap=101", "cap=2.5", "cap=nan", "cap=abc", "cap=", "cap=9"):
        with pytest.raises(ValueError, match="cap"):
            make_bot(f"master:infer=3;{bad}")  # cap=9: below pool (10)
    for bad in ("fit=0", "fit=1.5", "fit=-0.2", "fit=nan", "fit=abc", "fit="):
        with pytest.raises(ValueError, match="fit"):
            make_bot(f"master:infer=3;cap=12;{bad}")
    with pytest.raises(ValueError, match="cap"):
        MasterBot(infer=3, pool=4, cap=3)
    with pytest.raises(ValueError, match="fit"):
        MasterBot(infer=3, cap=12, fit=math.nan)


def test_the_searched_worlds_come_from_the_pool_the_benchmarks_read() -> None:
    """``_pool`` (what ``bench_worlds.py`` measures) deals exactly the pool ``_positions``
    resamples from: from the same random state every searched world is one of its worlds,
    and the grown pool is as large as the counting bot deals."""
    k = knowledge(_trick_one(("3h Ks Qs 8c 6s", "2h Kc Kd 9h 9s")).view(2))
    plays = observed_plays(k)
    for options in ({"pool": 3}, {"pool": 1, "cap": 7, "fit": 1.0}):
        bot = _Counting(infer=3, samples=8, eps=0.001, **options)  # type: ignore[arg-type]
        bot._kinds = {0: (1.0, 0.0, 0.0), 1: (1.0, 0.0, 0.0)}
        dealt, weights = bot._pool(k, random.Random(9), plays, bot.cap)
        assert len(dealt) == len(weights) == bot.dealt
        pool = {tuple(hands) for hands in dealt}
        worlds = [p.hands for p in bot._positions(k, random.Random(9), None)]
        assert len(worlds) == 8 and all(hands in pool for hands in worlds)

"""``master:tilt=X;tiltdeal=N`` (issue 30): the trick search's worlds moved towards the
per-rank tilt (:mod:`chicago.bots.ranktilt`) by ``N`` Metropolis–Hastings trades each
(:mod:`chicago.bots.worldchain`) instead of a dealt pool reweighed by it, so the worlds
stay distinct and evenly weighed. Every world fits what the seat knows (R-TRICK-2 voids,
R-ANN-1 claims, R-EX-4 protected and shown cards, the known one-up card, the counts), a
seed fixes them, the high cards move to the opponents' hands and the effective worlds
stay more than the reweighed pool's. Fails on main, where the option does not exist."""

from __future__ import annotations

import random
from collections.abc import Container

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.master import MasterBot
from chicago.bots.playerkinds import history_kinds
from chicago.bots.playmodel import effective_count, observed_plays
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.sampling import consistent
from master_cases import master
from test_master_tilt import _aces_held, _first_trick_decision


def _ready(spec: str, view: object, k: Knowledge) -> MasterBot:
    """The ``master`` of ``spec`` with each opponent's kind of play read from ``view``'s
    history, as its trick decision reads it."""
    bot = master(spec)
    assert bot.play_policy is not None
    bot._kinds = history_kinds(view.history, k.seat, bot.play_policy,  # type: ignore[attr-defined]
                               bot.eps, k.players, bot.prior)
    return bot


def _searched(bot: MasterBot, k: Knowledge, seed: int) -> list[tuple[int, ...]]:
    return [p.hands for p in bot._positions(k, random.Random(seed), None)]


def test_the_option_is_parsed_and_checked() -> None:
    """``tiltdeal`` is 0 (off) by default, a whole number in 0..1000, and needs ``tilt``
    (which needs ``infer=3``)."""
    assert master("master").tiltdeal == 0
    assert master("master:tilt=1;tiltdeal=250").tiltdeal == 250
    for bad in ("-1", "1001", "2.5", "x"):
        with pytest.raises(ValueError, match="tiltdeal"):
            make_bot(f"master:tilt=1;tiltdeal={bad}")
    with pytest.raises(ValueError, match="tiltdeal needs tilt"):
        make_bot("master:tiltdeal=10")
    with pytest.raises(ValueError, match="tiltdeal"):
        MasterBot(tilt=1.0, tiltdeal=-3)
    with pytest.raises(ValueError, match="tilt"):
        make_bot("master:infer=0;tilt=1;tiltdeal=10")


def decision_views(preset: str, seed: int, deals: int, phase: str,
                   seats: Container[int] = range(4)) -> list[tuple[object, Knowledge]]:
    """The views and knowledge of ``seats`` at their decisions with a choice in ``phase``
    (no Chicago declared), in a game of four quick experts of ``preset`` up to deal
    ``deals``."""
    game = Game(Rules.preset(preset), 4, seed=seed)
    bots = [make_bot("expert:samples=4") for _ in range(4)]
    rng = random.Random(seed)
    out = []
    while not game.is_over and game.deal_number <= deals:
        seat = game.to_act
        assert seat is not None
        view, legal = game.view(seat), game.legal_actions()
        if seat in seats and str(game.phase) == phase and len(legal) > 1:
            k = knowledge(view)
            if k.declarer is None:
                out.append((view, k))
        game.apply(bots[seat].decide(view, legal, rng))
    return out


def _views(preset: str, seed: int, deals: int) -> list[tuple[object, Knowledge]]:
    """Seat 0's views and knowledge at its trick decisions with a choice and no Chicago
    declared, in a game of four quick experts of ``preset`` up to deal ``deals``."""
    return decision_views(preset, seed, deals, "play", (0,))


@settings(max_examples=6, deadline=None)
@given(preset=st.sampled_from(["pagat", "denexa", "wikipedia"]),
       seed=st.integers(0, 10_000), walk_seed=st.integers(0, 1000))
def test_every_world_dealt_towards_the_tilt_fits_what_the_seat_knows(
        preset: str, seed: int, walk_seed: int) -> None:
    """Over random deals of three presets, every world the tilted chain searches keeps the
    seat's own hand, each hand's size, the voids (R-TRICK-2), the claims (R-ANN-1), the
    protected and shown cards (R-EX-4) and the known one-up card
    (:func:`~chicago.engine.sampling.consistent` finds nothing wrong), and deals only cards
    the seat has not seen (or knows an opponent holds); the same seed gives the same
    worlds."""
    spec = "master:samples=6;tilt=1;tiltdeal=25"
    views = _views(preset, seed, 3)
    assert views
    for view, k in views[::3]:
        bot = _ready(spec, view, k)
        worlds = _searched(bot, k, walk_seed)
        assert len(worlds) == 6
        hidden = 0
        for card in k.unseen:
            hidden |= 1 << int(card)
        for opp in k.opponents.values():
            hidden |= opp.known
        for hands in worlds:
            assert consistent(k, list(hands)) == [], hands
            for seat in k.opponents:
                assert hands[seat] & ~hidden == 0
        assert _searched(_ready(spec, view, k), k, walk_seed) == worlds


@pytest.mark.parametrize("seed", [3, 11])
def test_dealing_towards_the_tilt_puts_more_high_cards_with_the_opponents(seed: int) -> None:
    """On the same view and generator, the worlds ``tiltdeal`` searches put more of the
    unseen aces in the opponents' hands than ``master``'s; their pool keeps ``master``'s
    weights (the tilt is not in them), so the effective worlds of the pool are as many as
    ``master``'s and more than the reweighed pool of ``tilt=1``, and the worlds searched
    are more distinct than ``tilt=1``'s."""
    k, plain, tilted, dealt_towards = pools_beside_tilt(
        seed, "master:samples=20;tilt=1;tiltdeal=80")
    assert _aces_held(k, dealt_towards[1], [1.0] * 20) > _aces_held(k, plain[1], [1.0] * 20)
    assert dealt_towards[0] == pytest.approx(plain[0])
    assert dealt_towards[0] > tilted[0]
    assert (len({tuple(w) for w in dealt_towards[1]})
            >= len({tuple(w) for w in tilted[1]}))


def test_a_seed_fixes_the_card() -> None:
    """The same view and seed give the same card with ``tiltdeal``."""
    game, _, view = _first_trick_decision(3)
    legal = game.legal_actions()
    spec = "master:samples=8;tilt=1;tiltdeal=20"
    card = master(spec).decide(view, legal, random.Random(5))  # type: ignore[arg-type]
    assert master(spec).decide(view, legal, random.Random(5)) == card  # type: ignore[arg-type]


Pool = tuple[float, list[list[int]]]


def pools_beside_tilt(seed: int, spec: str) -> tuple[Knowledge, Pool, Pool, Pool]:
    """At the first trick decision of ``seed`` (an ace unseen), each of ``master``,
    ``tilt=1`` and ``spec`` (20 samples each): its pool's effective worlds and the worlds
    it searches."""
    _, k, view = _first_trick_decision(seed)
    assert any(c >> 2 == 12 for c in k.unseen)
    plays = observed_plays(k)
    found = []
    for each in ("master:samples=20", "master:samples=20;tilt=1", spec):
        bot = _ready(each, view, k)
        _, weights = bot._pool(k, random.Random(seed), plays, 0)
        worlds = [list(hands) for hands in _searched(bot, k, seed)]
        found.append((effective_count(weights), worlds))
    return k, found[0], found[1], found[2]

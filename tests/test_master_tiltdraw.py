"""``master:tilt=X;tiltdraw=1`` and ``tiltcall=1`` (issue 30): the trick search's pool, and
the Chicago call's worlds, dealt from the per-rank tilted law (:mod:`chicago.bots.ranktilt`)
by :class:`~chicago.bots.tiltdraw.TiltDrawer` instead of a dealt pool reweighed by the
tilt. Every world fits what the seat knows (R-TRICK-2 voids, R-ANN-1 claims, R-EX-4
protected and shown cards, the known one-up card, the counts) and holds only unseen cards;
a seed fixes them; on a small case the dealt law is the tilted law, enumerated; the high
cards go to the opponents' hands and the effective worlds stay many. Fails on main, where
neither the options nor the module exist."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chicago.bots import make_bot, tiltdraw
from chicago.bots.master import MasterBot
from chicago.bots.ranktilt import seat_log_factors
from chicago.bots.tiltdraw import TiltDrawer, buildable
from chicago.cards import Card, mask_of
from chicago.engine.knowledge import Claim, Knowledge
from chicago.engine.sampling import consistent, hand_problems
from chicago.poker import Category
from master_cases import master
from script_loader import load_script
from test_master_tilt import _aces_held, _first_trick_decision
from test_master_tiltdeal import _ready, _searched, _views, decision_views, pools_beside_tilt

DRAW = "master:samples=20;tilt=1;tiltdraw=1"


def test_the_options_are_parsed_and_checked() -> None:
    """``tiltdraw`` and ``tiltcall`` are 0 (off) by default and 0 or 1; ``tiltdraw`` needs
    ``tilt`` and refuses the options that deal or reweigh the pool otherwise; ``tiltcall``
    needs ``tiltdraw``."""
    bot = master("master")
    assert (bot.tiltdraw, bot.tiltcall) == (0, 0)
    bot = master("master:tilt=1;tiltdraw=1;tiltcall=1")
    assert (bot.tiltdraw, bot.tiltcall) == (1, 1)
    for bad in ("-1", "2", "0.5", "x"):
        with pytest.raises(ValueError, match="tiltdraw"):
            make_bot(f"master:tilt=1;tiltdraw={bad}")
        with pytest.raises(ValueError, match="tiltcall"):
            make_bot(f"master:tilt=1;tiltdraw=1;tiltcall={bad}")
    with pytest.raises(ValueError, match="tiltdraw needs tilt"):
        make_bot("master:tiltdraw=1")
    with pytest.raises(ValueError, match="tiltcall needs tiltdraw"):
        make_bot("master:tilt=1;tiltcall=1")
    for other in ("tiltdeal=10", "learned=1", "exrule=1", "annrule=1"):
        with pytest.raises(ValueError, match="tiltdraw"):
            make_bot(f"master:tilt=1;tiltdraw=1;{other}")
    with pytest.raises(ValueError, match="tiltdraw"):
        MasterBot(tilt=1.0, tiltdraw=3)


def _hidden(k: Knowledge) -> int:
    out = mask_of(k.unseen)
    for opp in k.opponents.values():
        out |= opp.known
    return out


def _call_views(preset: str, seed: int, deals: int) -> list[tuple[object, Knowledge]]:
    """Every seat's views at the Chicago call in a game of four quick experts."""
    return decision_views(preset, seed, deals, "chicago")


@settings(max_examples=6, deadline=None)
@given(preset=st.sampled_from(["pagat", "denexa", "wikipedia"]),
       seed=st.integers(0, 10_000), deal_seed=st.integers(0, 1000))
def test_every_world_dealt_from_the_tilted_law_fits_what_the_seat_knows(
        preset: str, seed: int, deal_seed: int) -> None:
    """Over random deals of three presets, every world of the pool ``tiltdraw`` deals (at
    trick decisions and, for ``tiltcall``, at the Chicago call) keeps the seat's own hand,
    each hand's size, the voids (R-TRICK-2), the claims (R-ANN-1), the protected and shown
    cards (R-EX-4) and the known one-up card (:func:`~chicago.engine.sampling.consistent`
    finds nothing wrong), deals only cards the seat has not seen (or knows an opponent
    holds), weighs each world at 0 or more with some above 0, deals at least ``samples``
    worlds (fewer than asked where the draws' budget runs out), and the same seed deals the
    same pool."""
    spec = "master:samples=6;tilt=1;tiltdraw=1;tiltcall=1"
    views = _views(preset, seed, 3)[::3] + _call_views(preset, seed, 3)[::2]
    assert views
    for view, k in views:
        bot = _ready(spec, view, k)
        dealt, weights = bot._tilt_pool(k, random.Random(deal_seed), 60)
        assert 6 <= len(dealt) <= 60 and min(weights) >= 0 < max(weights)
        hidden = _hidden(k)
        for hands in dealt:
            assert consistent(k, hands) == [], hands
            for seat in k.opponents:
                assert hands[seat] & ~hidden == 0
        again = _ready(spec, view, k)._tilt_pool(k, random.Random(deal_seed), 60)
        assert again == (dealt, weights)
        if k.phase == "play":
            worlds = _searched(bot, k, deal_seed)
            assert len(worlds) == 6
            assert all(consistent(k, list(hands)) == [] for hands in worlds)


def _small_case(kept: bool | Category, stages: tuple[int, ...] = (13,)) -> Knowledge:
    """A view cut down to eight hidden cards (three kings, two aces, three low cards) and
    opponents holding 2, 2 and 1 of them, the second void in clubs; with ``kept`` the first
    instead holds 3 after playing 2 low cards and keeps a pair of kings (R-EX-4); with a
    category, it played the three of hearts and the five of diamonds and keeps that
    category with the ranks ``stages`` revealed (none: the rank is any, a pair of kings,
    of aces or of threes, and so on)."""
    _, k, _ = _first_trick_decision(3)
    seats = sorted(k.opponents)
    hidden = [44, 45, 46, 48, 50, 0, 5, 10]  # K♣ K♦ K♥, A♣ A♥, 2♣ 3♦ 4♥
    played = (Card(1), Card(2)) if kept is True else (Card(6), Card(13))
    opponents = {}
    for seat, holding in zip(seats, (2, 2, 1), strict=True):
        opp = dataclasses.replace(k.opponents[seat], holding=holding, known=0, voids=0,
                                  claim=None, kept=(), shown=(), kept_from_shown=None,
                                  played=())
        opponents[seat] = opp
    second = seats[1]
    opponents[second] = dataclasses.replace(opponents[second], voids=1)  # no clubs
    if kept:
        first = seats[0]
        claim = (Claim(1, Category.PAIR, (13,)) if kept is True
                 else Claim(1, Category(kept), stages))
        opponents[first] = dataclasses.replace(
            opponents[first], holding=3, played=played, kept=(claim,))
    return dataclasses.replace(k, unseen=tuple(Card(c) for c in hidden), opponents=opponents,
                               dead=mask_of(played), hand=tuple(Card(c) for c in range(20, 25)))


def _exact(k: Knowledge, logs: dict[int, list[float]]) -> dict[tuple[int, int], float]:
    """Each (card, seat)'s chance under the tilted law, by enumerating every deal that fits
    (seat -1: nowhere)."""
    seats = sorted(k.opponents)
    cards = [int(c) for c in k.unseen]
    law: dict[tuple[int, int], float] = {}
    total = 0.0

    def deal(index: int, left: list[int], hands: list[int]) -> None:
        nonlocal total
        if index == len(seats):
            world = [0] * k.players
            world[k.seat] = k.hand_mask
            for seat, hand in zip(seats, hands, strict=True):
                world[seat] = hand
            if consistent(k, world):
                return
            weight = math.exp(sum(logs[s][c] for s, h in zip(seats, hands, strict=True)
                                  for c in cards if h >> c & 1))
            total += weight
            for c in cards:
                owner = next((s for s, h in zip(seats, hands, strict=True) if h >> c & 1), -1)
                law[(c, owner)] = law.get((c, owner), 0.0) + weight
            return
        for chosen in itertools.combinations(left, k.opponents[seats[index]].holding):
            rest = [c for c in left if c not in chosen]
            deal(index + 1, rest, [*hands, mask_of(Card(c) for c in chosen)])

    deal(0, cards, [])
    return {key: value / total for key, value in law.items()}


def _law_of_draws(k: Knowledge, drawer: TiltDrawer,
                  draws: int) -> dict[tuple[int, int], float]:
    """The importance-weighted share of each (card, seat) over ``draws`` draws (seed
    2027; seat -1: nowhere), every world checked against the view."""
    seats = sorted(k.opponents)
    rng = random.Random(2027)
    found: dict[tuple[int, int], float] = {}
    total = 0.0
    for _ in range(draws):
        hands, weight = drawer.deal(rng)
        assert consistent(k, hands) == []
        total += weight
        for card in (int(c) for c in k.unseen):
            owner = next((s for s in seats if hands[s] >> card & 1), -1)
            found[(card, owner)] = found.get((card, owner), 0.0) + weight
    return {key: value / total for key, value in found.items()}


def _small_logs(k: Knowledge) -> dict[int, list[float]]:
    return {seat: seat_log_factors(rules, 1.0)
            for seat, rules in zip(sorted(k.opponents), (0.0, 0.5, 1.0), strict=True)}


@pytest.mark.parametrize("kept", [False, True])
def test_the_dealt_law_is_the_tilted_law(kept: bool) -> None:
    """On a small case (eight hidden cards, a void; with ``kept`` a protected pair of kings
    whose hands are reached once per choice of the pair and weighed down by that count),
    the importance-weighted frequencies of each card's place over 20,000 draws (fixed
    seed) match the tilted law enumerated over every deal that fits, within 0.02."""
    k = _small_case(kept)
    logs = _small_logs(k)
    exact = _exact(k, logs)
    found = _law_of_draws(k, TiltDrawer(k, logs), 20_000)
    for key in set(exact) | set(found):
        assert found.get(key, 0.0) == pytest.approx(exact.get(key, 0.0), abs=0.02), key
    aces_held = sum(p for (c, s), p in exact.items() if c >= 48 and s != -1)
    assert aces_held > 2 * 5 / 8  # the tilt at work: more than a blind deal would hold


@pytest.mark.parametrize(("category", "stages", "tables"), [
    (Category.PAIR, (), 3), (Category.TWO_PAIR, (), 2), (Category.TWO_PAIR, (13,), 1),
    (Category.THREE_OF_A_KIND, (), 1)])
def test_an_unrevealed_protected_rank_is_drawn_as_a_mixture(
        category: Category, stages: tuple[int, ...], tables: int) -> None:
    """Issue 30, R-EX-4: an opponent that keeps a protected pair, two pair or three of a
    kind whose rank it did not reveal (here: any pair of kings, of aces, or of threes with
    the three it played) is dealt from one table per rank that fits, the table drawn in
    proportion to its sum and each hand weighed down by the ways every table reaches it (a
    hand of two kings and the three of diamonds is reached by the kings' table and the
    threes'). No draw is ever redone (one draw of the free cards per world, where the
    rejection took several), and over 20,000 draws the importance-weighted frequencies
    match the tilted law enumerated over every deal that fits, within 0.02."""
    k = _small_case(category, stages)
    logs = _small_logs(k)
    exact = _exact(k, logs)
    drawer = TiltDrawer(k, logs)
    assert len(drawer.tables) == tables
    found = _law_of_draws(k, drawer, 20_000)
    assert drawer.tries == 20_000
    for key in set(exact) | set(found):
        assert found.get(key, 0.0) == pytest.approx(exact.get(key, 0.0), abs=0.02), key


@pytest.mark.parametrize("seed", [3, 11])
def test_the_drawn_pool_places_more_aces_and_stays_wide(seed: int) -> None:
    """On the same view and generator, the worlds ``tiltdraw`` searches put more of the
    unseen aces in the opponents' hands than ``master``'s; its pool's effective worlds are
    more than the reweighed pool of ``tilt=1``, and its searched worlds no fewer distinct."""
    k, plain, tilted, drawn = pools_beside_tilt(seed, DRAW)
    assert _aces_held(k, drawn[1], [1.0] * 20) > _aces_held(k, plain[1], [1.0] * 20)
    assert drawn[0] > tilted[0]
    assert len({tuple(w) for w in drawn[1]}) >= len({tuple(w) for w in tilted[1]})


def test_a_seed_fixes_the_card_and_the_call() -> None:
    """The same view and seed give the same card with ``tiltdraw`` and the same shares at
    the Chicago call with ``tiltcall``."""
    game, _, view = _first_trick_decision(3)
    legal = game.legal_actions()
    card = master(DRAW).decide(view, legal, random.Random(5))  # type: ignore[arg-type]
    assert master(DRAW).decide(view, legal, random.Random(5)) == card  # type: ignore[arg-type]
    spec = "master:samples=8;tilt=1;tiltdraw=1;tiltcall=1"
    calls = _call_views("pagat", 5, 4)
    assert calls
    view, k = calls[0]
    shares = _ready(spec, view, k)._chicago_shares(k, random.Random(9))
    assert _ready(spec, view, k)._chicago_shares(k, random.Random(9)) == shares
    assert all(0 <= share <= 1 for share in shares)


def test_the_world_benchmark_measures_the_drawn_pool() -> None:
    """``bench_world_quality.py`` measures ``tiltdraw``'s own pool: it runs, every card's
    places sum to one, and it reports no ``llr`` (the pool's weights are not the play
    likelihood alone)."""
    tool = load_script("benchmarks/bench_world_quality.py")
    decisions, records = tool.collect("master:samples=8;tilt=1;tiltdraw=1", "basic", [0],
                                      deals=1, seed=5, uniform=20)
    assert decisions and records
    assert all(d.llr is None for d in decisions)
    for r in records:
        for source in tool.SOURCES:
            assert math.isclose(sum(r.probs[source]), 1.0, abs_tol=1e-9)


_GROUP_CLAIMS = [Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND,
                 Category.FULL_HOUSE, Category.FOUR_OF_A_KIND]


@settings(max_examples=60, deadline=None)
@given(category=st.sampled_from(_GROUP_CLAIMS), staged=st.integers(0, 2),
       pair=st.sampled_from([None, (), (12,), (13,)]),
       cards=st.permutations(list(range(52))), played=st.integers(0, 2),
       spare=st.integers(5, 13))
def test_buildable_says_no_only_where_no_hand_fits(
        category: Category, staged: int, pair: tuple[int, ...] | None, cards: list[int],
        played: int, spare: int) -> None:
    """Issue 30, R-ANN-1, R-EX-4: :func:`~chicago.bots.tiltdraw.buildable` (which lets
    the drawer skip the engine's build of a claimed hand where the draw left no hand that
    fits it) agrees with every hand enumerated: for a claim of a category made of groups
    (with its first ranks revealed or not, and a protected pair from an earlier round or
    not), it says a hand can be filled from the cards left exactly where one of them holds
    the claim and the protected pair."""
    rng = random.Random(sum(cards[:5]) + played)
    stages = tuple(sorted({rng.randrange(2, 15) for _ in range(staged)}, reverse=True))
    kept = () if pair is None else (Claim(1, Category.PAIR, pair),)
    _, k, _ = _first_trick_decision(3)
    k = dataclasses.replace(k, dead=0)
    seat = min(k.opponents)
    opp = dataclasses.replace(
        k.opponents[seat], holding=5 - played, known=0, voids=0, shown=(),
        kept_from_shown=None, played=tuple(Card(c) for c in cards[:played]),
        claim=Claim(2, category, stages), kept=(*kept, Claim(2, category, stages)))
    allowed = mask_of(Card(c) for c in cards[played:played + spare])
    fits = any(not hand_problems(k, opp, mask_of(Card(c) for c in hand))
               for hand in itertools.combinations(cards[played:played + spare], 5 - played))
    assert buildable(opp, 0, allowed, k.rules) == fits


def test_beyond_the_budget_of_cells_the_rank_is_kept_by_rejection(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: where the mixture's tables would take more than ``_WORK`` cells, an
    unrevealed protected pair (R-EX-4) is kept by rejection instead: one table, draws
    redone, and the weighted law is the enumerated tilted law all the same."""
    monkeypatch.setattr(tiltdraw, "_WORK", 0)
    k = _small_case(Category.PAIR, ())
    logs = _small_logs(k)
    drawer = TiltDrawer(k, logs)
    assert len(drawer.tables) == 1 and drawer.rejecting
    found = _law_of_draws(k, drawer, 20_000)
    assert drawer.tries > 20_000
    exact = _exact(k, logs)
    for key in set(exact) | set(found):
        assert found.get(key, 0.0) == pytest.approx(exact.get(key, 0.0), abs=0.02), key


def test_a_claim_no_hand_left_can_hold_is_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30, R-ANN-1, R-EX-4: an opponent claiming three of a kind that kept a pair of
    kings earlier must hold the three kings; where the draw gave another opponent a king,
    the drawer counts the failed build without asking the engine (:attr:`skipped`), and
    every build it asks for succeeds and fits the view."""
    k = _small_case(Category.THREE_OF_A_KIND)
    first = min(k.opponents)
    opponents = dict(k.opponents)
    opponents[first] = dataclasses.replace(
        opponents[first], claim=Claim(2, Category.THREE_OF_A_KIND),
        kept=(Claim(1, Category.PAIR, (13,)),))
    k = dataclasses.replace(k, opponents=opponents)
    builds: list[list[int]] = []
    engine = tiltdraw.sample_hands

    def counted(view: Knowledge, rng: random.Random) -> list[int]:
        hands = engine(view, rng)
        if view is not k:
            builds.append(hands)
        return hands

    monkeypatch.setattr(tiltdraw, "sample_hands", counted)
    drawer = TiltDrawer(k, _small_logs(k))
    assert drawer.fixed and drawer.feasible
    rng = random.Random(4)
    while drawer.feasible and len(builds) < 50:
        hands, weight = drawer.deal(rng)
        assert consistent(k, hands) == [] and weight > 0
    assert drawer.skipped > 0 and builds
    assert all(consistent(k, hands) == [] for hands in builds)
    assert drawer.failures == drawer.skipped

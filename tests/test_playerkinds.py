"""Each opponent's kind of card play learned from the game's earlier deals
(``master:infer=3``, :mod:`chicago.bots.playerkinds`): the per-opponent posterior from
hand-built deals, forced plays and cut-short deals left out, the earlier deals read from
the view's history alone (issue 30: no memory, so a bot built mid-game decides as one that
played the whole game), the options checked and a seed fixing every choice (R-TRICK-2: a
player follows suit when it can; R-CHI-1: deals with a Chicago declared are left out)."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Sequence

import pytest

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.heuristics import rules_card
from chicago.bots.master import MasterBot
from chicago.bots.playerkinds import (
    DealLogs,
    Triple,
    deal_log_likelihoods,
    history_kinds,
    kind_posterior,
    kind_weights,
    play_chances,
    priors,
)
from chicago.bots.playmodel import Play, observed_plays
from chicago.bots.playpolicy import PlayPolicy, legal_cards
from chicago.cards import Card, parse_cards
from chicago.engine.knowledge import knowledge
from chicago.sim import derive_seed, duplicate_game
from test_bots_isolation import _relabelled
from test_playmodel import _trick_one

Chooser = Callable[[list[int], list[int]], int]
"""A player's card from its hand and the cards on the trick (its legal cards only)."""


def _ids(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def _thumb(hand: list[int], table: list[int]) -> int:
    legal = [Card(c) for c in legal_cards(hand, table)]
    return int(rules_card([Card(c) for c in sorted(hand)], [Card(c) for c in table], legal))


def _highest(hand: list[int], table: list[int]) -> int:
    """A player who always plays its highest legal card (not the rules of thumb)."""
    return max(legal_cards(hand, table))


def _deal(hands: Sequence[str], choosers: Sequence[Chooser], leader: int = 0,
          ) -> list[tuple[tuple[int, int], ...]]:
    """The five tricks of a hand-built deal: seat ``s`` holds ``hands[s]`` and plays by
    ``choosers[s]``; the winner of a trick leads the next."""
    held = [_ids(h) for h in hands]
    tricks = []
    for _ in range(5):
        plays: list[tuple[int, int]] = []
        for offset in range(len(held)):
            seat = (leader + offset) % len(held)
            card = choosers[seat](held[seat], [c for _, c in plays])
            held[seat].remove(card)
            plays.append((seat, card))
        led = plays[0][1] & 3
        leader = max((p for p in plays if p[1] & 3 == led), key=lambda p: p[1])[0]
        tricks.append(tuple(plays))
    return tricks


_HANDS = [
    ("Ah 9h 5c 4d 2s", "Kh 7h 3h Qc 8d", "Jh Th 6c 7d 9s", "Qh 2h Kc 3s 4s"),
    ("As Ks 2c 9d 5h", "Qs 4s 3s Ac 6d", "Js 8c 7c Kd 4h", "Ts 9s 6s Td 2d"),
    ("Ad Kd 5s 4h 3c", "Qd 9d 2d As 8c", "Jd 8d 7s 6h Tc", "Td 3d Qs 9c 8h"),
]


def _posteriors(seat_1: Chooser, deals: int) -> dict[int, Triple]:
    """The posterior of every opponent of seat 0 after ``deals`` of :data:`_HANDS`, where
    seat 1 plays by ``seat_1`` and the others by the rules of thumb."""
    policy = PlayPolicy.load()
    choosers = [_thumb, seat_1, _thumb, _thumb]
    logs = [deal_log_likelihoods(_deal(h, choosers), 0, policy, 0.02, 4)
            for h in _HANDS[:deals]]
    return {s: kind_posterior([row[s] for row in logs if s in row], priors(1 / 3))
            for s in (1, 2, 3)}


def test_a_rules_player_is_found_and_a_deviating_one_is_not_R_TRICK_2() -> None:
    """Seat 1 playing its highest card is no rules player after one deal, and seats 2 and 3,
    who play the rules of thumb, are after three."""
    first = _posteriors(_highest, 1)
    assert first[1][0] < 0.01
    both = _posteriors(_highest, 3)
    assert both[1][0] < 1e-4
    for seat in (2, 3):
        assert both[seat][0] > 0.9, both[seat]
        assert both[seat][0] >= first[seat][0]
    assert all(sum(t) == pytest.approx(1.0) for t in both.values())
    # no deal: the prior
    assert kind_posterior([], priors(0.5)) == (0.5, 0.25, 0.25)


def test_forced_plays_and_cut_short_deals_say_nothing() -> None:
    """A play with one legal card has chance 1 under every model; an opponent with a card
    missing from the deal's tricks is left out of it; a card it may not play (R-TRICK-2)
    has chance 0."""
    policy = PlayPolicy.load()
    forced = play_chances(_ids("Kh 2c 3d"), _ids("5h"), 0, _ids("Kh")[0], policy, 0.02, 4)
    assert forced == (1.0, 1.0, 1.0)
    assert play_chances(_ids("Kh 2c"), _ids("5h"), 0, _ids("2c")[0], policy, 0.02, 4) == (
        0.0, 0.0, 0.0)
    rules, fitted, uniform = play_chances(_ids("Kh 2h 3d"), _ids("5h"), 0, _ids("Kh")[0],
                                          policy, 0.02, 4)
    assert rules == pytest.approx(0.02) and uniform == 0.5 and 0 < fitted < 1
    tricks = _deal(_HANDS[0], [_thumb] * 4)
    whole = deal_log_likelihoods(tricks, 0, policy, 0.02, 4)
    assert sorted(whole) == [1, 2, 3]
    cut = [*tricks[:4], tuple(p for p in tricks[4] if p[0] in (0, tricks[4][0][0]))]
    partial = deal_log_likelihoods(cut, 0, policy, 0.02, 4)
    assert sorted(partial) == sorted({tricks[4][0][0]} - {0})
    assert all(partial[s] == whole[s] for s in partial)
    assert deal_log_likelihoods(tricks[:4], 0, policy, 0.02, 4) == {}


def test_the_mixture_weighs_worlds_by_each_opponents_kind() -> None:
    """Seat 1 put 9h on a 5h lead holding another heart: a rules player would have played
    low (its lowest heart, keeping the top of its longest suit), so a world where it still
    holds 2h weighs little when seat 1 is known to play the rules, and the forced world 1."""
    policy = PlayPolicy.load()
    plays = [Play(1, _ids("9h")[0], tuple(_ids("5h")))]
    forced = [0, sum(1 << c for c in _ids("7c 8c 9d 4s")), 0, 0]
    low = [0, sum(1 << c for c in _ids("2h 7c 8c 9d")), 0, 0]
    rules_player = {1: (1.0, 0.0, 0.0)}
    weights = kind_weights([forced, low], plays, rules_player, policy, 0.02, 4, priors(1 / 3))
    assert weights == [1.0, pytest.approx(0.02)]
    anyone = kind_weights([forced, low], plays, {1: (0.0, 0.0, 1.0)}, policy, 0.02, 4,
                          priors(1 / 3))
    assert anyone == [1.0, 0.5]
    mixed = kind_weights([low], plays, {}, policy, 0.02, 4, priors(1 / 3))[0]
    expected = (0.02 + policy.chance(_ids("9h 2h 7c 8c 9d"), _ids("5h"), 0, _ids("9h")[0])
                + 0.5) / 3
    assert mixed == pytest.approx(expected)


def _basic_game(seed: int, deals: int, bot: MasterBot,
                observe: Callable[[Game, int], None] | None = None) -> Game:
    """A pagat game of ``bot`` in seat 0 against three ``basic``, to the start of deal
    ``deals`` (``observe`` is called before each of seat 0's decisions)."""
    game = duplicate_game(Rules.preset("pagat"), 4, seed=derive_seed(seed, 0, 1),
                          deck_seed=derive_seed(seed, 0, 2))
    others = [make_bot("basic") for _ in range(4)]
    rngs = [random.Random(seed * 10 + s) for s in range(4)]
    while not game.is_over and game.deal_number < deals:
        seat = game.to_act
        assert seat is not None
        if seat == 0 and observe is not None:
            observe(game, seat)
        who = bot if seat == 0 else others[seat]
        game.apply(who.decide(game.view(seat), game.legal_actions(), rngs[seat]))
    return game


def test_the_history_of_the_view_shows_basic_players_R_CHI_1() -> None:
    """After a few deals against three ``basic`` every opponent is a rules player, as the
    finished deals of seat 0's view say; seat 0's own view and a spectator's say the same;
    a deal with a Chicago declared counts for nothing (R-CHI-1), nor a deal without tricks;
    the memo changes no result; a view of a first deal says nothing."""
    bot = make_bot("master:infer=3;samples=8")
    assert isinstance(bot, MasterBot) and bot.play_policy is not None
    game = _basic_game(3, 7, bot)
    history = game.view(0).history
    assert len(history) == game.deal_number - 1 >= 6
    assert game.view(None).history == history
    policy = bot.play_policy
    kinds = history_kinds(history, 0, policy, 0.02, 4, bot.prior)
    assert sorted(kinds) == [1, 2, 3]
    assert all(t[0] > 0.9 for t in kinds.values()), kinds
    memo: DealLogs = {}
    assert history_kinds(history, 0, policy, 0.02, 4, bot.prior, memo) == kinds
    assert len(memo) == sum(1 for r in history if r.chicago is None and r.tricks)
    assert history_kinds(history, 0, policy, 0.02, 4, bot.prior, memo) == kinds
    declared = [dataclasses.replace(r, chicago=1) for r in history]
    assert history_kinds(declared, 0, policy, 0.02, 4, bot.prior) == {}
    no_tricks = [dataclasses.replace(r, tricks=()) for r in history]
    assert history_kinds(no_tricks, 0, policy, 0.02, 4, bot.prior) == {}
    first = duplicate_game(Rules.preset("pagat"), 4, seed=5, deck_seed=6)
    assert history_kinds(first.view(0).history, 0, policy, 0.02, 4, bot.prior) == {}


def test_a_bot_built_mid_game_decides_as_one_that_played_the_whole_game() -> None:
    """Issue 30: at every trick decision of seat 0 after the first deal, a ``master:infer=3``
    made just then (a restarted server, a stand-in, a review) gets the same posteriors and
    the same card, seed for seed, as the one that played every decision of the game."""
    spec = "master:infer=3;samples=8"
    bot = make_bot(spec)
    assert isinstance(bot, MasterBot)
    checked = 0

    def compare(game: Game, seat: int) -> None:
        nonlocal checked
        if str(game.phase) != "play" or game.deal_number < 2 or len(game.legal_actions()) < 2:
            return
        fresh = make_bot(spec)
        assert isinstance(fresh, MasterBot)
        view, legal = game.view(seat), game.legal_actions()
        here = fresh.decide(view, legal, random.Random(checked))
        there = bot.decide(view, legal, random.Random(checked))
        assert here == there
        assert fresh._kinds == bot._kinds and len(bot._kinds) == 3
        checked += 1

    _basic_game(6, 7, bot, compare)
    assert checked > 10


def test_infer_3_decides_by_the_view_alone_and_a_seed_fixes_its_choice() -> None:
    """At every trick decision of seat 0 in a few deals against ``basic``, a copy of the
    game whose hidden cards are dealt anew (the same view) gets the same card, seed for
    seed, from the same history; two tables with the same public trick and different hidden
    hands give the same worlds and card (as for ``infer=1`` and ``2``)."""
    bot = make_bot("master:infer=3;samples=10")
    assert isinstance(bot, MasterBot)
    rng = random.Random(1)
    checked = 0

    def compare(game: Game, seat: int) -> None:
        nonlocal checked
        if str(game.phase) != "play" or len(game.legal_actions()) < 2:
            return
        view = game.view(seat)
        copy = _relabelled(game, seat, rng)
        assert copy.view(seat) == view
        here = bot.decide(view, game.legal_actions(), random.Random(checked))
        there = bot.decide(copy.view(seat), copy.legal_actions(), random.Random(checked))
        assert here == there
        checked += 1

    _basic_game(4, 7, bot, compare)
    assert checked > 10
    found = []
    for hidden in [("3h Ks Qs 8c 6s", "2h Kc Kd 9h 9s"), ("3h Jc Td 7c 5d", "2h Tc 4d 8h 7s")]:
        g = _trick_one(hidden)
        k = knowledge(g.view(2))
        fresh = make_bot("master:infer=3;samples=12")
        assert isinstance(fresh, MasterBot)
        cards = {fresh.decide(g.view(2), g.legal_actions(), random.Random(4)) for _ in range(2)}
        worlds = [p.hands for p in fresh._positions(k, random.Random(9), None)]
        found.append((observed_plays(k), worlds, cards))
        assert len(cards) == 1
    assert found[0] == found[1]


def test_infer_3_options_are_checked() -> None:
    bot = make_bot("master:infer=3;eps=0.05;prior=0.5;pool=4")
    assert isinstance(bot, MasterBot)
    assert (bot.infer, bot.eps, bot.prior, bot.pool) == (3, 0.05, (0.5, 0.25, 0.25), 4)
    assert bot.play_policy is not None
    default = make_bot("master:infer=3")
    assert isinstance(default, MasterBot) and default.eps == 0.02
    assert default.prior == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert MasterBot(infer=0).play_policy is None
    assert (MasterBot().infer, MasterBot().pool) == (3, 10)  # the default since issue 30
    assert MasterBot().play_policy is not None
    for option in ("eps", "prior"):
        for value in ("0", "1", "-0.1", "nan", "abc", ""):
            with pytest.raises(ValueError, match=option):
                make_bot(f"master:infer=3;{option}={value}")
    for bad in ("master:infer=3.5", "master:infer=4"):
        with pytest.raises(ValueError, match="infer"):
            make_bot(bad)
    with pytest.raises(ValueError, match="eps"):
        MasterBot(infer=3, eps=math.nan)
    with pytest.raises(ValueError, match="prior"):
        MasterBot(infer=3, prior=1.0)

"""``master:dealrule=1``: every world dealt from the law of ``basic``'s exchange rule and
words (``exrule``/``annrule``), so they reach the decisions before any card is played (the
last exchange, the Chicago call, the first lead): a rules player who drew three weighs its
worlds without a pair at the floor there, every world dealt then fits (while real ``basic``
hands are never ruled out, opponents still to make their last exchange included), a bot
made fresh decides as the one that played the whole game, a copy of the game whose hidden
cards are dealt anew gets the same choice (no hidden information), a seed fixes it, and
the option is checked."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.exchangerule import opponent_fits
from chicago.bots.master import _EXRULE_FLOOR, MasterBot
from chicago.cards import ids_of_mask
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.sampling import consistent
from chicago.sim import derive_seed, duplicate_game
from test_bots_isolation import _relabelled

PAGAT = Rules.preset("pagat")
SPEC = "master:exrule=1;annrule=1;dealrule=1;samples=10"


def _before_play(k: Knowledge) -> bool:
    """A decision before any card of the deal is played that deals worlds: the last
    exchange with five cards, the Chicago call, or the first lead."""
    if k.phase == "exchange":
        return k.round >= k.exchanges_total and len(k.hand) == 5 and not k.locked[k.seat]
    if k.phase == "chicago":
        return True
    return k.phase == "play" and not k.trick and all(
        not opp.played for opp in k.opponents.values())


def _walk(seed: int, deals: int, spec: str,
          observe: Callable[[Game, int], None]) -> None:
    """A pagat game of ``spec`` in seat 0 against three ``basic`` up to deal ``deals``;
    ``observe`` sees the game (and the seat to act) before every decision of seat 0 with a
    choice."""
    game = duplicate_game(PAGAT, 4, seed=derive_seed(seed, 0, 1),
                          deck_seed=derive_seed(seed, 0, 2))
    bots = [make_bot(spec if s == 0 else "basic") for s in range(4)]
    rngs = [random.Random(seed * 10 + s) for s in range(4)]
    while not game.is_over and game.deal_number <= deals:
        seat = game.to_act
        assert seat is not None
        if seat == 0 and len(game.legal_actions()) > 1:
            observe(game, seat)
        game.apply(bots[seat].decide(game.view(seat), game.legal_actions(), rngs[seat]))


def _early_games(seed: int, deals: int) -> list[Game]:
    """Copies of the game at seat 0's decisions before any card is played (from deal 3,
    so the earlier deals show the others to be rules players)."""
    out: list[Game] = []

    def keep(game: Game, seat: int) -> None:
        if game.deal_number >= 3 and _before_play(knowledge(game.view(seat))):
            out.append(game.copy())

    _walk(seed, deals, SPEC, keep)
    return out


def _kinds_of(bot: MasterBot, game: Game) -> None:
    """Let ``bot`` read the earlier deals of seat 0's view (as :meth:`MasterBot.decide`
    does first)."""
    bot.decide(game.view(0), game.legal_actions(), random.Random(0))


def test_before_any_card_the_rules_players_are_read() -> None:
    """At the last exchange, the Chicago call and the first lead, after two deals of
    ``basic``'s play, every opponent is read as a rules player (``dealrule`` needs its
    chance there, where ``infer=3`` alone never reads it). The chance is read on sampled
    worlds, so it moves with the sampler's stream: on seed 21 it was 0.996 at least before
    the sampler dealt two protected combinations as one (R-EX-4), 0.966 after (the least
    of seeds 21-28 averaged 0.921 before, 0.923 after)."""
    games = _early_games(21, 5)
    phases = {str(g.phase) for g in games}
    assert {"exchange", "play"} <= phases
    for game in games[:6]:
        bot = make_bot(SPEC)
        assert isinstance(bot, MasterBot)
        _kinds_of(bot, game)
        assert set(bot._kinds) == {1, 2, 3}
        assert all(kinds[0] > 0.95 for kinds in bot._kinds.values())


def test_a_rules_player_who_drew_three_without_a_pair_weighs_the_floor() -> None:
    """Hand-made: at a decision before any card is played, an opponent whose latest exchange
    drew three (the rule kept a pair) weighs a world in which it holds a pair at 1 and one
    in which it holds five distinct ranks at the floor (its chance of the rules model 1);
    with that chance at 0.5, half of the floor's loss."""
    for game in _early_games(21, 8) + _early_games(22, 8):
        k = knowledge(game.view(0))
        seat = next((s for s, o in k.opponents.items()
                     if opponent_fits(k, o, _some(k, s, pair=True)) is True
                     and o.exchanges and o.exchanges[-1 if s not in k.to_speak_after()
                                                      or k.phase != "exchange" else -2] == 3),
                    None)
        if seat is None:
            continue
        bot = MasterBot(exrule=1, dealrule=1)
        base = [0] * k.players
        good, bad = list(base), list(base)
        good[seat] = sum(1 << c for c in _some(k, seat, pair=True))
        bad[seat] = sum(1 << c for c in _some(k, seat, pair=False))
        assert opponent_fits(k, k.opponents[seat], list(ids_of_mask(bad[seat]))) is False
        bot._kinds = {seat: (1.0, 0.0, 0.0)}
        assert bot._rule_factor(k, good) == 1.0
        assert bot._rule_factor(k, bad) == pytest.approx(_EXRULE_FLOOR)
        bot._kinds = {seat: (0.5, 0.25, 0.25)}
        assert bot._rule_factor(k, bad) == pytest.approx(0.5 * _EXRULE_FLOOR + 0.5)
        bot._kinds = {}
        assert bot._rule_factor(k, bad) == 1.0
        return
    pytest.fail("no opponent who drew three found")


def _some(k: Knowledge, seat: int, *, pair: bool) -> list[int]:
    """Five cards the seat cannot see for ``seat``: a pair and three odd ranks, or five
    distinct ranks below the queen none in a row of five or of one suit."""
    unseen = {int(c) for c in k.unseen}
    by_rank: dict[int, list[int]] = {}
    for c in sorted(unseen):
        by_rank.setdefault(c >> 2, []).append(c)
    out: list[int] = []
    if pair:
        rank = next(r for r in range(13) if len(by_rank.get(r, [])) >= 2)
        out = by_rank[rank][:2]
        used = {rank}
    else:
        used = set()
    for r in (0, 2, 4, 6, 9, 1, 3, 5, 7, 8):
        if len(out) == 5:
            break
        if r in used or not by_rank.get(r):
            continue
        suits = {c & 3 for c in out}
        card = next((c for c in by_rank[r] if c & 3 not in suits), by_rank[r][0])
        out.append(card)
        used.add(r)
    assert len(out) == 5
    return out


def test_every_world_dealt_before_any_card_fits_the_rule_and_the_real_hands_do() -> None:
    """At decisions before any card is played: every world the bot deals fits the view and
    ``basic``'s exchange rule for every opponent read (dealt by rejection, with enough
    tries), and every opponent's real hand fits too — opponents still to make their last
    exchange read by the one before (the rule never rules out the real world)."""
    checked = real = 0
    for game in _early_games(23, 6) + _early_games(24, 6):
        k = knowledge(game.view(0))
        for seat, opp in k.opponents.items():
            cards = [int(c) for c in game.hands[seat]]
            fits = opponent_fits(k, opp, cards)
            assert fits is not False, (k.phase, seat, cards, opp.exchanges)
            real += fits is True
        bot = make_bot("master:exrule=1;dealrule=1;tries=1000")
        assert isinstance(bot, MasterBot)
        _kinds_of(bot, game)
        rng = random.Random(4)
        for _ in range(5):
            hands = bot._sample(k, rng)
            assert consistent(k, hands) == []
            for seat, opp in k.opponents.items():
                assert opponent_fits(k, opp, list(ids_of_mask(hands[seat]))) is not False
            checked += 1
    assert checked >= 40 and real >= 12


@pytest.mark.parametrize("spec", [SPEC, "master:exrule=1;dealrule=1;samples=10",
                                  "master:annrule=1;dealrule=1;samples=10"])
def test_dealrule_decides_by_the_view_alone_fresh_and_with_a_seed(spec: str) -> None:
    """At seat 0's decisions from the third deal (exchanges, announcements, the Chicago
    call, tricks): a bot made fresh decides as the one that played the whole game, a copy of
    the game whose hidden cards are dealt anew (the same view) gets the same choice, and the
    same seed the same choice again."""
    player = make_bot(spec)
    rng = random.Random(7)
    checked = 0

    def compare(game: Game, seat: int) -> None:
        nonlocal checked
        if game.deal_number < 3 or checked >= 24:
            return
        view = game.view(seat)
        legal = game.legal_actions()
        here = player.decide(view, legal, random.Random(checked))
        fresh = make_bot(spec).decide(view, legal, random.Random(checked))
        copy = _relabelled(game, seat, rng)
        assert copy.view(seat) == view
        there = make_bot(spec).decide(copy.view(seat), copy.legal_actions(),
                                      random.Random(checked))
        again = player.decide(view, legal, random.Random(checked))
        assert here == fresh == there == again, (str(game.phase), here, fresh, there)
        checked += 1

    _walk(31, 5, spec, compare)
    assert checked >= 12


def test_the_dealrule_option_is_checked() -> None:
    """``dealrule`` takes 0 or 1 and needs ``exrule=1`` or ``annrule=1`` (not
    ``exrule=2``, whose weight is not a share of the plain one); ``tries`` at least 1."""
    assert MasterBot().dealrule == 0
    bot = make_bot("master:exrule=1;dealrule=1;tries=5")
    assert isinstance(bot, MasterBot) and bot.dealrule == 1 and bot.tries == 5
    for bad in ("master:dealrule=1", "master:exrule=2;dealrule=1",
                "master:exrule=1;dealrule=2", "master:exrule=1;dealrule=0.5"):
        with pytest.raises(ValueError, match="dealrule"):
            make_bot(bad)
    with pytest.raises(ValueError, match="tries"):
        make_bot("master:exrule=1;dealrule=1;tries=0")

"""``basic``'s exchange rule as a weight of the opponents' hands (``master:exrule=1|2``,
:mod:`chicago.bots.exchangerule`): hand-built hands the rule could and could not have left,
the quick test by ranks equal to trying the discards, every real ``basic`` hand after its
last exchange fitting, a hand that breaks the rule weighing less in ``master``, decisions
fixed by the view and a seed, and the option checked; the same for hands holding a
protected combination (R-EX-4), read with ``exkept=1``."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.exchangerule import neutral_discards, opponent_fits, rule_fits
from chicago.bots.master import _EXRULE_FLOOR, MasterBot
from chicago.bots.plausibility import hand_weight
from chicago.cards import Card
from chicago.categories import Category
from chicago.engine.knowledge import Claim, Opponent, knowledge
from test_worldchain import _trick_views

PAGAT = Rules.preset("pagat")


def _cards(text: str) -> list[int]:
    return [int(Card(word)) for word in text.split()]


@pytest.mark.parametrize(("hand", "drawn", "last", "fits"), [
    ("As Ad 7c 4h 2s", 3, False, True),    # kept the pair of aces
    ("As Kd 7c 4h 2s", 3, False, False),   # drew 3 without a pair: the rule keeps a pair
    ("Ks 9d 7c 4h 2s", 4, False, True),    # kept a lone king
    ("Js 9d 7c 4h 2s", 4, False, False),   # a lone jack is thrown: it would have drawn 5
    ("9s 9d 9c 4h 2s", 2, False, True),    # kept trips
    ("9s 9d Ac 4h 2s", 2, True, True),     # kept a pair and an ace (last exchange)
    ("9s 9d Kc 4h 2s", 2, True, False),    # a king beside a pair is thrown
    ("As Ad Kc 4h 2s", 2, True, False),    # a pair of aces has no other ace beside it
    ("9s 8s 6s 2s 2h", 1, False, True),    # kept a four-flush
    ("9s 8h 7c 6d 2h", 1, False, True),    # kept an open-ended four-straight
    ("9s 8h 6c 5d 2h", 1, False, False),   # a gutshot is not kept
    ("9s 8h 7c 6d 5h", 0, False, True),    # stood on a straight
    ("9s 8h 7c 6d 2h", 0, False, False),   # stood on nothing
    ("3s 8h 7c 6d 2h", 5, True, True),     # drew five: anything
])
def test_hands_the_rule_could_and_could_not_have_left(
    hand: str, drawn: int, last: bool, fits: bool
) -> None:
    """Hand-built hands after ``basic`` drew ``drawn`` cards: those whose kept part is not
    what its rule keeps do not fit."""
    assert rule_fits(_cards(hand), drawn, PAGAT, last=last) is fits
    assert rule_fits(_cards(hand), drawn, PAGAT, last=last, fast=False) is fits


def test_the_quick_test_by_ranks_equals_trying_the_discards() -> None:
    """On random hands of every draw count, first or last exchange, the quick test by ranks
    gives the answer of trying neutral discards with the rule itself."""
    rng = random.Random(5)
    for drawn in range(6):
        for last in (False, True):
            for _ in range(600):
                hand = rng.sample(range(52), 5)
                assert rule_fits(hand, drawn, PAGAT, last=last) is rule_fits(
                    hand, drawn, PAGAT, last=last, fast=False), (hand, drawn, last)


def test_neutral_discards_make_nothing_and_avoid_the_hand() -> None:
    """A neutral discard holds none of the excluded cards, no rank of the kept ones and
    nothing from the queen up."""
    kept = _cards("As Ad")
    exclude = sum(1 << c for c in _cards("As Ad 7c 4h 2s"))
    thrown = neutral_discards(kept, 3, exclude)
    assert thrown is not None and len(thrown) == 3
    assert not any(exclude >> c & 1 for c in thrown)
    assert all(c >> 2 < 10 for c in thrown)
    assert len({c >> 2 for c in thrown}) == 3


def _play_phase_games(seed: int, deals: int) -> list[Game]:
    """Copies of a pagat game of four ``basic`` at the first trick decision of each deal."""
    from chicago.sim import derive_seed, duplicate_game
    game = duplicate_game(PAGAT, 4, seed=derive_seed(seed, 0, 1),
                          deck_seed=derive_seed(seed, 0, 2))
    bots = [make_bot("basic") for _ in range(4)]
    rngs = [random.Random(seed * 10 + s) for s in range(4)]
    out: list[Game] = []
    last_deal = 0
    while not game.is_over and game.deal_number <= deals:
        if str(game.phase) == "play" and game.deal_number != last_deal:
            out.append(game.copy())
            last_deal = game.deal_number
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].decide(game.view(seat), game.legal_actions(), rngs[seat]))
    return out


def test_every_real_basic_hand_after_its_last_exchange_fits() -> None:
    """In games of four ``basic``, at each deal's first trick every other seat's real hand
    fits the rule with the count it drew last, as seat 0 saw it (or the rule says
    nothing): the test never rules out the real world of a ``basic`` table."""
    checked = 0
    for seed in range(1, 7):
        for game in _play_phase_games(seed, 8):
            k = knowledge(game.view(0))
            for seat, opp in k.opponents.items():
                cards = [int(c) for c in game.hands[seat]] + [int(c) for c in opp.played]
                fits = opponent_fits(k, opp, cards)
                assert fits is not False, (seat, cards, opp.exchanges)
                checked += fits is True
    assert checked > 40


def test_a_hand_that_breaks_the_rule_weighs_less_in_master() -> None:
    """With a rules player's chance 1, ``exrule=2`` weighs a hand the rule could not have
    left at the floor and one it could at 1; ``exrule=1`` multiplies the hand-made weight by
    the same; an opponent not seen in an earlier deal keeps the hand-made weight."""
    def usable(o: Opponent) -> bool:
        ranks = [c >> 2 for c in o.played]
        return (bool(o.exchanges) and o.exchanges[-1] == 3 and not o.locked and not o.known
                and not o.shown and not o.kept and len(ranks) <= 3
                and len(set(ranks)) == len(ranks))

    k = next(k for seed in range(4, 40) for k in _trick_views(seed, 3)
             if any(usable(o) for o in k.opponents.values()))
    seat, opp = next((s, o) for s, o in k.opponents.items() if usable(o))
    played = [int(c) for c in opp.played]
    ranks = sorted(set(range(13)) - {c >> 2 for c in played})
    need = 5 - len(played)
    # the rest: a pair and odd ranks, or odd ranks only
    paired = [ranks[0] * 4, ranks[0] * 4 + 1] + [r * 4 + 2 for r in ranks[1:need - 1]]
    distinct = [r * 4 + 2 for r in ranks[:need]]
    good, bad = [*played, *paired], [*played, *distinct]
    assert opponent_fits(k, opp, good) is True and opponent_fits(k, opp, bad) is False
    for exrule in (1, 2):
        bot = MasterBot(exrule=exrule)
        bot._kinds = {seat: (1.0, 0.0, 0.0)}
        for cards, rule in ((good, 1.0), (bad, _EXRULE_FLOOR)):
            plain = hand_weight(k, opp, cards)
            want = plain * rule if exrule == 1 else rule
            assert bot._rule_weight(k, seat, cards, plain) == pytest.approx(want)
        bot._kinds = {}
        assert bot._rule_weight(k, seat, bad, 0.3) == 0.3


def test_the_exrule_option_is_checked() -> None:
    """``exrule`` takes 0, 1 or 2 and needs ``infer=3``."""
    assert MasterBot().exrule == 0
    bot = make_bot("master:exrule=2;chain=5")
    assert isinstance(bot, MasterBot) and bot.exrule == 2 and bot.chain == 5
    for bad in ("master:exrule=-1", "master:exrule=3", "master:exrule=1.5",
                "master:exrule=abc", "master:infer=2;exrule=1"):
        with pytest.raises(ValueError, match="exrule"):
            make_bot(bad)
    with pytest.raises(ValueError, match="exrule"):
        MasterBot(exrule=4)


def test_every_real_basic_hand_with_a_protected_combination_fits() -> None:
    """``exkept``'s reading: in games of four ``basic``, at each deal's first trick every
    other seat's real hand that holds a combination protected through the exchanges
    (R-EX-4) fits the rule with the count it drew last; without ``kept`` the rule says
    nothing of those hands."""
    checked = 0
    for seed in range(1, 7):
        for game in _play_phase_games(seed, 8):
            k = knowledge(game.view(0))
            for seat, opp in k.opponents.items():
                if not opp.kept:
                    continue
                cards = [int(c) for c in game.hands[seat]] + [int(c) for c in opp.played]
                assert opponent_fits(k, opp, cards) is None
                fits = opponent_fits(k, opp, cards, kept=True)
                assert fits is not False, (seat, cards, opp.exchanges, opp.kept)
                checked += fits is True
    assert checked > 20


def test_a_protected_pair_after_drawing_two_needs_an_ace_with_exkept() -> None:
    """A ``basic`` player that kept a protected pair and drew two kept an ace beside it (or
    trips): with ``exkept=1`` a hand of the pair and no ace weighs the floor, one with an
    ace the full weight; without it (``exrule=1`` alone) both keep the hand-made weight."""
    k = next(k for seed in range(4, 40) for k in _trick_views(seed, 3)
             if any(not o.locked and o.exchanges and not o.known and not o.shown
                    for o in k.opponents.values()))
    seat, opp = next((s, o) for s, o in k.opponents.items()
                     if not o.locked and o.exchanges and not o.known and not o.shown)
    opp = replace(opp, exchanges=[*opp.exchanges[:-1], 2],
                  kept=(Claim(1, Category.PAIR),))
    k.opponents[seat] = opp
    with_ace = _cards("9s 9d Ac 7h 2s")
    without = _cards("9s 9d Kc 7h 2s")
    assert opponent_fits(k, opp, with_ace, kept=True) is True
    assert opponent_fits(k, opp, without, kept=True) is False
    assert opponent_fits(k, opp, without) is None
    on = MasterBot(exrule=1, exkept=1)
    off = MasterBot(exrule=1)
    for bot in (on, off):
        bot._kinds = {seat: (1.0, 0.0, 0.0)}
    assert on._rule_weight(k, seat, without, 0.5) == pytest.approx(0.5 * _EXRULE_FLOOR)
    assert on._rule_weight(k, seat, with_ace, 0.5) == pytest.approx(0.5)
    assert off._rule_weight(k, seat, without, 0.5) == 0.5


def test_the_exkept_option_is_checked() -> None:
    """``exkept`` takes 0 or 1 and needs ``exrule``."""
    assert MasterBot().exkept == 0
    bot = make_bot("master:exrule=1;exkept=1")
    assert isinstance(bot, MasterBot) and bot.exkept == 1 and bot.exrule == 1
    for bad in ("master:exkept=1", "master:exrule=1;exkept=2", "master:exrule=1;exkept=0.5",
                "master:exrule=1;exkept=-1", "master:exrule=1;exkept=abc"):
        with pytest.raises(ValueError, match="exkept"):
            make_bot(bad)
    with pytest.raises(ValueError, match="exkept"):
        MasterBot(exrule=2, exkept=3)

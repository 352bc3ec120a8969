"""``basic``'s announcements and passes as evidence of the opponents' hands
(``master:annrule=1``, :mod:`chicago.bots.announcerule`): the words a hand would say
(R-ANN-1, R-ANN-2: only the exact category, only when at least the highest so far; a weak
pair passed), hand-built hands that could and could not have said a word before the last
exchange, every real ``basic`` hand fitting its word, a hand that breaks it weighing less in
``master``, and the option checked."""

from __future__ import annotations

import random

import pytest

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.announcerule import (
    Word,
    earlier_values,
    opponent_word_fits,
    says,
    word_fits,
    words_of,
)
from chicago.bots.master import _EXRULE_FLOOR, MasterBot
from chicago.bots.plausibility import hand_weight
from chicago.cards import Card
from chicago.engine.knowledge import Opponent, knowledge
from chicago.poker import Category
from test_exchangerule import _play_phase_games

PAGAT = Rules.preset("pagat")
_C = Category


def _cards(text: str) -> list[int]:
    return [int(Card(word)) for word in text.split()]


def _word(category: Category | None, stages: tuple[int, ...] = (),
          before: Category | None = None, after: int = 0) -> Word:
    return Word(2, category, stages, before, after)


@pytest.mark.parametrize(("word", "category", "ranks", "said"), [
    (_word(_C.PAIR), _C.PAIR, (9, 14, 7, 3), True),              # R-ANN-1: its category
    (_word(_C.PAIR, (9,)), _C.PAIR, (8, 14, 7, 3), False),       # the revealed rank is 9
    (_word(_C.PAIR), _C.TWO_PAIR, (9, 8, 3), False),             # only the exact category
    (_word(None), _C.HIGH_CARD, (13, 9, 7, 4, 2), True),         # nothing to announce
    (_word(None), _C.PAIR, (9, 13, 7, 4), False),                # a pair of nines: announced
    (_word(None, before=_C.TWO_PAIR), _C.PAIR, (9, 13, 7, 4), True),  # R-ANN-2: not offered
    (_word(None, before=_C.PAIR), _C.PAIR, (9, 13, 7, 4), False),     # an equal one is
    (_word(None, after=2), _C.PAIR, (6, 13, 7, 4), True),        # a weak pair hidden
    (_word(None, after=1), _C.PAIR, (6, 13, 7, 4), False),       # only with two still to speak
    (_word(None, after=3), _C.PAIR, (7, 13, 6, 4), False),       # sevens are not weak
])
def test_the_words_basic_says_R_ANN_1_R_ANN_2(
    word: Word, category: Category, ranks: tuple[int, ...], said: bool
) -> None:
    """``basic`` announces its exact category when offered (at least the highest so far)
    and passes only a hand without a pair, one whose category was not offered, or a pair of
    sixes or lower with at least two players still to speak."""
    assert says(word, category, ranks, PAGAT) is said


@pytest.mark.parametrize(("hand", "drawn", "word", "fits"), [
    ("9s 9d Kc Kh 2s", 1, _word(_C.TWO_PAIR), True),      # kept both pairs
    ("9s 8s 6s 2s 2h", 1, _word(_C.TWO_PAIR), False),     # a flush draw was no two pair
    ("9s 8s 6s 2s Kh", 1, _word(None), True),             # kept a flush draw from nothing
    ("9s 9d 7c 7h Ks", 1, _word(None), False),            # two pairs would be announced
    ("9s 9d 7c 7h Ks", 1, _word(None, before=_C.THREE_OF_A_KIND), True),
    ("9s 9d 9c Ah 2s", 1, _word(_C.THREE_OF_A_KIND), True),   # trips and an ace kept
    ("9s 9d Ac 4h 2s", 2, _word(_C.THREE_OF_A_KIND), False),  # a pair and an ace kept
    ("9s 9d 7c 4h 2s", 3, _word(_C.PAIR, (9,)), True),
    ("9s 9d 7c 7h 2s", 3, _word(_C.PAIR, (7,)), True),    # the sevens kept, the nines drawn
    ("9s 9d 7c 4h 2s", 3, _word(_C.PAIR, (8,)), False),   # no pair of eights among them
    ("4s 4d 9c 8h 2s", 3, _word(None, after=2), True),    # a weak pair passed
    ("4s 4d 9c 8h 2s", 3, _word(None, after=0), False),
    ("Ks 9d 7c 4h 2s", 4, _word(_C.PAIR), False),         # a pair is kept, not a king
    ("Ks 9d 7c 4h 2s", 4, _word(None), True),
    ("3s 8h 7c 6d 2h", 5, _word(None), True),             # drew five from nothing
])
def test_hands_that_could_and_could_not_have_said_the_word(
    hand: str, drawn: int, word: Word, fits: bool
) -> None:
    """Five cards after a last exchange of ``drawn``: a part the exchange rule kept, beside
    a neutral discard, must have said the word of the round before."""
    assert word_fits(_cards(hand), drawn, word, PAGAT) is fits


def test_the_exchange_rule_is_left_to_exrule() -> None:
    """Cards the exchange rule cannot explain (drew 3 without a pair) get no answer: that is
    ``exrule``'s weight; the earlier hands of a memo are the same as without it."""
    assert earlier_values(_cards("As Kd 7c 4h 2s"), 3, PAGAT) == ()
    assert word_fits(_cards("As Kd 7c 4h 2s"), 3, _word(_C.PAIR), PAGAT) is None
    memo: dict[tuple[int, int], tuple[tuple[Category, tuple[int, ...]], ...]] = {}
    cards = _cards("9s 9d 7c 7h Ks")
    assert earlier_values(cards, 1, PAGAT, memo) == earlier_values(cards, 1, PAGAT)
    assert earlier_values(cards, 1, PAGAT, memo) == earlier_values(cards, 1, PAGAT, memo)


def test_every_real_basic_hand_fits_its_word() -> None:
    """In games of four ``basic``, at each deal's first trick every other seat's real hand
    could have said its word before the last exchange, as seat 0 saw it (or the rule says
    nothing): the real world of a ``basic`` table is never ruled out."""
    read = 0
    for seed in range(1, 7):
        for game in _play_phase_games(seed, 8):
            view = game.view(0)
            k = knowledge(view)
            words = words_of(view, k)
            for seat, opp in k.opponents.items():
                cards = [int(c) for c in game.hands[seat]] + [int(c) for c in opp.played]
                fits = opponent_word_fits(k, opp, cards, words.get(seat))
                assert fits is not False, (seat, cards, opp.exchanges, words.get(seat))
                read += fits is True
    assert read > 40


def test_a_hand_that_breaks_its_word_weighs_less_in_master() -> None:
    """With a rules player's chance 1, ``annrule=1`` multiplies the hand-made weight of a
    hand whose earlier hand would not have said the opponent's word by the floor, and of
    one that would by 1; an opponent not seen in an earlier deal keeps the hand-made
    weight."""
    def usable(o: Opponent, words: dict[int, Word]) -> bool:
        word = words.get(o.seat)
        return (word is not None and word.category is None and word.highest_before is None
                and o.exchanges[-1] == 1 and not o.played and not o.known and not o.shown)

    found = None
    for seed in range(1, 60):
        for game in _play_phase_games(seed, 8):
            view = game.view(0)
            k = knowledge(view)
            words = words_of(view, k)
            seat = next((s for s, o in k.opponents.items() if usable(o, words)), None)
            if seat is not None:
                found = (k, words, seat)
                break
        if found:
            break
    assert found is not None
    k, words, seat = found
    opp = k.opponents[seat]
    unseen = sorted(int(c) for c in k.unseen)
    rng = random.Random(0)
    tried = [rng.sample(unseen, 5) for _ in range(3000)]
    # a pass before drawing one: e.g. a four-flush from nothing fits, two pairs do not
    fitting = next(h for h in tried if opponent_word_fits(k, opp, h, words[seat]) is True)
    breaking = next(h for h in tried if opponent_word_fits(k, opp, h, words[seat]) is False)
    assert opponent_word_fits(k, opp, fitting, words[seat]) is True
    assert opponent_word_fits(k, opp, breaking, words[seat]) is False
    bot = MasterBot(annrule=1)
    bot._kinds = {seat: (1.0, 0.0, 0.0)}
    bot._words = words
    for cards, rule in ((fitting, 1.0), (breaking, _EXRULE_FLOOR)):
        plain = hand_weight(k, opp, cards)
        assert bot._rule_weight(k, seat, cards, plain) == pytest.approx(plain * rule)
    bot._kinds = {}
    assert bot._rule_weight(k, seat, breaking, 0.3) == 0.3


def test_the_words_are_read_at_trick_play_only() -> None:
    """Before the exchanges are over nobody's word is read; at trick play each opponent who
    exchanged after a scoring round has the word of the round before its last exchange."""
    fresh = Game(PAGAT, players=4, seed=3)
    view = fresh.view(fresh.to_act)
    assert words_of(view, knowledge(view)) == {}
    for game in _play_phase_games(5, 2):
        view = game.view(0)
        k = knowledge(view)
        assert words_of(view, k)
        assert all(word.round == PAGAT.exchanges - 1 for word in words_of(view, k).values())


def test_master_reads_the_words_when_it_decides_a_trick() -> None:
    """R-ANN-1, R-TRICK-2: ``master:annrule=1`` reads each opponent's word from the view it
    is asked to decide (not only when a test hands it the words): after a trick decision
    with a choice its words are ``words_of`` that view's, and without ``annrule`` none."""
    checked = 0
    for game in _play_phase_games(5, 4):
        view = game.view(game.to_act)
        legal = game.legal_actions()
        if len(legal) < 2:
            continue
        k = knowledge(view)
        expected = words_of(view, k)
        reading = MasterBot(annrule=1, samples=4)
        reading.decide(view, legal, random.Random(1))
        assert reading._words == expected
        plain = MasterBot(samples=4)
        plain.decide(view, legal, random.Random(1))
        assert plain._words == {}
        checked += bool(expected)
    assert checked


def test_the_annrule_option_is_checked() -> None:
    """``annrule`` takes 0 or 1 and needs ``infer=3``."""
    assert MasterBot().annrule == 0
    bot = make_bot("master:annrule=1;exrule=1")
    assert isinstance(bot, MasterBot) and bot.annrule == 1 and bot.exrule == 1
    for bad in ("master:annrule=-1", "master:annrule=2", "master:annrule=0.5",
                "master:annrule=abc", "master:infer=2;annrule=1"):
        with pytest.raises(ValueError, match="annrule"):
            make_bot(bad)
    with pytest.raises(ValueError, match="annrule"):
        MasterBot(annrule=3)


def test_the_quick_earlier_hands_by_ranks_equal_trying_the_discards() -> None:
    """On random hands of every draw count, the earlier hands read from the ranks alone are
    those found by trying neutral discards with the exchange rule itself."""
    rng = random.Random(9)
    for drawn in range(6):
        for _ in range(600):
            hand = rng.sample(range(52), 5)
            assert earlier_values(hand, drawn, PAGAT) == earlier_values(
                hand, drawn, PAGAT, fast=False), (hand, drawn)

"""``master:block=X`` (issue 30): in the trick search, where an opponent would reach the
target with the last trick (R-TRICK-4: only the fifth trick scores; R-END-1: the first to
the target wins), a card after which no such opponent can make sure of the last trick
earns a share of the trick's points, even when another opponent could take it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.expert import best_card
from chicago.bots.master import MasterBot, finishing_seats
from chicago.bots.solver import Position, can_win_last_trick, last_trick_values
from chicago.cards import Card, mask_of
from chicago.engine.actions import Action
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.viewtypes import SeatView
from master_cases import check_option, position_scores
from script_loader import load_script

_RULES = Rules.preset("pagat")

# Two tricks left, seat 0 to lead (found by a search over random deals): after 6c seat 2
# takes the fourth trick with Qc and leads 9s, which seat 1's As wins; after Jh nobody
# follows, seat 0 leads 6c to the fifth trick and seat 2's Qc takes it. Seat 0 is sure of
# the last trick with neither card, and neither card leaves the trick open.
_HANDS = (("6c", "Jh"), ("As", "6s"), ("Qc", "9s"), ("4d", "Td"))
_POSITION = Position(tuple(mask_of([Card(c) for c in hand]) for hand in _HANDS), 0)
_LEAD, _BLOCK = Card("6c"), Card("Jh")


def _knowledge(scores: list[int]) -> Knowledge:
    """Seat 0's knowledge of a fresh pagat game, with the scores set."""
    k = knowledge(Game(_RULES, 4, seed=1).view(0))
    k.scores = list(scores)
    return k


def _scores(spec: str, k: Knowledge) -> dict[Card, float]:
    return position_scores(spec, k, _POSITION)


def test_the_option_is_parsed_and_checked() -> None:
    """``block`` is off by default and takes a share from 0 to 1."""
    check_option("block", "block", 0, "0.5", 0.5, ("-0.1", "1.5"))
    with pytest.raises(ValueError):
        MasterBot(block=2)


def test_finishing_seats_are_the_opponents_one_last_trick_from_the_target_R_END_1() -> None:
    """pagat: target 52, the last trick 5 points, so an opponent at 47 or more."""
    assert finishing_seats(_knowledge([50, 46, 30, 47])) == (3,)
    assert finishing_seats(_knowledge([10, 47, 52, 49])) == (1, 2, 3)
    assert finishing_seats(_knowledge([50, 0, 0, 0])) == ()


def test_the_constructed_position_is_what_the_test_says_R_TRICK_4() -> None:
    assert not any(last_trick_values(_POSITION, points=5).values())
    assert can_win_last_trick(_POSITION.play(_LEAD), 1)
    assert not can_win_last_trick(_POSITION.play(_BLOCK), 1)
    assert can_win_last_trick(_POSITION.play(_BLOCK), 2)


def test_block_turns_the_card_away_from_the_finishing_player_R_TRICK_4() -> None:
    """With seat 1 at 48 the blocking card earns ``block`` of the trick's points and becomes
    the choice; without the option both cards are worth the same and the tie-break (here the
    rules of thumb's card, the lead) decides."""
    k = _knowledge([30, 48, 20, 20])
    off = _scores("master", k)
    on = _scores("master:block=1", k)
    assert off[_LEAD] == pytest.approx(off[_BLOCK])
    assert on[_LEAD] == pytest.approx(off[_LEAD])
    assert on[_BLOCK] == pytest.approx(off[_BLOCK] + _RULES.last_trick_points)
    assert best_card(off, _LEAD) == _LEAD
    assert best_card(on, _LEAD) == _BLOCK
    half = _scores("master:block=0.5", k)
    assert half[_BLOCK] == pytest.approx(off[_BLOCK] + _RULES.last_trick_points / 2)


def test_block_is_idle_when_nobody_is_about_to_finish() -> None:
    """Seat 1 at 46 (51 with the trick): nothing changes; nor for seat 2 at 50, whom the
    blocking card lets take the trick (only a card that stops every finishing seat counts)."""
    assert _scores("master:block=1", _knowledge([30, 46, 20, 20])) == _scores(
        "master", _knowledge([30, 46, 20, 20]))
    both = _knowledge([30, 48, 50, 20])
    assert _scores("master:block=1", both) == _scores("master", both)


def _threatened(seed: int) -> Iterator[tuple[SeatView, list[Action]]]:
    """Trick decisions with a choice, of a seeded game played by four ``basic``, in deals
    where an opponent of the seat to act is one last trick from the target."""
    game = Game(_RULES, 4, seed=seed)
    driver = make_bot("basic")
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        legal = game.legal_actions()
        if view.phase == "play" and len(legal) > 1:
            k = knowledge(view)
            if k.declarer is None and finishing_seats(k):
                yield view, legal
        game.apply(driver.decide(view, legal, rng))


def test_block_is_seeded_and_changes_real_trick_choices() -> None:
    """On the trick decisions of seeded games with a finishing opponent: the same seed gives
    the same card, and with ``block=1`` some cards differ from ``master``'s; the bot notes
    the decisions where the option applied (``bench_disagreements.py --noted``)."""
    on = make_bot("master:block=1;samples=16")
    again = make_bot("master:block=1;samples=16")
    off = make_bot("master:samples=16")
    asked = changed = 0
    for seed in (2, 3):
        for view, legal in _threatened(seed):
            asked += 1
            first = on.decide(view, legal, random.Random(asked))
            assert isinstance(on, MasterBot) and on.note is not None  # for --noted
            assert again.decide(view, legal, random.Random(asked)) == first
            if off.decide(view, legal, random.Random(asked)) != first:
                changed += 1
    assert asked > 10
    assert changed > 0


def test_the_decision_tool_with_noted_asks_only_where_the_bot_noted() -> None:
    """``bench_disagreements.py --noted``: a bot that never leaves a note (``ev``) is never
    compared, while its game is the same (the same decisions counted, the same deals)."""
    tool = load_script("benchmarks/bench_disagreements.py")
    task = ("ev", "basic", "basic", Rules.preset("pagat", max_deals=3).to_dict(), 2026, 0,
            1, 1, "basic", [])
    every = tool._one_game(task)
    noted = tool._one_game((*task, True))
    assert every["disagreements"] and not noted["disagreements"]
    assert every["decisions"] == noted["decisions"] and every["deals"] == noted["deals"]


def test_the_phase_split_counts_calls_locks_and_times_R_EX_5() -> None:
    """``bench_phase_split.py``: per seat, Chicagos made no more than declared, deals begun
    locked no more than the deals, and a CPU time for every phase a seat decided in."""
    tool = load_script("benchmarks/bench_phase_split.py")
    record = tool.play("basic", "basic", _RULES, 2026, 0, 4)
    for seat in range(4):
        assert record["made"][seat] <= record["calls"][seat]
        assert record["locked"][seat] <= record["deals"]
        assert {"exchange", "play"} <= set(record["times"][seat])
        for count, total, worst in record["times"][seat].values():
            assert count >= 1 and total >= worst >= 0
    assert any(record["locked"])  # someone ends at 46 or more before the game's last deal

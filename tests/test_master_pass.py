"""``master:keepodds=1`` (issue 30): the exchanges value the cards kept for the last trick
(R-TRICK-4: only the fifth trick scores) by ``master``'s own chance of taking it with them,
measured against three ``basic``, instead of ``ev``'s rough table, which was made for a
player of ``ev``'s strength at the tricks; and ``benchmarks/bench_phase_split.py``, which
splits a seat's points by their source (R-ANN-6, R-FIN-1, R-TRICK-4, R-CHI-3/4)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import ModuleType

import pytest

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.ev import last_trick_chance
from chicago.bots.master import (
    MASTER_CARD_CHANCE,
    MASTER_DRAWN_CHANCE,
    MasterBot,
    master_trick_chance,
)
from chicago.cards import Card
from chicago.engine.actions import Action, ActionKind
from chicago.engine.viewtypes import SeatView
from master_cases import check_option
from script_loader import load_script

_RULES = Rules.preset("pagat")


def _exchanges(seed: int, deals: int) -> Iterator[tuple[SeatView, list[Action]]]:
    """Every exchange decision with a choice of a seeded game played by four ``basic``
    (their choices drive the game; the bots under test are only asked)."""
    game = Game(_RULES, 4, seed=seed)
    driver = make_bot("basic")
    rng = random.Random(seed)
    while not game.is_over and game.deal_number <= deals:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        legal = game.legal_actions()
        if view.phase == "exchange" and len(legal) > 1:
            yield view, legal
        game.apply(driver.decide(view, legal, rng))


def _kept(view: SeatView, action: Action) -> list[Card]:
    assert action.kind is ActionKind.DISCARD
    return [c for c in view.hand if c not in action.cards]


def _aces(cards: list[Card]) -> int:
    return sum(1 for c in cards if c.rank == 14)


def test_the_option_is_parsed_and_checked() -> None:
    """``keepodds`` is off by default and takes 0, 1 or 2 only."""
    check_option("keepodds", "keepodds", 0, "1", 1, ("-1", "0.5"))


def test_master_s_chances_credit_an_ace_more_than_ev_s_R_TRICK_4() -> None:
    """The same model as ``ev``'s (one minus the product of each card's miss), with
    ``master``'s chances: an ace kept alone with four to draw is worth about twice ``ev``'s
    chance, and every kept card raises the chance."""
    ace = [Card("As")]
    expected = 1 - (1 - MASTER_CARD_CHANCE[14]) * (1 - MASTER_DRAWN_CHANCE) ** 4
    assert master_trick_chance(ace, 4) == pytest.approx(expected)
    assert master_trick_chance(ace, 4) > 1.5 * last_trick_chance(ace, 4)
    assert master_trick_chance([Card("As"), Card("Ah")], 3) > master_trick_chance(ace, 4)
    assert master_trick_chance(ace, 4) > master_trick_chance([Card("Ks")], 4)
    assert master_trick_chance([Card("Ks")], 4) > master_trick_chance([Card("2s")], 4)
    assert master_trick_chance([], 5) == pytest.approx(1 - (1 - MASTER_DRAWN_CHANCE) ** 5)


def test_keepodds_2_changes_the_ace_alone_R_TRICK_4() -> None:
    """``keepodds=2``: ``ev``'s chances for every card but an ace (kings, lower cards and
    the cards to draw as ``ev`` has them), an ace at ``master``'s."""
    no_ace = [Card("Kd"), Card("7c")]
    assert master_trick_chance(no_ace, 3, True) == pytest.approx(last_trick_chance(no_ace, 3))
    with_ace = [Card("Ah"), *no_ace]
    expected = 1 - (1 - last_trick_chance(no_ace, 2)) * (1 - MASTER_CARD_CHANCE[14])
    assert master_trick_chance(with_ace, 2, True) == pytest.approx(expected)
    bot = make_bot("master:keepodds=2")
    assert isinstance(bot, MasterBot) and bot.keepodds == 2
    with pytest.raises(ValueError):
        make_bot("master:keepodds=3")


def test_keepodds_keeps_aces_that_ev_s_odds_throw_away_R_EX_1() -> None:
    """On seeded games (the same views, the same random state for both bots): where
    ``keepodds=1`` exchanges otherwise than ``master``, it never keeps fewer aces, and at
    some decisions keeps an ace ``master`` throws away (a flush draw given up for it)."""
    plain = make_bot("master")
    odds = make_bot("master:keepodds=1")
    differing = more = 0
    for seed in (4, 5):
        for view, legal in _exchanges(seed, 3):
            a = plain.decide(view, legal, random.Random(1))
            b = odds.decide(view, legal, random.Random(1))
            assert b in legal
            if a == b:
                continue
            differing += 1
            assert _aces(_kept(view, b)) >= _aces(_kept(view, a))
            more += _aces(_kept(view, b)) > _aces(_kept(view, a))
    assert differing >= 2 and more >= 2


def test_keepodds_is_seeded_and_off_is_master() -> None:
    """A seed fixes every choice (two bots, the same view and seed, the same action), and
    ``keepodds=0`` is ``master`` at every exchange."""
    plain = make_bot("master")
    off = make_bot("master:keepodds=0")
    first = make_bot("master:keepodds=1")
    second = make_bot("master:keepodds=1")
    for view, legal in _exchanges(5, 2):
        assert off.decide(view, legal, random.Random(7)) == plain.decide(
            view, legal, random.Random(7))
        assert first.decide(view, legal, random.Random(7)) == second.decide(
            view, legal, random.Random(7))


def _split() -> ModuleType:
    return load_script("benchmarks/bench_phase_split.py")


def test_the_phase_split_adds_up_to_the_scores_R_END_1() -> None:
    """Four ``basic`` (whose Chicago is sure, so no score is cut at zero): each seat's
    points by source add up to its final score, and the game ends at the target."""
    tool = _split()
    record = tool.play("basic", "basic", _RULES, 2026, 0, 4)
    for seat in range(4):
        assert sum(record["reasons"][seat].values()) == record["scores"][seat]
    assert max(record["scores"]) >= _RULES.target
    assert set(record["reasons"][record["me"]]) <= {
        "round 1", "round 2", "final showdown", "last trick", "Chicago", "Chicago failed"}


def test_the_decision_tool_asks_the_shadow_only_in_the_phases_named() -> None:
    """``bench_disagreements.py --phases exchange``: the shadow is asked at the exchanges
    only (R-EX-1), so no other phase has a disagreement, while the bot's own game is the
    same (the same decisions counted, the same deals)."""
    tool = load_script("benchmarks/bench_disagreements.py")
    task = ("ev", "basic", "basic", Rules.preset("pagat", max_deals=3).to_dict(), 2026, 0,
            1, 1, "basic")
    every = tool._one_game(task)
    exchanges = tool._one_game((*task, ["exchange"]))
    phases = {case["phase"] for case in every["disagreements"]}
    assert any(not p.startswith("exchange") for p in phases)
    assert {case["phase"] for case in exchanges["disagreements"]} <= {
        p for p in phases if p.startswith("exchange")}
    def which(cases: list[dict[str, object]]) -> list[tuple[object, ...]]:
        # the play-outs' seeds count the disagreements found before, so only the decisions
        # themselves are compared
        return [(c["deal"], c["phase"], c["bot"], c["expert"]) for c in cases]

    assert which([c for c in every["disagreements"] if c["phase"].startswith("exchange")]) == (
        which(exchanges["disagreements"]))
    assert every["decisions"] == exchanges["decisions"] and every["deals"] == (
        exchanges["deals"])

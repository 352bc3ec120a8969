"""A quick built-in bot's forced move is played without asking it (issue 28, the
twenty-second pass, docs/SERVER.md): the scheduler plays the one legal action itself, as
each quick level would, and builds no view for it."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

from accelerator_cases import OPTIONS, derandomized, draw_table
from hypothesis import given
from hypothesis import strategies as st

from chicago import Game
from chicago.bots import make_bot
from chicago.seeding import SeededOnUse
from chicago.server.clock import SystemClock
from chicago.server.schedule import QUICK_LEVELS, TurnScheduler
from chicago.server.settings import Settings
from chicago.server.tasks import Tasks
from chicago.server.views import PublicViews


@derandomized(25)
@given(st.data())
def test_each_quick_level_plays_a_forced_move_as_the_scheduler_does(data: st.DataObject
                                                                     ) -> None:
    """On random games of every preset and variation (2-6 seats), whenever the seat to act
    has one legal action, every level of :data:`QUICK_LEVELS` asked about it answers that
    action: the scheduler, which no longer asks, plays what it would have played."""
    rules, players, seed = draw_table(data.draw, OPTIONS, max_deals=3)
    game = Game(rules, players=players, seed=seed)
    bots = {level: make_bot(level) for level in sorted(QUICK_LEVELS)}
    rng = random.Random(seed)
    forced = 0
    for step in range(400):
        if game.is_over:
            break
        legal = game.legal_actions()
        seat = game.to_act
        assert seat is not None
        if len(legal) == 1:
            forced += 1
            view = game.view(seat)
            for level, bot in bots.items():
                assert bot.decide(view, legal, SeededOnUse(f"s:{step}:{seat}")) == legal[0], level
        game.apply(rng.choice(legal))
    assert forced or game.is_over or step < 399


def _scheduler() -> TurnScheduler:
    def never(*_: Any) -> Any:
        raise AssertionError("no timer fires in this test")

    return TurnScheduler(Settings(db_url="sqlite://", static_dir=None), Tasks(),
                         bot_turn=never, clock_ran_out=never, pause_over=never,
                         answers_over=never, clock=SystemClock())


def _table(game: Game) -> Any:
    """What :meth:`TurnScheduler.decide` reads of a live table."""
    return SimpleNamespace(id="t", bots={}, views=PublicViews(),
                           state=SimpleNamespace(current=game, row=SimpleNamespace(secret="x")))


def test_a_forced_move_builds_no_view_and_a_choice_does() -> None:
    """At every turn of a random game, the scheduler's ``basic`` and ``random`` bots decide
    what the bot decides on the seat's view; a forced move (one legal action) leaves the
    table's shared views empty (before this pass the view of the seat was built, its public
    part held), a choice builds the seat's view."""
    scheduler = _scheduler()
    game = Game(players=4, seed=7)
    rng = random.Random(7)
    forced = chosen = 0
    for seq in range(300):
        if game.is_over:
            break
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        for level in sorted(QUICK_LEVELS):
            table = _table(game)
            action = asyncio.run(scheduler.decide(table, seat, level, seq, game))
            expected = make_bot(level).decide(game.view(seat), legal,
                                               SeededOnUse(f"x:{seq}:{seat}"))
            assert action == expected
            assert len(table.views) == (0 if len(legal) == 1 else 1)
        forced += len(legal) == 1
        chosen += len(legal) > 1
        game.apply(rng.choice(legal))
    assert forced and chosen

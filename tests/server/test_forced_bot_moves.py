"""A quick built-in bot's forced move is played without asking it (issue 28, the
twenty-second pass, docs/SERVER.md): the scheduler plays the one legal action itself, as
each quick level would, and builds no view for it."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from server_support import count_parses
from table_waits import until_table

from accelerator_cases import OPTIONS, derandomized, draw_table
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


def test_a_bots_action_is_applied_without_being_read_again(monkeypatch: Any) -> None:
    """:func:`chicago.server.core.decide.act` takes a bot's chosen
    :class:`~chicago.engine.actions.Action` as it is (before this pass the replies were
    written out and read back: ``Action.parse`` once more per reply), stores the same
    entry as its text would, refuses an illegal one as ever, and still reads a person's
    text strictly."""
    from test_preview import T0, _playing_table

    from chicago.server.core import decide
    from chicago.server.protocol import TableError

    state = _playing_table(seed=3, moves=5)
    game = state.current
    seat = game.to_act
    assert seat is not None
    action = game.legal_actions()[-1]
    parsed = count_parses(monkeypatch)
    by_action = decide.act(state, seat, action, "bot", at=T0 + 3)
    assert parsed == []
    by_text = decide.act(state, seat, str(action), "bot", at=T0 + 3)
    assert parsed  # a text is read
    assert [e.data for e in by_action.change.entries] == [e.data for e in by_text.change.entries]
    assert by_action.games[-1].actions == by_text.games[-1].actions
    other = next(a for a in Game(players=4, seed=99).legal_actions()
                 if a not in game.legal_actions())
    for bad in (other, "play", "discard Zz", 7):
        try:
            decide.act(state, seat, bad, "player", at=T0 + 3)  # type: ignore[arg-type]
        except TableError as exc:
            assert exc.code == "illegal_action"
        else:
            raise AssertionError(f"{bad!r} was accepted")


def test_a_persons_move_reads_one_text_however_many_bots_reply(tmp_path: Any,
                                                              monkeypatch: Any) -> None:
    """At a table of one person and three ``basic`` bots (no connection, so no frame
    reads an action), each of the person's moves reads exactly one text, the person's:
    the bots' replies stored with it are applied as the actions they chose (before this
    pass each reply's text was read again, one ``Action.parse`` per reply), and the
    stored log holds the same texts."""
    from chicago import Rules
    from chicago.engine.actions import Action
    from chicago.server.core.decide import TableSpec
    from chicago.server.core.seats import TableOptions
    from chicago.server.storage import Store
    from chicago.server.tables import TableManager

    parsed: list[object] = []

    async def scenario() -> tuple[list[int], list[str]]:
        url = f"sqlite:///{tmp_path / 'parse.sqlite3'}"
        store = Store(url)
        store.migrate()
        manager = TableManager(store, Settings(db_url=url, seed=3, review_workers=0,
                                               bot_threads=False, resume_tables=False))
        await manager.start()
        try:
            table = await manager.create(TableSpec(
                Rules.preset("pagat"), ["open", "bot:basic", "bot:basic", "bot:basic"],
                TableOptions()))
            await manager.join(table.id, 0, "Anna")
            rng = random.Random(5)
            reads, replies = [], 0
            for _ in range(12):
                state = table.state
                # the bots before her move on their (0 s) timers
                await until_table(manager, table.id, lambda now=state: now.current.is_over
                                  or now.current.to_act == 0 or bool(now.pause))
                if state.current.is_over or state.current.to_act != 0 or state.pause:
                    break
                before = state.seq
                parsed.clear()
                count_parses(monkeypatch, parsed)
                await manager.act(table, 0, str(rng.choice(state.current.legal_actions())))
                monkeypatch.undo()
                reads.append(len(parsed))
                replies += sum(1 for e in table.state.entries
                               if e.seq > before and e.kind == "act" and e.seat != 0)
            assert replies > 0
            texts = [e.data["action"] for e in table.state.entries if e.kind == "act"]
            return reads, texts
        finally:
            await manager.stop()

    reads, texts = asyncio.run(scenario())
    assert reads and set(reads) == {1}
    assert all(str(Action.parse(t)) == t for t in texts)

"""A table's public views, made once per state and shared (:mod:`chicago.server.views`):
each audience's view and update state made from them are those made afresh, a game changed
in place is worked out again, and a table holds few states (issue 28)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.engine.viewjson import public_state, seat_state
from chicago.rules import PRESETS
from chicago.server.views import KEEP, PublicViews


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), st.integers(2, 4), st.integers(0, 2**32))
def test_shared_views_are_the_views_made_afresh_V_HIDDEN(preset: str, players: int,
                                                           seed: int) -> None:
    """At every action of a random game, played in place (as a table that follows another
    worker's entries does) and as copies (as the table manager's actions are), the
    shared public part gives each seat ``game.view(seat)`` and each audience the update
    state of :func:`~chicago.engine.viewjson.seat_state` from nothing: no seat gets
    another's cards."""
    views = PublicViews()
    game = Game(Rules.preset(preset), players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(120):  # the first deals' actions
        if game.is_over:
            break
        for played in (game, game.copy()):
            for seat in [None, *range(players)]:
                assert views.seat_view(played, seat) == played.view(seat)
                assert (seat_state(played, seat, views.public_state(played))
                        == seat_state(played, seat, public_state(played)))
        game.apply(rng.choice(game.legal_actions()))


def test_a_table_holds_few_states() -> None:
    """At most :data:`KEEP` states are held, and after a change is published only the
    table's current one."""
    views = PublicViews()
    game = Game(Rules.preset("pagat"), players=4, seed=1)
    games = [game]
    for _ in range(KEEP + 3):
        game = game.copy()
        game.apply(game.legal_actions()[0])
        games.append(game)
        views.public_state(game)
    assert len(views._held) == KEEP
    views.keep(games[-1])
    assert list(views._held) == [id(games[-1])]
    views.keep(None)
    assert views._held == {}


WAIT = 30.0
"""Seconds a test waits for one frame before it fails: the bound for a hang."""


class _Connection:
    """A connection of a seat that keeps nothing it is sent, but says that a frame came
    (:attr:`sent`)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.token_hash: str | None = None
        self.grant: str | None = None
        self.closed = False
        self.batched = False
        self.sent = asyncio.Event()

    def send(self, text: str) -> None:
        self.sent.set()

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = True


def _table_after_a_person_move(bot_delay: float, db: Path) -> int:
    """The public views a table of one person (connected) and three ``basic`` bots holds
    once the person's first action (and what followed it at once) is stored and sent."""
    from chicago.server.core.decide import TableSpec
    from chicago.server.core.seats import TableOptions
    from chicago.server.settings import Settings
    from chicago.server.storage import Store
    from chicago.server.tables import TableManager

    async def scenario() -> int:
        url = f"sqlite:///{db}"
        store = Store(url)
        store.migrate()
        manager = TableManager(store, Settings(db_url=url, seed=3, review_workers=0,
                                               bot_threads=False, resume_tables=False))
        await manager.start()
        try:
            table = await manager.create(TableSpec(
                Rules.preset("pagat"), ["open", "bot:basic", "bot:basic", "bot:basic"],
                TableOptions(bot_delay=bot_delay)))
            token, _ = await manager.join(table.id, 0, "Anna")
            anna = _Connection(0)
            await manager.hello(table, anna, token, None)
            while table.state.current.to_act != 0:  # the bots before her, on their timers:
                anna.sent.clear()  # each move is a frame she is sent
                await asyncio.wait_for(anna.sent.wait(), WAIT)
            game = table.state.current
            await manager.act(table, 0, str(game.legal_actions()[0]))
            return len(table.views)
        finally:
            await manager.stop()

    return asyncio.run(scenario())


def test_a_table_where_a_person_is_to_act_holds_no_public_view(tmp_path: Path) -> None:
    """After a person's action and the bots' replies stored with it, the person is to act:
    their next action makes a new state, so the view of this one is not held (it was, a
    view of every table between moves: issue 28's RSS at 1,000 tables); at a table whose
    bots wait (``bot_delay``) the bot's timer decides on the state, whose view is held."""
    assert _table_after_a_person_move(0, tmp_path / "at-once.sqlite3") == 0
    assert _table_after_a_person_move(0.05, tmp_path / "waiting.sqlite3") == 1

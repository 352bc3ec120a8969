"""Your games: every table of the site where it is your turn, and the news that it became so.

"You" are a profile (its secret in ``X-Chicago-Profile``) and the seat tokens a browser holds
(a guest's seats). The tables are found in the database (:meth:`Store.turns`: the seat to
act of each table and who holds each seat are stored with every change), so a table nobody
has loaded is listed too. When a change moves a table's turn, :class:`YourGames` publishes a
note on the bus for the holders of the seats concerned (every worker's site sockets of that
person hear it, :mod:`chicago.server.together.site`) and hands the turns of correspondence
tables to the mail notices.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypedDict

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field, StringConstraints

from chicago.server.core.rows import Change, TableRow
from chicago.server.core.seats import Seat, TableOptions, hash_token
from chicago.server.core.state import iso_time
from chicago.server.live import LiveTable
from chicago.server.storage import Store
from chicago.server.strict import STRICT
from chicago.server.tables import TableManager
from chicago.server.together.pages import SitePages

__all__ = [
    "MAX_TOKENS",
    "TurnInfo",
    "TurnsRequest",
    "YourGames",
    "router",
    "topics_of",
    "turn_info",
]

router = APIRouter(prefix="/api")

MAX_TOKENS = 30
"""Seat tokens one request or site socket may name (the browser keeps its last 30 seats)."""


SeatToken = Annotated[str, StringConstraints(min_length=1, max_length=128,
                                             pattern=r"^[A-Za-z0-9_-]+$")]


class TurnInfo(TypedDict):
    """One table where it is your turn."""

    table: str
    name: str
    seat: int
    game: int
    since: str | None
    deadline: str | None
    clock_days: int | None


def turn_info(row: TableRow, seat: int) -> TurnInfo:
    """A table of :meth:`Store.turns` as "Your games" lists it (``deadline``: when the turn
    clock runs out, None without one)."""
    options = TableOptions.from_dict(row.options)
    seconds = options.turn_seconds
    deadline = (iso_time(row.turn_at + seconds) if seconds is not None and row.turn_at
                else None)
    return {"table": row.id, "name": row.name, "seat": seat, "game": row.game,
            "since": iso_time(row.turn_at) if row.turn_at else None, "deadline": deadline,
            "clock_days": options.clock_days}


def topics_of(seat: Seat) -> list[str]:
    """The bus topics that hear of a seat's turns: its profile's and its token's."""
    topics = []
    if seat.profile is not None:
        topics.append(f"turns:p:{seat.profile}")
    if seat.token_hash is not None:
        topics.append(f"turns:t:{seat.token_hash}")
    return topics


TurnListener = Callable[[LiveTable, int], None]
"""Called with (table, seat) when it became the turn of the person of ``seat``."""


class YourGames:
    """The turns of every person, from the store; the news when they change."""

    def __init__(self, manager: TableManager, store: Store) -> None:
        self.manager = manager
        self.store = store
        self.became_turn: list[TurnListener] = []
        """Called when a change made it a person's turn (the mail notices)."""
        self.pages = SitePages(manager.bus, manager.tasks, shared=manager.locks.shared,
                               worker=manager.worker)
        """Who has a page of the site open, on any worker."""
        manager.cache.stored.append(self._stored)

    async def start(self) -> None:
        """Start hearing who has a page open at the other workers."""
        await self.pages.start()

    def stop(self) -> None:
        """Stop hearing the other workers."""
        self.pages.stop()

    def on_site(self, table: LiveTable, seat: int) -> bool:
        """Whether the person of ``seat`` has a page of the site open and connected now, so
        that a notice in the page reaches them: a socket of this table holding the seat (on
        any worker: :attr:`TableState.connected`), or, for a profile, a site socket (on any
        worker: :class:`SitePages`) or a socket holding another table's seat of theirs in
        this process."""
        state = table.state
        if state.connected[seat] and state.seats[seat].kind == "human":
            return True
        profile = state.seats[seat].profile
        if profile is None:
            return False
        if self.pages.open(profile):
            return True
        return any(conn.seat is not None and other.state.seats[conn.seat].profile == profile
                   for other in list(self.manager.tables.values()) for conn in other.conns)

    async def turns(self, profile: str | None, tokens: Sequence[str]) -> list[TurnInfo]:
        """The tables where it is the turn of ``profile`` or of one of the seat ``tokens``."""
        hashes = [hash_token(t) for t in tokens[:MAX_TOKENS]]
        rows = await asyncio.to_thread(self.store.turns, profile, hashes)
        return [turn_info(row, seat) for row, seat in rows]

    def _stored(self, table: LiveTable, change: Change, before: int | None) -> None:
        state = table.state
        game = state.game
        after = game.to_act if game is not None and not game.is_over else None
        seats = {s for s in (before, after) if s is not None}
        seats |= {h.seat for h in change.holders}
        if "to_act" not in change.table_updates and not change.holders and before == after:
            return
        # a note is news alone (the page asks the store for the turns): one that no page
        # can hear is not published, so a move at a table nobody follows spawns no task
        bus = self.manager.bus
        topics = {topic for seat in seats for topic in topics_of(state.seats[seat])
                  if bus.note_heard(topic)}
        for topic in sorted(topics):
            self.manager.tasks.spawn(bus.publish_note(topic, {"kind": "turns"}))
        started = change.table_updates.get("status") == "playing"  # the last seat taken
        if (after is not None and (after != before or started)
                and state.seats[after].kind == "human" and not state.seats[after].away):
            for listener in self.became_turn:
                listener(table, after)


class TurnsRequest(BaseModel):
    """``POST /api/turns``: the seat tokens this browser holds."""

    model_config = STRICT

    tokens: list[SeatToken] = Field(default_factory=list, max_length=MAX_TOKENS)


@router.post("/turns")
async def your_turns(
    body: TurnsRequest, request: Request,
    secret: Annotated[str | None, Header(alias="X-Chicago-Profile")] = None,
) -> dict[str, Any]:
    """Every table where it is your turn: your profile's seats (``X-Chicago-Profile``) and
    the seats of the tokens sent (a guest's), the longest waiting first."""
    profile = None
    if secret is not None:
        profile = (await request.app.state.club.profile_of(secret)).id
    games: YourGames = request.app.state.your_games
    return {"turns": await games.turns(profile, body.tokens)}

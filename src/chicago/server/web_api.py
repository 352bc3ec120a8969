"""What the browser app needs beyond docs/PROTOCOL.md: replay steps and the hint button.

Routes (``/api/web``; errors in the lobby's JSON error form):

- ``GET /api/web/replay/{table}/{game}?view=all|public|SEAT&deal=N``: one deal of a finished
  game's replay as that perspective saw it (:func:`chicago.server.replay_pages.replay_page`),
  with an index of every deal. A game still in play is 404, like its record.
- ``GET /api/web/record/{table}/{game}``: a finished game's JSON record as a file to save
  (the browser cannot round-trip the 64-bit seed through JavaScript numbers).
- ``POST /api/web/odds`` ``{"hand": [...5 cards], "dead": [...], "rules": {...}, "top": 8}``:
  the exact draw odds of a hand (:func:`chicago.server.hints.odds_answer`).
- ``POST /api/web/hint/{table}`` ``{"dead": [...], "top": 8}`` with the seat's token
  (``Authorization: Bearer``): the Hint button of that seat, its holds ranked by what they
  are worth at the table (:func:`chicago.server.hints.hint_answer`); 401 without a seat.

:func:`install` adds the routes to the server app, ahead of the static files' catch-all
mount at ``/``, whatever the order of installation.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.routing import Mount

from chicago.record import RecordError
from chicago.rules import RulesError
from chicago.server.club.service import records_gate
from chicago.server.hints import hint_answer, odds_answer
from chicago.server.lobby import MAX_NUMBER, GameNumber, bearer, game_names, game_seats
from chicago.server.protocol import TableError
from chicago.server.replay_pages import (
    Perspective,
    parse_perspective,
    replay_page,
    replay_steps,
)
from chicago.server.strict import STRICT, WholeNumber

__all__ = ["install", "router"]

router = APIRouter(prefix="/api/web")

_CACHE_SIZE = 24
_cache: OrderedDict[tuple[str, int, Perspective], list[list[dict[str, Any]]]] = OrderedDict()
_cache_lock = threading.Lock()


class OddsRequest(BaseModel):
    """``POST /api/web/odds``."""

    model_config = STRICT

    hand: list[str] = Field(min_length=5, max_length=5)
    dead: list[str] = Field(default_factory=list, max_length=47)
    rules: dict[str, Any] = Field(default_factory=dict)
    top: int = Field(8, ge=1, le=32)


@router.post("/odds")
async def odds(body: OddsRequest) -> dict[str, Any]:
    """Exact draw odds of a five-card hand, best holds first."""
    try:
        return await asyncio.to_thread(odds_answer, body.hand, body.dead, body.rules, body.top)
    except RulesError as exc:
        raise TableError("bad_rules", str(exc)) from None
    except ValueError as exc:
        raise TableError("bad_request", str(exc)) from None


class HintRequest(BaseModel):
    """``POST /api/web/hint/{table}``."""

    model_config = STRICT

    dead: list[str] = Field(default_factory=list, max_length=47)
    top: int = Field(8, ge=1, le=32)


@router.post("/hint/{table_id}")
async def hint(
    table_id: str, body: HintRequest, request: Request,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The Hint button of a seat: its holds ranked by what they are worth at this table."""
    table, seat = await request.app.state.manager.authenticate(table_id, bearer(authorization))
    view = table.state.current.view(seat)
    try:
        return await asyncio.to_thread(hint_answer, view, body.dead, body.top)
    except ValueError as exc:
        raise TableError("bad_request", str(exc)) from None


async def _finished(request: Request, table_id: str, number: int) -> Any:
    await records_gate(request, table_id)
    store = request.app.state.store
    game = await asyncio.to_thread(store.game, table_id, number)
    if game is None or game.status != "finished" or game.record is None:
        raise TableError("unknown_game", f"no finished game {number} at table {table_id!r} "
                         "(replays and records are served once a game is over)", 404)
    return game


async def _seats(request: Request, game: Any) -> list[dict[str, Any]] | None:
    """The game's seats as ``GET /api/games`` gives them (None if the table row is gone)."""
    table = await asyncio.to_thread(request.app.state.store.table, game.table_id)
    return None if table is None else game_seats(game, table)


def _steps(
    key: tuple[str, int, Perspective], record: dict[str, Any]
) -> list[list[dict[str, Any]]]:
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    steps = replay_steps(record, key[2])
    with _cache_lock:
        _cache[key] = steps
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return steps


@router.get("/replay/{table_id}/{number}")
async def replay(
    table_id: str,
    number: GameNumber,
    request: Request,
    view: str = "all",
    deal: Annotated[WholeNumber | None, Query(ge=1, le=MAX_NUMBER)] = None,
) -> dict[str, Any]:
    """One deal of a finished game's replay, as one seat, a spectator or everyone saw it."""
    game = await _finished(request, table_id, number)
    record: dict[str, Any] = game.record
    try:
        perspective = parse_perspective(view, int(record["players"]))
    except ValueError as exc:
        raise TableError("bad_request", str(exc)) from None
    key = (table_id, number, perspective)
    try:
        steps = await asyncio.to_thread(_steps, key, record)
        page = replay_page(record, perspective, deal, steps=steps)
    except RecordError as exc:
        request.app.state.store.skip(f"game {table_id}/{number}", exc, "replayed")
        raise TableError("internal", f"the stored record cannot be replayed: {exc}", 500) from None
    except ValueError as exc:
        raise TableError("bad_request", str(exc)) from None
    page["table"] = table_id
    page["game"] = number
    seats = await _seats(request, game)
    page["seats"] = seats
    page["names"] = game_names(seats) if seats is not None else game.names
    page["result"] = record.get("result")
    return page


@router.get("/record/{table_id}/{number}")
async def record_file(table_id: str, number: GameNumber, request: Request) -> Response:
    """A finished game's JSON record as a file to save (exact: the seed keeps every digit)."""
    game = await _finished(request, table_id, number)
    body = json.dumps(game.record, indent=1, sort_keys=True)
    name = f"chicago-{table_id}-{number}.json"
    return Response(body, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def install(app: FastAPI) -> None:
    """Add the routes to ``app``, ahead of a static catch-all mount at ``/`` if there is one.

    Calling it again on the same app changes nothing.
    """
    if not getattr(app.state, "web_api", False):
        app.include_router(router)
        app.state.web_api = True
    routes = app.router.routes
    catch_all = [r for r in routes if isinstance(r, Mount) and r.path in ("", "/")]
    for mount in catch_all:
        routes.remove(mount)
        routes.append(mount)

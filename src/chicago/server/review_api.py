"""The reviews' HTTP API (docs/PROTOCOL.md, "Reviews"): status and JSON of the review of a
seat of a finished game, and asking for one.

- ``GET /api/games/{table}/{game}/reviews``: every seat's review status;
- ``GET /api/games/{table}/{game}/reviews/{seat}``: one seat's status, with the review's
  JSON once it is ready;
- ``POST /api/games/{table}/{game}/reviews/{seat}``: ask for it (queued unless it exists).

A review is only served for a finished game, to anyone who may see its record and replay
(:func:`chicago.server.lobby.finished_game`, the same rule). Bad input (an unknown table or
game, a game in play, a seat the game does not have) gets an error and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import JSONResponse, Response

from chicago.server.admission import client_key
from chicago.server.core.rows import GameRow
from chicago.server.lobby import GameNumber, bearer, finished_game
from chicago.server.protocol import TableError
from chicago.server.reviews import ReviewService
from chicago.server.storage.reviews import (
    QUEUED,
    Asker,
    QueueFull,
    ReviewKey,
    ReviewRow,
    ShareFull,
)
from chicago.server.strict import WholeNumber

__all__ = ["RETRY_AFTER", "router", "seat_status"]

router = APIRouter(prefix="/api/games")

RETRY_AFTER = 30
"""Seconds a client is told to wait (``Retry-After``) when the queue is full."""

SeatNumber = Annotated[WholeNumber, Path(ge=0, le=5, description="the seat, from 0")]


def _service(request: Request) -> ReviewService:
    service: ReviewService = request.app.state.reviews
    return service


def seat_status(seat: int, row: ReviewRow | None, *, due: bool = False,
                ahead: int | None = None,
                progress: tuple[int, int | None] | None = None) -> dict[str, Any]:
    """A seat's review status as the API gives it: ``none`` (nobody asked for it),
    ``queued``, ``running`` (with ``done`` of ``total`` decisions), ``ready`` (with its
    accuracy and the points lost) or ``failed`` (with the ``error``)."""
    if row is None:
        status = QUEUED if due else "none"
        return {"seat": seat, "status": status, "level": None, "done": 0, "total": None,
                "ahead": None, "accuracy": None, "loss": None, "error": None}
    done, total = progress if progress is not None else (row.done, row.total)
    return {"seat": seat, "status": row.status, "level": row.level, "done": done,
            "total": total, "ahead": ahead, "accuracy": row.accuracy, "loss": row.loss,
            "error": row.error}


async def _game(request: Request, table_id: str, number: int,
                seat: int | None = None) -> GameRow:
    """The finished game (the replay's access rule), and a seat it has."""
    game, _table = await finished_game(request, table_id, number)
    if seat is not None and seat >= game.players:
        raise TableError("bad_request", f"seat must be 0-{game.players - 1}, not {seat}")
    return game


async def _status(service: ReviewService, key: ReviewKey,
                  row: ReviewRow | None, due: bool) -> dict[str, Any]:
    ahead = None
    if row is not None and row.status == QUEUED:
        ahead = await asyncio.to_thread(service.rows.ahead, row)
    return seat_status(key.seat, row, due=due, ahead=ahead, progress=service.progress(key))


@router.get("/{table_id}/{number}/reviews")
async def game_reviews(table_id: str, number: GameNumber, request: Request) -> dict[str, Any]:
    """Every seat's review status of a finished game."""
    game = await _game(request, table_id, number)
    service = _service(request)
    rows, due = await asyncio.to_thread(service.rows.of_game, table_id, number)
    found = {row.key.seat: row for row in rows}
    seats = [await _status(service, ReviewKey(table_id, number, seat), found.get(seat),
                           seat in due)
             for seat in range(game.players)]
    return {"table": table_id, "game": number, "level": service.level,
            "enabled": service.enabled, "seats": seats}


@router.get("/{table_id}/{number}/reviews/{seat}")
async def seat_review(table_id: str, number: GameNumber, seat: SeatNumber,
                      request: Request) -> Response:
    """A seat's review status, and the review (``review``) once it is ready."""
    await _game(request, table_id, number, seat)
    service = _service(request)
    key = ReviewKey(table_id, number, seat)
    row = await asyncio.to_thread(service.rows.get, key)
    due = False
    if row is None:
        _rows, seats = await asyncio.to_thread(service.rows.of_game, table_id, number)
        due = seat in seats
    answer = {"table": table_id, "game": number,
              **(await _status(service, key, row, due))}
    text = None
    if row is not None and row.status == "ready":
        text = await asyncio.to_thread(service.rows.review_text, key)
    head = json.dumps(answer, separators=(",", ":"))
    # the stored JSON goes out as it is (made by the review process; never parsed here)
    body = head[:-1] + ',"review":' + (text if text is not None else "null") + "}"
    return Response(body, media_type="application/json")


async def _asker(request: Request, table_id: str, authorization: str | None,
                 profile: str | None) -> Asker:
    """Who asks: the address, the profile of ``X-Chicago-Profile`` (401 if it is none),
    and whether they played the game: a seat token of its table (``Authorization:
    Bearer``), or a profile that holds a seat at it."""
    address = client_key(request.client.host if request.client else None)
    manager = request.app.state.manager
    player = False
    token = bearer(authorization)
    if token is not None:
        await manager.authenticate(table_id, token)  # 401 for a token not of this table
        player = True
    profile_id = None
    if profile is not None:
        row = await request.app.state.club.profile_of(profile)
        profile_id = row.id
        table = await manager.require(table_id)
        player = player or any(s.profile == row.id for s in table.state.seats)
    return Asker(address, profile_id, player)


@router.post("/{table_id}/{number}/reviews/{seat}")
async def ask_review(table_id: str, number: GameNumber, seat: SeatNumber, request: Request,
                     authorization: Annotated[str | None, Header()] = None,
                     profile: Annotated[str | None, Header(alias="X-Chicago-Profile")] = None,
                     ) -> JSONResponse:
    """Ask for a seat's review: 202 when it was queued now, else 200 with its status. A
    player of the game (its seat token, or a profile seated there) goes before others; one
    client has at most ``Settings.review_share`` requests waiting."""
    await _game(request, table_id, number, seat)
    service = _service(request)
    if not service.enabled:
        raise TableError("no_reviews", "this server computes no reviews", 503)
    key = ReviewKey(table_id, number, seat)
    asker = await _asker(request, table_id, authorization, profile)
    before = await asyncio.to_thread(service.rows.get, key)
    try:
        row = await service.request(key, asker)
    except QueueFull as exc:
        raise TableError("review_busy", f"too many reviews are waiting ({exc}); try again "
                         "later", 503, retry_after=RETRY_AFTER) from None
    except ShareFull as exc:
        raise TableError("too_many_reviews", f"{exc}; ask again when one is ready", 429,
                         retry_after=RETRY_AFTER) from None
    queued = row.status == QUEUED and (before is None or before.status != QUEUED)
    answer = {"table": table_id, "game": number, **(await _status(service, key, row, False))}
    return JSONResponse(answer, status_code=202 if queued else 200)

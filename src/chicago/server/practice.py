"""Practice on the table server (docs/PROTOCOL.md, "Practice"): exercises made of the costly
decisions in the stored reviews (:mod:`chicago.review.practice`), and their answers.

- ``GET /api/practice/mine`` (``X-Chicago-Profile``): the exercises of the profile's latest
  finished games (its own seat in each, once that seat's review is ready);
- ``GET /api/practice/daily``: the exercise of the day, drawn from the site's reviewed games
  by the date (UTC), the same for everyone that day;
- ``POST /api/practice/answer`` ``{"exercise": "TABLE/GAME/SEAT/STEP", "action": "…"}``: the
  answer graded as the review grades that choice, with every choice's value and reason.

Exercises are only made of finished games that the asker may see (the replay's access rule,
:func:`chicago.server.lobby.finished_game`): never of a game in play, so never with a card
that is still hidden; and an exercise shows only what its seat saw then. The exercises are
kept with the reviews they come from (the stored review and record make them again, the
same each time). Each address may ask :data:`PER_MINUTE` times a minute (``rate_limited``
429 past that), and a worker computes at most :data:`AT_ONCE` at a time.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import json
import re
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from chicago.review import Review
from chicago.review.practice import Exercise, answer, exercises_of
from chicago.server.admission import client_key
from chicago.server.limits import Limiter, LocalLimiter
from chicago.server.lobby import finished_game
from chicago.server.protocol import TableError
from chicago.server.storage.reviews import ReviewKey

__all__ = ["AT_ONCE", "MINE_GAMES", "MINE_MAX", "PER_MINUTE", "install", "router"]

router = APIRouter(prefix="/api/practice")

MINE_GAMES = 20
"""The profile's latest finished games whose exercises ``mine`` gives."""
MINE_MAX = 40
"""At most this many exercises in one answer of ``mine``."""
DAILY_FROM = 500
"""The daily exercise is drawn from the latest this many ready reviews."""
PER_MINUTE = 60
"""Practice requests one address may make a minute (a burst of as many)."""
AT_ONCE = 2
"""Practice requests one worker computes at the same time (the others wait their turn)."""
_REF = re.compile(r"([A-Za-z0-9_-]{1,32})/([1-9][0-9]{0,8})/([0-5])/([1-9][0-9]{0,6})")

ProfileHeader = Annotated[str | None, Header(alias="X-Chicago-Profile")]


class AnswerRequest(BaseModel):
    """``POST /api/practice/answer``."""

    model_config = ConfigDict(extra="forbid")

    exercise: StrictStr = Field(max_length=60)
    """``TABLE/GAME/SEAT/STEP``, as the exercise's ``ref`` says."""
    action: StrictStr = Field(max_length=40)
    """The action chosen, in the text notation of the exercise's choices."""


class _Practice:
    """A worker's practice state: the limiter, the gate of computations, today's exercise."""

    def __init__(self) -> None:
        self.limiter: Limiter = LocalLimiter("practice requests", burst=PER_MINUTE,
                                             per_minute=float(PER_MINUTE))
        self.gate = asyncio.Semaphore(AT_ONCE)
        self.daily: tuple[str, dict[str, Any]] | None = None


def _state(request: Request) -> _Practice:
    state: _Practice = request.app.state.practice
    return state


async def _counted(request: Request) -> _Practice:
    """Count the request against its address (429 ``rate_limited`` past the rate)."""
    state = _state(request)
    key = client_key(request.client.host if request.client is not None else None)
    wait = await state.limiter.take(key)
    if wait is not None:
        raise TableError("rate_limited", f"at most {PER_MINUTE} practice requests a minute "
                         "from one address; try again later", 429, retry_after=wait)
    return state


def _question(key: ReviewKey, exercise: Exercise) -> dict[str, Any]:
    return {"ref": f"{key.table_id}/{key.number}/{key.seat}/{exercise.step}",
            **exercise.question()}


async def _exercises(request: Request, key: ReviewKey,
                     steps: set[int] | None = None) -> list[Exercise]:
    """The exercises of a seat of a finished game the asker may see (TableError 404 for a
    game in play or unknown, 400 for a seat it does not have); none before its review."""
    game, _table = await finished_game(request, key.table_id, key.number)
    if key.seat >= game.players:
        raise TableError("bad_request", f"seat must be 0-{game.players - 1}, not {key.seat}")
    service = request.app.state.manager.reviews
    text = await asyncio.to_thread(service.rows.review_text, key)
    if text is None or game.record is None:
        return []
    review = Review.from_json(json.loads(text))
    async with _state(request).gate:
        return await asyncio.to_thread(exercises_of, game.record, review, steps=steps)


@router.get("/mine")
async def my_exercises(request: Request, secret: ProfileHeader = None) -> dict[str, Any]:
    """The exercises of the profile's latest finished games (its own seat in each)."""
    club = request.app.state.club
    profile = await club.profile_of(secret)
    await _counted(request)
    games = await asyncio.to_thread(club.store.profile_games, profile.id, MINE_GAMES)
    out: list[dict[str, Any]] = []
    for game in games:
        if not await club.director.round_open(game["table"], game["options"]):
            continue  # a duplicate round still in play keeps its records back
        key = ReviewKey(game["table"], int(game["game"]), int(game["seat"]))
        try:
            found = await _exercises(request, key)
        except TableError:
            continue  # a game whose records are held back
        out += [_question(key, e) for e in found]
        if len(out) >= MINE_MAX:
            break
    return {"profile": profile.id, "exercises": out[:MINE_MAX]}


@router.get("/daily")
async def daily_exercise(request: Request) -> dict[str, Any]:
    """The exercise of the day (UTC), the same for everyone: drawn by the date from the
    site's latest reviewed games; ``exercise`` is None while no review has one."""
    state = await _counted(request)
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    if state.daily is not None and state.daily[0] == today:
        return state.daily[1]
    service = request.app.state.manager.reviews
    keys = await asyncio.to_thread(service.rows.ready_keys, DAILY_FROM)
    chosen: dict[str, Any] | None = None
    if keys:
        start = int(hashlib.sha256(today.encode()).hexdigest(), 16) % len(keys)
        for offset in range(len(keys)):
            key = keys[(start + offset) % len(keys)]
            try:
                found = await _exercises(request, key)
            except TableError:
                continue
            if found:
                costliest = max(found, key=lambda e: (e.choice(e.played).loss, -e.step))
                chosen = _question(key, costliest)
                break
    answer_ = {"date": today, "exercise": chosen}
    if chosen is not None:
        state.daily = (today, answer_)
    return answer_


@router.post("/answer")
async def answer_exercise(body: AnswerRequest, request: Request) -> dict[str, Any]:
    """An answer graded as the review grades that choice: its grade, the points it loses,
    the best choice, why; and every choice's value and grade."""
    await _counted(request)
    match = _REF.fullmatch(body.exercise)
    if match is None:
        raise TableError("bad_request", "exercise: expected TABLE/GAME/SEAT/STEP, as an "
                         "exercise's ref says")
    table, number, seat, step = match.groups()
    key = ReviewKey(table, int(number), int(seat))
    found = await _exercises(request, key, {int(step)})
    if not found:
        raise TableError("unknown_exercise", f"no exercise {body.exercise!r}: the seat made "
                         "no costly decision there, or its review is not ready", 404)
    exercise = found[0]
    try:
        graded = answer(exercise, body.action)
    except ValueError as exc:
        raise TableError("bad_action", f"action: {exc}") from None
    return {"ref": body.exercise, "answer": graded.to_json(),
            "played": exercise.played, "best": exercise.best,
            "choices": [c.to_json() for c in exercise.choices]}


def install(app: FastAPI) -> None:
    """The practice routes and their per-worker state."""
    app.state.practice = _Practice()
    app.include_router(router)

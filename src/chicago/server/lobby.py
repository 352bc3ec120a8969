"""The lobby's HTTP JSON API: create, list, join and rematch tables; finished games' records.

Every route is under ``/api`` (docs/PROTOCOL.md describes requests and answers). Errors are
``{"error": {"code": …, "message": …}}`` with a fitting status.
"""

from __future__ import annotations

import asyncio
import datetime
import unicodedata
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

import chicago
from chicago.bots import bot_levels as installed_levels
from chicago.engine.game import Game
from chicago.record import write_text
from chicago.rules import PRESETS, VARIATIONS, Rules, RulesError
from chicago.server.admission import Admission, client_key
from chicago.server.club.service import joiner_of, public_info, records_gate
from chicago.server.core.decide import TableSpec
from chicago.server.core.rows import GameRow, TableRow
from chicago.server.core.seats import (
    CLOCK_DAYS,
    OPTION_LIMITS,
    TableOptions,
    default_name,
    stored_name,
)
from chicago.server.protocol import TableError
from chicago.server.settings import Settings
from chicago.server.storage import Store, Unreadable
from chicago.server.strict import STRICT, WholeNumber
from chicago.server.tables import TableManager

__all__ = [
    "LIMITS",
    "MAX_NUMBER",
    "GameNumber",
    "bearer",
    "bot_levels",
    "clean_name",
    "finished_game",
    "game_names",
    "game_seats",
    "game_summary",
    "install",
    "make_spec",
    "router",
    "rules_of",
]

router = APIRouter(prefix="/api")

LIMITS: dict[str, Any] = {"players": [2, 6],
                          **{k: list(v) for k, v in OPTION_LIMITS.items()},
                          "name": 40, "chat": 300, "clock_days": list(CLOCK_DAYS)}
"""Bounds of the lobby's inputs, also served by ``GET /api/info``."""

DEAL_PAUSE = 15.0
"""Seconds a table waits after a deal for its people to press Continue, unless asked
otherwise (0: the next deal starts at once; a table of bots never waits)."""

MAX_NUMBER = 2**31 - 1
"""The largest whole number a request may carry where the database stores an integer (the
``INTEGER`` columns of SQLite and PostgreSQL); a larger one is refused before any query."""

GameNumber = Annotated[WholeNumber, Path(ge=1, le=MAX_NUMBER,
                                         description="the game's number, from 1")]
"""A game number in a path: out of range (or not a number) is 400 ``bad_request``."""


def bot_levels(settings: Settings | None = None) -> list[str]:
    """The bot levels this server offers: the installed ones, weakest first, then the
    external bots its operator named (``Settings.external_bots``)."""
    levels = installed_levels()
    named = list(settings.external_bots) if settings is not None else []
    return levels + [n for n in named if n not in levels]


def clean_name(value: str | None, what: str) -> str | None:
    """A name as given, blanks folded; None when empty; TableError naming ``what`` when it
    holds control characters or is longer than ``LIMITS['name']``."""
    if value is None:
        return None
    text = " ".join(value.split())
    if not text:
        return None
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise TableError("bad_request", f"{what} may not contain control characters")
    if len(text) > LIMITS["name"]:
        raise TableError("bad_request", f"{what} has at most {LIMITS['name']} characters")
    return text


class RulesRequest(BaseModel):
    """What a request that makes games names: a name, and rules as every door takes them
    (a preset, variations, option overrides; :func:`rules_of` builds them). The base of
    ``POST /api/tables`` and ``POST /api/tournaments``."""

    model_config = STRICT

    name: str = Field("", max_length=80)
    preset: str = "pagat"
    rules: dict[str, Any] = Field(default_factory=dict)
    variations: list[str] = Field(default_factory=list, max_length=40)

    def build_rules(self) -> tuple[Rules, list[str]]:
        """The rules asked for and the variation ids as applied (:func:`rules_of`)."""
        return rules_of(self.preset, self.rules, self.variations)


class CreateTable(RulesRequest):
    """``POST /api/tables``."""

    seats: list[str] = Field(default_factory=lambda: ["open"] * 4, min_length=2, max_length=6)
    private: bool = False
    clock: float | None = Field(None, ge=LIMITS["clock"][0], le=LIMITS["clock"][1])
    stand_in: str | None = None
    bot_delay: float = Field(0.5, ge=LIMITS["bot_delay"][0], le=LIMITS["bot_delay"][1])
    deal_pause: float | None = Field(None, ge=LIMITS["deal_pause"][0],
                                     le=LIMITS["deal_pause"][1])
    """None: 15 s at a live table, none at a correspondence table."""
    rated: bool = False
    clock_days: int | None = None
    """A correspondence table: days per move (instead of ``clock``)."""
    rematch_wait: float | None = Field(None, ge=LIMITS["rematch_wait"][0],
                                       le=LIMITS["rematch_wait"][1])


class JoinTable(BaseModel):
    """``POST /api/tables/{id}/join``."""

    model_config = STRICT

    seat: int | None = Field(None, ge=0, le=5)
    name: str | None = Field(None, max_length=80)


def rules_of(preset: str, overrides: dict[str, Any],
             variations: list[str]) -> tuple[Rules, list[str]]:
    """The rules of a request, built as every door builds them (:meth:`Rules.build`: the
    preset, the variations, then the option overrides, which beat a variation); and the
    variation ids as applied (upper case). TableError (``bad_request``, ``bad_rules``) names
    what is wrong."""
    if preset not in PRESETS:
        raise TableError("bad_request", f"unknown preset {preset!r}; valid presets: "
                         f"{', '.join(PRESETS)}")
    ids = [v.strip().upper() for v in variations]
    try:
        rules = Rules.build(preset, variations=ids, overrides=overrides)
    except RulesError as exc:
        raise TableError("bad_rules", str(exc)) from None
    except (TypeError, ValueError) as exc:
        raise TableError("bad_rules", f"bad rule option value: {exc}") from None
    return rules, ids


def make_spec(request: CreateTable, levels: list[str] | None = None, *,
              bot_deals: int | None = None) -> TableSpec:
    """Check a create request and turn it into a :class:`TableSpec` (TableError if bad).
    ``levels``: the bot levels allowed (default: the installed ones); ``bot_deals``: the
    most deals a game of a table of bots only may have (``Settings.max_bot_deals``: the
    rules' ``max_deals`` is lowered to it when larger or unset)."""
    levels = levels if levels is not None else bot_levels()
    rules, variations = request.build_rules()
    seats: list[str] = []
    for index, raw in enumerate(request.seats):
        spec = raw.strip().lower()
        if spec == "open":
            seats.append("open")
            continue
        level = spec[4:] if spec.startswith("bot:") else spec
        if level not in levels:
            raise TableError("bad_request", f"seat {index}: {raw!r} is neither \"open\" nor "
                             f"a bot (bot:LEVEL, LEVEL one of {', '.join(levels)})")
        seats.append(f"bot:{level}")
    if bot_deals is not None and "open" not in seats and (
            rules.max_deals is None or rules.max_deals > bot_deals):
        rules = rules.replace(max_deals=bot_deals)  # nobody at the table can stop it
    try:
        Game(rules, players=len(seats), seed=0)
    except (TypeError, ValueError) as exc:
        raise TableError("bad_rules", f"{len(seats)} seats: {exc}") from None
    stand_in = (request.stand_in or ("basic" if "basic" in levels else "random")).lower()
    if stand_in.startswith("bot:"):
        stand_in = stand_in[4:]
    if stand_in not in levels:
        raise TableError("bad_request", f"stand_in {request.stand_in!r} is not a bot level; "
                         f"valid: {', '.join(levels)}")
    try:
        deal_pause = request.deal_pause
        if deal_pause is None:
            deal_pause = 0.0 if request.clock_days is not None else DEAL_PAUSE
        options = TableOptions(clock=request.clock, stand_in=stand_in,
                               bot_delay=request.bot_delay, deal_pause=deal_pause,
                               rated=request.rated, clock_days=request.clock_days,
                               rematch_wait=request.rematch_wait)
    except ValueError as exc:
        raise TableError("bad_request", str(exc)) from None
    return TableSpec(
        rules=rules, seats=seats, options=options,
        name=clean_name(request.name, "name") or "", preset=request.preset,
        variations=variations, private=request.private,
    )


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _store(request: Request) -> Store:
    """The server's database (the lobby's lists and records read it directly)."""
    store: Store = request.app.state.store
    return store


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None."""
    if authorization and authorization[:7].lower() == "bearer ":
        return authorization[7:].strip() or None
    return None


def _iso(timestamp: float | None) -> str | None:
    if timestamp is None:
        return None
    moment = datetime.datetime.fromtimestamp(timestamp, datetime.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_time(text: str) -> float:
    try:
        moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise TableError("bad_request", f"before: {text!r} is not an ISO time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.timestamp()


def game_seats(game: GameRow, table: TableRow) -> list[dict[str, Any]]:
    """The seats of a finished game: ``{"seat", "kind", "level", "name"}`` each, ``kind``
    ``human`` or ``bot`` (from the table's seats: an open seat was joined by a person before
    the game could be played), ``level`` a bot's level, ``name`` the person's name or None
    when they gave none (a bot's name is its level, as in the table info)."""
    names = list(game.names or [])
    seats: list[dict[str, Any]] = []
    for index, spec in enumerate(table.seats):
        stored = names[index] if index < len(names) else None
        if spec.startswith("bot:"):
            level = spec[4:]
            seats.append({"seat": index, "kind": "bot", "level": level,
                          "name": stored or level})
        else:
            seats.append({"seat": index, "kind": "human", "level": None,
                          "name": stored_name(stored, index)})
    return seats


def game_names(seats: list[dict[str, Any]]) -> list[str]:
    """The seats' names as texts, for other programs and the text notation: a person who
    gave no name is :func:`~chicago.server.live.default_name` (``"Player N"``)."""
    return [s["name"] or default_name(s["seat"]) for s in seats]


def game_summary(game: GameRow, table: TableRow) -> dict[str, Any]:
    """A finished game as ``GET /api/games`` lists it."""
    result = game.result or {}
    seats = game_seats(game, table)
    return {
        "table": game.table_id, "game": game.number, "name": table.name,
        "players": game.players, "preset": table.preset, "variations": table.variations,
        "names": game_names(seats), "seats": seats,
        "scores": result.get("scores"), "winners": result.get("winners"),
        "settlement": result.get("settlement"), "deals": result.get("deals"),
        "started": _iso(game.started_at), "finished": _iso(game.finished_at),
    }


# ---------------------------------------------------------------------- routes
@router.get("/info")
async def info(request: Request) -> dict[str, Any]:
    """What a lobby needs to offer choices: presets, variations, bot levels, limits."""
    return {
        "version": chicago.__version__,
        "presets": list(PRESETS),
        "default_preset": "pagat",
        "rules": {name: rules.to_dict() for name, rules in PRESETS.items()},
        "variations": {vid: v.description for vid, v in VARIATIONS.items()},
        "bot_levels": bot_levels(request.app.state.settings),
        "limits": LIMITS,
    }


@router.get("/health")
async def health(request: Request) -> dict[str, Any]:
    """Liveness and a few counters."""
    manager = _manager(request)
    return {"ok": True, "tables_in_memory": len(manager.tables),
            "database": _store(request).dialect, **manager.stats,
            "pages": request.app.state.your_games.pages.count()}


@router.post("/tables", status_code=201)
async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    """Create a table (within the limits of :mod:`chicago.server.admission`: 429 beyond)."""
    settings: Settings = request.app.state.settings
    spec = make_spec(body, bot_levels(settings), bot_deals=settings.max_bot_deals)
    admission: Admission = request.app.state.admission
    key = client_key(request.client.host if request.client else None)
    await admission.admit(key, bots_only=spec.bots_only)
    try:
        table = await _manager(request).create(spec)
    except BaseException:
        await admission.refund(key)
        raise
    admission.created(key, table, bots_only=spec.bots_only)
    return table.info()


@router.get("/tables")
async def list_tables(
    request: Request, limit: Annotated[WholeNumber, Query(ge=1, le=200)] = 50
) -> dict[str, Any]:
    """Public tables with an open seat, newest first."""
    manager = _manager(request)
    rows = await asyncio.to_thread(_store(request).open_tables, limit)
    tables = []
    for row in rows:
        try:
            live = await manager.get(row.id)
        except TableError:  # stored in a form this server cannot read: logged, skipped
            continue
        if live is not None and live.state.status == "waiting":
            tables.append(live.info())
    return {"tables": tables}


@router.get("/tables/{table_id}")
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    """One table's info (a duplicate tournament round in play: without its scores)."""
    return await public_info(request, await _manager(request).require(table_id))


@router.post("/tables/{table_id}/join")
async def join_table(
    table_id: str, body: JoinTable, request: Request,
    profile: Annotated[str | None, Header(alias="X-Chicago-Profile")] = None,
) -> dict[str, Any]:
    """Take an open seat; the answer holds the seat token. With a profile's secret in
    ``X-Chicago-Profile`` the seat is tied to that profile (its name is the seat's)."""
    manager = _manager(request)
    name = clean_name(body.name, "name")
    joiner = await joiner_of(request, profile)
    token, seat = await manager.join(table_id, body.seat, name, joiner)
    table = await manager.require(table_id)
    return {"token": token, "seat": seat, "table": table.info()}


@router.post("/tables/{table_id}/rematch")
async def rematch(
    table_id: str, request: Request,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """After a game, the seat's person wants to play again (a seated player's token): the
    next game starts when every person at the table has agreed."""
    manager = _manager(request)
    table, seat = await manager.authenticate(table_id, bearer(authorization))
    await manager.rematch(table, seat)
    return table.info()


@router.post("/tables/{table_id}/leave")
async def leave(
    table_id: str, request: Request,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """After a game, the seat's person does not want to play again: they leave the table
    (their seat token stops working)."""
    manager = _manager(request)
    table, seat = await manager.authenticate(table_id, bearer(authorization))
    await manager.decline(table, seat)
    return table.info()


@router.get("/games")
async def list_games(
    request: Request,
    limit: Annotated[WholeNumber, Query(ge=1, le=200)] = 50,
    before: str | None = None,
) -> dict[str, Any]:
    """Finished games of public tables, newest first."""
    store = _store(request)
    cutoff = _parse_time(before) if before else None
    rows = await asyncio.to_thread(store.finished_games, limit, cutoff)
    games = []
    for game, table in rows:
        try:
            games.append(game_summary(game, table))
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            store.skip(f"game {game.table_id}/{game.number}", exc)
    return {"games": games}


async def finished_game(request: Request, table_id: str,
                        number: int) -> tuple[GameRow, TableRow]:
    """A finished game and its table, for anyone who may see its record: the access rule
    of records, replays and reviews (a duplicate tournament round in play keeps its
    records back: ``records_gate``). TableError 404 ``unknown_game`` for a game that is not
    finished (or does not exist), ``unknown_table`` when its table is gone."""
    await records_gate(request, table_id)
    store = _store(request)
    game = await asyncio.to_thread(store.game, table_id, number)
    if game is None or game.status != "finished" or game.record is None:
        raise TableError("unknown_game", f"no finished game {number} at table {table_id!r} "
                         "(records are served once a game is over)", 404)
    table = await asyncio.to_thread(store.table, table_id)
    if table is None:
        raise TableError("unknown_table", f"no table {table_id!r}", 404)
    return game, table


@router.get("/games/{table_id}/{number}")
async def game_record(table_id: str, number: GameNumber, request: Request) -> dict[str, Any]:
    """A finished game's summary and full JSON record."""
    game, table = await finished_game(request, table_id, number)
    return {"game": game_summary(game, table), "record": game.record}


@router.get("/games/{table_id}/{number}/text", response_class=PlainTextResponse)
async def game_text(table_id: str, number: GameNumber, request: Request) -> PlainTextResponse:
    """A finished game's record in the text notation."""
    game, table = await finished_game(request, table_id, number)
    names = game_names(game_seats(game, table))
    tags = {"Event": table.name or "chicago serve", "Table": table_id, "Game": str(number),
            "Date": _iso(game.finished_at) or "", "Names": ", ".join(names)}
    # one tag per seat as well, as chicago play writes them (chicago replay shows the names)
    tags.update({f"Name{seat}": name for seat, name in enumerate(names)})
    record = game.record or {}
    text = await asyncio.to_thread(write_text, record, tags)
    return PlainTextResponse(text)


# ---------------------------------------------------------------------- errors
def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _table_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TableError)
    response = _error(exc.status, exc.code, exc.message)
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _unreadable(request: Request, exc: Exception) -> JSONResponse:
    """A stored row this server cannot read (logged once by the store)."""
    return _error(500, "internal", str(exc))


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        problems.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    return _error(400, "bad_request", "; ".join(problems) or "bad request")


async def _internal_error(request: Request, exc: Exception) -> JSONResponse:
    """Anything unforeseen: still a JSON error (the server logs the exception)."""
    return _error(500, "internal", "the server failed to answer this request")


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    codes = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
    return _error(exc.status_code, codes.get(exc.status_code, "http_error"), str(exc.detail))


def install(app: FastAPI) -> None:
    """Add the lobby's routes and JSON error handlers to ``app``."""
    app.include_router(router)
    app.add_exception_handler(TableError, _table_error)
    app.add_exception_handler(Unreadable, _unreadable)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)

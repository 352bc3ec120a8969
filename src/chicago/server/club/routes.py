"""The club's HTTP API (docs/PROTOCOL.md, "Club"): profiles, leaderboards, tournaments.

A profile's requests carry its secret in the ``X-Chicago-Profile`` header; an organizer's
carry the tournament's organizer secret in ``X-Chicago-Organizer``. Errors are the lobby's
JSON errors; every request is checked whole before anything is stored.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Query, Request
from pydantic import BaseModel, Field, StrictInt, StrictStr

from chicago.club.names import name_problem
from chicago.club.ratings import profile_participant
from chicago.club.stats import summarize
from chicago.engine.game import Game
from chicago.rules import RulesError
from chicago.server.admission import Admission, client_key
from chicago.server.club.director import TournamentSpec
from chicago.server.club.service import ClubService
from chicago.server.core.seats import hash_token
from chicago.server.credentials import grant_of
from chicago.server.live import now
from chicago.server.lobby import LIMITS, RulesRequest, bot_levels, clean_name
from chicago.server.protocol import TableError
from chicago.server.storage.club import NameTaken, ProfileRow
from chicago.server.strict import STRICT, WholeNumber

__all__ = ["TOURNAMENT_LIMITS", "install", "make_tournament", "router"]

router = APIRouter(prefix="/api")

TOURNAMENT_LIMITS: dict[str, list[int]] = {
    "tables": [1, 16], "table_size": [2, 6], "rounds": [1, 12], "deals": [1, 30],
    "target": [10, 200], "clock": [5, 3600],
}
"""Bounds of a tournament's options (served by ``GET /api/club/info``)."""

ProfileHeader = Annotated[str | None, Header(alias="X-Chicago-Profile")]
OrganizerHeader = Annotated[str | None, Header(alias="X-Chicago-Organizer")]


def _club(request: Request) -> ClubService:
    club: ClubService = request.app.state.club
    return club


def _address(request: Request) -> str:
    """Who a creation counts for (an IPv6 address by its /64 network, as table creation)."""
    return client_key(request.client.host if request.client is not None else None)


# ---------------------------------------------------------------------- profiles
class CreateProfile(BaseModel):
    """``POST /api/profiles``."""

    model_config = STRICT

    name: str = Field(max_length=80)


def _profile_out(row: ProfileRow) -> dict[str, Any]:
    return {"id": row.id, "name": row.name}


@router.post("/profiles", status_code=201)
async def create_profile(body: CreateProfile, request: Request) -> dict[str, Any]:
    """A new profile: its id, name and secret (the secret is shown only here)."""
    name = clean_name(body.name, "name")
    if not name:
        raise TableError("bad_request", "name: a profile needs a display name")
    problem = name_problem(name)
    if problem is not None:
        raise TableError("bad_request", f"name: {name!r} {problem}; choose another")
    club = _club(request)
    await club.creating(club.profiles, _address(request))
    secret = club.manager.new_secret(24)
    at = now()
    row = ProfileRow(club.manager.new_secret(12), name, hash_token(secret), at, at)
    try:
        await asyncio.to_thread(club.store.create_profile, row)
    except NameTaken as exc:
        raise TableError("name_taken", f"name: {exc}", 409) from None
    return {"profile": _profile_out(row), "secret": secret}


@router.get("/profiles/me")
async def my_profile(request: Request, secret: ProfileHeader = None) -> dict[str, Any]:
    """Who a secret signs in as."""
    return {"profile": _profile_out(await _club(request).profile_of(secret))}


@router.post("/profiles/me/rotate")
async def rotate(request: Request, secret: ProfileHeader = None) -> dict[str, Any]:
    """Sign out everywhere: a new secret; the old one (and every sign-in link) stops."""
    club = _club(request)
    row = await club.profile_of(secret)
    fresh = club.manager.new_secret(24)
    moved = await asyncio.to_thread(club.store.rotate_secret, row.id, row.secret_hash,
                                    hash_token(fresh), now())
    if not moved:
        raise TableError("bad_profile", "the secret changed meanwhile; sign in again", 409)
    await club.rotated(row.id, hash_token(fresh))
    return {"profile": _profile_out(row), "secret": fresh}


@router.get("/profiles/{profile_id}")
async def profile_page(profile_id: str, request: Request) -> dict[str, Any]:
    """A profile's page: statistics, ratings per ladder, rating history, recent games."""
    club = _club(request)
    if not 0 < len(profile_id) <= 32:
        raise TableError("unknown_profile", f"no profile {profile_id!r}", 404)
    row = await asyncio.to_thread(club.store.profile, profile_id)
    if row is None:
        raise TableError("unknown_profile", f"no profile {profile_id!r}", 404)
    participant = profile_participant(row.id)
    lines, recent, history, rated = await asyncio.gather(
        asyncio.to_thread(club.store.profile_lines, row.id),
        asyncio.to_thread(club.store.profile_games, row.id, 20),
        asyncio.to_thread(club.store.rating_history, participant),
        asyncio.to_thread(club.store.ratings_of, [participant]),
    )
    games = []
    for game in recent:
        link = f"{game['table']}/{game['game']}"
        options = game.pop("options")
        if not await club.director.round_open(game["table"], options):
            # a duplicate round still in play: its result waits for the round (docs/CLUB.md)
            games.append({**game, "line": None, "result": None, "names": None,
                          "replay": None, "record": None, "review": None})
            continue
        games.append({**game, "replay": f"#/replay/{link}",
                      "record": f"/api/web/record/{link}",
                      "review": _review_link(request, link, game["seat"])})
    return {
        "profile": _profile_out(row),
        "stats": summarize(lines).to_dict(),
        "ratings": [{"ladder": ladder, **rating.to_dict(), "games": count}
                    for (ladder, _), (rating, count) in sorted(rated.items())],
        "history": history,
        "games": games,
    }


def _review_link(request: Request, game: str, seat: int) -> str | None:
    """The browser app's address of the review of the profile's seat in a game (docs/WEB.md:
    the replay with the Review view of that seat), when this server makes reviews
    (docs/SERVER.md, "Reviews"); None when it makes none."""
    reviews = request.app.state.reviews
    return f"#/replay/{game}?review={seat}" if reviews.enabled else None


# ---------------------------------------------------------------------- ratings
@router.get("/leaderboard")
async def leaderboard(
    request: Request, ladder: str | None = None,
    limit: Annotated[WholeNumber, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """The ladders, and one ladder's participants best first (default: the busiest)."""
    club = _club(request)
    ladders = await asyncio.to_thread(club.store.ladders)
    chosen = ladder if ladder is not None else (ladders[0][0] if ladders else None)
    if chosen is not None and len(chosen) > 40:
        raise TableError("bad_request", "ladder: at most 40 characters")
    rows = await asyncio.to_thread(club.store.leaderboard, chosen, limit) if chosen else []
    ids = [p.split(":", 1)[1] for p, _, _ in rows if p.startswith("profile:")]
    names = await asyncio.to_thread(club.store.profiles_named, ids)
    board = []
    for place, (participant, rating, games) in enumerate(rows, start=1):
        kind, _, ident = participant.partition(":")
        board.append({"place": place, "participant": participant, "kind": kind,
                      "profile": ident if kind == "profile" else None,
                      "level": ident if kind == "bot" else None,
                      "name": names.get(ident, ident) if kind == "profile" else ident,
                      **rating.to_dict(), "games": games})
    return {"ladders": [{"ladder": lad, "participants": n} for lad, n in ladders],
            "ladder": chosen, "rows": board}


# ---------------------------------------------------------------------- seats
@router.post("/tables/{table_id}/claim")
async def claim(table_id: str, request: Request, secret: ProfileHeader = None) -> dict[str, Any]:
    """A profile takes its seat at a table (on this device): a new seat token."""
    club = _club(request)
    row = await club.profile_of(secret)
    token, seat = await club.manager.claim(table_id, row.id, grant_of(row.secret_hash))
    table = await club.manager.require(table_id)
    return {"token": token, "seat": seat, "table": table.info()}


# ---------------------------------------------------------------------- tournaments
class CreateTournament(RulesRequest):
    """``POST /api/tournaments``."""

    tables: int = Field(2, ge=TOURNAMENT_LIMITS["tables"][0],
                        le=TOURNAMENT_LIMITS["tables"][1])
    table_size: int = Field(4, ge=TOURNAMENT_LIMITS["table_size"][0],
                            le=TOURNAMENT_LIMITS["table_size"][1])
    rounds: int = Field(3, ge=TOURNAMENT_LIMITS["rounds"][0], le=TOURNAMENT_LIMITS["rounds"][1])
    deals: int | None = Field(None, ge=TOURNAMENT_LIMITS["deals"][0],
                              le=TOURNAMENT_LIMITS["deals"][1])
    target: int | None = Field(None, ge=TOURNAMENT_LIMITS["target"][0],
                               le=TOURNAMENT_LIMITS["target"][1])
    duplicate: bool = True
    bot: str = "basic"
    clock: float | None = Field(60.0, ge=TOURNAMENT_LIMITS["clock"][0],
                                le=TOURNAMENT_LIMITS["clock"][1])
    bot_delay: float = Field(0.5, ge=LIMITS["bot_delay"][0], le=LIMITS["bot_delay"][1])


def make_tournament(body: CreateTournament, levels: list[str]) -> TournamentSpec:
    """Check a create request whole (TableError naming the field) and build its spec."""
    if body.deals is not None and body.target is not None:
        raise TableError("bad_request", "deals, target: give one length of a game, not both")
    if "max_deals" in body.rules or "target" in body.rules:
        raise TableError("bad_request", "rules: set the length with deals or target")
    rules, variations = body.build_rules()
    try:
        if body.deals is not None:
            rules = rules.replace(max_deals=body.deals)
        if body.target is not None:
            rules = rules.replace(target=body.target)
    except RulesError as exc:
        raise TableError("bad_rules", f"rules: {exc}") from None
    except (TypeError, ValueError) as exc:
        raise TableError("bad_rules", f"rules: {exc}") from None
    try:
        Game(rules, players=body.table_size, seed=0)
    except (TypeError, ValueError) as exc:  # a RulesError too: the size the rules allow
        raise TableError("bad_rules", f"table_size {body.table_size}: {exc}") from None
    bot = body.bot.strip().lower().removeprefix("bot:")
    if bot not in levels:
        raise TableError("bad_request", f"bot: {body.bot!r} is not a bot level; valid: "
                         f"{', '.join(levels)}")
    return TournamentSpec(
        name=clean_name(body.name, "name") or "Tournament", preset=body.preset, rules=rules,
        variations=variations, tables=body.tables, table_size=body.table_size,
        rounds=body.rounds, duplicate=body.duplicate, bot=bot, deals=body.deals,
        target=body.target, clock=body.clock, bot_delay=body.bot_delay)


@router.get("/club/info")
async def club_info(request: Request) -> dict[str, Any]:
    """What the tournament form offers: limits and bot levels."""
    return {"limits": TOURNAMENT_LIMITS, "bot_levels": bot_levels(request.app.state.settings)}


@router.post("/tournaments", status_code=201)
async def create_tournament(body: CreateTournament, request: Request) -> dict[str, Any]:
    """A new tournament, and its organizer secret (shown only here)."""
    club = _club(request)
    spec = make_tournament(body, bot_levels(request.app.state.settings))
    await club.creating(club.tournaments, _address(request))
    row, secret = await club.director.create(spec)
    return {"tournament": await club.director.state(row.id), "organizer_secret": secret}


@router.get("/tournaments")
async def list_tournaments(
    request: Request, limit: Annotated[WholeNumber, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """The newest tournaments."""
    rows = await asyncio.to_thread(_club(request).store.tournaments_list, limit)
    return {"tournaments": [{"id": r.id, "name": r.name, "status": r.status,
                             "round": r.round, "rounds": r.rounds,
                             "duplicate": r.spec.get("duplicate")} for r in rows]}


@router.get("/tournaments/{tournament_id}")
async def tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    """A tournament's page: entrants, rounds, tables, standings."""
    return await _club(request).director.state(tournament_id)


@router.post("/tournaments/{tournament_id}/join")
async def join_tournament(tournament_id: str, request: Request,
                          secret: ProfileHeader = None) -> dict[str, Any]:
    """A profile enters the tournament."""
    club = _club(request)
    row = await club.profile_of(secret)
    entrant = await club.director.join(tournament_id, row)
    return {"entrant": entrant.entrant, "tournament": await club.director.state(tournament_id)}


@router.post("/tournaments/{tournament_id}/leave")
async def leave_tournament(tournament_id: str, request: Request,
                           secret: ProfileHeader = None) -> dict[str, Any]:
    """A profile leaves the tournament before its start."""
    club = _club(request)
    row = await club.profile_of(secret)
    entrant = await club.director.leave(tournament_id, row)
    return {"entrant": entrant.entrant, "tournament": await club.director.state(tournament_id)}


class RemoveEntrant(BaseModel):
    """``POST /api/tournaments/{id}/remove``: the entrant as the state shows it (``"e2"``),
    or its number alone (``2``)."""

    model_config = STRICT

    entrant: StrictStr | StrictInt

    def entrant_id(self) -> str:
        """The entrant's id (``e2``); TableError 400 naming the field if it is none."""
        value = self.entrant
        if isinstance(value, int):
            text = f"e{value}" if value >= 1 else ""
        else:
            text = value.strip().lower()
            if text.isdigit():
                text = "e" + text
        if not 2 <= len(text) <= 8 or text[0] not in "eb" or not text[1:].isdigit():
            raise TableError("bad_request", f"entrant: {self.entrant!r} is not an entrant "
                             "number (e1, e2 … as the tournament shows them)")
        return text


@router.post("/tournaments/{tournament_id}/remove")
async def remove_entrant(tournament_id: str, body: RemoveEntrant, request: Request,
                         organizer: OrganizerHeader = None) -> dict[str, Any]:
    """The organizer takes an entrant out before the start (a no-show)."""
    club = _club(request)
    entrant = await club.director.remove(tournament_id, organizer, body.entrant_id())
    return {"entrant": entrant.entrant, "tournament": await club.director.state(tournament_id)}


@router.post("/tournaments/{tournament_id}/cancel")
async def cancel_tournament(tournament_id: str, request: Request,
                            organizer: OrganizerHeader = None) -> dict[str, Any]:
    """The organizer cancels the tournament before its start."""
    club = _club(request)
    await club.director.cancel(tournament_id, organizer)
    return await club.director.state(tournament_id)


@router.post("/tournaments/{tournament_id}/end-after-round")
async def end_after_round(tournament_id: str, request: Request,
                          organizer: OrganizerHeader = None) -> dict[str, Any]:
    """The organizer ends the tournament in play after its current round."""
    club = _club(request)
    await club.director.end_after_round(tournament_id, organizer)
    return await club.director.state(tournament_id)


@router.post("/tournaments/{tournament_id}/start")
async def start_tournament(tournament_id: str, request: Request,
                           organizer: OrganizerHeader = None) -> dict[str, Any]:
    """The organizer starts the tournament: bots fill the empty seats, round one begins."""
    club = _club(request)
    admission: Admission = request.app.state.admission
    key = _address(request)

    async def admit(tables: int, bots_only: int) -> None:
        await admission.admit_round(key, tables=tables, bots_only=bots_only)

    bots_only = await club.director.start(tournament_id, organizer, admit)
    admission.started(key, tournament_id, bots_only)
    return await club.director.state(tournament_id)


@router.post("/tournaments/{tournament_id}/advance")
async def advance_tournament(tournament_id: str, request: Request,
                             organizer: OrganizerHeader = None) -> dict[str, Any]:
    """The organizer moves the tournament on now if its round is over (the server also does
    it by itself); ``advanced`` says whether this request did."""
    club = _club(request)
    await club.director.organizer(tournament_id, organizer)
    moved = await club.director.advance(tournament_id)
    return {"advanced": moved, "tournament": await club.director.state(tournament_id)}


@router.post("/tournaments/{tournament_id}/seat")
async def my_seat(tournament_id: str, request: Request,
                  secret: ProfileHeader = None) -> dict[str, Any]:
    """A profile's table in the current round, with a seat token for this device."""
    club = _club(request)
    row = await club.profile_of(secret)
    table_id, seat, token = await club.director.seat_of(tournament_id, row)
    return {"table": table_id, "seat": seat, "token": token}


def install(app: FastAPI) -> None:
    """Add the club's routes (ahead of the lobby's table routes with the same prefix)."""
    app.include_router(router)

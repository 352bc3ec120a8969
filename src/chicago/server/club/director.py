"""Tournaments on the table server (docs/CLUB.md): the director creates them, takes
entrants, starts each round's tables together and moves on when a round's games are over.

Every round starts exactly once, whichever worker and however many try: the move is
decided under the tournament's shared lock (``tournament:ID``, :mod:`chicago.server.locking`)
on the stored state, and stored in one transaction whose round row (primary key tournament +
number) a second attempt cannot store again (:meth:`ClubStore.start_round`). A round's tables
are ordinary tables (private, rated, one game) whose profile seats are joined when they are
created; their players take them with their profile (:meth:`TableManager.claim`). The
worker that stores a round's last game moves the tournament on at once; every worker also
checks the tournaments in play now and then (a worker that died between the two, a restart).

The controls (a player leaves; the organizer removes an entrant, cancels, or ends the
tournament after the current round) take the same lock, so none of them crosses a start or
a round's move; each is stored in one transaction that checks the status again
(:class:`ClubStore`). An early end is a stored column (``ends_after``) that every worker
reads before it moves a round on, and that :meth:`ClubStore.start_round` checks too.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from chicago.club.ratings import bot_participant, ladder_key, profile_participant
from chicago.club.tournament import (
    Entrant,
    RoundPlan,
    TableResult,
    TournamentShape,
    fill_with_bots,
    plan_round,
    standings,
)
from chicago.rules import Rules
from chicago.server.club.secrets import check_secret
from chicago.server.core.finish import finish_rows
from chicago.server.core.rows import Change, GameRow, LogEntry, TableRow
from chicago.server.core.seats import TableOptions, TournamentPlace, hash_token
from chicago.server.core.state import build_table, iso_time
from chicago.server.credentials import grant_of
from chicago.server.live import LiveTable, now
from chicago.server.protocol import TableError
from chicago.server.storage.club import (
    ClubStore,
    EntrantRow,
    ProfileRow,
    TournamentRefused,
    TournamentRow,
    TournamentTableRow,
    check_status,
)

if TYPE_CHECKING:
    from chicago.server.tables import TableManager

__all__ = ["TournamentDirector", "TournamentSpec"]

log = logging.getLogger("chicago.server")

_T = TypeVar("_T")

_NOT_FOUND = frozenset({"unknown_tournament", "unknown_entrant", "not_entered"})
"""Refusals that are 404 (the others are 409: the tournament is not in that state)."""


RoundAdmission = Callable[[int, int], Awaitable[None]]
"""Admits a tournament's first round: called with its tables and its tables of bots only;
raises TableError (429 ``too_many_tables`` …) when they do not fit
(:meth:`chicago.server.admission.Admission.admit_round`)."""


def _refusal(exc: TournamentRefused) -> TableError:
    return TableError(exc.code, exc.message, 404 if exc.code in _NOT_FOUND else 409)


async def _stored(work: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """Run a store call in a worker thread; a refusal becomes the TableError it means."""
    try:
        return await asyncio.to_thread(work, *args, **kwargs)
    except TournamentRefused as exc:
        raise _refusal(exc) from None


@dataclass
class TournamentSpec:
    """A checked request to create a tournament (see :mod:`chicago.server.club.routes`)."""

    name: str
    preset: str
    rules: Rules
    """The rules of every game, its length (deals or target) applied."""
    variations: list[str]
    tables: int
    table_size: int
    rounds: int
    duplicate: bool
    bot: str
    deals: int | None = None
    target: int | None = None
    clock: float | None = None
    bot_delay: float = 0.5
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The stored (and shown) form."""
        return {"preset": self.preset, "rules": self.rules.to_dict(),
                "variations": list(self.variations), "tables": self.tables,
                "table_size": self.table_size, "rounds": self.rounds,
                "duplicate": self.duplicate, "bot": self.bot, "deals": self.deals,
                "target": self.target, "clock": self.clock, "bot_delay": self.bot_delay}


def _shape(row: TournamentRow) -> TournamentShape:
    """The tournament's shape; ended early, its rounds are those it ends after (the rounds
    played count as all its rounds: seating, the end and the final standings follow)."""
    spec = row.spec
    return TournamentShape(int(spec["tables"]), int(spec["table_size"]), row.rounds,
                           bool(spec["duplicate"]), row.seed)


def _entrant(row: EntrantRow) -> Entrant:
    return Entrant(row.entrant, row.name, row.ord, profile=row.profile_id, level=row.level)


class TournamentDirector:
    """The tournaments of one server process."""

    def __init__(self, store: ClubStore, manager: TableManager,
                 shown: dict[str, dict[str, float]]) -> None:
        self.store = store
        self.manager = manager
        self.shown = shown
        """Ladder -> participant -> shown rating (the club service's, kept up to date)."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._results: dict[str, TableResult] = {}
        """Finished tournament tables' results (records never change once stored)."""
        self._open_rounds: set[str] = set()
        """Tables of duplicate rounds known to be over (they may be watched)."""

    @contextlib.asynccontextmanager
    async def _holding(self, tournament_id: str) -> AsyncIterator[None]:
        """The tournament's lock: in this process, and across workers."""
        local = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with local, self.manager.locks.hold("tournament:" + tournament_id):
            yield

    async def _require(self, tournament_id: str) -> TournamentRow:
        if not 0 < len(tournament_id) <= 32:
            raise TableError("unknown_tournament", f"no tournament {tournament_id!r}", 404)
        row = await asyncio.to_thread(self.store.tournament, tournament_id)
        if row is None:
            raise TableError("unknown_tournament", f"no tournament {tournament_id!r}", 404)
        return row

    async def organizer(self, tournament_id: str, secret: str | None) -> TournamentRow:
        """The tournament, if ``secret`` is its organizer's; else TableError (401 without
        a secret, 403 with another)."""
        value = check_secret(secret, "organizer")
        row = await self._require(tournament_id)
        if not hmac.compare_digest(row.organizer_hash, hash_token(value)):
            raise TableError("bad_organizer", "not the organizer secret of this tournament",
                             403)
        return row

    # ------------------------------------------------------------------ requests
    async def create(self, spec: TournamentSpec) -> tuple[TournamentRow, str]:
        """Store a new tournament; it and the organizer's secret (shown once)."""
        secret = self.manager.new_secret(24)
        created = now()
        row = TournamentRow(
            id=self.manager.new_secret(12), name=spec.name,
            organizer_hash=hash_token(secret), spec=spec.to_dict(),
            seed=self.manager.new_seed(), status="registering", round=0,
            created_at=created, updated_at=created)
        await asyncio.to_thread(self.store.create_tournament, row)
        return row, secret

    async def join(self, tournament_id: str, profile: ProfileRow) -> EntrantRow:
        """A profile enters (before the start; not when full): its entrant row. It takes the
        tournament's lock, as a start does: a join between the start's reading the entrants
        and its storing round one would make an entrant without a seat."""
        row = await self._require(tournament_id)
        async with self._holding(tournament_id):
            return await _stored(self.store.add_entrant, tournament_id, profile.id,
                                 profile.name, _shape(row).seats, now())

    async def leave(self, tournament_id: str, profile: ProfileRow) -> EntrantRow:
        """A profile leaves before the start: its entrant row, gone. TableError (nothing
        changed) once the tournament started, ended or was cancelled, or if the profile has
        not joined."""
        await self._require(tournament_id)
        async with self._holding(tournament_id):
            return await _stored(self.store.remove_entrant, tournament_id, now(),
                                 profile_id=profile.id)

    async def remove(self, tournament_id: str, organizer: str | None,
                     entrant: str) -> EntrantRow:
        """The organizer takes an entrant out before the start (a no-show): its row, gone.
        TableError (nothing changed) for another secret, an unknown entrant, or once the
        tournament started, ended or was cancelled."""
        await self.organizer(tournament_id, organizer)
        async with self._holding(tournament_id):
            return await _stored(self.store.remove_entrant, tournament_id, now(),
                                 entrant=entrant)

    async def cancel(self, tournament_id: str, organizer: str | None) -> None:
        """The organizer cancels the tournament before its start (status ``cancelled``: it
        takes no entrants and never starts)."""
        await self.organizer(tournament_id, organizer)
        async with self._holding(tournament_id):
            await _stored(self.store.cancel, tournament_id, now())

    async def end_after_round(self, tournament_id: str, organizer: str | None) -> bool:
        """The organizer ends the tournament in play after its current round: no round
        starts after it, and when its tables are over the tournament is finished with the
        standings of the rounds played. True if this call stored it (False: it was so
        already). Whichever worker moves the round on reads it (under the same lock)."""
        await self.organizer(tournament_id, organizer)
        async with self._holding(tournament_id):
            row = await self._require(tournament_id)
            stored = await _stored(self.store.end_after, tournament_id, row.round, now())
        if stored:
            log.info("tournament %s: ends after round %d", tournament_id, row.round)
        await self.advance(tournament_id)  # the round may be over already
        return stored

    async def start(self, tournament_id: str, organizer: str | None,
                    admit: RoundAdmission | None = None) -> list[str]:
        """The organizer starts round one: bots fill the empty seats, the tables start. The
        round passes ``admit`` first (called with its number of tables and of tables of bots
        only; it raises when they do not fit, and nothing is stored). The ids of the round's
        tables of bots only (to be counted towards the caps)."""
        await self.organizer(tournament_id, organizer)
        async with self._holding(tournament_id):
            row = await self._require(tournament_id)
            try:
                check_status(row.status, "registering", "it was started already")
            except TournamentRefused as exc:
                raise _refusal(exc) from None
            shape = _shape(row)
            people = await asyncio.to_thread(self.store.entrants, tournament_id)
            if not people:
                raise TableError("no_entrants", "nobody has joined the tournament yet", 409)
            field_ = fill_with_bots([_entrant(e) for e in people], shape, row.spec["bot"])
            at = now()
            bots = [EntrantRow(tournament_id, e.id, e.order, e.name, None, e.level, at)
                    for e in field_ if e.is_bot]
            plan = await asyncio.to_thread(plan_round, shape, field_, 1, [], {})
            entrants = {e.id: e for e in field_}
            bot_tables = [i for i, seats in enumerate(plan.tables)
                          if all(entrants[e].is_bot for e in seats)]
            if admit is not None:
                await admit(len(plan.tables), len(bot_tables))
            if not await self._start_round(row, field_, plan, bots, "registering"):
                return []
        placed = await asyncio.to_thread(self.store.tournament_tables, tournament_id)
        numbers = {i + 1 for i in bot_tables}
        return [t.table_id for t in placed if t.round == 1 and t.number in numbers]

    async def advance(self, tournament_id: str) -> bool:
        """Move on if the current round's games are all over: start the next round, or end
        the tournament after the last. True if this call moved it on (an attempt that finds
        the round still playing, or already moved on, changes nothing)."""
        async with self._holding(tournament_id):
            row = await asyncio.to_thread(self.store.tournament, tournament_id)
            if row is None or row.status != "playing":
                return False
            shape = _shape(row)
            games = await asyncio.to_thread(self.store.round_games, tournament_id, row.round)
            if len(games) < shape.tables or any(g.status != "finished"
                                                for g in games.values()):
                return False
            released = await self._released(row, games) if shape.duplicate else []
            if row.round >= shape.rounds:  # the last round, or the one it ends after
                return await asyncio.to_thread(self.store.finish, tournament_id, row.round,
                                               now(), released)
            field_, plans, results = await self._history(row)
            # the seating search may take a moment for a large field: not on the loop
            plan = await asyncio.to_thread(plan_round, shape, field_, row.round + 1, plans,
                                           results)
            return await self._start_round(row, field_, plan, [], "playing", released)

    async def _released(self, row: TournamentRow, games: dict[int, GameRow]) -> list[Change]:
        """The rows the games of a duplicate round held back (statistics, the games to
        rate: :func:`~chicago.server.club.finish.held_back`), worked out again from the
        tables' logs, to be stored with the round's end, all tables together."""
        tables = await asyncio.to_thread(self.store.tournament_tables, row.id)
        released = []
        for placed in (t for t in tables if t.round == row.round):
            game = games[placed.number]
            live = await self.manager.require(placed.table_id)
            state = live.state
            players, rated = finish_rows(state, state.current, game.finished_at or now(),
                                         release=True)
            released.append(Change(placed.table_id, [], players=players, rated=rated))
        return released

    async def _start_round(self, row: TournamentRow, field_: list[Entrant], plan: RoundPlan,
                           bots: list[EntrantRow], expect: str,
                           released: list[Change] | None = None) -> bool:
        spec = row.spec
        entrants = {e.id: e for e in field_}
        at = now()
        changes, placed = list(released or []), []
        for index, seats in enumerate(plan.tables):
            table_id = self.manager.new_secret(16)
            seed = plan.game_seeds[index]
            options = TableOptions(
                clock=spec.get("clock"), stand_in=spec["bot"],
                bot_delay=spec.get("bot_delay", 0.5), rated=True,
                tournament=TournamentPlace(row.id, plan.number, index + 1,
                                           bool(spec["duplicate"]))).to_dict()
            table = TableRow(
                id=table_id, name=f"{row.name} · {plan.number}.{index + 1}",
                players=len(seats), preset=spec["preset"], rules=spec["rules"],
                variations=list(spec["variations"]),
                seats=["open" if entrants[e].profile else f"bot:{entrants[e].level}"
                       for e in seats],
                options=options, private=True, secret=self.manager.new_secret(16),
                status="playing", open_seats=0, game=1, created_at=at, updated_at=at)
            data: dict[str, Any] = {"number": 1, "seed": seed}
            if plan.deck_seed is not None:
                data["deck_seed"] = plan.deck_seed
            entries = [LogEntry(1, 1, "game", None, data, at)]
            for seat, entrant_id in enumerate(seats):
                entrant = entrants[entrant_id]
                if entrant.profile:  # joined for its profile; a token nobody holds yet
                    entries.append(LogEntry(len(entries) + 1, 1, "join", seat, {
                        "name": entrant.name, "profile": entrant.profile,
                        "token": hash_token(self.manager.new_secret(24))}, at))
            game = GameRow(table_id=table_id, number=1, seed=seed, rules=spec["rules"],
                           players=len(seats), status="playing", started_at=at)
            build_table(table, entries)  # what is stored always loads (raises if not)
            changes.append(Change(table_id, entries, new_table=table, new_game=game))
            placed.append(TournamentTableRow(row.id, plan.number, index + 1, table_id,
                                             list(seats)))
        started = await asyncio.to_thread(
            self.store.start_round, row.id, plan.number, plan.to_dict(), placed, changes, at,
            bots, expect)
        if started:
            log.info("tournament %s: round %d started (%d tables)", row.id, plan.number,
                     len(placed))
            for placed_table in placed:  # load them: their bots and clocks start here
                with contextlib.suppress(Exception):
                    await self.manager.get(placed_table.table_id)
        return started

    async def resume(self) -> None:
        """Move on every tournament in play whose round is over (after a restart, or when
        the worker that stored the round's last game died before it moved on)."""
        ids = await asyncio.to_thread(self.store.playing_tournament_ids)
        for tournament_id in ids:
            try:
                while await self.advance(tournament_id):
                    pass
            except Exception:
                log.exception("tournament %s: cannot move on", tournament_id)

    # ------------------------------------------------------------------ state
    async def _result(self, table_id: str, game: GameRow) -> TableResult | None:
        if game.status != "finished" or game.record is None:
            return None
        found = self._results.get(table_id)
        if found is None:
            found = await asyncio.to_thread(TableResult.from_record, game.record)
            self._results[table_id] = found
        return found

    async def _history(self, row: TournamentRow) -> tuple[
            list[Entrant], list[RoundPlan], dict[int, dict[int, TableResult]]]:
        entrants = await asyncio.to_thread(self.store.entrants, row.id)
        rounds = await asyncio.to_thread(self.store.rounds, row.id)
        tables = await asyncio.to_thread(self.store.tournament_tables, row.id)
        ids = {(t.round, t.number): t.table_id for t in tables}
        plans = [RoundPlan.from_dict(r.plan) for r in rounds]
        results: dict[int, dict[int, TableResult]] = {}
        for plan in plans:
            games = await asyncio.to_thread(self.store.round_games, row.id, plan.number)
            for number, game in games.items():
                result = await self._result(ids[(plan.number, number)], game)
                if result is not None:
                    results.setdefault(plan.number, {})[number - 1] = result
        return [_entrant(e) for e in entrants], plans, results

    async def state(self, tournament_id: str) -> dict[str, Any]:
        """Everything the tournament page shows (docs/PROTOCOL.md, "Tournaments"). The
        games of a duplicate round in play show no scores and count in no standings until
        the round is over (their results would tell the other tables about cards to come)."""
        row = await self._require(tournament_id)
        shape = _shape(row)
        field_, plans, results = await self._history(row)
        names = {e.id: e for e in field_}
        ladder = ladder_key(Rules.from_dict(row.spec["rules"]), shape.table_size)
        shown = self.shown.get(ladder, {})

        def rating(entrant: Entrant) -> float | None:
            participant = (bot_participant(entrant.level) if entrant.level
                           else profile_participant(entrant.profile or ""))
            return shown.get(participant)

        rounds_out = []
        stored_rounds = {r.number: r for r in await asyncio.to_thread(self.store.rounds,
                                                                       row.id)}
        if shape.duplicate:  # a round in play shows no result: the cards are still to come
            results = {n: r for n, r in results.items()
                       if stored_rounds[n].status == "finished"}
        tables = await asyncio.to_thread(self.store.tournament_tables, row.id)
        for plan in plans:
            stored = stored_rounds[plan.number]
            open_ = stored.status == "finished" or not shape.duplicate
            games = await asyncio.to_thread(self.store.round_games, row.id, plan.number)
            out_tables = []
            for t in (t for t in tables if t.round == plan.number):
                game = games.get(t.number)
                live = self.manager.tables.get(t.table_id) if open_ else None
                finished = game is not None and game.status == "finished"
                result = (game.result or {}) if finished and open_ and game is not None else {}
                out_tables.append({
                    "number": t.number, "table": t.table_id,
                    "seats": [{"seat": i, "entrant": e, "name": names[e].name,
                               "kind": "bot" if names[e].is_bot else "profile",
                               "profile": names[e].profile} for i, e in enumerate(t.seats)],
                    "status": "finished" if finished else "playing",
                    "scores": result.get("scores") if result else (
                        list(live.state.current.scores) if live is not None and live.state.game
                        else None),
                    "winners": result.get("winners") if result else None,
                    "deals": result.get("deals") if result else (
                        live.state.current.deal_number if live is not None and live.state.game
                        else None),
                    "watch": open_,
                    "record": (f"/api/web/record/{t.table_id}/1" if finished and open_
                               else None),
                    "replay": (f"#/replay/{t.table_id}/1" if finished and open_ else None),
                })
            rounds_out.append({"number": plan.number, "status": stored.status,
                               "started": iso_time(stored.started_at),
                               "tables": out_tables})
        board = (await asyncio.to_thread(standings, shape, field_, plans, results)
                 if plans else [])
        return {
            "id": row.id, "name": row.name, "status": row.status, "round": row.round,
            "rounds": shape.rounds, "ends_after": row.ends_after,
            "tables": shape.tables, "table_size": shape.table_size,
            "seats": shape.seats, "duplicate": shape.duplicate, "ladder": ladder,
            "spec": row.spec, "created": iso_time(row.created_at),
            "updated": iso_time(row.updated_at),
            "entrants": [{**e.to_dict(), "rating": rating(e)} for e in field_],
            "rounds_played": rounds_out,
            "standings": [{**s.to_dict(), "rating": rating(s.entrant)} for s in board],
            "final": row.status == "finished",
        }

    async def seat_of(self, tournament_id: str, profile: ProfileRow) -> tuple[str, int, str]:
        """The current round's table of a profile: (table id, seat, a new seat token)."""
        row = await self._require(tournament_id)
        if row.status != "playing":
            raise TableError("not_playing", "the tournament has no round in play", 409)
        entrants = await asyncio.to_thread(self.store.entrants, tournament_id)
        mine = next((e for e in entrants if e.profile_id == profile.id), None)
        if mine is None:
            raise TableError("not_entered", "this profile has not joined the tournament", 404)
        tables = await asyncio.to_thread(self.store.tournament_tables, tournament_id)
        table = next((t for t in tables if t.round == row.round and mine.entrant in t.seats),
                     None)
        if table is None:
            raise TableError("not_entered", "no table of this round seats the profile", 404)
        token, seat = await self.manager.claim(table.table_id, profile.id,
                                               grant_of(profile.secret_hash))
        return table.table_id, seat, token

    # ------------------------------------------------------------------ hidden cards
    async def round_open(self, table_id: str, options: dict[str, Any]) -> bool:
        """Whether a table may be watched and its records served: always, unless it plays
        a duplicate round still in play (its cards are still to come at other tables)."""
        tournament = options.get("tournament")
        if not isinstance(tournament, dict) or not tournament.get("duplicate"):
            return True
        if table_id in self._open_rounds:
            return True
        place = await asyncio.to_thread(self.store.table_place, table_id)
        if place is None or place[1] == "finished":
            self._open_rounds.add(table_id)
            return True
        return False

    async def spectator_gate(self, table: LiveTable) -> None:
        """TableError 403 ``round_running`` for a spectator of a running duplicate round."""
        if not await self.round_open(table.id, table.state.row.options):
            raise TableError("round_running", "this duplicate round is still being played: "
                             "its tables can be watched when the round is over", 403)

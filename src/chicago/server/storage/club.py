"""The club's reads and writes (docs/CLUB.md): profiles, ratings, tournaments. Synchronous,
called from worker threads, on the same database (and engine) as :class:`Store`.

Writes that must happen once are made so by the database itself:

- a rated game's rating changes: :meth:`ClubStore.apply_ratings` marks the game applied
  with an update conditional on it not being applied yet, in the transaction that stores
  the changes (two appliers can never both apply one game);
- a tournament round: :meth:`ClubStore.start_round` inserts the round's row (primary key
  tournament + number) in the transaction that creates its tables, so a second attempt
  fails as a whole and changes nothing;
- joining, leaving and every organizer's control (removing an entrant, cancelling, ending
  after the current round): the tournament's row is locked (PostgreSQL ``FOR UPDATE``;
  SQLite has one writer) while its status is checked and the change is stored, so a
  control never crosses a start, a round's start or the end.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from chicago.club.names import name_key
from chicago.club.ratings import RatedGame, Rating, RatingChange, rate_game
from chicago.server.core.rows import Change, RatedGameRow
from chicago.server.storage.models import (
    game_players,
    games,
    profiles,
    rated_games,
    rating_changes,
    ratings,
    tables,
    tournament_entrants,
    tournament_rounds,
    tournament_tables,
    tournaments,
)
from chicago.server.storage.plain import compact_json
from chicago.server.storage.store import Store, game_row

__all__ = [
    "ClubStore",
    "EntrantRow",
    "NameTaken",
    "ProfileRow",
    "RoundRow",
    "TournamentRefused",
    "TournamentRow",
    "TournamentTableRow",
    "check_status",
]


class TournamentRefused(Exception):
    """A tournament refused a request (nothing was stored): ``code`` (``tournament_full``,
    ``tournament_started``, ``tournament_over``, ``tournament_cancelled``, ``not_playing``,
    ``already_joined``, ``not_entered``, ``unknown_entrant``, ``unknown_tournament``) and
    words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(slots=True)
class ProfileRow:
    """A ``profiles`` row (never the secret: only its hash)."""

    id: str
    name: str
    secret_hash: str
    created_at: float
    rotated_at: float
    name_key: str | None = None
    """The name as names are compared (:func:`chicago.club.names.name_key`), as stored;
    :meth:`ClubStore.create_profile` computes it."""


class NameTaken(Exception):
    """Another profile has this name (as :func:`chicago.club.names.name_key` compares
    names); nothing was stored."""

    def __init__(self, name: str) -> None:
        super().__init__(f"the name {name!r} is taken by another profile: choose another "
                         "(add an initial or a surname, say)")
        self.name = name


@dataclass(slots=True)
class TournamentRow:
    """A ``tournaments`` row, its spec decoded."""

    id: str
    name: str
    organizer_hash: str
    spec: dict[str, Any]
    seed: int
    status: str
    round: int
    created_at: float
    updated_at: float
    ends_after: int | None = None
    """The round after which the organizer ended the tournament early (None: every round)."""
    joins: int = 0
    """Entrant numbers handed out so far (a number freed by leaving is not handed out
    again)."""

    @property
    def rounds(self) -> int:
        """The rounds it plays: those it was created with, or fewer if the organizer ended
        it early (the rounds played then count as all its rounds)."""
        planned = int(self.spec["rounds"])
        return planned if self.ends_after is None else min(planned, self.ends_after)


def check_status(status: str, wanted: str, after: str) -> None:
    """TournamentRefused unless a tournament in ``status`` is in the ``wanted`` one
    (``registering`` or ``playing``); ``after`` finishes the sentence of a started
    tournament ("it takes no more entrants")."""
    if status == wanted:
        return
    if status == "cancelled":
        raise TournamentRefused("tournament_cancelled", "the organizer cancelled the tournament")
    if status == "finished":
        raise TournamentRefused("tournament_over", "the tournament is over")
    if wanted == "registering":
        raise TournamentRefused("tournament_started", f"the tournament has started: {after}")
    raise TournamentRefused("not_playing", "the tournament has not started: no round is "
                            "being played")


@dataclass(slots=True)
class EntrantRow:
    """A ``tournament_entrants`` row."""

    tournament_id: str
    entrant: str
    ord: int
    name: str
    profile_id: str | None
    level: str | None
    joined_at: float


@dataclass(slots=True)
class RoundRow:
    """A ``tournament_rounds`` row, its plan decoded."""

    tournament_id: str
    number: int
    plan: dict[str, Any]
    status: str
    started_at: float
    finished_at: float | None


@dataclass(slots=True)
class TournamentTableRow:
    """A ``tournament_tables`` row."""

    tournament_id: str
    round: int
    number: int
    table_id: str
    seats: list[str]


class ClubStore:
    """Club reads and writes on a :class:`Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # ------------------------------------------------------------------ profiles
    def create_profile(self, row: ProfileRow) -> None:
        """Store a new profile; :class:`NameTaken` (nothing stored) if another profile has
        its name: the unique index on the name's key decides, also between two at once."""
        key = name_key(row.name)
        try:
            with self.store.write_lock, self.engine.begin() as conn:
                conn.execute(insert(profiles).values(
                    id=row.id, name=row.name, secret_hash=row.secret_hash,
                    created_at=row.created_at, rotated_at=row.rotated_at, name_key=key))
        except IntegrityError:
            with self.engine.connect() as conn:
                taken = conn.execute(select(profiles.c.id).where(profiles.c.name_key == key)
                                     ).first() is not None
            if taken:
                raise NameTaken(row.name) from None
            raise

    def profile(self, profile_id: str) -> ProfileRow | None:
        """One profile by id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(profiles).where(profiles.c.id == profile_id)).mappings() \
                .first()
        return None if row is None else ProfileRow(**row)

    def profile_by_secret(self, secret_hash: str) -> ProfileRow | None:
        """The profile whose secret has this hash."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(profiles).where(profiles.c.secret_hash == secret_hash)).mappings().first()
        return None if row is None else ProfileRow(**row)

    def profiles_named(self, ids: Sequence[str]) -> dict[str, str]:
        """Profile id -> name, for the ids that exist."""
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(profiles.c.id, profiles.c.name)
                                .where(profiles.c.id.in_(list(ids)))).all()
        return {r[0]: r[1] for r in rows}

    def rotate_secret(self, profile_id: str, old_hash: str, new_hash: str, now: float) -> bool:
        """Give a profile a new secret, if its secret is still ``old_hash``."""
        with self.engine.begin() as conn:
            result = conn.execute(
                update(profiles)
                .where(profiles.c.id == profile_id, profiles.c.secret_hash == old_hash)
                .values(secret_hash=new_hash, rotated_at=now))
        return bool(result.rowcount)

    def profile_lines(self, profile_id: str) -> list[dict[str, int]]:
        """The profile's game lines (one per finished game), for its statistics."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(game_players.c.line)
                                .where(game_players.c.profile_id == profile_id)).all()
        return [json.loads(r[0]) for r in rows]

    def profile_games(self, profile_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """The profile's latest finished games: table, number, seat, rated, ladder, line,
        finished time, the table's name and options, the game's result and names."""
        query = (
            select(game_players, tables.c.name.label("table_name"),
                   tables.c.options, games.c.result, games.c.names)
            .join(tables, tables.c.id == game_players.c.table_id)
            .join(games, (games.c.table_id == game_players.c.table_id)
                  & (games.c.number == game_players.c.number))
            .where(game_players.c.profile_id == profile_id)
            .order_by(game_players.c.finished_at.desc()).limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [{
            "table": r["table_id"], "game": r["number"], "seat": r["seat"],
            "rated": bool(r["rated"]), "ladder": r["ladder"], "line": json.loads(r["line"]),
            "finished_at": r["finished_at"], "name": r["table_name"],
            "result": json.loads(r["result"]) if r["result"] else None,
            "names": json.loads(r["names"]) if r["names"] else None,
            "options": json.loads(r["options"]),
        } for r in rows]

    # ------------------------------------------------------------------ ratings
    def pending_ratings(self) -> list[RatedGameRow]:
        """Rated games not applied yet, in the order they were stored."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(rated_games).where(rated_games.c.applied.is_(False))
                                .order_by(rated_games.c.seq)).mappings().all()
        return [_rated(r) for r in rows]

    def apply_ratings(self, now: float) -> list[tuple[RatedGameRow, list[RatingChange]]]:
        """Apply every pending rated game, in order, each in its own transaction; what was
        applied here (a game another applier took first is skipped)."""
        done = []
        for game in self.pending_ratings():
            changes = self._apply_one(game, now)
            if changes is not None:
                done.append((game, changes))
        return done

    def _apply_one(self, game: RatedGameRow, now: float) -> list[RatingChange] | None:
        assert game.seq is not None
        with self.store.write_lock, self.engine.begin() as conn:
            taken = conn.execute(
                update(rated_games)
                .where(rated_games.c.seq == game.seq, rated_games.c.applied.is_(False))
                .values(applied=True))
            if not taken.rowcount:
                return None
            current = self._current(conn, game.ladder, set(game.participants))
            changes = rate_game(current, RatedGame(
                f"{game.table_id}/{game.number}", game.ladder, tuple(game.participants),
                tuple(game.places)))
            for change in changes:
                conn.execute(insert(rating_changes).values(
                    seq=game.seq, participant=change.participant, ladder=game.ladder,
                    seats=compact_json(list(change.seats)), mu_before=change.before.mu,
                    sigma_before=change.before.sigma, mu=change.after.mu,
                    sigma=change.after.sigma, at=now))
                key = (ratings.c.ladder == game.ladder,
                       ratings.c.participant == change.participant)
                moved = conn.execute(update(ratings).where(*key).values(
                    mu=change.after.mu, sigma=change.after.sigma,
                    games=ratings.c.games + 1, updated_at=now))
                if not moved.rowcount:
                    conn.execute(insert(ratings).values(
                        ladder=game.ladder, participant=change.participant,
                        mu=change.after.mu, sigma=change.after.sigma, games=1,
                        updated_at=now))
        return changes

    @staticmethod
    def _current(conn: Connection, ladder: str, participants: set[str]) -> dict[str, Rating]:
        rows = conn.execute(select(ratings).where(
            ratings.c.ladder == ladder, ratings.c.participant.in_(sorted(participants)))
            .with_for_update()).mappings().all()
        return {r["participant"]: Rating(r["mu"], r["sigma"]) for r in rows}

    def ratings_of(self, participants: Sequence[str],
                   ladder: str | None = None) -> dict[tuple[str, str], tuple[Rating, int]]:
        """(ladder, participant) -> (rating, games) for these participants (on one ladder,
        or on all)."""
        if not participants:
            return {}
        query = select(ratings).where(ratings.c.participant.in_(list(participants)))
        if ladder is not None:
            query = query.where(ratings.c.ladder == ladder)
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return {(r["ladder"], r["participant"]): (Rating(r["mu"], r["sigma"]), r["games"])
                for r in rows}

    def all_ratings(self) -> dict[tuple[str, str], Rating]:
        """Every current rating: (ladder, participant) -> rating."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings)).mappings().all()
        return {(r["ladder"], r["participant"]): Rating(r["mu"], r["sigma"]) for r in rows}

    def ladders(self) -> list[tuple[str, int]]:
        """Every ladder with its number of rated participants, the busiest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings.c.ladder, func.count())
                                .group_by(ratings.c.ladder)).all()
        return sorted(((r[0], int(r[1])) for r in rows), key=lambda x: (-x[1], x[0]))

    def leaderboard(self, ladder: str, limit: int = 100) -> list[tuple[str, Rating, int]]:
        """One ladder: (participant, rating, games), best shown rating first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings).where(ratings.c.ladder == ladder)).mappings() \
                .all()
        board = [(r["participant"], Rating(r["mu"], r["sigma"]), int(r["games"]))
                 for r in rows]
        board.sort(key=lambda row: (-row[1].shown, row[0]))
        return board[:limit]

    def rating_history(self, participant: str) -> list[dict[str, Any]]:
        """Every rating change of a participant, oldest first, with its game."""
        query = (
            select(rating_changes, rated_games.c.table_id, rated_games.c.number)
            .join(rated_games, rated_games.c.seq == rating_changes.c.seq)
            .where(rating_changes.c.participant == participant)
            .order_by(rating_changes.c.seq)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [{
            "seq": r["seq"], "ladder": r["ladder"], "table": r["table_id"], "game": r["number"],
            "at": r["at"], "before": Rating(r["mu_before"], r["sigma_before"]).to_dict(),
            "after": Rating(r["mu"], r["sigma"]).to_dict(),
        } for r in rows]

    def applied_games(self) -> list[RatedGame]:
        """Every applied rated game in the order it was applied (for recomputation)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(rated_games).where(rated_games.c.applied.is_(True))
                                .order_by(rated_games.c.seq)).mappings().all()
        return [RatedGame(f"{r['table_id']}/{r['number']}", r["ladder"],
                          tuple(json.loads(r["participants"])),
                          tuple(json.loads(r["places"]))) for r in rows]

    # ------------------------------------------------------------------ tournaments
    def create_tournament(self, row: TournamentRow) -> None:
        """Store a new tournament."""
        with self.store.write_lock, self.engine.begin() as conn:
            conn.execute(insert(tournaments).values(
                id=row.id, name=row.name, organizer_hash=row.organizer_hash,
                spec=compact_json(row.spec), seed=row.seed, status=row.status, round=row.round,
                ends_after=row.ends_after, joins=row.joins, created_at=row.created_at,
                updated_at=row.updated_at))

    def tournament(self, tournament_id: str) -> TournamentRow | None:
        """One tournament."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)) \
                .mappings().first()
        return None if row is None else _tournament(row)

    def tournaments_list(self, limit: int = 50) -> list[TournamentRow]:
        """The newest tournaments."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tournaments).order_by(tournaments.c.created_at.desc())
                                .limit(limit)).mappings().all()
        return [_tournament(r) for r in rows]

    def playing_tournament_ids(self) -> list[str]:
        """Tournaments in play (to check their rounds at start-up)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tournaments.c.id)
                                .where(tournaments.c.status == "playing")).all()
        return [r[0] for r in rows]

    def entrants(self, tournament_id: str) -> list[EntrantRow]:
        """A tournament's entrants in joining order."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tournament_entrants)
                                .where(tournament_entrants.c.tournament_id == tournament_id)
                                .order_by(tournament_entrants.c.ord)).mappings().all()
        return [EntrantRow(**r) for r in rows]

    def add_entrant(self, tournament_id: str, profile_id: str, name: str, capacity: int,
                    now: float) -> EntrantRow:
        """A profile joins a tournament still taking entrants; TournamentRefused says why
        not. Its number (``e1``, ``e2`` …) and joining order follow every number handed out
        before, also those freed by players who left."""
        with self.store.write_lock, self.engine.begin() as conn:
            status, joins = self._locked(conn, tournament_id)
            check_status(status, "registering", "it takes no more entrants")
            present = conn.execute(select(tournament_entrants.c.profile_id)
                                   .where(tournament_entrants.c.tournament_id == tournament_id)
                                   ).all()
            if any(p[0] == profile_id for p in present):
                raise TournamentRefused("already_joined", "this profile has joined already")
            if len(present) >= capacity:
                raise TournamentRefused("tournament_full",
                                        f"the tournament is full ({capacity} seats taken)")
            entrant = EntrantRow(tournament_id, f"e{joins + 1}", joins, name, profile_id,
                                 None, now)
            conn.execute(insert(tournament_entrants).values(
                tournament_id=tournament_id, entrant=entrant.entrant, ord=entrant.ord,
                name=name, profile_id=profile_id, level=None, joined_at=now))
            conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                         .values(joins=joins + 1, updated_at=now))
        return entrant

    @staticmethod
    def _locked(conn: Connection, tournament_id: str) -> tuple[str, int]:
        """The status and the numbers handed out of a tournament, its row locked until the
        transaction ends; TournamentRefused ``unknown_tournament`` if there is none."""
        row = conn.execute(select(tournaments.c.status, tournaments.c.joins)
                           .where(tournaments.c.id == tournament_id)
                           .with_for_update()).first()
        if row is None:
            raise TournamentRefused("unknown_tournament", f"no tournament {tournament_id!r}")
        return str(row[0]), int(row[1])

    def remove_entrant(self, tournament_id: str, now: float, *, entrant: str | None = None,
                       profile_id: str | None = None) -> EntrantRow:
        """Before the start, take an entrant out (by its number: the organizer; by its
        profile: the player leaving); the removed row. TournamentRefused (nothing changed)
        when the tournament has started, is over or was cancelled, or has no such entrant
        (``unknown_entrant`` by number, ``not_entered`` by profile)."""
        if (entrant is None) == (profile_id is None):
            raise ValueError("remove_entrant: give an entrant or a profile, not both")
        with self.store.write_lock, self.engine.begin() as conn:
            status, _ = self._locked(conn, tournament_id)
            check_status(status, "registering", "its field is fixed")
            where = [tournament_entrants.c.tournament_id == tournament_id]
            if entrant is not None:
                where.append(tournament_entrants.c.entrant == entrant)
            else:
                where.append(tournament_entrants.c.profile_id == profile_id)
            found = conn.execute(select(tournament_entrants).where(*where)).mappings().first()
            if found is None:
                if entrant is not None:
                    raise TournamentRefused("unknown_entrant",
                                            f"the tournament has no entrant {entrant!r}")
                raise TournamentRefused("not_entered",
                                        "this profile has not joined the tournament")
            conn.execute(delete(tournament_entrants).where(*where))
            conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                         .values(updated_at=now))
        return EntrantRow(**found)

    def cancel(self, tournament_id: str, now: float) -> None:
        """Cancel a tournament before its start (it keeps its entrants, to be shown);
        TournamentRefused (nothing changed) once it started, ended or was cancelled."""
        with self.store.write_lock, self.engine.begin() as conn:
            status, _ = self._locked(conn, tournament_id)
            check_status(status, "registering", "end it after the current round instead")
            conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                         .values(status="cancelled", updated_at=now))

    def end_after(self, tournament_id: str, number: int, now: float) -> bool:
        """End a tournament in play after its round ``number`` (the current one): no round
        starts after it. True if this call stored it, False if it was so already;
        TournamentRefused when it is not in play or has moved on to another round."""
        with self.store.write_lock, self.engine.begin() as conn:
            status, _ = self._locked(conn, tournament_id)
            check_status(status, "playing", "")
            row = conn.execute(select(tournaments.c.round, tournaments.c.ends_after)
                               .where(tournaments.c.id == tournament_id)).one()
            if row[0] != number:
                raise TournamentRefused("not_playing", f"round {number} is not the current "
                                        f"round ({row[0]})")
            if row[1] is not None and row[1] <= number:
                return False
            conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                         .values(ends_after=number, updated_at=now))
        return True

    def start_round(self, tournament_id: str, number: int, plan: dict[str, Any],
                    tables_of_round: list[TournamentTableRow], changes: list[Change],
                    now: float, bots: Sequence[EntrantRow] = (),
                    expect_status: str = "registering") -> bool:
        """Start round ``number`` at once: its row, its tables (the ``changes`` that create
        them), the bots that fill the field (round one), the tournament's new state. False
        (nothing stored) when that round was started already or the tournament is not in
        ``expect_status`` (round one: registering; later: playing). ``changes`` may also
        hold the released rows of the previous duplicate round's games (no entries), stored
        in the same transaction as the round's end."""
        try:
            with self.store.write_lock, self.engine.begin() as conn:
                row = conn.execute(select(tournaments.c.status, tournaments.c.round,
                                          tournaments.c.ends_after)
                                   .where(tournaments.c.id == tournament_id)
                                   .with_for_update()).first()
                if row is None or row[0] != expect_status or row[1] != number - 1:
                    return False
                if row[2] is not None and number > row[2]:
                    return False  # the organizer ended it after an earlier round
                for bot in bots:
                    conn.execute(insert(tournament_entrants).values(
                        tournament_id=tournament_id, entrant=bot.entrant, ord=bot.ord,
                        name=bot.name, profile_id=None, level=bot.level,
                        joined_at=bot.joined_at))
                conn.execute(insert(tournament_rounds).values(
                    tournament_id=tournament_id, number=number, plan=compact_json(plan),
                    status="playing", started_at=now, finished_at=None))
                if number > 1:
                    conn.execute(update(tournament_rounds).where(
                        tournament_rounds.c.tournament_id == tournament_id,
                        tournament_rounds.c.number == number - 1,
                    ).values(status="finished", finished_at=now))
                for change in changes:
                    self.store.apply_change(conn, change)
                for table in tables_of_round:
                    conn.execute(insert(tournament_tables).values(
                        tournament_id=tournament_id, round=table.round, number=table.number,
                        table_id=table.table_id, seats=compact_json(table.seats)))
                conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                             .values(status="playing", round=number, updated_at=now))
        except IntegrityError:
            return False
        return True

    def finish(self, tournament_id: str, rounds: int, now: float,
               released: Sequence[Change] = ()) -> bool:
        """End a tournament after its last round (``rounds``: the round it ends after, the
        last planned one or the one the organizer ended it after), storing the ``released``
        rows of its duplicate round's games with it; False (nothing stored) if it was ended
        already."""
        with self.store.write_lock, self.engine.begin() as conn:
            result = conn.execute(update(tournaments).where(
                tournaments.c.id == tournament_id, tournaments.c.status == "playing",
                tournaments.c.round == rounds).values(status="finished", updated_at=now))
            if not result.rowcount:
                return False
            for change in released:
                self.store.apply_change(conn, change)
            conn.execute(update(tournament_rounds).where(
                tournament_rounds.c.tournament_id == tournament_id,
                tournament_rounds.c.number == rounds,
            ).values(status="finished", finished_at=now))
        return True

    def rounds(self, tournament_id: str) -> list[RoundRow]:
        """A tournament's started rounds, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tournament_rounds)
                                .where(tournament_rounds.c.tournament_id == tournament_id)
                                .order_by(tournament_rounds.c.number)).mappings().all()
        return [RoundRow(r["tournament_id"], r["number"], json.loads(r["plan"]), r["status"],
                         r["started_at"], r["finished_at"]) for r in rows]

    def tournament_tables(self, tournament_id: str) -> list[TournamentTableRow]:
        """A tournament's tables, by round and number."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tournament_tables)
                                .where(tournament_tables.c.tournament_id == tournament_id)
                                .order_by(tournament_tables.c.round,
                                          tournament_tables.c.number)).mappings().all()
        return [_ttable(r) for r in rows]

    def table_place(self, table_id: str) -> tuple[TournamentTableRow, str] | None:
        """The tournament table a live table plays, and its round's status."""
        query = (
            select(tournament_tables, tournament_rounds.c.status)
            .join(tournament_rounds,
                  (tournament_rounds.c.tournament_id == tournament_tables.c.tournament_id)
                  & (tournament_rounds.c.number == tournament_tables.c.round))
            .where(tournament_tables.c.table_id == table_id)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).mappings().first()
        return None if row is None else (_ttable(row), str(row["status"]))

    def round_games(self, tournament_id: str, number: int) -> dict[int, Any]:
        """Table number -> the first game's row of each table of a round (status, record)."""
        query = (
            select(tournament_tables.c.number.label("table_number"), games)
            .join(games, (games.c.table_id == tournament_tables.c.table_id)
                  & (games.c.number == 1))
            .where(tournament_tables.c.tournament_id == tournament_id,
                   tournament_tables.c.round == number)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return {int(r["table_number"]): game_row(r) for r in rows}


def _rated(r: Any) -> RatedGameRow:
    return RatedGameRow(
        table_id=r["table_id"], number=r["number"], ladder=r["ladder"],
        participants=json.loads(r["participants"]), places=json.loads(r["places"]),
        finished_at=r["finished_at"], applied=bool(r["applied"]), seq=r["seq"])


def _tournament(r: Any) -> TournamentRow:
    return TournamentRow(
        id=r["id"], name=r["name"], organizer_hash=r["organizer_hash"],
        spec=json.loads(r["spec"]), seed=int(r["seed"]), status=r["status"], round=r["round"],
        created_at=r["created_at"], updated_at=r["updated_at"], ends_after=r["ends_after"],
        joins=int(r["joins"]))


def _ttable(r: Any) -> TournamentTableRow:
    return TournamentTableRow(r["tournament_id"], r["round"], r["number"], r["table_id"],
                              json.loads(r["seats"]))

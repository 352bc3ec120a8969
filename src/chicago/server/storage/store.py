"""The store: every write and read of the table server's database, synchronous.

The server calls it from worker threads (:class:`chicago.server.writer.GroupWriter` is the
one writer thread, which batches the changes of all tables into one transaction: a group
commit). The statements of the writes every action makes (its log rows, its table row
update) are made once and reused, and a batch's row updates that set the same columns go
in one statement with many parameter sets, in the order of the changes.
The same code runs on SQLite (a file; WAL journal, so readers never wait for the writer) and
on PostgreSQL (psycopg 3).
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import PoolProxiedConnection

from chicago.server.core.rows import (
    SEAT_KINDS,
    Change,
    GamePlayerRow,
    GameRow,
    LoadedTable,
    LogEntry,
    RatedGameRow,
    TableRow,
)
from chicago.server.storage.models import (
    game_players,
    games,
    log,
    rated_games,
    seat_holders,
    tables,
    tournaments,
)
from chicago.server.storage.plain import (
    PlainRows,
    PlainStatements,
    compact_json,
    plain,
    write_plain,
)

__all__ = [
    "SEAT_KINDS",
    "Change",
    "Conflict",
    "GamePlayerRow",
    "GameRow",
    "LoadedTable",
    "LogEntry",
    "RatedGameRow",
    "Store",
    "TableRow",
    "Unreadable",
    "normalize_url",
]

_logger = logging.getLogger("chicago.server")

_MAX_INT = 2**31 - 1  # the INTEGER columns (game numbers, seqs)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_PG_MIGRATION_LOCK = 0x43686963  # "Chic": one migrating worker at a time


class Conflict(Exception):
    """Another writer stored a change with the same table sequence number first."""


class Unreadable(ValueError):
    """A stored row that cannot be read (an old schema, a bug); logged once
    (:meth:`Store.skip`)."""


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` become ``postgresql+psycopg://`` (psycopg 3)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _loads(value: str | None) -> Any:
    return None if value is None else json.loads(value)


_LOG_INSERT = insert(log)
"""The insert of log entries (made once: a statement object is compiled once and cached)."""

_TABLE_JSON = frozenset({"rules", "variations", "seats", "options"})
"""The table row's columns stored as JSON text."""

_TABLE_UPDATES: dict[tuple[str, ...], Any] = {}
"""The update of a table row by the columns it sets, made once per set of columns."""


def _log_rows(change: Change) -> list[dict[str, Any]]:
    """The ``log`` rows of a change's entries."""
    return [
        {"table_id": change.table_id, "seq": e.seq, "game": e.game, "kind": e.kind,
         "seat": e.seat, "data": compact_json(e.data), "created_at": e.created_at}
        for e in change.entries
    ]


def _table_update(change: Change) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The columns a change sets in its table row, and the parameters of their update
    (:func:`_table_update_statement`)."""
    keys = tuple(sorted(change.table_updates))
    params = {"v_" + k: (compact_json(v) if k in _TABLE_JSON else v)
              for k, v in change.table_updates.items()}
    params["k_id"] = change.table_id
    return keys, params


def _table_update_statement(keys: tuple[str, ...]) -> Any:
    """``UPDATE tables SET <keys> WHERE id = :k_id``, with a parameter ``v_<key>`` per
    column (made once per set of columns)."""
    statement = _TABLE_UPDATES.get(keys)
    if statement is None:
        statement = (update(tables).where(tables.c.id == bindparam("k_id"))
                     .values({k: bindparam("v_" + k) for k in keys}))
        _TABLE_UPDATES[keys] = statement
    return statement


class _WriteBatch:
    """What one transaction of :meth:`Store.write` gathers from its changes: the log rows
    (inserted together at the end, after the rows they refer to) and the table row
    updates, written in order, consecutive ones that set the same columns in one
    statement with many parameter sets.

    With the driver's statements (``statements``: a batch with a change that is not plain,
    say a game's end among the moves of other tables), the log rows and the plain changes'
    row updates go on the driver's cursor of the transaction's own connection
    (:class:`~chicago.server.storage.plain.PlainRows`), as a batch of plain changes alone
    does: before, one change that was not plain sent every move of its batch through
    SQLAlchemy's statements (docs/SERVER.md, "Load on one worker", fifty-first pass)."""

    def __init__(self, statements: PlainStatements | None = None) -> None:
        self.entries: list[dict[str, Any]] = []
        self._keys: tuple[str, ...] = ()
        self._updates: list[dict[str, Any]] = []
        self._driver = None if statements is None else PlainRows(statements)
        self._cursor: Any = None

    def cursor(self, conn: Connection) -> Any:
        """The driver's cursor on ``conn``'s connection (made once; :meth:`close`)."""
        if self._cursor is None:
            self._cursor = conn.connection.cursor()
        return self._cursor

    def close(self) -> None:
        """Close the driver's cursor, if one was made."""
        cursor, self._cursor = self._cursor, None
        if cursor is not None:
            with contextlib.suppress(Exception):
                cursor.close()

    def add(self, conn: Connection, change: Change) -> None:
        """Gather a plain change (:func:`~chicago.server.storage.plain.plain`)."""
        driver = self._driver
        if driver is not None and driver.statements.writes(change):
            self._flush_general_updates(conn)
            driver.add(self.cursor(conn), change)
            return
        if change.entries:
            self.add_entries(change)
        if change.table_updates:
            if driver is not None:
                driver.flush_updates(self.cursor(conn))
            keys, params = _table_update(change)
            if keys != self._keys:
                self._flush_general_updates(conn)
                self._keys = keys
            self._updates.append(params)

    def add_entries(self, change: Change) -> None:
        """Gather the log rows of a change (of any kind)."""
        if self._driver is not None:
            self._driver.entries(change)
        else:
            self.entries.extend(_log_rows(change))

    def _flush_general_updates(self, conn: Connection) -> None:
        if self._updates:
            conn.execute(_table_update_statement(self._keys), self._updates)
            self._updates = []
        self._keys = ()

    def flush_updates(self, conn: Connection) -> None:
        """Write the table row updates gathered so far."""
        self._flush_general_updates(conn)
        if self._driver is not None and self._cursor is not None:
            self._driver.flush_updates(self._cursor)

    def flush(self, conn: Connection) -> None:
        """Write everything gathered: the row updates, then the log rows."""
        self.flush_updates(conn)
        if self._driver is not None and self._driver.rows:
            self._driver.flush(self.cursor(conn))
        if self.entries:
            conn.execute(_LOG_INSERT, self.entries)
            self.entries = []


class Store:
    """The database of one server: ``Store(url)``, then :meth:`migrate`. The table core's
    :class:`~chicago.server.core.ports.Storage`."""

    failures: tuple[type[BaseException], ...] = (SQLAlchemyError, OSError)
    """How the database says it cannot be reached now (not that a row is unreadable)."""

    def __init__(self, url: str, *, echo: bool = False, driver_writes: bool = True) -> None:
        self.url = normalize_url(url)
        parsed = make_url(self.url)
        self.dialect = parsed.get_backend_name()
        kwargs: dict[str, Any] = {"echo": echo}
        if self.dialect == "sqlite":
            database = parsed.database
            if database and database != ":memory:":
                Path(database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
            kwargs["pool_size"] = 8
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._write_lock = threading.Lock()
        self._plain = PlainStatements.for_paramstyle(
            self.engine.dialect.paramstyle, frozenset(tables.c.keys())) if driver_writes else None
        """The statements of batches of plain changes on the driver's cursor (None: every
        batch takes the general path; ``driver_writes=False`` asks for that, for the
        benchmark that compares the two)."""
        self._skipped: set[str] = set()  # rows already logged as unreadable
        self._held: PoolProxiedConnection | None = None
        """The pool's connection that the plain writes keep between batches (None: none
        yet, or the last one failed): see :meth:`_write_plain`."""

    def skip(self, what: str, problem: object, doing: str = "loaded") -> None:
        """A stored row ``what`` ("table ID", "game ID/N") cannot be read or loaded: log it,
        once per row, in one line, and go on without it (its readers skip it). ``doing``:
        what could not be done with it ("loaded", "resumed", "replayed")."""
        if what in self._skipped:
            return
        if len(self._skipped) < 10_000:
            self._skipped.add(what)
        words = " ".join(str(problem).split())
        _logger.error("%s cannot be %s; skipping it (%s: %s)", what, doing,
                      type(problem).__name__, words[:300])

    def _one(self, row: Any, decode: Callable[[Any], Any], what: str) -> Any:
        """One row decoded, or :class:`Unreadable` (logged once)."""
        try:
            return decode(row)
        except (ValueError, TypeError, KeyError) as exc:
            self.skip(what, exc)
            raise Unreadable(f"{what} is stored in a form this server cannot read") from exc

    def _readable(self, rows: Iterable[Any], decode: Callable[[Any], Any],
                  what: Callable[[Any], str]) -> list[Any]:
        """The rows decoded, without those that cannot be (each logged once: :meth:`skip`)."""
        out = []
        for row in rows:
            try:
                out.append(decode(row))
            except (ValueError, TypeError, KeyError) as exc:
                self.skip(what(row), exc)
        return out

    # ------------------------------------------------------------------ schema
    def migrate(self) -> None:
        """Bring the schema up to the newest Alembic revision (safe to run every start)."""
        self._alembic("upgrade", "head")

    def downgrade(self, revision: str) -> None:
        """Take the schema down to Alembic ``revision`` (for going back to an earlier
        version of the program, and for the tests of each migration)."""
        self._alembic("downgrade", revision)

    def _alembic(self, direction: Literal["upgrade", "downgrade"], revision: str) -> None:
        """Run Alembic's ``upgrade`` or ``downgrade`` to ``revision`` in one transaction
        (on PostgreSQL under a lock, so that workers starting together migrate once)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.engine.begin() as conn:
            if self.dialect == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
            config.attributes["connection"] = conn
            getattr(command, direction)(config, revision)

    def revision(self) -> str | None:
        """The schema revision the database is at (None before :meth:`migrate`)."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def close(self) -> None:
        """Release every connection (the plain writes' own first)."""
        with self._write_lock:
            self._let_go_held(invalidate=False)
        self.engine.dispose()

    # ------------------------------------------------------------------ writes
    def write(self, changes: Sequence[Change]) -> list[Exception | None]:
        """Store changes, all in one transaction when possible; one result per change.

        If the batch fails (a :class:`Conflict`: another writer took a sequence number), each
        change is tried again on its own, so one bad change never loses the others. A batch
        of plain changes alone (actions, continues, chat lines: the batches of play) is
        written on the driver's own cursor (:mod:`chicago.server.storage.plain`), the same
        rows as the general path's; in a batch with other changes, its log rows and the
        plain changes' row updates are (:class:`_WriteBatch`).
        """
        with self._write_lock:
            statements = self._plain
            if statements is not None and all(statements.writes(c) for c in changes):
                if self._write_plain(changes, statements):
                    return [None] * len(changes)
                return [self._write_one(change) for change in changes]
            try:
                with self.engine.begin() as conn:
                    batch = _WriteBatch(statements)
                    try:
                        for change in changes:
                            self._apply(conn, change, batch)
                        batch.flush(conn)
                    finally:
                        batch.close()  # the driver's cursor, before the commit or rollback
                return [None] * len(changes)
            except Exception:
                if len(changes) == 1:
                    return [self._write_one(changes[0])]
            return [self._write_one(change) for change in changes]

    def _write_plain(self, changes: Sequence[Change], statements: PlainStatements) -> bool:
        """Store a batch of plain changes in one transaction on the driver's own connection
        (:mod:`chicago.server.storage.plain`); False when it failed and was rolled back (the
        caller stores each change alone, to name the one that failed).

        The connection is checked out of the pool once and kept for the next batches (the
        caller holds :attr:`write_lock`): a checkout and its return, with the pool's
        rollback on return, were about a quarter of a lone move's write (docs/SERVER.md,
        "Load on one worker", twelfth pass). Between batches it holds no transaction. After
        a failed batch it is given back (invalidated if it cannot even roll back: the
        failure may have been the connection's) and the next batch checks out another."""
        connection = self._held
        if connection is None:
            try:
                connection = self._held = self.engine.raw_connection()
            except Exception:  # cannot connect: the general path says so change by change
                return False
        try:
            cursor = connection.cursor()
        except Exception:
            self._let_go_held(invalidate=True)
            return False
        try:
            write_plain(cursor, changes, statements)
            connection.commit()
            return True
        except Exception:
            pass
        finally:
            with contextlib.suppress(Exception):
                cursor.close()
        try:
            connection.rollback()
        except Exception:  # the connection itself is gone: the pool drops it
            self._let_go_held(invalidate=True)
        else:
            self._let_go_held(invalidate=False)
        return False

    def _let_go_held(self, *, invalidate: bool) -> None:
        """Give the plain writes' connection back to the pool (``invalidate``: it is broken,
        the pool forgets it); nothing when none is held."""
        connection, self._held = self._held, None
        if connection is None:
            return
        with contextlib.suppress(Exception):
            if invalidate:
                connection.invalidate()
            else:
                connection.close()

    @property
    def write_lock(self) -> threading.Lock:
        """Held by every write of this process (one SQLite writer at a time)."""
        return self._write_lock

    def apply_change(self, conn: Connection, change: Change) -> None:
        """Store one change on an open transaction (another write's, e.g. a tournament
        round that creates its tables with its own rows)."""
        self._apply(conn, change)

    def _write_one(self, change: Change) -> Exception | None:
        try:
            with self.engine.begin() as conn:
                self._apply(conn, change)
        except IntegrityError as exc:
            return Conflict(f"table {change.table_id}: a change with that seq exists ({exc.orig})")
        except Exception as exc:
            return exc
        return None

    def _apply(self, conn: Connection, change: Change,
               batch: _WriteBatch | None = None) -> None:
        """Store ``change`` on ``conn``. With ``batch``, a change of log entries and table
        row updates alone (an action's) is gathered in it, to be written with the others'
        (:meth:`_WriteBatch.flush`); any other change first writes what was gathered of the
        row updates, so that every table row is updated in the order of the changes."""
        if batch is not None and plain(change):
            batch.add(conn, change)
            return
        if batch is not None:
            batch.flush_updates(conn)
        if change.new_table is not None:
            row = change.new_table
            conn.execute(insert(tables).values(
                id=row.id, name=row.name, players=row.players, preset=row.preset,
                rules=compact_json(row.rules), variations=compact_json(row.variations),
                seats=compact_json(row.seats), options=compact_json(row.options),
                private=row.private, secret=row.secret, status=row.status,
                open_seats=row.open_seats, game=row.game, created_at=row.created_at,
                updated_at=row.updated_at,
                answer_by=row.answer_by, to_act=row.to_act, turn_at=row.turn_at,
            ))
        if change.new_game is not None:
            g = change.new_game
            conn.execute(insert(games).values(
                table_id=g.table_id, number=g.number, seed=g.seed, rules=compact_json(g.rules),
                players=g.players, status=g.status, started_at=g.started_at,
                names=None if g.names is None else compact_json(g.names),
            ))
        if change.entries:
            if batch is None:
                conn.execute(_LOG_INSERT, _log_rows(change))
            else:
                batch.add_entries(change)
        if change.table_updates:
            keys, params = _table_update(change)
            conn.execute(_table_update_statement(keys), [params])
        for holder in change.holders:
            key = (seat_holders.c.table_id == change.table_id) & (
                seat_holders.c.seat == holder.seat)
            conn.execute(delete(seat_holders).where(key))
            if holder.token_hash is not None:
                conn.execute(insert(seat_holders).values(
                    table_id=change.table_id, seat=holder.seat, profile_id=holder.profile,
                    token_hash=holder.token_hash))
        if change.players:
            conn.execute(insert(game_players), [
                {"table_id": p.table_id, "number": p.number, "seat": p.seat,
                 "participant": p.participant, "profile_id": p.profile_id,
                 "ladder": p.ladder, "rated": p.rated, "line": compact_json(p.line),
                 "finished_at": p.finished_at}
                for p in change.players
            ])
        if change.rated is not None:
            r = change.rated
            conn.execute(insert(rated_games).values(
                table_id=r.table_id, number=r.number, ladder=r.ladder,
                participants=compact_json(r.participants), places=compact_json(r.places),
                applied=False, finished_at=r.finished_at,
            ))
        if change.game_updates:
            if change.game_number is None:
                raise ValueError("game_updates need game_number")
            values = {
                k: (compact_json(v) if k in ("names", "result", "record", "rules", "review_due")
                    else v)
                for k, v in change.game_updates.items()
            }
            conn.execute(
                update(games)
                .where(games.c.table_id == change.table_id, games.c.number == change.game_number)
                .values(**values)
            )

    # ------------------------------------------------------------------ reads
    def load(self, table_id: str) -> LoadedTable | None:
        """Everything needed to rebuild a table in memory, or None if there is no such table.

        The entries are every entry from the current game's ``game`` entry on (the last
        ``game`` entry of the log: so a game started by another worker after the table row
        was read is loaded whole) and, before it, only the seat changes (``join``, ``away``,
        ``back``): earlier games' actions and chat lines do not shape the live table.
        """
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            table = self._one(row, _table_row, f"table {table_id}")
            start = (
                select(func.max(log.c.seq))
                .where(log.c.table_id == table_id, log.c.kind == "game")
                .scalar_subquery()
            )
            rows = conn.execute(
                select(log)
                .where(log.c.table_id == table_id,
                       or_(log.c.seq >= start, log.c.kind.in_(SEAT_KINDS)))
                .order_by(log.c.seq)
            ).mappings().all()
            entries = [self._one(e, _entry, f"table {table_id}") for e in rows]
            number = next((int(e.data["number"]) for e in reversed(entries)
                           if e.kind == "game"), table.game)
            game_row = conn.execute(
                select(games).where(games.c.table_id == table_id, games.c.number == number)
            ).mappings().first()
            if game_row is None:
                raise RuntimeError(f"table {table_id}: game {number} is missing")
        return LoadedTable(table, self._one(game_row, _game_row, f"game {table_id}/{number}"),
                           entries)

    def entries_after(self, table_id: str, seq: int) -> list[LogEntry]:
        """The log entries of a table after ``seq``, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(log).where(log.c.table_id == table_id, log.c.seq > seq).order_by(log.c.seq)
            ).mappings().all()
        return [self._one(r, _entry, f"table {table_id}") for r in rows]

    def table(self, table_id: str) -> TableRow | None:
        """One table's row."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
        return None if row is None else self._one(row, _table_row, f"table {table_id}")

    def open_tables(self, limit: int = 50) -> list[TableRow]:
        """Public tables waiting for players, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables)
                .where(tables.c.status == "waiting", tables.c.private.is_(False))
                .order_by(tables.c.created_at.desc())
                .limit(limit)
            ).mappings().all()
        return self._readable(rows, _table_row, lambda r: f"table {r['id']}")

    def count_waiting(self, since: float) -> int:
        """Tables waiting for players (public or private) changed at or after ``since``."""
        with self.engine.connect() as conn:
            return int(conn.execute(
                select(func.count()).select_from(tables)
                .where(tables.c.status == "waiting", tables.c.updated_at >= since)
            ).scalar_one())

    def count_playing(self) -> int:
        """Tables whose game is in play (all workers: the site's running tables)."""
        with self.engine.connect() as conn:
            return int(conn.execute(
                select(func.count()).select_from(tables).where(tables.c.status == "playing")
            ).scalar_one())

    def count_playing_tournaments(self, ids: Sequence[str] | None = None) -> int:
        """Tournaments in play: of ``ids``, or on the whole site (None)."""
        query = select(func.count()).select_from(tournaments).where(
            tournaments.c.status == "playing")
        if ids is not None:
            if not ids:
                return 0
            query = query.where(tournaments.c.id.in_(list(ids)))
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def statuses(self, ids: Sequence[str]) -> dict[str, tuple[str, float]]:
        """(status, updated_at) of each of these tables that exists."""
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id, tables.c.status, tables.c.updated_at)
                .where(tables.c.id.in_(list(ids)))
            ).all()
        return {r[0]: (str(r[1]), float(r[2])) for r in rows}

    def turns(self, profile_id: str | None, token_hashes: Sequence[str],
              limit: int = 200) -> list[tuple[TableRow, int]]:
        """The tables in play where the seat to act is held by ``profile_id`` or by a seat
        token of one of ``token_hashes``, the longest waiting first: (row, seat) each."""
        holders = []
        if profile_id is not None:
            holders.append(seat_holders.c.profile_id == profile_id)
        if token_hashes:
            holders.append(seat_holders.c.token_hash.in_(list(token_hashes)))
        if not holders:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables, seat_holders.c.seat.label("holder_seat"))
                .join(seat_holders, (seat_holders.c.table_id == tables.c.id)
                      & (seat_holders.c.seat == tables.c.to_act))
                .where(tables.c.status == "playing", or_(*holders))
                .order_by(tables.c.turn_at).limit(limit)
            ).mappings().all()
        found = []
        for row in rows:
            table = self._readable([row], _table_row, lambda r: f"table {r['id']}")
            if table:
                found.append((table[0], int(row["holder_seat"])))
        return found

    def live_table_ids(self) -> list[str]:
        """Tables whose game is in play, and finished ones whose people are asked to play
        again (to resume their bots and clocks at start-up)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id).where(or_(tables.c.status == "playing",
                                              tables.c.answer_by.is_not(None)))
                .order_by(tables.c.updated_at)
            ).all()
        return [r[0] for r in rows]

    def finished_games(
        self, limit: int = 50, before: float | None = None
    ) -> list[tuple[GameRow, TableRow]]:
        """Finished games of public tables, newest first (with their table rows)."""
        query = (
            select(games, tables.c.name.label("table_name"))
            .join(tables, tables.c.id == games.c.table_id)
            .where(games.c.status == "finished", tables.c.private.is_(False))
        )
        if before is not None:
            query = query.where(games.c.finished_at < before)
        query = query.order_by(games.c.finished_at.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
            ids = {r["table_id"] for r in rows}
            table_rows = {
                t.id: t for t in self._readable(
                    conn.execute(select(tables).where(tables.c.id.in_(ids))).mappings(),
                    _table_row, lambda r: f"table {r['id']}")
            } if ids else {}
        games_read = self._readable(
            (r for r in rows if r["table_id"] in table_rows), _game_row,
            lambda r: f"game {r['table_id']}/{r['number']}")
        return [(g, table_rows[g.table_id]) for g in games_read]

    def game(self, table_id: str, number: int) -> GameRow | None:
        """One game's row (with its record once it is finished); None for a number no game
        can have (below 1 or beyond the 32-bit column), without asking the database."""
        if not 1 <= number <= _MAX_INT:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(games).where(games.c.table_id == table_id, games.c.number == number)
            ).mappings().first()
        return None if row is None else self._one(row, _game_row,
                                                  f"game {table_id}/{number}")

    def count(self, what: str) -> int:
        """Rows in ``tables``, ``games`` or ``log`` (for tests and status pages)."""
        table = {"tables": tables, "games": games, "log": log}[what]
        with self.engine.connect() as conn:
            return int(conn.execute(select(text("count(*)")).select_from(table)).scalar_one())


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL: readers do not block the writer; NORMAL: a commit is in the WAL file before the call
    # returns, so it survives a killed process (not necessarily a power cut).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _json(text: str | None, kind: type, what: str) -> Any:
    """A JSON column's value, which must be a ``kind`` (else ValueError naming ``what``)."""
    value = _loads(text)
    if not isinstance(value, kind):
        raise ValueError(f"{what} is not a JSON {kind.__name__}: {str(text)[:60]!r}")
    return value


def _table_row(r: Any) -> TableRow:
    return TableRow(
        id=r["id"], name=r["name"], players=r["players"], preset=r["preset"],
        rules=_json(r["rules"], dict, "rules"), variations=_json(r["variations"], list,
                                                                  "variations"),
        seats=_json(r["seats"], list, "seats"), options=_json(r["options"], dict, "options"),
        private=bool(r["private"]), secret=r["secret"], status=r["status"],
        open_seats=r["open_seats"], game=r["game"], created_at=r["created_at"],
        updated_at=r["updated_at"], answer_by=r["answer_by"], to_act=r["to_act"],
        turn_at=r["turn_at"],
    )


def game_row(r: Any) -> GameRow:
    """A ``games`` row (a mapping of its columns) decoded."""
    return _game_row(r)


def _game_row(r: Any) -> GameRow:
    return GameRow(
        table_id=r["table_id"], number=r["number"], seed=int(r["seed"]),
        rules=_json(r["rules"], dict, "rules"), players=r["players"], status=r["status"],
        started_at=r["started_at"],
        names=None if r["names"] is None else _json(r["names"], list, "names"),
        result=None if r["result"] is None else _json(r["result"], dict, "result"),
        record=None if r["record"] is None else _json(r["record"], dict, "record"),
        finished_at=r["finished_at"],
    )


def _entry(r: Any) -> LogEntry:
    return LogEntry(
        seq=r["seq"], game=r["game"], kind=r["kind"], seat=r["seat"],
        data=_json(r["data"], dict, f"log entry {r['seq']}"), created_at=r["created_at"],
    )


def entries_json(entries: Iterable[LogEntry]) -> list[dict[str, Any]]:
    """Log entries as JSON-able dicts (for debugging and tests)."""
    return [
        {"seq": e.seq, "game": e.game, "kind": e.kind, "seat": e.seat, "data": e.data}
        for e in entries
    ]

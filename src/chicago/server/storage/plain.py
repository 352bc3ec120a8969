"""The writes every action makes, on the database driver's own connection.

A batch of the group writer (:class:`chicago.server.writer.GroupWriter`) that holds only
plain changes (log entries and table row updates: an action and its bots' replies, a
``continue``, a chat line) is written here with the driver's cursor: one ``INSERT`` of all
the log rows with many parameter sets, and the table row updates that set the same columns,
consecutive in the batch, in one ``UPDATE`` with many parameter sets; the rows are those
:meth:`chicago.server.storage.Store.write`'s general path writes, in the same order. In a
batch that holds other changes too, the general path writes its log rows and its plain
changes' row updates here as well (:class:`PlainRows`, on the transaction's own connection),
and SQLAlchemy's statements only the other changes' rows.

Why: a lone change (what a move is when the server is not busy: each commit holds one) cost
about 170 µs of the writer thread's CPU through SQLAlchemy's statement execution (its
execution contexts, parameter processing and result objects, twice a change, and the
transaction's begin), against about 80 µs for the same statements on the driver's cursor
(docs/SERVER.md, "Load on one worker", tenth pass). Nothing here needs SQLAlchemy's typing:
every value written is a string, a number or None, and the JSON columns are dumped here as
there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any

from chicago.server.core.rows import Change

__all__ = ["PlainRows", "PlainStatements", "compact_json", "plain", "write_plain"]

_LOG_COLUMNS = ("table_id", "seq", "game", "kind", "seat", "data", "created_at")
_TABLE_JSON = frozenset({"rules", "variations", "seats", "options"})
"""The table row's columns stored as JSON text."""


def plain(change: Change) -> bool:
    """A change of log entries and table row updates only (an action, a continue, a chat
    line): what :func:`write_plain` writes."""
    return (change.new_table is None and change.new_game is None and not change.holders
            and not change.players and change.rated is None and not change.game_updates)


_COMPACT = json.JSONEncoder(separators=(",", ":"))
"""The encoder whose text :func:`compact_json` gives."""

_C_ENCODE: Callable[[Any, int], Sequence[str]] | None = (
    None if c_make_encoder is None else c_make_encoder(
        None, _COMPACT.default, encode_basestring_ascii, None, ":", ",", False, False, True))
"""The C encoder :meth:`json.JSONEncoder.encode` makes for every value (with the same
arguments), made once: without the circular check's ``markers`` (a dict of the containers
entered, which a failed encoding would leave filled), so a value that holds itself
recurses until RecursionError, and :func:`compact_json` then asks the stdlib's encoder,
which says it as it does."""


def compact_json(value: Any) -> str:
    """A JSON column's text: no spaces, what ``json.dumps(value, separators=(",", ":"))``
    gives (the same text, the same errors), from a C encoder made once rather than per
    value: an action's data 2.6 → 1.1 µs, four or more a person move (docs/SERVER.md, "Load
    on one worker", fifty-first pass)."""
    encode = _C_ENCODE
    if encode is None:
        return _COMPACT.encode(value)
    try:
        return "".join(encode(value, 0))
    except RecursionError:  # a value that holds itself (or too deep): the stdlib's words
        return _COMPACT.encode(value)


class PlainStatements:
    """The SQL text of the plain writes for one driver's placeholder (``?`` for sqlite3,
    ``%s`` for psycopg), made once per set of columns updated."""

    def __init__(self, placeholder: str, table_columns: frozenset[str]) -> None:
        self.placeholder = placeholder
        self.table_columns = table_columns
        """The columns of ``tables``: an update of any other column is not written here."""
        marks = ", ".join([placeholder] * len(_LOG_COLUMNS))
        self.log_insert = f"INSERT INTO log ({', '.join(_LOG_COLUMNS)}) VALUES ({marks})"
        self._updates: dict[tuple[str, ...], str] = {}

    @classmethod
    def for_paramstyle(cls, paramstyle: str,
                       table_columns: frozenset[str]) -> PlainStatements | None:
        """The statements for a DB-API ``paramstyle`` (None: one this module does not
        write, whose batches take the general path)."""
        placeholder = {"qmark": "?", "format": "%s", "pyformat": "%s"}.get(paramstyle)
        return None if placeholder is None else cls(placeholder, table_columns)

    def writes(self, change: Change) -> bool:
        """Whether ``change`` is written here: plain, and updating known columns only."""
        return plain(change) and self.table_columns.issuperset(change.table_updates)

    def table_update(self, keys: tuple[str, ...]) -> str:
        """``UPDATE tables SET <keys> WHERE id = <placeholder>`` (keys checked against the
        table's columns by :meth:`writes`)."""
        statement = self._updates.get(keys)
        if statement is None:
            mark = self.placeholder
            sets = ", ".join(f"{key} = {mark}" for key in keys)
            statement = f"UPDATE tables SET {sets} WHERE id = {mark}"
            self._updates[keys] = statement
        return statement


class PlainRows:
    """The rows of plain changes gathered for one transaction on a driver's cursor: the log
    rows (inserted together by :meth:`flush`, after everything else of the transaction) and
    the table row updates, written in the order of the changes, consecutive ones that set the
    same columns in one ``executemany``."""

    __slots__ = ("_keys", "_params", "rows", "statements")

    def __init__(self, statements: PlainStatements) -> None:
        self.statements = statements
        self.rows: list[tuple[Any, ...]] = []
        """The log rows gathered, as the insert's parameters."""
        self._keys: tuple[str, ...] = ()
        self._params: list[tuple[Any, ...]] = []

    def entries(self, change: Change) -> None:
        """Gather ``change``'s log rows (any change's: their insert does not depend on the
        change being plain)."""
        table_id = change.table_id
        self.rows.extend((table_id, e.seq, e.game, e.kind, e.seat, compact_json(e.data),
                          e.created_at) for e in change.entries)

    def add(self, cursor: Any, change: Change) -> None:
        """Gather a change :meth:`PlainStatements.writes` (its row update written first
        when the one before it set other columns)."""
        if change.entries:
            self.entries(change)
        updates = change.table_updates
        if not updates:
            return
        these = tuple(sorted(updates))
        if these != self._keys:
            self.flush_updates(cursor)
            self._keys = these
        self._params.append((*(compact_json(updates[k]) if k in _TABLE_JSON else updates[k]
                               for k in these), change.table_id))

    def flush_updates(self, cursor: Any) -> None:
        """Write the row updates gathered so far (before another writer's update of a row,
        so that every row is updated in the order of the changes)."""
        if self._params:
            cursor.executemany(self.statements.table_update(self._keys), self._params)
            self._params = []
        self._keys = ()

    def flush(self, cursor: Any) -> None:
        """Write everything gathered: the row updates, then the log rows."""
        self.flush_updates(cursor)
        if self.rows:
            cursor.executemany(self.statements.log_insert, self.rows)
            self.rows = []


def write_plain(cursor: Any, changes: Sequence[Change], statements: PlainStatements) -> None:
    """Write ``changes`` (each :meth:`PlainStatements.writes`) on a DB-API ``cursor`` of an
    open transaction: the table row updates in the order of the changes (consecutive ones
    setting the same columns together), then every log row. The caller commits, or rolls
    back on an exception."""
    gathered = PlainRows(statements)
    for change in changes:
        gathered.add(cursor, change)
    gathered.flush(cursor)

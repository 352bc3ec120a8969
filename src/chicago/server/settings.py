"""Settings of the table server, and where its data lives.

The database is SQLite in ``<data>/chicago.sqlite3``, in the data directory every shell
shares (:func:`chicago.datadir.data_dir`: ``$CHICAGO_DATA`` when that variable is set, else
the platform's user data directory, such as ``~/.local/share/chicago``), wherever the server
is started from. ``--db URL`` (``Settings.db_url``) picks another database, such as
``postgresql://user:password@host/dbname``; with PostgreSQL, ``--redis URL``
(``Settings.redis_url``) lets several worker processes serve the same tables.

>>> default_db_path(env={"CHICAGO_DATA": "/srv/chicago"})
PosixPath('/srv/chicago/chicago.sqlite3')
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from chicago.datadir import data_dir
from chicago.server.gc_tuning import YOUNG_SCANS_BELOW, YOUNG_THRESHOLD
from chicago.web import STATIC_DIR

__all__ = [
    "DB_FILE_NAME",
    "DEFAULT_STATIC",
    "Settings",
    "default_bot_workers",
    "default_db_path",
    "default_db_url",
    "external_bot",
]

DEFAULT_STATIC = STATIC_DIR
"""Where the browser app's files are (served at ``/``; see :attr:`Settings.static_dir`)."""

DB_FILE_NAME = "chicago.sqlite3"
"""The default SQLite database's file name in the data directory."""


def default_db_path(env: Mapping[str, str] | None = None) -> Path:
    """The default SQLite file: ``chicago.sqlite3`` in :func:`chicago.datadir.data_dir`."""
    return data_dir(env) / DB_FILE_NAME


def default_db_url(env: Mapping[str, str] | None = None) -> str:
    """The SQLAlchemy URL of :func:`default_db_path`."""
    return f"sqlite:///{default_db_path(env).resolve()}"


@dataclass
class Settings:
    """Everything the server can be told; the defaults suit one process on one machine."""

    db_url: str = field(default_factory=default_db_url)
    """SQLAlchemy URL; ``postgresql://…`` URLs use psycopg 3."""
    static_dir: Path | None = DEFAULT_STATIC
    """The browser app's files, served at ``/``; :func:`~chicago.server.create_app` refuses
    a directory that lacks any file the page loads (:func:`chicago.server.assets.missing_files`).
    None: no browser app, ``/`` answers a short JSON description of the API (tests)."""
    max_message: int = 16 * 1024
    """Largest client websocket message in bytes: a larger one gets a ``too_large`` error
    and the connection stays up (docs/PROTOCOL.md)."""
    ws_max_size: int = 1024 * 1024
    """The websocket transport's own limit (uvicorn's ``ws_max_size``), far above
    :attr:`max_message` so that the application sees, and answers, every oversized message
    up to it; a frame over this closes the connection with code 1009 (message too big)."""
    rate: float = 20.0
    """Client messages per second per connection, on average."""
    burst: int = 40
    """Client messages a connection may send at once."""
    flood_close: int = 400
    """Dropped (rate-limited) messages in a row after which the connection is closed."""
    chat_per_minute: float = 12.0
    """Chat lines one seat may write per minute, on average (more get ``chat_limited``)."""
    chat_burst: int = 6
    """Chat lines one seat may write at once."""
    chat_per_game: int = 300
    """Chat lines one seat may write in one game (before the first game: at the table
    since it was made). With the 300 characters of a line this bounds a game's chat in
    the log to about 90 KB a seat."""
    send_queue: int = 2000
    """Frames waiting for a slow client before its connection is closed (it can resync)."""
    max_body: int = 16 * 1024
    """Largest HTTP request body in bytes."""
    resume_tables: bool = True
    """At start-up, load every table in play so that its bots and clocks go on."""
    tune_gc: bool = False
    """Once started, set the process's garbage collector for a long-running server
    (:func:`chicago.server.gc_tuning.tune_for_serving`: what start-up made is frozen out of
    every later collection, and the youngest generation is collected after
    :attr:`gc_young_threshold` allocations (5,000 by default, 1 to 1,000,000) rather than
    700, and the survivors of every later collection are frozen as well, with a whole scan
    now and then). ``chicago serve`` sets it; a process that makes many apps (the tests) must not,
    since the collector is the whole process's."""
    gc_young_threshold: int = YOUNG_THRESHOLD
    """With :attr:`tune_gc`: tracked objects made (less those freed) between two
    collections of the youngest generation. Larger means fewer collections but each one
    scanning more (the moves in flight are in every one); docs/SERVER.md, the eighteenth
    pass of issue 28, has what was measured."""
    gc_scan_by_load: bool = True
    """With :attr:`tune_gc`: the whole scans that collect frozen cycles come when the
    frozen objects have grown by a quarter *per table in memory* (a table weighed with
    its current game's log entries: :func:`chicago.server.gc_tuning.table_load`), not in
    all (a server filling up with tables no longer scans its whole heap at every quarter
    more: at 500 people such a scan held the loop 0.6-0.8 s; docs/SERVER.md, "Where the
    tail comes from"). False: by a quarter in all, as before."""
    gc_young_scans: bool = True
    """With :attr:`tune_gc`: whether young collections scan what they collect. False: what
    a young collection would scan is frozen unscanned (its cycles, if any, freed by the
    next whole scan, which the frozen objects' growth brings); docs/SERVER.md, the
    twenty-fourth pass of issue 28, has what was measured."""
    gc_young_scans_below: int | None = YOUNG_SCANS_BELOW
    """With :attr:`tune_gc` and :attr:`gc_young_scans`: young collections scan only while
    the server holds fewer tables than this (500 by default); from this many on they
    freeze what they would have scanned, unscanned, as with :attr:`gc_young_scans` False.
    At high load a move's objects wait in the saturated loop through several young
    collections, which scan them only to freeze them. 0: never scan; None: always. A
    negative or non-whole value is refused when the server starts (``ValueError``);
    docs/SERVER.md, the forty-seventh pass of issue 28, has what was measured."""
    bot_threads: bool = True
    """Let the built-in bots that think long (``ev``, ``expert``) think in a worker thread of
    their own pool (:attr:`bot_workers`; keeps the loop responsive). ``random`` and ``basic``
    decide in the loop (``basic``: about 0.05 ms, at most a few): handing them to a thread
    and back costs more than their thinking. External bots always think in a thread (of
    :attr:`external_bot_workers`)."""
    bot_workers: int | None = None
    """Threads of the pool in which built-in bots decide, shared by every table; None:
    :func:`default_bot_workers` (4 per core, 8 to 32). The pool is their own: the default
    executor (database reads and writes, loading tables, replays) is never kept waiting by
    bots, and more decisions than threads wait their turn in it."""
    external_bot_workers: int = 64
    """Threads of the pool in which external bot programs are asked (``--bot``) and stopped.
    Each decision holds its thread while the program thinks, up to its time limit (1 s by
    default, more for its first decision), mostly waiting on a pipe; a pool of their own keeps
    a slow or hanging program from delaying built-in bots or the database."""
    idle_evict: float = 600.0
    """Seconds after which a table nobody watches is dropped from memory (reloaded on use)."""
    list_limit: int = 200
    """Most rows a lobby list returns."""
    redis_url: str | None = None
    """Redis (``redis://host:6379/0``) when several worker processes serve the same tables on
    one PostgreSQL database: each stored change reaches the other workers over Redis pub/sub,
    and a PostgreSQL advisory lock per table keeps one writer at a time (docs/SCALING.md).
    None: this process is the tables' only server."""
    takeover: float = 2.0
    """With several workers: seconds a worker that did not store a table's last change waits,
    on top of the bot delay or the turn clock, before it moves that table's bot or runs out
    its clock itself. The worker that stored it normally does both; this covers its death."""
    clock_grace: float = 5.0
    """Seconds a turn clock gets at least when its table is loaded from storage (after a
    restart, say) with less left: its deadline is stored (the time the turn began, with the
    entry that began it), so a restart never gives a fresh full clock, but a player whose
    time ran out while no server was up gets these few seconds to act first."""
    external_bots: dict[str, str] = field(default_factory=dict)
    """Named external bots the operator allows (``chicago serve --bot NAME=COMMAND``): NAME
    -> COMMAND, played as ``make_bot("cmd:" + COMMAND)`` (docs/BOT_PROTOCOL.md). Each NAME
    is offered as a bot level (``GET /api/info``, seats ``bot:NAME``, ``stand_in``); a web
    client can only pick a name, never give a command. Check entries with
    :func:`external_bot`."""
    club_creations: int = 10
    """Profiles (and, separately, tournaments) one client address may create per minute
    (docs/CLUB.md): a token bucket of this burst refilling at this rate a minute (shared by
    all workers with Redis); more are refused with ``rate_limited`` and ``Retry-After``."""
    club_refresh: float = 10.0
    """With several workers: seconds between reloads of the shown ratings (the ratings
    other workers applied)."""
    seed: int | None = None
    """Tests and benchmarks only: draw table ids, seat tokens and game seeds from this seed
    (reproducible, so guessable). None (always in real use): from :mod:`secrets`."""

    # -- bounded work per client (docs/SERVER.md, "Security"); a client is its address
    # (IPv6: its /64 network), as uvicorn sees it (behind a proxy: X-Forwarded-For from a
    # trusted proxy). With several workers and Redis the rate (create_rate, create_burst)
    # is counted in Redis, for all; the caps by each worker on its own, except max_waiting.
    create_rate: float = 6.0
    """Tables one client address may create per minute, on average (a token bucket,
    :mod:`chicago.server.limits`): more get 429 with ``Retry-After``."""
    create_burst: int = 30
    """Tables one client address may create at once (a club night's tables)."""
    max_waiting_per_address: int = 20
    """Tables waiting for players (an open seat) that one client address may have created
    and that changed within :attr:`waiting_window`: more get 429."""
    max_waiting: int = 1000
    """Tables waiting for players on this server (all workers; changed within
    :attr:`waiting_window`): more get 429."""
    waiting_window: float = 86400.0
    """Seconds after its last change a waiting table stops counting towards the caps (it
    stays in the lobby until someone joins it)."""
    max_bot_tables_per_address: int = 5
    """Tables of bots only, their game in play, that one client address may have created:
    nobody at them can stop them, so they are also bounded by :attr:`max_bot_deals`."""
    max_bot_tables: int = 50
    """Tables of bots only in play that this worker has created (tournament tables of bots
    only included)."""
    max_running_tables: int = 400
    """Tables whose game is in play on the whole site (all workers, counted in the
    database): a table of bots only, a tournament round, a rematch that would pass it is
    refused (429 ``too_many_tables``)."""
    max_tournaments_per_address: int = 2
    """Tournaments in play that one client address has started through this worker."""
    max_tournaments: int = 20
    """Tournaments in play on the whole site (all workers, counted in the database)."""
    max_bot_deals: int = 200
    """A game at a table of bots only ends after at most this many deals (the table's
    ``max_deals`` rule is lowered to it when larger or unset; the most points win): nobody
    there can stop it, and some variations reset or lower scores. A game to 52 takes 10-20
    deals."""

    # -- pairing, "Play now with people" (docs/SERVER.md, "Pairing")
    max_pairing_per_address: int = 8
    """Places waiting in the pairing queue from one client address (a household, a club
    room): more are refused (429 ``too_many_places``). Counted in the database."""
    max_pairing: int = 1000
    """Places waiting in the pairing queue on the whole site (429 ``queue_full``)."""
    pairing_grace: float = 30.0
    """Seconds a place stays in the queue after the last socket holding it closed (a
    reload, a reconnect; after a restart, from the restart on)."""
    pairing_bot: str = "basic"
    """The level of the bots that fill a paired table's empty seats (the first installed
    level when this one is not)."""

    # -- mail notices (docs/SERVER.md, "Mail")
    smtp_url: str | None = None
    """Where mail is sent (``smtp://user:password@host:port``, ``smtps://`` for TLS from the
    start, ``smtp+starttls://``; ``chicago serve --smtp``). None: no mail at all (the
    default); then no address can be given."""
    mail_from: str = "Chicago <chicago@localhost>"
    """The sender of the mails."""
    mail_per_day: int = 10
    """Mails one profile is sent at most in 24 hours (confirmations included)."""
    mail_site_per_day: int = 2000
    """Mails the whole site sends at most in 24 hours."""

    # -- reviews of finished games (docs/SERVER.md, "Reviews")
    review_workers: int = 1
    """Processes in which this server computes reviews (a ``spawn`` process pool, started
    at the first review, its processes at a lower priority: :attr:`review_nice`). On a
    2-core machine one leaves a core to the event loop and the bots; with several workers
    the reviews of the database are shared among the processes of every worker. 0: this
    process computes none (with several workers the others do; alone, reviews are off)."""
    review_level: str = "expert"
    """The level of the reviews (:class:`chicago.review.ReviewLevel`: ``expert``, ``ev``,
    with options such as ``ev:samples=4``); stored with each review."""
    review_hindsight: bool = True
    """Add the values with all cards known (labelled apart, never in a grade): a finished
    game's replay shows every card to everyone anyway. About a tenth more work."""
    review_queue: int = 500
    """Reviews waiting at most, for each kind: those queued when their game ended (more
    stay due in their game's row and are queued as the queue drains) and those asked for
    (more are refused with 503 ``review_busy`` until it drains)."""
    review_poll: float = 5.0
    """Seconds between looks at the queue when idle: reviews queued by other workers, and
    abandoned ones (this process is woken at once for its own games and requests)."""
    review_share: int = 8
    """Reviews asked for that one client (an address, and apart from it a profile) may have
    waiting at once: more are refused (429 ``too_many_reviews``) until one is ready."""
    review_stale: float = 60.0
    """Seconds after which a running review whose worker stopped reporting (its progress,
    or a heartbeat every quarter of this) is taken over by another worker."""
    review_nice: int = 10
    """How much lower the review processes' priority is (``os.nice``; 0: the same)."""

    # -- origins (docs/SERVER.md, "Origins")
    allowed_origins: list[str] = field(default_factory=list)
    """Origins (``https://host[:port]``) besides the server's own whose pages may open
    websockets and call the JSON API (``chicago serve --allow-origin``)."""
    public_origin: str | None = None
    """The origin the browser sees, when a reverse proxy serves the app under another host
    or scheme than the one that reaches this process (``chicago serve --public-origin``).
    None: the ``Host`` the request came with, and its scheme."""
    allowed_hosts: list[str] | None = None
    """The ``Host`` names the server answers besides IP addresses and ``localhost``
    (:class:`chicago.server.hosts.AllowedHosts`: ``chicago.example.org``, ``.example.org``
    for a domain and its subdomains, ``*`` for any); others get 400 ``bad_host``, the
    defence against DNS rebinding. None: any ``Host`` (the check off). ``chicago serve``
    listening on a loopback address, its default, sets the names of ``--allow-host``,
    ``--public-origin`` and ``--allow-origin`` (docs/SERVER.md, "Hosts")."""


_BOT_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def default_bot_workers(cores: int | None = None) -> int:
    """The size of the built-in bots' thread pool: 4 per core (``os.cpu_count()``), at least
    8, at most 32. Their decisions are Python work under one interpreter lock, so more threads
    do not think faster; they let a quick decision (basic: well under a millisecond) share the
    processor with slow ones (expert: up to half a second) instead of queueing behind them.

    >>> default_bot_workers(2), default_bot_workers(16)
    (8, 32)
    """
    count = cores if cores is not None else (os.cpu_count() or 1)
    return max(8, min(32, 4 * count))


def external_bot(option: str) -> tuple[str, str]:
    """Check one ``--bot NAME=COMMAND`` option: ``(name, command)``, or ``ValueError`` naming
    the problem. NAME: 1-32 lower-case letters, digits, ``-`` or ``_``, starting with a
    letter, not a built-in level; COMMAND: what follows ``cmd:`` in an external bot spec
    (options such as ``time_ms=500`` may come first), whose program must exist.

    >>> external_bot("echo=cmd:time_ms=300 echo")
    ('echo', 'time_ms=300 echo')
    """
    from chicago.bots import bot_levels, level_names, make_bot

    name, sep, command = option.partition("=")
    name, command = name.strip(), command.strip()
    if not sep or not name or not command:
        raise ValueError(f"--bot needs NAME=COMMAND, not {option!r}")
    if not _BOT_NAME.fullmatch(name):
        raise ValueError(f"bot name {name!r}: 1-32 lower-case letters, digits, '-' or '_', "
                         "starting with a letter")
    if name in {*bot_levels(), *level_names(), "open", "cmd", "bot"}:
        raise ValueError(f"bot name {name!r} is taken by a built-in level; choose another")
    if command.lower().startswith("cmd:"):
        command = command[4:].strip()
    bot = make_bot("cmd:" + command)  # checks the options and that the program exists
    close = getattr(bot, "close", None)
    if close is not None:
        close()
    return name, command

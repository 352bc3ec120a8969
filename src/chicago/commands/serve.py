"""Run the table server: lobby, live tables with bots, and the browser app, on one address.

Examples:
  chicago serve                          (http://127.0.0.1:8000/)
  chicago serve --host 0.0.0.0 --port 8080
  chicago serve --db postgresql://chicago:secret@localhost/chicago
  chicago serve --db postgresql://chicago:secret@db/chicago --redis redis://cache:6379/0
  chicago serve --bot mybot="python mybot.py"   (seats may then be bot:mybot)
  chicago serve --public-origin https://chicago.example.org   (behind a reverse proxy)
  chicago serve --allow-origin https://club.example.org        (another front end)
  chicago serve --allow-host chicago.example.org   (a proxy passes that Host to the loopback)

Data: SQLite in chicago.sqlite3 of the data directory ($CHICAGO_DATA when set, else the
user data directory, such as ~/.local/share/chicago; the same wherever it is started and
printed at start); --db URL picks another database (PostgreSQL: postgresql://…, extra
postgres). The schema is created or upgraded at every start. docs/PROTOCOL.md describes
the API; docs/SERVER.md how to run it for a club behind a reverse proxy.
Needs the extra server: pip install 'chicago-cardgame[server]'.
With --redis, any number of such workers (on one or many machines, behind any load
balancer) serve the same tables of one PostgreSQL database (docs/SCALING.md).
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

from chicago import web
from chicago.extras import require
from chicago.server.assets import StaticFilesMissing, missing_files
from chicago.server.gc_tuning import YOUNG_MAX, YOUNG_SCANS_BELOW, YOUNG_THRESHOLD

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``chicago serve``."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    parser.add_argument("--port", type=int, default=8000,
                        help="port (default 8000; 0 picks a free one)")
    parser.add_argument("--db", metavar="URL", default=None,
                        help="database URL (default: SQLite in the data directory); "
                        "e.g. postgresql://user:password@host/dbname")
    parser.add_argument("--redis", metavar="URL", default=None,
                        help="Redis URL (redis://host:6379/0): serve the tables together with "
                        "every other worker on the same PostgreSQL database and Redis")
    parser.add_argument("--log-level", default="warning",
                        choices=["critical", "error", "warning", "info", "debug"],
                        help="server log level (default warning)")
    parser.add_argument("--no-resume", action="store_true",
                        help="do not load the tables in play at start-up (they load on use)")
    parser.add_argument("--bot", metavar="NAME=COMMAND", action="append", default=[],
                        help="offer an external bot program (docs/BOT_PROTOCOL.md) as the bot "
                        "level NAME: seats bot:NAME and stand-ins run COMMAND, as in "
                        "cmd:COMMAND (options such as time_ms=500 may come first); "
                        "repeatable. Players can only choose NAME, never a command")
    parser.add_argument("--review-workers", type=int, default=1, metavar="N",
                        help="processes that compute the reviews of finished games (default "
                        "1; 0: none on this process; docs/SERVER.md, Reviews)")
    parser.add_argument("--review-level", default="expert", metavar="LEVEL",
                        help="the level of those reviews (default expert; ev is quicker, "
                        "options as in chicago review --level)")
    parser.add_argument("--allow-origin", metavar="URL", action="append", default=[],
                        help="let pages of this origin (https://host[:port]) open websockets "
                        "and call the JSON API besides the server's own pages; repeatable "
                        "(docs/SERVER.md, Origins)")
    parser.add_argument("--allow-host", metavar="NAME", action="append", default=[],
                        help="answer requests for this host name (chicago.example.org; "
                        ".example.org for it and its subdomains; * for any): on a loopback "
                        "address the server answers only IP addresses, localhost and the "
                        "hosts of --public-origin and --allow-origin, against DNS "
                        "rebinding; repeatable (docs/SERVER.md, Hosts)")
    parser.add_argument("--public-origin", metavar="URL", default=None,
                        help="the origin players' browsers see when a reverse proxy serves "
                        "this server under another host or scheme (default: the Host and "
                        "scheme of each request)")
    parser.add_argument("--smtp", metavar="URL", default=None,
                        help="send mail notices through this SMTP server "
                        "(smtp://user:password@host:port, smtps://… for TLS, "
                        "smtp+starttls://…; off by default; needs --public-origin for the "
                        "mails' links; docs/SERVER.md, Mail)")
    parser.add_argument("--mail-from", metavar="ADDRESS", default=None,
                        help="the sender of those mails (default Chicago <chicago@HOST of "
                        "--public-origin>)")
    parser.add_argument("--gc-young", type=int, default=YOUNG_THRESHOLD, metavar="N",
                        help="tracked objects made between two collections of the garbage "
                        "collector's youngest generation, 1 to 1000000 (default %(default)s; "
                        "docs/SERVER.md, issue 28's eighteenth pass)")
    parser.add_argument("--gc-young-scans-below", type=int, default=YOUNG_SCANS_BELOW,
                        metavar="TABLES",
                        help="young garbage collections scan only while the server holds "
                        "fewer tables than this; from it on they freeze their objects "
                        "unscanned (0: never scan; default %(default)s; docs/SERVER.md, "
                        "issue 28's forty-seventh pass)")


def run(args: argparse.Namespace) -> int:
    """Bind, print the address and where the data is, serve until interrupted.

    Exit status 2 for bad options and missing extras (:class:`~chicago.extras.MissingExtra`,
    printed by the ``chicago`` command), 1 when the browser app's files are missing, the
    database or Redis cannot be used (:mod:`chicago.server.preflight`: one line, the cause
    and the fix), or the address cannot be bound.
    """
    require("server", "chicago serve")
    import uvicorn

    from chicago.server import Settings, create_app, default_db_url
    from chicago.server.headers import origin_of
    from chicago.server.settings import external_bot
    from chicago.server.storage import normalize_url

    db_url = normalize_url(args.db) if args.db else default_db_url()
    if db_url.startswith("postgresql"):
        require("postgres", "chicago serve --db postgresql://…")
    if args.redis is not None:
        if not db_url.startswith("postgresql"):
            print("chicago serve: --redis (several workers) needs a PostgreSQL database "
                  "(--db postgresql://…); SQLite serves one process", file=sys.stderr)
            return 2
        if not args.redis.startswith(("redis://", "rediss://", "unix://")):
            print(f"chicago serve: --redis needs a redis:// URL, not {args.redis!r}",
                  file=sys.stderr)
            return 2
        require("redis", "chicago serve --redis")
    if args.gc_young < 1:
        print(f"chicago serve: --gc-young must be at least 1, not {args.gc_young}",
              file=sys.stderr)
        return 2
    if args.gc_young > YOUNG_MAX:
        print(f"chicago serve: --gc-young must be at most {YOUNG_MAX}, not {args.gc_young}",
              file=sys.stderr)
        return 2
    if args.gc_young_scans_below < 0:
        print("chicago serve: --gc-young-scans-below must be at least 0, not "
              f"{args.gc_young_scans_below}", file=sys.stderr)
        return 2
    if args.review_workers < 0 or args.review_workers > 64:
        print(f"chicago serve: --review-workers must be 0-64, not {args.review_workers}",
              file=sys.stderr)
        return 2
    from chicago.review import ReviewLevel

    try:
        review_level = ReviewLevel.parse(args.review_level).spec
    except ValueError as exc:
        print(f"chicago serve: --review-level: {exc}", file=sys.stderr)
        return 2
    external: dict[str, str] = {}
    for option in args.bot:
        try:
            name, command = external_bot(option)
        except ValueError as exc:
            print(f"chicago serve: --bot: {exc}", file=sys.stderr)
            return 2
        if name in external:
            print(f"chicago serve: --bot: {name!r} is named twice", file=sys.stderr)
            return 2
        external[name] = command
    origins: list[str] = []
    for option, values in (("--allow-origin", args.allow_origin),
                           ("--public-origin", [args.public_origin] if args.public_origin
                            else [])):
        for value in values:
            origin = origin_of(value)
            if origin is None:
                print(f"chicago serve: {option}: {value!r} is not an origin such as "
                      "https://chicago.example.org or http://192.0.2.1:8000 (a scheme, a host, "
                      "a port if not the usual one; no path)", file=sys.stderr)
                return 2
            origins.append(origin)
    mail_from = Settings.mail_from
    if args.smtp is not None:
        if not args.smtp.startswith(("smtp://", "smtps://", "smtp+starttls://")):
            print(f"chicago serve: --smtp needs an smtp://, smtps:// or smtp+starttls:// URL, "
                  f"not {_safe(args.smtp)!r}", file=sys.stderr)
            return 2
        if not args.public_origin:
            print("chicago serve: --smtp needs --public-origin (the address players open, "
                  "for the links in the mails)", file=sys.stderr)
            return 2
        host = args.public_origin.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0]
        mail_from = args.mail_from or f"Chicago <chicago@{host}>"
    try:
        allowed_hosts = _allowed_hosts(args.host, args.allow_host, origins)
    except ValueError as exc:
        print(f"chicago serve: --allow-host: {exc}", file=sys.stderr)
        return 2
    settings = Settings(db_url=db_url, static_dir=web.STATIC_DIR, resume_tables=not args.no_resume,
                        redis_url=args.redis, external_bots=external,
                        allowed_origins=origins[:len(args.allow_origin)],
                        public_origin=origins[-1] if args.public_origin else None,
                        allowed_hosts=allowed_hosts,
                        review_workers=args.review_workers, review_level=review_level,
                        smtp_url=args.smtp, mail_from=mail_from, tune_gc=True,
                        gc_young_threshold=args.gc_young,
                        gc_young_scans_below=args.gc_young_scans_below)
    missing = missing_files(web.STATIC_DIR)
    if missing:  # an installation without the browser app's files: never a JSON page
        print(f"chicago serve: {StaticFilesMissing(web.STATIC_DIR, missing)}",
              file=sys.stderr)
        return 1
    if args.db is None:
        _mention_old_database(db_url)
    from chicago.server.preflight import CannotStart, preflight

    try:  # before the address is printed: a server that cannot start says why, in a line
        preflight(db_url, args.redis)
    except CannotStart as exc:
        print(f"chicago serve: {exc}", file=sys.stderr)
        return 1
    try:
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        sock.listen(2048)  # connections wait in the backlog while the app starts up
    except OSError as exc:
        print(f"chicago serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    from chicago.server.transport import protocol_classes

    http_protocol, ws_protocol = protocol_classes()
    config = uvicorn.Config(
        create_app(settings), log_level=args.log_level, ws_max_size=settings.ws_max_size,
        http=http_protocol, ws=ws_protocol,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0, ws_ping_timeout=20.0, timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    workers = f", redis: {_safe(args.redis)}" if args.redis else ""
    print(f"chicago serve: http://{shown}:{port}/  ({_where(db_url)}{workers})", flush=True)
    server.run(sockets=[sock])
    return 0


def _allowed_hosts(listen: str, names: list[str], origins: list[str]) -> list[str] | None:
    """The ``Host`` names to answer (:attr:`Settings.allowed_hosts`): on a loopback address,
    or when ``--allow-host`` is given, those names and the hosts of the origins; else None
    (any: a server listening on the network is meant to be reached by whatever name).

    >>> _allowed_hosts("127.0.0.1", [], ["https://chicago.example.org"])
    ['chicago.example.org']
    >>> _allowed_hosts("0.0.0.0", [], []) is None
    True
    """
    from urllib.parse import urlsplit

    from chicago.server.hosts import AllowedHosts, host_pattern, is_loopback_address

    patterns = [host_pattern(name) for name in names]
    if not patterns and not is_loopback_address(listen):
        return None
    always = AllowedHosts(())  # addresses and localhost, answered anyway
    for origin in origins:
        hostname = urlsplit(origin).hostname
        if hostname and hostname not in patterns and not always.allows(hostname):
            patterns.append(host_pattern(hostname))
    return patterns


def _sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None for other databases and in-memory SQLite)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    if parsed.database == ":memory:":
        return None
    return Path(parsed.database).expanduser().resolve()


def _where(url: str) -> str:
    """Where the data is, for the start-up line: the SQLite file, else the database URL."""
    file = _sqlite_file(url)
    return f"data: {file}" if file is not None else f"database: {_safe(url)}"


def _mention_old_database(url: str) -> None:
    """Earlier versions kept the default database in ./data/ of the directory the server
    was started from: point at such a file when the data directory has none yet."""
    from chicago.server.settings import DB_FILE_NAME

    current = _sqlite_file(url)
    old = Path.cwd() / "data" / DB_FILE_NAME
    if current is None or current.exists() or not old.is_file() or old.resolve() == current:
        return
    print(f"chicago serve: note: {old} is a database of an earlier version, which kept its "
          f"data under the directory it was started from; now the data is in {current.parent}"
          f". To go on with those tables, stop the server and move the file there, or start "
          f"it with --db sqlite:///{old}", file=sys.stderr)


def _safe(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)

"""The ASGI application of ``chicago serve``: :func:`create_app`.

Routes: the lobby's JSON API under ``/api`` (:mod:`chicago.server.lobby`), the websocket
``/ws/{table}`` (:mod:`chicago.server.ws`), a page listing the API at ``/api/docs`` (with its
OpenAPI description at ``/api/openapi.json``), and the browser app's static files at ``/``
(``Settings.static_dir``, served by :mod:`chicago.server.static`; an incomplete app is refused
with :class:`~chicago.server.assets.StaticFilesMissing`, none gives a JSON page there). Every
response carries the safe headers of :mod:`chicago.server.headers`; request bodies are limited
(:class:`BodyLimit`). At start-up the database is migrated to the newest schema and the
tables in play are resumed. With ``Settings.redis_url`` the process is one of several
workers (Redis bus, PostgreSQL table locks; docs/SCALING.md).
"""

from __future__ import annotations

import asyncio
import gc
import html
import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import chicago
from chicago.server import lobby, practice, review_api, web_api, ws
from chicago.server.admission import Admission
from chicago.server.assets import StaticFilesMissing, missing_files
from chicago.server.clock import Clock
from chicago.server.club import routes as club_routes
from chicago.server.club.service import ClubService
from chicago.server.core.ports import TableBus
from chicago.server.gc_tuning import (
    check_young_scans_below,
    table_load,
    tune_for_serving,
    untune,
)
from chicago.server.headers import Origins, SafeHeaders
from chicago.server.hosts import AllowedHosts, HostCheck
from chicago.server.locking import make_locks
from chicago.server.pairing.routes import router as pairing_routes
from chicago.server.pairing.service import Pairing
from chicago.server.pairing.socket import pairing_socket
from chicago.server.redis_bus import RedisBus, channel_prefix
from chicago.server.reviews import ReviewService
from chicago.server.settings import Settings
from chicago.server.static import StaticSite
from chicago.server.storage import Store
from chicago.server.tables import TableManager
from chicago.server.together.mail import Mailer
from chicago.server.together.mail import router as mail_routes
from chicago.server.together.online import Online
from chicago.server.together.people import People
from chicago.server.together.people import router as people_routes
from chicago.server.together.site import site_socket
from chicago.server.together.turns import YourGames
from chicago.server.together.turns import router as turns_routes

__all__ = ["BodyLimit", "create_app"]


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``limit`` bytes gets 413 and a JSON error,
    whether or not it announced its length (``Content-Length``; a chunked body is counted as
    it comes). Nothing after the limit is read, and the connection is closed."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._reject(send)
                return
        received = 0
        started = refused = False

        async def counting_receive() -> Message:
            nonlocal received, refused
            if refused:
                raise _TooLarge
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    if not started:
                        await self._reject(send)
                    raise _TooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:  # the app's own answer to the body it could not read: dropped
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        with suppress(_TooLarge):
            await self.app(scope, counting_receive, guarded_send)

    async def _reject(self, send: Send) -> None:
        body = json.dumps({"error": {"code": "too_large",
                                     "message": f"request bodies have at most {self.limit} "
                                                "bytes"}}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass


def create_app(settings: Settings | None = None, *, bus: TableBus | None = None,
               clock: Clock | None = None) -> FastAPI:
    """The server application; ``settings`` default to :class:`Settings()` (SQLite file);
    ``clock``: the server's clock (default: the real time; tests move a
    :class:`~chicago.server.clock.ShiftedClock` forward)."""
    settings = settings if settings is not None else Settings()
    if settings.tune_gc:  # user input: refused here, before anything starts
        check_young_scans_below(settings.gc_young_scans_below)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_url)
        await asyncio.to_thread(store.migrate)
        shared = settings.redis_url is not None
        table_bus = bus
        if table_bus is None and settings.redis_url is not None:
            table_bus = RedisBus(settings.redis_url, channel_prefix(settings.db_url))
        worker = secrets.token_hex(8)
        reviews = ReviewService(store, settings, shared=shared, worker=worker)
        manager = TableManager(store, settings, table_bus,
                               make_locks(settings.db_url, shared=shared), reviews=reviews,
                               worker=worker, clock=clock)
        club = ClubService(manager, store, settings)
        app.state.store = store
        app.state.manager = manager
        app.state.reviews = reviews
        app.state.admission = Admission(settings, store, manager.tables)
        manager.rematch_gate = app.state.admission.admit_rematch
        app.state.club = club
        app.state.your_games = YourGames(manager, store)
        app.state.mailer = Mailer(manager, store, settings, app.state.your_games)
        app.state.people = People(manager, store, settings, club, app.state.mailer,
                                  Online(manager, app.state.your_games.pages.here,
                                         shared=shared))
        app.state.pairing = Pairing(manager, store, club, settings,
                                    app.state.admission)
        await manager.start()
        await club.start()
        await app.state.your_games.start()
        await app.state.mailer.start()
        await app.state.people.start()
        if settings.tune_gc:  # last: what start-up made is frozen
            tables, loop = manager.tables, asyncio.get_running_loop()

            def collect_soon() -> None:  # from any thread; a whole scan on the loop
                with suppress(RuntimeError):  # the loop closed
                    loop.call_soon_threadsafe(gc.collect)

            by_load = settings.gc_scan_by_load
            tune_for_serving(settings.gc_young_threshold,
                             (lambda: table_load(tables.values())) if by_load else None,
                             collect_soon if by_load else None,
                             settings.gc_young_scans,
                             settings.gc_young_scans_below, lambda: len(tables))
        try:
            await app.state.pairing.start()
            try:
                yield
            finally:
                await app.state.pairing.stop()
        finally:
            if settings.tune_gc:
                untune()
            await app.state.people.stop()
            await app.state.mailer.stop()
            app.state.your_games.stop()
            await club.stop()
            await manager.stop()
            await app.state.admission.close()
            store.close()

    app = FastAPI(
        title="chicago table server", version=chicago.__version__, lifespan=lifespan,
        docs_url=None, openapi_url="/api/openapi.json", redoc_url=None,
    )
    app.state.settings = settings
    app.state.origins = Origins(settings.allowed_origins, settings.public_origin)
    app.add_middleware(BodyLimit, limit=settings.max_body)
    if settings.allowed_origins:  # other front ends may call the JSON API from their pages
        app.add_middleware(CORSMiddleware, allow_origins=sorted(app.state.origins.allowed),
                           allow_methods=["GET", "POST"],
                           allow_headers=["Authorization", "Content-Type", "X-Chicago-Profile",
                                          "X-Chicago-Organizer"], max_age=600)
    if settings.allowed_hosts is not None:  # a loopback server: no rebound names
        app.add_middleware(HostCheck, allowed=AllowedHosts(settings.allowed_hosts))
    app.add_middleware(SafeHeaders)
    lobby.install(app)
    club_routes.install(app)  # profiles, leaderboards, tournaments (docs/CLUB.md)
    app.include_router(review_api.router)  # reviews of finished games
    practice.install(app)  # exercises from the reviews (docs/PROTOCOL.md, "Practice")
    web_api.install(app)  # the browser app's routes (docs/WEB_NEEDS.md)
    app.include_router(turns_routes)  # Your games (issue 26)
    app.include_router(mail_routes)  # mail notices
    app.include_router(people_routes)  # who is online, follows, invitations
    app.include_router(pairing_routes)  # Play now with people: the queues' counts
    app.add_api_websocket_route("/ws/site", site_socket)  # before /ws/{table_id}
    app.add_api_websocket_route("/ws/pairing", pairing_socket)
    app.add_api_websocket_route("/ws/{table_id}", ws.table_socket)

    @app.get("/api/docs", include_in_schema=False, response_class=HTMLResponse)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(_api_page(app.openapi()))

    static = settings.static_dir
    if static is not None:
        missing = missing_files(static)
        if missing:  # never a JSON page where the app should be
            raise StaticFilesMissing(static, missing)
        app.mount("/", StaticSite(static), name="web")
    else:
        @app.get("/", include_in_schema=False)
        async def root() -> dict[str, Any]:
            return {"name": "chicago", "version": chicago.__version__,
                    "api": "/api/info", "docs": "/api/docs", "protocol": "docs/PROTOCOL.md"}
    return app


def _api_page(schema: dict[str, Any]) -> str:
    """The JSON API as a plain page: each route with its summary (no script: it is served
    under the same policy as the app)."""
    rows = []
    for path, methods in sorted(schema.get("paths", {}).items()):
        for method, operation in methods.items():
            summary = operation.get("summary") or operation.get("description") or ""
            rows.append(f"<tr><td><code>{html.escape(method.upper())}</code></td>"
                        f"<td><code>{html.escape(path)}</code></td>"
                        f"<td>{html.escape(summary.splitlines()[0] if summary else '')}"
                        "</td></tr>")
    title = html.escape(f"{schema['info']['title']} {schema['info']['version']}")
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{title}: API</title></head><body><h1>{title}</h1>"
            "<p>The JSON API of the lobby; the websocket protocol and every request and "
            "answer are described in docs/PROTOCOL.md. The machine-readable description: "
            "<a href=\"/api/openapi.json\">/api/openapi.json</a>.</p>"
            "<table><thead><tr><th>method</th><th>path</th><th>what</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></body></html>")

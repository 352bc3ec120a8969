"""The ASGI application of ``chicago serve``: :func:`create_app`.

Routes: the lobby's JSON API under ``/api`` (:mod:`chicago.server.lobby`), the websocket
``/ws/{table}`` (:mod:`chicago.server.ws`), the API's OpenAPI page at ``/api/docs``, and the
browser app's static files at ``/`` (``Settings.static_dir``; an incomplete app is refused with
:class:`~chicago.web.StaticFilesMissing`, none gives a JSON page there). At start-up the
database is migrated to the newest schema and the tables in play are resumed. With
``Settings.redis_url`` the process is one of several workers (Redis bus, PostgreSQL table
locks; docs/SCALING.md).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import chicago
from chicago.server import lobby, web_api, ws
from chicago.server.bus import TableBus
from chicago.server.locking import make_locks
from chicago.server.redis_bus import RedisBus, channel_prefix
from chicago.server.settings import Settings
from chicago.server.storage import Store
from chicago.server.tables import TableManager
from chicago.web import StaticFilesMissing, missing_files

__all__ = ["BodyLimit", "create_app"]


class BodyLimit:
    """ASGI middleware: HTTP request bodies over ``limit`` bytes get 413 and a JSON error."""

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
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise _TooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._reject(send)

    async def _reject(self, send: Send) -> None:
        body = json.dumps({"error": {"code": "too_large",
                                     "message": f"request bodies have at most {self.limit} "
                                                "bytes"}}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass


def create_app(settings: Settings | None = None, *, bus: TableBus | None = None) -> FastAPI:
    """The server application; ``settings`` default to :class:`Settings()` (SQLite file)."""
    settings = settings if settings is not None else Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_url)
        await asyncio.to_thread(store.migrate)
        shared = settings.redis_url is not None
        table_bus = bus
        if table_bus is None and settings.redis_url is not None:
            table_bus = RedisBus(settings.redis_url, channel_prefix(settings.db_url))
        manager = TableManager(store, settings, table_bus,
                               make_locks(settings.db_url, shared=shared))
        app.state.store = store
        app.state.manager = manager
        await manager.start()
        try:
            yield
        finally:
            await manager.stop()
            store.close()

    app = FastAPI(
        title="chicago table server", version=chicago.__version__, lifespan=lifespan,
        docs_url="/api/docs", openapi_url="/api/openapi.json", redoc_url=None,
    )
    app.state.settings = settings
    app.add_middleware(BodyLimit, limit=settings.max_body)
    lobby.install(app)
    web_api.install(app)  # the browser app's routes (docs/WEB_NEEDS.md)
    app.add_api_websocket_route("/ws/{table_id}", ws.table_socket)
    static = settings.static_dir
    if static is not None:
        missing = missing_files(static)
        if missing:  # never a JSON page where the app should be
            raise StaticFilesMissing(static, missing)
        app.mount("/", StaticFiles(directory=static, html=True), name="web")
    else:
        @app.get("/", include_in_schema=False)
        async def root() -> dict[str, Any]:
            return {"name": "chicago", "version": chicago.__version__,
                    "api": "/api/info", "docs": "/api/docs", "protocol": "docs/PROTOCOL.md"}
    return app

"""The table server behind ``chicago serve``: live tables over HTTP and websockets.

- :func:`create_app` (:mod:`chicago.server.app`): the ASGI application.
- :class:`Settings` (:mod:`chicago.server.settings`): database URL, limits; where data lives.
- :mod:`chicago.server.lobby`: the JSON API; :mod:`chicago.server.ws`: the websocket;
  :mod:`chicago.server.protocol`: the messages (docs/PROTOCOL.md).
- :mod:`chicago.server.core`: one table's state, the decisions on it and its frames, apart
  from storage and transport.
- :class:`TableManager` (:mod:`chicago.server.tables`): every change of a table; the live
  tables (:mod:`~chicago.server.live`, :mod:`~chicago.server.cache`), their writer
  (:mod:`~chicago.server.writer`), bots and clocks (:mod:`~chicago.server.schedule`),
  presence (:mod:`~chicago.server.presence`) and frames (:mod:`~chicago.server.fanout`).
- :mod:`chicago.server.storage`: SQLAlchemy schema, Alembic migrations, the :class:`Store`.
- :mod:`chicago.server.bus`: the table bus that carries stored changes and presence.

docs/SERVER.md describes the design. The names below are loaded on first use, so that
``import chicago.server.protocol`` loads neither the web framework nor SQLAlchemy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chicago.server.app import create_app
    from chicago.server.settings import Settings, default_db_url
    from chicago.server.tables import TableManager

__all__ = ["Settings", "TableManager", "create_app", "default_db_url"]

_HOMES = {"create_app": "chicago.server.app", "Settings": "chicago.server.settings",
          "default_db_url": "chicago.server.settings", "TableManager": "chicago.server.tables"}
"""The module each public name of the package comes from."""


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'chicago.server' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

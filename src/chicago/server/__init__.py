"""The table server behind ``chicago serve``: live tables over HTTP and websockets.

- :func:`create_app` (:mod:`chicago.server.app`): the ASGI application.
- :class:`Settings` (:mod:`chicago.server.settings`): database URL, limits; where data lives.
- :mod:`chicago.server.lobby`: the JSON API; :mod:`chicago.server.ws`: the websocket;
  :mod:`chicago.server.protocol`: the messages (docs/PROTOCOL.md).
- :class:`TableManager` (:mod:`chicago.server.tables`): every change of a table; the live
  tables (:mod:`~chicago.server.live`, :mod:`~chicago.server.cache`), their writer
  (:mod:`~chicago.server.writer`), bots and clocks (:mod:`~chicago.server.schedule`),
  presence (:mod:`~chicago.server.presence`) and frames (:mod:`~chicago.server.fanout`).
- :mod:`chicago.server.storage`: SQLAlchemy schema, Alembic migrations, the :class:`Store`.
- :mod:`chicago.server.bus`: the table bus that carries stored changes and presence.

docs/SERVER.md describes the design.
"""

from chicago.server.app import create_app
from chicago.server.settings import Settings, default_db_url
from chicago.server.tables import TableManager

__all__ = ["Settings", "TableManager", "create_app", "default_db_url"]

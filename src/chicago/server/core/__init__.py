"""The table core: one table's state, the decisions on it and its frames, apart from how
changes are stored and how frames travel (docs/SERVER.md, "The table core").

Pure Python over the engine: nothing here reads a clock, opens a socket or a database, or
imports the web framework, SQLAlchemy or Redis. The shells implement the protocols of
:mod:`chicago.server.core.ports` (SQLAlchemy the storage, the bus and the websocket the
transport) and drive the core.

- :mod:`~chicago.server.core.rows`: what is stored (log entries, rows, a change);
- :mod:`~chicago.server.core.ports`: the :class:`Storage`, :class:`TableBus` and
  :class:`Client` protocols the core is driven through.

This package's ``__init__`` imports nothing.
"""

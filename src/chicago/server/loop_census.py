"""What the server's event loop did, counted, for finding what a lag is made of (opt-in).

A lag of the loop (a callback that woke 50 ms or more late) says *that* the loop was busy,
not with what: the stack samples of ``bench_server.py --stalls`` show where it was now and
then, but not how many messages, frames, keep-alive pings or settled commits a lag held.
:class:`LoopCensus` counts them, and :func:`install` makes the server's own classes count
into it by wrapping a few of their methods:

- ``reads``: reads of a websocket's socket (uvicorn's ``data_received``);
- ``messages``: complete messages handed to a handler (:meth:`DirectMessages.put`);
- ``frames``: text frames written at once (:meth:`DirectFrames.write_text`);
- ``pings`` and ``pongs``: keep-alive pings sent and their pongs received;
- ``connections``: websocket connections made;
- ``acts``: actions asked for (a person's, :meth:`TableManager.act`), ``bot_turns``:
  a bot's timer fired (:meth:`TableManager._bot_turn`);
- ``settled`` and ``changes``: the writer thread's results handed back to the loop (one
  callback a group commit) and the changes in them.

Nothing here runs unless :func:`install` is called (the load benchmark calls it in its
server process with ``--stalls``): without it no method is wrapped and the server pays
nothing. :func:`install` returns the function that puts the methods back.
(docs/SERVER.md, "What the loop's lags are made of".)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

__all__ = ["KINDS", "LoopCensus", "install"]

KINDS = ("reads", "messages", "frames", "pings", "pongs", "connections", "acts",
         "bot_turns", "settled", "changes")
"""What is counted, in the order :meth:`LoopCensus.since` reports it."""


class LoopCensus:
    """Running counts of what the loop did (:data:`KINDS`); read them with
    :meth:`snapshot` and :meth:`since`."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[str, int] = dict.fromkeys(KINDS, 0)

    def add(self, kind: str, n: int = 1) -> None:
        """Count ``n`` more of ``kind``."""
        self.counts[kind] += n

    def snapshot(self) -> dict[str, int]:
        """The counts so far (a copy)."""
        return dict(self.counts)

    def since(self, before: dict[str, int]) -> dict[str, int]:
        """What was counted after ``before`` (a :meth:`snapshot`): the kinds that grew."""
        return {k: n - before.get(k, 0) for k, n in self.counts.items()
                if n != before.get(k, 0)}


def _counting(census: LoopCensus, kind: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``method``, counting each call as ``kind``."""
    add = census.add

    @functools.wraps(method)
    def counted(*args: Any, **kwargs: Any) -> Any:
        add(kind)
        return method(*args, **kwargs)

    return counted


def install(census: LoopCensus, ws_protocol: type[Any] | None = None) -> Callable[[], None]:
    """Make the server count into ``census`` (the websocket protocol class given, from
    :func:`chicago.server.transport.protocol_classes`, for reads, pings, pongs and
    connections); returns the function that undoes it. The methods are wrapped on their
    classes (and the writer's settle function in its module), so every instance counts,
    those made before as well."""
    from chicago.server import tables, transport, writer

    undo: list[Callable[[], None]] = []

    def wrap(owner: Any, name: str, kind: str) -> None:
        had = owner.__dict__.get(name) if isinstance(owner, type) else None
        original = getattr(owner, name)
        setattr(owner, name, _counting(census, kind, original))

        def restore() -> None:
            if isinstance(owner, type) and had is None:
                delattr(owner, name)  # it was inherited
            else:
                setattr(owner, name, original if had is None else had)

        undo.append(restore)

    wrap(transport.DirectMessages, "put", "messages")
    wrap(transport.DirectFrames, "write_text", "frames")
    wrap(tables.TableManager, "act", "acts")
    wrap(tables.TableManager, "_bot_turn", "bot_turns")
    settle = writer._settle

    def settle_counted(batch: list[Any], results: list[Any]) -> None:
        census.add("settled")
        census.add("changes", len(batch))
        settle(batch, results)

    writer._settle = settle_counted
    undo.append(lambda: setattr(writer, "_settle", settle))
    if ws_protocol is not None:
        wrap(ws_protocol, "data_received", "reads")
        wrap(ws_protocol, "send_keepalive_ping", "pings")
        wrap(ws_protocol, "handle_pong", "pongs")
        wrap(ws_protocol, "connection_made", "connections")

    def uninstall() -> None:
        while undo:
            undo.pop()()

    return uninstall

"""What a credential opened ends when the credential is replaced (docs/SERVER.md,
"Credentials").

A seat token opens a websocket (``hello``) and the seat's HTTP requests; a profile's secret
issues seat tokens (joining with the profile, taking the seat back, a tournament seat).

- **A claim** (the profile takes its seat back on another device) stores a new token hash
  for the seat: every worker applies that ``join`` entry, and :func:`end_replaced` closes
  each of its connections that said ``hello`` with the old token (close code
  :data:`CLAIMED`). An action already on its way is refused (:func:`require_holder`).
- **A rotation** ("sign out everywhere") gives the profile a new secret, so a new
  :func:`grant_of`. Seat tokens carry the grant they were issued under (the ``join``
  entry's ``grant``); one issued under another grant no longer says ``hello`` nor
  authenticates (:func:`granted`), and a :class:`Revocation` on the bus
  (:meth:`chicago.server.bus.TableBus.publish_revocation`, every worker) closes the open
  connections of the profile's seats that hold such a token (close code :data:`SIGNED_OUT`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from chicago.server.core.ports import Client, Revocation
from chicago.server.core.seats import Seat
from chicago.server.live import LiveTable
from chicago.server.protocol import TableError

__all__ = [
    "CLAIMED",
    "SIGNED_OUT",
    "Revocation",
    "end_replaced",
    "grant_of",
    "granted",
    "require_holder",
    "revoke",
]

SIGNED_OUT = 4401
"""Close code: the profile signed out everywhere (its seat tokens were revoked)."""

CLAIMED = 4409
"""Close code: the seat was taken with its profile on another device (a new token)."""

_REASONS = {SIGNED_OUT: "signed out everywhere", CLAIMED: "seat taken on another device"}


def grant_of(secret_hash: str) -> str:
    """The grant of a profile's secret, as seat tokens carry it: a digest of the stored
    hash (it tells nothing of the secret, and changes with every rotation)."""
    return hashlib.sha256(b"chicago-grant:" + secret_hash.encode("ascii")).hexdigest()[:24]


def granted(seat: Seat, secret_hash: str, rotated_at: float) -> bool:
    """Whether the token of ``seat`` (tied to a profile) was issued under the profile's
    current secret (``secret_hash``, last changed at ``rotated_at``). A token stored before
    grants were (no ``grant``) counts as issued under the secret it was issued after."""
    if seat.grant is not None:
        return hmac.compare_digest(seat.grant, grant_of(secret_hash))
    return seat.issued_at is not None and seat.issued_at >= rotated_at


def end_replaced(table: LiveTable) -> None:
    """Close each connection of ``table`` in this process whose seat's token is no longer
    the one it said ``hello`` with (a claim stored a new one)."""
    for conn in list(table.conns):
        if conn.seat is not None and conn.token_hash != table.state.seats[conn.seat].token_hash:
            _end(table, conn, CLAIMED)


def revoke(tables: Iterable[LiveTable], note: Revocation) -> int:
    """Close the connections of ``note.profile``'s seats that hold a token issued under
    another grant than ``note.grant``; how many."""
    ended = 0
    for table in list(tables):
        for conn in list(table.conns):
            if (conn.seat is not None and table.state.seats[conn.seat].profile == note.profile
                    and conn.grant != note.grant):
                _end(table, conn, SIGNED_OUT)
                ended += 1
    return ended


def require_holder(table: LiveTable, seat: int, holder: Client | None) -> None:
    """TableError 401 ``revoked`` when ``holder`` (the connection a request came from) no
    longer holds ``seat``: its token was replaced, or it was closed for that reason."""
    if holder is None:
        return
    if holder.closed or holder.token_hash != table.state.seats[seat].token_hash:
        raise TableError("revoked", "this connection's seat token no longer holds the seat "
                         "(taken on another device, or signed out everywhere); nothing was "
                         "done", 401)


def _end(table: LiveTable, conn: Client, code: int) -> None:
    """Close ``conn`` (it leaves the table's connections when its socket is done)."""
    conn.close(code, _REASONS[code])

"""The headers every answer of the server carries, and which origins may use it.

:class:`SafeHeaders` adds to every HTTP response (and to every refused websocket handshake)
a strict Content-Security-Policy — the page, its modules, styles, images and connections
come from the server itself; no inline script or style, no plug-ins, no framing — and
``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY``, ``Referrer-Policy:
no-referrer`` and a ``Permissions-Policy`` that turns off what a card game never needs.
Seat tokens live in the browser's ``localStorage``, so the policy is the main defence should
an injection ever slip through.

:class:`Origins` decides whose pages may open a websocket (and, for the origins the operator
admits, call the JSON API): the server's own origin (``Settings.public_origin`` behind a
reverse proxy, else the request's scheme and ``Host``) and ``Settings.allowed_origins``. A
client that sends no ``Origin`` is not a browser (a bot, a script) and is welcome; a page of
any other origin, ``null`` included, is refused (docs/SERVER.md, "Origins").
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "PERMISSIONS_POLICY", "SAFE_HEADERS", "Origins",
           "SafeHeaders", "origin_of"]

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
    "font-src 'self'", "connect-src 'self'", "media-src 'self'", "object-src 'none'",
    "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
])

PERMISSIONS_POLICY = ", ".join([
    "accelerometer=()", "camera=()", "display-capture=()", "geolocation=()", "gyroscope=()",
    "magnetometer=()", "microphone=()", "midi=()", "payment=()", "usb=()",
    "autoplay=(self)", "fullscreen=(self)",
])
"""Every powerful feature off, but for sound and full screen on the app's own page."""

SAFE_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
)
"""The headers every answer carries (also the transport's own 400s:
:mod:`chicago.server.transport`)."""


class SafeHeaders:
    """ASGI middleware: the headers above on every response (a handler's own header of the
    same name wins)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in SAFE_HEADERS if h[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(text: str) -> str | None:
    """An origin in one canonical form (``scheme://host[:port]``, lower case, the default
    port left out), or None when ``text`` is not an http(s) origin (``null``, a path …).

    >>> origin_of("HTTPS://Chicago.Example.org:443"), origin_of("http://[::1]:8000")
    ('https://chicago.example.org', 'http://[::1]:8000')
    >>> origin_of("null"), origin_of("https://example.org/lobby")
    (None, None)
    """
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if (scheme not in _DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/")
            or parts.query or parts.fragment or parts.username or parts.password):
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port and port != _DEFAULT_PORTS[scheme]
                                   else "")


class Origins:
    """Whose pages may use this server: its own origin and the ones admitted."""

    def __init__(self, allowed: Iterable[str] = (), public: str | None = None) -> None:
        self.allowed: frozenset[str] = frozenset(
            o for o in (origin_of(text) for text in allowed) if o is not None)
        self.public = origin_of(public) if public else None

    def own(self, scheme: str, host: str | None) -> str | None:
        """The server's own origin for a request that came with ``scheme`` (``http``,
        ``https``, ``ws``, ``wss``) and ``Host`` header ``host``."""
        if self.public is not None:
            return self.public
        if not host:
            return None
        web = "https" if scheme in ("https", "wss") else "http"
        return origin_of(f"{web}://{host}")

    def allows(self, origin: str | None, *, scheme: str, host: str | None) -> bool:
        """Whether a request with this ``Origin`` header (None: none) may go on."""
        if origin is None:
            return True
        seen = origin_of(origin)
        return seen is not None and (seen in self.allowed or seen == self.own(scheme, host))

"""Which ``Host`` names the server answers: the defence against DNS rebinding.

A page of ``http://evil.example`` whose name the attacker's DNS points at 127.0.0.1 after
it has loaded is, to the browser, still ``evil.example``: its scripts may then read and
write everything a server on the player's loopback answers, the origin check included
(their ``Origin`` and the request's ``Host`` agree). What gives it away is the ``Host``
header, the attacker's name. :class:`HostCheck` answers a request (HTTP or a websocket
handshake) whose ``Host`` is not allowed with 400 ``bad_host`` and a message naming the
option that admits it, before any route sees it.

Always allowed: an IP address (a browser sends one only when the page was asked for by
address, which no rebinding produces) and ``localhost`` with its subdomains (browsers keep
those on the machine itself). Besides those, :class:`AllowedHosts` holds the names the
operator gave (``chicago serve --allow-host``): ``chicago.example.org`` for that name,
``.example.org`` for it and every subdomain, ``*`` for any name (the check off).
``chicago serve`` turns the check on when it listens on a loopback address, the default,
and admits the hosts of ``--public-origin`` and ``--allow-origin`` with it
(docs/SERVER.md, "Hosts").
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["AllowedHosts", "HostCheck", "host_name", "host_pattern", "is_loopback_address"]

log = logging.getLogger("chicago.server")

_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_NAME = re.compile(rf"(?:{_LABEL}\.)*{_LABEL}\.?")


def host_name(header: str) -> str | None:
    """The name in a ``Host`` header, lower case, without its port or a final dot (an IPv6
    address without brackets); None when it is not a host name or address.

    >>> host_name("Chicago.Example.org:8000"), host_name("[::1]:8000"), host_name("a b")
    ('chicago.example.org', '::1', None)
    """
    text = header.strip().lower()
    if text.startswith("["):
        address, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not re.fullmatch(r":\d{1,5}", rest)):
            return None
        try:
            return str(ipaddress.IPv6Address(address))
        except ValueError:
            return None
    if text.count(":") > 1:  # an IPv6 address without brackets (not a header's form)
        try:
            return str(ipaddress.IPv6Address(text))
        except ValueError:
            return None
    name, colon, port = text.partition(":")
    if colon and not re.fullmatch(r"\d{1,5}", port):
        return None
    if not name or len(name) > 253 or not _NAME.fullmatch(name):
        return None
    return name.rstrip(".")


def host_pattern(text: str) -> str:
    """One ``--allow-host`` value in its canonical form, or ``ValueError`` naming the problem:
    a host name (``chicago.example.org``), a domain with its subdomains (``.example.org``)
    or ``*``.

    >>> host_pattern("Chicago.Example.org"), host_pattern(".club.example"), host_pattern("*")
    ('chicago.example.org', '.club.example', '*')
    """
    value = text.strip().lower()
    if value == "*":
        return value
    domain = value.startswith(".")
    name = value[1:] if domain else value
    if ":" in name or "/" in name or not name or not _NAME.fullmatch(name):
        raise ValueError(f"{text!r} is not a host name such as chicago.example.org, a domain "
                         "such as .example.org (it and every subdomain) or * (any; no "
                         "scheme, no port)")
    return ("." if domain else "") + name.rstrip(".")


def is_loopback_address(host: str) -> bool:
    """Whether a listening address (``chicago serve --host``) is the machine's own only.

    >>> is_loopback_address("127.0.0.1"), is_loopback_address("::1")
    (True, True)
    >>> is_loopback_address("localhost"), is_loopback_address("0.0.0.0")
    (True, False)
    """
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


class AllowedHosts:
    """The ``Host`` names a server answers (besides addresses and ``localhost``)."""

    def __init__(self, patterns: Iterable[str]) -> None:
        canonical = [host_pattern(p) for p in patterns]
        self.any = "*" in canonical
        self.names = frozenset(p for p in canonical if not p.startswith(".") and p != "*")
        self.domains = tuple(sorted(p for p in canonical if p.startswith(".")))

    def allows(self, header: str | None) -> bool:
        """Whether a request with this ``Host`` header may go on (None: it sent none, an
        HTTP/1.0 client or a script; no browser does that)."""
        if self.any or header is None:
            return True
        name = host_name(header)
        if name is None:
            return False
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            pass
        if name == "localhost" or name.endswith(".localhost") or name in self.names:
            return True
        return any(name == d[1:] or name.endswith(d) for d in self.domains)


class HostCheck:
    """ASGI middleware: a request whose ``Host`` :class:`AllowedHosts` refuses gets 400
    ``bad_host`` (a websocket handshake too, where the server can answer it; else it is
    closed unopened). Each refused name is logged once, with the option that admits it."""

    _LOGGED_AT_MOST = 100

    def __init__(self, app: ASGIApp, allowed: AllowedHosts) -> None:
        self.app = app
        self.allowed = allowed
        self._logged: set[str] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header: str | None = None
        for name, value in scope.get("headers", ()):  # every one, should there be several
            if name == b"host":
                header = value.decode("latin-1")
                if not self.allowed.allows(header):
                    break
        else:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":  # the handshake's first message, then the answer
            await receive()
        name = host_name(header or "")
        if name is None:
            message = "the request's Host header is not a host name (docs/SERVER.md, Hosts)"
        else:
            self._log_once(name)
            message = (f"this server does not answer for the host {name!r}; its operator can "
                       f"admit it with chicago serve --allow-host {name} (docs/SERVER.md, "
                       "Hosts)")
        body = json.dumps({"error": {"code": "bad_host", "message": message}}).encode()
        start = {"status": 400, "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(body)).encode())]}
        if scope["type"] == "http":
            await send({"type": "http.response.start", **start})
            await send({"type": "http.response.body", "body": body})
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", **start})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008})

    def _log_once(self, shown: str) -> None:
        if shown in self._logged or len(self._logged) >= self._LOGGED_AT_MOST:
            return
        self._logged.add(shown)
        log.warning("refused a request for the host %r: not an allowed host; to serve it, "
                    "start chicago serve with --allow-host %s", shown, shown)

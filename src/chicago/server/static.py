"""The browser app's files: compressed, cached, and served under versioned URLs.

:class:`StaticSite` serves a directory at ``/`` (``index.html`` for a directory):

- **compressed**: a text file (HTML, JavaScript, CSS, SVG, JSON) of more than a few hundred
  bytes is sent gzip-compressed to a client whose ``Accept-Encoding`` takes gzip (compressed
  once, kept in memory; ``Vary: Accept-Encoding``);
- **revalidated**: every answer has an ``ETag`` (a digest of the content) and
  ``Last-Modified``; ``If-None-Match`` / ``If-Modified-Since`` get 304 without a body;
- **versioned**: the page's own references (``js/app.js``, ``css/app.css`` …) are rewritten
  to ``v/VERSION/js/app.js``, VERSION a digest of every file of the directory. The modules'
  relative imports resolve under the same prefix, so a page loads one consistent version.
  Files under the current version's prefix are cached by the browser for a year
  (``immutable``): a new version of the app has a new prefix. A file asked for under another
  prefix (a page loaded before an upgrade) is the current file, revalidated at each use; the
  page itself and unversioned URLs are always revalidated (``no-cache``);
- **kept offline**: the service worker (``sw.js``, :data:`chicago.server.assets.WORKER`) is
  sent with the current version and the list of the files to keep filled in (its
  ``"@VERSION@"`` and ``["@FILES@"]``): every file the app's pages load, under the version's
  prefix, and the offline page. A new version of the app is a new worker for the browser.

A file changed on disk is noticed at its next request (its size and modification time), so
editing the app needs no restart.
"""

from __future__ import annotations

import asyncio
import email.utils
import gzip
import hashlib
import json
import mimetypes
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from starlette.types import Receive, Scope, Send

from chicago.server.assets import ENTRY, WORKER, page_files

__all__ = ["IMMUTABLE", "StaticSite"]

IMMUTABLE = "public, max-age=31536000, immutable"
"""Cache-Control of a file under the current version's prefix."""
REVALIDATE = "no-cache"
"""Cache-Control of everything else: the browser keeps it but asks whether it changed."""

_TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml", ".json": "application/json", ".txt": "text/plain; charset=utf-8",
    ".map": "application/json", ".webmanifest": "application/manifest+json",
}
_COMPRESSIBLE = ("text/", "image/svg+xml", "application/json", "application/manifest+json")
_MIN_COMPRESS = 256
_VERSIONED = re.compile(r"^v/([0-9a-f]{1,64})/(.*)$")
_REFERENCE = re.compile(r'\b(src|href)="(?![a-z]+:|/|#|v/)([^"?#]+)"')


@dataclass(frozen=True, slots=True)
class _File:
    """One file as served: its bytes (and gzip bytes when worth it), type and validators."""

    stamp: tuple[int, int]  # (size, mtime_ns) on disk when read
    body: bytes
    packed: bytes | None
    media_type: str
    etag: str
    modified: str  # HTTP date
    mtime: int  # whole seconds


def _media_type(path: Path) -> str:
    return _TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or \
        "application/octet-stream"


def _make(stamp: tuple[int, int], body: bytes, media_type: str) -> _File:
    packed = None
    if len(body) >= _MIN_COMPRESS and media_type.startswith(_COMPRESSIBLE):
        smaller = gzip.compress(body, compresslevel=9, mtime=0)
        if len(smaller) < len(body):
            packed = smaller
    mtime = stamp[1] // 1_000_000_000
    return _File(stamp, body, packed, media_type,
                 '"' + hashlib.sha256(body).hexdigest()[:20] + '"',
                 email.utils.formatdate(mtime, usegmt=True), mtime)


class StaticSite:
    """ASGI app: the files of ``directory`` (see the module docstring)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory.resolve()
        self._files: dict[str, _File] = {}
        self._version: tuple[tuple[tuple[str, int, int], ...], str, int] | None = None
        self._looked = -1.0  # monotonic time the directory was last listed

    # ------------------------------------------------------------------ files
    def _path(self, relative: str) -> Path | None:
        """The file ``relative`` names inside the directory (a directory: its
        ``index.html``), or None: outside it, hidden, or missing."""
        parts = [p for p in relative.split("/") if p]
        if any(p.startswith(".") or "\\" in p or "\0" in p for p in parts):
            return None
        path = self.directory.joinpath(*parts)
        if path.is_dir():
            path = path / "index.html"
        try:
            path = path.resolve()
        except OSError:
            return None
        if not path.is_relative_to(self.directory) or not path.is_file():
            return None
        return path

    def _read(self, path: Path) -> _File:
        """The file, read again when it changed on disk since."""
        info = path.stat()
        stamp = (info.st_size, info.st_mtime_ns)
        key = str(path)
        known = self._files.get(key)
        if known is None or known.stamp != stamp:
            known = _make(stamp, path.read_bytes(), _media_type(path))
            self._files[key] = known
        return known

    def version(self) -> str:
        """A digest of every file's name and content: a new one whenever a file changes
        (the directory is listed again at most once a second)."""
        return self._tree()[1]

    def _tree(self) -> tuple[tuple[tuple[str, int, int], ...], str, int]:
        """(listing, version, newest modification time in ns) of the directory."""
        at = time.monotonic()
        if self._version is not None and at - self._looked < 1.0:
            return self._version
        self._looked = at
        listing = []
        for root, dirs, names in os.walk(self.directory):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if not name.startswith("."):
                    info = (Path(root) / name).stat()
                    relative = os.path.relpath(Path(root) / name, self.directory)
                    listing.append((relative, info.st_size, info.st_mtime_ns))
        stamp = tuple(listing)
        if self._version is None or self._version[0] != stamp:
            digest = hashlib.sha256()
            for relative, _, _ in stamp:
                digest.update(relative.encode() + b"\0")
                digest.update(self._read(self.directory / relative).etag.encode())
            newest = max((mtime for _, _, mtime in stamp), default=0)
            self._version = (stamp, digest.hexdigest()[:12], newest)
        return self._version

    def _worker(self, file: _File) -> _File:
        """The service worker with the current version and the files it keeps."""
        _, version, newest = self._tree()
        keep = [name if name.endswith(".html") else f"v/{version}/{name}"
                for name in page_files(self.directory)[0] if name not in (ENTRY, WORKER)]
        text = file.body.decode("utf-8", "replace")
        text = text.replace('"@VERSION@"', json.dumps(version), 1)
        text = text.replace('["@FILES@"]', json.dumps(keep), 1)
        key = f"{self.directory / WORKER}#worker"
        known = self._files.get(key)
        body = text.encode("utf-8")
        if known is None or known.body != body:
            known = _make((len(body), max(newest, file.stamp[1])), body, file.media_type)
            self._files[key] = known
        return known

    def _page(self, path: Path, file: _File) -> _File:
        """An HTML page with its own relative references under the current version."""
        _, version, newest = self._tree()
        text = file.body.decode("utf-8", "replace")
        base = path.parent

        def versioned(match: re.Match[str]) -> str:
            target = (base / match[2]).resolve()
            if not target.is_relative_to(self.directory) or not target.is_file():
                return match[0]
            relative = target.relative_to(self.directory).as_posix()
            prefix = "../" * len(path.parent.relative_to(self.directory).parts)
            return f'{match[1]}="{prefix}v/{version}/{relative}"'

        rewritten = _REFERENCE.sub(versioned, text).encode("utf-8")
        key = f"{path}#page"
        known = self._files.get(key)
        if known is None or known.body != rewritten:
            # dated by the newest file: the page changes whenever any file it names does
            known = _make((len(rewritten), max(newest, file.stamp[1])), rewritten,
                          file.media_type)
            self._files[key] = known
        return known

    # ------------------------------------------------------------------ ASGI
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        method = scope["method"]
        if method not in ("GET", "HEAD"):
            await _answer(send, 405, _error("method_not_allowed", "files are only read"),
                          [(b"allow", b"GET, HEAD")])
            return
        relative = scope["path"].lstrip("/")
        versioned = _VERSIONED.match(relative)
        if versioned is not None:
            relative = versioned[2]
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", ())}
        found = await asyncio.to_thread(self._find, relative, versioned)
        if found is None:
            await _answer(send, 404, _error("not_found", f"no file /{relative}"))
            return
        file, caching = found
        await self._send_file(send, file, caching, headers, head=method == "HEAD")

    def _find(self, relative: str, versioned: re.Match[str] | None) -> tuple[_File, str] | None:
        """The file to send and its Cache-Control (in a worker thread: it reads the disk)."""
        path = self._path(relative)
        if path is None:
            return None
        file = self._read(path)
        if file.media_type.startswith("text/html"):
            return self._page(path, file), REVALIDATE
        if path == self.directory / WORKER:
            return self._worker(file), REVALIDATE
        current = versioned is not None and versioned[1] == self.version()
        return file, IMMUTABLE if current else REVALIDATE

    @staticmethod
    async def _send_file(send: Send, file: _File, caching: str, request: dict[str, str], *,
                         head: bool) -> None:
        packed = file.packed is not None and _accepts_gzip(request.get("accept-encoding", ""))
        etag = file.etag[:-1] + '-gz"' if packed else file.etag
        headers = [(b"content-type", file.media_type.encode()),
                   (b"cache-control", caching.encode()), (b"etag", etag.encode()),
                   (b"last-modified", file.modified.encode())]
        if file.packed is not None:
            headers.append((b"vary", b"Accept-Encoding"))
        if _not_modified(request, file):
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        body = file.packed if packed and file.packed is not None else file.body
        if packed:
            headers.append((b"content-encoding", b"gzip"))
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if head else body})


def _accepts_gzip(accept: str) -> bool:
    """Whether an Accept-Encoding value takes gzip (``gzip`` or ``*``, not with q=0)."""
    for item in accept.split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() in ("gzip", "x-gzip", "*"):
            quality = params.strip().lower()
            return not re.fullmatch(r"q=0(\.0*)?", quality.replace(" ", ""))
    return False


def _not_modified(request: dict[str, str], file: _File) -> bool:
    """Whether the client's copy is current: its ETag (either encoding's), or, without
    If-None-Match, its date."""
    tags = request.get("if-none-match")
    if tags is not None:
        mine = {file.etag.strip('"'), file.etag.strip('"') + "-gz"}
        given = {t.strip().removeprefix("W/").strip('"') for t in tags.split(",")}
        return "*" in given or bool(mine & given)
    since = request.get("if-modified-since")
    if since:
        try:
            moment = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError):
            return False
        return file.mtime <= int(moment.timestamp())
    return False


def _error(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


async def _answer(send: Send, status: int, body: bytes,
                  extra: list[tuple[bytes, bytes]] | None = None) -> None:
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()), *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

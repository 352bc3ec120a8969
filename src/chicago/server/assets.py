"""The browser app's files (:data:`chicago.web.STATIC_DIR`) as the page loads them: from its
pages through every import.

:func:`references` lists the local files one file of the app asks the browser for (the
scripts, stylesheets, icons and web-app manifest of a page; the ES module imports of a
script, static and dynamic with a literal name, and the service worker it registers; a
stylesheet's ``@import`` and ``url()``; the icons of a manifest), :func:`page_files` follows
them from the app's pages (``index.html`` and the offline page the service worker shows),
and :func:`missing_files` names what an installation lacks, so that ``chicago serve`` can
refuse to start instead of serving a broken page::

    >>> references("js/app.js", 'import { h } from "./dom.js";\\nimport "./lang/sv.js";')
    ['js/dom.js', 'js/lang/sv.js']
    >>> references("index.html", '<link rel="stylesheet" href="css/app.css">'
    ...            '<script type="module" src="js/app.js"></script>')
    ['css/app.css', 'js/app.js']

Paths are relative to the app's directory, with ``/`` between parts (URL paths under ``/``).
Remote addresses (``https:``, ``//host``), ``data:`` URLs and bare module names are not files
of the app and are left out.
"""

from __future__ import annotations

import json
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

__all__ = ["ENTRIES", "ENTRY", "OFFLINE", "WORKER", "StaticFilesMissing", "missing_files",
           "page_files", "references"]

ENTRY = "index.html"
"""The page the app starts from."""
OFFLINE = "offline.html"
"""The page the service worker shows when the server cannot be reached (where there is one:
another front end served from its own directory may have none)."""
ENTRIES = (ENTRY, OFFLINE)
"""The app's pages: every file of the app is reached from one of them."""
WORKER = "sw.js"
"""The service worker, at the app's root (its scope is the whole app)."""

_COMMENTS = re.compile(r"/\*.*?\*/", re.DOTALL)
_STATIC_IMPORT = re.compile(
    r"""(?m)^[ \t]*(?:import|export)\b[^;'"`]*?\bfrom\s*(["'])(?P<name>[^"'\n]+)\1"""
)
_BARE_IMPORT = re.compile(r"""(?m)^[ \t]*import\s*(["'])(?P<name>[^"'\n]+)\1""")
_DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*(["'])(?P<name>[^"'\n]+)\1\s*\)""")
_WORKER_SCRIPT = re.compile(r"""\bserviceWorker\.register\(\s*(["'])(?P<name>[^"'\n]+)\1""")
_CSS_IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?(["']?)(?P<name>[^"')\s;]+)\1""")
_CSS_URL = re.compile(r"""\burl\(\s*(["']?)(?P<name>[^"')]+)\1\s*\)""")


class _PageLinks(HTMLParser):
    """The ``src`` of scripts and the ``href`` of stylesheet, icon and preload links."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "script" and values.get("src"):
            self.found.append(values["src"])
        elif tag == "link" and values.get("href"):
            kinds = set(values.get("rel", "").lower().split())
            if kinds & {"stylesheet", "icon", "apple-touch-icon", "modulepreload", "preload",
                        "manifest"}:
                self.found.append(values["href"])


def _local(base: str, name: str) -> str | None:
    """``name`` as referenced from the file ``base``, relative to the app; None if remote."""
    name = name.split("#", 1)[0].split("?", 1)[0].strip()
    if not name or name.startswith(("data:", "//")) or re.match(r"[a-zA-Z][\w+.-]*:", name):
        return None
    if name.startswith("/"):
        joined = name.lstrip("/")
    elif name.startswith(("./", "../")) or base.endswith((".html", ".css", ".webmanifest")):
        joined = posixpath.join(posixpath.dirname(base), name)
    else:  # a bare module name in a script ("lodash"): no file of the app
        return None
    normal = posixpath.normpath(joined)
    return None if normal.startswith("..") else normal


def references(path: str, text: str) -> list[str]:
    """The app's files that the file at ``path`` (relative to the app) makes the browser load,
    in the order they appear, each once."""
    if path.endswith((".html", ".htm")):
        parser = _PageLinks()
        parser.feed(text)
        names = parser.found
    elif path.endswith((".js", ".mjs")):
        code = _COMMENTS.sub("", text)
        found = [
            (m.start(), m.group("name"))
            for pattern in (_STATIC_IMPORT, _BARE_IMPORT, _DYNAMIC_IMPORT)
            for m in pattern.finditer(code)
        ]
        names = [name for _, name in sorted(found)]
        # a service worker's address is the page's, not the module's: from the app's root
        workers = [_local(ENTRY, m.group("name")) for m in _WORKER_SCRIPT.finditer(code)]
        names += [f"/{name}" for name in workers if name is not None]
    elif path.endswith(".css"):
        code = _COMMENTS.sub("", text)
        found = [(m.start(), m.group("name")) for m in _CSS_IMPORT.finditer(code)]
        found += [(m.start(), m.group("name")) for m in _CSS_URL.finditer(code)]
        names = [name for _, name in sorted(found)]
    elif path.endswith(".webmanifest"):
        try:
            manifest = json.loads(text)
        except ValueError:
            manifest = {}
        icons = manifest.get("icons") if isinstance(manifest, dict) else None
        names = [icon["src"] for icon in icons or [] if isinstance(icon, dict)
                 and isinstance(icon.get("src"), str)]
    else:
        names = []
    result: list[str] = []
    for name in names:
        local = _local(path, name)
        if local is not None and local not in result:
            result.append(local)
    return result


def page_files(static_dir: Path) -> tuple[list[str], list[str]]:
    """Follow the references from the app's pages (:data:`ENTRIES`; the offline page only
    where there is one): (files found, files missing), relative to ``static_dir``, each in the
    order first referenced."""
    found: list[str] = []
    missing: list[str] = []
    queue = [name for name in ENTRIES if name == ENTRY or (static_dir / name).is_file()]
    while queue:
        name = queue.pop(0)
        if name in found or name in missing:
            continue
        file = static_dir / name
        if not file.is_file():
            missing.append(name)
            continue
        found.append(name)
        if file.suffix in (".html", ".htm", ".js", ".mjs", ".css", ".webmanifest"):
            text = file.read_text(encoding="utf-8", errors="replace")
            queue.extend(references(name, text))
    return found, missing


def missing_files(static_dir: Path | None) -> list[str]:
    """The files of the app that the page would load and ``static_dir`` lacks (all of the
    entry page when the directory itself is missing); empty when the app is complete."""
    if static_dir is None or not static_dir.is_dir():
        return [ENTRY]
    return page_files(static_dir)[1]


class StaticFilesMissing(RuntimeError):
    """The browser app's directory lacks files the page loads (an incomplete installation)."""

    def __init__(self, static_dir: Path, missing: list[str]) -> None:
        self.static_dir = static_dir
        self.missing = missing
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5
                                          else "")
        super().__init__(
            f"the browser app is incomplete: {shown} missing in {static_dir}. This "
            "installation of chicago lacks its web files: reinstall it from a complete wheel "
            "or source archive"
        )

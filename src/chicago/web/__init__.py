"""The browser app of ``chicago serve``: its files only.

``static/`` holds the app itself (plain HTML, CSS and JavaScript modules, no build step, and
the catalogues of words the terminal reads too), served at ``/`` by the table server. The
server's Python that serves it lives under :mod:`chicago.server`: the static site
(:mod:`chicago.server.static`), the check that an installation holds every file the page
loads (:mod:`chicago.server.assets`), the replay pages (:mod:`chicago.server.replay_pages`)
and the hint button's answers (:mod:`chicago.server.hints`).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATIC_DIR"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The browser app's files."""

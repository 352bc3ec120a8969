"""The browser app of ``chicago serve``.

``static/`` holds the app itself (plain HTML, CSS and JavaScript modules, no build step),
served at ``/`` by the table server. :mod:`chicago.web.replay` turns a finished game's record
into the step-by-step pages of the replay screen, and :mod:`chicago.web.hints` answers the
hint button; the table server mounts both through :mod:`chicago.server.web_api`.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATIC_DIR"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The browser app's files."""

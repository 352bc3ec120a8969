"""The browser app of ``chicago serve``.

``static/`` holds the app itself (plain HTML, CSS and JavaScript modules, no build step),
served at ``/`` by the table server; :mod:`chicago.web.assets` follows the page through every
file it loads, so that a server whose installation lacks one refuses to start
(:func:`missing_files`). :mod:`chicago.web.replay` turns a finished game's record
into the step-by-step pages of the replay screen, and :mod:`chicago.web.hints` answers the
hint button; the table server mounts both through :mod:`chicago.server.web_api`.
"""

from __future__ import annotations

from pathlib import Path

from chicago.web.assets import missing_files

__all__ = ["STATIC_DIR", "StaticFilesMissing", "missing_files"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The browser app's files."""


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

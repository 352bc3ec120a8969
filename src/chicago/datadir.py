"""Where chicago keeps its data: one directory for every shell.

The terminal saves its games in ``<data>/games/`` and the table server keeps its SQLite
database in ``<data>/chicago.sqlite3``. ``<data>`` is ``$CHICAGO_DATA`` when that variable is
set (a relative value is taken from the directory the program starts in and shown as an
absolute path), else the platform's user data directory:

- Linux and other POSIX systems: ``$XDG_DATA_HOME/chicago`` (an absolute ``XDG_DATA_HOME``
  only, as the XDG Base Directory specification says), else ``~/.local/share/chicago``;
- macOS: ``~/Library/Application Support/chicago``;
- Windows: ``%LOCALAPPDATA%\\chicago``, else ``~\\AppData\\Local\\chicago``.

These are the directories ``platformdirs.user_data_dir("chicago", appauthor=False)`` names;
the few lines here spare the core of the package a dependency. Nothing is created here: the
shell that writes creates the directory.

>>> data_dir(env={"CHICAGO_DATA": "/srv/chicago"})
PosixPath('/srv/chicago')
>>> data_dir(env={"XDG_DATA_HOME": "/home/anna/.data"}, platform="linux")
PosixPath('/home/anna/.data/chicago')
>>> data_dir(env={}, platform="darwin", home=Path("/Users/anna"))
PosixPath('/Users/anna/Library/Application Support/chicago')
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["APP_NAME", "DATA_ENV", "data_dir", "user_data_dir"]

APP_NAME = "chicago"
"""The directory's name under the platform's data directory."""

DATA_ENV = "CHICAGO_DATA"
"""The environment variable that names the data directory itself."""


def data_dir(
    env: Mapping[str, str] | None = None, *, platform: str | None = None,
    home: Path | None = None,
) -> Path:
    """The data directory: ``$CHICAGO_DATA``, else :func:`user_data_dir` (not created).

    ``env``, ``platform`` (``sys.platform``) and ``home`` default to this process's.
    """
    env = os.environ if env is None else env
    chosen = env.get(DATA_ENV, "").strip()
    if chosen:
        return Path(os.path.abspath(Path(chosen).expanduser()))
    return user_data_dir(env, platform=platform, home=home)


def user_data_dir(
    env: Mapping[str, str] | None = None, *, platform: str | None = None,
    home: Path | None = None,
) -> Path:
    """The platform's per-user data directory for chicago (see the module's docs)."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    home = Path.home() if home is None else home
    if platform.startswith("win"):
        local = env.get("LOCALAPPDATA", "").strip()
        base = Path(local) if local else home / "AppData" / "Local"
        return base / APP_NAME
    if platform == "darwin":
        return home / "Library" / "Application Support" / APP_NAME
    xdg = env.get("XDG_DATA_HOME", "").strip()
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / APP_NAME
    return home / ".local" / "share" / APP_NAME

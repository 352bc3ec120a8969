"""Where games are saved, and reading and writing record files.

The data directory is the one every shell shares (:func:`chicago.datadir.data_dir`:
``$CHICAGO_DATA`` if set, else the platform's user data directory, on Linux
``$XDG_DATA_HOME/chicago`` or ``~/.local/share/chicago``). ``chicago play`` saves each game
in ``<data>/games/`` as a JSON record (:meth:`chicago.Game.record` plus a ``"tags"``
object: names, bots, the human seat), rewritten after every action; a finished game's file
is its final record.

A record file is JSON (it starts with ``{``) or the text notation of
:func:`chicago.record.write_text` (any other content). Files are written to a temporary
name first and then renamed, so a crash never leaves half a record.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chicago.datadir import data_dir
from chicago.record import FORMAT, RecordError, read_text, write_text

__all__ = [
    "LoadedRecord",
    "data_dir",
    "games_dir",
    "is_text_name",
    "latest_unfinished",
    "load_record",
    "new_game_path",
    "record_json",
    "save_record",
]


def games_dir() -> Path:
    """``<data>/games``, where ``chicago play`` saves games by default."""
    return data_dir() / "games"


def new_game_path(seed: int, now: float | None = None) -> Path:
    """A fresh file name for a new game: ``<data>/games/20240131-142501-seed7.json``."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    base = games_dir() / f"{stamp}-seed{seed}"
    path = base.with_suffix(".json")
    number = 2
    while path.exists():
        path = Path(f"{base}-{number}.json")
        number += 1
    return path


@dataclass
class LoadedRecord:
    """A record read from a file: the JSON record, its tags, and the file's format."""

    record: dict[str, Any]
    tags: dict[str, str] = field(default_factory=dict)
    text_format: bool = False


def load_record(path: str | Path) -> LoadedRecord:
    """Read a record file (JSON or text notation).

    Raises :class:`RecordError` (a ``ValueError``) with a one-line reason that names the
    file when it is missing, cannot be read, is not a chicago game record at all (another
    JSON document, a file of other text) or is a record with a fault.
    """
    text = _read_file(Path(path))
    if text.lstrip().startswith("{"):
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}: not valid JSON ({exc})") from None
        if not isinstance(record, dict):
            raise RecordError(f"{path}: a record is a JSON object")
        kind = record.get("format")
        if kind is not None and kind != FORMAT:
            raise RecordError(f"{path} is not a chicago game record (its format is {kind!r})")
        if kind is None and not {"players", "actions"} <= set(record):
            raise RecordError(f"{path} is not a chicago game record (a JSON object without "
                              "'players' and 'actions')")
        raw_tags = record.get("tags") or {}
        tags = {str(k): str(v) for k, v in raw_tags.items()} if isinstance(raw_tags, dict) else {}
        return LoadedRecord(record, tags, text_format=False)
    parsed = read_text(text)
    if not parsed.ok:
        line, message = parsed.errors[0]
        where = f" line {line}" if line else ""
        more = f" (and {len(parsed.errors) - 1} more problems)" if len(parsed.errors) > 1 else ""
        if not parsed.tags:
            raise RecordError(f"{path} is not a chicago game record (neither JSON nor the "
                              f"text notation:{where}{':' if where else ''} {message})")
        raise RecordError(f"{path}{where}: {message}{more}")
    return LoadedRecord(parsed.record, _own_tags(parsed.tags), text_format=True)


def _read_file(path: Path) -> str:
    """The text of a record file; RecordError saying why it cannot be had."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise RecordError(f"{path} is a directory, not a game record") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a chicago game record (not UTF-8 text)") from None
    except OSError as exc:
        raise RecordError(f"{path} cannot be read: {exc.strerror or exc}") from None


_RESERVED_TAGS = {"Rules", "Set", "Players", "Seed", "Dealer", "Result", "Winners"}


def _own_tags(tags: dict[str, str]) -> dict[str, str]:
    """Tags other than those the text notation writes from the record itself."""
    return {
        k: v for k, v in tags.items()
        if k not in _RESERVED_TAGS and not (k.startswith("Deck") and k[4:].isdigit())
    }


def save_record(
    path: str | Path, record: dict[str, Any], tags: dict[str, str] | None = None,
    *, text_format: bool | None = None,
) -> None:
    """Write a record atomically: JSON (tags under ``"tags"``), or the text notation.

    ``text_format`` None chooses by the file name (:func:`is_text_name`).
    """
    target = Path(path)
    if text_format is None:
        text_format = is_text_name(target)
    if text_format:
        clean = {k: v for k, v in record.items() if k != "tags"}
        content = write_text(clean, _own_tags(tags or {}) or None)
    else:
        content = record_json(record, tags)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(content)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_ACTIONS_MARK = '\n "actions": []'


def record_json(record: dict[str, Any], tags: dict[str, str] | None = None) -> str:
    """The JSON file of a record: indented, with one action per line (tags under ``"tags"``).

    A game is saved after every action, and a long game has thousands of actions: they are
    encoded in one go by the C encoder and then put one to a line, so a save stays a few
    milliseconds.
    """
    actions = record.get("actions", [])
    body = json.dumps({**record, "actions": [], "tags": dict(tags or {})}, indent=1)
    if not actions or _ACTIONS_MARK not in body:
        return json.dumps({**record, "tags": dict(tags or {})}, indent=1) + "\n"
    compact = json.dumps(actions)  # the C encoder: one line, "[[0, \"keep\"], [1, …]]"
    if compact.count("], [") != len(actions) - 1:  # an action text holds "], [" itself
        return json.dumps({**record, "tags": dict(tags or {})}, indent=1) + "\n"
    block = '\n "actions": [\n  ' + compact[1:-1].replace("], [", "],\n  [") + "\n ]"
    return body.replace(_ACTIONS_MARK, block, 1) + "\n"


TEXT_SUFFIXES = (".txt", ".chicago", ".pgn")
"""File name endings that mean the text notation; any other name is JSON."""


def is_text_name(path: str | Path) -> bool:
    """True when a file of this name is written in the text notation (``.txt``, ``.chicago``)."""
    return Path(path).suffix.lower() in TEXT_SUFFIXES


def latest_unfinished(directory: Path | None = None) -> Path | None:
    """The most recently changed unfinished JSON game in ``directory`` (default the games dir)."""
    folder = directory if directory is not None else games_dir()
    if not folder.is_dir():
        return None
    candidates = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for candidate in candidates:
        try:
            record = json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        result = record.get("result") if isinstance(record, dict) else None
        if isinstance(result, dict) and not result.get("over", False):
            return candidate
    return None

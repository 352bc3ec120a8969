"""Bot levels are registered in one place (issue 24): ``chicago.bots.LEVELS``, which the
lobby, the terminal, ``chicago simulate`` and the table server read; nothing outside the
bots reaches for a private loader, and a new level is a line there and its module."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import chicago.bots.base as base
from chicago.bots import LEVELS, BotLevel, bot_levels, level_names, make_bot, register_bot
from chicago.bots.base import RandomBot

SRC = Path(base.__file__).resolve().parent.parent


def test_every_level_is_installed_in_the_order_of_the_one_list() -> None:
    assert level_names() == tuple(level.name for level in LEVELS)
    assert bot_levels() == list(level_names())[: len(bot_levels())]
    assert bot_levels()[:4] == ["random", "basic", "ev", "expert"]
    for name in bot_levels():
        assert make_bot(name).name.startswith(name)


def test_the_shells_read_the_one_list() -> None:
    """The lobby (and so the protocol's ``bot:LEVEL`` seats and stand-ins), the terminal's
    fallback for a level it lacks, and ``chicago simulate``'s help all come from LEVELS."""
    from chicago.server.lobby import bot_levels as lobby_levels
    from chicago.tui.session import make_bots

    assert lobby_levels() == bot_levels()
    bots, used, _ = make_bots(["expert"], players=2)
    assert used == ["expert"] and bots[1].name.startswith("expert")
    out = subprocess.run([sys.executable, "-m", "chicago", "simulate", "--help"],
                         capture_output=True, text=True, check=True).stdout
    assert ", ".join(level_names()) in " ".join(out.split())


def test_nothing_outside_the_bots_uses_their_private_loader() -> None:
    """The server once imported ``_load_builtin_bots``: the levels are public now."""
    found = []
    for path in SRC.rglob("*.py"):
        if "bots" in path.relative_to(SRC).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(
                    "chicago.bots"):
                found += [f"{path.name}: {a.name}" for a in node.names if a.name.startswith("_")]
    assert not found, found


def test_a_new_level_is_one_line_and_its_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """A level added to LEVELS (here one whose module registers it) is offered in its place,
    between the levels around it, by every reader; a level that is not installed (its module
    missing) is left out and the others stay."""
    levels = (*LEVELS[:2], BotLevel("steady", "chicago.bots.base"), *LEVELS[2:],
              BotLevel("absent", "chicago.bots.no_such_module"))
    monkeypatch.setattr(base, "LEVELS", levels)
    monkeypatch.setattr(base, "BOT_LEVELS", list(base.BOT_LEVELS))
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    register_bot("steady", lambda spec: RandomBot())
    assert base.bot_levels()[:5] == ["random", "basic", "steady", "ev", "expert"]
    assert "absent" not in base.bot_levels() and "absent" in base.level_names()
    assert isinstance(base.make_bot("steady"), RandomBot)

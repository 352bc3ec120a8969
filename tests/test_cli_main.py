"""The ``chicago`` command itself: sub-commands, the default command, Ctrl-C."""

from __future__ import annotations

import argparse

import pytest

from chicago import cli


def test_ctrl_c_in_any_command_ends_with_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C that no command catches (before it could save anything) prints no traceback."""
    _, modules = cli.build_parser()

    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(modules["odds"], "run", interrupted)
    assert cli.main(["odds", "Ah Kh Qh Jh 2c"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "Interrupted.\n"
    assert captured.out == ""


def test_no_arguments_runs_the_default_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """``chicago`` alone starts the main program, the table server (``make run``)."""
    _, modules = cli.build_parser()
    seen: list[str] = []

    def run(args: argparse.Namespace) -> int:
        seen.append(args.command)
        return 0

    monkeypatch.setattr(modules[cli.DEFAULT_COMMAND], "run", run)
    assert cli.main([]) == 0
    assert seen == ["serve"]

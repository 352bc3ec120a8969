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


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    """``chicago --version`` prints the one version: ``chicago.__version__``, which the
    package metadata takes (pyproject.toml's dynamic version)."""
    from importlib.metadata import version

    import chicago

    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"chicago {chicago.__version__}\n"
    assert version("chicago-cardgame") == chicago.__version__


def test_licence_file_and_changelog_match_the_declared_licence() -> None:
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    licence = (root / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 the chicago authors\n")
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in licence
    changelog = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.startswith("# Changelog")


def test_the_version_is_written_in_one_place_and_the_changelog_has_its_section() -> None:
    """``chicago.__version__`` is the version (pyproject.toml reads it; make release checks
    the changelog against it): no other file of src/ or pyproject.toml writes it, and the
    changelog's first section is for it (issue 29)."""
    import re
    from pathlib import Path

    import chicago

    root = Path(__file__).resolve().parent.parent
    version = chicago.__version__
    assert version == "0.1.0"
    written = [str(p.relative_to(root)) for p in [*(root / "src").rglob("*.py"),
                                                   root / "pyproject.toml", root / "setup.py"]
               if re.search(rf"[\"']{re.escape(version)}[\"']", p.read_text(encoding="utf-8"))]
    assert written == ["src/chicago/__init__.py"]
    changelog = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.findall(r"^## \[([^\]]+)\]", changelog, re.M)[0] == version


def test_python_dash_m_chicago_is_the_chicago_command() -> None:
    """``python -m chicago`` runs the same program as the ``chicago`` script."""
    import subprocess
    import sys

    import chicago

    done = subprocess.run([sys.executable, "-m", "chicago", "--version"],
                          capture_output=True, text=True, timeout=60, check=False)
    expected = (0, f"chicago {chicago.__version__}\n", "")
    assert (done.returncode, done.stdout, done.stderr) == expected

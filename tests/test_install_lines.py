"""Every install command chicago prints names its own distribution (issue 29).

The PyPI project ``chicago`` is an unrelated package, so ``pip install 'chicago[server]'``
would install that (or replace this one with ``-U``). The distribution is
``chicago-cardgame`` (:data:`chicago.extras.DISTRIBUTION`, ``pyproject.toml``'s name); the
import and the command stay ``chicago``. Checked here: the metadata, each missing-extra
message (pip and pipx), the ``--help`` of every command, and every install line in the
README, the documents, the changelog, the scripts and the source.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from chicago.extras import (
    DISTRIBUTION,
    EXTRAS,
    MissingExtra,
    install_command,
    installed_by_pipx,
)

ROOT = Path(__file__).resolve().parent.parent

INSTALL = re.compile(r"\b(?:pip3?|pipx|python3? -m pip)\s+install\b[^\n`\"#]*")
"""An install command, up to the end of its line, code span, string or comment."""
BARE = re.compile(r"(?<![\w./-])'?chicago(?:\[[^\]]*\])?'?(?![\w.-])")
"""The name ``chicago`` alone as what to install: ``chicago``, ``'chicago[tui]'``."""
EXTRA_OF_BARE_NAME = re.compile(r"(?<![\w./-])chicago\[(?:[a-z]+,?)+\]")


def _commands() -> list[str]:
    from chicago.cli import build_parser

    _, commands = build_parser()
    return sorted(commands)


def _texts() -> dict[str, str]:
    """The files a user or a developer reads install commands in."""
    paths = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "Makefile",
             *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "scripts").glob("*.py")),
             *sorted((ROOT / "src" / "chicago").rglob("*.py")),
             *sorted((ROOT / "examples").rglob("*")), *sorted((ROOT / ".ci").glob("*"))]
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in paths
            if p.is_file() and p.suffix not in (".pyc",)}


def wrong_install_lines(text: str) -> list[str]:
    """The install commands in ``text`` that name ``chicago`` rather than the distribution,
    and any ``chicago[extra]`` (the extras of the unrelated project)."""
    wrong = [m.group(0) for m in INSTALL.finditer(text) if BARE.search(m.group(0))]
    wrong += [m.group(0) for m in EXTRA_OF_BARE_NAME.finditer(text)]
    return wrong


def test_the_checker_catches_the_old_lines() -> None:
    assert wrong_install_lines("run: pip install 'chicago[server]'") != []
    assert wrong_install_lines("pipx install chicago") != []
    assert wrong_install_lines("(chicago[cluster] installed)") != []
    assert wrong_install_lines("pip install 'chicago-cardgame[server]'") == []
    assert wrong_install_lines("pipx install '.[all]' and pip install -e '.[dev]'") == []
    assert wrong_install_lines("pip install dist/chicago_cardgame-0.1.0.tar.gz") == []


def test_the_metadata_names_the_distribution() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION == "chicago-cardgame"
    assert project["scripts"] == {"chicago": "chicago.cli:main"}
    for extra in ("postgres", "redis", "all"):
        inner = [r for r in project["optional-dependencies"][extra] if "chicago" in r]
        assert inner and all(r.startswith(f"{DISTRIBUTION}[") for r in inner), extra


@pytest.mark.parametrize("extra", [*EXTRAS, "all"])
def test_each_missing_extra_message_names_the_distribution(extra: str) -> None:
    message = str(MissingExtra(extra, "chicago something", ["somepackage"]))
    assert message.endswith(f"pip install '{DISTRIBUTION}[{extra}]'")
    assert install_command(extra, pipx=True) == f"pipx install --force '{DISTRIBUTION}[{extra}]'"


def test_an_environment_of_pipx_gets_the_pipx_command() -> None:
    assert installed_by_pipx("/home/u/.local/share/pipx/venvs/chicago-cardgame")
    assert installed_by_pipx("/home/u/.local/pipx/venvs/chicago-cardgame")
    assert not installed_by_pipx("/home/u/work/.venv")
    assert not installed_by_pipx("/opt/pipx-tools/venv")


def test_every_install_line_of_the_documents_and_the_source_names_the_distribution() -> None:
    texts = _texts()
    assert len(texts) > 100
    wrong = {name: found for name, text in texts.items() if (found := wrong_install_lines(text))}
    assert wrong == {}
    readme = texts["README.md"]
    assert f"pipx install '{DISTRIBUTION}[all]'" in readme
    assert f"pip install '{DISTRIBUTION}[all]'" in readme


def test_every_commands_help_names_the_distribution() -> None:
    """``chicago --help`` and each ``chicago COMMAND --help`` as printed."""
    shown = []
    for argv in ([], *[[command] for command in _commands()]):
        done = subprocess.run([sys.executable, "-m", "chicago", *argv, "--help"],
                              capture_output=True, text=True, timeout=120, check=True)
        assert wrong_install_lines(done.stdout) == [], argv
        shown += [m.group(0) for m in INSTALL.finditer(done.stdout)]
    assert shown and all(DISTRIBUTION in line for line in shown), shown

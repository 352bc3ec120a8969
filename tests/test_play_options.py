"""`chicago play` options: several values after one --set, and --resume with new-game flags."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chicago.cli import build_parser, main


def parse(*argv: str) -> object:
    parser, _ = build_parser()
    return parser.parse_args(list(argv))


def test_one_set_takes_several_options_and_may_be_repeated() -> None:
    args = parse("play", "--set", "lock_at=42", "target=60", "--set", "stake=2", "--plain")
    assert args.set == ["lock_at=42", "target=60", "stake=2"]  # type: ignore[attr-defined]
    assert args.plain  # type: ignore[attr-defined]
    assert parse("play").set == []  # type: ignore[attr-defined]
    sim = parse("simulate", "--bots", "basic,random", "--set", "max_deals=2", "target=20",
                "--set", "lock_at=10", "--games", "2")
    assert sim.set == ["max_deals=2", "target=20", "lock_at=10"]  # type: ignore[attr-defined]
    assert sim.games == 2  # type: ignore[attr-defined]


def test_odds_keeps_one_value_per_set_so_its_hand_is_not_swallowed() -> None:
    """`chicago odds` has a positional HAND: a greedy --set would take the cards."""
    args = parse("odds", "--set", "wheel_straight=false", "2c", "3d", "4h", "5s", "Kc")
    assert args.set == ["wheel_straight=false"]  # type: ignore[attr-defined]
    assert args.hand == ["2c", "3d", "4h", "5s", "Kc"]  # type: ignore[attr-defined]


def test_simulate_runs_with_several_values_after_one_set(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--bots", "basic,random", "--games", "2", "--set", "max_deals=2",
                 "target=20", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def _cli(args: list[str], stdin: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CHICAGO_DATA": str(data), "PYTHONIOENCODING": "utf-8",
            "LC_ALL": "C.UTF-8"}
    return subprocess.run(
        [sys.executable, "-m", "chicago.cli", *args], input=stdin, capture_output=True,
        text=True, env=env, timeout=120, check=False,
    )


def test_play_applies_every_value_of_one_set(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = _cli(["play", "--plain", "--seed", "2", "--players", "2", "--bots", "random",
                   "--set", "target=20", "max_deals=2", "--set", "stake=2",
                   "--save", str(save)], "quit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    rules = json.loads(save.read_text(encoding="utf-8"))["rules"]
    assert (rules["target"], rules["max_deals"], rules["stake"]) == (20, 2, 2)
    bad = _cli(["play", "--plain", "--set", "target=20", "oops"], "", tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip() == (
        "chicago play: --set 'oops': expected OPTION=VALUE, e.g. lock_at=42"
    )


def test_resume_refuses_the_flags_of_a_new_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    assert _cli(["play", "--plain", "--seed", "2", "--bots", "random", "--save", str(save)],
                "quit\n", tmp_path).returncode == 0
    before = save.read_text(encoding="utf-8")
    for flags, named in [
        (["--rules", "pagat"], "--rules"),
        (["--seed", "3", "--name", "Anna"], "--seed and --name"),
        (["--players", "3", "--bots", "basic", "--set", "target=20"],
         "--set, --players and --bots"),
        (["--variation", "V-ONE-UP"], "--variation"),
    ]:
        result = _cli(["play", "--plain", "--resume", str(save), *flags], "quit\n", tmp_path)
        assert result.returncode == 2, flags
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"chicago play: {named} cannot be used with --resume"), lines
    assert save.read_text(encoding="utf-8") == before
    fine = _cli(["play", "--plain", "--resume", str(save), "--no-auto"], "quit\n", tmp_path)
    assert fine.returncode == 0, fine.stderr
    empty = _cli(["play", "--plain", "--name", " "], "", tmp_path)
    assert empty.returncode == 2 and empty.stderr.strip() == "chicago play: --name needs a name"

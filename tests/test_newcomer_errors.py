"""Errors a newcomer understands (issue 29): each in one line that names the problem.

- A table size the rules do not allow is a :class:`~chicago.rules.RulesError` (R-TABLE-1),
  not a bare ``ValueError``.
- A record file that is missing, a directory, another JSON document or other text is named
  as such by ``chicago review``, ``replay`` and ``play --resume`` (not ``[Errno 2] …``, not
  blamed on the seat).
- A ``cmd:`` bot whose program cannot start stops ``chicago simulate`` before the match with
  one line and status 2 (it used to play the match, exit 0 and count every turn as a crash).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from chicago import Game, Rules
from chicago.cli import main
from chicago.record import RecordError
from chicago.rules import RulesError
from chicago.tui.storage import load_record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "src" / "chicago" / "examples" / "random_bot.py"


@pytest.mark.parametrize(("players", "option"), [(9, "max_players"), (1, "min_players"),
                                                 (5, "max_players")])
def test_a_table_size_the_rules_do_not_allow_is_a_rules_error(players: int, option: str) -> None:
    """R-TABLE-1: the players' count is checked against the rules' min_players and
    max_players, as a RulesError that names the option (and V-LARGE for five or six)."""
    with pytest.raises(RulesError, match=f"these rules allow 2-4 players, not {players}") as err:
        Game(Rules.preset("pagat"), players=players)
    assert err.value.options == (option,)
    assert Game(Rules.preset("pagat", max_players=6), players=5).players == 5


def _files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    other = tmp_path / "settings.json"
    other.write_text(json.dumps({"theme": "dark"}), encoding="utf-8")
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"format": "pgn", "players": 4}), encoding="utf-8")
    prose = tmp_path / "notes.txt"
    prose.write_text("hello\nworld\n", encoding="utf-8")
    binary = tmp_path / "picture.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    return {
        "missing": (tmp_path / "nonexist.json", f"no such file: {tmp_path / 'nonexist.json'}"),
        "directory": (tmp_path, f"{tmp_path} is a directory, not a game record"),
        "other JSON": (other, f"{other} is not a chicago game record (a JSON object without "
                              "'players' and 'actions')"),
        "foreign format": (foreign, f"{foreign} is not a chicago game record (its format is "
                                    "'pgn')"),
        "other text": (prose, f"{prose} is not a chicago game record (neither JSON nor the "
                              "text notation: line 1: expected 'SEAT: ACTION', got 'hello')"),
        "binary": (binary, f"{binary} is not a chicago game record (not UTF-8 text)"),
    }


def test_files_that_are_no_record_are_named_as_such(tmp_path: Path) -> None:
    for name, (path, message) in _files(tmp_path).items():
        with pytest.raises(RecordError) as err:
            load_record(path)
        assert str(err.value) == message, name


@pytest.mark.parametrize("command", [["review"], ["replay", "--plain"],
                                     ["play", "--plain", "--resume"]])
def test_each_command_says_what_the_file_is_in_one_line(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", open("/dev/null"))  # noqa: SIM115
    for name, (path, message) in _files(tmp_path).items():
        assert main([*command, str(path)]) == 2, name
        err = capsys.readouterr().err
        assert err == f"chicago {command[0]}: {message}\n", name
        assert "Errno" not in err and "seat" not in err


def test_a_bot_program_that_cannot_start_stops_simulate_before_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    missing = tmp_path / "nonexistent_bot.py"
    assert main(["simulate", "--bots", f"cmd:{sys.executable} {missing},basic",
                 "--games", "2", "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"chicago simulate: cmd:{sys.executable} "
                                                   f"{missing}: the bot cannot play: ")
    assert "ended with status 2 before its first answer" in err and "can't open file" in err

    assert main(["simulate", "--bots", "cmd:no-such-program-anywhere,basic", "--games", "2",
                 "--no-progress"]) == 2
    assert "cannot find the program 'no-such-program-anywhere'" in capsys.readouterr().err


def test_a_bot_program_that_never_answers_is_refused_and_a_working_one_plays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    silent = f"cmd:time_ms=50 startup_ms=200 {sys.executable} -c 'import time; time.sleep(30)'"
    assert main(["simulate", "--bots", f"{silent},basic", "--games", "2", "--no-progress"]) == 2
    err = capsys.readouterr().err
    # the short limit is the one under test, and the program's silence gives the same answer
    # at any speed; a machine too busy to write its hello in 350 ms says so instead
    assert err.count("\n") == 1 and ("the bot cannot play: no answer within 350 ms" in err
                                     or "did not read its input in time" in err), err
    # a program that answers has an hour for each decision: a busy machine loses no turn
    answers = f"cmd:time_ms=3600000 {sys.executable} {EXAMPLE}"
    assert main(["simulate", "--bots", f"{answers},basic", "--games", "2",
                 "--no-progress"]) == 0
    assert "turns lost" not in capsys.readouterr().out

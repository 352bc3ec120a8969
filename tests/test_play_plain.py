"""``chicago play --plain``: whole games scripted over stdin, bad input, EOF and resume."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from chicago import Category, Rules
from chicago.engine.events import DealEnd
from chicago.tui.plain import play_plain
from chicago.tui.session import PlaySession
from test_play_support import hidden_cards, leaked

Answer = Callable[[PlaySession, str], "str | None"]


class ScriptedStdin(io.TextIOBase):
    """A stdin whose next line comes from ``answer(session, output so far)`` (None: EOF)."""

    def __init__(self, session: PlaySession, out: io.StringIO, answer: Answer) -> None:
        self.session = session
        self.out = out
        self.answer = answer
        self.lines = 0

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        reply = self.answer(self.session, self.out.getvalue())
        return "" if reply is None else reply + "\n"

    def isatty(self) -> bool:
        return False


def first_choice(session: PlaySession, output: str) -> str:
    """Discard card 1 in exchanges, no Chicago, otherwise the last choice (announce, accept …)."""
    view = session.view()
    if view.phase in ("exchange", "play", "chicago"):
        return "1"
    return str(len(view.legal_actions))


def run_plain(session: PlaySession, answer: Answer, resumed: bool = False) -> tuple[int, str]:
    out = io.StringIO()
    stdin = ScriptedStdin(session, out, answer)
    code = play_plain(session, stdin, out, resumed=resumed)  # type: ignore[arg-type]
    return code, out.getvalue()


def new_session(tmp_path: Path, rules: Rules | None = None, players: int = 4, seed: int = 3,
                name: str = "game.json") -> PlaySession:
    return PlaySession.new(
        rules or Rules.preset("pagat"), players=players, bot_specs=["random"], seed=seed,
        save_path=tmp_path / name,
    )


def test_whole_game_by_script_reaches_settlement(tmp_path: Path) -> None:
    """R-END-1/R-END-2: a scripted human plays a whole game to the target and the settlement."""
    session = new_session(tmp_path)
    code, output = run_plain(session, first_choice)
    assert code == 0
    assert session.over
    assert "The game is over:" in output
    assert "Settlement at 1 per point:" in output
    assert "Not accepted" not in output
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["result"]["over"] is True
    assert record["tags"]["Human"] == "0"
    assert f"chicago replay {tmp_path / 'game.json'}" in output
    # plain: no colour codes, no cursor movement
    assert "\x1b" not in output


def test_plain_output_never_names_an_opponents_hidden_card(tmp_path: Path) -> None:
    """R-EX-3, R-ANN-5: the lines printed before each question name no hidden card."""
    session = new_session(tmp_path, players=3, seed=8)
    printed = 0
    problems: list[str] = []

    def answer(s: PlaySession, output: str) -> str:
        nonlocal printed
        block = output[printed:]
        printed = len(output)
        hidden = hidden_cards(s._game, s.human)
        if leaked(block, hidden):
            problems.append(f"{sorted(leaked(block, hidden))} in {block!r}")
        return first_choice(s, output)

    run_plain(session, answer)
    assert session.over
    assert problems == []


@pytest.mark.parametrize(
    ("preset", "sets"),
    [
        ("denexa", {}),
        ("wikipedia", {}),  # V-ONE-UP is on
        ("wikipedia-42", {}),
        ("pagat", {"redeal_low": "ten-and-below", "quads_reset": True}),  # V-REDEAL-LOW
    ],
)
def test_presets_play_through_two_deals(
    tmp_path: Path, preset: str, sets: dict[str, object]
) -> None:
    """Every preset (and V-REDEAL-LOW's forced "keep") plays in the line mode."""
    rules = Rules.preset(preset, max_deals=2, **sets)
    session = new_session(tmp_path, rules, players=4, seed=21)
    code, output = run_plain(session, first_choice)
    assert code == 0 and session.over
    assert "Deal 2 is over." in output


def test_one_up_by_number_in_the_line_mode(tmp_path: Path) -> None:
    """V-ONE-UP: 'one up 1' shows the card face up and asks to accept or reject."""
    session = new_session(tmp_path, Rules.preset("wikipedia", max_deals=1), seed=2)
    asked = []

    def answer(s: PlaySession, output: str) -> str:
        view = s.view()
        if view.phase == "exchange" and view.round == 1:
            return "one up 1"
        if view.phase == "one up":
            asked.append(output.splitlines()[-1])
            return "reject"
        return first_choice(s, output)

    run_plain(session, answer)
    assert asked and asked[0].startswith("Take the face-up ")
    assert "You reject " in "".join(asked) or session.over


BAD_ANSWERS = [
    ("zz", "'zz' is not a card or a card number"),
    ("9", "there is no card 9"),
    ("1 2 3 4 5 6", "there is no card 6"),
    ("1 1", "the same card is named twice"),
    ("discard 2x", "is not a card"),
    ("announce royal flush", "You cannot announce now: it is exchange 1 of 3"),
    ("play Ah", "You cannot play a card now: it is exchange 1 of 3"),
    ("", "nothing typed"),
]


@pytest.mark.parametrize(("bad", "reason"), BAD_ANSWERS)
def test_bad_input_gets_a_reason_and_the_same_question(
    tmp_path: Path, bad: str, reason: str
) -> None:
    """Bad input changes nothing: a one-line reason, then the same question again."""
    session = new_session(tmp_path, seed=5)
    answers = iter([bad, None])
    code, output = run_plain(session, lambda s, o: next(answers))
    assert code == 0
    lines = output.splitlines()
    refused = [i for i, line in enumerate(lines) if line.startswith("Not accepted")]
    assert len(refused) == 1, output
    assert reason in lines[refused[0]]
    question = lines[refused[0] - 1]
    assert question.startswith("Exchange 1:")
    assert lines[refused[0] + 1] == question
    record = json.loads((tmp_path / "game.json").read_text())
    human_actions = [a for a in record["actions"] if a[0] == 0]
    assert human_actions == []


def test_illegal_play_and_false_announcement_are_refused(tmp_path: Path) -> None:
    """R-TRICK-2 and R-ANN-2: not following suit, or announcing what the hand is not, is refused."""
    session = new_session(tmp_path, Rules.preset("pagat", max_deals=2), seed=1)
    refused: list[str] = []
    tried: set[str] = set()

    def answer(s: PlaySession, output: str) -> str:
        view = s.view()
        hand = [str(c) for c in view.hand]
        legal = [str(a) for a in view.legal_actions]
        if view.phase == "play" and "play" not in tried:
            bad = [c for c in hand if f"play {c}" not in legal]
            if bad:
                tried.add("play")
                return bad[0]
        if view.phase == "announce" and "announce" not in tried:
            tried.add("announce")
            four = view.hand_category is Category.FOUR_OF_A_KIND
            return "announce pair" if four else "announce four of a kind"
        return first_choice(s, output)

    _, output = run_plain(session, answer)
    refused = [line for line in output.splitlines() if line.startswith("Not accepted")]
    assert any("announce exactly what you hold" in line for line in refused)
    assert "play" in tried
    assert any("You must follow suit" in line for line in refused)


def test_help_hint_and_look_answer_without_acting(tmp_path: Path) -> None:
    """help prints the preset's rules as plain text (no Markdown marks) and the commands,
    hint the exact odds, look the table; none acts."""
    session = new_session(tmp_path, seed=5)
    answers = iter(["help", "hint", "look", None])
    _, output = run_plain(session, lambda s, o: next(answers))
    lines = output.splitlines()
    title = lines.index("Rules: pagat")
    assert lines[title + 1] == "=" * len("Rules: pagat")
    assert "Chicago. After the last exchange a player with at least 15 points" in output
    assert "- lock_at = 46 — " in output
    assert "Commands" in lines and any(line.startswith("- scores, ") for line in lines)
    for mark in ("**", "`", "# ", "## "):
        assert not any(mark in line for line in lines), mark
    assert "Draw odds for " in output and "Best holds first" in output
    assert output.count("Your hand: ") >= 2
    assert json.loads((tmp_path / "game.json").read_text())["actions"] == [
        a for a in session.record()["actions"]
    ]


def test_eof_saves_and_resume_continues_the_same_game(tmp_path: Path) -> None:
    """End of input saves; --resume goes on exactly as an uninterrupted game (seeded bots)."""
    rules = Rules.preset("pagat", target=30)
    whole = new_session(tmp_path, rules, seed=9, name="whole.json")
    run_plain(whole, first_choice)
    expected = whole.record()

    part = new_session(tmp_path, rules, seed=9, name="part.json")
    count = 0

    def until_eof(s: PlaySession, output: str) -> str | None:
        nonlocal count
        count += 1
        return None if count > 25 else first_choice(s, output)

    code, output = run_plain(part, until_eof)
    assert code == 0 and not part.over
    assert f"the game is saved in {tmp_path / 'part.json'}" in output
    assert f"chicago play --resume {tmp_path / 'part.json'}" in output

    resumed = PlaySession.resume(tmp_path / "part.json")
    code, output = run_plain(resumed, first_choice, resumed=True)
    assert code == 0 and resumed.over
    assert output.startswith("Chicago, rules pagat")
    assert resumed.rules == rules
    assert "Resumed." in output
    final = json.loads((tmp_path / "part.json").read_text())
    assert final["actions"] == expected["actions"]
    assert final["result"] == expected["result"]


def test_quit_saves_and_stops(tmp_path: Path) -> None:
    session = new_session(tmp_path, seed=5)
    answers = iter(["1", "quit"])
    code, output = run_plain(session, lambda s, o: next(answers))
    assert code == 0
    assert "Stopped: the game is saved in" in output
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["result"]["over"] is False
    assert [0, "discard 2c"] in record["actions"] or any(a[0] == 0 for a in record["actions"])


def test_text_notation_save_and_resume(tmp_path: Path) -> None:
    """A game saved in the text notation (.txt) resumes like a JSON one."""
    session = new_session(tmp_path, Rules.preset("pagat", max_deals=2), seed=4, name="game.txt")
    answers = iter(["1", "1", None])
    run_plain(session, lambda s, o: next(answers))
    text = (tmp_path / "game.txt").read_text()
    assert text.startswith('[Event "chicago play"]')
    assert '[Human "0"]' in text and '[Seed "4"]' in text
    resumed = PlaySession.resume(tmp_path / "game.txt")
    assert resumed.text_format
    assert resumed.record()["actions"] == session.record()["actions"]
    assert resumed.names == session.names
    code, _ = run_plain(resumed, first_choice, resumed=True)
    assert code == 0 and resumed.over


def _cli(args: list[str], stdin: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CHICAGO_DATA": str(data), "PYTHONIOENCODING": "utf-8",
            "LC_ALL": "C.UTF-8"}
    return subprocess.run(
        [sys.executable, "-m", "chicago.cli", *args], input=stdin, capture_output=True,
        text=True, env=env, timeout=120, check=False,
    )


def test_cli_plain_game_over_a_pipe_then_replay(tmp_path: Path) -> None:
    """`chicago play --plain` over a pipe plays to the end; the saved file replays."""
    result = _cli(
        ["play", "--plain", "--seed", "1", "--players", "2", "--bots", "random",
         "--set", "target=12"],
        "1\n" * 2000, tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "The game is over:" in result.stdout
    saved = list((tmp_path / "games").glob("*.json"))
    assert len(saved) == 1
    replay = _cli(["replay", str(saved[0]), "--plain"], "", tmp_path)
    assert replay.returncode == 0, replay.stderr
    assert "Replay of a finished game" in replay.stdout
    assert "The game is over:" in replay.stdout


def test_cli_reports_bad_options_in_one_line(tmp_path: Path) -> None:
    for args, message in [
        (["play", "--plain", "--bots", "nosuchbot"], "unknown bot"),
        (["play", "--plain", "--rules", "nosuch"], "unknown preset"),
        (["play", "--plain", "--players", "9"], "players"),
        (["play", "--plain", "--resume", str(tmp_path / "missing.json")], "missing.json"),
        (["play", "--plain", "--resume"], "no unfinished game"),
    ]:
        result = _cli(args, "", tmp_path)
        assert result.returncode == 2, args
        assert message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1


def test_scores_prints_the_score_sheet_of_every_finished_deal(tmp_path: Path) -> None:
    """``scores`` (and ``poäng``): a line per finished deal with its dealer, each seat's
    points with what scored them, and the totals; it does not act."""
    session = new_session(tmp_path, Rules.preset("pagat", max_deals=3), seed=8)
    asked: list[int] = []

    def answer(s: PlaySession, output: str) -> str | None:
        deals = sum(1 for e in s.history() if isinstance(e, DealEnd))
        if deals == 2 and not asked:
            asked.append(len(output))
            return "scores"
        if asked and len(asked) == 1:
            asked.append(len(output))
            return None
        return first_choice(s, output)

    _, output = run_plain(session, answer)
    sheet = output[asked[0]:asked[1]].splitlines()
    ends = [e for e in session.history() if isinstance(e, DealEnd)]
    assert sheet[0] == "Score sheet, 2 deals:"
    for line, end in zip(sheet[1:3], ends, strict=True):
        assert line.startswith(f"Deal {end.deal} · ")
        totals = tuple(int(n) for n in re.findall(r"= (-?\d+)", line))
        assert totals == end.scores, line
    assert sheet[3] == "Total: " + ", ".join(
        f"{name} {score}" for name, score in zip(session.names, ends[-1].scores,
                                                 strict=True)) + "."
    assert "last trick +5" in output[asked[0]:asked[1]]


def test_refusals_speak_to_the_player_not_of_seats(tmp_path: Path) -> None:
    """An illegal answer is refused in player words: what cannot be done now, why, and what
    may be done instead; never the engine's "seat 0 may discard or one up"."""
    session = new_session(tmp_path, Rules.preset("wikipedia"), seed=5)
    answers = iter(["announce straight flush", "play 2c", None])
    _, output = run_plain(session, lambda s, o: next(answers))
    refused = [line for line in output.splitlines() if line.startswith("Not accepted")]
    assert refused[0] == ("Not accepted. You cannot announce now: it is exchange 1 of 2, and "
                          "you may exchange cards or ask for one up.")
    assert refused[1].startswith("Not accepted. You cannot play a card now: it is exchange")
    assert "seat 0 may" not in output and "discard or one up" not in output


def test_the_line_mode_in_swedish(tmp_path: Path) -> None:
    """--lang sv: every line in the browser app's Swedish words, help as plain text, menus,
    refusals and the commands in Swedish too."""
    session = new_session(tmp_path, Rules.preset("pagat", max_deals=1), seed=5)
    out = io.StringIO()
    replies = iter(["hjälp", "säg par", "poäng", "tips"])

    def answer(s: PlaySession, output: str) -> str | None:
        reply = next(replies, None)
        return reply if reply is not None else first_choice(s, output)

    stdin = ScriptedStdin(session, out, answer)
    assert play_plain(session, stdin, out, lang="sv") == 0  # type: ignore[arg-type]
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0].startswith("Chicago, regler pagat, 4 spelare")
    assert "Regler: pagat med ändringar" in lines and "**" not in text and "`" not in text
    assert "Kommandon" in lines
    assert ("Går inte. Du kan inte säga vad du har nu: det är byte 1 av 3, och du får byta "
            "kort.") in lines
    assert "Ingen giv är slut ännu." in lines
    assert any(line.startswith("Dragchanser för ") for line in lines)
    assert any(line.startswith("Byte 1: vilka kort slänger du?") for line in lines)
    assert any(re.search(r" Val: 1\) Spela \w\w, 2\) Spela", line) for line in lines)
    assert "förväntat 0,66 poäng; kåk 0,1%" in text  # Swedish decimal commas
    assert "Partiet är slut:" in text and "Avräkning med 1 per poäng:" in text
    # every line, the option list of the help too (its option names and values are code)
    options = [line for line in lines if re.match(r"- \w+ = .* — ", line)]
    assert len(options) == len(dataclasses.fields(Rules))
    said = "\n".join(re.sub(r"^- \w+ = .* — ", "- ", line) for line in lines)
    assert "R-EX-5 / V-LOCK-42 / V-LOCK-45: den som har minst så många poäng" in said
    for english in ("You ", "Scores", "Deal ", "Not accepted", "exchange", "Choices"):
        assert english not in said, english


@pytest.mark.parametrize(("args", "env", "first"), [
    (["--lang", "sv"], {}, "Chicago, regler pagat"),
    ([], {"LANG": "sv_SE.UTF-8"}, "Chicago, regler pagat"),
    ([], {"LC_ALL": "C", "LANG": "sv_SE.UTF-8"}, "Chicago, rules pagat"),
    (["--lang", "en"], {"LANG": "sv_SE.UTF-8"}, "Chicago, rules pagat"),
])
def test_cli_language_from_the_flag_or_the_locale(
    tmp_path: Path, args: list[str], env: dict[str, str], first: str
) -> None:
    """``chicago play --lang sv|en``; without it the locale decides (LC_ALL, LC_MESSAGES,
    LANG)."""
    base = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    result = subprocess.run(
        [sys.executable, "-m", "chicago.cli", "play", "--plain", "--seed", "1", "--no-save",
         *args], input="quit\n", capture_output=True, text=True, timeout=120, check=False,
        env={**base, **env, "CHICAGO_DATA": str(tmp_path), "PYTHONIOENCODING": "utf-8"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(first), result.stdout[:200]
    bad = subprocess.run(
        [sys.executable, "-m", "chicago.cli", "play", "--plain", "--lang", "fi"],
        capture_output=True, text=True, timeout=60, check=False,
        env={**base, "CHICAGO_DATA": str(tmp_path)},
    )
    assert bad.returncode == 2 and "--lang" in bad.stderr

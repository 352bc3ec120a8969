"""``chicago review`` and ``chicago replay --review`` (issue 17): what a user gets."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

import jsonschema
import pytest

from chicago import cli
from chicago.review import (
    Alternative,
    DecisionReview,
    Grade,
    Parts,
    Review,
    ReviewSet,
    json_schema,
    review_game,
)
from chicago.review.grades import BEST_MAX, BLUNDER_MIN, GOOD_MAX, INACCURACY_MAX
from chicago.tui.replay_app import ReplayApp
from chicago.tui.replayer import Replayer
from chicago.tui.review_words import choice_words, decision_note, phase_label
from chicago.tui.words import Words, symbol_card
from review_helpers import small_game_file
from test_play_support import screen_text

LEVEL = "expert:samples=4,exchange=4,holds=2"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "REVIEW.md"


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished three-player game of two deals, saved as ``chicago play`` saves one."""
    return small_game_file(tmp_path_factory.mktemp("review"))


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(["review", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_json_of_one_seat_and_of_all(game_file, capsys):
    status, out, err = _run(capsys, str(game_file), "--seat", "0", "--json", "--level", LEVEL)
    assert status == 0 and err == ""  # no progress bar off a terminal
    data = json.loads(out)
    jsonschema.validate(data, json_schema())
    review = Review.from_json(data)
    assert (review.seat, review.name, review.level) == (0, "Ada", LEVEL)
    status, out, _ = _run(capsys, str(game_file), "--all", "--json", "--level", LEVEL)
    both = ReviewSet.from_json(json.loads(out))
    assert [r.seat for r in both.reviews] == [0, 1, 2]
    assert both.reviews[0] == review


def test_jobs_give_identical_output(game_file, capsys):
    outputs = []
    for jobs in ("1", "2"):
        status, out, _ = _run(capsys, str(game_file), "--all", "--json", "--level", LEVEL,
                              "--jobs", jobs)
        assert status == 0
        outputs.append(out)
    assert outputs[0] == outputs[1]


def test_the_table(game_file, capsys, monkeypatch):
    """Without --seat the seat of the player who saved the game; 80 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _ = _run(capsys, str(game_file), "--level", LEVEL)
    assert status == 0
    assert "Review of you (seat 1)" in out
    for words in ("Accuracy", "Points lost by phase", "Every decision", "exch 1", "trick 4"):
        assert words in out
    assert max(len(line) for line in out.splitlines()) <= 80
    status, brief, _ = _run(capsys, str(game_file), "--level", LEVEL, "--brief")
    assert status == 0 and "Every decision" not in brief


def test_hindsight_is_labelled(game_file, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _ = _run(capsys, str(game_file), "--seat", "2", "--level", LEVEL,
                          "--hindsight")
    assert status == 0 and "with all cards known" in out and "never part of the grade" in out
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "7"], "seat must be 0-2"),
        (["--level", "wizard"], "unknown review level"),
        (["--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(game_file, capsys, args, message):
    status, out, err = _run(capsys, str(game_file), *args)
    assert status == 2 and out == ""
    assert err.startswith("chicago review: ") and message in err and err.count("\n") == 1


def test_bad_files_exit_2(tmp_path, capsys):
    status, _, err = _run(capsys, str(tmp_path / "missing.json"), "--seat", "0")
    assert status == 2 and "missing.json" in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": 3, "seed": 1, "actions": [[0, "play Ah"]]}')
    status, _, err = _run(capsys, str(bad), "--seat", "0")
    assert status == 2 and "action 1" in err


def test_whose_game_must_be_said(game_file, tmp_path, capsys):
    record = json.loads(game_file.read_text())
    del record["tags"]
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(record))
    status, _, err = _run(capsys, str(plain), "--level", LEVEL)
    assert status == 2 and "--seat N or --all" in err


def test_an_unfinished_game_and_hindsight(game_file, tmp_path, capsys):
    record = json.loads(game_file.read_text())
    record["actions"] = record["actions"][:40]
    record["result"] = None
    part = tmp_path / "part.json"
    part.write_text(json.dumps(record))
    status, _, err = _run(capsys, str(part), "--level", LEVEL, "--hindsight")
    assert status == 2 and "finished game" in err
    status, out, err = _run(capsys, str(part), "--level", LEVEL, "--brief")
    assert status == 0 and "not finished" in out and err == ""
    status, _, err = _run(capsys, str(part), "--seat", "0", "--level", LEVEL, "--brief")
    assert status == 0 and "cards that player did not see" in err


def test_the_core_alone_reviews(game_file, capsys, monkeypatch):
    """``chicago review`` is a command of the core: no Rich, no Textual (chicago.extras)."""
    for name in [m for m in sys.modules if m.split(".")[0] in ("rich", "textual")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "rich", None)
    monkeypatch.setitem(sys.modules, "textual", None)
    status, out, err = _run(capsys, str(game_file), "--seat", "0", "--level", LEVEL)
    assert status == 0 and "Accuracy" in out and err == ""


def test_replay_shows_each_grade_beside_its_decision(game_file, capsys):
    status = cli.main(["replay", str(game_file), "--seat", "1", "--plain", "--review",
                       "--level", LEVEL])
    out = capsys.readouterr().out
    assert status == 0
    lines = out.splitlines()
    notes = [i for i, line in enumerate(lines) if line.startswith("  [review: ")]
    assert len(notes) > 10
    # each note ends the lines of the step it grades: the seat's own action is among them
    assert all(any(line.startswith(("You ", "(You")) for line in lines[i - 3 : i])
               for i in notes)
    assert any(re.search(r"review: (good|inaccuracy|mistake|blunder), -\d", lines[i])
               for i in notes)


@pytest.mark.parametrize(("lang", "note"), [("en", "review: best (exchange 1)"),
                                            ("sv", "analys: bäst (byte 1)")])
def test_the_full_screen_replay_shows_the_grade_of_the_step(game_file, lang, note):
    record = json.loads(game_file.read_text())
    review = review_game(record, 1, level=LEVEL)
    decision = review.decisions[0]
    assert decision.grade is Grade.BEST and decision.phase == "exchange"
    replayer = Replayer(record, seat=1)

    async def main() -> None:
        app = ReplayApp(replayer, start=decision.step, reviews={decision.step: decision},
                        lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert note in screen_text(app)
            await pilot.press("right")
            await pilot.pause()
            assert note.split(":")[0] + ":" not in screen_text(app)
            await pilot.press("q")

    asyncio.run(main())


def test_the_grade_thresholds_are_those_of_the_docs():
    text = DOCS.read_text(encoding="utf-8")
    for number in (BEST_MAX, GOOD_MAX, INACCURACY_MAX, BLUNDER_MIN):
        assert f" {number:g} " in text or f" {number:g}\n" in text or f"{number:g} or" in text
    assert "exp(−loss / 1.5)" in text


def test_the_progress_line_on_a_terminal(monkeypatch):
    import io

    from chicago.commands.review import progress_bar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with progress_bar(True) as progress:
        assert progress is not None
        progress(0, 12)
        progress(12, 12)
    assert "decisions" in err.getvalue() and "12/12" in err.getvalue()
    assert err.getvalue().endswith("\r\x1b[2K")  # erased at the end
    with progress_bar(False) as progress:
        assert progress is None


ENGLISH_WORDS = ("Review", "Accuracy", "decisions", "Points lost", "Every decision",
                 "Biggest", "exch", "trick", "score ", " best", "good", "keep", "play ",
                 "better", "step", "deal", "lost", "seat", "points", "phase")


def test_the_review_in_swedish(game_file, capsys, monkeypatch):
    """--lang sv: every word of the tables in Swedish (the browser's Analys words for grades,
    phases and choices), decimal commas, at 80 columns; the JSON is the same in any
    language."""
    monkeypatch.setenv("COLUMNS", "80")
    status, out, err = _run(capsys, str(game_file), "--level", LEVEL, "--lang", "sv",
                            "--hindsight")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Analys av dig (plats 1): pagat, 3 spelare, slumptal 21, "
                               "2 givar; nivå")
    assert re.search(r"^Precision \d+,\d · \d+ beslut · \d+,\d\d förväntade poäng förlorade "
                     r"\(\d+,\d\d per giv\)\.$", out, re.MULTILINE)
    assert re.search(r"^skede +beslut +förlorat +bäst +bra +inexakthet +misstag +blunder$",
                     out, re.MULTILINE)
    for words in ("Förlorade poäng per skede", "Förlorade poäng per giv: 1: ", "Alla beslut",
                  "byte 1", "stick 4", "behåll ", "spela ", "poängrundor", "alla ",
                  "kända: poängen valet förlorade med alla kort kända"):
        assert words in out, words
    assert "Största missarna:" in out or "Inga missar värda att nämna." in out
    said = out.replace("\n", " ").replace(LEVEL, "LEVEL")  # the level is a spec, not words
    for english in ENGLISH_WORDS:
        assert english not in said, english
    assert max(len(line) for line in lines) <= 80
    # the JSON: the same in both languages but for each decision's reason (issue 25)
    _, english_json, _ = _run(capsys, str(game_file), "--level", LEVEL, "--json")
    _, swedish_json, _ = _run(capsys, str(game_file), "--level", LEVEL, "--json",
                              "--lang", "sv")
    english, swedish = json.loads(english_json), json.loads(swedish_json)
    for data in (english, swedish):
        for d in data["decisions"]:
            assert d.pop("reason")
    assert english == swedish


def test_the_review_language_follows_the_locale(game_file, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    status, out, _ = _run(capsys, str(game_file), "--level", LEVEL, "--brief")
    assert status == 0 and out.startswith("Analys av dig")
    status, out, _ = _run(capsys, str(game_file), "--level", LEVEL, "--brief", "--lang", "en")
    assert status == 0 and out.startswith("Review of you")


def test_the_replay_review_in_swedish(game_file, capsys):
    status = cli.main(["replay", str(game_file), "--seat", "1", "--plain", "--review",
                       "--level", LEVEL, "--lang", "sv"])
    out = capsys.readouterr().out
    assert status == 0
    notes = [line for line in out.splitlines() if line.startswith("  [")]
    assert len(notes) > 10 and all(n.startswith("  [analys: ") for n in notes)
    assert any(re.fullmatch(r"  \[analys: bäst \((byte|poängrunda|stick) \d\)\]", n)
               for n in notes)
    assert any(re.search(r"analys: (bra|inexakthet|misstag|blunder), -\d+,\d\d poäng; "
                         r"bättre: \w", n) for n in notes)


def _decision(phase: str, action: str, best: str, actions: list[tuple[str, tuple[str, ...] |
              None]], grade: Grade = Grade.MISTAKE) -> DecisionReview:
    return DecisionReview(
        step=7, deal=1, phase=phase, round=2, hand=("Ah", "Kh", "Th", "4c", "2d"),
        action=action, best=best, loss=1.8 if grade is not Grade.BEST else 0.0, grade=grade,
        alternatives=tuple(Alternative(a, 1.0, Parts(), keep) for a, keep in actions),
    )


@pytest.mark.parametrize(("phase", "action", "keep", "en", "sv"), [
    ("exchange", "discard 4c 2d", ("Ah", "Kh", "Th"), "keep A♥ K♥ 10♥", "behåll A♥ K♥ 10♥"),
    ("exchange", "keep", ("Ah", "Kh", "Th", "4c", "2d"), "keep all", "behåll alla"),
    ("exchange", "discard Ah Kh Th 4c 2d", (), "draw five", "byt alla fem"),
    ("one up", "one up 2d", None, "one up 2♦", "släng 2♦ och be om öppet kort"),
    ("one up", "accept", None, "take the card", "ta kortet"),
    ("redeal", "redeal", None, "redeal", "nya kort"),
    ("announce", "announce two pair", None, "announce two pair", "säg två par"),
    ("announce", "pass", None, "pass", "passa"),
    ("chicago", "chicago", None, "Chicago", "säg Chicago"),
    ("chicago", "no chicago", None, "no Chicago", "ingen Chicago"),
    ("play", "play Th", None, "play 10♥", "spela 10♥"),
    ("quads choice", "reset", None, "reset the others", "nollställ de andra"),
    ("quads choice", "reset 2", None, "reset seat 3 to zero", "nollställ plats 3"),  # V-QUADS-ONE
])
def test_choices_in_the_browsers_words(phase, action, keep, en, sv):
    """The review's choices say what the browser's review view says (choice.* of
    web/static/lang/*.json), in either language."""
    decision = _decision(phase, action, action, [(action, keep)])
    for code, expected in (("en", en), ("sv", sv)):
        assert choice_words(decision, action, Words([], card=symbol_card, lang=code)) == expected


def test_the_note_and_the_phase_in_both_languages():
    decision = _decision("exchange", "discard 4c 2d", "discard Th 4c 2d",
                         [("discard Th 4c 2d", ("Ah", "Kh")), ("discard 4c 2d",
                                                               ("Ah", "Kh", "Th"))])
    assert decision_note(decision) == "review: mistake, -1.80 points; better: keep Ah Kh"
    assert decision_note(decision, Words([], lang="sv")) == (
        "analys: misstag, -1,80 poäng; bättre: behåll Ah Kh")
    best = _decision("play", "play Ah", "play Ah", [("play Ah", None)], Grade.BEST)
    assert decision_note(best) == "review: best (trick 2)"
    assert decision_note(best, Words([], lang="sv")) == "analys: bäst (stick 2)"
    assert phase_label(decision, short=True) == "exch 2"
    assert phase_label(decision, Words([], lang="sv"), short=True) == "byte 2"

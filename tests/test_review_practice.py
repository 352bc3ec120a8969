"""Practise on your own mistakes (issue 25): exercises from a review, graded exactly as the
review grades each choice, shown only as the seat saw them; ``chicago train``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from chicago import cli
from chicago.review import Grade, Review, review_game
from chicago.review.practice import Exercise, answer, exercises_of
from chicago.tui.lang import SWEDISH
from chicago.tui.words import Words, symbol_card
from review_helpers import small_game_file

LEVEL = "expert:samples=4,exchange=4,holds=2"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Review, list[Exercise]]:
    path = small_game_file(tmp_path_factory.mktemp("practice"))
    record = json.loads(path.read_text())
    review = review_game(record, 1, level=LEVEL)
    return record, review, exercises_of(record, review)


def test_every_costly_decision_is_an_exercise_graded_as_the_review(game):
    _, review, found = game
    costly = [d for d in review.decisions
              if d.grade in (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)]
    assert found and [e.step for e in found] == [d.step for d in costly]
    for exercise in found:
        decision = review.decision(exercise.step)
        done = answer(exercise, exercise.played)
        assert (done.grade, done.loss) == (decision.grade, decision.loss)
        assert answer(exercise, exercise.best).grade is Grade.BEST
        for choice in exercise.choices:  # every choice exactly as the review listed it
            alt = decision.alternative(choice.action)
            assert choice.value == alt.value
            assert answer(exercise, choice.action).loss == round(decision.alternatives[0].value
                                                                 - alt.value, 4)
        assert {c.action for c in exercise.choices} == {a.action for a in decision.alternatives}


def test_an_answer_not_offered_is_refused(game):
    _, _, found = game
    with pytest.raises(ValueError, match="not one of the choices"):
        answer(found[0], "play Zz")
    with pytest.raises(ValueError, match="not one of the choices"):
        answer(found[0], "reset 9")


def test_exercises_read_back_and_hide_the_values_until_answered(game):
    _, _, found = game
    for exercise in found:
        assert Exercise.from_json(json.loads(json.dumps(exercise.to_json()))) == exercise
        question = exercise.question()
        text = json.dumps(question)
        assert "value" not in text and "loss" not in text and "grade" not in text
        assert "played" not in question and "best" not in question


def test_an_exercise_shows_only_what_the_seat_saw(game):
    """No card of another hand: every card an exercise names is the seat's own, on the
    table in the trick under way, or among its choices (its own cards again)."""
    _, _, found = game
    for exercise in found:
        seen = set(exercise.hand) | {p.card for p in exercise.trick}
        named = set(re.findall(r"\b[2-9TJQKA][cdhs]\b", json.dumps(exercise.to_json())))
        assert named <= seen, named - seen


def test_chicago_train_runs_a_scored_practice(tmp_path: Path, capsys, monkeypatch):
    path = small_game_file(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 50))
    assert cli.main(["train", str(path), "--level", "ev:samples=2", "--no-progress",
                     "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "from your own mistakes" in out and "Your hand:" in out
    assert re.search(r"\d+ of \d+ answers the best \(\d+ exercises\), [\d.]+ points lost, "
                     r"accuracy [\d.]+\.", out), out[-400:]


def test_chicago_train_in_swedish_stops_at_q(tmp_path: Path, capsys, monkeypatch):
    path = small_game_file(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("9\nq\n"))
    assert cli.main(["train", str(path), "--level", "ev:samples=2", "--no-progress",
                     "--lang", "sv"]) == 0
    out = capsys.readouterr().out
    assert "Din hand:" in out and "Svara med en siffra från 1 till" in out
    assert "0 av 0 svar bäst" in out


def test_chicago_train_refuses_a_bad_file(tmp_path: Path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert cli.main(["train", str(bad), "--no-progress"]) == 2
    assert "chicago train:" in capsys.readouterr().err


def test_the_words_of_an_exercise_in_both_languages(game):
    from chicago.tui.review_words import answer_lines, exercise_lines

    _, _, found = game
    exercise = found[0]
    for words in (Words([], card=symbol_card), Words([], card=symbol_card, lang=SWEDISH)):
        lines = exercise_lines(exercise, 1, len(found), words)
        said = answer_lines(exercise, answer(exercise, exercise.played), words)
        for line in lines + said:
            assert "{" not in line and "practice." not in line and "tui." not in line

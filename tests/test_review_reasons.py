"""Why, in words (issue 25): every graded decision names the fact that decides it, in English
and Swedish, in ``chicago review``, its JSON (``reason``) and the catalogue the browser uses.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chicago import Game, cli
from chicago.review import Grade, Review, review_game
from chicago.tui.lang import ENGLISH, SWEDISH, catalogue
from chicago.tui.review_words import accuracy_scale, reason_text, with_reasons
from chicago.tui.words import Words, symbol_card
from engine_helpers import stack
from review_helpers import one_deal, play_out, small_game_file

LEVEL = "ev:samples=6"
EN = Words([], card=symbol_card)
SV = Words([], card=symbol_card, lang=SWEDISH)


def _first(review: Review, phase: str):
    return next(d for d in review.decisions if d.phase == phase)


@pytest.fixture(scope="module")
def small_review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    path = small_game_file(tmp_path_factory.mktemp("reasons"))
    record = json.loads(path.read_text())
    return review_game(record, 1, level="expert:samples=4,exchange=4,holds=2")


def test_every_decision_has_a_reason_in_both_languages(small_review):
    """Every graded decision carries a reason, said in full in English and in Swedish
    (no placeholder left, no catalogue key shown, the Swedish not the English)."""
    assert small_review.decisions
    for d in small_review.decisions:
        assert d.why is not None
        english, swedish = reason_text(d, EN), reason_text(d, SV)
        for text in (english, swedish):
            assert text and "{" not in text and "why." not in text, text
        assert english != swedish


def test_every_reason_sentence_is_in_both_catalogues():
    """The sentences live in the one catalogue (web/static/lang/*.json), with the same
    placeholders in both languages, and none is left untranslated."""
    en, sv = catalogue("en"), catalogue("sv")
    keys = [k for k in en if k.startswith("why.")] + ["review.scale"]
    assert len(keys) >= 20
    for key in keys:
        assert key in sv, key
        assert sv[key] != en[key], key
        assert set(re.findall(r"\{(\w+)\}", sv[key])) == set(
            re.findall(r"\{(\w+)\}", en[key])), key


def test_a_made_flush_thrown_away_names_the_odds():
    """R-EX-1: the reason of a broken flush names the sure flush against the odds of the
    draw."""
    deck = stack(4, 3, {0: "Kh Qh 9h 5h 2h"})
    game = one_deal(4, deck, dealer=3)
    done: list[int] = []

    def script(g: Game, seat: int) -> str | None:
        if g.view(seat).phase == "exchange" and not done:
            done.append(1)
            return "discard 2h 5h 9h"
        return None

    review = review_game(play_out(game, 0, script), 0, level=LEVEL)
    first = review.decisions[0]
    assert first.grade is Grade.BLUNDER and first.why is not None
    assert first.why.key == "hold" and first.why.best_category == "FLUSH"
    assert first.why.best_chance == 1.0
    text = reason_text(first, EN)
    assert text.startswith("Keeping 2♥ 5♥ 9♥ Q♥ K♥ makes a flush or better 100% of the time")
    assert "Att behålla 2♥ 5♥ 9♥ Q♥ K♥ ger en färg eller bättre 100 %" in reason_text(first, SV)


def test_a_sure_chicago_declined_names_its_chance_and_its_price():
    """R-CHI-1/3: four aces and the king of spades: the reason says the Chicago is made
    every time, what it brings and what failing would cost: the seat scored its four aces
    in both scoring rounds (14), and a loss is cut at zero (R-CHI-5)."""
    deck = stack(4, 3, {0: "As Ks Ah Ad Ac"})
    game = one_deal(4, deck, dealer=3, chicago_min_score=None)
    record = play_out(game, 0, lambda g, s: {"exchange": "keep", "chicago": "no chicago"}
                      .get(g.view(s).phase))
    call = _first(review_game(record, 0, level=LEVEL), "chicago")
    assert call.why is not None and call.why.key == "chicago"
    assert reason_text(call, EN) == (
        "A Chicago is made 100% of the time: 15.0 points if made, -14.0 if it fails; "
        "without one you play for the last trick and the showdown.")


def test_the_card_that_wins_the_last_trick_is_named(small_review):
    """R-TRICK-4: a card that lost points names the better card and the chance of each to
    win the last trick (or to keep or break a Chicago), as the values found them."""
    plays = [d for d in small_review.decisions if d.phase == "play" and d.why is not None
             and d.why.key in ("trick", "trick.best")]
    assert plays
    for d in plays:
        assert d.why is not None
        best = d.alternative(d.best)
        assert d.why.best_chance == best.parts.chance
        card = d.best.split()[1]
        text = reason_text(d, EN)
        assert text.startswith(symbol_card(card) + " wins the last trick "
                               f"{round(100 * (best.parts.chance or 0))}% of the time"), text


def test_the_score_situation_is_named_near_the_target():
    """At 48 of 52 the last trick wins the game: the reason says so."""
    from chicago.review.model import Reason

    deck = stack(2, 1, {0: "Ac 2d 3d 4d 5d"})
    game = one_deal(2, deck, dealer=1)
    record = play_out(game, 0, lambda g, s: None)
    review = review_game(record, 0, level=LEVEL)
    d = review.decisions[0]
    why = Reason(key="equal", best=d.best, done=d.action, score=48, target=52)
    import dataclasses

    text = reason_text(dataclasses.replace(d, why=why), EN)
    assert text.endswith("At 48 of 52 points, points that reach 52 ahead of the others win "
                         "the game.")


def test_the_accuracy_scale_in_both_languages():
    assert "expert bot plays about 98" in accuracy_scale(EN)
    assert "expertboten spelar ungefär 98" in accuracy_scale(SV)


def test_json_reasons_follow_the_language(tmp_path: Path, capsys):
    """``chicago review --json --lang sv``: each decision's ``reason`` in Swedish; the
    tables show the reasons of the biggest mistakes and the accuracy's scale."""
    path = small_game_file(tmp_path)
    level = "expert:samples=4,exchange=4,holds=2"
    assert cli.main(["review", str(path), "--seat", "1", "--json", "--level", level,
                     "--lang", "sv", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    reasons = [d["reason"] for d in data["decisions"]]
    assert reasons and all(isinstance(r, str) and r for r in reasons)
    assert any("gångerna" in r or "värt" in r or "lika mycket" in r for r in reasons)
    review = Review.from_json(data)
    assert with_reasons(review, SV) == review
    assert cli.main(["review", str(path), "--seat", "1", "--level", level, "--brief",
                     "--no-progress", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "On this scale 100 is every decision the best" in out
    assert ENGLISH.t("review.scale", expert=1, basic=2, random=3) != SWEDISH.t(
        "review.scale", expert=1, basic=2, random=3)

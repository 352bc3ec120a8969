"""The Practise page in chromium (issue 25): a practice run on a phone in Swedish (390x844):
the exercise of the day from a reviewed bot game, shown as its seat saw it, a choice graded
as the review grades it with the reason, then the run's score; nothing wider than the
screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .driver import api
from .review_support import finished_bot_game, reviewed
from .serving import LiveServer


def test_a_practice_run_on_a_phone_in_swedish(browser: Any, live: LiveServer,
                                              artifacts: Path) -> None:
    table = finished_bot_game(live, ["bot:random", "bot:random"], 2)
    reviewed(live, table, 0)
    daily = api(live, "GET", "api/practice/daily")["exercise"]
    assert daily is not None and daily["ref"].startswith(f"{table}/1/0/")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE",
                                  has_touch=True)
    page = context.new_page()
    page.goto(f"{live.url}#/practice")
    root = page.locator("[data-testid=practice]")
    expect(root.locator("h1")).to_have_text("Öva")
    expect(root).to_contain_text("Logga in med en profil")  # no profile in this browser
    start = root.locator("[data-action=practice-daily]")
    expect(start).to_be_enabled()
    start.tap()
    exercise = root.locator("[data-testid=exercise]")
    expect(exercise).to_have_attribute("data-step", str(daily["step"]))
    expect(exercise.locator("h2")).to_contain_text("Övning 1 av 1")
    expect(exercise).to_contain_text("Poäng:")
    choices = exercise.locator(".practice-choices button")
    expect(choices).to_have_count(len(daily["choices"]))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "practice-phone-sv.png"), full_page=True)
    choices.first.tap()
    verdict = root.locator("[data-testid=practice-verdict]")
    expect(verdict).to_be_visible()
    graded = api(live, "POST", "api/practice/answer",
                 {"exercise": daily["ref"], "action": daily["choices"][0]["action"]})
    expect(verdict).to_have_attribute("data-grade", graded["answer"]["grade"])
    words = {"best": "Bäst", "good": "Bra", "inaccuracy": "Inexakthet", "mistake": "Misstag",
             "blunder": "Blunder"}
    expect(verdict.locator(".grade")).to_have_text(words[graded["answer"]["grade"]])
    expect(verdict.locator(".review-reason")).not_to_be_empty()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "practice-phone-sv-answered.png"), full_page=True)
    verdict.locator("[data-action=practice-next]").tap()
    score = root.locator("[data-testid=practice-score]")
    expect(score).to_contain_text("av 1 svar bäst (1 övningar)")
    context.close()

"""The terminal's words for rules that decide who may win, on real games with stacked decks.

- V-QUADS-RESET: only the highest four of a kind may reset. A lower holder's reset is
  voided by the higher holder's objection (a public ``show`` of the four, then
  ``quads_objection``): every seat and an onlooker read it in their own words, in the log,
  the line mode and the full screen, and nobody is shown a card they may not see.
- V-CHI-DECLARED / V-CHI-REQ3 (where in force): the score table and the line mode say who
  has declared / made a Chicago in the game, from the view's public flags, and why.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import RichLog

from chicago import Action, Game, Rules, SeatView
from chicago.engine.events import QuadsChoice
from chicago.tui.app import PlayApp
from chicago.tui.plain import play_plain
from chicago.tui.render import scores_table, table_panel
from chicago.tui.session import PlaySession
from chicago.tui.words import Words, chicago_requirement, plain_card, symbol_card
from engine_helpers import game, keep_all, play_random
from test_play_support import hidden_cards, leaked, quads_objection_game

NAMES = ["Ann", "Bo", "Cy"]
KINGS = {"Kc", "Kd", "Kh", "Ks"}
NINES = {"9c", "9d", "9h", "9s"}
OBJECTION = "only the highest four of a kind may reset"


def render(renderable: object, width: int = 100) -> str:
    console = Console(width=width, record=True, color_system=None, file=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


class Scripted:
    """A bot that takes the first of its preferred actions that is legal, else the first."""

    name = "scripted"

    def __init__(self, *prefer: str) -> None:
        self.prefer = prefer

    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        texts = [str(a) for a in legal_actions]
        for wanted in self.prefer:
            if wanted in texts:
                return legal_actions[texts.index(wanted)]
        return legal_actions[0]


_THIRD_PERSON_YOU = re.compile(r"\bYou (?!pass\b)(?:[a-z]+s|is|has|does)\b")


def _words(seat: int | None, card: Any = plain_card) -> Words:
    return Words(NAMES, me=seat, card=card)


@pytest.mark.parametrize("where", ["scoring round", "last exchange"])
def test_a_voided_reset_in_every_seats_words(where: str) -> None:
    """V-QUADS-RESET: the lower holder (seat 0) resets, the higher holder (seat 1) objects:
    the show of the four kings and the objection read right for each seat and an onlooker;
    the deal goes on; the nines stay hidden; the whole game has words to the end."""
    g = quads_objection_game(where)
    expected = {
        0: f"Bo objects: {OBJECTION}, so your reset does not count.",
        1: f"You object: {OBJECTION}, so Ann's reset does not count.",
        2: f"Bo objects: {OBJECTION}, so Ann's reset does not count.",
        None: f"Bo objects: {OBJECTION}, so Ann's reset does not count.",
    }
    for seat, objection in expected.items():
        words = _words(seat)
        lines = [text for ev in g.events_for(seat) if (text := words.event(ev))]
        shows = [line for line in lines if "against the reset" in line]
        who = "You show" if seat == 1 else "Bo shows"
        assert len(shows) == 1 and shows[0].startswith(
            f"{who} a higher four of a kind against the reset: "), shows
        assert set(shows[0].split(": ")[1].rstrip(".").split()) == KINGS
        assert lines[-1 if where == "last exchange" else -2] == objection
        assert lines.index(objection) == lines.index(shows[0]) + 1
        if where == "scoring round":  # the winner scores the 7 instead
            assert lines[-1] == (
                f"{'You score' if seat == 0 else 'Ann scores'} 7 points (scoring round 1), "
                "total 17.")
            chose = "You choose" if seat == 0 else "Ann chooses"
            assert f"{chose} to reset every other score to zero." in lines
        else:
            claims = "You claim" if seat == 0 else "Ann claims"
            assert f"{claims} a reset with four of a kind." in lines
        view = g.view(seat)
        state = [*words.state_lines(view), render(table_panel(view, words))]
        showed = "You showed" if seat == 1 else "Bo showed"
        assert any(showed in line and set(line.rstrip(".").split()) >= KINGS for line in state)
        text = "\n".join(lines + state)
        if seat != 0:
            assert not any(card in text for card in NINES), "the lower four stay hidden"
        if seat is not None:
            assert not leaked(text, hidden_cards(g, seat)), seat
    assert g.scores == ([17, 30, 20] if where == "scoring round" else [10, 30, 20])
    phase = _words(2).phase_line(g.view(2))
    assert ("exchange 2 of 3" if where == "scoring round" else "the Chicago call") in phase

    play_random(g, random.Random(5))
    for seat in (0, 1, 2, None):
        words = _words(seat, symbol_card)
        for ev in g.events_for(seat):
            text = words.event(ev)
            assert text, ev
            assert not _THIRD_PERSON_YOU.search(text), text
        assert "Final scores" in render(scores_table(g.view(seat), words, title="Final scores"))


def _plain(session: PlaySession, answers: list[str]) -> str:
    out = io.StringIO()
    assert play_plain(session, io.StringIO("".join(a + "\n" for a in answers)), out) == 0
    return out.getvalue()


def test_the_line_mode_tells_the_lower_holder_that_the_reset_does_not_count() -> None:
    g = quads_objection_game("scoring round", until="start")
    bots = {1: Scripted("keep", "pass"), 2: Scripted("keep", "pass")}
    session = PlaySession(g, bots, ["You", "Bo", "Cy"], human=0)  # type: ignore[dict-item]
    output = _plain(session, ["0", "announce four of a kind", "reset"])
    lines = output.splitlines()
    assert "You choose to reset every other score to zero." in lines
    shows = [i for i, line in enumerate(lines)
             if line.startswith("Bo shows a higher four of a kind against the reset: ")]
    assert len(shows) == 1
    assert set(lines[shows[0]].split(": ")[1].rstrip(".").split()) == KINGS
    assert lines[shows[0] + 1] == f"Bo objects: {OBJECTION}, so your reset does not count."
    assert "You score 7 points (scoring round 1), total 17." in lines
    assert "Bo showed " in output  # the state lines at the next question
    assert not leaked(output, hidden_cards(g, 0))
    assert g.phase.value == "exchange" and g.scores == [17, 30, 20]


def test_the_line_mode_tells_the_objector_and_the_deal_goes_on() -> None:
    g = quads_objection_game("last exchange", until="start")
    bots = {0: Scripted("reset", "keep", "pass"), 2: Scripted("keep", "pass")}
    session = PlaySession(g, bots, ["Ann", "You", "Cy"], human=1)  # type: ignore[dict-item]
    output = _plain(session, ["0", "pass", "0", "pass", "0", "pass"])
    lines = output.splitlines()
    assert "Ann claims a reset with four of a kind." in lines
    assert f"You object: {OBJECTION}, so Ann's reset does not count." in lines
    assert any(line.startswith("You show a higher four of a kind against the reset: ")
               for line in lines)
    assert lines[-2].startswith("Declare Chicago")  # the deal goes on
    assert not leaked(output, hidden_cards(g, 1))
    assert g.scores == [10, 30, 20]


def test_the_full_screen_log_shows_the_objection() -> None:
    g = quads_objection_game("scoring round", until="choice")
    bots = {1: Scripted("keep", "pass"), 2: Scripted("keep", "pass")}
    session = PlaySession(g, bots, ["You", "Bo", "Cy"], human=0)  # type: ignore[dict-item]

    async def main() -> str:
        app = PlayApp(session, delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("r")  # reset
            await pilot.pause()
            log = app.query_one("#log", RichLog)
            return " ".join(" ".join(strip.text for strip in log.lines).split())

    text = asyncio.run(main())
    assert f"Bo objects: {OBJECTION}, so your reset does not count." in text
    assert "Bo shows a higher four of a kind against the reset: " in text
    assert "You score 7 points (scoring round 1), total 17." in text


# ------------------------------------------------------------------ who may win
ACES = "Ac Ad Ah As Kh"


def _chicago_game(rules: Rules, players: int, scores: list[int]) -> tuple[Game, list[Any]]:
    """Seat 0 holds four aces and the king of hearts, speaks and leads first: it announces
    its four of a kind, declares Chicago and makes it. The views of seats 0 and 1 before
    each action until the next deal (or the end)."""
    g = game(rules, players, dealer=players - 1, hands=[ACES], scores=scores)
    keep_all(g)
    views: list[Any] = []
    while not g.is_over and g.deal_number == 1:
        views.append((g.view(0), g.view(1), g.view(None)))
        texts = [str(a) for a in g.legal_actions()]
        if g.to_act == 0:
            chosen = next((t for t in ("announce four of a kind", "chicago", "keep", "play Ah",
                                       "play Ac", "play Ad", "play As", "play Kh")
                           if t in texts), texts[0])
        else:
            chosen = next((t for t in ("pass", "keep", "no chicago") if t in texts), texts[0])
        g.apply(chosen)
    views.append((g.view(0), g.view(1), g.view(None)))
    return g, views


def test_the_score_table_says_who_has_made_a_chicago_under_req3() -> None:
    """V-CHI-REQ3 with three players: the made Chicago is marked and explained; the caption
    and the line mode say only such a player can win. Not in force at four players unless
    chicago_made_any_size."""
    rules = Rules.preset("pagat").with_variations("V-CHI-REQ3")
    g, views = _chicago_game(rules, 3, [15, 10, 10])
    assert g.deal_number == 2 and g.view(None).chicago_made == (True, False, False)
    first, _, _ = views[0]
    assert _words(0).chicago_line(first) == (
        "Chicago made in this game: nobody yet. Only a player who has made one can win; "
        "reaching the target without one resets the score to 0 (V-CHI-REQ3).")
    mine, theirs, public = g.view(0), g.view(1), g.view(None)
    assert _words(0).chicago_line(mine).startswith("Chicago made in this game: You. ")
    assert _words(1).chicago_line(theirs).startswith("Chicago made in this game: Ann. ")
    table = render(scores_table(public, _words(None)), width=120)
    row = next(line for line in table.splitlines() if "Ann" in line)
    assert "made" in row
    assert not any("made" in line and ("Bo " in line or "Cy " in line)
                   for line in table.splitlines() if "=" not in line)
    assert "made = has made a Chicago in this game: only such a player can win" in \
        " ".join(table.split())
    assert any(line.startswith("Chicago made in this game: You.")
               for line in _words(0).state_lines(mine))

    four, _ = _chicago_game(rules, 4, [15, 10, 10, 10])
    assert four.view(None).chicago_made[0]  # the engine keeps the flag
    assert chicago_requirement(four.rules, four.players) is None
    assert _words(None).chicago_line(four.view(None)) is None
    assert "made" not in render(scores_table(four.view(None), Words([*NAMES, "Di"])))
    anywhere = rules.replace(chicago_made_any_size=True)
    four, _ = _chicago_game(anywhere, 4, [15, 10, 10, 10])
    assert chicago_requirement(four.rules, four.players) == "made"
    assert "made = has made a Chicago" in " ".join(
        render(scores_table(four.view(0), Words([*NAMES, "Di"], me=0)), width=120).split())


def test_the_score_table_says_who_has_declared_a_chicago_under_v_chi_declared() -> None:
    rules = Rules.preset("pagat").with_variations("V-CHI-DECLARED")
    _g, views = _chicago_game(rules, 4, [15, 10, 10, 10])
    words = Words([*NAMES, "Di"], me=1)
    before = next(v for _, v, _ in views if v.phase == "chicago")
    assert before.chicago_declared == (False,) * 4
    assert words.chicago_line(before) == (
        "Chicago declared in this game: nobody yet. Only a player who has declared one can "
        "win (V-CHI-DECLARED).")
    playing = next(v for _, v, _ in views if v.phase == "play")
    assert playing.chicago_declared == (True, False, False, False)
    assert words.chicago_line(playing).startswith("Chicago declared in this game: Ann. ")
    table = " ".join(render(scores_table(playing, words), width=120).split())
    assert "CHICAGO declared" in table  # declarer of this deal, and declared in the game
    assert "declared = has declared a Chicago in this game: only such a player can win " \
        "(V-CHI-DECLARED)." in table
    plain = Rules.preset("pagat")
    _g, views = _chicago_game(plain, 4, [15, 10, 10, 10])
    assert all(_words(0).chicago_line(v) is None for v, _, _ in views)
    assert "declared" not in render(scores_table(views[-1][0], Words([*NAMES, "Di"], me=0)))


def test_a_req3_reset_in_words() -> None:
    """V-CHI-REQ3: reaching the target without a made Chicago sends the score back to 0."""
    rules = Rules.preset("pagat").with_variations("V-CHI-REQ3")
    g = game(rules, 3, dealer=2, hands=["9c 9d 9h 9s 2c"], scores=[48, 10, 10])
    keep_all(g)
    g.apply("announce four of a kind")
    while g.phase.value == "announce":
        g.apply("pass")
    assert g.scores[0] == 0
    lines = [_words(0).event(e) for e in g.events_for(0)]
    assert "You score 7 points (scoring round 1), total 55." in lines
    assert "You lose 55 points (reached the target without a made Chicago), total 0." in lines
    assert "Ann loses 55 points (reached the target without a made Chicago), total 0." in [
        _words(1).event(e) for e in g.events_for(1)]
    swedish = Words(NAMES, me=1, lang="sv")
    assert "Ann förlorar 55 poäng (nådde målet utan klarad Chicago), totalt 0." in [
        swedish.event(e) for e in g.events_for(1)]


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_a_reset_of_one_player_in_words_V_QUADS_ONE(lang: str) -> None:
    """V-QUADS-ONE: the question asks for one player, each choice names the seat it lowers,
    and the log says whom the reset lowers, for the holder and the others (both languages,
    the browser's catalogue)."""
    g = game(Rules.preset("pagat").with_variations("V-QUADS-ONE"), 3, dealer=2,
             hands=["9c 9d 9h 9s 2c"], scores=[10, 30, 20])
    keep_all(g)
    for text in ("announce four of a kind", "pass", "pass"):
        g.apply(text)
    view = g.view(0)

    def words(seat: int) -> Words:
        return Words(NAMES, me=seat, card=plain_card, lang=lang)

    question = {"en": "Your four of a kind wins: reset one player to zero, or take the points?",
                "sv": "Ditt fyrtal vinner: nollställ en spelare, eller ta poängen?"}[lang]
    assert words(0).question(view) == question
    labels = [words(0).choice_label(a, view) for a in view.legal_actions[1:]]
    assert labels == {"en": ["Reset Bo to zero", "Reset Cy to zero"],
                      "sv": ["Nollställ Bo", "Nollställ Cy"]}[lang]
    g.apply("reset 1")
    choice = next(e for e in g.events_for(1) if isinstance(e, QuadsChoice))
    lines = {"en": ("Ann chooses to reset you to zero.", "You choose to reset Bo to zero."),
             "sv": ("Ann väljer att nollställa dig.", "Du väljer att nollställa Bo.")}[lang]
    assert (words(1).event(choice), words(0).event(choice)) == lines
    assert g.scores == [10, 0, 20]

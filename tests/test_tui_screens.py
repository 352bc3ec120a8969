"""The full screen at 80x24 and 100x32 (Textual's pilot), in English and Swedish.

- Windows (keys and rules, odds, score sheet) open with the keyboard in them: PageDown,
  Down and End scroll at once, and the end of the text (the last option) is reached.
- Nothing is cut: no "…" anywhere, every button's whole label, the bot levels and the
  dealer mark, the ``:`` line's hint, six cards of a locked hand (V-LOCK-6), the replay's
  title; the table needs no scrolling at a decision.
- At a deal's end the screen stays on that deal (status, scores, log) until Enter.
- The score sheet (``s``) and the deal summary, also the trick that broke a Chicago.
- One key per action: no two buttons do the same.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Button, Input, RichLog

from chicago import ActionKind, Game, Rules, SeatView
from chicago.bots import make_bot
from chicago.engine.events import ChicagoResult, DealEnd, Play, Trick
from chicago.tui.app import CardView, KeyButton, PlayApp
from chicago.tui.lang import get_lang
from chicago.tui.replay_app import ReplayApp
from chicago.tui.replayer import Replayer
from chicago.tui.screens import TextScreen
from chicago.tui.session import PlaySession
from chicago.tui.words import Words
from engine_helpers import game as stacked_game
from test_play_support import hidden_cards, leaked, screen_text

SIZES = [(80, 24), (100, 32)]
Script = Callable[[PlayApp, Pilot[None]], Awaitable[None]]


def run_app(session: PlaySession, script: Script, size: tuple[int, int], lang: str) -> None:
    async def main() -> None:
        app = PlayApp(session, delay=0, lang=lang)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())


def session_of(g: Game, bots: str = "basic") -> PlaySession:
    """A session around a prepared game: the human at seat 0, bots elsewhere."""
    names = ["You", "Astrid", "Bosse", "Cissi", "Dagge", "Eskil"][: g.players]
    others = {s: make_bot(bots) for s in range(1, g.players)}
    tags = {f"Bot{s}": bots for s in others}
    return PlaySession(g, others, names, tags=tags)


def new_session(tmp_path: Path, rules: Rules, seed: int = 3) -> PlaySession:
    return PlaySession.new(rules, players=4, bot_specs=["basic"], seed=seed,
                           save_path=tmp_path / "game.json")


# ------------------------------------------------------------------ what "not cut" means
def panel_text(app: PlayApp, selector: str) -> str:
    """The words inside one widget's region of the screen, wrapped lines joined."""
    region = app.query_one(selector).region
    lines = screen_text(app).splitlines()[region.y : region.bottom]
    return " ".join(" ".join(line[region.x : region.right] for line in lines).split())


def assert_nothing_cut(app: PlayApp) -> str:
    """Every text on screen is whole; returns the screen's text."""
    text = screen_text(app)
    assert "…" not in text, text
    width, height = app.size
    words = app.words
    for button in app.query(KeyButton):
        if not button.display:
            continue
        label = str(button.label)
        assert label in text, (label, text)
        region = button.region
        assert region.width >= len(label) and region.right <= width, label
    left = app.query_one("#left").region
    for card in app.query(CardView):
        if card.display:
            assert left.x <= card.region.x and card.region.right <= left.right, card.card
    for widget_id in ("#status", "#prompt", "#actions", "#command", "#keys"):
        region = app.query_one(widget_id).region
        assert region.bottom <= height, widget_id
    command = app.query_one("#command", Input)
    if not command.value and app.focused is not command:
        assert str(command.placeholder) in text
    assert app.query_one("#keys").region.bottom == height
    for level in app.levels:
        if level:
            assert re.search(rf"\b{re.escape(words.level(level))}\b", text), level
    assert re.search(rf"\b{words.t('tui.mark.dealer')}\b", text)
    assert app.sub_title in text
    return text


def _choose(app: PlayApp, view: SeatView) -> list[str]:
    """The keys a simple player presses for the decision now."""
    keys = app._keys
    phase = view.phase
    if phase == "exchange":
        if len(view.hand) == 6:
            return ["1", "enter"]
        if any(a.kind is ActionKind.ONE_UP for a in view.legal_actions) and view.round == 1:
            return ["1", "u"]
        return ["enter"]
    if phase == "play":
        card = view.legal_actions[0].card
        return [str(view.hand.index(card) + 1)]
    for key in ("y", "a", "n", "k", "t", "p"):
        if key in keys:
            return [key]
    return [sorted(keys)[0]]


async def play_until_deal_end(app: PlayApp, pilot: Pilot[None], seen: dict[str, str]) -> None:
    """Decide with keys until the deal is over, checking every screen; ``seen`` collects
    one screen per phase (the one-up choice after a selection, too)."""
    session = app.session
    for _ in range(80):
        if app.paused_summary is not None or session.over:
            return
        view = session.view()
        assert session.waiting_for_human
        seen.setdefault(view.phase.value, assert_nothing_cut(app))
        assert app.query_one("#table-box", VerticalScroll).max_scroll_y == 0, screen_text(app)
        hidden = hidden_cards(session._game, 0)
        assert not leaked(screen_text(app), hidden)
        for key in _choose(app, view):
            await pilot.press(key)
            await pilot.pause()
            if key in ("1", "2") and view.phase == "exchange":
                seen.setdefault("selected", assert_nothing_cut(app))
        assert app.error == "", app.error
    raise AssertionError("the deal did not end")


# ------------------------------------------------------------------ windows
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("key", ["question_mark", "h", "s"])
def test_every_window_has_the_keyboard_and_scrolls_to_its_end(
    tmp_path: Path, size: tuple[int, int], key: str
) -> None:
    """The help (keys, then the rules), the odds and the score sheet take the keyboard when
    they open: PageDown, Down and End scroll without Tab, End shows the last line (the key
    list and every option are reachable at 80x24), the opening key or Esc closes."""
    session = new_session(tmp_path, Rules.preset("wikipedia"))

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press(key)
        await pilot.pause()
        box = app.screen.query_one(VerticalScroll)
        assert app.focused is box
        text = screen_text(app)
        if key == "question_mark":
            assert "Keys and rules" in text and "select a card of your hand" in text  # keys first
            assert box.max_scroll_y > 0
            await pilot.press("pagedown")
            await pilot.pause()
            assert box.scroll_y > 0
            await pilot.press("home", "down")
            await pilot.pause()
            assert box.scroll_y == 1
            await pilot.press("end")
            await pilot.pause()
            assert box.scroll_y == box.max_scroll_y
            assert "max_deals = None" in screen_text(app)  # the end of the option list
        elif key == "h":
            assert "Draw odds of your hand" in text
        else:
            assert "No deal finished yet." in text
        assert "Esc closes" in text
        cards_before = [c.card for c in app.query(CardView)]
        await pilot.press("1")  # a game key does nothing while a window is open
        await pilot.pause()
        assert app.selected == set() and [c.card for c in app.query(CardView)] == cards_before
        await pilot.press(key)
        await pilot.pause()
        assert not isinstance(app.screen, TextScreen)
        assert "Esc closes" not in screen_text(app)

    run_app(session, script, size, "en")


# ------------------------------------------------------------------ nothing cut
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "sv"])
def test_a_deal_at_every_size_cuts_nothing_and_holds_its_end_until_enter(
    tmp_path: Path, size: tuple[int, int], lang: str
) -> None:
    """V-ONE-UP, R-ANN-1, R-CHI-1, R-TRICK-2: a whole deal by keys; every screen whole (the
    one-up button, the bot levels, "dealer", the `:` line); at the deal's end the status,
    the scores and the log stay on that deal until Enter, then the next deal shows."""
    session = new_session(tmp_path, Rules.preset("wikipedia"))
    t = get_lang(lang).t

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        seen: dict[str, str] = {}
        await play_until_deal_end(app, pilot, seen)
        assert {"exchange", "selected", "one up", "play"} <= set(seen), sorted(seen)
        assert f"[u] {t('btn.one_up')} " in seen["selected"]
        assert f"[y] {t('btn.accept', card='')}" in seen["one up"]
        assert app.paused_summary is not None
        view = session.view()
        assert view.deal == 2  # the engine has dealt the next deal ...
        text = assert_nothing_cut(app)
        deal_end = next(e for e in session.history() if isinstance(e, DealEnd))
        # ... but the screen stays on deal 1 until Enter: status, summary, scores, log
        status = app.words.deal_line(1, deal_end.dealer) + " · " + t("phase.deal_over")
        assert status in text
        assert t("sum.title", deal=1) in text and t("tui.fs.press_enter") in text
        assert re.search(r"\b(Deal|Giv) 2\b", text) is None, text
        log = app.query_one("#log", RichLog)
        assert not any(re.search(r"\b(Deal|Giv) 2:", line.text) for line in log.lines)
        assert app._view().scores == deal_end.scores
        assert app._view().dealer == deal_end.dealer != view.dealer
        assert not any(c.display for c in app.query(CardView))
        await pilot.press("enter")
        await pilot.pause()
        assert app.paused_summary is None
        after = screen_text(app)
        assert re.search(r"\b(Deal|Giv) 2 · ", after), after
        assert t("ev.deal", deal=2, **app.words.person(view.dealer)) in after

    run_app(session, script, size, lang)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "sv"])
def test_a_locked_six_card_hand_fits(size: tuple[int, int], lang: str) -> None:
    """V-LOCK-6: all six cards of a locked hand are on screen, the Enter button names the
    card that goes, and a second selection is refused in words."""
    rules = Rules.preset("wikipedia-42")
    g = stacked_game(rules, 4, dealer=3, hands=["2c 5d 8h Js Ah Kc"], scores=[45, 0, 0, 0])
    session = session_of(g)
    t = get_lang(lang).t

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        view = session.view()
        assert len(view.hand) == 6 and view.phase == "exchange"
        shown = [c for c in app.query(CardView) if c.display]
        assert len(shown) == 6
        assert_nothing_cut(app)
        assert t("tui.fs.q.six").split(":")[0] in screen_text(app)
        await pilot.press("enter")  # nothing selected: exactly one must go
        await pilot.pause()
        assert session.view().hand == view.hand
        await pilot.press("6")
        await pilot.pause()
        text = assert_nothing_cut(app)
        card = app.words.card(str(view.hand[5]))
        assert f"[Enter] {t('tui.btn.discard', cards=card)}" in text
        await pilot.press("enter")
        await pilot.pause()
        assert len(session.view().hand) == 5

    run_app(session, script, size, lang)


def test_the_replay_title_is_whole_at_80x24(tmp_path: Path) -> None:
    """The replay's title (rules, players, seed, whose view) wraps above the table instead of
    being cut in the header."""
    g = Game(Rules.preset("wikipedia-42", max_deals=1), players=4, seed=12)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    replayer = Replayer(g.record(), tags={
        "Name0": "You", "Name1": "Astrid", "Name2": "Bosse", "Name3": "Cissi", "Human": "0",
    })

    for lang in ("en", "sv"):
        async def main() -> None:
            app = ReplayApp(replayer, lang=lang)  # noqa: B023
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                text = screen_text(app)
                assert "…" not in text
                title = replayer.title(Words(replayer.names, me=replayer.you, lang=lang))  # noqa: B023
                assert len(title) > 80
                lines = [line.strip() for line in text.splitlines()[1:4]]
                assert " ".join(" ".join(lines).split()).startswith(title), (title, lines)
                await pilot.press("end")
                await pilot.pause()
                assert "…" not in screen_text(app)

        asyncio.run(main())


# ------------------------------------------------------------------ the deal's end
def _broken_chicago_game() -> Game:
    """Seat 0 holds junk and will declare Chicago; the others hold high cards."""
    rules = Rules.preset("wikipedia")  # Chicago at any score
    return stacked_game(
        rules, 4, dealer=3,
        hands=["2c 3d 4h 5s 7c", "Ac Kc Qc Jc 9c", "Ad Kd Qd Jd 9d", "Ah Kh Qh Jh 9h"],
    )


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_summary_shows_the_trick_that_broke_a_chicago(lang: str) -> None:
    """R-CHI-3: after a failed Chicago the summary shows the breaking trick with every card
    in it, who broke it and whose Chicago it was."""
    session = session_of(_broken_chicago_game(), bots="random")
    t = get_lang(lang).t

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(40):
            if app.paused_summary is not None:
                break
            view = session.view()
            if view.phase == "exchange":
                await pilot.press("enter")
            elif view.phase == "chicago":
                await pilot.press("c")
            elif view.phase == "play":
                card = view.legal_actions[0].card
                await pilot.press(str(view.hand.index(card) + 1))
            else:
                await pilot.press("p" if "p" in app._keys else sorted(app._keys)[0])
            await pilot.pause()
        assert app.paused_summary is not None
        events = session.history()  # the first deal's come first
        result = next(e for e in events if isinstance(e, ChicagoResult))
        assert result.made is False and result.seat == 0
        trick = next(e for e in events if isinstance(e, Trick))
        plays = [e for e in events if isinstance(e, Play) and e.trick == trick.trick][:4]
        text = panel_text(app, "#table")
        words = app.words
        head = t("tui.sum.trick", n=trick.trick, plays=words.plays(plays))
        assert head in text, text
        assert len(plays) == 4
        assert t("sum.chicago_failed", breaker=words.subject(trick.winner),
                 **words.person(0)) in text

    run_app(session, script, (80, 24), lang)


def test_the_score_sheet_lists_every_finished_deal(tmp_path: Path) -> None:
    """s: a row per finished deal with its dealer, every seat's points and the totals."""
    session = new_session(tmp_path, Rules.preset("pagat", max_deals=3), seed=8)

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(2):
            await play_until_deal_end(app, pilot, {})
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        text = screen_text(app)
        ends = [e for e in session.history() if isinstance(e, DealEnd)]
        assert len(ends) == 2
        rows = [line for line in text.splitlines() if re.match(r"^\W*\s+[12]\s{2,}", line)]
        assert len(rows) == 2, text
        for row, end in zip(rows, ends, strict=True):
            cells = re.findall(r"(\+\d+|-\d+|·)\s+(-?\d+)", row)
            assert tuple(int(total) for _, total in cells) == end.scores, row
            assert tuple(0 if p == "·" else int(p) for p, _ in cells) == end.points, row
            assert app.words.who(end.dealer) in row
        assert "Total" in text
        await pilot.press("escape")
        await pilot.pause()
        assert "Total" not in screen_text(app)

    run_app(session, script, (80, 24), "en")


# ------------------------------------------------------------------ keys
def test_one_key_per_action(tmp_path: Path) -> None:
    """No two buttons (or keys) do the same: in an exchange round Enter alone keeps all or
    exchanges the selection; x and k are no second way to do it."""
    session = new_session(tmp_path, Rules.preset("wikipedia"))

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        seen = 0
        for _ in range(60):
            if app.paused_summary is not None:
                break
            view = session.view()
            shown = [b for b in app.query(Button) if b.display]
            actions = [str(app._keys[b.id[4:]]) for b in shown if b.id[4:] in app._keys]
            if view.phase == "exchange":
                actions.append(str(app._exchange_action(view)))
                labels = [str(b.label) for b in shown]
                assert labels[0].startswith("[Enter] ") and not any(
                    label.startswith(("[x]", "[k]")) for label in labels), labels
                before = len(session.record()["actions"])
                await pilot.press("x", "k")
                await pilot.pause()
                assert len(session.record()["actions"]) == before
                seen += 1
            assert len(actions) == len(set(actions)), actions
            for key in _choose(app, view):
                await pilot.press(key)
                await pilot.pause()
        assert seen >= 1

    run_app(session, script, (80, 24), "en")

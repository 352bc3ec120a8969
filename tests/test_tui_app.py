"""The full-screen ``chicago play``, driven by Textual's test pilot."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from chicago import Rules
from chicago.tui.app import CardView, PlayApp
from chicago.tui.session import PlaySession
from test_play_support import hidden_cards, leaked, screen_text

SIZE = (120, 40)


Script = Callable[[PlayApp, Pilot[None]], Awaitable[None]]


def run_app(session: PlaySession, script: Script) -> None:
    async def main() -> None:
        app = PlayApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())


def new_session(tmp_path: Path, rules: Rules | None = None, seed: int = 11) -> PlaySession:
    return PlaySession.new(
        rules or Rules.preset("pagat"), players=4, bot_specs=["random"], seed=seed,
        save_path=tmp_path / "game.json",
    )


async def play_turn(app: PlayApp, pilot: Pilot[None], notes: dict[str, Any]) -> None:
    """One decision of the human with keys and clicks, as a player would."""
    session = app.session
    view = session.view()
    phase = view.phase
    if phase == "exchange":
        await pilot.press("1", "2", "2")  # select, select, unselect: discard card 1
        assert "out" in screen_text(app)
        notes.setdefault("discarded", []).append(str(view.hand[0]))
        await pilot.press("enter")
    elif phase == "play":
        cards = list(app.query(CardView))
        playable = [c for c in cards if c.display and c.has_class("playable")]
        unplayable = [c for c in cards if c.display and c.has_class("unplayable")]
        if unplayable and "refused" not in notes:
            before = len(session.record()["actions"])
            await pilot.press(str(unplayable[0].index + 1))
            assert "You must follow suit" in app.error
            assert len(session.record()["actions"]) == before
            notes["refused"] = True
        await pilot.click(f"#card-{playable[0].index}")
        notes["clicked"] = notes.get("clicked", 0) + 1
    else:
        keys = sorted(app._keys)
        key = "a" if "a" in keys else "n" if "n" in keys else keys[0]
        notes.setdefault("keys", []).append((phase, key))
        await pilot.press(key)
    await pilot.pause()


def test_pilot_plays_a_whole_deal_and_never_shows_a_hidden_card(tmp_path: Path) -> None:
    """R-EX-3, R-ANN-5, R-TRICK-2: a deal by keys and clicks; only own and public cards shown."""
    session = new_session(tmp_path, seed=1)
    notes: dict[str, Any] = {}
    screens: list[str] = []

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(60):
            text = screen_text(app)
            screens.append(text)
            hidden = hidden_cards(session._game, 0)
            assert not leaked(text, hidden), (sorted(leaked(text, hidden)), text)
            if app.paused_summary is not None:
                break
            assert session.waiting_for_human
            await play_turn(app, pilot, notes)
        assert app.paused_summary is not None
        text = screen_text(app)
        assert "Deal 1 is over" in text and "Press Enter" in text
        assert "Deal 1 is over. Scores:" in text
        await pilot.press("enter")
        await pilot.pause()
        assert app.paused_summary is None
        assert session.view().deal == 2
        assert "Deal 2 · dealer" in screen_text(app)

    run_app(session, script)
    assert notes["clicked"] >= 1 and notes["refused"]
    assert ("announce", "a") in notes["keys"]
    record = json.loads((tmp_path / "game.json").read_text())
    mine = [text for seat, text in record["actions"] if seat == 0]
    assert mine[0] == f"discard {notes['discarded'][0]}"
    assert any(text.startswith("play ") for text in mine)


def test_game_end_shows_the_settlement(tmp_path: Path) -> None:
    """R-END-2: the last screen shows the winners, the final scores and the settlement."""
    session = new_session(tmp_path, Rules.preset("pagat", max_deals=1), seed=3)
    notes: dict[str, Any] = {}

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(60):
            if session.over:
                break
            await play_turn(app, pilot, notes)
        assert session.over
        text = screen_text(app)
        assert "The game is over:" in text
        assert "Settlement at 1 per point:" in text
        assert "chicago replay" in text
        await pilot.press("1")
        assert app.error == "Not now: the game is over."  # the prompt says the rest
        await pilot.press("q")

    run_app(session, script)
    assert json.loads((tmp_path / "game.json").read_text())["result"]["over"] is True


def test_typed_answers_bad_input_hint_help_and_quit(tmp_path: Path) -> None:
    """Typed answers as in the line mode; bad ones get a reason and change nothing."""
    session = new_session(tmp_path)

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        assert session.view().phase == "exchange" and session.waiting_for_human
        await pilot.press("colon", *"zz", "enter")
        await pilot.pause()
        assert "Not accepted: 'zz' is not a card or a card number" in app.error
        assert "Not accepted" in screen_text(app)
        await type_answer(app, pilot, "9")
        assert "there is no card 9" in app.error
        await pilot.press("p")
        assert "The key p means nothing now" in app.error
        assert [a for a in session.record()["actions"] if a[0] == 0] == []

        await pilot.press("h")
        await pilot.pause()
        text = screen_text(app)
        assert "Draw odds of your hand" in text and "exp." in text
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Rules: pagat" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()

        hand = [str(c) for c in session.view().hand]
        await type_answer(app, pilot, f"{hand[0]} 3")
        await pilot.pause()
        assert app.error == ""
        mine = [t for s, t in session.record()["actions"] if s == 0]
        assert mine == [f"discard {' '.join(sorted([hand[0], hand[2]], key=_card_id))}"]
        await pilot.press("q")

    run_app(session, script)
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["result"]["over"] is False
    assert next(t for s, t in record["actions"] if s == 0).startswith("discard ")


async def type_answer(app: PlayApp, pilot: Pilot[None], text: str) -> None:
    """``:`` opens the input line; the text is put in it at once (typing is slow), Enter."""
    await pilot.press("colon")
    app.query_one("#command", Input).value = text
    await pilot.press("enter")


def _card_id(text: str) -> int:
    from chicago.cards import Card

    return int(Card(text))


def test_one_up_with_keys(tmp_path: Path) -> None:
    """V-ONE-UP: select one card, u asks for the new one face up, y takes it."""
    session = new_session(tmp_path, Rules.preset("wikipedia"), seed=2)

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        assert session.view().phase == "exchange"
        await pilot.press("1")
        assert "u" in app._keys
        await pilot.press("u")
        await pilot.pause()
        view = session.view()
        assert view.phase == "one up" and view.one_up is not None
        face_up = str(view.one_up.card)
        text = screen_text(app)
        assert "Face up for you:" in text
        await pilot.press("y")
        await pilot.pause()
        now = session.view()
        assert face_up in {str(c) for c in now.hand} or now.phase != "exchange"
        mine = [t for s, t in session.record()["actions"] if s == 0]
        assert mine[:2] == [mine[0], "accept"] and mine[0].startswith("one up ")

    run_app(session, script)


def test_resume_in_the_full_screen_app(tmp_path: Path) -> None:
    """A saved game opens where it stopped, with this deal's story in the log."""
    first = new_session(tmp_path, seed=6)

    async def stop_early(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("q")

    run_app(first, stop_early)
    resumed = PlaySession.resume(tmp_path / "game.json")
    assert resumed.record()["actions"] == first.record()["actions"]

    async def look(app: PlayApp, pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert "You keep all five cards." in text
        assert "Deal 1 · " in text

    run_app(resumed, look)


def test_with_a_delay_the_tie_break_is_shown_stage_by_stage(tmp_path: Path) -> None:
    """R-ANN-3: paced play shows one bot action, and one tie-break stage, per tick."""
    session = new_session(tmp_path, Rules.preset("pagat", max_deals=1), seed=42)

    async def main() -> None:
        app = PlayApp(session, delay=60)  # ticks are driven by hand below, never by time
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            log = app.query_one("#log")
            staged = 0
            for _ in range(200):
                if session.over or (staged >= 4 and not app._queue):
                    break
                if session.waiting_for_human and not app._queue:
                    view = session.view()
                    if view.phase == "exchange":
                        await pilot.press("enter")
                    elif view.phase == "play":
                        card = view.legal_actions[0].card
                        await pilot.press(str(view.hand.index(card) + 1))
                    else:
                        await pilot.press("a" if "a" in app._keys else sorted(app._keys)[0])
                    continue
                queued = len(app._queue)
                lines = len(log.lines)
                app._timer = None
                app._tick()
                await pilot.pause()
                if queued:
                    staged += 1
                    assert len(app._queue) == queued - 1
                    assert len(log.lines) > lines
                    if staged == 1:
                        assert "Wait for your turn" in (await _try_key(app, pilot))
            assert staged >= 4
            assert "Tie-break, step" in screen_text(app)

    asyncio.run(main())


async def _try_key(app: PlayApp, pilot: Pilot[None]) -> str:
    await pilot.press("p")
    return app.error


def test_hint_key_of_a_locked_six_card_hand_shows_what_to_discard(tmp_path: Path) -> None:
    """V-LOCK-6: no draw odds; the six discards with the hand each leaves."""
    rules = Rules.preset("pagat", lock_at=1, max_deals=8).with_variations("V-LOCK-6")
    session = None
    for seed in range(30):
        candidate = PlaySession.new(rules, players=3, bot_specs=["random"], seed=seed,
                                    save_path=tmp_path / f"g{seed}.json")
        while not candidate.over:
            while candidate.step() is not None:
                pass
            view = candidate.view()
            if candidate.over or (view.phase == "exchange" and len(view.hand) == 6):
                break
            candidate.act(candidate.legal()[-1])
        if not candidate.over:
            session = candidate
            break
    assert session is not None

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("h")
        await pilot.pause()
        text = screen_text(app)
        assert "Locked with six cards" in text and "discard" in text
        assert "Draw odds of your hand" not in text
        await pilot.press("escape")
        await pilot.press("q")

    run_app(session, script)

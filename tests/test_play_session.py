"""The play session behind both terminal shells: bots, forced decisions, saving, data directory."""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from chicago import IllegalAction, Rules, SeatView
from chicago.bots import BOT_LEVELS
from chicago.tui.notice import say
from chicago.tui.session import PlaySession, make_bots
from chicago.tui.storage import data_dir, games_dir, latest_unfinished, new_game_path
from chicago.tui.words import Words


def test_default_bots_are_basic_or_random_with_a_notice() -> None:
    bots, used, notices = make_bots([], players=4)
    assert sorted(bots) == [1, 2, 3]
    if "basic" in BOT_LEVELS:
        assert used == ["basic"] * 3 and notices == []
    else:
        assert used == ["random"] * 3
        assert notices == ["The basic bot is not available yet: playing against random bots "
                           "instead."]


def test_bot_list_repeats_its_last_entry_and_checks_names() -> None:
    _, used, _ = make_bots(["random"], players=3)
    assert used == ["random", "random"]
    with pytest.raises(ValueError, match="3 bots given for 2 other seats"):
        make_bots(["random"] * 3, players=3)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bots(["nosuchbot"], players=3)


def test_forced_decisions_are_taken_and_marked_automatic() -> None:
    """R-ANN-1: a player who can only pass is still asked; the shell answers it, visibly."""
    session = PlaySession.new(Rules.preset("pagat"), 3, ["random"], seed=1)
    automatic = []
    for _ in range(400):
        step = session.step()
        if step is None:
            if session.over:
                break
            session.act(session.legal()[0])
            continue
        if step.automatic:
            automatic.append(step)
    assert automatic
    for step in automatic:
        assert step.seat == 0 and step.action is not None
        assert step.events and step.events[0].seat == 0  # type: ignore[attr-defined]


def test_without_auto_every_decision_is_the_humans() -> None:
    session = PlaySession.new(Rules.preset("pagat"), 3, ["random"], seed=1, auto=False)
    for _ in range(300):
        while session.step() is not None:
            pass
        if session.over:
            break
        assert session.waiting_for_human
        legal = session.legal()
        step = session.act(legal[0])
        assert not step.automatic


def test_steps_carry_only_what_the_human_may_see() -> None:
    """R-EX-3: private events of other seats never reach the shell."""
    session = PlaySession.new(Rules.preset("pagat", max_deals=2), 4, ["random"], seed=5)
    while not session.over:
        step = session.step()
        if step is None:
            step = session.act(session.legal()[-1])
        assert all(ev.audience in (None, 0) for ev in step.events)
        if step.seat != 0:
            assert step.action is None


def test_acting_out_of_turn_changes_nothing() -> None:
    session = PlaySession.new(Rules.preset("pagat"), 4, ["random"], seed=2)
    while session.to_act == 0:
        session.act(session.legal()[0])
    before = session.record()
    with pytest.raises(IllegalAction, match="not your turn"):
        session.act("keep")
    assert session.record() == before


def test_saved_after_every_action_and_resumed(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    session = PlaySession.new(Rules.preset("pagat"), 3, ["random"], seed=3, save_path=path,
                              name="Anna")
    assert json.loads(path.read_text())["actions"] == []
    for _ in range(10):
        step = session.step() or session.act(session.legal()[0])
        saved = json.loads(path.read_text())
        assert saved["actions"] == session.record()["actions"]
        assert step is not None
    resumed = PlaySession.resume(path)
    assert resumed.names == session.names and resumed.names[0] == "Anna"
    assert resumed.tags["Bot1"] == session.tags["Bot1"]
    assert resumed.record() == session.record()
    assert resumed.save_path == path


def test_a_failed_save_is_reported_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    session = PlaySession.new(Rules.preset("pagat"), 3, ["random"], seed=3,
                              save_path=blocker / "g.json")
    assert session.save_error and "could not save" in session.save_error


def test_data_directory_follows_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.setenv("CHICAGO_DATA", str(tmp_path / "d"))
    assert data_dir() == tmp_path / "d"
    assert games_dir() == tmp_path / "d" / "games"
    monkeypatch.delenv("CHICAGO_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "x"))
    assert data_dir() == tmp_path / "x" / "chicago"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    assert data_dir() == tmp_path / "h" / ".local" / "share" / "chicago"


def test_new_game_paths_are_fresh_and_latest_unfinished_is_found(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CHICAGO_DATA", str(tmp_path))
    now = time.mktime((2024, 1, 31, 14, 25, 1, 0, 0, -1))
    first = new_game_path(7, now)
    assert first == tmp_path / "games" / "20240131-142501-seed7.json"
    assert latest_unfinished() is None
    done = PlaySession.new(Rules.preset("pagat", max_deals=1), 2, ["random"], seed=7,
                           save_path=first)
    while not done.over:
        if done.step() is None:
            done.act(done.legal()[0])
    second = new_game_path(7, now)
    assert second.name == "20240131-142501-seed7-2.json"
    PlaySession.new(Rules.preset("pagat"), 2, ["random"], seed=7, save_path=second)
    os.utime(first, (now + 10, now + 10))
    assert latest_unfinished() == second


class BrokenBot:
    name = "broken"

    def decide(self, view: object, legal_actions: object, rng: object) -> object:
        raise RuntimeError("cannot play 6h")  # a message may name hidden cards too


class CheatingBot:
    name = "cheat"

    def decide(self, view: object, legal_actions: object, rng: object) -> str:
        return "announce royal flush"


class HiddenCardBot:
    """Answers an illegal ``play`` of a card of its own hand at every decision."""

    name = "hidden"

    def __init__(self) -> None:
        self.named: list[str] = []

    def decide(self, view: SeatView, legal_actions: object, rng: object) -> str:
        card = str(view.hand[-1])
        self.named.append(card)
        return f"play {card}" if view.phase != "play" else "play Xx"


def test_a_failing_or_illegal_bot_does_not_end_the_game() -> None:
    from chicago import Game

    game = Game(Rules.preset("pagat", max_deals=1), players=3, seed=2)
    bots: dict[int, Any] = {1: BrokenBot(), 2: CheatingBot()}
    session = PlaySession(game, bots, ["You", "B", "C"])
    while not session.over:
        if session.step() is None:
            session.act(session.legal()[0])
    assert "B's bot failed (RuntimeError); the basic bot played for it." in session.notices
    assert "C's bot gave an illegal answer; the basic bot played for it." in session.notices
    assert not any("royal" in n or "6h" in n for n in session.notices)


def test_a_misbehaving_bots_notice_never_names_what_it_wanted(tmp_path: Path) -> None:
    """An illegal ``play 6h`` from a bot must not tell the human that the bot holds 6h."""
    from chicago import Game
    from chicago.tui.plain import play_plain
    from test_play_support import cards_mentioned

    game = Game(Rules.preset("pagat", max_deals=1), players=3, seed=2)
    cheat = HiddenCardBot()
    session = PlaySession(game, {1: cheat, 2: make_bots(["random"], 3)[0][2]},
                          ["You", "Astrid", "Bosse"])
    out = io.StringIO()
    assert play_plain(session, io.StringIO("0\n" * 40), out) == 0
    assert cheat.named
    notices = [n for n in session.notices if n.startswith("Astrid's bot")]
    assert notices and all(
        n == "Astrid's bot gave an illegal answer; the basic bot played for it."
        for n in notices
    )
    for line in out.getvalue().splitlines():
        if line.startswith("Astrid's bot"):
            assert not cards_mentioned(line), line
    assert "play " + cheat.named[0] not in out.getvalue()


def test_the_saved_record_is_the_engines_record_at_every_action(tmp_path: Path) -> None:
    """The session keeps the action texts as they come; the record stays Game.record()."""
    from chicago import Game

    save = tmp_path / "game.json"
    session = PlaySession.new(Rules.preset("wikipedia", max_deals=2), 3, ["random"], seed=4,
                              save_path=save)
    game = session._game
    count = 0
    while not session.over:
        if session.step() is None:
            session.act(session.legal()[-1])
        assert session.record() == {**game.record(), "tags": session.tags}
        count += 1
        if count == 25:  # and after a resume
            session = PlaySession.resume(save)
            game = session._game
            assert session.record() == {**game.record(), "tags": session.tags}
    assert json.loads(save.read_text(encoding="utf-8")) == session.record()
    assert Game.replay(session.record()).is_over


def test_record_files_have_one_action_per_line(tmp_path: Path) -> None:
    from chicago.tui.storage import load_record, record_json, save_record

    record = {"format": "chicago-record", "actions": [[0, "keep"], [1, "discard 7c 2h"]],
              "result": {"over": False}}
    text = record_json(record, {"Human": "0"})
    assert '\n  [0, "keep"],\n  [1, "discard 7c 2h"]\n ],' in text
    assert json.loads(text) == {**record, "tags": {"Human": "0"}}
    odd = {**record, "actions": [[0, 'a "], [" b'], [1, "keep"]]}
    assert json.loads(record_json(odd))["actions"] == odd["actions"]
    assert json.loads(record_json({**record, "actions": []}))["actions"] == []
    session = PlaySession.new(Rules.preset("pagat"), 2, ["random"], seed=1,
                              save_path=tmp_path / "g.json")
    save_record(tmp_path / "copy.json", session.record(), session.tags)
    assert load_record(tmp_path / "copy.json").record["actions"] == session.record()["actions"]


def test_a_game_that_goes_on_past_the_target_says_why_once() -> None:
    """V-CHI-DECLARED: nobody wins before declaring a Chicago; the human is told so, once."""
    rules = Rules.preset("pagat", target=6, max_deals=12).with_variations("V-CHI-DECLARED")
    session = PlaySession.new(rules, 3, ["random"], seed=3)
    while not session.over:
        if session.step() is None:
            legal = [a for a in session.legal() if str(a) != "chicago"]
            session.act(legal[0] if legal else session.legal()[0])
    notes = [n for n in session.notices if n.startswith("The game goes on")]
    assert len(notes) == 1, session.notices
    assert notes[0].startswith(
        "The game goes on: under these rules only a player who has declared a Chicago can "
        "win (V-CHI-DECLARED), and nobody at 6 or more has declared one ("
    )
    swedish = say(notes[0], Words(session.names, me=session.human, lang="sv"))
    assert swedish.startswith(
        "Partiet fortsätter: med de här reglerna kan bara den som har sagt Chicago vinna "
        "(V-CHI-DECLARED), och ingen med 6 poäng eller mer har sagt en (")
    assert "You" not in swedish  # the player's seat is "Du"

"""``chicago replay``: records step by step, face up when finished, one seat's view otherwise."""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot

from chicago import Game, Rules
from chicago.record import RecordError, write_text
from chicago.tui.plain import replay_plain
from chicago.tui.replay_app import ReplayApp
from chicago.tui.replayer import Replayer
from chicago.tui.storage import load_record, save_record
from chicago.tui.words import Words
from test_play_support import hidden_cards, leaked, screen_text


def random_game(seed: int, actions: int | None = None, **rules: object) -> Game:
    game = Game(Rules.preset("pagat", **rules), players=3, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and (actions is None or len(game.actions) < actions):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


@pytest.fixture(scope="module")
def finished() -> Game:
    return random_game(4, max_deals=3)


def test_replay_reaches_the_recorded_game(finished: Game) -> None:
    replayer = Replayer(finished.record())
    assert replayer.finished and replayer.seat is None
    assert replayer.steps == len(finished.actions)
    assert replayer.game_at(replayer.steps).scores == finished.scores
    for step in (0, 1, 33, 64, replayer.steps - 1):
        game = replayer.game_at(step)
        assert len(game.actions) == step
        assert game.record()["actions"] == finished.record()["actions"][:step]
    assert replayer.deal_starts[0] == 0 and len(replayer.deal_starts) == finished.deal_number
    assert all(replayer.game_at(s).deal_number == n + 1
               for n, s in enumerate(replayer.deal_starts))
    assert replayer.next_deal(0) == replayer.deal_starts[1]
    assert replayer.previous_deal(replayer.deal_starts[1]) == 0


def test_finished_game_is_shown_face_up(finished: Game) -> None:
    """A finished game may show every hand: all seats' cards at every step."""
    replayer = Replayer(finished.record())
    hands = replayer.hands_at(0)
    assert sorted(hands) == [0, 1, 2]
    assert all(len(h) == 5 for h in hands.values())
    private = [e for e in replayer.events_of(0) if e.type == "dealt"]
    assert len(private) == 3


def test_unfinished_game_needs_a_seat_and_shows_only_it() -> None:
    """R-EX-3: an unfinished game's replay shows one seat's cards and public events only."""
    game = random_game(7, actions=40)
    assert not game.is_over
    with pytest.raises(ValueError, match="not finished"):
        Replayer(game.record())
    replayer = Replayer(game.record(), seat=1)
    for step in range(replayer.steps + 1):
        assert list(replayer.hands_at(step)) == [1]
        for event in replayer.events_of(step):
            assert event.audience in (None, 1)
        assert replayer.view_at(step).seat == 1


def test_plain_replay_of_an_unfinished_game_names_no_hidden_card() -> None:
    """R-EX-3, R-ANN-5: every printed line names only cards the seat had seen by then."""
    game = random_game(7, actions=120)
    replayer = Replayer(game.record(), seat=0)
    words = Words(replayer.names)
    for step in range(replayer.steps + 1):
        hidden = hidden_cards(replayer.game_at(step), 0)
        for event in replayer.events_of(step):
            line = words.event(event) or ""
            assert not leaked(line, hidden), (step, line)


UNFINISHED_TAGS = {"Human": "1", "Name0": "Astrid", "Name1": "You", "Name2": "Bosse"}


def test_unfinished_game_is_shown_from_the_saving_players_seat() -> None:
    """Without --seat: the seat of the player who saved it (the Human tag), with a notice."""
    record = random_game(7, actions=40).record()
    replayer = Replayer.for_record(record, UNFINISHED_TAGS)
    assert replayer.seat == 1 and not replayer.warnings
    assert replayer.notices == [
        "The game is not finished: showing only what seat 1 (You) saw; --seat N shows "
        "another seat."
    ]
    assert "as you (seat 1) saw it" in replayer.title()
    assert Replayer.for_record(record, {}).seat == 0  # no player recorded: seat 0
    same = Replayer.for_record(record, UNFINISHED_TAGS, seat=1)
    assert same.seat == 1 and not same.warnings


def test_another_seat_of_an_unfinished_game_only_when_asked_and_with_a_warning(
    tmp_path: Path,
) -> None:
    record = random_game(7, actions=40).record()
    replayer = Replayer.for_record(record, UNFINISHED_TAGS, seat=2)
    assert replayer.seat == 2
    assert replayer.warnings == [
        "Warning: this game is not finished and was played from seat 1 (You); you are shown "
        "the cards of seat 2 (Bosse), which that player did not see."
    ]
    out = io.StringIO()
    replay_plain(replayer, out)
    assert out.getvalue().splitlines()[1] == replayer.warnings[0]
    finished = random_game(4, max_deals=3).record()
    assert not Replayer.for_record(finished, UNFINISHED_TAGS, seat=2).warnings
    assert Replayer.for_record(finished, UNFINISHED_TAGS).seat is None

    path = tmp_path / "unfinished.json"
    save_record(path, record, UNFINISHED_TAGS)
    env = {**os.environ, "CHICAGO_DATA": str(tmp_path), "PYTHONIOENCODING": "utf-8",
           "LC_ALL": "C.UTF-8"}
    for seat, first in [(None, "The game is not finished"), ("2", "Warning: ")]:
        args = [sys.executable, "-m", "chicago.cli", "replay", str(path), "--plain"]
        result = subprocess.run(args + (["--seat", seat] if seat else []), capture_output=True,
                                text=True, env=env, timeout=120, check=False)
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines()[1].startswith(first)


def test_plain_replay_prints_the_whole_game(finished: Game) -> None:
    out = io.StringIO()
    assert replay_plain(Replayer(finished.record()), out) == 0
    text = out.getvalue()
    assert text.startswith("Replay of a finished game: rules pagat, 3 players")
    assert "every card face up" in text
    assert "Seat 1 is dealt " in text
    assert "The game is over:" in text


def test_text_notation_records_are_accepted(tmp_path: Path, finished: Game) -> None:
    path = tmp_path / "game.txt"
    path.write_text(write_text(finished.record(), {"Event": "test"}))
    loaded = load_record(path)
    assert loaded.text_format and loaded.tags == {"Event": "test"}
    replayer = Replayer(loaded.record, tags=loaded.tags)
    assert replayer.steps == len(finished.actions)


def test_bad_record_files_are_refused(tmp_path: Path) -> None:
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(bad_json)
    bad_text = tmp_path / "bad.txt"
    bad_text.write_text('[Players "3"]\n[Seed "1"]\n\n0: fly away\n')
    with pytest.raises(RecordError, match="line 4"):
        load_record(bad_text)
    record = random_game(3, actions=10).record()
    record["actions"][3][1] = "play As"
    with pytest.raises(RecordError, match="action 4"):
        Replayer(record, seat=0)
    # JSON that is not a game record (a test's expectations, say) names what is missing
    with pytest.raises(RecordError, match=r"no 'players' field \(is this a chicago game"):
        Game.replay({"description": "expected results", "expected": {}})


def test_save_and_load_round_trip(tmp_path: Path, finished: Game) -> None:
    tags = {"Event": "chicago play", "Human": "0", "Name0": "You"}
    for name in ("game.json", "game.txt"):
        save_record(tmp_path / name, finished.record(), tags)
        loaded = load_record(tmp_path / name)
        assert loaded.tags == tags
        assert loaded.record["actions"] == finished.record()["actions"]
        assert loaded.text_format == name.endswith(".txt")
    assert json.loads((tmp_path / "game.json").read_text())["tags"] == tags


def test_replay_app_steps_with_keys(finished: Game) -> None:
    replayer = Replayer(finished.record(), tags={"Human": "0", "Name0": "You"})

    async def main() -> None:
        app = ReplayApp(replayer)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert f"Step 0 of {replayer.steps}" in screen_text(app)
            assert "every card face up" in screen_text(app)
            await pilot.press("right", "right", "l", "space")
            assert app.position == 4
            await pilot.press("left")
            assert app.position == 3
            await pilot.press("n")
            assert app.position == replayer.deal_starts[1]
            await pilot.press("p")
            assert app.position == 0
            await pilot.press("end")
            await pilot.pause()
            assert app.position == replayer.steps
            assert "The game is over" in screen_text(app)
            await pilot.press("question_mark")
            await pilot.pause()
            assert "Rules: pagat" in screen_text(app)
            await pilot.press("escape", "home")
            assert app.position == 0
            await pilot.press("q")

    asyncio.run(main())


def test_replay_app_of_a_seat_shows_no_hidden_card() -> None:
    """R-EX-3: stepping through one seat's view never puts another hand's card on screen."""
    game = random_game(9, actions=60)
    replayer = Replayer(game.record(), seat=0)

    async def main() -> None:
        app = ReplayApp(replayer)
        async with app.run_test(size=(120, 40)) as pilot:
            await _walk(app, pilot)

    async def _walk(app: ReplayApp, pilot: Pilot[None]) -> None:
        for position in range(0, replayer.steps + 1, 4):
            app.position = position
            app.action_move(0)
            await pilot.pause()
            hidden = hidden_cards(replayer.game_at(position), 0)
            text = screen_text(app)
            assert not leaked(text, hidden), (position, sorted(leaked(text, hidden)))

    asyncio.run(main())

"""External bots over stdin/stdout (chicago.bots.external, docs/BOT_PROTOCOL.md): whole
matches with a bot process, and bots that answer garbage, hang, crash or answer late, each
losing only its turn to the fallback bot while the game goes on."""

from __future__ import annotations

import json
import random
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

from chicago import Game, Rules
from chicago.bots import BOT_LEVELS, make_bot
from chicago.bots.external import ExternalBot, parse_spec
from chicago.cli import main
from chicago.sim import run_match

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "random_bot.py"
PYTHON = shlex.quote(sys.executable)
SHORT = Rules.preset("pagat", max_deals=1)


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{PYTHON} {shlex.quote(str(path))}"


def _play(bots, rules: Rules = SHORT, players: int | None = None, seed: int = 1) -> Game:
    """One whole game, each seat played by its bot through decide()."""
    game = Game(rules, players or len(bots), seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act
        legal = game.legal_actions()
        action = bots[seat].decide(game.view(seat), legal, rng)
        assert action in legal
        game.apply(action)
    for seat, bot in enumerate(bots):
        if hasattr(bot, "game_over"):
            bot.game_over(game.view(seat))
    return game


def test_parse_spec_options_and_errors():
    command, options = parse_spec("cmd:time_ms=200 fallback=random ./bot --level 3")
    assert command == ["./bot", "--level", "3"]
    assert options["time_ms"] == 200 and options["fallback"] == "random"
    assert parse_spec("cmd:python 'my bot.py'")[0] == ["python", "my bot.py"]
    for bad in ("cmd:", "cmd:time_ms=5", "basic", "cmd:time_ms=fast bot", "cmd:'open"):
        with pytest.raises(ValueError):
            parse_spec(bad)
    with pytest.raises(ValueError, match="cannot find the program"):
        make_bot("cmd:surely-not-a-program-xyz")


def test_cmd_is_a_bot_kind_but_not_a_level():
    bot = make_bot(f"cmd:{PYTHON} {EXAMPLE}")
    assert isinstance(bot, ExternalBot)
    assert "cmd" not in BOT_LEVELS
    bot.close()  # never started: nothing to stop


def test_example_bot_plays_whole_games_without_failures():
    """The example bot of docs/BOT_PROTOCOL.md: no lost turn; the same seeds give the same
    game (it draws from the seed chicago sends)."""
    games = []
    for _ in range(2):
        with ExternalBot(f"cmd:time_ms=5000 {PYTHON} {EXAMPLE}") as bot:
            game = _play([bot, make_bot("random"), make_bot("random")], seed=3)
            assert bot.failures == {"crash": 0, "timeout": 0, "illegal": 0}
            assert bot.decisions > 5
            games.append([e.to_json() for e in game.events])
    assert games[0] == games[1]


def test_match_with_an_external_bot_and_the_report(tmp_path):
    """A duplicate match (chicago.sim) with the example bot and one that answers garbage:
    the garbage bot loses every turn to its fallback and the report counts them."""
    garbage = _script(tmp_path, "garbage.py", """
        import sys
        for line in sys.stdin:
            if '"type":"act"' in line:
                print("no idea", flush=True)
    """)
    specs = [f"cmd:time_ms=5000 {PYTHON} {EXAMPLE}", f"cmd:time_ms=5000 {garbage}",
             "basic", "basic"]
    result = run_match(specs, 4, SHORT, seed=2)
    assert len(result.games) == 4
    example, answers_garbage = result.bots[0], result.bots[1]
    assert example.counters.get("bot_failures", 0) == 0
    assert answers_garbage.counters["bot_failures"] == answers_garbage.counters["decisions"] > 0
    assert result.bots[2].counters.get("bot_failures", 0) == 0


def test_garbage_answers_lose_the_turn(tmp_path):
    garbage = _script(tmp_path, "garbage.py", """
        import sys
        answers = ["", "play", "{not json", '{"action": 7}', "discard Zz", "announce royal"]
        n = 0
        for line in sys.stdin:
            if '"type":"act"' in line:
                print(answers[n % len(answers)], flush=True)
                n += 1
    """)
    with ExternalBot(f"cmd:time_ms=5000 fallback=random {garbage}") as bot:
        _play([bot, make_bot("random")])
        assert bot.failures["illegal"] == bot.decisions > 0
        assert bot.failures["crash"] == bot.failures["timeout"] == 0
        assert bot.last_error


def test_a_hanging_bot_times_out_and_the_game_goes_on(tmp_path):
    hang = _script(tmp_path, "hang.py", """
        import sys, time
        for line in sys.stdin:
            if '"type":"act"' in line:
                time.sleep(3600)
    """)
    with ExternalBot(f"cmd:time_ms=10 startup_ms=0 {hang}") as bot:
        game = _play([make_bot("random"), bot])
        assert game.is_over
        assert bot.failures["timeout"] == bot.decisions > 0
    assert bot._process is None  # closed: the sleeping program was killed


def test_a_crashing_bot_is_restarted_then_replaced(tmp_path):
    log = tmp_path / "starts.txt"
    crash = _script(tmp_path, "crash.py", f"""
        import sys
        with open({str(log)!r}, "a") as f:
            f.write("start\\n")
        for line in sys.stdin:
            if '"type":"act"' in line:
                sys.exit(3)
    """)
    with ExternalBot(f"cmd:restarts=2 {crash}") as bot:
        game = _play([bot, make_bot("random")])
        assert game.is_over
        assert bot.failures["crash"] == bot.decisions > 3
    assert log.read_text().count("start") == 3


def test_a_late_answer_is_thrown_away(tmp_path):
    """The answer to a question that timed out does not answer the next question. (The
    program sleeps 1.5 s on its first question: 0.5 s past its 1 s, then 0.5 s into the
    second question's 1 s, which it answers at once after the late answer.)"""
    late = _script(tmp_path, "late.py", """
        import json, sys, time
        first = True
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "act":
                if first:
                    time.sleep(1.5)
                    first = False
                print(message["legal"][-1], flush=True)
    """)
    with ExternalBot(f"cmd:time_ms=900 startup_ms=0 {late}") as bot:
        _play([bot, make_bot("random")])
        assert bot.failures == {"crash": 0, "timeout": 1, "illegal": 0}


def test_protocol_messages_in_order(tmp_path):
    """hello once per program, new_game before each game, act with view, legal, time_ms,
    seed and id, game_over at the end, bye when closed; JSON answers are accepted."""
    log = tmp_path / "messages.jsonl"
    recorder = _script(tmp_path, "recorder.py", f"""
        import json, sys
        with open({str(log)!r}, "a") as out:
            for line in sys.stdin:
                out.write(line)
                out.flush()
                message = json.loads(line)
                if message["type"] == "act":
                    answer = {{"id": message["id"], "action": message["legal"][0]}}
                    print(json.dumps(answer), flush=True)
    """)
    bot = ExternalBot(f"cmd:time_ms=5000 {recorder}")
    _play([bot, make_bot("random")], seed=1)
    _play([bot, make_bot("random")], seed=2)
    bot.close()
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds[0] == "hello" and kinds.count("hello") == 1
    assert messages[0]["protocol"] == 1
    assert kinds[1] == "new_game" and kinds.count("new_game") == 2
    assert kinds.count("game_over") == 2 and kinds[-1] == "bye"
    acts = [m for m in messages if m["type"] == "act"]
    assert len(acts) == bot.decisions and bot.failures["illegal"] == 0
    first = acts[0]
    assert set(first) >= {"view", "legal", "time_ms", "seed", "id"}
    assert first["time_ms"] == 5000 and first["view"]["seat"] == 0
    assert first["legal"] == first["view"]["legal_actions"]
    # every view is the seat's own view (Game.view(0)), never a spectator's or another's
    assert {m["view"]["seat"] for m in acts} == {0}
    over = next(m for m in messages if m["type"] == "game_over")
    assert over["view"]["over"] is True and over["view"]["seat"] == 0


def test_simulate_command_with_an_external_bot(capsys):
    spec = f"cmd:time_ms=5000 {PYTHON} {EXAMPLE}"
    code = main(["simulate", "--bots", f"{spec},basic", "--games", "2",
                 "--set", "max_deals=1", "--json", "--no-progress"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2
    assert data["bots"][0]["bot"] == spec
    assert data["bots"][0]["counters"].get("bot_failures", 0) == 0

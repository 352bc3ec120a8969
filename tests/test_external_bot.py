"""External bots over stdin/stdout (chicago.bots.external, docs/BOT_PROTOCOL.md): whole
matches with a bot process, and bots that answer garbage, hang, never read their input,
crash or answer late, each losing only its turn to the fallback bot while the game goes on
(and never for longer than its time)."""

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
EXAMPLE = ROOT / "src" / "chicago" / "examples" / "random_bot.py"
PYTHON = shlex.quote(sys.executable)
SHORT = Rules.preset("pagat", max_deals=1)
HOUR_MS = 3_600_000
"""The time a program is given when the test does not run it out: an hour, which no busy
machine uses up (a test that needs a turn lost to the clock calls ``ExternalBot.expire``)."""


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
        with ExternalBot(f"cmd:time_ms={HOUR_MS} {PYTHON} {EXAMPLE}") as bot:
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
    specs = [f"cmd:time_ms={HOUR_MS} {PYTHON} {EXAMPLE}", f"cmd:time_ms={HOUR_MS} {garbage}",
             "basic", "basic"]
    result = run_match(specs, 4, SHORT, seed=2)
    assert len(result.games) == 4
    example, answers_garbage = result.bots[0], result.bots[1]
    assert example.counters.get("bot_failures", 0) == 0
    assert answers_garbage.counters["bot_failures"] == answers_garbage.counters["decisions"] > 0
    assert result.bots[2].counters.get("bot_failures", 0) == 0
    data = result.to_dict()["bots"]
    assert data[0]["lost_turns"] == {"crash": 0, "timeout": 0, "illegal": 0}
    decisions = answers_garbage.counters["decisions"]
    assert data[1]["lost_turns"] == {"crash": 0, "timeout": 0, "illegal": decisions}


NEVER_READS = """
    import time
    time.sleep(3600)
"""
HANGS = """
    import sys, time
    for line in sys.stdin:
        if '"type":"act"' in line:
            time.sleep(3600)
"""
GARBAGE = """
    import sys
    for line in sys.stdin:
        if '"type":"act"' in line:
            print("garbage", flush=True)
"""


class _Expiring:
    """An external bot whose wait for an answer is run out (``ExternalBot.expire``) before
    each decision: the program's silence costs the test no time, while a write that does not
    fit into the pipe still waits for the decision's own deadline."""

    def __init__(self, bot: ExternalBot) -> None:
        self.bot = bot

    def decide(self, view, legal_actions, rng):
        self.bot.expire()
        return self.bot.decide(view, legal_actions, rng)


@pytest.mark.timeout(120)
def test_a_bot_that_never_reads_its_input_cannot_block_the_game(tmp_path):
    """A program that never reads fills the pipe to its input; the write that no longer
    fits is given up at the decision's deadline (a short one here: this is the test of that
    deadline), the program is killed and started again (once here), then the fallback plays
    on. The game ends (the test's timeout is the bound for a hang: no decision waits for the
    program without a limit). A start has a minute for its ``hello`` (a busy machine may be
    slow to write it); the wait for an answer that never comes is run out at once."""
    deaf = _script(tmp_path, "deaf.py", NEVER_READS)
    rules = Rules.preset("pagat", max_deals=6)
    with ExternalBot(f"cmd:time_ms=10 startup_ms=60000 restarts=1 {deaf}") as bot:
        game = Game(rules, 4, seed=1)
        rng = random.Random(1)
        bots = [_Expiring(bot), *(make_bot("basic") for _ in range(3))]
        while not game.is_over:
            seat = game.to_act
            game.apply(bots[seat].decide(game.view(seat), game.legal_actions(), rng))
        assert bot.failures["timeout"] > 0 and bot.failures["illegal"] == 0
        # it never ends by itself: only a write given up stops it, and it was started again
        assert bot.restarts_left == 0 and bot.failures["crash"] > 0
        assert sum(bot.failures.values()) == bot.decisions


@pytest.mark.timeout(180)
def test_a_match_with_deaf_hanging_and_garbage_bots_finishes(tmp_path):
    """A whole four-player match of several deals: one program never reads its input, one
    hangs at its first question, one answers garbage. Each loses its turns to the fallback,
    the report says why, and the match ends (the test's timeout is the bound for a hang;
    how long it takes is no test's business: each of the two silent programs times out at
    most (1 + restarts) pipes full of questions, a tenth of a second each)."""
    specs = [
        f"cmd:time_ms=10 startup_ms=0 restarts=1 {_script(tmp_path, 'deaf.py', NEVER_READS)}",
        f"cmd:time_ms=10 startup_ms=0 restarts=1 {_script(tmp_path, 'hang.py', HANGS)}",
        f"cmd:time_ms={HOUR_MS} {_script(tmp_path, 'garbage.py', GARBAGE)}",  # answers at once
        "basic",
    ]
    result = run_match(specs, 4, Rules.preset("pagat", max_deals=4), seed=3)
    assert len(result.games) == 4 and all(g.deals == 4 for g in result.games)
    deaf, hang, garbage, basic = (b.to_dict() for b in result.bots)
    for entry in (deaf, hang, garbage):
        assert sum(entry["lost_turns"].values()) == entry["counters"]["decisions"] > 0
    assert deaf["lost_turns"]["timeout"] > 0 and deaf["lost_turns"]["illegal"] == 0
    assert hang["lost_turns"]["timeout"] > 0 and hang["lost_turns"]["illegal"] == 0
    assert garbage["lost_turns"] == {"crash": 0, "timeout": 0,
                                     "illegal": garbage["counters"]["decisions"]}
    assert basic["lost_turns"] == {"crash": 0, "timeout": 0, "illegal": 0}


def test_a_line_too_long_is_an_illegal_answer(tmp_path):
    flood = _script(tmp_path, "flood.py", """
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "act":
                sys.stdout.write("x" * (3 << 20) + "\\n")
                print(message["legal"][0], flush=True)
    """)
    with ExternalBot(f"cmd:time_ms={HOUR_MS} fallback=random {flood}") as bot:
        view = Game(SHORT, 2, seed=1)
        action = bot.decide(view.view(view.to_act), view.legal_actions(), random.Random(1))
        assert action in view.legal_actions()
        assert bot.failures == {"crash": 0, "timeout": 0, "illegal": 1}
        assert "longer than" in (bot.last_error or "")


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
    with ExternalBot(f"cmd:time_ms={HOUR_MS} fallback=random {garbage}") as bot:
        _play([bot, make_bot("random")])
        assert bot.failures["illegal"] == bot.decisions > 0
        assert bot.failures["crash"] == bot.failures["timeout"] == 0
        assert bot.last_error


def test_a_hanging_bot_times_out_and_the_game_goes_on(tmp_path):
    """A program that reads every question and never answers loses each turn when its time
    runs out (10 ms here: this is the test of that deadline, and the program's silence makes
    any machine's speed give the same result). Its start has a minute for its ``hello`` (a
    busy machine may be slow to write it), and the first question, which has that minute
    too, is run out at once (``expire``)."""
    hang = _script(tmp_path, "hang.py", """
        import sys
        for line in sys.stdin:
            pass
    """)
    with ExternalBot(f"cmd:time_ms=10 startup_ms=60000 restarts=0 {hang}") as bot:
        bot.expire()
        game = _play([make_bot("random"), bot])
        assert game.is_over
        assert bot.failures["timeout"] == bot.decisions > 0
    assert bot._process is None  # closed: the silent program was stopped


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
    program answers its first question only once it has the second, which comes only after
    the first timed out: late whatever the machine's speed; then it answers the second at
    once. The first question's time is run out at once (``expire``), every other answer has
    an hour: before, the program slept 1.5 s against 0.9 s, and every answer had 0.9 s.)"""
    late = _script(tmp_path, "late.py", """
        import json, sys
        pending, first = None, True
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] != "act":
                continue
            if first:
                pending, first = message, False
                continue
            if pending is not None:
                print(pending["legal"][-1], flush=True)
                pending = None
            print(message["legal"][-1], flush=True)
    """)
    with ExternalBot(f"cmd:time_ms={HOUR_MS} {late}") as bot:
        bot.expire()  # the first question: its answer does not come until the second
        _play([bot, make_bot("random")])
        assert bot.failures == {"crash": 0, "timeout": 1, "illegal": 0}


def test_expire_runs_out_the_wait_under_way_from_another_thread(tmp_path):
    """``expire`` from another thread ends the wait for an answer under way (an hour here)
    when the program has said it was asked (a FIFO it writes to): a timeout, the fallback
    plays, and the program's answer to it, once it comes, is thrown away."""
    import os
    import threading

    asked = tmp_path / "asked"
    os.mkfifo(asked)
    silent = _script(tmp_path, "silent.py", f"""
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "act":
                with open({str(asked)!r}, "w") as fifo:
                    fifo.write("asked\\n")
    """)
    reader = os.open(asked, os.O_RDWR)  # never blocks the program's open, never at its end
    try:
        with ExternalBot(f"cmd:time_ms={HOUR_MS} fallback=random {silent}") as bot:
            game = Game(SHORT, 2, seed=1)

            def expire_when_asked() -> None:
                os.read(reader, 64)
                bot.expire()
            helper = threading.Thread(target=expire_when_asked, daemon=True)
            helper.start()
            action = bot.decide(game.view(game.to_act), game.legal_actions(), random.Random(1))
            helper.join()
            assert action in game.legal_actions()
            assert bot.failures == {"crash": 0, "timeout": 1, "illegal": 0}
            assert "no answer within" in (bot.last_error or "")
    finally:
        os.close(reader)


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
    bot = ExternalBot(f"cmd:time_ms={HOUR_MS} {recorder}")
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
    assert first["time_ms"] == HOUR_MS and first["view"]["seat"] == 0
    assert first["legal"] == first["view"]["legal_actions"]
    # every view is the seat's own view (Game.view(0)), never a spectator's or another's
    assert {m["view"]["seat"] for m in acts} == {0}
    over = next(m for m in messages if m["type"] == "game_over")
    assert over["view"]["over"] is True and over["view"]["seat"] == 0


def test_simulate_command_with_an_external_bot(capsys):
    spec = f"cmd:time_ms={HOUR_MS} {PYTHON} {EXAMPLE}"
    code = main(["simulate", "--bots", f"{spec},basic", "--games", "2",
                 "--set", "max_deals=1", "--json", "--no-progress"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2
    assert data["bots"][0]["bot"] == spec
    assert data["bots"][0]["counters"].get("bot_failures", 0) == 0


def test_simulate_table_stays_readable_with_a_long_cmd_spec(tmp_path, capsys, monkeypatch):
    """Output that is not a terminal is 80 columns wide: a long cmd: spec is shortened in
    the table and given in full under it, every number is printed whole, and the lost
    turns are given by cause."""
    import re

    monkeypatch.setenv("COLUMNS", "80")
    garbage = _script(tmp_path, "a_rather_long_name_for_a_garbage_bot.py", GARBAGE)
    spec = f"cmd:time_ms={HOUR_MS} startup_ms=5000 {garbage}"
    assert main(["simulate", "--bots", f"{spec},basic", "--games", "2", "--set", "max_deals=1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert len(re.findall(r"\d+\.\d% \(\d+%-\d+%\)", out)) == 2  # both win rates, whole
    assert f"= {spec}" in out.replace("\n", "")  # the full spec under the table
    rows = [line.rstrip() for line in lines if line.lstrip().startswith("cmd:") and "…" in line]
    decisions = re.search(r"\s0\s+0\s+(\d+)\s+(\d+)\s+(\d+)$", rows[-1])  # crash timeout …
    assert decisions is not None and len(set(decisions.groups())) == 1  # all illegal

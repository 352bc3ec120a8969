"""chicago simulate and chicago.sim: duplicate play, per-seat stock queues, statistics,
identical results for any --jobs, the JSON report, and a short match per bot level."""

from __future__ import annotations

import json
import shlex
import sys

import pytest

from chicago import Rules
from chicago.bots import make_bot, register_bot
from chicago.bots.base import RandomBot
from chicago.cli import main
from chicago.sim import (
    deal_deck,
    duplicate_game,
    play_game,
    run_match,
    split_specs,
    summarize,
    wilson_interval,
)

PAGAT = Rules.preset("pagat")


def test_split_specs_keeps_colons_and_options():
    assert split_specs("expert, basic,cmd:python bot.py --fast") == [
        "expert", "basic", "cmd:python bot.py --fast"]
    with pytest.raises(ValueError):
        split_specs("basic,,basic")


def test_specs_with_colons_reach_the_factory():
    seen: list[str] = []

    def factory(spec: str) -> RandomBot:
        seen.append(spec)
        return RandomBot()

    register_bot("echotest", factory, level=False)
    result = run_match(split_specs("basic,echotest:python my bot.py,basic"), 3,
                       Rules.preset("pagat", max_deals=2), seed=1)
    assert "echotest:python my bot.py" in seen
    assert [b.bot for b in result.bots] == ["basic", "echotest:python my bot.py", "basic"]


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_deal_decks_depend_on_seed_and_deal_only():
    assert deal_deck(5, 3) == deal_deck(5, 3)
    assert deal_deck(5, 3) != deal_deck(5, 4)
    assert sorted(deal_deck(1, 0)) == sorted(deal_deck(2, 0))


def _exchange_draws(own: str, other: str) -> list:
    """Seat 1's draws when seat 0 (first to act) discards ``other``-many cards."""
    game = duplicate_game(PAGAT, 4, seed=3, deck_seed=77)
    first = (game.dealer + 1) % 4
    drawn = {}
    while game.phase.value == "exchange" and game.round == 0:
        seat = game.to_act
        hand = sorted(game.hands[seat])
        count = int(other) if seat == first else int(own)
        before = set(hand)
        game.apply("discard " + " ".join(map(str, hand[:count])) if count else "keep")
        drawn[seat] = sorted(set(game.hands[seat]) - before)
    return [drawn[(first + i) % 4] for i in range(1, 4)]


def test_per_seat_queues_isolate_draws():
    """A seat's draws depend on its own discards, not on how many the others threw."""
    assert _exchange_draws("2", "0") == _exchange_draws("2", "4")
    assert _exchange_draws("3", "1") == _exchange_draws("3", "5")


def test_duplicate_game_deals_the_same_cards_in_every_rotation():
    a = duplicate_game(PAGAT, 4, seed=3, deck_seed=9)
    b = duplicate_game(PAGAT, 4, seed=3, deck_seed=9)
    assert a.hands == b.hands and a.dealer == b.dealer
    assert a.stock_count == 32


def test_rotations_put_each_bot_in_each_seat():
    bots = [make_bot("basic") for _ in range(4)]
    rules = Rules.preset("pagat", max_deals=1)
    results = [play_game(bots, rules, seed=4, rotation=r) for r in range(4)]
    assert sorted(tuple(r.seats) for r in results) == sorted(
        tuple((s - r) % 4 for s in range(4)) for r in range(4))
    # identical bots on identical cards: every rotation ends with the same seat scores
    by_seat = [[r.scores[r.seats[s]] for s in range(4)] for r in results]
    assert all(row == by_seat[0] for row in by_seat)


def test_mirror_match_is_symmetric():
    result = run_match(["basic"] * 4, 8, Rules.preset("pagat", max_deals=6), seed=2)
    wins = {b.wins for b in result.bots}
    assert len(wins) == 1
    assert sum(b.wins for b in result.bots) == pytest.approx(8)


def test_results_identical_for_any_jobs():
    rules = Rules.preset("pagat", max_deals=4)
    specs = ["ev", "basic", "random"]
    one = run_match(specs, 6, rules, seed=5, jobs=1)
    two = run_match(specs, 6, rules, seed=5, jobs=2)
    assert one.to_dict(times=False) == two.to_dict(times=False)
    assert one.digest == two.digest
    assert [g.to_dict() for g in one.games] == [g.to_dict() for g in two.games]


def test_a_match_from_a_later_set_continues_the_same_games():
    """``first_set``: sets 0-1 and then sets 2-3 of a seed are the games of one match of
    sets 0-3 (a long match measured in rounds, variant after variant on the same deals)."""
    rules = Rules.preset("pagat", max_deals=3)
    specs = ["ev", "basic", "basic"]
    whole = run_match(specs, 12, rules, seed=9, jobs=2)
    head = run_match(specs, 6, rules, seed=9)
    tail = run_match(specs, 6, rules, seed=9, jobs=2, first_set=2)
    assert [g.to_dict() for g in whole.games] == [
        g.to_dict() for g in (*head.games, *tail.games)]
    assert {g.set for g in tail.games} == {2, 3}
    with pytest.raises(ValueError, match="first_set"):
        run_match(specs, 3, rules, first_set=-1)


CRASH_ON_THIRD = """
import json, sys
n = 0
for line in sys.stdin:
    if json.loads(line)["type"] == "act":
        n += 1
        if n == 3:
            sys.exit(1)
        print(json.loads(line)["legal"][0], flush=True)
"""


@pytest.mark.timeout(300)
def test_results_identical_for_any_jobs_with_a_crashing_external_bot(tmp_path):
    """A bot's life is one set for any --jobs: a program that crashes at its third
    question, started again once, then replaced by its fallback, loses the same turns in
    every set whether the sets run one by one (--jobs 1) or several to a worker process
    (16 sets with --jobs 2 are 8 chunks of 2 sets)."""
    script = tmp_path / "crash3.py"
    script.write_text(CRASH_ON_THIRD, encoding="utf-8")
    specs = [f"cmd:restarts=1 time_ms=3600000 {shlex.quote(sys.executable)} {script}", "basic"]
    rules = Rules.preset("pagat", max_deals=1)
    one = run_match(specs, 32, rules, seed=4, jobs=1)
    two = run_match(specs, 32, rules, seed=4, jobs=2)
    assert [g.to_dict() for g in one.games] == [g.to_dict() for g in two.games]
    assert one.to_dict(times=False) == two.to_dict(times=False)
    assert one.digest == two.digest
    # every set: 2 answers, a crash, 2 answers after the restart, a crash, then fallback
    per_set = [sum(g.counters[0]["lost_crash"] for g in one.games if g.set == s)
               for s in range(16)]
    decisions = [sum(g.counters[0]["decisions"] for g in one.games if g.set == s)
                 for s in range(16)]
    assert per_set == [d - 4 for d in decisions]


def test_summary_counts_and_ratings():
    rules = Rules.preset("pagat", max_deals=5)
    result = run_match(["basic", "random"], 4, rules, seed=1)
    assert len(result.games) == 4
    totals = summarize(result.specs, result.games)
    assert totals[0].games == 4
    for bot in totals:
        assert bot.counters["decisions"] > 0 and bot.counters["illegal"] == 0
        assert 0 <= bot.ci95[0] <= bot.win_rate <= bot.ci95[1] <= 1
    assert totals[0].rating > totals[1].rating


def test_errors():
    with pytest.raises(ValueError, match="unknown bot"):
        run_match(["basic", "nobot"], 2)
    with pytest.raises(ValueError, match="players"):
        run_match(["basic"] * 5, 2)
    with pytest.raises(ValueError):
        run_match(["basic"] * 2, 0)


@pytest.mark.parametrize(("specs", "games", "message"), [
    (["basic", "nobot"], 2, "unknown bot"),
    (["basic"] * 5, 2, "allow 2-4 players"),
    (["basic"], 2, "1 bots given"),
    (["basic"] * 2, 0, "games must be at least 1"),
])
def test_a_match_on_a_cluster_is_refused_as_a_local_one(specs, games, message):
    """The local match and the cluster's refuse the same bad arguments with the same words
    (one check, :func:`chicago.sim.check_match`), before any cluster is asked for."""
    from chicago.cluster import run_match_on_cluster
    from chicago.sim import check_match

    rules = Rules.preset("pagat")
    for run in (lambda: run_match(specs, games, rules),
                lambda: run_match_on_cluster(specs, games, rules, address="nowhere:1"),
                lambda: check_match(specs, games, rules)):
        with pytest.raises(ValueError, match=message):
            run()


def test_a_checked_match_defaults_to_pagat():
    from chicago.sim import check_match

    specs, rules = check_match(("basic", "random", "basic"), 1, None)
    assert specs == ["basic", "random", "basic"]
    assert rules == Rules.preset("pagat")


def test_cli_json_report(capsys):
    code = main(["simulate", "--bots", "basic,random,random", "--games", "3",
                 "--set", "max_deals=3", "--seed", "2", "--json", "--no-progress"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 3
    assert [b["bot"] for b in data["bots"]] == ["basic", "random", "random"]
    for entry in data["bots"]:
        for key in ("wins", "win_rate", "ci95", "points_per_deal", "chicago_calls",
                    "chicago_made", "rating"):
            assert key in entry
        assert len(entry["ci95"]) == 2
        # CPU time per decision, by phase (issue 30): every phase the bot acted in
        times = entry["decision_times"]
        assert {"exchange", "announce", "play"} <= set(times)
        for phase in times.values():
            assert phase["decisions"] > 0
            assert 0 <= phase["median_ms"] <= phase["p99_ms"] <= phase["max_ms"]
        assert sum(int(p["decisions"]) for p in times.values()) == entry["counters"][
            "decisions"]
    assert len(data["digest"]) == 16


def test_cli_table_and_errors(capsys):
    assert main(["simulate", "--bots", "basic,random", "--games", "2", "--set",
                 "max_deals=2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "basic" in out and "random" in out
    assert main(["simulate", "--bots", "basic,wizard", "--no-progress"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["simulate", "--bots", "basic", "--no-progress"]) == 2
    assert main(["simulate", "--bots", "basic,basic", "--games", "0", "--no-progress"]) == 2


@pytest.mark.parametrize(
    ("specs", "games"),
    [
        (["basic", "random", "random", "random"], 8),
        (["ev", "basic", "basic", "basic"], 4),
        (["expert:samples=8", "ev", "ev", "ev"], 4),
    ],
)
def test_short_match_per_level(specs, games):
    """A short duplicate match per level plays to the end with legal moves only."""
    result = run_match(specs, games, Rules.preset("pagat", max_deals=8), seed=3)
    assert len(result.games) == games
    assert all(b.counters["illegal"] == 0 for b in result.bots)
    if specs[1] == "random":
        assert result.bots[0].wins >= 6  # basic beats random nearly always


def test_play_game_is_deterministic():
    bots = [make_bot("ev"), make_bot("basic"), make_bot("random")]
    rules = Rules.preset("pagat", max_deals=3)
    a = play_game(bots, rules, seed=8, set_index=1, rotation=2)
    b = play_game(bots, rules, seed=8, set_index=1, rotation=2)
    assert a.to_dict() == b.to_dict()

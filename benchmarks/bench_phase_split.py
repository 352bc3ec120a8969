"""Where a bot's points come from, phase by phase, against the same others.

Plays duplicate games (``chicago.sim.play_game``: the same deals as ``chicago simulate``
with the same seed) with the bot in one seat and ``--others`` in the rest, and splits
every seat's points per deal by their source (the engine's ``Score`` reasons: the
scoring rounds, the final showdown, the last trick, a Chicago made or failed), with the
Chicago calls and the games' end (how far the bot was from the winner when it lost).

    python benchmarks/bench_phase_split.py --bot master --others basic --games 40 \\
        [--first-game 0] [--preset pagat] [--seed 2026] [--json out]

Game ``g`` is set ``g // players``, rotation ``g % players``, as ``bench_disagreements``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from typing import Any

from chicago import Rules
from chicago.bots.base import make_bot
from chicago.engine.events import ChicagoCall, ChicagoResult, Deal, DealEnd, Score
from chicago.sim import _derive, duplicate_game


def play(bot: str, others: str, rules: Rules, seed: int, game_index: int,
         players: int) -> dict[str, Any]:
    """One game; per seat, points by reason; the bot's seat; the final scores."""
    set_index, rotation = divmod(game_index, players)
    specs = [bot] + [others] * (players - 1)
    bots = [make_bot(s) for s in specs]
    game = duplicate_game(rules, players, seed=_derive(seed, set_index, 1),
                          deck_seed=_derive(seed, set_index, 2))
    seats = [(seat - rotation) % players for seat in range(players)]
    rngs = [random.Random(_derive(seed, set_index, 3, i)) for i in range(players)]
    # CPU seconds of each seat's decisions, by phase: [count, total, max]
    times: list[dict[str, list[float]]] = [{} for _ in range(players)]
    while not game.is_over and game.deal_number <= 60:
        seat = game.to_act
        assert seat is not None
        index = seats[seat]
        phase = str(game.phase)
        view, legal = game.view(seat), game.legal_actions()
        start = time.process_time()
        action = bots[index].decide(view, legal, rngs[index])
        spent = time.process_time() - start
        row = times[seat].setdefault(phase, [0, 0.0, 0.0])
        row[0] += 1
        row[1] += spent
        row[2] = max(row[2], spent)
        game.apply(action)
    me = seats.index(0)
    by_reason: list[dict[str, int]] = [defaultdict(int) for _ in range(players)]
    calls = [0] * players
    made = [0] * players
    locked = [0] * players
    deals = 0
    starts: list[list[int]] = []  # every seat's score at each deal's start
    for event in game.events:
        if isinstance(event, Score):
            reason = event.reason
            if reason.startswith("scoring round"):
                reason = "round " + reason.split()[-1]
            by_reason[event.seat][reason] += event.points
        elif isinstance(event, ChicagoCall) and event.declared:
            calls[event.seat] += 1
        elif isinstance(event, ChicagoResult) and event.made:
            made[event.seat] += 1
        elif isinstance(event, Deal):
            starts.append(list(event.scores))
            for i, flag in enumerate(event.locked):
                locked[i] += int(flag)
        elif isinstance(event, DealEnd):
            deals += 1
    return {"game": game_index, "me": me, "deals": deals, "scores": list(game.scores),
            "winners": list(game.winners), "reasons": [dict(r) for r in by_reason],
            "calls": calls, "made": made,
            "locked": locked, "starts": starts, "times": times}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="master")
    parser.add_argument("--others", default="basic")
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    rules = Rules.preset(args.preset)
    records = []
    for g in range(args.first_game, args.first_game + args.games):
        records.append(play(args.bot, args.others, rules, args.seed, g, args.players))
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(records, fh)
        report(records)
    return 0


def report(records: list[dict[str, Any]]) -> None:
    """Per source, points per deal of the bot's seat and of an average other seat."""
    deals = sum(r["deals"] for r in records)
    reasons = sorted({k for r in records for seat in r["reasons"] for k in seat})
    print(f"games {len(records)} deals {deals}")
    for reason in reasons:
        mine = [r["reasons"][r["me"]].get(reason, 0) for r in records]
        theirs = [sum(s.get(reason, 0) for i, s in enumerate(r["reasons"]) if i != r["me"])
                  / (len(r["reasons"]) - 1) for r in records]
        diff = [(a - b) for a, b in zip(mine, theirs, strict=True)]
        n = len(records)
        mean = sum(diff) / deals
        per_game = [d for d in diff]
        m = sum(per_game) / n
        se = math.sqrt(sum((x - m) ** 2 for x in per_game) / max(1, n - 1) / n) * n / deals
        print(f"  {reason:32s} bot {sum(mine)/deals:6.3f}  other {sum(theirs)/deals:6.3f}"
              f"  diff {mean:+.3f} ± {se:.3f}")
    n_others = len(records[0]["scores"]) - 1
    for key in ("calls", "made", "locked"):
        if key in records[0]:
            mine_k = sum(r[key][r["me"]] for r in records)
            theirs_k = sum(sum(r[key]) - r[key][r["me"]] for r in records) / n_others
            print(f"  {key:32s} bot {mine_k:6d}  other seat {theirs_k:8.1f}")
    if "times" in records[0]:
        phases = sorted({p for r in records for seat in r["times"] for p in seat})
        for phase in phases:
            cells = []
            for mine_side in (True, False):
                count = total = worst = 0.0
                for r in records:
                    for i, seat in enumerate(r["times"]):
                        if (i == r["me"]) == mine_side and phase in seat:
                            count += seat[phase][0]
                            total += seat[phase][1]
                            worst = max(worst, seat[phase][2])
                if not mine_side:
                    count /= n_others
                    total /= n_others
                cells.append(f"{count:7.0f} dec {1000 * total / max(1, count):7.1f} ms "
                             f"max {worst:5.2f} s")
            print(f"  time {phase:12s} bot {cells[0]} | other {cells[1]}")
    losses = [max(r["scores"]) - r["scores"][r["me"]] for r in records
              if r["me"] not in r["winners"]]
    if losses:
        print(f"  lost games {len(losses)}: mean gap to the winner {sum(losses)/len(losses):.1f}")
    wins = sum(1 / len(r["winners"]) for r in records if r["me"] in r["winners"])
    print(f"  wins {wins:.1f}/{len(records)}", flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    raise SystemExit(main())

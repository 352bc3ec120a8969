"""How often a Chicago is made against ``basic``'s real defence at ``master``'s Chicago
calls, beside the share of "sure against any defence" the call uses (issue 30).

Plays games of ``--bot`` (``master``) in one seat (seat ``game % 4``) against three
``--others`` (``basic``), pagat, duplicate deals of ``--seed``. At each of the bot's
Chicago-call decisions it records:

- ``sure``: the share of sampled deals in which the Chicago is sure against any defence
  (the expert's call, :meth:`~chicago.bots.expert.ExpertBot._chicago_shares`, same seed);
- ``rules``: ``master:rulescall=1``'s share of sampled deals in which it is made against the
  rules defence, when its call applies (every opponent a rules player by the view);
- the two bots' calls;
- from the *true* position (a benchmark may read the game; the bots never do), with a
  Chicago declared: whether ``master`` (today's declared-Chicago play) and ``master:
  rulescall=1`` (play against the rules defence) make it, the others played by ``--others``,
  and whether the true hands allow one against any defence (the solver) and against the
  rules defence (:func:`~chicago.bots.rulesdefence.rules_chicago_made`).

It prints these by bands of ``sure`` and of ``rules``, and what calling by each bar would
have scored (made: the Chicago's points; failed: minus them) against not calling.

    python benchmarks/bench_rules_call.py [--games 10] [--first-game 0] [--seed 2026]
        [--bot master] [--rules master:rulescall=1] [--others basic] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from chicago import Rules
from chicago.bots.base import Bot, make_bot
from chicago.bots.master import MasterBot
from chicago.bots.rulesdefence import rules_chicago_made
from chicago.bots.solver import Position, can_make_chicago
from chicago.cards import mask_of
from chicago.engine.actions import Action, ActionKind
from chicago.engine.game import Game
from chicago.engine.knowledge import knowledge
from chicago.engine.sources import copy_random
from chicago.sim import derive_seed, duplicate_game

_DEAL_CAP = 60


def _made(game: Game, call: Action, player: Bot, others: str, seat: int, seed: int,
          times: list[float] | None = None) -> bool:
    """Declare on a copy of ``game`` and play the deal out, ``seat`` by ``player``, the
    others by ``others``: whether the Chicago was made. ``times`` gets the CPU time of each
    of ``seat``'s plays with a choice."""
    copy = game.copy()
    deal = copy.deal_number
    bots = [player if s == seat else make_bot(others) for s in range(copy.players)]
    rngs = [random.Random(derive_seed(seed, s)) for s in range(copy.players)]
    copy.apply(call)
    while not copy.is_over and copy.deal_number == deal:
        to_act = copy.to_act
        assert to_act is not None
        legal = copy.legal_actions()
        start = time.process_time()
        choice = bots[to_act].decide(copy.view(to_act), legal, rngs[to_act])
        if times is not None and to_act == seat and len(legal) > 1:
            times.append(time.process_time() - start)
        copy.apply(choice)
    record = next(r for r in copy.view(seat).history if r.deal == deal)
    return len(record.tricks) == 5 and all(t.winner == seat for t in record.tricks)


def _one_game(args: argparse.Namespace, index: int) -> list[dict[str, Any]]:
    rules = Rules.preset("pagat")
    players = 4
    game = duplicate_game(rules, players, seed=derive_seed(args.seed, index, 1),
                          deck_seed=derive_seed(args.seed, index // players, 2))
    seat = index % players
    bots: list[Bot] = [make_bot(args.bot if s == seat else args.others) for s in range(players)]
    shadow = make_bot(args.rules)
    assert isinstance(shadow, MasterBot) and isinstance(bots[seat], MasterBot)
    rngs = [random.Random(derive_seed(args.seed, index, 3, s)) for s in range(players)]
    rows: list[dict[str, Any]] = []
    while not game.is_over and game.deal_number <= _DEAL_CAP:
        to_act = game.to_act
        assert to_act is not None
        legal = game.legal_actions()
        view = game.view(to_act)
        call = next((a for a in legal if a.kind is ActionKind.CHICAGO), None)
        if to_act == seat and call is not None and len(legal) > 1:
            k = knowledge(view)
            sure, _ = bots[seat]._chicago_shares(k, copy_random(rngs[seat]))
            start = time.process_time()
            other = shadow.decide(view, legal, copy_random(rngs[seat]))
            call_cpu = time.process_time() - start
            plays: list[float] = []
            chosen = bots[seat].decide(view, legal, rngs[seat])
            hands = tuple(mask_of(hand) for hand in game.hands)
            leader = seat if rules.chicago_caller_leads else k.leader
            true = Position(hands, leader, (), seat)
            play_seed = derive_seed(args.seed, index, game.deal_number, 7)
            rows.append({
                "game": index, "deal": game.deal_number, "sure": sure, "rules": shadow.note,
                "call": chosen.kind is ActionKind.CHICAGO,
                "rules_call": other.kind is ActionKind.CHICAGO,
                "made": _made(game, call, make_bot(args.bot), args.others, seat, play_seed),
                "rules_made": _made(game, call, make_bot(args.rules), args.others, seat,
                                    play_seed, plays),
                "call_cpu": call_cpu, "play_cpu": plays,
                "true_sure": can_make_chicago(true, seat),
                "true_rules": rules_chicago_made(true, seat),
                "points": rules.chicago_points,
            })
            game.apply(chosen)
            continue
        game.apply(bots[to_act].decide(view, legal, rngs[to_act]))
    return rows


def report(rows: list[dict[str, Any]]) -> list[str]:
    """The table by bands of the sure share and of the rules share."""
    out = [f"{len(rows)} call decisions; by band: decisions, made by master's play / by "
           "rulescall's play, true hands sure / made against the rules"]
    for key in ("sure", "rules"):
        out.append(f"  by {key} share:")
        bands = [(0.0, 0.25), (0.25, 0.5), (0.5, 0.6), (0.6, 0.75), (0.75, 0.9), (0.9, 1.01)]
        for low, high in bands:
            band = [r for r in rows if r[key] is not None and low <= r[key] < high]
            if not band:
                continue
            out.append(
                f"    {low:.2f}-{min(high, 1):.2f}: {len(band):4d}  made "
                f"{sum(r['made'] for r in band):4d} / {sum(r['rules_made'] for r in band):4d}  "
                f"true {sum(r['true_sure'] for r in band):4d} / "
                f"{sum(r['true_rules'] for r in band):4d}")
    for name, flag, made in (("master", "call", "made"), ("rulescall", "rules_call",
                                                          "rules_made")):
        called = [r for r in rows if r[flag]]
        got = sum(r[made] for r in called)
        out.append(f"  {name}: declared {len(called)}, made {got} (its own play)")
    calls = sorted(r["call_cpu"] for r in rows if "call_cpu" in r and r["rules"] is not None)
    plays = sorted(t for r in rows if r["rules"] is not None for t in r.get("play_cpu", []))
    for name, values in (("call", calls), ("declared play", plays)):
        if values:
            out.append(f"  rulescall CPU per {name} decision (where it applies, {len(values)}):"
                       f" median {1000 * values[len(values) // 2]:.1f} ms, p99 "
                       f"{1000 * values[min(len(values) - 1, int(0.99 * len(values)))]:.1f}"
                       f" ms, max {1000 * values[-1]:.1f} ms")
    for bar in (0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9):
        called = [r for r in rows if r["rules"] is not None and r["rules"] >= bar]
        won = sum(r["points"] if r["rules_made"] else -r["points"] for r in called)
        out.append(f"  rules share >= {bar:.2f}: {len(called)} calls, "
                   f"{sum(r['rules_made'] for r in called)} made, {won:+d} Chicago points")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="master")
    parser.add_argument("--rules", default="master:rulescall=1")
    parser.add_argument("--others", default="basic")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for index in range(args.first_game, args.first_game + args.games):
        rows += _one_game(args, index)
        print(f"-- game {index + 1 - args.first_game}/{args.games}: {len(rows)} calls",
              file=sys.stderr)
        if args.json:
            with open(args.json, "w") as handle:
                json.dump(rows, handle)
    print("\n".join(report(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

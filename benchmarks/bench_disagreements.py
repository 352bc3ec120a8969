"""Where ``master`` decides unlike ``expert``, which choice is better: a decision-level oracle.

Game outcomes are too noisy to compare two close bots on a few hundred games (a difference
of 0.1 point per deal needs many hundreds). This tool measures decisions instead. It plays
games of a bot (``master`` by default) against three ``expert``; at each of the bot's
decisions it also asks an ``expert`` (same options for the shared ones, a copy of the same
random state) what it would do in the same view. Where the two differ, both choices are
played out from the real position to the end of the deal ``--rollouts`` times, every seat
then played by ``--oracle`` (an ``expert`` by default), with common random numbers: the
n-th play-out of each choice uses the same bot seeds and the same new order of the stock
(:func:`chicago.engine.worlds.restock`: the cards nobody has seen, in the game's per-seat
queues), so the two play-outs differ only by the choice and what follows from it, and an
exchange is valued over many draws, not the one the game happened to deal.

The play-outs start from the *real* hands, not from hands sampled from the seat's view:
for a single decision that is hindsight, but the real hands are a draw from the true
distribution of what the seat cannot see (real opponents' hands, which no sampler models
exactly), so the mean difference over many decisions is an unbiased estimate of what the
bot's rule gains or loses per decision against ``expert``'s — with no model of the
opponents' hands in the oracle to favour one bot's sampler over the other's.

A choice's value is what the deal brings: points (the seat's gain less the others'
average) and the chance to win the game from the scores the deal ends with
(:mod:`chicago.bots.race`, pagat's target and lock). Per phase (exchange, one up,
announce, chicago, play …) it prints the decisions, how many differed, the mean difference
``bot − expert`` per differing decision with its standard error, how often the bot's choice
was better or worse, and the difference per deal (summed over the phase's differing
decisions, divided by the deals the bot played): what the phase's search is worth per deal.

    python benchmarks/bench_disagreements.py [--bot master] [--shadow expert] [--games 4]
        [--first-game 0] [--rollouts 8] [--oracle expert:samples=20] [--preset pagat]
        [--seed 2026] [--jobs 1] [--seats 1] [--others SPEC] [--json out.json]
        [--phases exchange,play] [--noted] [--locked self|opponent|any]

``--shadow`` is the bot asked beside (by default ``expert`` with the bot's ``samples``,
``chicago``, ``model`` and ``contested``), so any two bots can be compared: ``--bot expert
--shadow ev`` checks the tool on a gap the matches know. A run stopped at any time has its
whole games in ``--json``; ``report()`` prints the table again from them. ``--seats 4`` puts
the bot in every seat (each seat's decisions compared with the shadow's in its own view):
four times the decisions per game, for phases such as the trick play where few differ.
``--others basic`` seats ``basic`` where the bot is not, in the game and in the play-outs
(the bot's own seat is played out by ``--oracle``): what a choice is worth at that table.
``--locked self`` counts and compares only the decisions of deals the deciding seat began
locked (R-EX-5: at the lock, no exchanges), ``--locked opponent`` those where an opponent
did, ``--locked any`` either; each disagreement records who was locked (``lock``).
``--played-by expert`` plays the bot's seats by ``expert`` and only asks the bot and the
shadow: two variants of ``master`` compared on the states experts reach, at an expert's cost.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from chicago import Rules
from chicago.bots.base import Bot, make_bot
from chicago.bots.race import Race, race_for
from chicago.engine.actions import Action
from chicago.engine.game import Game
from chicago.engine.sources import copy_random
from chicago.engine.worlds import restock
from chicago.sim import derive_seed, duplicate_game

_DEAL_CAP = 60


@dataclass
class Disagreement:
    """One decision where the bot and the expert chose differently, valued by the oracle."""

    game: int
    deal: int
    phase: str
    bot: str
    expert: str
    points: list[float] = field(default_factory=list)
    """Per play-out: the bot's choice's deal points (seat less others' mean) less the
    expert's choice's."""
    chance: list[float] = field(default_factory=list)
    """Per play-out: the same for the chance to win the game (race model)."""
    note: float | None = None
    """What the bot's search measured (``MasterBot.note``: an exchange search's margin in
    standard errors, an announcement's gain less ``hide``), to choose thresholds."""
    lock: str | None = None
    """With ``--locked``: who began the deal locked (R-EX-5), seen from the deciding seat:
    ``"self"``, ``"opponent"``, ``"both"`` (itself and an opponent) or ``"none"``."""


def _play_out(game: Game, action: Action, oracle: str, seed: int, seat: int,
              race: Race, others: str | None = None) -> tuple[float, float]:
    """Apply ``action`` to a copy of ``game`` and play to the end of its deal with every
    seat by ``oracle`` (seeded by ``seed``), or with ``others`` given, ``seat`` by
    ``oracle`` and the other seats by ``others``; (points, chance) for ``seat``."""
    copy = game.copy()
    start = list(game.scores)
    deal = copy.deal_number
    bots = [make_bot(oracle if others is None or s == seat else others)
            for s in range(copy.players)]
    rngs = [random.Random(derive_seed(seed, s)) for s in range(copy.players)]
    copy.apply(action)
    while not copy.is_over and copy.deal_number == deal:
        to_act = copy.to_act
        assert to_act is not None
        legal = copy.legal_actions()
        choice = bots[to_act].decide(copy.view(to_act), legal, rngs[to_act])
        copy.apply(choice)
    gains = [end - begin for end, begin in zip(copy.scores, start, strict=True)]
    mine = gains[seat]
    others = (sum(gains) - mine) / max(1, copy.players - 1)
    return mine - others, race.win_chance(list(copy.scores), seat)


def _one_game(task: tuple[Any, ...]) -> dict[str, Any]:
    """Game ``index`` of ``bot`` (in seat ``index % 4`` and the next ``seats - 1``) against
    experts (or ``others``), with its disagreements with ``shadow`` valued (runs in a
    worker). ``task``: (bot, shadow, oracle, rules, seed, index, rollouts, seats[, others[,
    phases[, noted[, locked[, played_by]]]]])."""
    bot_spec, shadow_spec, oracle, rules_data, seed, index, rollouts, seats = task[:8]
    others: str | None = task[8] if len(task) > 8 else None
    asked: tuple[str, ...] = tuple(task[9]) if len(task) > 9 and task[9] else ()
    noted = bool(task[10]) if len(task) > 10 else False
    locked: str | None = task[11] if len(task) > 11 else None
    played_by: str | None = task[12] if len(task) > 12 else None
    rules = Rules.from_dict(rules_data)
    players = 4
    game = duplicate_game(rules, players, seed=derive_seed(seed, index, 1),
                          deck_seed=derive_seed(seed, index // players, 2))
    mine = {(index + s) % players for s in range(seats)}
    bots: list[Bot] = [make_bot(bot_spec if s in mine else others or "expert")
                       for s in range(players)]
    shadow = make_bot(shadow_spec)
    # --played-by: the bot's seats play the game by this bot; the bot is only asked
    player: Bot | None = make_bot(played_by) if played_by is not None else None
    rngs = [random.Random(derive_seed(seed, index, 3, s)) for s in range(players)]
    race = race_for(rules.target, rules.lock_at)
    decisions: dict[str, int] = {}
    found: list[Disagreement] = []
    scoped: dict[tuple[int, int], str] = {}
    while not game.is_over and game.deal_number <= _DEAL_CAP:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        view = game.view(seat)
        if seat not in mine:
            game.apply(bots[seat].decide(view, legal, rngs[seat]))
            continue
        phase = str(view.phase)
        if phase in ("exchange", "announce"):
            phase = f"{phase} {view.round}"
        in_scope = in_lock_scope(view.locked, seat, locked)
        if in_scope:
            decisions[phase] = decisions.get(phase, 0) + 1
            scoped[(seat, game.deal_number)] = lock_state(view.locked, seat)
        mirror = copy_random(rngs[seat])
        measured = in_scope and len(legal) > 1 and (not asked or phase.startswith(asked))
        if player is None:
            chosen = played = bots[seat].decide(view, legal, rngs[seat])
        else:
            played = player.decide(view, legal, rngs[seat])
            chosen = (bots[seat].decide(view, legal, copy_random(mirror)) if measured
                      else played)
        if measured and (
                not noted or getattr(bots[seat], "note", None) is not None):
            other = shadow.decide(view, legal, mirror)
            if other != chosen:
                note = getattr(bots[seat], "note", None)
                case = Disagreement(index, game.deal_number, phase, str(chosen), str(other),
                                    note=None if note is None else min(note, 1e9),
                                    lock=None if locked is None
                                    else lock_state(view.locked, seat))
                for r in range(rollouts):
                    play_seed = derive_seed(seed, index, game.deal_number, len(found), r)
                    world = restock(game, random.Random(play_seed))
                    ours = _play_out(world, chosen, oracle, play_seed, seat, race, others)
                    theirs = _play_out(world, other, oracle, play_seed, seat, race, others)
                    case.points.append(ours[0] - theirs[0])
                    case.chance.append(ours[1] - theirs[1])
                found.append(case)
        game.apply(played)
    # deals the bot played: one per seat it took
    out: dict[str, Any] = {"game": index, "deals": game.deal_number * seats,
                           "decisions": decisions,
                           "disagreements": [asdict(d) for d in found]}
    if locked is not None:
        out["locked"] = locked
        out["scoped_deals"] = len(scoped)
        states = list(scoped.values())
        out["lock_deals"] = {state: states.count(state) for state in sorted(set(states))}
    return out


LOCK_SCOPES = ("self", "opponent", "any")
"""The values of ``--locked``: the deciding seat began the deal locked (R-EX-5), an
opponent of it did, or any seat did."""


def lock_state(locked: Sequence[bool], seat: int) -> str:
    """Who began the deal locked (R-EX-5) from ``seat``'s side: ``"self"``, ``"opponent"``,
    ``"both"`` or ``"none"``."""
    mine = bool(locked[seat])
    theirs = any(flag for s, flag in enumerate(locked) if s != seat)
    return {(True, True): "both", (True, False): "self", (False, True): "opponent",
            (False, False): "none"}[(mine, theirs)]


def in_lock_scope(locked: Sequence[bool], seat: int, scope: str | None) -> bool:
    """Whether a decision of ``seat`` is measured under ``--locked scope``, given who began
    the deal locked (R-EX-5; the view's ``locked``). ``None``: every decision."""
    if scope is None:
        return True
    if scope == "self":
        return bool(locked[seat])
    if scope == "opponent":
        return any(flag for s, flag in enumerate(locked) if s != seat)
    if scope == "any":
        return any(locked)
    raise ValueError(f"--locked must be one of {', '.join(LOCK_SCOPES)}, not {scope!r}")


def _expert_of(spec: str) -> str:
    """The expert with the options of ``spec`` that the expert has (samples, chicago …)."""
    shared = ("samples", "chicago", "model", "contested")
    _, _, rest = spec.partition(":")
    kept = [part for part in rest.replace(",", ";").split(";")
            if part.split("=", 1)[0].strip() in shared]
    return "expert" + (":" + ";".join(kept) if kept else "")


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(var / len(values))


def report(results: Sequence[dict[str, Any]]) -> list[str]:
    """The table by phase: decisions, disagreements, mean difference per disagreement
    (points, chance to win in percentage points), better/worse counts, per deal."""
    deals = sum(r["deals"] for r in results)
    decisions: dict[str, int] = {}
    cases: dict[str, list[dict[str, Any]]] = {}
    for result in results:
        for phase, count in result["decisions"].items():
            decisions[phase] = decisions.get(phase, 0) + count
        for case in result["disagreements"]:
            cases.setdefault(case["phase"], []).append(case)
    lines = [f"{len(results)} games, {deals} deals; per phase: decisions, differing, "
             "mean bot-expert per differing decision (points; win chance in % points) "
             "± SE, better/worse (by points), per deal (points; % points)"]
    everything: list[float] = []
    chances: list[float] = []
    for phase in sorted(decisions):
        own = cases.get(phase, [])
        points = [sum(c["points"]) / len(c["points"]) for c in own if c["points"]]
        chance = [100 * sum(c["chance"]) / len(c["chance"]) for c in own if c["chance"]]
        everything += points
        chances += chance
        p, p_se = _mean_se(points)
        w, w_se = _mean_se(chance)
        better = sum(1 for v in points if v > 1e-9)
        worse = sum(1 for v in points if v < -1e-9)
        lines.append(
            f"  {phase:13s} {decisions[phase]:6d} {len(own):5d}  "
            f"{p:+.3f} ± {p_se:.3f} pts  {w:+.3f} ± {w_se:.3f} %  "
            f"{better:4d}/{worse:<4d}  per deal {sum(points) / max(1, deals):+.4f} pts "
            f"{sum(chance) / max(1, deals):+.4f} %")
    lines += _thresholds(cases, deals)
    lock_deals: dict[str, int] = {}
    for result in results:
        for state, count in result.get("lock_deals", {}).items():
            lock_deals[state] = lock_deals.get(state, 0) + count
    lines += _by_lock(cases, lock_deals)
    if any("scoped_deals" in r for r in results):
        scoped = sum(r.get("scoped_deals", 0) for r in results)
        scopes = sorted({str(r.get("locked")) for r in results if "locked" in r})
        lines.append(f"  --locked {','.join(scopes)}: {scoped} seat-deals in scope, per such "
                     f"deal {_per_unit(everything, chances, scoped)}")
    lines.append(f"  all: {len(everything)} differing, per deal "
                 f"{_per_unit(everything, chances, deals)}")
    return lines


def _per_unit(points: list[float], chances: list[float], units: int) -> str:
    """The differing decisions' points and win chance (one value per decision) summed per
    unit (a deal, a seat-deal of some state), each ± its standard error scaled alike."""
    _, points_se = _mean_se(points)
    _, chance_se = _mean_se(chances)
    share = len(points) / max(1, units)
    return (f"{sum(points) / max(1, units):+.4f} ± {points_se * share:.4f} pts, "
            f"{sum(chances) / max(1, units):+.4f} ± {chance_se * share:.4f} % win chance")


def _by_lock(cases: dict[str, list[dict[str, Any]]], lock_deals: dict[str, int]) -> list[str]:
    """With ``--locked``: the differing decisions by who began the deal locked and phase
    (count, mean points and win chance ± SE per decision, better/worse), and per
    seat-deal of that state (``lock_deals``: how many the bot played) all phases summed."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for phase, own in cases.items():
        for case in own:
            if case.get("lock") is not None and case["points"]:
                groups.setdefault((case["lock"], phase), []).append(case)
    if not groups and not lock_deals:
        return []
    out = ["  by who was locked (R-EX-5) and phase: differing, points ± SE, % win ± SE, "
           "better/worse"]
    for (lock, phase), own in sorted(groups.items()):
        points = [sum(c["points"]) / len(c["points"]) for c in own]
        chance = [100 * sum(c["chance"]) / len(c["chance"]) for c in own]
        p, p_se = _mean_se(points)
        w, w_se = _mean_se(chance)
        better = sum(1 for v in points if v > 1e-9)
        worse = sum(1 for v in points if v < -1e-9)
        out.append(f"    {lock:8s} {phase:13s} {len(own):5d}  {p:+.3f} ± {p_se:.3f} pts  "
                   f"{w:+.3f} ± {w_se:.3f} %  {better:4d}/{worse:<4d}")
    for lock, deals in sorted(lock_deals.items()):
        own = [c for (state, _), group in groups.items() if state == lock for c in group]
        points = [sum(c["points"]) / len(c["points"]) for c in own]
        chance = [100 * sum(c["chance"]) / len(c["chance"]) for c in own]
        out.append(f"    {lock:8s} per seat-deal ({deals}): "
                   f"{_per_unit(points, chance, deals)}")
    return out


def _thresholds(cases: dict[str, list[dict[str, Any]]], deals: int) -> list[str]:
    """For the exchange searches (run the bot with ``z=0`` to see every override): what the
    overrides whose margin passed ``z`` standard errors gained per deal, for several ``z``
    (decisions the bot's search did not make, with no margin, are left out)."""
    noted = [c for phase, own in cases.items() if phase.startswith("exchange")
             for c in own if c.get("note") is not None and c["points"]]
    if not noted:
        return []
    out = ["  exchange overrides by the search's margin (z): count, per deal pts ± SE, % win"]
    for z in (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0):
        kept = [c for c in noted if c["note"] > z]
        points = [sum(c["points"]) / len(c["points"]) for c in kept]
        chance = [100 * sum(c["chance"]) / len(c["chance"]) for c in kept]
        _, se = _mean_se(points)
        out.append(f"    z > {z:3.1f}: {len(kept):5d}  {sum(points) / max(1, deals):+.4f} "
                   f"± {se * len(points) / max(1, deals):.4f} pts  "
                   f"{sum(chance) / max(1, deals):+.4f} %")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="master")
    parser.add_argument("--shadow", default=None,
                        help="the bot compared with (default: expert with the bot's "
                             "samples, chicago, model and contested options)")
    parser.add_argument("--oracle", default="expert:samples=20",
                        help="the bot that plays every seat in the play-outs")
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--rollouts", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seats", type=int, default=1, choices=(1, 2, 3, 4),
                        help="seats the bot takes in each game (the others: experts); "
                             "more seats, more decisions measured per game")
    parser.add_argument("--others", default=None,
                        help="spec of the seats the bot does not take, in the game and in "
                             "the play-outs (there the bot's seat is still --oracle); "
                             "default: expert in the game, --oracle in the play-outs")
    parser.add_argument("--json", default=None, help="write every disagreement here")
    parser.add_argument("--phases", default="",
                        help="ask the shadow only in these phases (comma-separated "
                             "prefixes, e.g. 'exchange'): for an option that changes no "
                             "other phase, the same result at a fraction of the cost")
    parser.add_argument("--noted", action="store_true",
                        help="ask the shadow only where the bot left a note (its 'note' "
                             "not None): for an option that acts only where it says so, "
                             "e.g. master:block, the same result at a fraction of the cost")
    parser.add_argument("--locked", default=None, choices=LOCK_SCOPES,
                        help="count and ask the shadow only at decisions of deals that "
                             "the deciding seat ('self'), one of its opponents "
                             "('opponent') or any seat ('any') began locked (R-EX-5)")
    parser.add_argument("--played-by", default=None,
                        help="the bot's seats play the game by this bot instead; the bot "
                             "and the shadow are both asked on the states it reaches (e.g. "
                             "two variants of a slow bot compared on states an expert "
                             "reaches, at the expert's cost)")
    args = parser.parse_args()
    for flag, spec in (("--others", args.others), ("--played-by", args.played_by)):
        if spec is not None:
            try:
                make_bot(spec)  # fail early on an unknown spec
            except (ValueError, KeyError) as error:
                parser.error(f"{flag}: {error}")
    rules = Rules.preset(args.preset)
    if args.locked is not None and rules.lock_at is None:
        parser.error(f"--locked: preset {args.preset!r} has no lock (R-EX-5)")
    shadow = args.shadow or _expert_of(args.bot)
    tasks = [(args.bot, shadow, args.oracle, rules.to_dict(), args.seed, g, args.rollouts,
              args.seats, args.others, [p for p in args.phases.split(",") if p],
              args.noted, args.locked, args.played_by)
             for g in range(args.first_game, args.first_game + args.games)]
    results: list[dict[str, Any]] = []
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            for result in pool.imap(_one_game, tasks):
                results.append(result)
                _progress(args, results)
    else:
        for task in tasks:
            results.append(_one_game(task))
            _progress(args, results)
    print("\n".join(report(results)))
    return 0


def _progress(args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    print(f"-- game {len(results)}/{args.games}: {args.bot} vs 3 {args.others or 'expert'}, "
          f"{args.preset}",
          file=sys.stderr)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"bot": args.bot, "oracle": args.oracle, "preset": args.preset,
                       "seats": args.seats, "others": args.others, "locked": args.locked,
                       "played_by": args.played_by,
                       "seed": args.seed, "rollouts": args.rollouts, "games": results},
                      handle)


if __name__ == "__main__":
    sys.exit(main())

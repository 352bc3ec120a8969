"""Benchmark of a seat's view and its knowledge: what every bot turn and every frame costs.

Takes positions in the middle of deals of random 4-player pagat games (the exchanges, the
scoring rounds and the tricks, none over), and times for the seat to act:

- ``Game.view(seat)``: the typed view every shell reads;
- ``knowledge(view)``: what the seat knows, the common ground of every bot;
- ``view_json(view)``: the view's JSON form (what a frame or the bot protocol carries);
- creating one event of each common kind (``Play``, ``Exchange``, ``Score``), which the engine
  does on every action.

Random play scores slowly: its games run to a hundred deals and more, so the view's
``history`` (every finished deal with its tricks, issue 30) is far longer there than in a
game of people or bots (10-15 deals to 52 points). With ``--late N`` the positions come
instead from games of four ``basic`` bots, from deal ``N`` on, and the run also prints
the size of the JSON a person gets in a snapshot frame there (``view_json``, compact as the
server writes it): its median bytes, the history's share, and the bytes the history took
before it carried the card play (the same JSON with each deal's ``tricks`` and ``chicago``
left out, the form the view had before). To compare code before and after a change, run
this script with each tree's interpreter in turn (``python`` of one checkout, then of the
other, several times) and take the medians.

Targets (issue 24): view and knowledge <= 50 µs each for a mid-deal view (before the typed
view the issue measured about 550 µs and 640 µs elsewhere; this benchmark, run on that code
(commit bb65625, the view a dict) on a busy 2-core machine: about 120 µs and 91 µs).
Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_view.py [--quick]``. Times
are CPU time of this process (``time.process_time_ns``), medians over the positions, the
median of several runs.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.cards import parse_card
from chicago.engine.events import Exchange, Play, Score
from chicago.engine.knowledge import knowledge
from chicago.engine.viewjson import view_json

PLAYERS = 4


def positions(count: int, seed: int = 5, late: int = 0) -> list[Game]:
    """Game states in the middle of deals of random games (not before the first action of a
    deal, none over); with ``late``, of games of four ``basic`` bots from deal ``late`` on."""
    rules = Rules.preset("pagat")
    rng = random.Random(seed)
    bot = make_bot("basic")
    found: list[Game] = []
    while len(found) < count:
        game = Game(rules, PLAYERS, seed=rng.randrange(10**9))
        while not game.is_over and len(found) < count:
            legal = game.legal_actions()
            if (len(game.deal_events) > PLAYERS + 2 and game.deal_number >= late
                    and rng.random() < 0.05):
                found.append(game.copy())
            seat = game.to_act
            if late and seat is not None:
                game.apply(bot.decide(game.view(seat), legal, rng))
            else:
                game.apply(rng.choice(legal))
    return found


def frame_bytes(games: list[Game]) -> tuple[float, float, float, float]:
    """Median over ``games`` of the bytes of the seat to act's whole view in JSON (compact,
    as a snapshot frame carries it), of its ``history``, of that history without each
    deal's ``tricks`` and ``chicago`` (its form before issue 30), and the finished deals."""
    whole, history, plain, deals = [], [], [], []
    for game in games:
        data = view_json(game.view(game.to_act))
        records = data["history"]
        assert isinstance(records, list)
        short = [{k: v for k, v in r.items() if k not in ("tricks", "chicago")}
                 for r in records if isinstance(r, dict)]
        whole.append(len(json.dumps(data, separators=(",", ":"))))
        history.append(len(json.dumps(records, separators=(",", ":"))))
        plain.append(len(json.dumps(short, separators=(",", ":"))))
        deals.append(len(records))
    return tuple(statistics.median(x) for x in (whole, history, plain, deals))  # type: ignore[return-value]


def median_us(games: list[Game], work: Callable[[Game], object], runs: int) -> float:
    """The median over ``runs`` runs of the median time (µs) of ``work`` per position."""
    clock = time.process_time_ns
    run_medians = []
    for _ in range(runs):
        times = []
        for game in games:
            t0 = clock()
            work(game)
            times.append((clock() - t0) / 1000)
        run_medians.append(statistics.median(times))
    return statistics.median(run_medians)


def event_creation_ns(number: int) -> dict[str, float]:
    """CPU ns to create one event of a few common kinds (best of five timeit repeats)."""
    card = parse_card("Ah")
    makers: dict[str, Callable[[], object]] = {
        "Play(2, card, 3)": lambda: Play(2, card, 3),
        "Play(seat=2, card=card, trick=3)": lambda: Play(seat=2, card=card, trick=3),
        "Exchange(1, 2, 3, 3)": lambda: Exchange(1, 2, 3, 3),
        "Exchange(1, 2, 1, 0, locked=True)": lambda: Exchange(1, 2, 1, 0, locked=True),
        "Score(0, 5, reason, 17)": lambda: Score(0, 5, "final showdown", 17),
    }
    timer = time.process_time
    return {name: min(timeit.repeat(make, number=number, repeat=5, timer=timer)) / number * 1e9
            for name, make in makers.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short run (for a smoke test)")
    parser.add_argument("--late", type=int, default=0,
                        help="positions of basic bots' games from this deal on (and the "
                             "snapshot's bytes)")
    args = parser.parse_args(argv)
    count, runs = (100, 3) if args.quick else (500, 5)
    games = positions(count, late=args.late)

    def view(game: Game) -> object:
        return game.view(game.to_act)

    views = {id(g): g.view(g.to_act) for g in games}

    def know(game: Game) -> object:
        return knowledge(views[id(game)])

    where = f" from deal {args.late} on" if args.late else ""
    print(f"seat views, {PLAYERS} players, pagat, {count} mid-deal positions{where}; Python "
          f"{platform.python_version()}, one core (CPU time, median of {runs} runs)")
    print()
    print("| work | median |")
    print("|---|---:|")
    view_us = median_us(games, view, runs)
    know_us = median_us(games, know, runs)
    print(f"| Game.view(seat) | {view_us:.1f} µs |")
    print(f"| knowledge(view) | {know_us:.1f} µs |")
    json_us = median_us(games, lambda g: view_json(views[id(g)]), runs)
    print(f"| view_json(view) (its JSON form, at the edge) | {json_us:.1f} µs |")
    print()
    if args.late:
        whole, history, plain, deals = frame_bytes(games)
        print(f"snapshot view JSON (median): {whole:.0f} bytes, history {history:.0f} bytes "
              f"({deals:.0f} finished deals); the history without its card play "
              f"{plain:.0f} bytes")
        print()
    print("| event creation | ns |")
    print("|---|---:|")
    for name, ns in event_creation_ns(20_000 if args.quick else 200_000).items():
        print(f"| {name} | {ns:.0f} |")
    print()
    ok = view_us <= 50 and know_us <= 50
    print(f"target view and knowledge <= 50 µs each: {'met' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

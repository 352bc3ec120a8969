"""CPU per trick decision of ``master:tilt=1;tiltdraw=1`` (issue 30), and where its slow
decisions spend it.

Plays games ``--games`` of ``--seed`` (pagat, duplicate deals as ``bench_world_quality.py``
deals them) with four ``--players`` bots up to deal ``--deals``, and keeps every trick
decision with a choice of seat 0 (its view, its legal cards and its generator's state).
Then, ``--rounds`` times, each bot of ``--bots`` decides each kept decision on the same view
and a copy of the same generator, the bots in turn, their order alternating from decision
to decision and from round to round; the CPU time (``time.process_time``) of each
``decide`` is kept, and the median over the rounds reported per decision. It prints the
median, p90 and max over the decisions per bot.

``--compare FILE`` also times the first bot of ``--bots`` with another copy of
:mod:`chicago.bots.tiltdraw` (say the one before a change: ``git show
main:src/chicago/bots/tiltdraw.py > old.py``), loaded as a module of its own and swapped
into :mod:`chicago.bots.master` for its turns (label ``<bot> @FILE``).

``--work N`` sets the drawer's budget of table cells for a mixture over unrevealed
protected ranks (``tiltdraw._WORK``). ``--profile`` adds, per bot with ``tiltdraw``, the
split of its slowest decisions: the
time to build the drawer, the time in the engine's ``sample_hands`` (and its failures),
the draws of the free cards (``tries``) and the worlds dealt.

    python benchmarks/bench_tiltdraw_tail.py [--bots 'master:tilt=1;tiltdraw=1' master]
        [--games 0 1] [--seed 2027] [--deals 12] [--rounds 1] [--compare old.py] [--profile]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import chicago.bots.master as master_module
import chicago.bots.tiltdraw as tiltdraw
from chicago import Rules
from chicago.bots import make_bot
from chicago.sim import derive_seed, duplicate_game


@dataclass
class Decision:
    """One kept decision of seat 0: its view, legal cards and generator state."""

    game: int
    view: Any
    legal: list[Any]
    state: Any


@dataclass
class Split:
    """Where one ``decide`` spent its time (``--profile``)."""

    build: float = 0.0
    engine: float = 0.0
    engine_calls: int = 0
    engine_failed: int = 0
    tries: int = 0
    worlds: int = 0
    failures: int = 0
    tables: int = 0
    work: int = 0


def decisions(games: Sequence[int], seed: int, deals: int, players: str,
              preset: str = "pagat") -> list[Decision]:
    """Seat 0's trick decisions with a choice in the games played by four ``players``."""
    rules = Rules.preset(preset)
    out: list[Decision] = []
    for index in games:
        game = duplicate_game(rules, 4, seed=derive_seed(seed, index, 1),
                              deck_seed=derive_seed(seed, index // 4, 2))
        bots = [make_bot(players) for _ in range(4)]
        rngs = [random.Random(derive_seed(seed, index, 3, s)) for s in range(4)]
        while not game.is_over and game.deal_number <= deals:
            seat = game.to_act
            assert seat is not None
            view, legal = game.view(seat), game.legal_actions()
            if seat == 0 and str(game.phase) == "play" and len(legal) > 1:
                out.append(Decision(index, view, list(legal), rngs[0].getstate()))
            game.apply(bots[seat].decide(view, legal, rngs[seat]))
    return out


def load_copy(path: str) -> ModuleType:
    """``path`` (a copy of ``tiltdraw.py``) as a module of its own."""
    spec = importlib.util.spec_from_file_location("tiltdraw_compared", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@contextmanager
def drawer_of(module: ModuleType | None) -> Iterator[None]:
    """``master`` dealing with ``module``'s ``TiltDrawer`` for the block (None: its own)."""
    if module is None:
        yield
        return
    own = master_module.TiltDrawer  # type: ignore[attr-defined]
    master_module.TiltDrawer = module.TiltDrawer  # type: ignore[attr-defined]
    try:
        yield
    finally:
        master_module.TiltDrawer = own  # type: ignore[attr-defined]


@contextmanager
def profiled(split: Split) -> Iterator[None]:
    """Count into ``split`` the drawer's build time, its engine calls and its draws."""
    module = sys.modules[master_module.TiltDrawer.__module__]  # type: ignore[attr-defined]
    cls = module.TiltDrawer
    init, deal, engine = cls.__init__, cls.deal, module.sample_hands
    made: list[Any] = []

    def timed_init(self: Any, *args: Any) -> None:
        start = time.process_time()
        init(self, *args)
        split.build += time.process_time() - start
        made.append(self)

    def counted_deal(self: Any, rng: random.Random) -> Any:
        split.worlds += 1
        return deal(self, rng)

    def timed_engine(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        split.engine_calls += 1
        try:
            hands = engine(*args, **kwargs)
        except ValueError:
            split.engine_failed += 1
            raise
        finally:
            split.engine += time.process_time() - start
        return hands

    cls.__init__, cls.deal, module.sample_hands = timed_init, counted_deal, timed_engine
    try:
        yield
    finally:
        cls.__init__, cls.deal, module.sample_hands = init, deal, engine
        split.tries += sum(getattr(d, "tries", 0) for d in made)
        split.failures += sum(getattr(d, "failures", 0) for d in made)
        split.tables += sum(len(getattr(d, "tables", ())) for d in made)
        split.work += sum(getattr(d, "work", 0) for d in made)


def time_once(spec: str, decision: Decision, module: ModuleType | None,
              split: Split | None) -> float:
    """CPU milliseconds of a fresh ``spec`` deciding ``decision``."""
    bot = make_bot(spec)
    work = random.Random()
    work.setstate(decision.state)
    with drawer_of(module):
        if split is None:
            start = time.process_time()
            bot.decide(decision.view, decision.legal, work)
            return 1000 * (time.process_time() - start)
        with profiled(split):
            start = time.process_time()
            bot.decide(decision.view, decision.legal, work)
            return 1000 * (time.process_time() - start)


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=["master:tilt=1;tiltdraw=1", "master"])
    parser.add_argument("--players", default="expert")
    parser.add_argument("--games", nargs="+", type=int, default=[0, 1])
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--compare", default=None)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--work", type=int, default=None,
                        help="the drawer's budget of table cells (tiltdraw._WORK) for the run")
    args = parser.parse_args()
    if args.work is not None:
        tiltdraw._WORK = args.work  # type: ignore[attr-defined]
    kept = decisions(args.games, args.seed, args.deals, args.players)
    print(f"{len(kept)} decisions", flush=True)
    entrants: list[tuple[str, str, ModuleType | None]] = [(s, s, None) for s in args.bots]
    if args.compare:
        entrants.append((f"{args.bots[0]} @{args.compare}", args.bots[0],
                         load_copy(args.compare)))
    times: dict[str, list[list[float]]] = {label: [[] for _ in kept] for label, _, _ in entrants}
    splits: dict[str, list[Split]] = {label: [Split() for _ in kept] for label, _, _ in entrants}
    step = 0
    for _ in range(args.rounds):
        for index, decision in enumerate(kept):
            order = entrants if step % 2 == 0 else entrants[::-1]
            step += 1
            for label, spec, module in order:
                split = splits[label][index] if args.profile and "tiltdraw" in spec else None
                times[label][index].append(time_once(spec, decision, module, split))
    report: Callable[[str], None] = print
    for label, _, _ in entrants:
        per = [statistics.median(t) for t in times[label]]
        report(f"{label}: median {statistics.median(per):.0f} ms, p90 {quantile(per, 0.9):.0f}"
               f" ms, max {max(per):.0f} ms, total {sum(per) / 1000:.1f} s")
        if args.profile and "tiltdraw" in label:
            slow = sorted(range(len(kept)), key=lambda i: -per[i])[:8]
            for i in slow:
                s = splits[label][i]
                report(f"  decision {i} (game {kept[i].game}): {per[i]:.0f} ms; build "
                       f"{1000 * s.build / args.rounds:.0f} ms, engine "
                       f"{1000 * s.engine / args.rounds:.0f} ms in {s.engine_calls} calls "
                       f"({s.engine_failed} raised), drawer failures {s.failures}, "
                       f"tries {s.tries}, worlds {s.worlds}, tables {s.tables} "
                       f"(cells {s.work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

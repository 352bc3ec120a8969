"""How good are the worlds ``master`` searches at its trick decisions? Card by card.

Plays seeded games of ``--bot`` (``master``, the shipped default: ``infer=3;pool=10``) in
seat 0 against three ``--others`` (pagat, duplicate deals of ``--seed`` as
``bench_disagreements.py`` and ``bench_worlds.py`` deal them). At each of seat 0's trick
decisions with a choice and no Chicago declared it deals the bot's worlds again from the
seat's view (a copy of the bot's own rng state, so exactly the pool and weights of the
decision) and compares them with the real hidden hands, which only this benchmark reads.

For every hidden card (one the seat has not seen and whose place the samplers do not all
agree on) and every place it may be — an opponent's hand, or nowhere in play (the stock
or the discards) — each *source* gives a probability:

- ``uniform``: the engine's sampler without weights (``sample_hands``), ``--uniform``
  deals;
- ``prior``: ``master``'s dealt pool with equal weights (the expert's hand-made
  plausibility of each hand, no play evidence: what ``infer=0`` deals from);
- ``weighted``: the same pool with ``master``'s weights (the opponents' plays read by
  ``infer=3``, raised to ``soft``): the law the search resamples from;
- ``searched``: the ``samples`` worlds the search then plays (resampled from the pool).

With ``tiltdraw`` the pool is the bot's own, dealt from the tilted law
(:mod:`chicago.bots.tiltdraw`): ``prior`` is then that deal unweighted, ``weighted`` adds
the importance, plausibility and play weights, and ``llr`` is not reported (the pool's
weights are not the play likelihood alone).

Per source it reports the mean probability of the true place, the log score (mean
−log p of the true place, p mixed with 1% of ``uniform`` so a zero is finite) and the
Brier score, split by the trick number and by the evidence on the card's true holder
(its kind of player by ``infer=3``'s posterior, how many cards it played this deal, what it
drew at its last exchange, whether it announced at the last scoring round); a calibration
table (probability given to an opponent holding a card, binned, against how often it
did); the log score of the weighted marginals after a power ``a`` (q ∝ p^a over a card's
places; a < 1: the weights are over-sure, a > 1: under-sure), the best ``a`` per split;
and ``llr``: the log of the true deal's weight over the pool's mean weight (how much the
play evidence favours the truth over a typical dealt world; its mean is ≥ 0 for a model
that is right).

Deterministic for a seed. ``--json`` writes every card record.

    python benchmarks/bench_world_quality.py [--bot master] [--others expert] [--games 4]
        [--first-game 0] [--deals 12] [--seed 2026] [--uniform 400] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

from chicago import Rules
from chicago.bots import make_bot
from chicago.bots.announcerule import words_of
from chicago.bots.master import MasterBot
from chicago.bots.playerkinds import history_kinds
from chicago.bots.playmodel import effective_count, observed_plays, resample
from chicago.bots.worldchain import walk
from chicago.cards import mask_of
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.sampling import sample_hands
from chicago.sim import derive_seed, duplicate_game

SOURCES = ("uniform", "prior", "weighted", "searched")
"""The laws of the hidden cards compared (module docstring)."""
OUT = -1
"""The place of a hidden card in no opponent's hand (the stock or the discards)."""
MIX = 0.01
"""The share of ``uniform`` mixed into every source for the log score."""
POWERS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0)
"""The powers of the weighted marginals tried for the calibration."""
KINDS = ("rules", "fitted", "uniform")


@dataclass
class CardRecord:
    """One hidden card at one decision: each source's probability of each place."""

    game: int
    deal: int
    trick: int
    card: int
    true: int
    """The seat holding it, or :data:`OUT`."""
    places: list[int]
    probs: dict[str, list[float]]
    """Source → probability of each of ``places`` (summing to one)."""
    kind: str
    """The true holder's likeliest kind by ``infer=3`` (``none``: not seen in an earlier
    deal; ``out`` for :data:`OUT`)."""
    played: int
    """Cards the true holder played this deal (-1 for :data:`OUT`)."""
    drew: int
    """Cards the true holder drew at its last exchange (-1 for :data:`OUT`)."""
    announced: int
    """1 if the true holder announced at the latest scoring round, 0 if it passed, -1
    unknown or :data:`OUT`."""
    seat_kinds: dict[int, str] = field(default_factory=dict)
    seat_played: dict[int, int] = field(default_factory=dict)


@dataclass
class Decision:
    """One trick decision: the true deal's log weight ratio and the pool's size."""

    game: int
    deal: int
    trick: int
    llr: float | None
    """log(weight of the true deal / mean weight of the pool); None without evidence."""
    ess: float
    pool: int
    distinct: int = 0
    """The distinct worlds among those searched (0 where not recorded)."""


def _kind(kinds: dict[int, tuple[float, float, float]], seat: int) -> str:
    triple = kinds.get(seat)
    if triple is None:
        return "none"
    return KINDS[max(range(3), key=lambda i: triple[i])]


def _announced(k: Knowledge, seat: int) -> int:
    opp = k.opponents[seat]
    if not opp.announcements:
        return -1
    last = max(opp.announcements)
    return 0 if opp.announcements[last] is None else 1


def _marginals(worlds: Sequence[Sequence[int]], weights: Sequence[float], card: int,
               places: Sequence[int]) -> list[float]:
    """The weighted share of ``worlds`` putting ``card`` at each of ``places``."""
    bit = 1 << card
    total = sum(weights)
    out = [0.0] * len(places)
    index = {p: i for i, p in enumerate(places)}
    for hands, weight in zip(worlds, weights, strict=True):
        where = OUT
        for seat in places:
            if seat != OUT and hands[seat] & bit:
                where = seat
                break
        out[index[where]] += weight
    return [x / total for x in out] if total > 0 else [1.0 / len(places)] * len(places)


def measure(game_index: int, game: object, bot: MasterBot, view: object, rng: random.Random,
            uniform: int) -> tuple[Decision, list[CardRecord]] | None:
    """The records of one decision of ``bot`` (seat 0) on ``view``; ``rng`` is the bot's
    generator, left untouched. None where the search deals no worlds of its own (a
    Chicago declared)."""
    k = knowledge(view)  # type: ignore[arg-type]
    if k.declarer is not None:
        return None
    true = [mask_of(hand) for hand in game.hands]  # type: ignore[attr-defined]
    state = rng.getstate()
    bot._kinds = (history_kinds(view.history, k.seat, bot.play_policy,  # type: ignore[attr-defined]
                                bot.eps, k.players, bot.prior, bot._deal_logs)
                  if bot.play_policy is not None and bot.infer == 3 else {})
    bot._words = words_of(view, k) if bot.annrule else {}  # type: ignore[arg-type]
    plays = observed_plays(k) if bot.infer else []
    work = random.Random()
    work.setstate(state)
    llr: float | None = None
    if (plays or bot.tilt) and (bot.pool > 1 or bot.cap):
        pool, weights = bot._pool(k, work, plays, bot.cap)
        factor, steps = bot._walker(k, plays)
        searched = [walk(k, pool[i], steps, factor, work) if factor is not None else pool[i]
                    for i in resample(weights, bot.samples, work)]
        mean = sum(weights) / len(weights)
        mine = bot._play_weights(k, [true], plays)[0]
        if mean > 0 and not bot.tiltdraw:  # tiltdraw's weights hold importance weights too
            llr = math.log(mine / mean) if mine > 0 else -math.inf
    else:
        pool = [bot._sample(k, work) for _ in range(bot.samples)]
        weights = [1.0] * len(pool)
        searched = pool
    flat = random.Random(derive_seed(game_index, k.trick_number, len(k.unseen), 7))
    uniform_worlds = [sample_hands(k, flat) for _ in range(uniform)]
    sources: dict[str, tuple[Sequence[Sequence[int]], Sequence[float]]] = {
        "uniform": (uniform_worlds, [1.0] * uniform),
        "prior": (pool, [1.0] * len(pool)),
        "weighted": (pool, weights),
        "searched": (searched, [1.0] * len(searched)),
    }
    places = [*sorted(k.opponents), OUT]
    deal = game.deal_number  # type: ignore[attr-defined]
    seat_kinds = {s: _kind(bot._kinds, s) for s in k.opponents}
    seat_played = {s: len(k.opponents[s].played) for s in k.opponents}
    records = []
    for card in sorted(int(c) for c in k.unseen):
        probs = {name: _marginals(w, ws, card, places) for name, (w, ws) in sources.items()}
        if max(probs["uniform"]) >= 1.0 and max(probs["prior"]) >= 1.0:
            continue  # its place is known: no inference to judge
        holder = next((s for s in k.opponents if true[s] >> card & 1), OUT)
        opp = k.opponents.get(holder)
        records.append(CardRecord(
            game_index, deal, k.trick_number, card, holder, places, probs,
            seat_kinds[holder] if opp is not None else "out",
            len(opp.played) if opp is not None else -1,
            opp.drawn_last if opp is not None else -1,
            _announced(k, holder) if opp is not None else -1,
            seat_kinds, seat_played))
    decision = Decision(game_index, deal, k.trick_number, llr, effective_count(weights),
                        len(pool), len({tuple(hands) for hands in searched}))
    return decision, records


def collect(bot_spec: str, others: str, games: Iterable[int], deals: int, seed: int,
            preset: str = "pagat", uniform: int = 400, progress: bool = False,
            timed: Sequence[str] = (), cpu: dict[str, list[float]] | None = None,
            ) -> tuple[list[Decision], list[CardRecord]]:
    """Play the games and measure every trick decision of seat 0 (module docstring); each
    bot of ``timed`` (kept for the game, as in play) is also asked every such decision on
    the same view and a copy of the same generator, its CPU milliseconds added to
    ``cpu[spec]`` (the bots in turn, the first one first at even decisions)."""
    rules = Rules.preset(preset)
    decisions: list[Decision] = []
    records: list[CardRecord] = []
    for index in games:
        game = duplicate_game(rules, 4, seed=derive_seed(seed, index, 1),
                              deck_seed=derive_seed(seed, index // 4, 2))
        bots = [make_bot(bot_spec if s == 0 else others) for s in range(4)]
        rngs = [random.Random(derive_seed(seed, index, 3, s)) for s in range(4)]
        timers = [make_bot(spec) for spec in timed]
        bot = bots[0]
        if not isinstance(bot, MasterBot):
            raise SystemExit(f"{bot_spec!r} is not master")
        while not game.is_over and game.deal_number <= deals:
            seat = game.to_act
            assert seat is not None
            view, legal = game.view(seat), game.legal_actions()
            if seat == 0 and str(game.phase) == "play" and len(legal) > 1:
                found = measure(index, game, bot, view, rngs[0], uniform)
                if found is not None:
                    decisions.append(found[0])
                    records.extend(found[1])
                if cpu is not None and timers:
                    order = list(zip(timed, timers, strict=True))
                    if len(decisions) % 2:
                        order.reverse()
                    for spec, timer in order:
                        work = random.Random()
                        work.setstate(rngs[0].getstate())
                        start = time.process_time()
                        timer.decide(view, legal, work)
                        cpu.setdefault(spec, []).append(
                            1000 * (time.process_time() - start))
            game.apply(bots[seat].decide(view, legal, rngs[seat]))
        if progress:
            print(f"game {index}: {len(decisions)} decisions, {len(records)} cards so far",
                  flush=True)
    return decisions, records


def true_prob(record: CardRecord, source: str) -> float:
    """The probability ``source`` gives the true place of the card."""
    return record.probs[source][record.places.index(record.true)]


def _mixed(record: CardRecord, source: str) -> list[float]:
    return [(1 - MIX) * p + MIX * u
            for p, u in zip(record.probs[source], record.probs["uniform"], strict=True)]


def log_score(record: CardRecord, source: str, power: float = 1.0) -> float:
    """−log of the true place's probability by ``source`` (mixed with :data:`MIX` of
    ``uniform``), its probabilities raised to ``power`` and renormalised first."""
    probs = _mixed(record, source)
    if power != 1.0:
        probs = [p ** power for p in probs]
    total = sum(probs)
    p = probs[record.places.index(record.true)] / total
    return -math.log(max(p, 1e-12))


def brier(record: CardRecord, source: str) -> float:
    """The Brier score of ``source`` on the card's places."""
    return sum((p - (1.0 if place == record.true else 0.0)) ** 2
               for p, place in zip(record.probs[source], record.places, strict=True))


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return math.nan, math.nan
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return mean, se


def _clustered(records: Sequence[CardRecord], value: str) -> tuple[float, float]:
    """Mean over records and its standard error clustered by game (records of one game are
    not independent): ``value`` is ``weighted-prior`` log score gain and the like."""
    by_game: dict[int, list[float]] = {}
    for r in records:
        a, b = value.split("-")
        by_game.setdefault(r.game, []).append(log_score(r, b) - log_score(r, a))
    n = sum(len(v) for v in by_game.values())
    if not n:
        return math.nan, math.nan
    mean = sum(sum(v) for v in by_game.values()) / n
    if len(by_game) < 2:
        return mean, math.nan
    resid = [sum(x - mean for x in v) for v in by_game.values()]
    g = len(by_game)
    se = math.sqrt(g / (g - 1) * sum(x * x for x in resid)) / n
    return mean, se


def best_power(records: Sequence[CardRecord]) -> tuple[float, float]:
    """The power of :data:`POWERS` with the least mean log score of the weighted marginals,
    and that score."""
    scores = {a: statistics.fmean(log_score(r, "weighted", a) for r in records)
              for a in POWERS}
    a = min(scores, key=lambda x: scores[x])
    return a, scores[a]


def _row(label: str, some: Sequence[CardRecord], power: bool = True) -> str:
    cells = [f"{label:<22} {len(some):>6}"]
    for source in SOURCES:
        cells.append(f"{statistics.fmean(true_prob(r, source) for r in some):.3f}")
    for source in SOURCES:
        cells.append(f"{statistics.fmean(log_score(r, source) for r in some):.3f}")
    gain, se = _clustered(some, "weighted-prior")
    cells.append(f"{gain:+.3f}±{se:.3f}")
    if power:
        a, score = best_power(some)
        cells.append(f"a={a:g}:{score:.3f}")
    return " ".join(cells)


def _pair_loss(p: float, y: int) -> float:
    q = min(max(p, 1e-4), 1 - 1e-4)
    return -math.log(q if y else 1 - q)


def pairs_of(records: Sequence[CardRecord]) -> list[tuple[CardRecord, int, dict[str, float], int]]:
    """Every (card, opponent) pair: the record, the seat, each source's probability that
    the seat holds the card, and whether it does."""
    out = []
    for r in records:
        for i, place in enumerate(r.places):
            if place != OUT:
                out.append((r, place, {s: r.probs[s][i] for s in SOURCES},
                            1 if place == r.true else 0))
    return out


def _pair_row(label: str, some: Sequence[tuple[CardRecord, int, dict[str, float], int]]) -> str:
    by_game: dict[int, list[float]] = {}
    for r, _, p, y in some:
        by_game.setdefault(r.game, []).append(
            _pair_loss(p["prior"], y) - _pair_loss(p["weighted"], y))
    n = len(some)
    mean = sum(sum(v) for v in by_game.values()) / n
    g = len(by_game)
    se = (math.sqrt(g / (g - 1) * sum(sum(x - mean for x in v) ** 2
                                       for v in by_game.values())) / n if g > 1 else math.nan)
    held = statistics.fmean(y for *_, y in some)
    cells = [f"{label:<22} {n:>6} held {held:.3f}"]
    for source in ("uniform", "prior", "weighted"):
        mean_p = statistics.fmean(p[source] for _, _, p, _ in some)
        mean_held = (statistics.fmean(p[source] for _, _, p, y in some if y) if held
                     else math.nan)
        cells.append(f"p:{source[:5]} {mean_p:.3f} (held {mean_held:.3f})")
    loss = statistics.fmean(_pair_loss(p["weighted"], y) for _, _, p, y in some)
    cells.append(f"loss w {loss:.4f} gain over prior {mean:+.4f}±{se:.4f}")
    return " ".join(cells)


def _placed(records: Sequence[CardRecord], source: str) -> float:
    """The mean probability ``source`` gives the cards of ``records`` of being in an
    opponent's hand."""
    return statistics.fmean(1.0 - r.probs[source][r.places.index(OUT)] for r in records)


def report(decisions: Sequence[Decision], records: Sequence[CardRecord]) -> None:
    """Print the tables of the module docstring."""
    print(f"{len(decisions)} decisions, {len(records)} hidden cards judged")
    ll = [d.llr for d in decisions if d.llr is not None and math.isfinite(d.llr)]
    ruled_out = sum(1 for d in decisions if d.llr is not None and not math.isfinite(d.llr))
    mean, se = _mean_se(ll)
    print(f"llr of the true deal (decisions with plays seen: {len(ll)}; true deal weighing "
          f"0: {ruled_out}): mean {mean:+.3f} ± {se:.3f}, median "
          f"{statistics.median(ll) if ll else math.nan:+.3f}")
    print(f"ess median {statistics.median(d.ess for d in decisions):.1f}; distinct worlds "
          f"searched median {statistics.median(d.distinct for d in decisions):.1f}")
    print("by rank: hidden cards, share an opponent held, share each source placed with "
          "an opponent")
    for label, low, high in (("ace", 12, 12), ("king", 11, 11), ("queen", 10, 10),
                             ("nine-jack", 7, 9), ("two-eight", 0, 6)):
        some = [r for r in records if low <= r.card >> 2 <= high]
        if some:
            held_share = statistics.fmean(1.0 if r.true != OUT else 0.0 for r in some)
            placed = " ".join(f"{s[:5]} {_placed(some, s):.1%}" for s in SOURCES)
            print(f"  {label:<10} {len(some):>6} held {held_share:.1%}  {placed}")
    head = (f"{'split':<22} {'cards':>6} " + " ".join(f"p:{s[:5]}" for s in SOURCES) + " "
            + " ".join(f"ls:{s[:5]}" for s in SOURCES) + "  ls gain w-p   best power")
    print(head)
    splits: list[tuple[str, list[CardRecord]]] = [("all", list(records))]
    held = [r for r in records if r.true != OUT]
    splits.append(("held by an opponent", held))
    splits.append(("in no hand", [r for r in records if r.true == OUT]))
    for trick in sorted({r.trick for r in records}):
        splits.append((f"trick {trick}", [r for r in records if r.trick == trick]))
    splits.append(("high card (Q-A)", [r for r in records if r.card >> 2 >= 10]))
    splits.append(("low card (2-J)", [r for r in records if r.card >> 2 < 10]))
    for label, some in splits:
        if some:
            print(_row(label, some, power=label not in ("held by an opponent", "in no hand")))
    print("by the true holder (selected on the outcome: compare the sources only)")
    for kind in ("rules", "fitted", "uniform", "none"):
        some = [r for r in held if r.kind == kind]
        if some:
            print(_row(f"holder {kind}", some, power=False))
    print("each (card, opponent) pair, by what the opponent showed: pairs, share held, "
          "mean p of each source (and over the pairs held), binary log loss")
    pairs = pairs_of(records)
    groups: list[tuple[str, list[tuple[CardRecord, int, dict[str, float], int]]]] = [
        ("all pairs", pairs)]
    for kind in ("rules", "fitted", "uniform", "none"):
        groups.append((f"seat {kind}", [x for x in pairs if x[0].seat_kinds[x[1]] == kind]))
    for n in range(5):
        groups.append((f"seat played {n}", [x for x in pairs if x[0].seat_played[x[1]] == n]))
    for trick in sorted({r.trick for r in records}):
        groups.append((f"trick {trick}", [x for x in pairs if x[0].trick == trick]))
    for label, group in groups:
        if group:
            print(_pair_row(label, group))
    print("calibration of weighted (each opponent as a place): bin, pairs, mean p, share "
          "held; prior the same")
    for source in ("weighted", "prior"):
        bins: dict[int, list[tuple[float, int]]] = {}
        for r in records:
            for place, p in zip(r.places, r.probs[source], strict=True):
                if place != OUT:
                    bins.setdefault(min(9, int(p * 10)), []).append(
                        (p, 1 if place == r.true else 0))
        cells = []
        for b in sorted(bins):
            binned = bins[b]
            mean_p = statistics.fmean(x for x, _ in binned)
            cells.append(f"[{b / 10:.1f}) n={len(binned)} p={mean_p:.3f} "
                         f"y={statistics.fmean(y for _, y in binned):.3f}")
        print(f"  {source}: " + "; ".join(cells))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="master")
    parser.add_argument("--others", default="expert")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--uniform", type=int, default=400)
    parser.add_argument("--json", default=None)
    parser.add_argument("--time", nargs="*", default=[],
                        help="bots timed on every measured decision (same view and rng)")
    parser.add_argument("--from-json", nargs="*", default=None,
                        help="report saved runs instead of playing")
    args = parser.parse_args()
    if args.from_json:
        decisions: list[Decision] = []
        records: list[CardRecord] = []
        for path in args.from_json:
            with open(path, encoding="utf-8") as handle:
                saved = json.load(handle)
            decisions += [Decision(**d) for d in saved["decisions"]]
            for r in saved["records"]:
                r["seat_kinds"] = {int(s): v for s, v in r["seat_kinds"].items()}
                r["seat_played"] = {int(s): v for s, v in r["seat_played"].items()}
                records.append(CardRecord(**r))
        report(decisions, records)
        return 0
    cpu: dict[str, list[float]] = {}
    decisions, records = collect(
        args.bot, args.others, range(args.first_game, args.first_game + args.games),
        args.deals, args.seed, args.preset, args.uniform, progress=True, timed=args.time,
        cpu=cpu)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"decisions": [asdict(d) for d in decisions],
                       "records": [asdict(r) for r in records]}, handle)
    report(decisions, records)
    for spec, times in cpu.items():
        times.sort()
        print(f"CPU per trick decision of {spec} ({len(times)}): median "
              f"{statistics.median(times):.1f} ms, p99 "
              f"{times[min(len(times) - 1, int(0.99 * len(times)))]:.1f} ms, max "
              f"{times[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

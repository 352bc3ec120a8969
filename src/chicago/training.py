"""Learning the ``master`` bot's models from self-play: ``make train``.

``python -m chicago.training [--games N] [--seed S] [--out PATH] [--report PATH]``
``python -m chicago.training --check-only [--check-games N] [--report PATH]`` (calibrate the
shipped model again without training it)
``python -m chicago.training --temper-only [--tune-games N]`` (fit the shipped model's
temperature again, its weights kept)

1. **Games.** Duplicate games of four players are played by :func:`chicago.sim.play_game`
   (the machinery of ``chicago simulate``) between the levels whose play the model should
   know (``basic``, ``ev``, ``expert``; the seats are drawn per set from the seed), on the
   rule sets ``pagat``, ``denexa`` and ``wikipedia``. An observer sees the whole table before
   every decision.
2. **Examples.** At some decisions (drawn from the seed), for each opponent of the seat to
   act: what the seat knows of it (:func:`~chicago.bots.handmodel.context_keys`), its real
   hand (the cards it holds and those it played this deal), and the hands the uniform
   sampler (:func:`chicago.engine.sampling.sample_hands`) gives it in the same situation.
3. **Fit.** A logistic regression tells the real hands from the sampled ones, on the
   features of :mod:`chicago.bots.handmodel` (one weight per context key and hand feature,
   L2-regularised, full-batch gradient descent for a fixed number of steps): its log-odds are
   the log of how much likelier a hand is in real play than in the sampler, up to a constant.
4. **Temperature.** On games from a third seed (the *tuning* games, ``--tune-games``), the
   power of the weights (:attr:`~chicago.bots.handmodel.HandModel.temper`) that predicts
   best card by card (lowest Brier score per unseen card, the hands the sampler dealt
   weighted by ``exp(temper × score)``) is chosen on a grid (:func:`fit_temper`): the raw
   log-odds are over-confident card by card.
5. **Calibration.** On games played from another seed, the model's predictions — the chance
   of each category, of holding each card — are compared with what the opponents really
   held, beside the uniform sampler and the ``expert``'s hand-made weights
   (:func:`~chicago.bots.plausibility.hand_weight`): :func:`calibration` prints the tables
   docs/BOTS.md shows.

Everything comes from the seed: the same command gives the same file (numpy sums in a fixed
order; the weights are rounded to four decimals). Needs numpy (the ``rl`` extra or ``dev``);
playing with the model does not.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chicago.bots.base import make_bot
from chicago.bots.handmodel import HAND_FEATURES, HandModel, context_keys, hand_features
from chicago.bots.plausibility import hand_weight
from chicago.engine.game import Game
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.sampling import sample_hands
from chicago.rules import Rules
from chicago.sim import derive_seed, play_game

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Examples", "calibration", "collect", "fit", "fit_temper", "main"]

LEVELS = ("basic", "ev", "expert")
"""The levels seated in the training games (drawn per set)."""
PRESETS = ("pagat", "pagat", "pagat", "denexa", "wikipedia")
"""Rule sets of the training games, drawn per set (pagat three times in five)."""
NEGATIVES = 3
"""Uniformly sampled hands per real hand."""
CHECK_NEGATIVES = 48
"""Sampled hands per real hand in the calibration games (the predictions are made of them)."""
OBSERVE = 0.06
"""The share of decisions at which examples are taken."""
TEMPERS = tuple(round(0.05 * i, 2) for i in range(25))
"""The powers of the weights :func:`fit_temper` tries (0 … 1.2)."""
TUNE_SEED_OFFSET = 2
"""The tuning games' seed is the training seed plus this (the calibration's plus one)."""


@dataclass
class Examples:
    """Training rows: one per hand (a real one, label 1, or a sampled one, label 0)."""

    keys: list[list[str]] = field(default_factory=list)
    features: list[list[int]] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    groups: list[int] = field(default_factory=list)
    """Which situation (decision, opponent) a row belongs to: a real hand and its samples
    share one."""
    weights_expert: list[float] = field(default_factory=list)
    """The expert's hand-made weight of the row's hand (calibration only)."""
    cards: list[int] = field(default_factory=list)
    """The row's hand as a card mask (calibration only)."""
    unseen: list[int] = field(default_factory=list)
    """Mask of the cards the observing seat had not seen (calibration only)."""
    situations: int = 0

    def add(self, k: Knowledge, seat: int, hand: Sequence[int], label: int, group: int) -> None:
        opp = k.opponents[seat]
        self.keys.append(context_keys(k, opp))
        self.features.append(hand_features(hand))
        self.labels.append(label)
        self.groups.append(group)
        self.weights_expert.append(hand_weight(k, opp, hand))
        mask = 0
        for card in hand:
            mask |= 1 << card
        self.cards.append(mask)
        unseen = 0
        for card in k.unseen:
            unseen |= 1 << card
        self.unseen.append(unseen)


def _observer(
    examples: Examples, rng: random.Random, negatives: int
) -> Callable[[Game, int], None]:
    """What the training games' observer does before each decision."""

    def observe(game: Game, seat: int) -> None:
        if rng.random() >= OBSERVE:
            return
        k = knowledge(game.view(seat))
        samples = [sample_hands(k, rng) for _ in range(negatives)]
        for other, opp in k.opponents.items():
            played = [int(c) for c in opp.played]
            real = [int(c) for c in game.view(other).hand] + played
            if len(real) != 5:
                continue  # six cards before a V-LOCK-6 discard
            group = examples.situations
            examples.situations += 1
            examples.add(k, other, real, 1, group)
            for hands in samples:
                cards = [c for c in range(52) if hands[other] >> c & 1] + played
                examples.add(k, other, cards, 0, group)

    return observe


def collect(
    games: int, seed: int, *, negatives: int = NEGATIVES, levels: Sequence[str] = LEVELS,
    progress: bool = False,
) -> Examples:
    """Examples from ``games`` four-player games (sets of four rotations) from ``seed``,
    ``negatives`` sampled hands per real one, the seats drawn from ``levels``."""
    examples = Examples()
    rng = random.Random(derive_seed(seed, 1))
    observe = _observer(examples, rng, negatives)
    sets = math.ceil(games / 4)
    start = time.process_time()
    for set_index in range(sets):
        draw = random.Random(derive_seed(seed, 2, set_index))
        specs = [draw.choice(levels) for _ in range(4)]
        rules = Rules.preset(draw.choice(PRESETS))
        bots = [make_bot(spec) for spec in specs]
        for rotation in range(4):
            play_game(bots, rules, seed=seed, set_index=set_index, rotation=rotation,
                      observer=observe)
        if progress:
            print(f"\r  games {4 * (set_index + 1)}/{4 * sets}, "
                  f"{len(examples.labels)} rows, {time.process_time() - start:.0f} s CPU",
                  end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return examples


def _design(examples: Examples, vocabulary: dict[str, int]) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64]
]:
    """The sparse design of the rows: (row, column) of every active (key, feature) pair."""
    import numpy as np

    width = len(HAND_FEATURES)
    rows = array("q")
    cols = array("q")
    for r, (keys, features) in enumerate(zip(examples.keys, examples.features, strict=True)):
        for key in keys:
            base = vocabulary.get(key)
            if base is None:
                continue
            for j in features:
                rows.append(r)
                cols.append(base * width + j)
    return np.frombuffer(rows, dtype=np.int64), np.frombuffer(cols, dtype=np.int64)


def fit(examples: Examples, *, steps: int = 1500, l2: float = 1.0, min_count: int = 30,
        progress: bool = False) -> HandModel:
    """The hand model that tells ``examples``' real hands from the sampled ones.

    Context keys seen in fewer than ``min_count`` situations are left out; ``l2`` is the
    penalty per weight (in units of examples); Adam, full batch, ``steps`` steps.
    """
    import numpy as np

    counts: dict[str, int] = {}
    for keys, label in zip(examples.keys, examples.labels, strict=True):
        if label:
            for key in keys:
                counts[key] = counts.get(key, 0) + 1
    names = sorted(key for key, n in counts.items() if n >= min_count)
    vocabulary = {key: i for i, key in enumerate(names)}
    rows, cols = _design(examples, vocabulary)
    n = len(examples.labels)
    size = len(names) * len(HAND_FEATURES)
    y = np.array(examples.labels, dtype=np.float64)
    # Both classes weigh the same in the loss (a real hand against its NEGATIVES samples).
    positives = float(y.sum())
    sample_weight = np.where(y > 0, 0.5 / positives, 0.5 / (n - positives))
    w = np.zeros(size)
    m = np.zeros(size)
    v = np.zeros(size)
    rate, beta1, beta2 = 0.05, 0.9, 0.999
    penalty = l2 / n
    for step in range(1, steps + 1):
        logits = np.bincount(rows, weights=w[cols], minlength=n)
        p = 1.0 / (1.0 + np.exp(-logits))
        residual = (p - y) * sample_weight
        grad = np.bincount(cols, weights=residual[rows], minlength=size) + penalty * w
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        w -= rate * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + 1e-9)
        if progress and (step % 100 == 0 or step == steps):
            eps = 1e-12
            loss = -float(np.sum(sample_weight * (y * np.log(p + eps)
                                                  + (1 - y) * np.log(1 - p + eps))))
            print(f"\r  step {step}/{steps}, loss {loss:.5f}", end="", file=sys.stderr,
                  flush=True)
    if progress:
        print(file=sys.stderr)
    width = len(HAND_FEATURES)
    weights = {
        key: tuple(round(float(x), 4) for x in w[i * width : (i + 1) * width])
        for key, i in vocabulary.items()
    }
    return HandModel(weights=weights, version=1)


# ------------------------------------------------------------------ temperature


@dataclass(frozen=True)
class TemperFit:
    """What :func:`fit_temper` measured: per power tried, the Brier score per unseen card
    and the log-loss of the real hand's category (the sampled hands weighted by the
    power), and the power chosen."""

    temper: float
    tried: tuple[tuple[float, float, float], ...]
    """(power, Brier score per card, category log-loss) per power, in :data:`TEMPERS`
    order."""

    def table(self) -> str:
        """Markdown: the scores of every power tried, the chosen one marked."""
        lines = _header(["power of the weights", "Brier score per card", "category log-loss"])
        for power, brier, loss in self.tried:
            mark = " (chosen)" if power == self.temper else ""
            lines.append(_row([f"{power:.2f}{mark}", f"{brier:.5f}", f"{loss:.4f}"]))
        return "\n".join(lines)


def fit_temper(model: HandModel, examples: Examples,
               tempers: Sequence[float] = TEMPERS) -> TemperFit:
    """The power of ``model``'s weights that predicts ``examples`` best card by card.

    ``examples`` are situations with one real hand and many sampled ones (as the
    calibration's). For each power ``t`` a situation's prediction is its sampled hands
    weighted by ``exp(t × score)``; the chosen ``t`` has the lowest Brier score per unseen
    card (ties: the smaller power). Numpy; deterministic.
    """
    import numpy as np

    truth_of: dict[int, int] = {}
    sampled_rows: list[int] = []
    for row, situation in enumerate(examples.groups):
        if examples.labels[row]:
            truth_of[situation] = row
        else:
            sampled_rows.append(row)
    rows = [r for r in sampled_rows if examples.groups[r] in truth_of]
    if not rows:
        raise ValueError("no situation with a real hand and sampled ones to fit on")
    order = sorted(truth_of)
    index = {group: i for i, group in enumerate(order)}
    group = np.array([index[examples.groups[r]] for r in rows], dtype=np.int64)
    n_groups = len(order)
    score = np.array([model.score(examples.keys[r], _cards_of(examples.cards[r]))
                      for r in rows])
    bits = np.arange(52, dtype=np.uint64)

    def indicator(masks: Sequence[int]) -> npt.NDArray[np.float64]:
        packed = np.array(masks, dtype=np.uint64)
        return ((packed[:, None] >> bits) & np.uint64(1)).astype(np.float64)

    unseen = indicator([examples.unseen[truth_of[g]] for g in order])
    real = indicator([examples.cards[truth_of[g]] for g in order]) * unseen
    held = indicator([examples.cards[r] for r in rows])
    category = np.array([examples.features[r][0] for r in rows], dtype=np.int64)
    real_category = np.array([examples.features[truth_of[g]][0] for g in order])
    cards_asked = float(unseen.sum())
    top = np.full(n_groups, -np.inf)
    np.maximum.at(top, group, score)
    tried = []
    for power in tempers:
        w = np.exp(power * (score - top[group]))
        total = np.bincount(group, weights=w, minlength=n_groups)
        share = w / total[group]
        per_card = np.zeros((n_groups, 52))
        np.add.at(per_card, group, held * share[:, None])
        brier = float((((per_card - real) * unseen) ** 2).sum()) / cards_asked
        cat = np.zeros((n_groups, 9))
        np.add.at(cat, (group, category), share)
        chance = cat[np.arange(n_groups), real_category]
        loss = float(-np.log(np.maximum(1e-3, chance)).mean())
        tried.append((float(power), round(brier, 6), round(loss, 5)))
    best = min(tried, key=lambda t: (t[1], t[0]))
    return TemperFit(temper=best[0], tried=tuple(tried))


# ------------------------------------------------------------------ calibration

_CATEGORY_NAMES = HAND_FEATURES[:9]
_RANK_NAMES = "23456789TJQKA"


def _groups(examples: Examples) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for row, group in enumerate(examples.groups):
        out.setdefault(group, []).append(row)
    return out


_BINS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.01)
"""Bins of a predicted chance that an opponent holds a card (the reliability table)."""


def calibration(model: HandModel, examples: Examples) -> str:
    """Markdown tables: predicted against real, by category, by card rank and by predicted
    chance per card, for the learned model (its raw scores and tempered by its
    :attr:`~chicago.bots.handmodel.HandModel.temper`), the uniform sampler and the expert's
    hand-made weights, on ``examples`` (from games the model was not trained on, with many sampled
    hands per real one: a method's prediction is the sampled hands weighted by it)."""
    scores: dict[int, float] = {}

    def learned(power: float) -> Callable[[int], float]:
        def weigh(row: int) -> float:
            score = scores.get(row)
            if score is None:
                score = scores[row] = model.score(examples.keys[row],
                                                  _cards_of(examples.cards[row]))
            return math.exp(max(-30.0, min(30.0, power * score)))

        return weigh

    methods: dict[str, Callable[[int], float]] = {
        "uniform sampler": lambda row: 1.0,
        "expert's weights": lambda row: examples.weights_expert[row],
        "learned, raw": learned(1.0),
        f"learned, tempered ({model.temper:g})": learned(model.temper),
    }
    names = list(methods)
    categories = {name: [0.0] * 9 for name in names}
    real_categories = [0] * 9
    by_rank = {name: [0.0] * 13 for name in names}
    real_by_rank = [0] * 13
    log_loss = dict.fromkeys(names, 0.0)
    brier = dict.fromkeys(names, 0.0)
    bins = {name: [[0.0, 0.0, 0] for _ in _BINS[:-1]] for name in names}
    situations = cards_asked = 0
    for rows in _groups(examples).values():
        real = [r for r in rows if examples.labels[r]]
        sampled = [r for r in rows if not examples.labels[r]]
        if len(real) != 1 or not sampled:
            continue
        situations += 1
        truth = real[0]
        real_category = examples.features[truth][0]
        real_categories[real_category] += 1
        unseen = examples.unseen[truth]
        held_really = examples.cards[truth] & unseen
        for rank in range(13):
            real_by_rank[rank] += ((held_really >> (4 * rank)) & 0xF).bit_count()
        cards_asked += unseen.bit_count()
        for name in names:
            weigh = methods[name]
            weights = [weigh(r) for r in sampled]
            total = sum(weights) or 1.0
            predicted = [0.0] * 9
            per_card = [0.0] * 52
            for r, w in zip(sampled, weights, strict=True):
                share = w / total
                predicted[examples.features[r][0]] += share
                held = examples.cards[r] & unseen
                while held:
                    low = held & -held
                    per_card[low.bit_length() - 1] += share
                    held ^= low
            for c in range(9):
                categories[name][c] += predicted[c]
            log_loss[name] -= math.log(max(1e-3, predicted[real_category]))
            x = unseen
            while x:
                low = x & -x
                x ^= low
                card = low.bit_length() - 1
                chance = per_card[card]
                actual = 1.0 if held_really & low else 0.0
                by_rank[name][card >> 2] += chance
                brier[name] += (chance - actual) ** 2
                for b in range(len(_BINS) - 1):
                    if _BINS[b] <= chance < _BINS[b + 1]:
                        bins[name][b][0] += chance
                        bins[name][b][1] += actual
                        bins[name][b][2] += 1
                        break
    if not situations:
        return "No situations to calibrate on."
    lines = [
        f"{situations} situations (an opponent at a decision of a held-out game).",
        "",
        "Chance of each category (of the five cards held plus played), on average:",
        "",
        *_header(["category", "real", *names]),
    ]
    for c, label in enumerate(_CATEGORY_NAMES):
        lines.append(_row([label, f"{real_categories[c] / situations:.1%}",
                           *(f"{categories[name][c] / situations:.1%}" for name in names)]))
    lines.append(_row(["log-loss of the real category (lower is better)", "",
                       *(f"{log_loss[name] / situations:.3f}" for name in names)]))
    lines += [
        "",
        "Cards of each rank an opponent holds, among those the seat has not seen (average):",
        "",
        *_header(["rank", "real", *names]),
    ]
    for rank in reversed(range(13)):
        lines.append(_row([_RANK_NAMES[rank], f"{real_by_rank[rank] / situations:.3f}",
                           *(f"{by_rank[name][rank] / situations:.3f}" for name in names)]))
    lines.append(_row(["Brier score per card (lower is better)", "",
                       *(f"{brier[name] / cards_asked:.4f}" for name in names)]))
    lines += [
        "",
        "Reliability per card: the cards grouped by the chance a method gave them, "
        "predicted against real (share of cards), with the number of cards:",
        "",
        *_header(["predicted chance", *names]),
    ]
    for b in range(len(_BINS) - 1):
        cells = []
        for name in names:
            total, actual, count = bins[name][b]
            cells.append(f"{total / count:.1%} / {actual / count:.1%} ({int(count)})"
                         if count else "-")
        lines.append(_row([f"{_BINS[b]:.0%}-{min(1.0, _BINS[b + 1]):.0%}", *cells]))
    return "\n".join(lines)


def _row(cells: Sequence[str]) -> str:
    """A Markdown table row."""
    return "| " + " | ".join(cells) + " |"


def _header(columns: Sequence[str]) -> list[str]:
    """A Markdown table's header and rule."""
    return [_row(columns), "|" + "---|" * len(columns)]


def _cards_of(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _train(games: int, seed: int, steps: int, levels: list[str]) -> HandModel:
    """Collect and fit the model (with what made it in its ``meta``), not yet tempered."""
    print(f"collecting examples from {games} games (seed {seed})", file=sys.stderr)
    train = collect(games, seed, levels=levels, progress=True)
    print("fitting", file=sys.stderr)
    fitted = fit(train, steps=steps, progress=True)
    meta: dict[str, Any] = {
        "games": games, "seed": seed, "steps": steps,
        "rows": len(train.labels), "levels": levels, "presets": sorted(set(PRESETS)),
    }
    return HandModel(weights=fitted.weights, version=fitted.version, meta=meta)


def _tempered(model: HandModel, games: int, seed: int, levels: list[str]) -> HandModel:
    """``model`` with the power of its weights fitted on ``games`` tuning games (the seed
    and the scores of every power tried in its ``meta``)."""
    tune_seed = seed + TUNE_SEED_OFFSET
    print(f"fitting the temperature on {games} other games (seed {tune_seed})",
          file=sys.stderr)
    tune = collect(games, tune_seed, negatives=CHECK_NEGATIVES, levels=levels, progress=True)
    found = fit_temper(model, tune)
    print(found.table(), file=sys.stderr)
    meta = dict(model.meta or {})
    meta.update({"tune_games": games, "tune_seed": tune_seed,
                 "tune_situations": len(set(tune.groups)),
                 "tune_brier": {f"{t:.2f}": b for t, b, _ in found.tried}})
    return dataclasses.replace(model, temper=found.temper, meta=meta)


def main(argv: Sequence[str] | None = None) -> int:
    """``make train``: collect, fit, temper, write the model, print the calibration
    (``--check-only``: the calibration of the model already written; ``--temper-only``: its
    temperature fitted again, the weights kept)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="training games")
    parser.add_argument("--tune-games", type=int, default=60,
                        help="games the temperature is fitted on")
    parser.add_argument("--check-games", type=int, default=120, help="held-out games")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="the bot levels seated in the games, comma-separated")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).parent / "bots" / "hand_model.json")
    parser.add_argument("--report", type=Path, default=None,
                        help="also write the calibration tables (Markdown) here")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--check-only", action="store_true",
                      help="only calibrate the model already in --out, on the held-out "
                           "games of the seed and levels it was trained with")
    only.add_argument("--temper-only", action="store_true",
                      help="only fit the temperature of the model already in --out again "
                           "(its weights kept) and write it back")
    args = parser.parse_args(argv)
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    if args.check_only or args.temper_only:
        model = HandModel.from_dict(json.loads(args.out.read_text(encoding="utf-8")))
        meta = model.meta or {}
        seed, levels = int(meta.get("seed", args.seed)), list(meta.get("levels", levels))
    else:
        model, seed = _train(args.games, args.seed, args.steps, levels), args.seed
    if not args.check_only:
        model = _tempered(model, args.tune_games, seed, levels)
        args.out.write_text(json.dumps(model.to_dict(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    print(f"calibrating on {args.check_games} other games (seed {seed + 1})",
          file=sys.stderr)
    check = collect(args.check_games, seed + 1, negatives=CHECK_NEGATIVES, levels=levels,
                    progress=True)
    report = calibration(model, check)
    print(report)
    if args.report is not None:
        args.report.write_text(report + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fitting the experts' card play (:mod:`chicago.bots.playpolicy`): ``make train-play``.

``python -m chicago.training_play [--games N] [--check-games N] [--seed S] [--out PATH]
[--report PATH]``

1. **Games.** Duplicate games of four ``expert`` bots (``--level``) are played by
   :func:`chicago.sim.play_game` (the machinery of ``chicago simulate``) on the rule sets
   of :data:`chicago.training.PRESETS`, drawn per set from the seed. Each seat's bot is
   wrapped in a recorder that sees what the bot sees (its view) and the card it chose.
2. **Examples.** Every card play with more than one legal card, outside deals with a
   Chicago declared: the player's hand, the cards on the trick, the cards played in the
   deal's earlier tricks, and the card played.
3. **Fit.** A softmax over the legal cards on :func:`~chicago.bots.playpolicy.card_features`
   (one weight per feature and hand size), L2-regularised, full-batch Adam for a fixed
   number of steps; weights rounded to four decimals.
4. **Check.** On games from the seed plus one, :func:`evaluate` compares the fitted policy
   with the rules of thumb (:func:`~chicago.bots.model.model_card`, as ``infer=1`` scores
   them: 1 for its card, ``miss`` for any other, normalised) and with a uniform choice:
   the share of plays each puts first, the log-loss of the card played, and the fitted
   chances grouped by size against how often those cards were played.

Everything comes from the seed: the same command gives the same file. Needs numpy; playing
with the policy does not.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from chicago.bots.base import Bot, make_bot
from chicago.bots.model import model_card
from chicago.bots.playpolicy import CARD_FEATURES, HAND_SIZES, PlayPolicy, card_features
from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import knowledge
from chicago.engine.viewtypes import SeatView
from chicago.rules import Rules
from chicago.sim import derive_seed, play_game
from chicago.training import PRESETS

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["PlayExamples", "Recorder", "collect_plays", "evaluate", "fit_policy", "main"]

MISS = 0.3
"""The weight ``infer=1`` gives a card the rules of thumb would not play."""


@dataclass
class PlayExamples:
    """One row per card play with a choice."""

    hands: list[tuple[int, ...]] = field(default_factory=list)
    tables: list[tuple[int, ...]] = field(default_factory=list)
    gone: list[int] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)

    def add(self, hand: Sequence[int], table: Sequence[int], gone: int, players: int,
            card: int) -> None:
        self.hands.append(tuple(hand))
        self.tables.append(tuple(table))
        self.gone.append(gone)
        self.players.append(players)
        self.played.append(card)

    def __len__(self) -> int:
        return len(self.played)


class Recorder:
    """A bot that plays as ``inner`` and writes each of its card plays with a choice to
    ``examples`` (from its own view only)."""

    def __init__(self, inner: Bot, examples: PlayExamples) -> None:
        self.inner = inner
        self.name = inner.name
        self.examples = examples

    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The inner bot's action; a card play is recorded."""
        action = self.inner.decide(view, legal_actions, rng)
        if (action.kind is ActionKind.PLAY and len(legal_actions) > 1
                and str(view.phase) == "play"):
            k = knowledge(view)
            if k.declarer is None:
                gone = 0
                for _, plays in k.tricks:
                    for _, card in plays:
                        gone |= 1 << int(card)
                self.examples.add([int(c) for c in k.hand], [int(c) for _, c in k.trick],
                                  gone, k.players, int(action.cards[0]))
        return action


def collect_plays(games: int, seed: int, *, level: str = "expert",
                  progress: bool = False) -> PlayExamples:
    """The card plays of ``games`` four-player games (sets of four rotations) from
    ``seed`` between four ``level`` bots."""
    examples = PlayExamples()
    sets = math.ceil(games / 4)
    start = time.process_time()
    for set_index in range(sets):
        draw = random.Random(derive_seed(seed, 2, set_index))
        rules = Rules.preset(draw.choice(PRESETS))
        bots: list[Bot] = [Recorder(make_bot(level), examples) for _ in range(4)]
        for rotation in range(4):
            play_game(bots, rules, seed=seed, set_index=set_index, rotation=rotation)
        if progress:
            print(f"\r  games {4 * (set_index + 1)}/{4 * sets}, {len(examples)} plays, "
                  f"{time.process_time() - start:.0f} s CPU", end="", file=sys.stderr,
                  flush=True)
    if progress:
        print(file=sys.stderr)
    return examples


def _design(examples: PlayExamples) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64],
    npt.NDArray[np.int64], int,
]:
    """The sparse design: (candidate row, weight column) of every active feature, each
    candidate's example, the played candidate of each example, and the candidate count."""
    import numpy as np

    rows: list[int] = []
    cols: list[int] = []
    group: list[int] = []
    target: list[int] = []
    r = 0
    for i in range(len(examples)):
        legal, active = card_features(examples.hands[i], examples.tables[i],
                                      examples.gone[i], examples.players[i])
        target.append(r + legal.index(examples.played[i]))
        for features in active:
            rows.extend([r] * len(features))
            cols.extend(features)
            group.append(i)
            r += 1
    def as_array(xs: list[int]) -> npt.NDArray[np.int64]:
        return np.array(xs, dtype=np.int64)

    return as_array(rows), as_array(cols), as_array(group), as_array(target), r


def fit_policy(examples: PlayExamples, *, steps: int = 800, l2: float = 1.0,
               progress: bool = False) -> PlayPolicy:
    """The softmax policy that best predicts ``examples``' plays (``l2`` per weight, in
    units of examples; Adam, full batch, ``steps`` steps)."""
    import numpy as np

    rows, cols, group, target, candidates = _design(examples)
    n = len(examples)
    if not n:
        raise ValueError("no plays to fit on")
    size = len(CARD_FEATURES) * len(HAND_SIZES)
    w = np.zeros(size)
    m = np.zeros(size)
    v = np.zeros(size)
    rate, beta1, beta2 = 0.05, 0.9, 0.999
    chosen = np.zeros(candidates)
    chosen[target] = 1.0
    for step in range(1, steps + 1):
        scores = np.bincount(rows, weights=w[cols], minlength=candidates)
        top = np.full(n, -np.inf)
        np.maximum.at(top, group, scores)
        e = np.exp(scores - top[group])
        p = e / np.bincount(group, weights=e, minlength=n)[group]
        residual = (p - chosen) / n
        grad = np.bincount(cols, weights=residual[rows], minlength=size) + (l2 / n) * w
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        w -= rate * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + 1e-9)
        if progress and (step % 100 == 0 or step == steps):
            loss = -float(np.log(p[target] + 1e-12).mean())
            print(f"\r  step {step}/{steps}, log-loss {loss:.4f}", end="", file=sys.stderr,
                  flush=True)
    if progress:
        print(file=sys.stderr)
    return PlayPolicy(weights=tuple(round(float(x), 4) for x in w))


_BINS = (0.0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1.01)
"""Bins of a fitted chance (the reliability table)."""


def evaluate(policy: PlayPolicy, examples: PlayExamples, miss: float = MISS) -> str:
    """Markdown tables: how well the fitted policy, the rules of thumb and a uniform choice
    predict ``examples``' plays (from games the policy was not fitted on), overall and by
    hand size, and the fitted chances against how often those cards were played."""
    names = ("uniform", f"rules of thumb (miss {miss:g})", "fitted")
    by_size: dict[int, list[list[float]]] = {}
    bins = [[0.0, 0.0, 0.0] for _ in _BINS[:-1]]
    for i in range(len(examples)):
        hand, table = examples.hands[i], examples.tables[i]
        card = examples.played[i]
        fitted = policy.chances(hand, table, examples.gone[i], examples.players[i])
        count = len(fitted)
        thumb = model_card(list(hand), list(table))
        thumb_p = 1.0 / (1.0 + miss * (count - 1))
        chances = (
            1.0 / count,
            thumb_p if card == thumb else miss * thumb_p,
            fitted[card],
        )
        top_fitted = max(fitted, key=lambda c: (fitted[c], -c))
        hits = (1.0 / count, float(card == thumb), float(card == top_fitted))
        row = by_size.setdefault(len(hand), [[0.0] * 3, [0.0] * 3, [0.0]])
        for j in range(3):
            row[0][j] += hits[j]
            row[1][j] -= math.log(chances[j])
        row[2][0] += 1
        for c, p in fitted.items():
            for b in range(len(_BINS) - 1):
                if _BINS[b] <= p < _BINS[b + 1]:
                    bins[b][0] += p
                    bins[b][1] += float(c == card)
                    bins[b][2] += 1
                    break
    total = len(examples)
    if not total:
        return "No plays to evaluate."
    lines = [
        f"{total} card plays with a choice (held-out games; a Chicago's deals left out).",
        "",
        "The card played put first (uniform: the chance of a random guess), and the "
        "log-loss of the card played (lower is better):",
        "",
        _row(["hand size", "plays", *(f"first: {n}" for n in names),
              *(f"log-loss: {n}" for n in names)]),
        "|" + "---|" * 8,
    ]
    sums = [[0.0] * 3, [0.0] * 3]
    for size in sorted(by_size, reverse=True):
        firsts, losses, counted = by_size[size]
        plays = counted[0]
        for j in range(3):
            sums[0][j] += firsts[j]
            sums[1][j] += losses[j]
        lines.append(_row([str(size), str(int(plays)),
                           *(f"{h / plays:.1%}" for h in firsts),
                           *(f"{x / plays:.3f}" for x in losses)]))
    lines.append(_row(["all", str(total), *(f"{h / total:.1%}" for h in sums[0]),
                       *(f"{x / total:.3f}" for x in sums[1])]))
    lines += [
        "",
        "Reliability: every legal card grouped by its fitted chance, the mean chance "
        "against the share played, with the number of cards:",
        "",
        _row(["fitted chance", "mean chance", "share played", "cards"]),
        "|---|---|---|---|",
    ]
    for b in range(len(_BINS) - 1):
        chance, played, cards = bins[b]
        if cards:
            lines.append(_row([f"{_BINS[b]:.0%}-{min(1.0, _BINS[b + 1]):.0%}",
                               f"{chance / cards:.1%}", f"{played / cards:.1%}",
                               str(int(cards))]))
    return "\n".join(lines)


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def main(argv: Sequence[str] | None = None) -> int:
    """``make train-play``: collect, fit, write the policy, print its check on held-out
    games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=64, help="training games")
    parser.add_argument("--check-games", type=int, default=16, help="held-out games")
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--steps", type=int, default=800)
    parser.add_argument("--level", default="expert", help="the bots whose play is fitted")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).parent / "bots" / "play_policy.json")
    parser.add_argument("--report", type=Path, default=None,
                        help="also write the check's tables (Markdown) here")
    args = parser.parse_args(argv)
    print(f"collecting plays from {args.games} games (seed {args.seed})", file=sys.stderr)
    train = collect_plays(args.games, args.seed, level=args.level, progress=True)
    print("fitting", file=sys.stderr)
    fitted = fit_policy(train, steps=args.steps, progress=True)
    policy = PlayPolicy(weights=fitted.weights, meta={
        "games": args.games, "seed": args.seed, "steps": args.steps, "level": args.level,
        "plays": len(train), "presets": sorted(set(PRESETS)),
    })
    args.out.write_text(json.dumps(policy.to_dict(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    print(f"checking on {args.check_games} other games (seed {args.seed + 1})",
          file=sys.stderr)
    check = collect_plays(args.check_games, args.seed + 1, level=args.level, progress=True)
    report = evaluate(policy, check)
    print(report)
    if args.report is not None:
        args.report.write_text(report + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The accuracy scale (issue 25): the mean accuracy of the ``expert`` and ``basic`` bots and
of random legal play, the marks shown beside a review's accuracy
(:data:`chicago.review.grades.ACCURACY_MARKS`).

For each kind of player, ``--games`` four-player ``pagat`` games of four such players
(seeds 1, 2, …) are reviewed for every seat at ``--level`` (default ``expert``); the mark is
the mean over all seats of all games, printed with the spread of the games.

    python benchmarks/bench_accuracy.py [--games N] [--level LEVEL] [--deals N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.review import review_seats


def played(kind: str, seed: int, deals: int | None) -> dict[str, object]:
    """A game of four ``kind`` bots."""
    game = Game(Rules.preset("pagat", max_deals=deals), 4, seed=seed)
    bot = make_bot(kind)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(bot.decide(game.view(game.to_act), game.legal_actions(), rng))
    return game.record()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--deals", type=int, default=None, help="deals per game (default: to 52)")
    args = parser.parse_args()
    for kind in ("expert", "basic", "random"):
        start = time.process_time()
        means = []
        scores = []
        for seed in range(1, args.games + 1):
            record = played(kind, seed, args.deals)
            reviews = review_seats(record, [0, 1, 2, 3], level=args.level)
            game_scores = [r.summary.accuracy for r in reviews]
            scores += game_scores
            means.append(statistics.mean(game_scores))
        print(f"{kind}: accuracy {statistics.mean(scores):.1f} over {len(scores)} seats "
              f"(games {', '.join(f'{m:.1f}' for m in means)}), "
              f"{time.process_time() - start:.0f} s CPU", flush=True)


if __name__ == "__main__":
    main()

"""CPU per trick decision of ``master:infoset=1`` where its search applies, beside
``master`` on the same views (issue 30).

The machinery of ``bench_exploit.py``: games of ``--bot`` (``master:infoset=1``) in seat 0
against three ``--others`` (``basic``), pagat, duplicate deals of ``--seed``; at each of seat
0's trick decisions with a choice where the search on information sets applies (no Chicago
declared, every opponent a rules player by the view's earlier deals) both bots are asked on
the same view with the same seed, in alternating order, and their CPU times
(``time.process_time``) compared.

    python benchmarks/bench_infoset.py [--games 6] [--first-game 0] [--deals 12]
        [--bot master:infoset=1] [--base master] [--others basic] [--seed 2026]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_exploit import run  # a sibling script: the same games and timing


def main() -> int:
    return run(__doc__.splitlines()[0], "master:infoset=1", "basic", "the search",
               lambda bot, k: k.declarer is None and bot._rules_table(k))


if __name__ == "__main__":
    sys.exit(main())

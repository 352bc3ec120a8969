"""CPU per trick decision of ``master:alphamu=N`` where αμ applies, beside ``master`` on
the same views (issue 30).

Plays games of ``--bot`` (``master:alphamu=3``) in seat 0 against three ``--others``
(``expert``), pagat, duplicate deals of ``--seed``. At each of seat 0's trick decisions with
a choice where αμ applies (three to N cards in hand, no Chicago declared), it asks ``--bot``
and ``--base`` (``master``) for their card on the same view with the same seed, in
alternating order, and records the CPU time of each (``time.process_time``) and whether the
cards differ. It prints the decisions, how many applied and differed, and the median, 90th
percentile, 99th percentile and maximum of both bots' times on the decisions that applied.

    python benchmarks/bench_alphamu.py [--games 6] [--first-game 0] [--deals 12]
        [--bot master:alphamu=3] [--base master] [--others expert] [--seed 2026]
"""

from __future__ import annotations

import sys

from bench_exploit import run  # the same comparison, where αμ applies
from chicago.bots.master import MasterBot
from chicago.engine.knowledge import Knowledge


def _applies(bot: MasterBot, k: Knowledge) -> bool:
    """αμ decides: three to ``alphamu`` cards in hand and no Chicago declared."""
    return k.declarer is None and 3 <= len(k.hand) <= bot.alphamu


def main() -> int:
    return run(__doc__.splitlines()[0], "master:alphamu=3", "expert", "αμ", _applies)


if __name__ == "__main__":
    sys.exit(main())

"""The CPU cost of a replay (Resync) at the end of a game: the frames a reconnecting client
gets after its last seq, lone updates (an unbatched client) against batches (a batched one,
whose earlier trick-ending states are rebuilt from the game's actions).

One seeded game of a person and three bots (three deals, Continue after each, a chat line
every fifth move) is played through the server's own table manager
(tests/server/replay_support.py); then, ``--runs`` times, interleaved, the replay for the
seat from the game's start, from its middle, from eight acts before its end and from its
last act is made ``--repeat``
times each way (a replay too long for a batched client is a snapshot, as ``hello`` sends
then: its cost is counted), and from the earliest seq whose batched replay is still made
(the most earlier states it rebuilds, ``frames.REPLAY_STATES``). Printed: CPU time
(``time.process_time``) per replay, medians of the runs, and the machine's load.

    python benchmarks/bench_replay.py --runs 7 --repeat 50
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))

from replay_support import play_table

from chicago.server import fanout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()

    async def measure() -> dict[tuple[str, bool], list[float]]:
        with tempfile.TemporaryDirectory() as scratch:
            async with play_table(f"{scratch}/bench.sqlite3") as table:
                state = table.state
                acts = [e.seq for e in state.entries if e.kind == "act"]
                starts = {"start": state.game_start_seq, "middle": acts[len(acts) // 2],
                          "8 acts": acts[-9], "last act": acts[-1] - 1}
                loop_time = asyncio.get_running_loop().time()
                starts["longest"] = next(
                    seq for seq in range(state.game_start_seq, state.seq + 1)
                    if fanout.replay(table, 0, seq, loop_time, True) is not None)
                times: dict[tuple[str, bool], list[float]] = {}
                for _ in range(args.runs):
                    for name, last_seq in starts.items():
                        for batched in (False, True):
                            began = time.process_time()
                            for _ in range(args.repeat):  # as hello does
                                if fanout.replay(table, 0, last_seq, loop_time,
                                                 batched) is None:
                                    fanout.snapshot(table, 0, "hello", loop_time)
                            spent = (time.process_time() - began) / args.repeat
                            times.setdefault((name, batched), []).append(spent)
                print(f"{len(acts)} actions in the game, seq {state.seq}")
                return times

    times = asyncio.run(measure())
    print(f"load average {os.getloadavg()}")
    for (name, batched), spent in times.items():
        print(f"from the {name:8} {'batched' if batched else 'lone   '}: "
              f"{statistics.median(spent) * 1000:7.3f} ms a replay "
              f"(runs {min(spent) * 1000:.3f}-{max(spent) * 1000:.3f})")


if __name__ == "__main__":
    main()

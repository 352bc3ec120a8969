"""The cyclic garbage a finished bot game leaves in the table server (issue 28; docs/SERVER.md,
"The collector"): plays bot tables through the app (four ``basic`` bots, one deal, watched to
its end) with the garbage collector off, then collects with ``gc.DEBUG_SAVEALL`` and counts
what only the collector could free, by type.

    python benchmarks/gc_cycles.py --games 20
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import tempfile
from pathlib import Path

from starlette.testclient import TestClient

from chicago.server import Settings, create_app

SETTINGS = {
    "create_rate": 1e6, "create_burst": 1_000_000, "max_waiting_per_address": 1_000_000,
    "max_waiting": 1_000_000, "max_bot_tables_per_address": 1_000_000,
    "max_bot_tables": 1_000_000, "review_workers": 0, "seed": 28,
}


def one_game(client: TestClient) -> None:
    """A table of four bots plays one deal, watched to its end."""
    response = client.post("/api/tables", json={
        "seats": ["bot:basic"] * 4, "bot_delay": 0, "rules": {"max_deals": 1}})
    table = response.json()["id"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        while True:
            frame = json.loads(ws.receive_text())
            if frame["type"] == "game_over" or (
                    frame["type"] in ("snapshot", "resumed")
                    and frame["table"]["status"] == "finished"):
                return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cycles.db"
        app = create_app(Settings(db_url=f"sqlite:///{db}", static_dir=None, **SETTINGS))
        with TestClient(app) as client:
            for _ in range(5):  # imports and caches
                one_game(client)
            gc.collect()
            gc.disable()
            for _ in range(args.games):
                one_game(client)
            gc.set_debug(gc.DEBUG_SAVEALL)
            found = gc.collect()
            kinds = collections.Counter(type(o).__qualname__ for o in gc.garbage)
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
    print(f"{found:,} objects in cycles after {args.games} games: {found / args.games:.0f} a game")
    print(", ".join(f"{kind} {n:,}" for kind, n in kinds.most_common(25)))


if __name__ == "__main__":
    main()

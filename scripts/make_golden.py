"""Regenerate the golden game records under tests/golden/ (run after a deliberate rule change).

Each golden game is played by a seeded random player (deterministic: the same seed gives the
same game) and stored as JSON: the game record plus what its replay must give (final scores,
winners, number of deals and events, points per deal). One game is also stored in the text
notation. ``tests/test_engine_golden.py`` replays them all.

    .venv/bin/python scripts/make_golden.py          # rewrite every file
    .venv/bin/python scripts/make_golden.py --check  # exit 1 if a file would change
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from chicago import Game, Rules
from chicago.record import write_text

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"

# name -> (preset, variations, players, seed, description)
GAMES: dict[str, tuple[str, tuple[str, ...], int, int, str]] = {
    "pagat": ("pagat", (), 4, 101, "the default rules, four players"),
    "denexa": ("denexa", (), 3, 202, "no Chicago call, three players"),
    "wikipedia": ("wikipedia", (), 4, 303, "two exchanges, one up, negative scores"),
    "wikipedia-42": ("wikipedia-42", (), 3, 404, "lock at 42 with six cards, Chicago required"),
    "pagat-quads-suit-deuce": (
        "pagat", ("V-QUADS-RESET", "V-TIE-SUIT", "V-DEUCE", "V-CHI-13"), 4, 505,
        "quads reset, suit tie-break, deuce bonus, Chicago 13",
    ),
    "wikipedia-large": (
        "wikipedia", ("V-LARGE", "V-REDEAL-LOW", "V-CHI-BREAKER", "V-WIN-AGAIN"), 6, 606,
        "six players with reshuffles, low redeal, Chicago breaker, win again",
    ),
}
TEXT_GAME = "pagat"  # also written as pagat.txt in the text notation


def play(game: Game, seed: int) -> Game:
    """A seeded random player; it declares Chicago only with three cards of king or higher."""
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        action = rng.choice(legal)
        if str(action) == "chicago":
            seat = game.to_act
            assert seat is not None
            high = sum(1 for card in game.view(seat).hand if str(card)[0] in "KA")
            if high < 3:
                action = legal[0]  # "no chicago"
        game.apply(action)
    return game


def expected(game: Game) -> dict[str, Any]:
    """What a replay of the game must give."""
    return {
        "scores": list(game.scores),
        "winners": list(game.winners),
        "settlement": game.settlement(),
        "deals": game.deal_number,
        "actions": len(game.actions),
        "events": len(game.events),
        "deal_points": [list(d.points) for d in game.deal_history],
    }


def build() -> dict[str, str]:
    """File name -> content of every golden file."""
    files: dict[str, str] = {}
    for name, (preset, variations, players, seed, description) in GAMES.items():
        rules = Rules.preset(preset).with_variations(*variations)
        game = play(Game(rules, players, seed=seed), seed)
        data = {
            "name": name,
            "description": description,
            "variations": list(variations),
            "expected": expected(game),
            "record": game.record(),
        }
        files[f"{name}.json"] = json.dumps(data, indent=1, sort_keys=True) + "\n"
        if name == TEXT_GAME:
            tags = {"Event": f"golden game {name}", "Events": str(len(game.events))}
            files[f"{name}.txt"] = write_text(game.record(), tags)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args(argv)
    files = build()
    changed = [n for n, text in files.items()
               if not (GOLDEN / n).exists() or (GOLDEN / n).read_text() != text]
    if args.check:
        for name in changed:
            print(f"would change: {name}")
        return 1 if changed else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (GOLDEN / name).write_text(text)
    print(f"wrote {len(files)} files to {GOLDEN} ({len(changed)} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Records for the review tests: stacked deals played to their end by a script and bots."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chicago import Action, Game, Rules
from chicago.bots import make_bot

Script = Callable[[Game, int], Action | str | None]
"""Chooses the scripted seat's action (None: let the bot decide)."""


def play_out(game: Game, seat: int, script: Script, bot: str = "basic",
             seed: int = 0) -> dict[str, Any]:
    """Play ``game`` to its end: ``seat`` by ``script`` (or the bot where it says None), the
    others by ``bot``; the record."""
    player = make_bot(bot)
    rng = random.Random(seed)
    while not game.is_over:
        to_act = game.to_act
        assert to_act is not None
        choice = script(game, to_act) if to_act == seat else None
        if choice is None:
            choice = player.decide(game.view(to_act), game.legal_actions(), rng)
        game.apply(choice)
    return game.record()


def one_deal(players: int, deck: list[str], dealer: int, **options: Any) -> Game:
    """A one-deal game of the ``pagat`` rules on a stacked deck."""
    rules = Rules.preset("pagat", max_deals=1, **options)
    return Game(rules, players, seed=1, decks=[deck], dealer=dealer)


def small_game_file(folder: Path) -> Path:
    """A finished three-player game of two deals by ``ev`` bots, saved in ``folder`` as
    ``chicago play`` saves one (seat 1 the player "You", seat 0 "Ada")."""
    game = Game(Rules.preset("pagat", max_deals=2), 3, seed=21)
    bot = make_bot("ev")
    rng = random.Random(5)
    while not game.is_over:
        game.apply(bot.decide(game.view(game.to_act), game.legal_actions(), rng))
    path = folder / "game.json"
    record = {**game.record(), "tags": {"Human": "1", "Name1": "You", "Name0": "Ada"}}
    path.write_text(json.dumps(record))
    return path

"""Which game a review is of: a stable hash of the record, and its shape."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

from chicago.engine import Game
from chicago.review.model import RecordIdentity

__all__ = ["record_hash", "record_identity"]

_HASHED = ("rules", "players", "seed", "dealer", "decks", "actions")


def record_hash(game: Game) -> str:
    """``sha256:`` and the digest of the canonical JSON of the game's record header and
    actions (rules in full, actions in their normal text): the same game always gives the
    same hash, however its record file was written."""
    record: Mapping[str, object] = game.record()
    canonical = {key: record[key] for key in _HASHED if key in record}
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def record_identity(game: Game) -> RecordIdentity:
    """The identity of the (replayed, final) game of a record."""
    return RecordIdentity(
        hash=record_hash(game),
        rules=game.rules.preset_name,
        players=game.players,
        seed=game.seed,
        actions=game.action_count,
        deals=game.deal_number,
        finished=game.is_over,
    )

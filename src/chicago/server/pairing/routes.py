"""``GET /api/pairing``: what the lobby's "Play now with people" control offers, and how many
wait in each queue (counts only: nothing about who)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from chicago.rules import PRESETS
from chicago.server.pairing.service import MAX_WAIT, Pairing, players_of

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.get("/pairing")
async def pairing_queues(request: Request) -> dict[str, Any]:
    """The numbers of players each preset may queue for, the longest wait before bots, and
    the places waiting per queue."""
    pairing: Pairing = request.app.state.pairing
    counts = await pairing.counts()
    return {
        "players": {preset: players_of(preset) for preset in PRESETS},
        "max_wait": MAX_WAIT,
        "grace": pairing.settings.pairing_grace,
        "queues": [{"preset": preset, "players": players, "rated": rated, "waiting": count}
                   for (preset, players, rated), count in sorted(counts.items())],
    }

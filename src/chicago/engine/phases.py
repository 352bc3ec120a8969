"""The phases of a deal: whose kind of decision comes next.

A phase is a string enum, so that a view's phase is typed (:class:`Phase`) and still equals
its JSON text: ``Phase.ONE_UP == "one up"``.

>>> Phase("one up") is Phase.ONE_UP, Phase.PLAY == "play"
(True, True)
"""

from __future__ import annotations

import enum

__all__ = ["Phase"]


class Phase(enum.StrEnum):
    """Where a deal is: whose kind of decision comes next."""

    REDEAL = "redeal"
    """V-REDEAL-LOW: each player may throw in a hand of low cards once."""
    EXCHANGE = "exchange"
    """An exchange round (R-EX-1)."""
    ONE_UP = "one up"
    """V-ONE-UP: the player decides on the face-up card."""
    ANNOUNCE = "announce"
    """A scoring round (R-ANN-1)."""
    QUADS_CHOICE = "quads choice"
    """V-QUADS-RESET: the scoring round's winner with four of a kind: reset or score."""
    QUADS = "quads"
    """V-QUADS-RESET after the last exchange: each player may reset with four of a kind."""
    CHICAGO = "chicago"
    """The Chicago call (R-CHI-1)."""
    PLAY = "play"
    """Trick play (R-TRICK-*)."""
    OVER = "over"
    """The game has ended."""

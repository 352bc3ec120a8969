"""The engine's errors, one class per cause.

:class:`IllegalAction`: a player tried something the rules do not allow now (the game is
unchanged). :class:`WorldError`: a world (the hidden cards of a determinized game) does not
fit what the table has seen, so the engine refuses it instead of scoring nonsense.
:class:`RecordError`: a game record that cannot be replayed.
"""

from __future__ import annotations

__all__ = ["IllegalAction", "RecordError", "WorldError"]


class IllegalAction(ValueError):
    """An action that is not legal now; the game is exactly as before.

    ``reason`` says why in words; ``action`` and ``seat`` say what was tried by whom.
    """

    def __init__(self, reason: str, action: object = None, seat: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.action = action
        self.seat = seat


class WorldError(ValueError):
    """Hidden cards that do not fit the public record of the deal.

    Raised when no deal of the unseen cards can be found that fits everything a seat knows
    (announcements, revealed ranks, shown and kept combinations, voids), or when a game's
    hands contradict what was announced (``seat`` names the player, if one is at fault).
    """

    def __init__(self, reason: str, seat: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


class RecordError(ValueError):
    """A record that cannot be replayed; ``action_number`` (1-based) says where, if known."""

    def __init__(self, message: str, action_number: int | None = None) -> None:
        super().__init__(message)
        self.action_number = action_number

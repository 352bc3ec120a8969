"""Notices (a bot stood in for, why the game goes on, whose cards a replay shows) that the
shells say in the player's language.

A :class:`Notice` is the English text (it is a ``str``, so code that stores or compares
notices as text keeps working) that also keeps its catalogue key and parameters;
:func:`say` words it in the language of a :class:`~chicago.tui.words.Words`. Parameters
that name seats are given as seats (:class:`Seats`), so "You" becomes "Du" in Swedish.

>>> from chicago.tui.words import Words
>>> note = Notice("tui.note.unavailable", spec="ev")
>>> str(note)
'The ev bot is not available yet: playing against random bots instead.'
>>> say(note, Words(["Du"], lang="sv"))
'Datorn ev finns inte än: du spelar mot slumpdatorer i stället.'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chicago.tui.words import Words

__all__ = ["Notice", "Seats", "say"]


@dataclass(frozen=True)
class Seats:
    """Seats with a number each (their scores), said as "Astrid 53, You 52"."""

    seats: tuple[tuple[int, int], ...]

    def say(self, words: Words) -> str:
        """The seats in the language of ``words``."""
        return ", ".join(f"{words.who(seat)} {number}" for seat, number in self.seats)


class Notice(str):
    """A notice in English that can be said in another language (:func:`say`).

    ``names`` are the seats' names, for the English text of :class:`Seats` parameters.
    """

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, names: tuple[str, ...] = (), **params: Any) -> Notice:
        text = _say(key, params, Words(list(names)))
        notice = super().__new__(cls, text)
        notice.key = key
        notice.params = params
        return notice


def _say(key: str, params: dict[str, Any], words: Words) -> str:
    filled = {k: v.say(words) if isinstance(v, Seats) else v for k, v in params.items()}
    return words.t(key, **filled)


def say(notice: str, words: Words) -> str:
    """``notice`` in the language of ``words`` (a plain text as it is)."""
    if isinstance(notice, Notice):
        return _say(notice.key, notice.params, words)
    return notice

"""Pieces shared by the tests of ``master``'s options (issue 30): an option's parsing and
refusals, and the trick search's score of each card of a constructed position."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from chicago.bots import make_bot
from chicago.bots.master import MasterBot
from chicago.bots.solver import Position, last_trick_values
from chicago.cards import Card
from chicago.engine.knowledge import Knowledge


def master(spec: str) -> MasterBot:
    """The ``master`` bot of ``spec``."""
    bot = make_bot(spec)
    assert isinstance(bot, MasterBot)
    return bot


def check_option(name: str, attribute: str, default: object, value: str, expected: object,
                 bad: Sequence[str]) -> MasterBot:
    """``master``'s option ``name``: the bot's ``attribute`` is ``default`` without it and
    ``expected`` with ``name=value`` (that bot returned, for further checks); each of
    ``bad`` is refused with a ``ValueError`` naming the option."""
    assert getattr(master("master"), attribute) == default
    bot = master(f"master:{name}={value}")
    assert getattr(bot, attribute) == expected
    for text in bad:
        with pytest.raises(ValueError, match=name):
            make_bot(f"master:{name}={text}")
    return bot


def position_scores(spec: str, k: Knowledge, position: Position) -> dict[Card, float]:
    """The trick search's score of each card of ``position`` in one deal by the ``master``
    of ``spec`` (its sure points, the model's share, ``block``'s, ``lockmodel``'s)."""
    bot = master(spec)
    values = last_trick_values(position, points=k.rules.last_trick_points)
    scores = dict.fromkeys(values, 0.0)
    bot._add_scores(k, position, values, scores)
    return scores

"""The one list of the methods the engine's C accelerator puts on :class:`Game`
(``chicago.engine.game.ACCELERATED_METHODS``, each with its pure-Python twin) is whole:
every ``*_python`` method of ``Game`` is the twin of a method on it; with the accelerator
built, every listed method is the C one and every C method on ``Game`` is listed; and
``PureGame`` (tests/engine_helpers.py, the all-Python game of the lockstep tests) has every
twin. A C method added without its entry fails here, not unseen in the tests that compare
the two paths."""

from __future__ import annotations

import types

import pytest

from chicago import Game
from chicago.engine.game import ACCELERATED_METHODS
from chicago.engine.native import ENGINE
from engine_helpers import PureGame


def unlisted_twins(cls: type) -> set[str]:
    """The pure-Python twins (methods named ``*_python``) of ``cls`` that no entry of
    ``ACCELERATED_METHODS`` names."""
    names = {name for klass in cls.__mro__ for name in vars(klass)}
    return {name for name in names if name.endswith("_python")} - {
        twin for _, twin in ACCELERATED_METHODS}


def test_every_python_twin_is_listed() -> None:
    assert unlisted_twins(Game) == set()
    for name, twin in ACCELERATED_METHODS:
        assert callable(getattr(Game, name)) and callable(getattr(Game, twin)), name
    assert len({name for name, _ in ACCELERATED_METHODS}) == len(ACCELERATED_METHODS)


def test_a_twin_left_out_of_the_list_is_found() -> None:
    """The check above fails for a game class with a twin the list does not name."""

    class Another(Game):
        def _settle_python(self) -> None:
            """A made-up twin."""

        _settle = _settle_python

    assert unlisted_twins(Another) == {"_settle_python"}


def test_the_pure_game_has_every_twin() -> None:
    for name, twin in ACCELERATED_METHODS:
        assert getattr(PureGame, name) is getattr(Game, twin), name


@pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                    "(or CHICAGO_PURE_PYTHON is set)")
def test_the_listed_methods_are_the_c_ones_and_no_other() -> None:
    """With the accelerator built, each listed method of ``Game`` is not its twin, and the
    methods written in C on ``Game`` (method descriptors) are the listed ones."""
    for name, twin in ACCELERATED_METHODS:
        assert getattr(Game, name) is not getattr(Game, twin), name
    in_c = {name for name, value in vars(Game).items()
            if isinstance(value, types.MethodDescriptorType)}
    assert in_c == {name for name, _ in ACCELERATED_METHODS}

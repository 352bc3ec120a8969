"""The engine's boundary: shells use its public API only, and a copy is complete (issue 19,
item 3).

- No module of ``src/chicago`` outside ``engine/`` reads or writes a private attribute of an
  engine object (an AST scan for ``x._name`` where ``_name`` is private to a class of
  ``chicago.engine``), nor subclasses :class:`~chicago.Game`: card flows are card sources.
- :meth:`Game.copy` keeps the type and the card source, and shares nothing mutable with the
  original (walked object by object), in every phase of games of every preset: the events
  are immutable values, so the two logs may hold the same ones.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import chicago.engine as engine_package
from chicago import Game, Rules
from chicago.cards import Card
from chicago.engine import (
    actions,
    errors,
    events,
    game,
    knowledge,
    sampling,
    sources,
    state,
    worlds,
)
from chicago.engine import views as engine_views
from chicago.engine.carried import DealMemo
from chicago.env.chance import ChanceTable
from chicago.rules import PRESETS
from chicago.sim import DuplicateDecks, duplicate_game

SRC = Path(engine_package.__file__).parent.parent
ENGINE_MODULES: list[ModuleType] = [
    actions, errors, events, game, knowledge, sampling, sources, state, engine_views, worlds,
]


def _private_names() -> set[str]:
    """Every private attribute or method of a class of the engine (``_x``, not dunders)."""
    names: set[str] = set()
    for module in ENGINE_MODULES:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if not cls.__module__.startswith("chicago.engine"):
                continue
            for klass in cls.__mro__:
                if klass.__module__.startswith("chicago.engine"):
                    names |= set(vars(klass)) | set(getattr(klass, "__slots__", ()))
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _modules_outside_the_engine() -> list[Path]:
    return [p for p in sorted(SRC.rglob("*.py")) if "engine" not in p.relative_to(SRC).parts]


def test_private_names_are_found() -> None:
    names = _private_names()
    assert {"_stock", "_discards", "_protected", "_quads_choice", "_deal_start_event"} <= names


def test_no_module_outside_the_engine_touches_its_private_state() -> None:
    """Shells, bots, environments, server, storage and simulation use the public API."""
    names = _private_names()
    found = []
    for path in _modules_outside_the_engine():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in names:
                base = node.value
                if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                    continue  # the module's own object
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "\n".join(found)


def test_no_module_outside_the_engine_subclasses_the_game() -> None:
    """Card flows (duplicate queues, OpenSpiel's chance nodes) are card sources given to
    the game, not subclasses of it."""
    found = []
    for path in _modules_outside_the_engine():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(b) for b in node.bases}  # pyspiel.Game is fine
                if bases & {"Game", "chicago.Game", "engine.Game", "game.Game"}:
                    found.append(f"{path.relative_to(SRC)}:{node.lineno}: class {node.name}")
    assert not found, found


_SHARED_OK = (int, float, str, bool, bytes, type(None), Card, enum.Enum, Rules, random.Random,
              DealMemo)
"""Immutable values (and the generator, copied when one side draws: tested below; and the
per-deal memo of what each seat has seen, shared on purpose: a copy that goes another way
gets a memo of its own, tests/test_engine_shared_views.py)."""


def _mutable_parts(obj: Any, seen: dict[int, str], path: str, out: dict[int, str]) -> None:
    """Every mutable object reachable from ``obj`` by id, with a path to it."""
    if isinstance(obj, _SHARED_OK) or id(obj) in seen:
        return
    seen[id(obj)] = path
    if isinstance(obj, tuple):
        for i, item in enumerate(obj):
            _mutable_parts(item, seen, f"{path}[{i}]", out)
        return
    if isinstance(obj, events.Event):  # immutable: only what its fields hold may be shared
        for name in obj.fields:
            _mutable_parts(getattr(obj, name), seen, f"{path}.{name}", out)
        return
    if isinstance(obj, frozenset):
        return
    frozen = dataclasses.is_dataclass(obj) and type(obj).__dataclass_params__.frozen  # type: ignore[attr-defined]
    if not frozen:
        out[id(obj)] = path
    if isinstance(obj, list | set):
        for i, item in enumerate(obj):
            _mutable_parts(item, seen, f"{path}[{i}]", out)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            _mutable_parts(value, seen, f"{path}[{key!r}]", out)
    else:
        slots = [s for k in type(obj).__mro__ for s in getattr(k, "__slots__", ())]
        for name in slots:
            if name in ("__dict__", "__weakref__") or not hasattr(obj, name):
                continue
            _mutable_parts(getattr(obj, name), seen, f"{path}.{name}", out)
        for name, value in getattr(obj, "__dict__", {}).items():
            _mutable_parts(value, seen, f"{path}.{name}", out)


def _assert_shares_nothing(a: object, b: object) -> None:
    mine: dict[int, str] = {}
    theirs: dict[int, str] = {}
    _mutable_parts(a, {}, "game", mine)
    _mutable_parts(b, {}, "copy", theirs)
    shared = sorted(mine[i] for i in set(mine) & set(theirs))
    shared = [path for path in shared if path not in _SHARED_ON_PURPOSE]
    assert not shared, f"shared mutable parts: {shared[:10]}"


_SHARED_ON_PURPOSE = {"game._events", "game._action_log", "game._pending"}
"""The log of events made, the records of events not made yet and the list of actions: a
copy shares them and each side reads only its own first part of them
(tests/test_engine_shared_log.py, tests/test_engine_shared_actions.py)."""


def _games() -> list[Game]:
    out = []
    for preset in PRESETS:
        out.append(Game(Rules.preset(preset).with_variations("V-QUADS-RESET"), 4, seed=2))
    out.append(Game(Rules.preset("wikipedia").with_variations("V-ONE-UP", "V-REDEAL-LOW"), 3,
                    seed=4))
    out.append(duplicate_game(Rules.preset("pagat"), 4, seed=5, deck_seed=6))
    return out


@pytest.mark.parametrize("index", range(6))
def test_a_copy_shares_nothing_mutable_with_its_original(index: int) -> None:
    """In every phase of a game (actions, hands, stock, tricks, shown hands, deal history,
    the card source's queues …) the copy and the original share no list, dict or other
    mutable object but the logs of events and the list of actions (which each reads its
    own part of), and the copy has the original's type and card source type."""
    g = _games()[index]
    rng = random.Random(index)
    while not g.is_over and g.deal_number <= 3:
        twin = g.copy()
        assert type(twin) is type(g) and type(twin.source) is type(g.source)
        _assert_shares_nothing(g, twin)
        assert twin.view(g.to_act) == g.view(g.to_act)
        g.apply(rng.choice(g.legal_actions()))


def test_copies_go_their_own_way() -> None:
    """Changing either side leaves the other as it was; each copy's future shuffles (the
    seeded generator, copied when one side draws) are the same as the original's."""
    g = duplicate_game(Rules.preset("pagat"), 4, seed=5, deck_seed=6)
    twin = g.copy()
    before = g.view(g.to_act)
    rng = random.Random(1)
    while twin.deal_number < 3:
        twin.apply(rng.choice(twin.legal_actions()))
    assert g.view(g.to_act) == before and g.deal_number == 1
    again = g.copy()
    rng = random.Random(1)
    while again.deal_number < 3:
        again.apply(rng.choice(again.legal_actions()))
    assert again.events_for(None) == twin.events_for(None)


def test_duplicate_queues_are_copied() -> None:
    """The duplicate source's per-seat queues belong to each copy (they used to be shared)."""
    g = duplicate_game(Rules.preset("pagat"), 4, seed=3, deck_seed=9)
    source = g.source
    assert isinstance(source, DuplicateDecks)
    twin = g.copy()
    assert isinstance(twin.source, DuplicateDecks) and twin.source is not source
    seat = g.to_act
    assert seat is not None
    hand = sorted(g.hands[seat])
    g.apply("discard " + " ".join(map(str, hand[:3])))
    twin.apply("discard " + " ".join(map(str, hand[:3])))
    assert sorted(g.hands[seat]) == sorted(twin.hands[seat])


def test_chance_tables_copy_their_games() -> None:
    table = ChanceTable(Rules.preset("pagat"), 4)
    table.apply_chance(1)
    while table.chance_kind:
        table.apply_chance(table.candidates[-1])
    clone = table.copy()
    assert clone.game is not None and table.game is not None
    _assert_shares_nothing(table.game, clone.game)

"""The random tables the accelerator tests play (the C paths against the pure-Python ones):
rules drawn from every preset, variation and a few options, 2-6 players and a seed; and
:func:`differences`, where two values made two ways differ, their types included."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from chicago import Game, Rules, RulesError
from chicago.cards import DECK
from chicago.rules import PRESETS, VARIATIONS

OPTIONS: dict[str, dict[str, Any]] = {
    "show_on_break": {"show_on_break": True},
    "one_up": {"one_up": True},
    "max_discard": {"max_discard": 3},
    "quads": {"quads_reset": True, "quads_end_deal": True},
    "caller_leads": {"chicago_caller_leads": True, "chicago_enabled": True},
    "low_lock": {"lock_at": 8},
    "few_exchanges": {"exchanges": 1},
}
"""Rule options beside the variations (R-EX-4's shown hands, reshuffles, the lock …)."""


def derandomized(examples: int) -> Any:
    """Hypothesis settings for long random games: the same ``examples`` games on every run."""
    return settings(
        max_examples=examples, deadline=None, derandomize=True, database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        phases=[Stage.explicit, Stage.generate],
    )


def draw_table(draw: st.DrawFn, options: dict[str, dict[str, Any]],
               max_deals: int) -> tuple[Rules, int, int]:
    """Rules (a preset, up to four variations, up to two of ``options``, at most
    ``max_deals`` deals), seats and a seed."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    variations = draw(st.lists(st.sampled_from(sorted(VARIATIONS)), max_size=4, unique=True))
    extras = draw(st.lists(st.sampled_from(sorted(options)), max_size=2, unique=True))
    seed = draw(st.integers(0, 2**40))
    players = random.Random(seed).choice((2, 3, 4, 4, 5, 6))
    if players > 4 and "V-LARGE" not in variations:
        variations.append("V-LARGE")
    while True:
        try:
            rules = Rules.preset(preset).with_variations(*variations)
            break
        except RulesError as exc:
            variations.remove(next(v for v in variations if v != "V-LARGE" and v in str(exc)))
    for extra in extras:
        with contextlib.suppress(RulesError):
            rules = rules.replace(**options[extra])
    with contextlib.suppress(RulesError):
        rules = rules.replace(max_deals=draw(st.integers(1, max_deals)), target=25)
    return rules, players, seed


@st.composite
def sourced_tables(draw: st.DrawFn, max_deals: int) -> tuple[Rules, int, int, str]:
    """Rules of every preset with random variations and :data:`OPTIONS` (at most
    ``max_deals`` deals), seats, seed and a card source (plain, stacked or duplicate); now
    and then up to five cards to discard, so that the stock runs out (R-EX-2)."""
    rules, players, seed = draw_table(draw, OPTIONS, max_deals=max_deals)
    if draw(st.booleans()):
        rules = rules.replace(max_discard=5)
    source = draw(st.sampled_from(["plain", "plain", "stacked", "duplicate"]))
    return rules, players, seed, source


def state_of(value: object) -> dict[str, object]:
    """The attributes of an object that has no equality of its own (slots and ``__dict__``)."""
    names = [name for klass in type(value).__mro__ for name in getattr(klass, "__slots__", ())
             if name not in ("__dict__", "__weakref__")]
    found = {name: getattr(value, name) for name in names if hasattr(value, name)}
    return {**found, **getattr(value, "__dict__", {})}


def differences(fast: object, pure: object, where: str = "knowledge") -> Iterator[str]:
    """Where ``fast`` and ``pure`` differ, their types included (a list is not a tuple, a
    bool not an int), field by field for dataclasses, key by key (in order) for dicts."""
    if type(fast) is not type(pure):
        yield f"{where}: {type(fast).__name__} {fast!r} != {type(pure).__name__} {pure!r}"
    elif dataclasses.is_dataclass(pure):
        for field in dataclasses.fields(pure):
            yield from differences(getattr(fast, field.name), getattr(pure, field.name),
                                   f"{where}.{field.name}")
    elif isinstance(pure, dict):
        assert isinstance(fast, dict)
        if list(fast) != list(pure):
            yield f"{where}: keys {list(fast)} != {list(pure)}"
        else:
            for key in pure:
                yield from differences(fast[key], pure[key], f"{where}[{key!r}]")
    elif isinstance(pure, list | tuple):
        assert isinstance(fast, list | tuple)
        if len(fast) != len(pure):
            yield f"{where}: {fast!r} != {pure!r}"
        else:
            for i, (a, b) in enumerate(zip(fast, pure, strict=True)):
                yield from differences(a, b, f"{where}[{i}]")
    elif type(pure).__eq__ is object.__eq__ and fast is not pure:  # compared by its state
        yield from differences(state_of(fast), state_of(pure), f"{where}'s state")
    elif isinstance(pure, set):
        if fast != pure:
            yield f"{where}: {fast!r} != {pure!r}"
    elif fast != pure:
        yield f"{where}: {fast!r} != {pure!r}"


CARD_TEXTS = {str(card) for card in DECK}
"""Every card's text."""

REVEALING = ("shown", "reveals", "round_results", "scoring_round", "one_up")
"""The public fields of a view's text that may show cards a seat still holds (R-EX-4's shown
hands, the scoring rounds' reveals, V-ONE-UP's face-up card)."""


def cards_in(value: object) -> set[str]:
    """The card texts in a JSON value (as strings of their own or words of an action)."""
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value))
    if isinstance(value, str):
        return {word for word in value.split() if word in CARD_TEXTS}
    return set()


def run_in_threads(work: Callable[[int], object], count: int = 4) -> None:
    """``work(0)`` … ``work(count - 1)`` in as many threads at once, the interpreter switching
    between them every microsecond (so that they meet inside each other's reads); the
    switch interval is set back after. ``work`` reports its own failures (a thread's
    exception is not raised here)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)


def copies_along(game: Game, rng: random.Random, count: int) -> list[Game]:
    """Copies of ``game`` now and after each of its next random actions (each drawn
    uniformly with ``rng`` from the legal ones), until it is over or ``count`` copies are
    made; ``game`` itself is played on."""
    states = [game.copy()]
    while not game.is_over and len(states) < count:
        game.apply(rng.choice(game.legal_actions()))
        states.append(game.copy())
    return states

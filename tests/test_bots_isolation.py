"""A bot decides from its seat's view and nothing else, proved over whole games.

Two checks, at every decision of several games (every phase, several rule sets and
variations, two to four players), for every level:

- **Hidden cards do not matter.** A second game is made from the first by relabelling every
  card the seat cannot see (in the other hands, the stock and the discard pile) with a
  random permutation of those cards. The seat's view is identical in both (checked); the
  bot, called with each game on the stack, must make the same decision in both.
- **Nothing but the view.** The recorded views are replayed after the games are gone: a
  thread whose stack holds no game gets the view as pickled bytes (a frozen value that
  refers to nothing of the game), loads it, and asks a new bot; it must decide as the bot
  did with the game within reach.

Two cheating bots are fixtures that prove the checks have teeth: one reads the other hands
through the caller's stack frames (caught by the first check), one only looks for the game
object there (caught by the second, since its answer depends on finding it).
"""

from __future__ import annotations

import gc
import json
import pickle
import random
import re
import sys
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from chicago import Action, Game, Rules, SeatView
from chicago.bots import Bot, make_bot
from chicago.engine.viewjson import view_json

_CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][cdhs](?![0-9A-Za-z])")

SETUPS = [
    ("pagat", (), 4, 0),
    ("pagat", ("V-CHI-REQ3",), 3, 1),
    ("wikipedia", ("V-ONE-UP", "V-REDEAL-LOW", "V-QUADS-RESET", "V-LOCK-6", "V-DEUCE"), 3, 2),
    ("wikipedia-42", (), 4, 3),
    ("denexa", (), 2, 4),
]
"""(preset, variations, players, seed) of the games played for each level."""

LEVELS = [
    "random", "basic", "ev", "expert:samples=6;budget=60",
    "master:worlds=3;samples=5;proposals=2",
]
_PLAYED: list[weakref.ref[Game]] = []
"""The games :func:`_check_games` played (they must be gone before the JSON replay)."""


def _relabelled(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` in which every card ``seat`` cannot see (no card text of its view
    names it) is replaced, wherever it lies, by another such card: the hidden cards are
    dealt anew among the other hands, the stock and the discard pile."""
    seen = set(_CARD_TEXT.findall(json.dumps(view_json(game.view(seat)))))
    copy = game.copy()
    hidden = sorted(
        {c for h in copy.hands for c in h} | set(copy._stock) | set(copy._discards),
        key=int,
    )
    hidden = [c for c in hidden if str(c) not in seen]
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    relabel = dict(zip(hidden, shuffled, strict=True))

    def swap(cards: list[Any]) -> list[Any]:
        return [relabel.get(c, c) for c in cards]

    copy.hands = [h if s == seat else swap(h) for s, h in enumerate(copy.hands)]
    copy._stock = swap(copy._stock)
    copy._discards = swap(copy._discards)
    copy._own_discards = [d if s == seat else swap(d) for s, d in enumerate(copy._own_discards)]
    return copy


def _check_games(
    new_bot: Callable[[], Bot], setups: Sequence[tuple[str, tuple[str, ...], int, int]],
    max_deals: int = 2,
) -> tuple[list[str], list[tuple[bytes, int, str]], set[str], int]:
    """Play the games of ``setups`` with bots from ``new_bot``; at every decision compare
    the decision in the game and in a relabelled copy. Returns the mismatches, the records
    (pickled view, rng seed, decision) for :func:`_isolated_mismatches`, the phases
    seen and how many copies had other hands than their game."""
    changed = 0
    mismatches: list[str] = []
    _PLAYED.clear()
    records: list[tuple[bytes, int, str]] = []
    phases: set[str] = set()
    for preset, variations, players, seed in setups:
        rules = Rules.preset(preset, max_deals=max_deals).with_variations(*variations)
        game = Game(rules, players, seed=seed)
        _PLAYED.append(weakref.ref(game))
        bots = [new_bot() for _ in range(players)]
        rng = random.Random(seed)
        step = 0
        while not game.is_over:
            step += 1
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            decision_seed = seed * 100_003 + step
            here = _decide_on(game, seat, bots[seat], decision_seed)
            other = _relabelled(game, seat, rng)
            assert other.view(seat) == view, "the relabelled game must look the same"
            changed += other.hands != game.hands
            there = _decide_on(other, seat, bots[seat], decision_seed)
            del other
            if there != here:
                mismatches.append(f"{preset} step {step} ({view.phase}): {here} / {there}")
            records.append((pickle.dumps(view), decision_seed, str(here)))
            phases.add(view.phase)
            # now and then a random action instead, to reach more kinds of positions
            # (one-up requests, Chicago calls, odd discards)
            game.apply(_any_kind(game.legal_actions(), rng) if rng.random() < 0.3 else here)
    return mismatches, records, phases, changed


def _any_kind(legal: Sequence[Action], rng: random.Random) -> Action:
    """A random legal action, each kind of action (discard, one up, announce …) as likely."""
    kinds = sorted({a.kind.name for a in legal})
    kind = rng.choice(kinds)
    return rng.choice([a for a in legal if a.kind.name == kind])


def _decide_on(game: Game, seat: int, bot: Bot, decision_seed: int) -> Action:
    """The bot's decision for ``seat`` of ``game``, with that game (and no other) on the
    innermost frames of the stack, where a cheat would look first."""
    return bot.decide(game.view(seat), game.legal_actions(), random.Random(decision_seed))


def _isolated_mismatches(
    new_bot: Callable[[], Bot], records: list[tuple[bytes, int, str]]
) -> list[str]:
    """Decide every recorded view again on a thread that holds nothing but the pickled view
    (no game on its stack, none left alive), and list the decisions that differ."""
    gc.collect()
    assert _PLAYED and all(ref() is None for ref in _PLAYED), "a game is still alive"
    mismatches: list[str] = []

    def run(texts: list[tuple[bytes, int, str]]) -> None:
        for data, decision_seed, expected in texts:
            view = pickle.loads(data)
            legal = list(view.legal_actions)
            got = str(new_bot().decide(view, legal, random.Random(decision_seed)))
            if got != expected:
                mismatches.append(f"{view.phase}: {expected} with the game near, {got} "
                                  "from the view alone")

    thread = threading.Thread(target=run, args=(records,))
    thread.start()
    thread.join()
    return mismatches


@pytest.mark.parametrize("spec", LEVELS)
def test_every_decision_depends_on_the_view_alone(spec):
    mismatches, records, phases, changed = _check_games(lambda: make_bot(spec), SETUPS)
    assert not mismatches, mismatches[:5]
    assert changed > 0.9 * len(records)  # nearly always some other hand is different
    assert {"redeal", "exchange", "one up", "announce", "chicago", "play"} <= phases, phases
    assert len(records) > 200
    assert not _isolated_mismatches(lambda: make_bot(spec), records)


# --- cheating bots: the checks above must catch them ---------------------------------------

def _game_on_stack() -> Game | None:
    """The first Game object in the locals of the callers of the bot's ``decide`` (how a
    cheating bot would reach the game), or None."""
    frame = sys._getframe(2)  # the caller of decide()
    while frame is not None:
        for value in frame.f_locals.values():
            if isinstance(value, Game):
                return value
        frame = frame.f_back
    return None


class PeekingBot:
    """Cheats: walks the caller's frames to the game and plays by the next seat's hand."""

    name = "peeking"

    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        game = _game_on_stack()
        if game is None or view.seat is None:
            return legal_actions[0]
        other = game.hands[(view.seat + 1) % game.players]
        return legal_actions[sum(map(int, other)) % len(legal_actions)]


class GameFindingBot:
    """Cheats less: it only counts public things, but reads them from the game object it
    finds on the stack (the probe of the audit), else plays its first legal action."""

    name = "game-finding"

    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        game = _game_on_stack()
        if game is None:
            return legal_actions[0]
        hidden = len(game._stock) + sum(len(h) for h in game.hands)
        return legal_actions[hidden % len(legal_actions)]


def test_a_bot_reading_hidden_cards_is_caught():
    mismatches, _, _, _ = _check_games(PeekingBot, SETUPS[:2])
    assert len(mismatches) > 10


def test_a_bot_reaching_for_the_game_is_caught():
    mismatches, records, _, _ = _check_games(GameFindingBot, SETUPS[:2])
    assert not mismatches  # what it reads is public: relabelling cards cannot show it …
    assert len(_isolated_mismatches(GameFindingBot, records)) > 10  # … the lone view does

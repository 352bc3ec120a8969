"""Helpers for the rules-engine tests: stacked decks, scripted play, snapshots, seen cards.

``stack(players, dealer, hands, stock)`` builds a 52-card deck that deals ``hands[seat]`` to
each seat (one card at a time from the dealer's left, engine decision 1) and then gives the
``stock`` cards in order; the remaining cards follow in id order. A locked seat under
V-LOCK-6 may be given six cards: its sixth card is dealt in the sixth round.

``run(game, [...])`` plays action texts; ``"2: play Ah"`` also checks that seat 2 is to act.

``PureGame`` is the engine without its C accelerator: every accelerated method's
pure-Python twin, from the one list of them (``chicago.engine.game.ACCELERATED_METHODS``).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from chicago import Action, Game, IllegalAction, Rules
from chicago.cards import DECK, Card, parse_cards
from chicago.engine.game import ACCELERATED_METHODS
from chicago.engine.viewjson import view_json

CARD_RE = re.compile(r"^(?:[2-9TJQKA])[cdhs]$")


_G = TypeVar("_G", bound=Game)


def pure_python(cls: type[_G]) -> type[_G]:
    """``cls`` (a subclass of :class:`Game`) with the pure-Python twin of every method the
    accelerator puts in place (``ACCELERATED_METHODS``)."""
    for name, twin in ACCELERATED_METHODS:
        setattr(cls, name, getattr(Game, twin))
    return cls


@pure_python
class PureGame(Game):
    """The engine without its accelerator: the pure-Python methods only (with the
    accelerator not built, the same as :class:`Game`). Its copier is the accelerator's
    when that is built (tests/test_engine_shared_actions.py adds the Python one)."""


def stack(
    players: int,
    dealer: int,
    hands: Mapping[int, str] | Sequence[str],
    stock: str = "",
) -> list[str]:
    """A deck (card texts) that deals ``hands`` (per seat) and then ``stock`` in that order."""
    by_seat = dict(enumerate(hands)) if not isinstance(hands, Mapping) else dict(hands)
    parsed = {seat: list(parse_cards(text)) for seat, text in by_seat.items()}
    stock_cards = list(parse_cards(stock))
    used = [c for cards in parsed.values() for c in cards] + stock_cards
    if len(set(used)) != len(used):
        raise ValueError("a card is used twice in the stacked deck")
    spare = [c for c in DECK if c not in set(used)]
    order = [(dealer + 1 + i) % players for i in range(players)]
    for seat in order:
        parsed.setdefault(seat, [])
        while len(parsed[seat]) < 5:
            parsed[seat].append(spare.pop(_filler_index(parsed[seat], spare)))
    deck = []
    for rnd in range(5):
        for seat in order:
            deck.append(parsed[seat][rnd])
    for seat in order:  # V-LOCK-6: the sixth round for seats given six cards
        if len(parsed[seat]) == 6:
            deck.append(parsed[seat][5])
    deck += stock_cards + spare
    assert len(deck) == 52 and len(set(deck)) == 52
    return [str(c) for c in deck]


def _filler_index(hand: list[Card], spare: list[Card]) -> int:
    """A spare card that keeps a filler hand junk: ranks two apart, at most three of a suit."""
    ranks = [c.rank for c in hand]
    suits = [c.suit for c in hand]
    for index, card in enumerate(spare):
        if all(abs(card.rank - r) >= 2 for r in ranks) and suits.count(card.suit) < 3:
            return index
    for index, card in enumerate(spare):
        if card.rank not in ranks:
            return index
    return 0


def game(
    rules: Rules | str = "pagat",
    players: int = 4,
    dealer: int = 0,
    hands: Mapping[int, str] | Sequence[str] = (),
    stock: str = "",
    *,
    more_decks: Sequence[Sequence[str]] = (),
    seed: int = 1,
    scores: Sequence[int] | None = None,
) -> Game:
    """A game whose first deal is stacked; ``scores`` sets the starting scores (a test aid).

    Starting scores are set before the first deal (so locks and eligibility follow them): the
    game is built, the scores are patched, and the first deal is dealt again.
    """
    if isinstance(rules, str):
        rules = Rules.preset(rules)
    decks = [stack(players, dealer, hands, stock), *more_decks]
    g = Game(rules, players, decks=decks, dealer=dealer, seed=seed)
    if scores is not None:
        set_scores(g, scores)
    return g


def set_scores(g: Game, scores: Sequence[int]) -> Game:
    """Deal the current deal again as if the scores had been ``scores`` at its start.

    A test aid for locks (R-EX-5), Chicago eligibility (R-CHI-2) and game end: the deal's
    events and actions are dropped and the same (stacked) deck is dealt again. Only for a game
    that has had no action yet in this deal and whose deal is stacked (no shuffle is redone).
    """
    assert g.deal_number - 1 < len(g.decks), "set_scores needs a stacked deal"
    assert not g.deal_events or all(
        e.data["type"] in ("deal", "dealt") for e in g.deal_events
    ), "set_scores needs a deal with no action yet"
    del g.events[g._deal_start_event :]
    g.scores = list(scores)
    g.deal_number -= 1
    g.dealer = (g.dealer - 1) % g.players
    g._start_deal()
    g._advance()
    return g


def run(g: Game, actions: Iterable[str]) -> Game:
    """Apply action texts in order; ``"2: keep"`` asserts that seat 2 is the one to act."""
    for text in actions:
        seat_text, colon, rest = text.partition(":")
        if colon and seat_text.strip().isdigit():
            seat = int(seat_text)
            assert g.to_act == seat, f"expected seat {seat} to act for {rest!r}, not {g.to_act}"
            text = rest.strip()
        g.apply(text)
    return g


def keep_all(g: Game) -> Game:
    """Everyone keeps in the current exchange round."""
    start = g.round
    while g.phase.value == "exchange" and g.round == start:
        g.apply("keep")
    return g


def pass_all(g: Game) -> Game:
    """Everyone passes in the current announcement (or quads) round."""
    phase = g.phase
    while g.phase is phase and phase.value in ("announce", "quads"):
        g.apply("pass")
    return g


def events_of(g: Game, kind: str, *, deal: bool = True) -> list[dict[str, Any]]:
    """The data of the events of one type (this deal only by default)."""
    source = g.deal_events if deal else g.events
    return [dict(e.data) for e in source if e.data["type"] == kind]


def snapshot(g: Game) -> str:
    """Everything observable about a game, as one JSON text (to compare before/after)."""
    return json.dumps(
        {
            "record": g.record(),
            "views": [view_json(g.view(s)) for s in [None, *range(g.players)]],
            "events": len(g.events),
            "to_act": g.to_act,
            "phase": g.phase.value,
            "legal": [str(a) for a in g.legal_actions()],
            "scores": g.scores,
            "hands": [[str(c) for c in h] for h in g.hands],
            "stock": g.stock_count,
        },
        sort_keys=True,
    )


def assert_illegal(g: Game, action: str | Action, *words: str) -> IllegalAction:
    """The action raises IllegalAction whose reason has ``words``; the game is unchanged."""
    before = snapshot(g)
    try:
        g.apply(action)
    except IllegalAction as exc:
        err = exc
    else:
        raise AssertionError(f"{action!r} was accepted")
    assert snapshot(g) == before, f"{action!r} changed the game"
    assert not g.is_legal(action)
    assert err.reason and str(err) == err.reason
    for word in words:
        assert word.lower() in err.reason.lower(), f"{word!r} not in {err.reason!r}"
    return err


# ---------------------------------------------------------------------------------- random play
def random_action(g: Game, rng: random.Random, chicago_rate: float = 0.1) -> Action:
    """A random legal action; Chicago is declared only ``chicago_rate`` of the time."""
    legal = g.legal_actions()
    choice = rng.choice(legal)
    if choice.kind.value == "chicago" and rng.random() >= chicago_rate:
        choice = next(a for a in legal if a.kind.value == "no chicago")
    return choice


def play_random(g: Game, rng: random.Random, max_actions: int = 100_000) -> Game:
    """Play random legal actions until the game ends."""
    for _ in range(max_actions):
        if g.is_over:
            return g
        g.apply(random_action(g, rng))
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------------------- information
def card_strings(obj: Any) -> set[str]:
    """Every card-like string ("Ah", "Tc" …) anywhere in a JSON-able object."""
    found: set[str] = set()
    stack_: list[Any] = [obj]
    while stack_:
        item = stack_.pop()
        if isinstance(item, str):
            for token in re.split(r"[\s,]+", item):
                if CARD_RE.match(token):
                    found.add(token)
        elif isinstance(item, Mapping):
            stack_.extend(item.keys())
            stack_.extend(item.values())
        elif isinstance(item, list | tuple):
            stack_.extend(item)
    return found


def seen_cards(events: Iterable[Mapping[str, Any]], seat: int | None) -> set[str]:
    """The cards that ``seat`` has legitimately seen, computed from events it may see.

    Own dealt, drawn and discarded cards (private events), shown hands, one-up cards, played
    cards and the final showdown's hands.
    """
    seen: set[str] = set()
    for e in events:
        to = e.get("to")
        if to is not None and to != seat:
            raise AssertionError(f"seat {seat} was given an event of seat {to}: {e}")
        kind = e["type"]
        if kind == "dealt" and to == seat:
            seen.update(e["cards"])
        elif kind == "exchanged" and to == seat:
            seen.update(e["discarded"])
            seen.update(e["drawn"])
        elif kind == "show":
            seen.update(e["cards"])
        elif kind in ("one_up", "one_up_choice", "play") or kind == "trick":
            seen.add(e["card"])
        elif kind == "showdown":
            for cards in e["hands"].values():
                seen.update(cards)
    return seen


_DEFAULT_ACTION = {
    "redeal": "keep",
    "exchange": "keep",
    "announce": "pass",
    "quads": "pass",
    "chicago": "no chicago",
}


def advance_to(g: Game, phase: str, round_number: int | None = None) -> Game:
    """Keep, pass and decline Chicago until ``phase`` (and 1-based ``round_number``) is reached.

    Phases are the values of :class:`chicago.Phase`: ``"exchange"``, ``"announce"``,
    ``"chicago"``, ``"play"`` …
    """
    for _ in range(1000):
        here = g.phase.value == phase and (round_number is None or g.round + 1 == round_number)
        if here or g.is_over:
            return g
        if g.phase.value not in _DEFAULT_ACTION:
            raise AssertionError(f"reached {g.phase.value} before {phase}")
        g.apply(_DEFAULT_ACTION[g.phase.value])
    raise AssertionError(f"never reached {phase}")


def view_text(g: Game, seat: int | None) -> str:
    """A seat's view and its event log as one JSON text (to search for leaks)."""
    return json.dumps({"view": view_json(g.view(seat)),
                       "log": [e.to_json() for e in g.events_for(seat)]}, sort_keys=True)


def jview(g: Game, seat: int | None) -> dict[str, Any]:
    """The JSON form of a seat's view (what a frame or the bot protocol carries)."""
    return view_json(g.view(seat))

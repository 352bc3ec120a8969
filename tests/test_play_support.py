"""Helpers for the terminal-play tests (hidden-card oracle, screen text), and their own checks.

The oracle is the only place that reads another seat's hand (``game.hands``): it tells the
tests which cards the human must not be shown at that moment.
"""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any

from rich.console import Console
from textual.app import App

from chicago import Game, Rules
from chicago.cards import Card
from chicago.tui.words import symbol_card
from engine_helpers import advance_to, game, keep_all, run

_CARD_TEXT = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([cdhs♣♦♥♠])(?![A-Za-z0-9])")


def cards_mentioned(value: Any) -> set[str]:
    """Every card named anywhere in a JSON-able value (event dicts, lists, texts)."""
    found: set[str] = set()
    if isinstance(value, str):
        for match in _CARD_TEXT.finditer(value):
            with contextlib.suppress(ValueError):
                found.add(str(Card(match.group(0))))
    elif isinstance(value, dict):
        for item in value.values():
            found |= cards_mentioned(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= cards_mentioned(item)
    return found


def hidden_cards(game: Game, seat: int = 0, recent_deals: int = 2) -> set[str]:
    """Cards in other hands now that ``seat`` has not seen in its events of recent deals.

    A card the seat saw in the current or the previous deal (its own, shown, played, or
    at a showdown) may legitimately still be on screen, so it is left out.
    """
    visible = [e.to_json() for e in game.events if e.visible_to(seat)]
    starts = [i for i, e in enumerate(visible) if e["type"] == "deal"]
    first = starts[-recent_deals] if len(starts) >= recent_deals else 0
    seen = cards_mentioned(visible[first:])
    held = {str(c) for s in range(game.players) if s != seat for c in game.hands[s]}
    return held - seen


def leaked(text: str, hidden: set[str]) -> set[str]:
    """The hidden cards that ``text`` names, in the text or the symbol form."""
    named = cards_mentioned(text)
    return {c for c in hidden if c in named or symbol_card(c) in text}


LOWER_QUADS, HIGHER_QUADS = "9c 9d 9h 9s 2c", "Kc Kd Kh Ks 3c"


def quads_objection_game(
    where: str = "scoring round", players: int = 3, *, until: str = "objection"
) -> Game:
    """A real game (V-QUADS-RESET) whose first deal is stacked: seat 0 holds four nines,
    seat 1 four kings, the others junk; seat 0 speaks first. Seat 0 resets, seat 1 objects.

    ``where="scoring round"``: everyone keeps, seat 0 announces four of a kind, the others
    pass, seat 0 wins the round and chooses reset. ``where="last exchange"``: everyone keeps
    and passes until the question after the last exchange, seat 0 claims a reset, the others
    pass. The game is returned right after the objection; ``until="choice"`` stops when seat
    0 is to choose or claim, ``until="start"`` before the first action.
    """
    rules = Rules.preset("pagat").with_variations("V-QUADS-RESET")
    g = game(rules, players, dealer=players - 1, hands=[LOWER_QUADS, HIGHER_QUADS],
             scores=[10, 30, 20, 25][:players])
    if until == "start":
        return g
    others = [f"{s}: pass" for s in range(1, players)]
    if where == "scoring round":
        keep_all(g)
        run(g, ["0: announce four of a kind", *others])
        assert g.phase.value == "quads choice"
        if until == "objection":
            run(g, ["0: reset"])
    else:
        advance_to(g, "quads")
        if until == "objection":
            run(g, ["0: reset", *others])
    return g


def screen_text(app: App[Any]) -> str:
    """The text of the whole rendered screen of a running app (no colours)."""
    console = Console(
        width=app.size.width, height=app.size.height, file=io.StringIO(), record=True,
        force_terminal=True, color_system=None,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


def test_cards_mentioned_reads_both_forms() -> None:
    assert cards_mentioned(["Ah Kd", {"x": "10♥ and 2♣"}, "The Astrid"]) == {
        "Ah", "Kd", "Th", "2c",
    }


def test_hidden_cards_are_other_hands_not_yet_seen() -> None:
    """R-EX-3: at the start only the seat's own five cards are known to it."""
    game = Game(Rules.preset("pagat"), players=3, seed=4)
    hidden = hidden_cards(game, 0)
    assert len(hidden) == 10
    assert not hidden & {str(c) for c in game.hands[0]}
    assert leaked("You hold " + " ".join(sorted(hidden)), hidden) == hidden

"""Replays for the browser: a finished game's record as steps, the way one seat saw it.

A replay is a list of **steps**, grouped by deal. The first step of a deal is the deal
itself (the cards dealt); then one step per action. The action that ends a deal gets its
own closing step showing the end of that deal (the last trick, the showdown, the points),
and the next deal starts with a new step, so stepping never jumps from one deal's last trick
straight into the next deal's hand.

A step is JSON-able::

    {"index": 17, "deal": 2, "seat": 3, "action": "discard 2h 7c" or None,
     "number": 15,
     "events": [...the events of this step the perspective may see...],
     "state": {...the seat view after the step, without rules/events/history...}}

``number`` is the record's action number (1-based; None for a deal step): a review's
decisions name their action by it (``step``), so the page can jump to one.

The **perspective** is a seat (what that player saw: its own cards, public events, other
seats' discards as counts only), ``"public"`` (a spectator) or ``"all"`` (every card face
up: the view adds ``hands`` and ``hand_categories`` for every seat). Seat and public steps
are built only from :meth:`chicago.Game.view` and :meth:`Event.visible_to`, so they never
hold a card that perspective did not see.

>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat", max_deals=1), players=3, seed=5)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> deals = replay_steps(game.record(), 0)
>>> deals[0][0]["events"][0]["type"], deals[0][0]["state"]["deal"]
('deal', 1)
>>> deals[0][-1]["state"]["over"]
True
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from chicago.engine.actions import Action, ActionKind
from chicago.engine.events import Event
from chicago.engine.game import Game
from chicago.engine.records import start_record
from chicago.engine.viewjson import field_json, state_json
from chicago.engine.views import scoring_round
from chicago.poker import evaluate
from chicago.record import RecordError

__all__ = ["Perspective", "parse_perspective", "replay_page", "replay_steps"]

Perspective = int | Literal["all", "public"]
"""A seat number, ``"public"`` (a spectator) or ``"all"`` (every card face up)."""

_HIDDEN_KINDS = (ActionKind.DISCARD, ActionKind.ONE_UP)


def parse_perspective(text: str | int | None, players: int) -> Perspective:
    """``"all"``, ``"public"`` (also ``"spectator"``) or a seat ``"0"``…; ValueError if not."""
    if text is None:
        return "all"
    if isinstance(text, int) and not isinstance(text, bool):
        seat = text
    else:
        word = str(text).strip().lower()
        if word in ("all", "public"):
            return "all" if word == "all" else "public"
        if word == "spectator":
            return "public"
        if not word.isdigit():
            raise ValueError(
                f"view must be 'all', 'public' or a seat 0-{players - 1}, not {text!r}"
            )
        seat = int(word)
    if not 0 <= seat < players:
        raise ValueError(f"seat must be 0-{players - 1}, not {seat}")
    return seat


def _start(record: dict[str, Any]) -> tuple[Game, list[tuple[int, str]]]:
    game, actions = start_record(record, Game)
    pairs = []
    for number, (seat, text) in enumerate(actions, start=1):
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(text, str):
            raise RecordError(f"action {number}: expected [seat, action text], got "
                              f"{[seat, text]!r}", number)
        pairs.append((seat, text))
    return game, pairs


def _state(game: Game, perspective: Perspective) -> dict[str, Any]:
    seat = perspective if isinstance(perspective, int) else None
    view: dict[str, Any] = state_json(game.view(seat))  # without rules, events, history
    del view["legal_actions"]
    if perspective == "all":
        hands = {s: sorted(game.hands[s]) for s in range(game.players)}
        view["hands"] = {str(s): [str(c) for c in cards] for s, cards in hands.items()}
        view["hand_categories"] = {
            str(s): evaluate(cards, game.rules).category.name if len(cards) == 5 else None
            for s, cards in hands.items()
        }
    return view


def _visible(events: list[Event], perspective: Perspective) -> list[dict[str, Any]]:
    if perspective == "all":
        return [e.to_json() for e in events]
    seat = perspective if isinstance(perspective, int) else None
    return [e.to_json() for e in events if e.visible_to(seat)]


def _closing_state(before: dict[str, Any], events: list[dict[str, Any]],
                   deal_events: list[Event]) -> dict[str, Any]:
    """The end of a deal: the state before the last action with that action's events applied
    (``deal_events``: the whole deal's events, for its last scoring round).

    Only public facts and the perspective's own cards are touched, so the result holds
    nothing the perspective did not see.
    """
    state = copy.deepcopy(before)
    state["scoring_round"] = field_json("scoring_round", scoring_round(deal_events))
    for ev in events:
        kind = ev["type"]
        if kind == "play":
            seat, card = ev["seat"], ev["card"]
            state["trick"].append({"seat": seat, "card": card})
            state["played"][seat].append(card)
            state["hand_sizes"][seat] -= 1
            if card in state.get("hand", []):
                state["hand"].remove(card)
            hands = state.get("hands")
            if hands is not None and card in hands.get(str(seat), []):
                hands[str(seat)].remove(card)
        elif kind == "trick":
            state["tricks"].append({"winner": ev["winner"], "cards": list(state["trick"])})
        elif kind == "show":
            state["shown"][str(ev["seat"])] = list(ev["cards"])
        elif kind == "showdown":
            for seat, cards in ev.get("hands", {}).items():
                state["shown"][str(seat)] = list(cards)
        elif kind == "score":
            state["scores"][ev["seat"]] = ev["total"]
        elif kind == "chicago_result":
            state["chicago"] = ev["seat"]
        elif kind in ("deal_end", "game_end"):
            state["scores"] = list(ev["scores"])
            if kind == "game_end":
                state["winners"] = list(ev.get("winners", []))
                state["settlement"] = ev.get("settlement")
    state["phase"] = "deal over"
    state["to_act"] = None
    return state


def replay_steps(record: dict[str, Any], perspective: Perspective) -> list[list[dict[str, Any]]]:
    """Every step of a recorded game as ``perspective`` saw it, one list per deal.

    Raises :class:`chicago.record.RecordError` when the record cannot be replayed.
    """
    game, actions = _start(record)
    if isinstance(perspective, int) and not 0 <= perspective < game.players:
        raise ValueError(f"seat must be 0-{game.players - 1}, not {perspective}")
    deals: list[list[dict[str, Any]]] = []
    index = 0

    def add(step: dict[str, Any]) -> None:
        nonlocal index
        step["index"] = index
        index += 1
        if not deals or deals[-1][0]["deal"] != step["deal"]:
            deals.append([])
        deals[-1].append(step)

    state = _state(game, perspective)
    add({"deal": game.deal_number, "seat": None, "action": None, "number": None,
         "events": _visible(list(game.events), perspective), "state": state})
    seen = len(game.events)
    deal_start = 0  # where the deal in play begins in the game's events
    for number, (seat, text) in enumerate(actions, start=1):
        if game.to_act is None or seat != game.to_act:
            raise RecordError(f"action {number} ({text!r}): seat {seat} was not to act", number)
        deal_before = game.deal_number
        try:
            action = Action.parse(text)
            game.apply(action)
        except ValueError as exc:
            raise RecordError(f"action {number} ({text!r}) by seat {seat}: {exc}", number) from None
        new_events = list(game.events[seen:])
        seen = len(game.events)
        shown_action: str | None = str(action)
        if action.kind in _HIDDEN_KINDS and perspective not in ("all", seat):
            shown_action = None
        if game.deal_number == deal_before or game.is_over:
            state = _state(game, perspective)
            add({"deal": deal_before, "seat": seat, "action": shown_action, "number": number,
                 "events": _visible(new_events, perspective), "state": state})
            continue
        # The action ended the deal and the next one was dealt: split it in two steps.
        cut = next(i for i, e in enumerate(new_events) if e.type == "deal") if any(
            e.type == "deal" for e in new_events) else len(new_events)
        closing = _visible(new_events[:cut], perspective)
        ended = list(game.events[deal_start:seen - len(new_events) + cut])
        deal_start = seen - len(new_events) + cut
        add({"deal": deal_before, "seat": seat, "action": shown_action, "number": number,
             "events": closing, "state": _closing_state(state, closing, ended)})
        state = _state(game, perspective)
        add({"deal": game.deal_number, "seat": None, "action": None, "number": None,
             "events": _visible(new_events[cut:], perspective), "state": state})
    return deals


def replay_page(
    record: dict[str, Any],
    perspective: Perspective,
    deal: int | None = None,
    *,
    steps: list[list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """One deal of a replay with the index of every deal (what the replay screen fetches).

    ``deal`` is 1-based (default the first); ``steps`` may pass :func:`replay_steps`'s
    result for this record and perspective to save the work.
    """
    deals = steps if steps is not None else replay_steps(record, perspective)
    number = 1 if deal is None else deal
    if not 1 <= number <= len(deals):
        raise ValueError(f"deal must be 1-{len(deals)}, not {number}")
    index = [
        {"deal": d[0]["deal"], "dealer": d[0]["state"]["dealer"], "first": d[0]["index"],
         "steps": len(d), "scores": d[-1]["state"]["scores"]}
        for d in deals
    ]
    return {
        "players": int(record["players"]),
        "rules": record.get("rules", {}),
        "perspective": perspective,
        "total": sum(len(d) for d in deals),
        "deals": index,
        "deal": number,
        "steps": deals[number - 1],
    }

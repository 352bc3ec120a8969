"""What one seat knows, read from its view: the common ground of every bot.

:func:`knowledge` turns a seat's view (the JSON-able dict of :meth:`chicago.Game.view`) into a
:class:`Knowledge`: the seat's own cards, the cards it has seen leave play, and for each
opponent what the table showed of them (exchange counts, announcements, revealed tie-break
stages, shown hands, face-up one-up cards, voids shown by not following suit, whether they
are locked). Nothing here reads anything but the view, so nothing hidden can leak into a bot.

>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=3)
>>> k = knowledge(game.view(game.to_act))
>>> len(k.hand), k.players, k.phase
(5, 4, 'exchange')
>>> len(k.unseen) == 52 - 5
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from chicago.cards import DECK, RANKS, Card, mask_of, parse_cards
from chicago.poker import Category
from chicago.rules import Rules

__all__ = [
    "DEFINING_STAGES",
    "Claim",
    "Knowledge",
    "Opponent",
    "knowledge",
    "rank_of_text",
    "rules_of",
]


DEFINING_STAGES: dict[Category, int] = {
    Category.PAIR: 1,
    Category.TWO_PAIR: 2,
    Category.THREE_OF_A_KIND: 1,
    Category.STRAIGHT: 1,
    Category.FLUSH: 5,
    Category.FULL_HOUSE: 2,
    Category.FOUR_OF_A_KIND: 1,
    Category.STRAIGHT_FLUSH: 1,
    Category.ROYAL_FLUSH: 1,
}
"""How many tie-break stages (R-ANN-3) name the cards of a category's combination, the ones
R-EX-4 protects: the pair's rank, both pairs', the trips', a straight's top card, a flush's
five ranks …; later stages are odd cards."""


def rank_of_text(letter: str) -> int:
    """The rank value (2 … 14) of a rank letter of a reveal event (``"T"`` → 10, ``"A"`` → 14)."""
    return RANKS.index(letter) + 2


@dataclass(frozen=True, slots=True)
class Claim:
    """An announcement that still describes the player's hand.

    The player announced ``category`` in scoring round ``round`` and has exchanged no card
    since, so the five cards it holds now plus those it played to tricks are exactly of that
    category, and their tie-break stages start with ``stages`` (the ranks revealed, R-ANN-3).
    """

    round: int
    category: Category
    stages: tuple[int, ...] = ()


@dataclass(slots=True)
class Opponent:
    """What the table showed of one other seat in the current deal."""

    seat: int
    locked: bool = False
    score: int = 0
    exchanges: list[int] = field(default_factory=list)
    """Cards exchanged in each exchange round so far (0 for a locked player)."""
    announcements: dict[int, Category | None] = field(default_factory=dict)
    """Scoring round → the category announced, or None for a pass."""
    stages: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Scoring round → the ranks it revealed in the staged tie-break, in order."""
    claim: Claim | None = None
    """The latest announcement that still holds (no exchange since), if any."""
    kept: tuple[Claim, ...] = ()
    """Combinations it is known to hold still (R-EX-4, rules with ``show_on_break``): it
    announced the highest category of a scoring round (won it or tied), which protects the
    cards of the combination (the pair, both pairs, the trips, the four, all five of a
    straight, flush or full house), and it has not shown its hand since, so it kept them
    through every exchange; only its odd cards may have gone. Each is a :class:`Claim` whose
    ``stages`` are the combination's defining ranks revealed in the tie-break (the pair's
    rank, both pairs' ranks …; none when it won without a tie-break). Its hand now, with the
    cards it played since, contains each of them. Forgotten once it shows its hand (then
    :attr:`shown` tells more)."""
    known: int = 0
    """Mask of cards known to be in its hand now (an accepted one-up card kept since)."""
    shown: tuple[Card, ...] = ()
    """The last hand it had to show (R-EX-4, a quads reset), if any."""
    shown_round: int = 0
    """The exchange round in which it showed that hand (0 if none)."""
    kept_from_shown: int | None = None
    """How many of the shown cards it still holds, when no exchange followed (else None)."""
    voids: int = 0
    """Suits it showed it has none of (bit ``1 << suit``), by not following suit."""
    played: tuple[Card, ...] = ()
    """Cards it played to tricks this deal, in order."""
    holding: int = 5
    """How many cards it holds now."""
    drawn_total: int = 0
    """Cards it drew in all exchange rounds of this deal."""
    drawn_last: int = 0
    """Cards it exchanged in the most recent exchange round it has acted in."""

    @property
    def exchanged_since_claim(self) -> bool:
        """Whether it has exchanged since its last announcement (or never announced)."""
        return self.claim is None


@dataclass(slots=True)
class Knowledge:
    """Everything one seat knows about the current deal (see :func:`knowledge`)."""

    seat: int
    players: int
    rules: Rules
    phase: str
    round: int
    """The current exchange or scoring round, from 1."""
    dealer: int
    scores: list[int]
    locked: list[bool]
    hand: tuple[Card, ...]
    discarded: tuple[Card, ...]
    """The cards this seat discarded this deal."""
    dead: int
    """Mask of cards known not to be in any opponent's hand nor in the stock's next draws:
    every card played, this seat's own discards (unless reshuffled back into the stock),
    rejected one-up cards."""
    unseen: tuple[Card, ...]
    """Cards whose place this seat does not know (not in its hand, not dead)."""
    opponents: dict[int, Opponent]
    stock: int
    discard_pile: int
    declarer: int | None
    trick: list[tuple[int, Card]]
    """The current trick: (seat, card) in playing order."""
    tricks: list[tuple[int, list[tuple[int, Card]]]]
    """Completed tricks: (winner, plays)."""
    trick_number: int
    exchanges_total: int
    """Exchange rounds per deal (the rules' ``exchanges``)."""
    reshuffled: bool = False
    one_up: tuple[int, Card] | None = None
    """The face-up one-up card waiting for a decision (seat, card), if any."""
    chicago_declared: list[bool] = field(default_factory=list)
    """Per seat: has declared a Chicago in this game (any deal; V-CHI-DECLARED)."""
    chicago_made: list[bool] = field(default_factory=list)
    """Per seat: has made a Chicago in this game (any deal; V-CHI-REQ3)."""

    @property
    def hand_mask(self) -> int:
        """This seat's hand as a card mask."""
        return mask_of(self.hand)

    @property
    def exchanges_left(self) -> int:
        """Exchange rounds still to come after the current phase (0 from the Chicago call on)."""
        if self.phase in ("exchange", "one up"):
            return self.exchanges_total - self.round
        if self.phase in ("announce", "quads choice"):
            return self.exchanges_total - self.round
        if self.phase == "redeal":
            return self.exchanges_total
        return 0

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick, or leads the first one."""
        if self.trick:
            return self.trick[0][0]
        if self.tricks:
            return self.tricks[-1][0]
        if self.declarer is not None and self.rules.chicago_caller_leads:
            return self.declarer
        return (self.dealer + 1) % self.players

    def order_from_dealer(self) -> list[int]:
        """Seats in turn order, from the dealer's left to the dealer (R-PHASE-2)."""
        return [(self.dealer + 1 + i) % self.players for i in range(self.players)]

    def to_speak_after(self) -> list[int]:
        """Seats that act after this one in the current round (turn order from the dealer's
        left)."""
        order = self.order_from_dealer()
        return order[order.index(self.seat) + 1 :]


_RULES_CACHE: dict[str, Rules] = {}


def rules_of(data: dict[str, Any]) -> Rules:
    """The rules of a view's ``rules`` dict (cached: building and checking them is slow)."""
    key = json.dumps(data, sort_keys=True)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        if len(_RULES_CACHE) > 64:
            _RULES_CACHE.clear()
        rules = _RULES_CACHE[key] = Rules.from_dict(data)
    return rules


_CARD_OF_TEXT: dict[str, Card] = {str(card): card for card in DECK}


def _card(text: str) -> Card:
    card = _CARD_OF_TEXT.get(text)
    return card if card is not None else parse_cards(text)[0]


def _cards(texts: Sequence[str]) -> tuple[Card, ...]:
    return tuple(_card(t) for t in texts)


def knowledge(view: dict[str, Any]) -> Knowledge:
    """What the seat of ``view`` knows about the current deal, from the view alone."""
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator's view has no seat: bots need a seat's view")
    players = int(view["players"])
    rules = rules_of(view["rules"])
    hand = _cards(view["hand"])
    discarded = _cards(view.get("discarded", []))
    opponents = {
        s: Opponent(seat=s, locked=bool(view["locked"][s]), score=int(view["scores"][s]))
        for s in range(players)
        if s != seat
    }
    exchanges: list[list[int]] = view.get("exchanges", [])
    for opp in opponents.values():
        opp.exchanges = [int(r[opp.seat]) for r in exchanges]

    # Walk the events in order: exchanges, announcements, reveals, shows, one-up cards.
    reshuffled = False
    rejected = 0
    exchange_seen: dict[int, list[int]] = {s: [] for s in opponents}
    claims: dict[int, Claim | None] = dict.fromkeys(opponents)
    kept: dict[int, list[Claim]] = {s: [] for s in opponents}
    accepted: dict[int, int] = dict.fromkeys(opponents, 0)
    own_discards = 0
    exchange_round = 1
    for event in view.get("events", []):
        kind = event.get("type")
        who = event.get("seat")
        if kind == "reshuffle":
            reshuffled = True
            own_discards = 0  # they went back into the stock (R-EX-2)
            rejected = 0
        elif kind == "exchanged" and who == seat:
            own_discards |= mask_of(_cards(event.get("discarded", [])))
        elif kind == "exchange" and who in opponents:
            count = int(event.get("discarded", 0))
            opp = opponents[who]
            exchange_seen[who].append(count)
            opp.drawn_last = count
            if not event.get("locked"):
                opp.drawn_total += count
            if count:
                claims[who] = None
                accepted[who] = 0
                if opp.shown and opp.shown_round == exchange_round:
                    opp.kept_from_shown = max(0, len(opp.shown) - count)
                elif opp.shown:
                    opp.kept_from_shown = None
        elif kind == "round_result":
            rnd = int(event.get("round", 0))
            exchange_round = rnd + 1
            top = event.get("category")
            if top and rules.show_on_break:
                # R-EX-4: everyone who announced the round's highest category has those
                # cards protected: breaking them later shows the whole hand first
                category = Category[top]
                for opp in opponents.values():
                    if opp.announcements.get(rnd) is category:
                        stages = opp.stages.get(rnd, ())[: DEFINING_STAGES[category]]
                        kept[opp.seat].append(Claim(rnd, category, stages))
        elif kind == "announce" and who in opponents:
            category = Category[event["category"]]
            rnd = int(event["round"])
            opponents[who].announcements[rnd] = category
            claims[who] = Claim(rnd, category)
        elif kind == "quads_claim" and who in opponents and event.get("reset"):
            # V-QUADS-RESET after the last exchange: a reset is claimed with four of a kind
            claims[who] = Claim(rules.exchanges, Category.FOUR_OF_A_KIND)
        elif kind == "pass" and who in opponents and "round" in event:
            opponents[who].announcements[int(event["round"])] = None
        elif kind == "reveal" and who in opponents and "rank" in event:
            opp = opponents[who]
            rnd = max(opp.announcements) if opp.announcements else 0
            stages = (*opp.stages.get(rnd, ()), rank_of_text(str(event["rank"])))
            opp.stages[rnd] = stages
            claim = claims[who]
            if claim is not None and claim.round == rnd:
                claims[who] = Claim(claim.round, claim.category, stages)
        elif kind == "show" and who in opponents:
            opp = opponents[who]
            kept[who] = []
            opp.shown = _cards(event.get("cards", []))
            opp.shown_round = exchange_round
            opp.kept_from_shown = len(opp.shown)
        elif kind == "one_up_choice" and who in opponents:
            card = _card(event["card"])
            if event.get("accepted"):
                accepted[who] = 1 << card
            else:
                rejected |= 1 << card
        elif kind == "one_up_choice" and who == seat and not event.get("accepted"):
            rejected |= 1 << _card(event["card"])

    for s, opp in opponents.items():
        opp.claim = claims[s]
        opp.known = accepted[s]
        opp.kept = tuple(kept[s])

    trick = [(int(p["seat"]), _card(p["card"])) for p in view.get("trick", [])]
    tricks = [
        (int(t["winner"]), [(int(p["seat"]), _card(p["card"])) for p in t["cards"]])
        for t in view.get("tricks", [])
    ]
    played_mask = 0
    for _, plays in [*tricks, (None, trick)]:
        if not plays:
            continue
        led = plays[0][1] & 3
        for who, card in plays:
            played_mask |= 1 << card
            if who in opponents and card & 3 != led:
                opponents[who].voids |= 1 << led
    for opp in opponents.values():
        opp.known &= ~played_mask
    for s, pile in enumerate(view.get("played", [])):
        if s in opponents:
            opponents[s].played = _cards(pile)
            opponents[s].holding = 5 - len(pile)
    if rules.lock_six and view["phase"] in ("exchange", "redeal") and exchange_round == 1:
        for opp in opponents.values():
            if opp.locked and not exchange_seen[opp.seat]:
                opp.holding = 6

    dead = played_mask | own_discards | rejected
    hand_mask = mask_of(hand)
    known = hand_mask | dead
    unseen = tuple(card for card in DECK if not known >> card & 1)
    one_up = view.get("one_up")
    return Knowledge(
        seat=seat,
        players=players,
        rules=rules,
        phase=str(view["phase"]),
        round=int(view.get("round", 1)),
        dealer=int(view["dealer"]),
        scores=[int(s) for s in view["scores"]],
        locked=[bool(x) for x in view["locked"]],
        hand=hand,
        discarded=discarded,
        dead=dead,
        unseen=unseen,
        opponents=opponents,
        stock=int(view.get("stock", 0)),
        discard_pile=int(view.get("discard_pile", 0)),
        declarer=view.get("chicago"),
        trick=trick,
        tricks=tricks,
        trick_number=int(view.get("trick_number", 0)),
        exchanges_total=rules.exchanges,
        reshuffled=reshuffled,
        one_up=(int(one_up["seat"]), _card(one_up["card"])) if one_up else None,
        chicago_declared=_flags(view.get("chicago_declared"), players),
        chicago_made=_flags(view.get("chicago_made"), players),
    )


def _flags(values: Any, players: int) -> list[bool]:
    """One flag per seat from a view's list (all False when the view has none)."""
    if not isinstance(values, list) or len(values) != players:
        return [False] * players
    return [bool(v) for v in values]

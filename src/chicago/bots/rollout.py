"""Playing out the rest of a deal on sampled worlds: how ``master`` values its exchanges.

A *world* is one deal of the hidden cards (the others' hands, drawn from the learned model
of :mod:`chicago.bots.handmodel`) plus an order of the cards left, cut into one draw queue
per seat (as ``chicago simulate`` cuts the stock): what a seat draws depends only on what it
discards, so every option of the bot is played on the same luck, and the others' play,
which does not depend on the bot's option, is played once per world.

On a world the rest of the deal is played with fast policies: every player exchanges by the
rules of thumb of :func:`quick_keep` (keep made hands, draws, aces; the ``basic`` bot's
rules), every scoring round and the final showdown go to the best hand (everyone announces;
exactly equal best hands score nothing, R-ANN-3), and the last trick is valued by the
perfect-information solver and the model of sensible opponents (:mod:`chicago.bots.solver`,
:mod:`chicago.bots.model`), with the chance of a sure Chicago. An option's value on a world
is the bot's points less the average of the others' (a point the bot wins is one an
opponent does not), or, when a :class:`~chicago.bots.scores.ScoreValue` is given, the
bot's chance of winning the game from the scores the deal ends with (the race to the
target and the lock, R-END-1, R-EX-5).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chicago.bots.model import model_wins
from chicago.bots.solver import Position, can_make_chicago, last_trick_value
from chicago.cards import ids_of_mask
from chicago.engine.knowledge import Knowledge
from chicago.poker import rank

__all__ = [
    "Option", "Plan", "Utility", "World", "make_world", "plan_of", "points_utility",
    "quick_keep", "value_options",
]

_SUITS = tuple(sum(1 << (r * 4 + s) for r in range(13)) for s in range(4))
_PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT = 1, 2, 3, 4


def quick_keep(cards: Sequence[int], wheel: bool, *, last: bool) -> int:
    """The mask of the cards a sensible player keeps from five card ids (the ``basic`` rules,
    on ints): straights and better whole; trips (and an ace beside them) and two pairs; a
    pair (and an ace beside it), or, before the last exchange, a four-flush over it, an
    open-ended four-straight over a pair below tens; else a four-flush, an open four-straight,
    the aces, or a lone king or queen."""
    value = rank(cards, wheel)
    category = value >> 20
    mask = 0
    for c in cards:
        mask |= 1 << c
    if category >= _STRAIGHT:
        return mask
    counts = [0] * 13
    for c in cards:
        counts[c >> 2] += 1
    aces = mask & (0xF << 48)
    if category in (_TRIPS, _TWO_PAIR):
        kept = 0
        for c in cards:
            if counts[c >> 2] >= 2:
                kept |= 1 << c
        if category == _TRIPS and counts[12] == 1:
            kept |= aces
        return kept
    flush = 0
    for suit_mask in _SUITS:
        if (mask & suit_mask).bit_count() == 4:
            flush = mask & suit_mask
    straight = _open_four(cards, counts)
    if category == _PAIR:
        pair = next(r for r in range(13) if counts[r] == 2)
        if flush and not last:
            return flush
        if straight and pair < 8 and not last:
            return straight
        kept = 0
        for c in cards:
            if c >> 2 == pair:
                kept |= 1 << c
        if pair != 12 and aces:
            kept |= aces & -aces
        return kept
    if flush:
        return flush
    if straight:
        return straight
    if aces:
        return aces
    top = max(cards)
    return 1 << top if top >> 2 >= 10 else 0


def _open_four(cards: Sequence[int], counts: list[int]) -> int:
    """Four cards of distinct ranks in a row not ending at the ace (one per rank), or 0."""
    for low in range(8, -1, -1):  # rank index of the lowest card: ten down to two
        if all(counts[low + i] for i in range(4)) and low + 3 != 12:
            kept = 0
            for i in range(4):
                kept |= 1 << max(c for c in cards if c >> 2 == low + i)
            return kept
    return 0


@dataclass(frozen=True)
class Plan:
    """What is left of the deal, the same on every world of one decision."""

    n: int
    seat: int
    order: tuple[int, ...]
    """Seats in turn order, from the dealer's left."""
    locked: tuple[bool, ...]
    rest_now: tuple[int, ...]
    """Seats that exchange after the bot in the current exchange round, in order."""
    score_now: bool
    """Whether a scoring round follows the current exchange."""
    rounds: tuple[int, ...]
    """Later exchange rounds, in order (the last is the deal's last exchange)."""
    total_rounds: int
    leader: int
    """Who leads the first trick (no Chicago declared)."""
    points: tuple[int, ...]
    """Points by poker value category (royal flush apart, as :func:`chicago.poker.rank`)."""
    wheel: bool
    tie_category: bool
    last_points: int
    deuce_points: int | None
    chicago_points: int
    """The points of a made Chicago, 0 when the bot may not declare one."""
    model: float
    """The value of a last trick won against the model of sensible opponents only."""
    chicago_share: float
    """How much of a sure Chicago's points a world credits (the rest of the time the bot
    would not find or dare the call)."""


def plan_of(k: Knowledge, *, next_round: int | None = None, model: float = 0.6,
            chicago_share: float = 0.5) -> Plan:
    """The plan of the deal from the bot's exchange in the current round (``next_round``:
    the first round after it, default the next one; a redeal passes the first round)."""
    rules = k.rules
    order = tuple(k.order_from_dealer())
    rest_now = tuple(s for s in order[order.index(k.seat) + 1:] if not k.locked[s])
    current = k.round if next_round is None else next_round - 1
    first = current + 1 if next_round is None else next_round
    points = list(rules.points)
    if not rules.royal_separate:
        points[9] = points[8]
    score = k.scores[k.seat]
    can_declare = rules.chicago_enabled and (
        rules.chicago_min_score is None or score >= rules.chicago_min_score
    )
    return Plan(
        n=k.players,
        seat=k.seat,
        order=order,
        locked=tuple(k.locked),
        rest_now=rest_now if next_round is None else (),
        score_now=next_round is None and 1 <= current < rules.exchanges,
        rounds=tuple(range(first, rules.exchanges + 1)),
        total_rounds=rules.exchanges,
        leader=(k.dealer + 1) % k.players,
        points=tuple(points),
        wheel=rules.wheel_straight,
        tie_category=rules.tie_mode == "category",
        last_points=rules.last_trick_points,
        deuce_points=2 * rules.last_trick_points if rules.deuce_bonus else None,
        chicago_points=rules.chicago_points if can_declare else 0,
        model=model,
        chicago_share=chicago_share,
    )


@dataclass
class World:
    """One deal of the hidden cards and the order of the rest, per seat."""

    hands: list[int]
    queues: list[list[int]]
    spare: random.Random
    """Shuffles a seat's own discards when its queue runs out."""


def make_world(hands: list[int], pool: Sequence[int], n: int, rng: random.Random) -> World:
    """A world from sampled ``hands`` and the cards ``pool`` no hand holds: the pool shuffled
    and dealt round the table into one queue per seat."""
    cards = list(pool)
    rng.shuffle(cards)
    return World(hands=list(hands), queues=[cards[i::n] for i in range(n)],
                 spare=random.Random(rng.getrandbits(32)))


@dataclass(frozen=True)
class Option:
    """What the bot holds after its exchange in the current round: the cards ``kept``, plus
    ``extra`` (a face-up one-up card taken), plus ``draw`` cards from its queue (after
    ``skip`` cards: a rejected face-up card is not drawn again)."""

    kept: int
    draw: int
    extra: int = 0
    skip: int = 0


def _draw(world: World, seat: int, count: int, discards: list[int], skip: int = 0) -> int:
    """``count`` cards from the front of ``seat``'s queue (after ``skip``), its own shuffled
    discards when the queue is empty."""
    queue = world.queues[seat]
    got = queue[skip : skip + count]
    short = count - len(got)
    if short > 0:
        world.spare.shuffle(discards)
        got += discards[:short]
        del discards[:short]
    mask = 0
    for c in got:
        mask |= 1 << c
    return mask


def _exchange(plan: Plan, world: World, seat: int, hand: int, last: bool,
              drawn: list[int], discards: list[int]) -> int:
    """``seat`` exchanges by :func:`quick_keep`; ``drawn[seat]`` counts its drawn cards."""
    cards = ids_of_mask(hand)
    kept = quick_keep(cards, plan.wheel, last=last) if len(cards) == 5 else hand
    thrown = hand & ~kept
    count = thrown.bit_count()
    if not count:
        return hand
    new = _draw(world, seat, count, discards, drawn[seat])
    drawn[seat] += count
    discards.extend(ids_of_mask(thrown))  # the pile takes them after the draw (R-EX-2)
    return kept | new


def _value(plan: Plan, hand: int) -> int:
    return rank(ids_of_mask(hand), plan.wheel) if hand.bit_count() == 5 else -1


def _others(plan: Plan, world: World) -> tuple[list[list[int]], list[int]]:
    """The others' hand values at each scoring event (rounds, then the showdown) and their
    final hands, played once per world."""
    hands = list(world.hands)
    drawn = [0] * plan.n
    discards: list[int] = []
    values: list[list[int]] = []
    last_round = plan.total_rounds
    for s in plan.rest_now:
        hands[s] = _exchange(plan, world, s, hands[s], not plan.rounds, drawn, discards)
    if plan.score_now:
        values.append([_value(plan, h) for h in hands])
    for r in plan.rounds:
        for s in plan.order:
            if s != plan.seat and not plan.locked[s]:
                hands[s] = _exchange(plan, world, s, hands[s], r == last_round, drawn, discards)
        if r < last_round:
            values.append([_value(plan, h) for h in hands])
    values.append([_value(plan, h) for h in hands])
    return values, hands


def _event(plan: Plan, mine: int, values: list[int]) -> tuple[int, float]:
    """(the winning seat, its points) of one scoring event, (-1, 0) when nobody scores: the
    best hand wins its category's points; exactly equal best hands (equal categories under
    V-TIE-CATEGORY) score nothing (R-ANN-3)."""
    hands = list(values)
    hands[plan.seat] = mine
    best = max(hands)
    if best < 0 or not plan.points[best >> 20]:
        return -1, 0.0
    if plan.tie_category:
        ties = sum(1 for v in hands if v >= 0 and v >> 20 == best >> 20)
    else:
        ties = hands.count(best)
    if ties > 1:
        return -1, 0.0
    return hands.index(best), float(plan.points[best >> 20])


def _tricks(plan: Plan, hands: list[int]) -> tuple[float, float]:
    """(the bot's, the others') points of the last trick (or a sure Chicago) on final hands."""
    if any(h.bit_count() != 5 for h in hands):
        return 0.0, 0.0
    position = Position(tuple(hands), plan.leader)
    sure = last_trick_value(position, plan.seat, points=plan.last_points,
                            deuce_points=plan.deuce_points)
    mine = float(sure)
    if not sure and plan.model and model_wins(position, plan.seat):
        mine = plan.model * plan.last_points
    if plan.chicago_points and can_make_chicago(position, plan.seat):
        bonus = plan.chicago_share * (plan.chicago_points - mine)
        return mine + bonus, 0.0
    return mine, plan.last_points - mine


Utility = Callable[[list[float]], float]
"""What a deal's points (one number per seat) are worth to the bot."""


def points_utility(plan: Plan) -> Utility:
    """The bot's points less the average of the others'."""
    share = 1.0 / max(1, plan.n - 1)
    me = plan.seat

    def utility(points: list[float]) -> float:
        return points[me] - share * (sum(points) - points[me])

    return utility


def value_options(
    plan: Plan, world: World, options: Sequence[Option], utility: Utility | None = None,
) -> list[tuple[float, float]]:
    """The value of each option on ``world`` — ``utility`` of the deal's points by seat (by
    default the bot's points less the average of the others') — and, apart, the bot's
    points of the last trick (or sure Chicago) in it."""
    values, final = _others(plan, world)
    me = plan.seat
    last_round = plan.total_rounds
    value_of = utility if utility is not None else points_utility(plan)
    spread = 1.0 / max(1, plan.n - 1)
    out = []
    for option in options:
        discards: list[int] = []
        drawn = [0] * plan.n
        drawn[me] = option.skip + option.draw
        hand = option.kept | option.extra
        if option.draw:
            hand |= _draw(world, me, option.draw, discards, option.skip)
        discards.extend(ids_of_mask(world.hands[me] & ~option.kept & ~option.extra))
        events = iter(values)
        points = [0.0] * plan.n
        if plan.score_now:
            winner, gained = _event(plan, _value(plan, hand), next(events))
            if winner >= 0:
                points[winner] += gained
        for r in plan.rounds:
            if not plan.locked[me]:
                hand = _exchange(plan, world, me, hand, r == last_round, drawn, discards)
            if r < last_round:
                winner, gained = _event(plan, _value(plan, hand), next(events))
                if winner >= 0:
                    points[winner] += gained
        winner, gained = _event(plan, _value(plan, hand), next(events))
        if winner >= 0:
            points[winner] += gained
        hands = list(final)
        hands[me] = hand
        mine, others = _tricks(plan, hands)
        points[me] += mine
        for s in range(plan.n):
            if s != me:
                points[s] += spread * others
        out.append((value_of(points), mine))
    return out

"""Exact perfect-information solver for Chicago's trick play (R-TRICK-1…4, R-CHI-4).

The ``expert`` bot samples the hidden cards and solves every sample exactly with this module.
A :class:`Position` is a trick-play state with every hand known: the cards each seat still
holds, who led the current trick and the cards already played to it. No trumps; a player must
follow the suit led if able (R-TRICK-2); the highest card of the suit led wins and its winner
leads the next trick (R-TRICK-3); only the last trick scores (R-TRICK-4). A Chicago declarer
must win every remaining trick, and the deal ends as soon as anyone else wins one (R-CHI-4).

All queries are exact and *paranoid*: the asking player plays against all the others, who
cooperate to stop it. For a yes/no goal that is the sound worst case: "True" means the goal is
reached whatever the others do.

- :func:`can_win_last_trick` / :func:`last_trick_moves`: can a seat make sure to win the last
  trick, and which cards of the seat to act keep that guarantee (for itself or another seat).
- :func:`last_trick_value` / :func:`last_trick_values`: the points of the last trick a seat
  can guarantee (0, 5, or 10 when it wins with a deuce under V-DEUCE).
- :func:`can_make_chicago` / :func:`chicago_moves`: can the declarer win every remaining
  trick; per card of the seat to act, whether it keeps the declarer's guarantee (declarer) or
  guarantees that the Chicago breaks (a defender).
- :func:`chicago_value` / :func:`chicago_values`: the Chicago points the declarer can
  guarantee (0, 15, or 30 when it wins the last trick with a deuce under V-DEUCE), from the
  position and after each card of the seat to act.

>>> p = Position.from_text(["Kh 3c", "Ah 2c"], leader=0)
>>> can_win_last_trick(p, 0)
True
>>> last_trick_moves(p)
{Card('3c'): False, Card('Kh'): True}

How it works: an AND/OR search (alpha-beta on a boolean value: a node is decided by the first
child that settles it) over card-by-card play, with a transposition table at trick boundaries
keyed by the remaining hands and the leader. Cards of one suit held by the same player, with no
card of another player and none on the table between them, are equivalent: only one of them is
searched. Sound shortcuts settle many nodes without search: a player on lead whose every card
is the top card of its suit wins every trick; the others surely stop a player from winning the
last trick when each suit it holds is *guarded* by a different opponent (a higher card and at
least as many cards of the suit); a Chicago declarer on lead must lead a top card and, when
following, must beat the trick. A value question (0, 5 or 10 points; 0, 15 or 30 for a
Chicago) is answered by two yes/no searches, "can it win the last trick" (every trick, for a
Chicago) and "can it win it with a deuce", since a minimax value is at least ``t`` exactly
when the maximising side wins the yes/no game "value ≥ t".

The search runs in C when the accelerator ``chicago.bots._solver`` is built (the same search,
node for node: :mod:`chicago.bots.accel`), else in pure Python; the answers are the same
(tests/test_solver_accel.py). A four-player deal is solved from the first lead in about
5-10 µs in C (median; 0.1-0.3 ms in pure Python), 20-50 times faster;
``benchmarks/bench_solver.py`` measures both on the same deals.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from chicago.bots import accel
from chicago.cards import Card, cards_from_mask, cards_text, mask_of, parse_cards

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "Position",
    "can_make_chicago",
    "can_win_last_trick",
    "chicago_moves",
    "chicago_value",
    "chicago_values",
    "last_trick_moves",
    "last_trick_value",
    "last_trick_values",
    "trick_winner",
]

MIN_SEATS = 2
"""Fewest seats a position may have."""
MAX_SEATS = 6
"""Most seats a position may have (R-TABLE-1, V-LARGE)."""

_FULL_DECK = (1 << 52) - 1
_SUIT_MASKS = tuple(sum(1 << (rank * 4 + suit) for rank in range(13)) for suit in range(4))
"""Bits of each suit (clubs, diamonds, hearts, spades) in a 52-bit card mask."""
_SUIT_OF_BIT = {1 << card: _SUIT_MASKS[card & 3] for card in range(52)}
"""The suit mask of a one-card mask."""
_DEUCE_BITS = 0xF
"""The four twos are cards 0-3."""
_TOP_DEUCE_BIT = 8
"""A one-card mask is a deuce when it is at most this (``1 << 3``, the two of spades)."""

# The yes/no goals of a search, for the seat called the target.
_GOAL_LAST = 0
"""The target wins the last trick."""
_GOAL_DEUCE = 1
"""The target wins the last trick with a deuce (V-DEUCE)."""
_GOAL_CHICAGO = 2
"""The target (the declarer) wins every remaining trick."""
_GOAL_DEUCE_CHICAGO = 3
"""The target (the declarer) wins every remaining trick, the last with a deuce (V-DEUCE)."""
_CHICAGO_GOALS = (_GOAL_CHICAGO, _GOAL_DEUCE_CHICAGO)


@dataclass(frozen=True, slots=True)
class Position:
    """A trick-play state with every hand known.

    ``hands[seat]`` is the 52-bit mask of the cards that seat still holds (seats are
    numbered clockwise); ``leader`` is the seat that leads, or led, the current trick;
    ``played`` the cards already played to it, in playing order from the leader; ``declarer``
    the seat that declared Chicago, if any. The number of tricks left is implied by the hand
    sizes and checked: seats that already played to the current trick hold one card fewer.

    A position whose hands are all empty is the end of the deal (:attr:`is_over`); its
    ``leader`` is the winner of the last trick.

    Build one from masks directly, from card collections with :meth:`from_hands`, or from
    text with :meth:`from_text`::

        Position.from_text(["As Kd", "Qs 2c"], leader=0)
        Position.from_text(["Kd", "Qs 2c"], leader=0, played="As")
    """

    hands: tuple[int, ...]
    leader: int
    played: tuple[Card, ...] = ()
    declarer: int | None = None

    def __post_init__(self) -> None:
        hands = tuple(self.hands)
        played = tuple(Card(card) for card in self.played)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "played", played)
        n = len(hands)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"a position has {MIN_SEATS} to {MAX_SEATS} seats, not {n}")
        if not 0 <= self.leader < n:
            raise ValueError(f"leader {self.leader} is not a seat of {n}")
        if self.declarer is not None and not 0 <= self.declarer < n:
            raise ValueError(f"declarer {self.declarer} is not a seat of {n}")
        seen = 0
        for seat, hand in enumerate(hands):
            if isinstance(hand, bool) or not isinstance(hand, int) or hand & ~_FULL_DECK:
                raise ValueError(f"hand of seat {seat} is not a 52-bit card mask: {hand!r}")
            if hand & seen:
                raise ValueError(f"{cards_text(cards_from_mask(hand & seen))} held twice")
            seen |= hand
        if len(played) >= n:
            raise ValueError(f"{len(played)} cards played to a trick of {n} seats")
        for card in played:
            if seen & (1 << card):
                raise ValueError(f"{card} is both played and held")
            seen |= 1 << card
        left = self.tricks_left
        for k in range(n):
            seat = (self.leader + k) % n
            expected = left - 1 if k < len(played) else left
            if hands[seat].bit_count() != expected:
                raise ValueError(
                    f"seat {seat} holds {hands[seat].bit_count()} cards, expected {expected} "
                    f"({left} tricks left, {len(played)} cards played to this one)"
                )

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[int | str | Iterable[int | str]],
        leader: int,
        played: str | Iterable[int | str] = (),
        declarer: int | None = None,
    ) -> Position:
        """A position from hands given as masks, card texts or collections of cards."""
        masks = tuple(
            hand
            if isinstance(hand, int)
            else mask_of(parse_cards(hand if isinstance(hand, str) else list(hand)))
            for hand in hands
        )
        cards = parse_cards(played if isinstance(played, str) else list(played))
        return cls(masks, leader, cards, declarer)

    @classmethod
    def from_text(
        cls,
        hands: Sequence[str],
        leader: int = 0,
        played: str = "",
        declarer: int | None = None,
    ) -> Position:
        """A position from card texts: ``from_text(["As Kd", "Qs 2c"], leader=0)``.

        ``played`` lists the cards already played to the current trick, from the leader on.
        """
        return cls(
            tuple(mask_of(parse_cards(text)) for text in hands),
            leader,
            parse_cards(played),
            declarer,
        )

    @property
    def n_seats(self) -> int:
        """The number of seats."""
        return len(self.hands)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, counting the current one."""
        return self.hands[self.leader].bit_count() + (1 if self.played else 0)

    @property
    def is_over(self) -> bool:
        """Whether every trick has been played."""
        return self.tricks_left == 0

    @property
    def to_act(self) -> int:
        """The seat whose turn it is to play a card."""
        return (self.leader + len(self.played)) % len(self.hands)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, lowest first."""
        return cards_from_mask(self.hands[seat])

    def legal_moves(self) -> tuple[Card, ...]:
        """The cards the seat to act may play (R-TRICK-2), lowest first."""
        hand = self.hands[self.to_act]
        if self.played:
            follow = hand & _SUIT_MASKS[self.played[0] & 3]
            if follow:
                return cards_from_mask(follow)
        return cards_from_mask(hand)

    def play(self, card: int | str) -> Position:
        """The position after the seat to act plays ``card``.

        When the card completes a trick, the winner leads the next (R-TRICK-3); after the
        last trick the result :attr:`is_over`. Chicago does not stop play here: use the
        Chicago queries to see whether a declarer is beaten.
        """
        played_card = Card(card)
        if self.is_over:
            raise ValueError("the deal is over")
        if played_card not in self.legal_moves():
            raise ValueError(f"{played_card} is not a legal card for seat {self.to_act} here")
        seat = self.to_act
        hands = list(self.hands)
        hands[seat] ^= 1 << played_card
        played = (*self.played, played_card)
        if len(played) < len(hands):
            return Position(tuple(hands), self.leader, played, self.declarer)
        winner = trick_winner(played, self.leader, len(hands))
        return Position(tuple(hands), winner, (), self.declarer)

    def __str__(self) -> str:
        parts = [
            f"{seat}{'*' if seat == self.declarer else ''}: {cards_text(self.hand(seat))}"
            for seat in range(self.n_seats)
        ]
        trick = (
            f"seat {self.leader} led {cards_text(self.played)}"
            if self.played
            else f"seat {self.leader} to lead"
        )
        return " | ".join(parts) + f" | {trick}"


def trick_winner(played: Sequence[int], leader: int, n_seats: int) -> int:
    """The seat that wins a complete trick: the highest card of the suit led (R-TRICK-3)."""
    lead_suit = played[0] & 3
    best = max(card for card in played if card & 3 == lead_suit)
    return (leader + list(played).index(best)) % n_seats


# ---------------------------------------------------------------------------------------------
# The search.
#
# Cards are handled as one-bit masks ("bits"): within a suit a higher card is a larger bit, so
# comparing bits compares ranks. The search state is the mutable list ``hands`` plus, within a
# trick: the seat to act, its index ``i`` in the trick (0 = the lead), the suit mask of the suit
# led, the best bit so far and its seat, the bits on the table, the tricks left (counting the
# current one) and ``live``: every card still held plus the table, which is constant during a
# trick and decides which cards of a hand are equivalent.

_PlayFn = Callable[[int, int, int, int, int, int, int, int], bool]
_StartFn = Callable[[int, int], bool]


class _Search:
    """One yes/no search: a goal for one target seat, on a copy of the hands.

    ``start(leader, left)`` decides a trick boundary, ``play(...)`` a node inside a trick and
    ``after(...)`` the position after one given card; all share the transposition table, so
    asking about several moves of one position costs little more than asking about one.
    """

    __slots__ = ("after", "hands", "play", "start", "table")

    def __init__(self, hands: Sequence[int], target: int, goal: int) -> None:
        self.hands = list(hands)
        self.table: dict[tuple[int, ...], bool] = {}
        self.start, self.play, self.after = _make_search(self.hands, self.table, target, goal)


def _make_search(
    hands: list[int], tt: dict[tuple[int, ...], bool], target: int, goal: int
) -> tuple[_StartFn, _PlayFn, Callable[[int, int, int, int, int, int, int, int, int], bool]]:
    """The search functions for ``goal`` of seat ``target``, closed over ``hands`` and ``tt``."""
    n = len(hands)
    suit_masks = _SUIT_MASKS
    suit_of_bit = _SUIT_OF_BIT
    chicago = goal in _CHICAGO_GOALS
    deuce = goal in (_GOAL_DEUCE, _GOAL_DEUCE_CHICAGO)

    def start(leader: int, left: int) -> bool:
        """Whether the target reaches the goal from a trick boundary (``left`` ≥ 1)."""
        if deuce and not hands[target] & _DEUCE_BITS:
            return False
        live = 0
        for h in hands:
            live |= h
        if left == 1:
            # One card each: the highest card of the suit led wins.
            top = live & suit_of_bit[1 << (hands[leader].bit_length() - 1)]
            top_bit = 1 << (top.bit_length() - 1)
            if not hands[target] & top_bit:
                return False
            return not deuce or top_bit <= _TOP_DEUCE_BIT
        key = (leader, *hands)
        result = tt.get(key)
        if result is None:
            mine = hands[target]
            if leader == target and not deuce:
                # The target keeps the lead while it leads top cards: if every card it holds
                # is above every other card of its suit, it wins all tricks, the last too.
                others = live ^ mine
                for mask in suit_masks:
                    suit = mine & mask
                    if suit and others & mask > suit & -suit:
                        break
                else:
                    result = True
            if result is None and not chicago and guarded(mine):
                result = False
            if result is None:
                result = play(leader, 0, 0, 0, leader, 0, left, live)
            tt[key] = result
        return result

    def guarded(mine: int) -> bool:
        """Whether the others can surely stop the target from winning the last trick.

        They can if every suit the target holds is *guarded*: another player holds a higher
        card of it and at least as many cards of it as the target, with a different guard for
        each suit. Each guard keeps its high card, plays its other cards of the suit first,
        and discards or leads other suits while it can. Then it never has fewer cards of the
        suit than the target, so by the time it must give up the high card (the suit led and
        no other card of it left) the target has no card of the suit left either; the target's
        last card is thus never a winner in a guarded suit.
        """
        candidates = []
        for mask in suit_masks:
            suit = mine & mask
            if not suit:
                continue
            count = suit.bit_count()
            above = ~((1 << suit.bit_length()) - 1)
            seats = 0
            for seat in range(n):
                theirs = hands[seat] & mask
                if theirs & above and theirs.bit_count() >= count and seat != target:
                    seats |= 1 << seat
            if not seats:
                return False
            candidates.append(seats)
        return _distinct_guards(candidates, 0)

    def play(
        seat: int, i: int, led: int, best: int, best_seat: int, table: int, left: int, live: int
    ) -> bool:
        """Whether the target reaches the goal when ``seat`` is to play card ``i`` of a trick."""
        hand = hands[seat]
        legal = hand if i == 0 else (hand & led or hand)
        if chicago:
            if seat == target:
                if i == 0:
                    # Leading anything but a top card lets a defender win the trick.
                    others = live ^ hand
                    legal = 0
                    for mask in suit_masks:
                        legal |= hand & mask & ~((1 << (others & mask).bit_length()) - 1)
                else:
                    legal = hand & led & ~((best << 1) - 1)
                if not legal:
                    return False
            elif i:
                above = ~((best << 1) - 1)
                if best_seat == target:
                    if hand & led & above:
                        return False  # this defender can win the trick
                elif not hands[target] & led & above:
                    return False  # the declarer, still to play, cannot win the trick
        # One card per run of equivalent cards: the highest, which for the deuce goal also
        # dominates a deuce below it (keeping the deuce can only help the target, and no one
        # else's deuce matters). Leads are tried highest first.
        cards = []
        x = legal
        while x:
            low = x & -x
            x ^= low
            higher = live & suit_of_bit[low] & ~((low << 1) - 1)
            if not higher & -higher & hand:
                cards.append(low)
        if i == 0:
            cards.reverse()
        maximise = seat == target
        nxt = seat + 1 if seat + 1 < n else 0
        last = i == n - 1
        for bit in cards:
            hands[seat] = hand ^ bit
            if i == 0:
                value = play(nxt, 1, suit_of_bit[bit], bit, seat, bit, left, live)
            else:
                if bit & led and bit > best:
                    b, b_seat = bit, seat
                else:
                    b, b_seat = best, best_seat
                if not last:
                    value = play(nxt, i + 1, led, b, b_seat, table | bit, left, live)
                elif left == 1:
                    value = b_seat == target and not (deuce and b > _TOP_DEUCE_BIT)
                elif chicago and b_seat != target:
                    value = False
                else:
                    value = start(b_seat, left - 1)
            hands[seat] = hand
            if maximise:
                if value:
                    return True
            elif not value:
                return False
        return not maximise

    def after(
        seat: int,
        i: int,
        led: int,
        best: int,
        best_seat: int,
        table: int,
        left: int,
        live: int,
        bit: int,
    ) -> bool:
        """Whether the target reaches the goal after ``seat`` plays the card ``bit``."""
        hand = hands[seat]
        hands[seat] = hand ^ bit
        try:
            if i == 0:
                led, best, best_seat = suit_of_bit[bit], bit, seat
            elif bit & led and bit > best:
                best, best_seat = bit, seat
            if i < n - 1:
                return play(
                    seat + 1 if seat + 1 < n else 0,
                    i + 1,
                    led,
                    best,
                    best_seat,
                    table | bit,
                    left,
                    live,
                )
            if chicago and best_seat != target:
                return False
            if left == 1:
                return best_seat == target and not (deuce and best > _TOP_DEUCE_BIT)
            return start(best_seat, left - 1)
        finally:
            hands[seat] = hand

    return start, play, after


def _distinct_guards(candidates: list[int], used: int) -> bool:
    """Whether each set of seats (a mask) can give a different seat, none of ``used``."""
    if not candidates:
        return True
    first, rest = candidates[0], candidates[1:]
    free = first & ~used
    while free:
        seat = free & -free
        free ^= seat
        if _distinct_guards(rest, used | seat):
            return True
    return False


class _Trick(NamedTuple):
    """The current trick of a position, in the search's terms."""

    seat: int
    i: int
    led: int
    best: int
    best_seat: int
    table: int
    left: int
    live: int


def _trick(position: Position) -> _Trick:
    if position.is_over:
        raise ValueError("the deal is over: there is nothing left to solve")
    live = 0
    for hand in position.hands:
        live |= hand
    played = position.played
    if not played:
        return _Trick(position.leader, 0, 0, 0, position.leader, 0, position.tricks_left, live)
    n = len(position.hands)
    led = _SUIT_MASKS[played[0] & 3]
    best, best_seat, table = 1 << played[0], position.leader, 0
    for k, card in enumerate(played):
        bit = 1 << card
        table |= bit
        if bit & led and bit > best:
            best, best_seat = bit, (position.leader + k) % n
    return _Trick(
        position.to_act,
        len(played),
        led,
        best,
        best_seat,
        table,
        position.tricks_left,
        live | table,
    )


def _solve(position: Position, target: int, goal: int) -> bool:
    """Whether ``target`` reaches ``goal`` from ``position`` against any defence."""
    t = _trick(position)
    if t.i and goal in _CHICAGO_GOALS and _declarer_beaten(position, target, t):
        return False
    c = accel.active()
    if c is not None:
        return bool(c.solve(position.hands, target, goal, t.seat, t.i, t.led, t.best,
                            t.best_seat, t.left, t.live))
    search = _Search(position.hands, target, goal)
    if t.i == 0:
        return search.start(t.seat, t.left)
    return search.play(t.seat, t.i, t.led, t.best, t.best_seat, t.table, t.left, t.live)


def _legal_mask(hand: int, t: _Trick) -> int:
    """The cards of ``hand`` the seat to act may play (R-TRICK-2)."""
    return hand if t.i == 0 else (hand & t.led or hand)


def _solve_moves(position: Position, target: int, goal: int, among: int = _FULL_DECK) -> int:
    """The mask of the legal cards of the seat to act (those in ``among``) after which
    ``target`` reaches ``goal`` against any defence."""
    t = _trick(position)
    if goal in _CHICAGO_GOALS and _declarer_beaten(position, target, t):
        return 0
    c = accel.active()
    if c is not None:
        return int(c.solve_moves(position.hands, target, goal, t.seat, t.i, t.led, t.best,
                                 t.best_seat, t.left, t.live, among))
    search = _Search(position.hands, target, goal)
    reached = 0
    for bit, cards in _move_classes(position.hands[t.seat], t, among).items():
        if search.after(t.seat, t.i, t.led, t.best, t.best_seat, t.table, t.left, t.live, bit):
            reached |= cards
    return reached


def _declarer_beaten(position: Position, declarer: int, t: _Trick) -> bool:
    """Whether the declarer already played to the current trick and someone beat it."""
    n = position.n_seats
    declarer_index = (declarer - position.leader) % n
    return declarer_index < t.i and t.best_seat != declarer


def _move_classes(hand: int, t: _Trick, among: int) -> dict[int, int]:
    """The legal cards of the seat to act that are in ``among``, grouped into classes of
    equivalent cards: representative bit -> mask of the class's cards.

    Two cards are equivalent when they are of one suit and every card between them is either
    gone or held by the same player; a deuce is kept apart from other cards because it may
    win the last trick for more points (V-DEUCE). Keys are the classes' highest cards as bits.
    """
    classes: dict[int, int] = {}
    x = _legal_mask(hand, t) & among
    while x:
        card_bit = x & -x
        x ^= card_bit
        bit = card_bit
        if bit > _TOP_DEUCE_BIT:
            while True:
                higher = t.live & _SUIT_OF_BIT[bit] & ~((bit << 1) - 1)
                next_bit = higher & -higher
                if not next_bit & hand:
                    break
                bit = next_bit
        classes[bit] = classes.get(bit, 0) | card_bit
    return classes


def _answers(position: Position, mask: int) -> dict[Card, bool]:
    """Per legal card of the seat to act: whether it is in ``mask``."""
    return {card: bool(mask >> card & 1) for card in position.legal_moves()}


def _check_seat(position: Position, seat: int) -> None:
    if not 0 <= seat < position.n_seats:
        raise ValueError(f"seat {seat} is not a seat of {position.n_seats}")


def _no_chicago(position: Position) -> None:
    if position.declarer is not None:
        raise ValueError(
            f"seat {position.declarer} declared Chicago, so no one scores the last trick: "
            "use can_make_chicago or chicago_moves"
        )


def _declarer_of(position: Position, declarer: int | None) -> int:
    seat = position.declarer if declarer is None else declarer
    if seat is None:
        raise ValueError("no Chicago declarer: pass one or set Position.declarer")
    _check_seat(position, seat)
    return seat


def _check_points(points: int, deuce_points: int | None) -> bool:
    """Whether the deuce bonus is in play; refuses a bonus below the plain points."""
    if deuce_points is None:
        return False
    if deuce_points < points:
        raise ValueError(f"deuce_points {deuce_points} is below points {points}")
    return deuce_points > points


def can_win_last_trick(position: Position, seat: int) -> bool:
    """Whether ``seat`` wins the last trick whatever the others do (R-TRICK-4)."""
    _check_seat(position, seat)
    _no_chicago(position)
    return _solve(position, seat, _GOAL_LAST)


def last_trick_moves(position: Position, seat: int | None = None) -> dict[Card, bool]:
    """For each legal card of the seat to act: whether, after playing it, ``seat`` (by
    default the seat to act itself) still wins the last trick whatever the others do."""
    _no_chicago(position)
    target = position.to_act if seat is None else seat
    _check_seat(position, target)
    return _answers(position, _solve_moves(position, target, _GOAL_LAST))


def last_trick_value(
    position: Position, seat: int, *, points: int = 5, deuce_points: int | None = None
) -> int:
    """The points of the last trick ``seat`` can guarantee: ``points`` for winning it,
    ``deuce_points`` for winning it with a deuce (V-DEUCE: 10; ``None`` when the option is
    off), else 0."""
    _check_seat(position, seat)
    _no_chicago(position)
    return _value(position, seat, (_GOAL_LAST, _GOAL_DEUCE), points, deuce_points)


def last_trick_values(
    position: Position, *, points: int = 5, deuce_points: int | None = None
) -> dict[Card, int]:
    """For each legal card of the seat to act: the points of the last trick it can still
    guarantee after playing it (see :func:`last_trick_value`)."""
    _no_chicago(position)
    return _move_values(position, position.to_act, (_GOAL_LAST, _GOAL_DEUCE), points,
                        deuce_points)


def _value(
    position: Position, seat: int, goals: tuple[int, int], points: int, deuce_points: int | None
) -> int:
    """``deuce_points`` if ``seat`` reaches the second (deuce) goal of ``goals`` against any
    defence, else ``points`` if it reaches the first, else 0."""
    with_deuce = _check_points(points, deuce_points)
    if not _solve(position, seat, goals[0]):
        return 0
    if with_deuce and deuce_points is not None and _solve(position, seat, goals[1]):
        return deuce_points
    return points


def _move_values(
    position: Position, seat: int, goals: tuple[int, int], points: int, deuce_points: int | None
) -> dict[Card, int]:
    """:func:`_value` for ``seat`` after each legal card of the seat to act."""
    with_deuce = _check_points(points, deuce_points)
    reached = _solve_moves(position, seat, goals[0])
    deuces = 0
    if with_deuce and deuce_points is not None and reached:
        deuces = _solve_moves(position, seat, goals[1], reached)
    return {
        card: deuce_points if deuces >> card & 1 and deuce_points is not None
        else points if reached >> card & 1 else 0
        for card in position.legal_moves()
    }


def can_make_chicago(position: Position, declarer: int | None = None) -> bool:
    """Whether the Chicago declarer wins every remaining trick against any defence (R-CHI-4).

    ``declarer`` defaults to ``position.declarer``. Tricks already completed are not looked
    at: the position is taken to be one where the declarer won them all.
    """
    seat = _declarer_of(position, declarer)
    return _solve(position, seat, _GOAL_CHICAGO)


def chicago_moves(position: Position, declarer: int | None = None) -> dict[Card, bool]:
    """For each legal card of the seat to act, with a Chicago declared (R-CHI-4):

    - if that seat is the declarer: whether the declarer still wins every remaining trick
      against any defence after playing it;
    - if it is a defender: whether playing it makes sure some defender wins a trick.
    """
    seat = _declarer_of(position, declarer)
    made = _solve_moves(position, seat, _GOAL_CHICAGO)
    if position.to_act != seat:
        return {card: not made >> card & 1 for card in position.legal_moves()}
    return _answers(position, made)


def chicago_value(
    position: Position,
    declarer: int | None = None,
    *,
    points: int = 15,
    deuce_points: int | None = None,
) -> int:
    """The Chicago points the declarer is sure of against any defence (R-CHI-4): ``points``
    for winning every remaining trick, ``deuce_points`` for winning them all and the last one
    with a deuce (V-DEUCE: 30; ``None`` when the option is off), else 0 (it breaks).

    ``declarer`` defaults to ``position.declarer``; tricks already completed are taken to be
    the declarer's, as in :func:`can_make_chicago`.
    """
    seat = _declarer_of(position, declarer)
    return _value(position, seat, (_GOAL_CHICAGO, _GOAL_DEUCE_CHICAGO), points, deuce_points)


def chicago_values(
    position: Position,
    declarer: int | None = None,
    *,
    points: int = 15,
    deuce_points: int | None = None,
) -> dict[Card, int]:
    """For each legal card of the seat to act (the declarer or a defender): the Chicago
    points the declarer is still sure of after it is played (see :func:`chicago_value`);
    0 where the Chicago surely breaks."""
    seat = _declarer_of(position, declarer)
    return _move_values(position, seat, (_GOAL_CHICAGO, _GOAL_DEUCE_CHICAGO), points,
                        deuce_points)

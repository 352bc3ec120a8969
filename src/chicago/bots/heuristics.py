"""Plain-rule decisions shared by the ``basic`` bot (and used as fallbacks by stronger ones).

Every function takes what the seat knows (a :class:`~chicago.engine.knowledge.Knowledge`) or
plain cards, and returns a decision; none looks at anything hidden.

- :func:`basic_keep`: which cards to keep in an exchange (made hands, four-flushes, open-ended
  four-straights, aces and high cards for the last trick).
- :func:`keeper`: the card to save for trick five (the top card of a long suit);
  :func:`best_keeper` the one ``ev`` saves (most likely to win when led).
- :func:`basic_play`: a card for the current trick (play low, save the keeper, win trick four
  cheaply to lead the keeper).
- :func:`top_sequence_chicago`: whether a hand of top sequences makes a Chicago sure.
- :func:`best_five`: the discard that leaves the best five of six cards (V-LOCK-6).
- :func:`required_chicago`, :func:`chicago_is_due` and :func:`would_reset`: V-CHI-DECLARED
  and V-CHI-REQ3, under which only a player who has declared (made) a Chicago can win.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from chicago.cards import Card, mask_of
from chicago.engine.knowledge import Knowledge
from chicago.poker import Category, evaluate
from chicago.rules import Rules

__all__ = [
    "basic_keep",
    "basic_play",
    "best_five",
    "best_keeper",
    "chicago_is_due",
    "chicago_is_due_for",
    "ev_play",
    "flush_draw",
    "is_top",
    "keeper",
    "lead_chance",
    "required_chicago",
    "required_chicago_for",
    "rules_card",
    "straight_draw",
    "top_sequence_chicago",
    "top_sequence_chicago_for",
    "would_reset",
    "would_reset_for",
]

REQUIRED_CHANCE = 0.2
"""Under V-CHI-REQ3, the chance of making a Chicago at which a bot a made Chicago would
take to the target declares (see :func:`chicago_is_due`)."""


def _by_suit(cards: Iterable[Card]) -> dict[int, list[Card]]:
    """The cards by suit, the suits in the order they first appear."""
    suits: dict[int, list[Card]] = {}
    for card in cards:
        suit = card & 3  # Card.suit, without the property's call
        held = suits.get(suit)
        if held is None:
            suits[suit] = [card]
        else:
            held.append(card)
    return suits


def flush_draw(hand: Sequence[Card]) -> tuple[Card, ...] | None:
    """The four cards of one suit in a five-card hand, if it holds exactly four."""
    for cards in _by_suit(hand).values():
        if len(cards) == 4:
            return tuple(cards)
    return None


def straight_draw(hand: Sequence[Card], *, open_only: bool = True) -> tuple[Card, ...] | None:
    """Four cards of distinct ranks forming four in a row (open-ended: not ending at the ace
    or starting at the ace of a wheel), one card per rank (its highest suit held); None if
    there are none."""
    ranks = 0  # bit r: a card of rank r is held
    for card in hand:
        ranks |= 1 << ((card >> 2) + 2)
    for low in range(10, 1, -1):
        if ranks >> low & 15 == 15:  # low ... low + 3 (the top one at most a king)
            return _highest_of_ranks(hand, range(low, low + 4))
    if not open_only and ranks & _WHEEL_DRAW == _WHEEL_DRAW:
        return _highest_of_ranks(hand, (14, 2, 3, 4))
    return None


_WHEEL_DRAW = 1 << 14 | 1 << 2 | 1 << 3 | 1 << 4
"""The rank bits of A-2-3-4."""


def _highest_of_ranks(hand: Sequence[Card], ranks: Iterable[int]) -> tuple[Card, ...]:
    """The highest card of each rank of ``ranks`` in ``hand`` (each is held)."""
    return tuple(max(c for c in hand if (c >> 2) + 2 == rank) for rank in ranks)


def basic_keep(hand: Sequence[Card], rules: Rules, *, last: bool) -> tuple[Card, ...]:
    """The cards the ``basic`` bot keeps from five; ``last``: this is the last exchange.

    Straights and better are kept whole; trips, two pairs and a pair are kept (a pair with an
    ace beside it for the last trick); a four-flush is kept over a pair, an open-ended
    four-straight over a low pair; with nothing, aces (or the single highest card if it is a
    king or queen) are kept for the last trick.
    """
    value = evaluate(hand, rules)
    category = value.category
    if category >= _STRAIGHT:
        return tuple(hand)
    if category in (_THREE_OF_A_KIND, _TWO_PAIR):
        size = 3 if category is _THREE_OF_A_KIND else 4
        kept = list(value.cards[:size])
        if category is _THREE_OF_A_KIND and value.cards[size].rank == 14:
            kept.append(value.cards[size])
        return tuple(kept)
    if category is _PAIR:
        if not last:
            four_flush = flush_draw(hand)
            if four_flush is not None:
                return four_flush
            if value.cards[0].rank < 10:
                open_straight = straight_draw(hand)
                if open_straight is not None:
                    return open_straight
        kept = list(value.cards[:2])
        aces = [c for c in value.cards[2:] if c.rank == 14]
        return tuple(kept + aces[:1])
    four_flush = flush_draw(hand)
    if four_flush is not None:
        return four_flush
    open_straight = straight_draw(hand)
    if open_straight is not None:
        return open_straight
    held_aces = tuple(c for c in hand if c >= _LOWEST_ACE)
    if held_aces:
        return held_aces
    top = max(hand)
    return (top,) if top >= _LOWEST_QUEEN else ()


_STRAIGHT, _THREE_OF_A_KIND = Category.STRAIGHT, Category.THREE_OF_A_KIND
_TWO_PAIR, _PAIR = Category.TWO_PAIR, Category.PAIR
"""The categories :func:`basic_keep` reads, as module constants (on Python 3.11 a
``Category.X`` read takes the enum class's slow attribute path: issue 28, forty-second
pass)."""
_LOWEST_ACE = Card.of(12, 0)
"""The lowest id of an ace (ids are ``rank_index * 4 + suit``)."""
_LOWEST_QUEEN = Card.of(10, 0)
"""The lowest id of a queen."""


def keeper(hand: Sequence[Card]) -> Card:
    """The card ``basic`` saves for trick five: the top card of its longest suit (between
    equally long suits, the higher top card; between equal tops, the suit seen first)."""
    best: Card | None = None
    best_key = (-1, -1)
    for cards in _by_suit(hand).values():
        top = max(cards)
        key = (len(cards), top >> 2)
        if key > best_key:
            best, best_key = top, key
    if best is None:
        raise ValueError("no cards to keep one of")
    return best


def basic_play(k: Knowledge, legal: Sequence[Card], keep: Card | None = None) -> Card:
    """The ``basic`` bot's card: save the keeper (``keep``, by default :func:`keeper`), play
    low, win trick four cheaply (:func:`rules_card` on the seat's hand and trick)."""
    return rules_card(k.hand, [c for _, c in k.trick], legal, keep)


def rules_card(
    hand: Sequence[Card], table: Sequence[Card], legal: Sequence[Card], keep: Card | None = None
) -> Card:
    """The card the rules of thumb of ``basic`` play from ``hand`` with ``table`` (the cards
    on the trick, from the lead) in front of them and ``legal`` the cards they may play:
    save the keeper (``keep``, by default :func:`keeper`), play low until trick four, win
    trick four cheaply to lead the keeper, throw from the shortest suit. Reads nothing but
    its arguments, so it also says what a ``basic`` player would have played from a hand it
    held (``master:infer=3``)."""
    if len(legal) == 1:
        return legal[0]
    if keep is None:
        keep = keeper(hand)
    others = [c for c in legal if c != keep]
    if len(hand) == 2:
        # Trick four: win it with the other card if that is possible, to lead the keeper.
        if not table:
            return others[0] if others else legal[0]
        led = table[0] & 3
        best = max((c for c in table if c & 3 == led), default=table[0])
        winners = [c for c in others if c & 3 == led and c > best]
        if winners:
            return min(winners)
        return min(others) if others else min(legal)
    if not table:
        # the lowest rank, then the lowest suit: the lowest id
        return min(others) if others else legal[0]
    led = table[0] & 3
    following = [c for c in others if c & 3 == led]
    if following:
        return min(following)
    if others:
        suits = _by_suit(hand)
        return min(others, key=lambda c: (len(suits[c & 3]), c >> 2))
    return min(legal)


def top_sequence_chicago(k: Knowledge, *, leads: bool) -> bool:
    """Whether the hand is all top sequences: in every suit it holds, its cards are the
    highest ones not known to be out of play; if it does not lead the first trick it must
    also hold all four suits (any suit may be led to it)."""
    return top_sequence_chicago_for(k.hand, k.dead, leads=leads)


def top_sequence_chicago_for(hand: Sequence[Card], dead: int, *, leads: bool) -> bool:
    """:func:`top_sequence_chicago` from the fields it reads: the hand and the mask of the
    cards known dead (a knowledge's, or :func:`~chicago.engine.knowledge.view_dead`)."""
    hand = list(hand)
    suits = _by_suit(hand)
    if not leads and len(suits) < 4:
        return False
    held = mask_of(hand)
    for suit, cards in suits.items():
        lowest = min(cards).rank
        for rank in range(lowest + 1, 15):
            card = (rank - 2) * 4 + suit
            if not (held | dead) >> card & 1:
                return False
    return True


def best_five(hand: Sequence[Card], rules: Rules) -> Card:
    """The card to discard from six so that the best five remain (V-LOCK-6)."""
    def value(card: Card) -> tuple[int, int]:
        rest = [c for c in hand if c != card]
        return (evaluate(rest, rules).key, -card.rank)
    return max(hand, key=value)


def is_top(k: Knowledge, card: Card) -> bool:
    """Whether no card of ``card``'s suit above it can be in another hand."""
    mine_or_gone = k.hand_mask | k.dead
    return all(
        mine_or_gone >> ((rank - 2) * 4 + card.suit) & 1 for rank in range(card.rank + 1, 15)
    )


def lead_chance(k: Knowledge, card: Card) -> float:
    """A rough chance that ``card``, led to the last trick, wins it: no opponent still holds
    a higher card of its suit (players keep high cards for the end, hence the factor 2)."""
    mine_or_gone = k.hand_mask | k.dead
    higher = sum(
        1 for rank in range(card.rank + 1, 15)
        if not mine_or_gone >> ((rank - 2) * 4 + card.suit) & 1
    )
    unseen = max(1, len(k.unseen))
    chance = 1.0
    for opp in k.opponents.values():
        if opp.voids >> card.suit & 1:
            continue
        chance *= max(0.0, 1 - min(1.0, 2 * higher / unseen))
    return chance


def best_keeper(k: Knowledge) -> Card:
    """The card ``ev`` saves for trick five: the one most likely to win it when led
    (:func:`lead_chance`), then the one of the longer suit, then the higher."""
    suits = _by_suit(k.hand)
    return max(k.hand, key=lambda c: (round(lead_chance(k, c), 3), len(suits[c.suit]), c.rank))


def ev_play(k: Knowledge, legal: Sequence[Card]) -> Card:
    """The ``ev`` bot's card: the ``basic`` rules, with trick four chosen by estimated chances.

    On trick four the bot wins the trick with a card that surely takes it when the card it
    then leads to the last trick is likely to win, and otherwise keeps its best card.
    """
    if len(legal) == 1:
        return legal[0]
    if len(k.hand) != 2:
        keep = best_keeper(k)
        if k.trick and not any(c.suit == k.trick[0][1].suit for c in legal):
            # Void in the suit led: throw the lowest card, never a sure winner if avoidable.
            others = [c for c in legal if c != keep] or list(legal)
            suits = _by_suit(k.hand)
            return min(others, key=lambda c: (is_top(k, c), c.rank, len(suits[c.suit])))
        return basic_play(k, legal, keep)
    a, b = k.hand
    if not k.trick:
        # Lead a sure winner first and keep the lead, when the other card is the better lead.
        options = []
        for first, second in ((a, b), (b, a)):
            value = lead_chance(k, second) if is_top(k, first) else 0.3 * lead_chance(k, first)
            options.append((value, first))
        return max(options, key=lambda o: (o[0], -o[1].rank))[1]
    led = k.trick[0][1].suit
    best = max((c for _, c in k.trick if c.suit == led), default=k.trick[0][1])
    last_to_play = len(k.trick) == k.players - 1
    scored = []
    for card in legal:
        other = b if card == a else a
        wins = card.suit == led and card > best and (last_to_play or is_top(k, card))
        value = lead_chance(k, other) if wins else (0.35 if is_top(k, other) else 0.05)
        scored.append((value, -card.rank, card))
    return max(scored)[2]


def required_chicago(k: Knowledge) -> str | None:
    """``"declared"`` (V-CHI-DECLARED) or ``"made"`` (V-CHI-REQ3, when in force at this
    table size) when only a player who has declared (made) a Chicago can win and this seat
    has not yet; else None."""
    return required_chicago_for(k.rules, k.players, k.seat, k.chicago_declared, k.chicago_made)


def required_chicago_for(rules: Rules, players: int, seat: int, declared: Sequence[bool],
                         made: Sequence[bool]) -> str | None:
    """:func:`required_chicago` from the fields it reads (a knowledge's or a seat's view's:
    ``declared`` and ``made`` per seat, V-CHI-DECLARED and V-CHI-REQ3)."""
    if not rules.chicago_enabled:
        return None
    if rules.chicago_required == "declared" and not declared[seat]:
        return "declared"
    if (
        rules.chicago_required == "made"
        and (players == 3 or rules.chicago_made_any_size)
        and not made[seat]
    ):
        return "made"
    return None


def chicago_is_due(k: Knowledge, chance: float | None = None) -> bool:
    """Whether the seat should declare Chicago now because the rules require one it lacks.

    V-CHI-DECLARED: at or near the target (within two last tricks of it) a player who never
    declared cannot win, so it declares at its first chance whatever its hand; a failed
    call costs 15 points but meets the requirement for good. V-CHI-REQ3: reaching the
    target without a made Chicago resets the score to zero, so once a made Chicago would
    take the seat to the target it declares when its estimated ``chance`` of making it is
    at least :data:`REQUIRED_CHANCE` (``None``: no estimate, the ``basic`` bot), and
    always when one more good deal would reach the target anyway (within two last tricks).
    """
    return chicago_is_due_for(k.rules, k.players, k.seat, k.scores, k.chicago_declared,
                              k.chicago_made, chance)


def chicago_is_due_for(rules: Rules, players: int, seat: int, scores: Sequence[int],
                       declared: Sequence[bool], made: Sequence[bool],
                       chance: float | None = None) -> bool:
    """:func:`chicago_is_due` from the fields it reads (a knowledge's or a seat's view's)."""
    need = required_chicago_for(rules, players, seat, declared, made)
    if need is None:
        return False
    score = scores[seat]
    close = score + 2 * rules.last_trick_points >= rules.target
    if need == "declared":
        return close
    if score + rules.chicago_points < rules.target:
        return False
    return close or (chance is not None and chance >= REQUIRED_CHANCE)


def would_reset(k: Knowledge, points: int) -> bool:
    """Whether scoring ``points`` now would take the seat to the target without the made
    Chicago V-CHI-REQ3 requires, which resets its score to zero."""
    return would_reset_for(k.rules, k.players, k.seat, k.scores, k.chicago_declared,
                           k.chicago_made, points)


def would_reset_for(rules: Rules, players: int, seat: int, scores: Sequence[int],
                    declared: Sequence[bool], made: Sequence[bool], points: int) -> bool:
    """:func:`would_reset` from the fields it reads (a knowledge's or a seat's view's)."""
    return (
        points > 0
        and required_chicago_for(rules, players, seat, declared, made) == "made"
        and scores[seat] + points >= rules.target
    )

"""Type stubs of the C accelerator ``chicago._poker`` (see ``_poker.c``)."""

from collections.abc import Callable, Iterable, Sequence

from chicago.cards import Card
from chicago.odds import Hold
from chicago.poker import Category, HandValue
from chicago.rules import Rules

TABLE_ENTRIES: int
TABLE_BYTES: int
TABLE_BUILD_NS: int

def rank(cards: Sequence[int], wheel: bool = True) -> int: ...
def rank_batch(cards: object, width: int, out: object, wheel: bool) -> None: ...
def category(cards: Sequence[object], wheel: bool, royal: bool) -> Category: ...
def evaluate(
    cards: Iterable[int | str] | str,
    rules: Rules | None = None,
    wheel: bool | None = None,
    royal: bool | None = None,
    suit_order: str | None = None,
) -> HandValue: ...
def draw_counts(
    hand: Sequence[int], dead_mask: int, wheel: bool
) -> tuple[tuple[int, ...], ...]: ...
def setup(
    deck: tuple[Card, ...],
    categories: tuple[Category, ...],
    as_cards: Callable[[Iterable[int | str] | str], tuple[Card, ...]],
    suit_ranks: Callable[[str], bytes],
    restore: Callable[[tuple[Card, ...], tuple[bool, bool, bytes | None]], HandValue],
) -> None: ...
def draw_odds(
    hand: Sequence[int],
    dead_mask: int,
    wheel: bool,
    royal: bool,
    points: tuple[int, ...],
    max_discard: int,
) -> list[Hold]: ...
def setup_odds(
    hold_type: type[Hold], field_descriptors: tuple[object, ...], names: tuple[str, ...]
) -> None: ...

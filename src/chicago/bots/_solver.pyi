"""Type stubs of the C accelerator ``chicago.bots._solver`` (see ``_solver.c``)."""

from collections.abc import Sequence

def solve(
    hands: Sequence[int], target: int, goal: int, seat: int, i: int, led: int, best: int,
    best_seat: int, left: int, live: int,
) -> bool: ...
def solve_moves(
    hands: Sequence[int], target: int, goal: int, seat: int, i: int, led: int, best: int,
    best_seat: int, left: int, live: int, among: int,
) -> int: ...
def model_wins(hands: Sequence[int], seat: int, leader: int, played: Sequence[int]) -> bool: ...
def model_after(
    hands: Sequence[int], seat: int, leader: int, played: Sequence[int], cards: Sequence[int]
) -> tuple[bool, ...]: ...
def model_card(hand: int, table: Sequence[int]) -> int: ...

"""Reviewing a game: every decision of a seat judged, and the seat's summary.

:func:`review_game` is the entry point; :func:`review_seats` reviews several seats, in
worker processes if asked (``jobs``), with the identical result: every decision has its
own random generator (:func:`~chicago.review.judge.decision_rng`), so nothing depends on
which process judged it or in what order.

A program that runs the work itself (the table server's process pool) splits a review in
three steps, each a plain function of JSON-able data: :func:`plan_review` (the shares,
:class:`ReviewChunk`, runs of a seat's deals of about equal size), :func:`review_chunk` (the
decisions of one share) and :func:`assemble_review` (the seat's review from its decisions,
in any order). ``review_seats`` is made of the same three.
"""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass

from chicago.engine import Game
from chicago.review.hindsight import hindsight_values
from chicago.review.identity import record_identity
from chicago.review.judge import decision_rng, grade, value_decision
from chicago.review.levels import ReviewLevel
from chicago.review.model import DecisionReview, Review
from chicago.review.summary import summarize
from chicago.review.walk import count_decisions, decision_points, final_game

__all__ = [
    "Progress",
    "ReviewChunk",
    "assemble_review",
    "plan_review",
    "review_chunk",
    "review_decisions",
    "review_game",
    "review_seats",
]

Progress = Callable[[int, int], None]
"""Called as decisions are judged: ``progress(done, total)``."""


@dataclass(frozen=True, slots=True)
class ReviewChunk:
    """A share of a review: one seat's decisions in the deals ``first`` to ``last``."""

    seat: int
    first: int
    last: int
    decisions: int
    """How many decisions the seat made in those deals."""


def review_decisions(
    record: Mapping[str, object],
    seat: int,
    *,
    level: ReviewLevel,
    seed: int,
    hindsight: bool,
    deals: tuple[int, int] | None = None,
    on_decision: Callable[[], None] | None = None,
) -> list[DecisionReview]:
    """The reviews of the seat's decisions (of the deals ``deals``, first to last, if
    given), in order. The record must be valid."""
    out = []
    for point in decision_points(record, seat, deals):
        rng = decision_rng(seed, seat, point.step)
        k, valuation = value_decision(point.view, point.legal, point.action, level, rng)
        real = (
            hindsight_values(point.game, k, point.legal, valuation.options) if hindsight else None
        )
        out.append(grade(point.step, point.deal, k, valuation, point.action, level, real))
        if on_decision is not None:
            on_decision()
    return out


def _checked(
    record: Mapping[str, object], seats: Sequence[int], hindsight: bool
) -> Game:
    final = final_game(record)
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < final.players:
            raise ValueError(f"seat must be 0-{final.players - 1}, not {seat!r}")
    if hindsight and not final.is_over:
        raise ValueError(
            "values with all cards known are only shown for a finished game (this one goes on)"
        )
    return final


def _review(
    final: Game, seat: int, decisions: list[DecisionReview], level: ReviewLevel, seed: int,
    hindsight: bool, name: str | None,
) -> Review:
    return Review(
        record=record_identity(final),
        seat=seat,
        level=level.spec,
        seed=seed,
        hindsight=hindsight,
        decisions=tuple(decisions),
        summary=summarize(decisions, seat, final.deal_history),
        name=name,
    )


def review_game(
    record: Mapping[str, object],
    seat: int,
    *,
    level: str | ReviewLevel = "expert",
    seed: int = 0,
    hindsight: bool = False,
    name: str | None = None,
    progress: Progress | None = None,
) -> Review:
    """The review of ``seat``'s decisions in the game of ``record`` (a JSON record).

    Pure and deterministic: the same record, seat, level and seed give the same review.
    Each decision is judged only on what the seat knew then (its view); ``hindsight``
    adds, for a finished game, each alternative's value with all cards known, beside it
    and never in the grade. Raises :class:`~chicago.record.RecordError` for a bad record,
    ``ValueError`` for a bad seat, level or a hindsight of an unfinished game.
    """
    return review_seats(
        record, [seat], level=level, seed=seed, hindsight=hindsight,
        names={} if name is None else {seat: name}, progress=progress,
    )[0]


def review_seats(
    record: Mapping[str, object],
    seats: Sequence[int],
    *,
    level: str | ReviewLevel = "expert",
    seed: int = 0,
    hindsight: bool = False,
    names: dict[int, str] | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
) -> list[Review]:
    """The reviews of several seats (see :func:`review_game`), judged in ``jobs`` worker
    processes; the result is the same for any number of jobs."""
    spec = ReviewLevel.parse(level)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number of at least 1, not {jobs!r}")
    final = _checked(record, seats, hindsight)
    names = names or {}
    counts = count_decisions(record, set(seats)) if progress is not None or jobs > 1 else {}
    total = sum(counts.values())
    done = 0

    def tick(amount: int = 1) -> None:
        nonlocal done
        done += amount
        if progress is not None:
            progress(done, total)

    if progress is not None:
        progress(0, total)
    found: dict[int, list[DecisionReview]] = {seat: [] for seat in seats}
    if jobs == 1:
        for seat in dict.fromkeys(seats):
            found[seat] = review_decisions(
                record, seat, level=spec, seed=seed, hindsight=hindsight, on_decision=tick
            )
    else:
        with multiprocessing.Manager() as manager, ProcessPoolExecutor(max_workers=jobs) as pool:
            # each worker says every decision it judged, so that the progress moves with
            # every decision and not only when a share ends
            ticks = manager.Queue() if progress is not None else None
            futures = {
                pool.submit(_chunk_with_ticks, record, chunk, spec, seed, hindsight,
                            ticks): chunk
                for chunk in _chunks(counts, 4 * jobs)
            }
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, timeout=_TICK_WAIT,
                                         return_when=FIRST_COMPLETED)
                if ticks is not None:
                    tick(_drain(ticks))
                for future in finished:
                    chunk = futures[future]
                    found[chunk.seat].extend(future.result())
            if ticks is not None:
                tick(_drain(ticks))
    return [
        _review(final, seat, sorted(found[seat], key=lambda d: d.step), spec, seed, hindsight,
                names.get(seat))
        for seat in seats
    ]


_TICK_WAIT = 0.1
"""Seconds between looks at the workers' ticks while shares are being judged."""


def _chunk_with_ticks(
    record: Mapping[str, object], chunk: ReviewChunk, level: ReviewLevel, seed: int,
    hindsight: bool, ticks: queue.Queue[int] | None,
) -> list[DecisionReview]:
    """:func:`review_chunk` in a worker, putting a tick on ``ticks`` (a managed queue, or
    None) after each decision."""
    on_decision = None if ticks is None else (lambda: ticks.put(1))
    return review_decisions(record, chunk.seat, level=level, seed=seed, hindsight=hindsight,
                            deals=(chunk.first, chunk.last), on_decision=on_decision)


def _drain(ticks: queue.Queue[int]) -> int:
    """How many ticks wait on the queue (taken off it)."""
    count = 0
    while True:
        try:
            ticks.get_nowait()
        except queue.Empty:
            return count
        count += 1


def plan_review(
    record: Mapping[str, object], seats: Sequence[int], *, pieces: int = 4, hindsight: bool = False
) -> list[ReviewChunk]:
    """The review of ``seats`` split in about ``pieces`` shares of about equal size (a seat
    with no decision has none), the largest first. Checks the record (RecordError), the
    seats and ``hindsight`` (ValueError) as :func:`review_game` does."""
    _checked(record, seats, hindsight)
    if isinstance(pieces, bool) or not isinstance(pieces, int) or pieces < 1:
        raise ValueError(f"pieces must be a whole number of at least 1, not {pieces!r}")
    return _chunks(count_decisions(record, set(seats)), pieces)


def review_chunk(
    record: Mapping[str, object], chunk: ReviewChunk, *, level: str | ReviewLevel = "expert",
    seed: int = 0, hindsight: bool = False,
) -> list[DecisionReview]:
    """The reviews of the decisions of one share (from :func:`plan_review`), in order."""
    return review_decisions(
        record, chunk.seat, level=ReviewLevel.parse(level), seed=seed, hindsight=hindsight,
        deals=(chunk.first, chunk.last),
    )


def assemble_review(
    record: Mapping[str, object], seat: int, decisions: Iterable[DecisionReview], *,
    level: str | ReviewLevel = "expert", seed: int = 0, hindsight: bool = False,
    name: str | None = None,
) -> Review:
    """The review of ``seat`` from the reviews of all its decisions (every share's, in any
    order): the same :class:`Review` as :func:`review_game` with these arguments."""
    final = _checked(record, [seat], hindsight)
    ordered = sorted(decisions, key=lambda d: d.step)
    return _review(final, seat, ordered, ReviewLevel.parse(level), seed, hindsight, name)


def _chunks(counts: dict[tuple[int, int], int], pieces: int) -> list[ReviewChunk]:
    """Runs of a seat's deals of about ``1 / pieces`` of all decisions each, so that
    workers taking them in turn finish together."""
    total = sum(counts.values())
    target = max(1, total // pieces)
    chunks: list[ReviewChunk] = []
    for seat in sorted({s for s, _ in counts}):
        deals = sorted(d for s, d in counts if s == seat)
        start = None
        size = 0
        for deal in deals:
            if start is None:
                start = deal
            size += counts[(seat, deal)]
            if size >= target:
                chunks.append(ReviewChunk(seat, start, deal, size))
                start, size = None, 0
        if start is not None:
            chunks.append(ReviewChunk(seat, start, deals[-1], size))
    # the largest first, so that no worker is left with a big one at the end
    return sorted(chunks, key=lambda c: (-c.decisions, c.seat, c.first))

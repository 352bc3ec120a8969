"""The typed result of a review: what each decision was worth, and a summary per seat.

Every class here is a frozen dataclass with ``to_json()`` (plain JSON-able data) and
``from_json(data)`` (which checks every field and raises :class:`ReviewFormatError` naming
the one that is wrong), so a review can be stored and read back exactly:
``Review.from_json(review.to_json()) == review``. Values are rounded to four decimals when
they are made, so the round trip is exact. The schema is in ``docs/REVIEW.md`` and, as a
JSON Schema, in ``chicago/review/review.schema.json``.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from importlib import resources
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

__all__ = [
    "FORMAT",
    "SET_FORMAT",
    "VERSION",
    "Alternative",
    "DealSummary",
    "DecisionReview",
    "Grade",
    "GradeCounts",
    "Parts",
    "PhaseSummary",
    "Reason",
    "RecordIdentity",
    "Review",
    "ReviewFormatError",
    "ReviewSet",
    "Summary",
    "json_schema",
]

FORMAT = "chicago-review"
"""The ``format`` of one seat's review."""
SET_FORMAT = "chicago-review-set"
"""The ``format`` of the reviews of several seats of one game."""
VERSION = 1
"""The version of both formats; a reader refuses any other."""


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of both formats, from ``review.schema.json``."""
    text = resources.files("chicago.review").joinpath("review.schema.json").read_text()
    return typing.cast(dict[str, Any], json.loads(text))


class ReviewFormatError(ValueError):
    """Data that is not a review of this format: the message names the field."""


class Grade(enum.Enum):
    """How good a decision was, by the points it lost (thresholds in ``docs/REVIEW.md``)."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


_T = TypeVar("_T", bound="_Json")


class _Json:
    """``to_json``/``from_json`` for a frozen dataclass of JSON-able fields."""

    __slots__ = ()
    _MARK: ClassVar[tuple[str, str] | None] = None
    """``("format", FORMAT)`` for the top-level classes, which carry their format."""

    def to_json(self) -> dict[str, Any]:
        """The JSON-able data of this object (fields in declaration order)."""
        out: dict[str, Any] = {}
        if self._MARK is not None:
            out["format"] = self._MARK[1]
            out["version"] = VERSION
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            out[f.name] = _dump(getattr(self, f.name))
        return out

    @classmethod
    def from_json(cls: type[_T], data: Any) -> _T:
        """The object of ``data`` (as made by :meth:`to_json`); ReviewFormatError if not."""
        return typing.cast(_T, _load(cls, data, cls.__name__))


def _dump(value: Any) -> Any:
    if isinstance(value, _Json):
        return value.to_json()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_dump(v) for v in value]
    return value


def _load(kind: Any, data: Any, where: str) -> Any:
    """``data`` read as the type ``kind``; ``where`` names the field for errors."""
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        options = get_args(kind)
        if data is None and type(None) in options:
            return None
        (inner,) = [o for o in options if o is not type(None)]
        return _load(inner, data, where)
    if origin is tuple:
        if not isinstance(data, list):
            raise ReviewFormatError(f"{where}: expected a list, got {type(data).__name__}")
        (item, _) = get_args(kind)
        return tuple(_load(item, v, f"{where}[{i}]") for i, v in enumerate(data))
    if isinstance(kind, type) and issubclass(kind, _Json):
        return _load_object(kind, data, where)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(data)
        except ValueError:
            valid = ", ".join(str(m.value) for m in kind)
            raise ReviewFormatError(f"{where}: {data!r} is not one of {valid}") from None
    if kind is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise ReviewFormatError(f"{where}: expected a number, got {data!r}")
        return float(data)
    if kind is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ReviewFormatError(f"{where}: expected an integer, got {data!r}")
        return data
    if kind in (str, bool):
        if not isinstance(data, kind):
            raise ReviewFormatError(f"{where}: expected a {kind.__name__}, got {data!r}")
        return data
    raise TypeError(f"{where}: no JSON form for {kind!r}")  # pragma: no cover - a bug here


def _load_object(cls: type[_Json], data: Any, where: str) -> _Json:
    if not isinstance(data, dict):
        raise ReviewFormatError(f"{where}: expected an object, got {type(data).__name__}")
    if cls._MARK is not None:
        key, expected = cls._MARK
        if data.get(key) != expected:
            raise ReviewFormatError(f"{where}: format {data.get(key)!r} is not {expected!r}")
        if data.get("version") != VERSION:
            raise ReviewFormatError(
                f"{where}: version {data.get('version')!r} is not {VERSION} (this program "
                "reads only its own version)"
            )
    hints = get_type_hints(cls)
    values: dict[str, Any] = {}
    names = set()
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        names.add(f.name)
        if f.name not in data:
            if f.default is not dataclasses.MISSING:
                continue
            raise ReviewFormatError(f"{where}: the field {f.name!r} is missing")
        values[f.name] = _load(hints[f.name], data[f.name], f"{where}.{f.name}")
    extra = set(data) - names - ({"format", "version"} if cls._MARK else set())
    if extra:
        raise ReviewFormatError(f"{where}: unknown field {sorted(extra)[0]!r}")
    try:
        return cls(**values)
    except ValueError as exc:
        raise ReviewFormatError(f"{where}: {exc}") from None


def rounded(value: float) -> float:
    """A value as stored: four decimals (so that a JSON round trip is exact)."""
    result = round(float(value), 4)
    return 0.0 if result == 0 else result  # no -0.0


@dataclasses.dataclass(frozen=True, slots=True)
class Parts(_Json):
    """Where an alternative's value comes from, in expected points (they add up to it)."""

    hand: float = 0.0
    """The poker hand: scoring rounds and the final showdown."""
    trick: float = 0.0
    """The last trick."""
    chicago: float = 0.0
    """A Chicago: made or broken (declared), or the chance to declare one (an exchange)."""
    other: float = 0.0
    """Anything else: the others' scores reset by four of a kind (V-QUADS-RESET)."""
    chance: float | None = None
    """The chance behind the value, where there is one: of winning the scoring round
    (an announcement), of making the Chicago (the call, a declarer's card, an exchange
    before it) or of breaking it (a defender's card), of winning the last trick (a card)."""

    @property
    def total(self) -> float:
        """The sum of the parts: the alternative's value."""
        return rounded(self.hand + self.trick + self.chicago + self.other)


@dataclasses.dataclass(frozen=True, slots=True)
class Alternative(_Json):
    """One thing the seat could have done, and what it was worth."""

    action: str
    """The action in the text notation (``discard 2h 7c``, ``play Ah`` …)."""
    value: float
    """Expected points for the seat, judged on what it knew then."""
    parts: Parts
    """Where the value comes from."""
    keep: tuple[str, ...] | None = None
    """An exchange: the cards it keeps."""
    hindsight: float | None = None
    """The value with all cards known (a finished game, when asked for): the cards the
    stock really held, the other hands as they really were. Never used for the grade."""


@dataclasses.dataclass(frozen=True, slots=True)
class Reason(_Json):
    """The fact that decides a decision, in no language: what a sentence of the catalogue
    (``why.KEY`` in ``web/static/lang/*.json``) names. Made by
    :mod:`chicago.review.reasons` from what the seat knew; put in words by
    :func:`chicago.tui.review_words.reason_text` and by the browser's Review view."""

    key: str
    """Which sentence: ``hold``, ``hold_trick``, ``hold_chicago``, ``announce``,
    ``chicago``, ``trick``, ``declarer``, ``defender``, ``value``, ``equal`` (and
    ``.best`` after it when what was done is the best)."""
    best: str
    """The best alternative's action text."""
    done: str
    """What was done (the runner-up where that was the best)."""
    best_chance: float | None = None
    """The chance that decides for the best alternative (of its aim, the last trick, the
    Chicago …)."""
    done_chance: float | None = None
    best_keep: tuple[str, ...] | None = None
    """An exchange: the cards the best hold keeps."""
    done_keep: tuple[str, ...] | None = None
    best_category: str | None = None
    """The category the best hold aims at (``"or better"``), or the one announced."""
    done_category: str | None = None
    points: float | None = None
    """What success is worth: the round won, the Chicago made, the best value."""
    cost: float | None = None
    """What failing costs (a Chicago), or the value of what was done."""
    score: int | None = None
    """The seat's score, when the score situation matters (near the target)."""
    target: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class DecisionReview(_Json):
    """One decision of the reviewed seat."""

    step: int
    """The record's action number (1-based): the replay step that shows it."""
    deal: int
    phase: str
    """The engine's phase: ``exchange``, ``announce``, ``chicago``, ``play``, ``one up``,
    ``redeal``, ``quads``, ``quads choice``."""
    round: int
    """The exchange or scoring round (1-based), or the trick number (1-5) in play."""
    hand: tuple[str, ...]
    """The seat's cards when it decided (its own: nothing hidden)."""
    action: str
    """What the seat did."""
    best: str
    """The best alternative."""
    loss: float
    """Expected points lost against the best alternative (0 when it chose the best)."""
    grade: Grade
    alternatives: tuple[Alternative, ...]
    """Best first; always includes what was done."""
    samples: int = 0
    """Sampled deals behind the values (0: exact odds and estimates only)."""
    hindsight_best: str | None = None
    """With all cards known, the best alternative (a finished game, when asked for)."""
    hindsight_loss: float | None = None
    """With all cards known, what the action lost against that one."""
    why: Reason | None = None
    """The fact that decides it (see :class:`Reason`)."""
    reason: str | None = None
    """That fact as a sentence in the reader's language: filled in by the program that
    shows the review (``chicago review``, the table server), None in a review as made."""

    def alternative(self, action: str) -> Alternative:
        """The alternative of ``action`` (KeyError if it is not listed)."""
        for alt in self.alternatives:
            if alt.action == action:
                return alt
        raise KeyError(action)


@dataclasses.dataclass(frozen=True, slots=True)
class GradeCounts(_Json):
    """How many decisions got each grade."""

    best: int = 0
    good: int = 0
    inaccuracy: int = 0
    mistake: int = 0
    blunder: int = 0

    def count(self, grade: Grade) -> int:
        """The number of decisions of ``grade``."""
        return int(getattr(self, grade.value))


@dataclasses.dataclass(frozen=True, slots=True)
class PhaseSummary(_Json):
    """The decisions of one phase."""

    phase: str
    decisions: int
    loss: float
    grades: GradeCounts


@dataclasses.dataclass(frozen=True, slots=True)
class DealSummary(_Json):
    """The decisions of one deal, and what the seat scored in it."""

    deal: int
    decisions: int
    loss: float
    points: int
    """Points the seat gained (or lost) in the deal, as it was played."""


@dataclasses.dataclass(frozen=True, slots=True)
class Summary(_Json):
    """One seat's game in numbers (definitions in ``docs/REVIEW.md``)."""

    decisions: int
    loss: float
    """Expected points lost over the whole game."""
    loss_per_deal: float
    accuracy: float
    """0-100: the mean of ``100 × exp(-loss / 1.5)`` over the decisions that count (real
    choices, and every decision that lost points)."""
    grades: GradeCounts
    phases: tuple[PhaseSummary, ...]
    deals: tuple[DealSummary, ...]
    biggest: tuple[int, ...]
    """Steps of the costliest decisions graded inaccuracy or worse, costliest first (≤ 5)."""


@dataclasses.dataclass(frozen=True, slots=True)
class RecordIdentity(_Json):
    """Which game was reviewed: a hash of the record's header and actions, and its shape."""

    hash: str
    """``sha256:`` and the hex digest of the canonical JSON of the record's rules, players,
    seed, dealer, stacked decks and actions (not its result or tags)."""
    rules: str
    """The preset name of the rules."""
    players: int
    seed: int
    actions: int
    deals: int
    finished: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Review(_Json):
    """The review of one seat's decisions in one game (see :func:`chicago.review.review_game`)."""

    _MARK: ClassVar[tuple[str, str] | None] = ("format", FORMAT)

    record: RecordIdentity
    seat: int
    level: str
    """The review level's full spec (``expert:samples=64,exchange=48,holds=4``)."""
    seed: int
    hindsight: bool
    """Whether the values with all cards known were computed."""
    decisions: tuple[DecisionReview, ...]
    summary: Summary
    name: str | None = None
    """The seat's player name, when the record's tags give one."""

    def decision(self, step: int) -> DecisionReview:
        """The decision made at ``step`` (KeyError if the seat did not decide there)."""
        for decision in self.decisions:
            if decision.step == step:
                return decision
        raise KeyError(step)


@dataclasses.dataclass(frozen=True, slots=True)
class ReviewSet(_Json):
    """The reviews of several seats of one game (``chicago review --all --json``)."""

    _MARK: ClassVar[tuple[str, str] | None] = ("format", SET_FORMAT)

    reviews: tuple[Review, ...]

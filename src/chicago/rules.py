"""Rules: every rule option of the specification, the four presets and the variations.

A :class:`Rules` is frozen and typed. Build one from a preset and overrides::

    >>> from chicago.rules import Rules
    >>> r = Rules.preset("pagat", lock_at=42)
    >>> r.exchanges, r.scoring_rounds, r.lock_at
    (3, 2, 42)
    >>> Rules.from_json(r.to_json()) == r
    True
    >>> Rules.preset("wikipedia").with_variations("V-TIE-SUIT").suit_order
    'hdsc'

Unknown presets, options or variations, wrong types and impossible combinations raise
:class:`RulesError`, which names the problem and lists what is valid. ``docs/RULES.md`` of
the project describes each option in plain words with its rule id and default.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from chicago.categories import Category

__all__ = [
    "PRESETS",
    "RANGES",
    "VARIATIONS",
    "Range",
    "Rules",
    "RulesError",
    "Variation",
    "parse_option",
    "parse_value",
]


class RulesError(ValueError):
    """An unknown preset, option or variation, a wrong type or an impossible combination.

    ``options`` names the overrides at fault when :meth:`Rules.build` refuses them (the one
    without which the others apply, else all of them); empty otherwise.
    """

    def __init__(self, message: str, options: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.options = options


TieMode = Literal["staged", "category"]
RedealLow = Literal["off", "below-ten", "ten-and-below"]
ChicagoRequired = Literal["none", "made", "declared"]
ChicagoCallers = Literal["first"]
InstantWinScore = Literal["target", "keep"]

DEFAULT_POINTS: Mapping[str, int] = types.MappingProxyType(
    {
        "HIGH_CARD": 0,
        "PAIR": 1,
        "TWO_PAIR": 2,
        "THREE_OF_A_KIND": 3,
        "STRAIGHT": 4,
        "FLUSH": 5,
        "FULL_HOUSE": 6,
        "FOUR_OF_A_KIND": 7,
        "STRAIGHT_FLUSH": 8,
        "ROYAL_FLUSH": 52,
    }
)


def _points_tuple(points: Mapping[str, int] | None = None) -> tuple[int, ...]:
    table = dict(DEFAULT_POINTS)
    if points:
        table.update(points)
    return tuple(table[c.name] for c in Category)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of Chicago. Build with :meth:`preset`; defaults are ``pagat``'s."""

    preset_name: str = "pagat"
    """The preset this rule set started from (informational; overrides may follow)."""
    variations: tuple[str, ...] = field(default=(), compare=False)
    """The variations put in force on the preset, by id in order (informational, like
    ``preset_name``, and not compared: equal options are equal rules however they were
    built; overrides may follow). Text records write them as ``Variation`` tags."""

    # -- table (R-TABLE-*) --
    min_players: int = 2
    """R-TABLE-1: fewest seats a table may have."""
    max_players: int = 4
    """R-TABLE-1 / V-LARGE: most seats a table may have (up to 6)."""

    # -- hands (R-HAND-*) --
    points: tuple[int, ...] = field(default_factory=_points_tuple)
    """R-HAND-1: points per category, indexed by :class:`Category` (HIGH_CARD … ROYAL_FLUSH)."""
    royal_separate: bool = True
    """V-ROYAL: an ace-high straight flush is its own category, ROYAL_FLUSH (P, D: 52 points)."""
    royal_wins: bool = False
    """V-ROYAL: a royal flush that scores wins the whole game at once."""
    straight_flush_wins: bool = False
    """V-SF-WIN: a straight flush (or royal) that scores wins the whole game at once."""
    instant_win_score: InstantWinScore = "target"
    """V-SF-WIN / V-ROYAL: an instant winner's score is raised to the target (``target``,
    W's "elevated to 52") or kept as it is (``keep``); settlement follows from it."""
    wheel_straight: bool = True
    """R-HAND-3: A-2-3-4-5 is a straight (five high)."""
    suit_order: str | None = None
    """V-TIE-SUIT: suits highest first (``"hdsc"``) to break exactly equal hands; None = off."""
    tie_mode: TieMode = "staged"
    """R-ANN-3 / V-TIE-CATEGORY: ``staged`` tie-break by ranks, or ``category`` (ties score 0)."""

    # -- exchanges (R-PHASE-1, R-EX-*) --
    exchanges: int = 3
    """R-PHASE-1: exchange rounds per deal; a scoring round follows every one but the last."""
    max_discard: int = 5
    """R-EX-2 / V-LARGE: most cards one player may discard in one exchange round."""
    show_on_break: bool = True
    """R-EX-4: breaking a highest announced combination shows the whole hand first."""
    lock_at: int | None = 46
    """R-EX-5 / V-LOCK-42 / V-LOCK-45: a score at deal start >= this locks; None = never."""
    lock_six: bool = False
    """V-LOCK-6: a locked player is dealt six cards and discards one before the first scoring."""
    one_up: bool = False
    """V-ONE-UP: exchanging exactly one card, a player may ask for the new card face up."""
    redeal_low: RedealLow = "off"
    """V-REDEAL-LOW: five cards all below ten (or ten and below) may be redrawn once."""

    # -- Chicago (R-CHI-*) --
    chicago_enabled: bool = True
    """R-CHI-1: the Chicago call exists (D has none)."""
    chicago_points: int = 15
    """R-CHI-3 / R-CHI-4 / V-CHI-13: won by a made Chicago, lost by a failed one."""
    chicago_min_score: int | None = 15
    """R-CHI-2: score needed to declare; None = any score (V-NEG)."""
    chicago_callers: ChicagoCallers = "first"
    """R-CHI-1: at most one declarer, the first to declare in turn order."""
    chicago_caller_leads: bool = False
    """R-CHI-6: the declarer leads the first trick (V-CHI-13) instead of the dealer's left."""
    chicago_final_showdown: bool = True
    """R-CHI-3: after a made Chicago the final showdown still scores."""
    chicago_breaker_points: int = 0
    """V-CHI-BREAKER: points for the player whose trick breaks a Chicago (8); 0 = off."""
    chicago_required: ChicagoRequired = "none"
    """V-CHI-REQ3 (``made``) / V-CHI-DECLARED (``declared``): what a player needs to win."""
    chicago_made_any_size: bool = False
    """V-CHI-REQ3: ``made`` holds at every table size; off: only when three play (as P says)."""

    # -- tricks and showdown (R-TRICK-*, R-FIN-*) --
    last_trick_points: int = 5
    """R-TRICK-4: points for winning the last trick."""
    deuce_bonus: bool = False
    """V-DEUCE: last trick won with a 2 scores twice ``last_trick_points`` (10); a made
    Chicago whose last trick is won with a 2 scores ``deuce_chicago_points``."""
    deuce_chicago_points: int = 30
    """V-DEUCE: a made Chicago whose last trick is won with a 2 scores this (30, also under
    V-CHI-13; 26 would double a 13-point Chicago)."""

    # -- game end (R-END-*, §5) --
    target: int = 52
    """R-END-1: the game ends after a deal in which someone reaches this score."""
    stake: float = 1.0
    """R-END-2: money per point of difference (kr)."""
    negative_scores: bool = False
    """R-CHI-5 / V-NEG: scores may fall below zero (and R-END-3 doubles their payment)."""
    win_again: bool = False
    """V-WIN-AGAIN: a player at the target must win a later last trick to take the game."""
    max_deals: int | None = None
    """House option: the game also ends after this many deals; the most points win."""
    quads_reset: bool = False
    """V-QUADS-RESET: four of a kind may reset every other player's score instead of scoring."""
    quads_end_deal: bool = False
    """V-QUADS-RESET: scoring the 7 for four of a kind also ends the deal."""
    quads_reset_one: bool = False
    """V-QUADS-ONE: a reset by four of a kind lowers one other player of the holder's
    choice to zero (``reset SEAT``) instead of every other player."""
    quads_to_target: bool = False
    """V-QUADS-52: four of a kind that scores (a scoring round, the final showdown) raises its
    holder's score at once to the target (or by its points, if that is more)."""

    # ------------------------------------------------------------------ validation
    def __post_init__(self) -> None:
        _check_types(self)
        problems = (_range_problems(self) + _endless_problems(self) + _value_problems(self)
                    + _combination_problems(self))
        if problems:
            raise RulesError("; ".join(problems))

    # ------------------------------------------------------------------ derived
    @property
    def scoring_rounds(self) -> int:
        """Scoring rounds per deal: one after every exchange round but the last."""
        return self.exchanges - 1

    def points_for(self, category: Category) -> int:
        """Points of a category (R-HAND-1); HIGH_CARD scores nothing."""
        return self.points[category]

    @property
    def points_table(self) -> dict[str, int]:
        """The points table by category name (HIGH_CARD omitted; ROYAL_FLUSH only if separate)."""
        return {
            c.name: self.points[c]
            for c in Category
            if c is not Category.HIGH_CARD
            and (c is not Category.ROYAL_FLUSH or self.royal_separate)
        }

    # ------------------------------------------------------------------ construction
    @classmethod
    def build(
        cls,
        preset: str = "pagat",
        *,
        variations: Iterable[str] = (),
        overrides: Mapping[str, Any] | None = None,
    ) -> Rules:
        """The rules of a preset, variations and option overrides: the one way every door
        (the command line, the lobby, records, the environments) builds rules.

        Precedence, lowest first: the ``preset``; then the ``variations`` in the order given,
        each turning on what it needs (:meth:`with_variations`); then every override at
        once, so an option that needs another may come in any order or from a variation,
        and **an override beats a variation** that sets the same option
        (``variations=["V-LOCK-42"], overrides={"lock_at": 45}`` locks at 45). Option names
        may use ``-`` for ``_``. A refusal raises :class:`RulesError` whose ``options`` name
        the overrides at fault.

        >>> Rules.build("pagat", variations=["V-LOCK-42"], overrides={"lock_at": 45}).lock_at
        45
        """
        rules = cls.preset(preset)
        ids = list(variations)
        if ids:
            rules = rules.with_variations(*ids)
        changes = {str(name).strip().replace("-", "_"): value
                   for name, value in (overrides or {}).items()}
        if not changes:
            return rules
        problem = _refusal(rules, changes)
        if problem is None:
            return rules.replace(**changes)
        culprits = [
            name for name in changes
            if _refusal(rules, {k: v for k, v in changes.items() if k != name}) is None
        ]
        named = tuple(culprits[:1] if len(culprits) == 1 else changes)
        raise RulesError(problem, named)

    @classmethod
    def preset(cls, name: str = "pagat", **overrides: Any) -> Rules:
        """The rule set of a preset, with overrides: ``Rules.preset("pagat", lock_at=42)``.

        ``points`` overrides are merged by category name: ``points={"STRAIGHT_FLUSH": 10}``.
        """
        try:
            base = PRESETS[name]
        except KeyError:
            raise RulesError(
                f"unknown preset {name!r}; valid presets: {', '.join(PRESETS)}"
            ) from None
        return base.replace(**overrides) if overrides else base

    def replace(self, **overrides: Any) -> Rules:
        """A copy with some options changed; names and values are checked."""
        valid = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(overrides) - valid)
        if unknown:
            raise RulesError(
                f"unknown rule option{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(repr(u) for u in unknown)}; valid options: {', '.join(sorted(valid))}"
            )
        if "points" in overrides:
            overrides["points"] = self._merge_points(overrides["points"])
        return dataclasses.replace(self, **overrides)

    def _merge_points(self, points: object) -> tuple[int, ...]:
        if isinstance(points, tuple | list) and len(points) == len(Category):
            return tuple(points)
        if not isinstance(points, Mapping):
            raise RulesError(
                "points must be a mapping of category name to points, e.g. {'STRAIGHT_FLUSH': 10}"
            )
        table = {c.name: self.points[c] for c in Category}
        for key, value in points.items():
            name = str(key).upper().replace(" ", "_")
            if name not in table:
                raise RulesError(
                    f"unknown category {key!r} in points; valid: {', '.join(table)}"
                )
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"points for {name} must be an int, not {value!r}")
            table[name] = value
        return tuple(table[c.name] for c in Category)

    def with_variations(self, *ids: str) -> Rules:
        """Turn on variations by id (``"V-SF-10"``, ``"V-NEG"`` …) on top of these rules.

        Each variation also turns on what it needs to be in force (V-ROYAL separates the
        royal flush, every Chicago variation switches the Chicago call on, V-TIE-SUIT makes
        the tie-break staged …), so it is never a no-op; see ``docs/RULES.md``. Two
        variations that contradict each other in one call raise :class:`RulesError`.
        """
        keys: list[str] = []
        for vid in ids:
            key = vid.strip().upper()
            if key not in VARIATIONS:
                raise RulesError(
                    f"unknown variation {vid!r}; valid variations: {', '.join(VARIATIONS)}"
                )
            if key not in keys:
                keys.append(key)
        for pair, reason in _CONFLICTS.items():
            if pair <= set(keys):
                first, second = sorted(pair, key=keys.index)
                raise RulesError(
                    f"variations {first} and {second} contradict each other: {reason}; "
                    "apply one of them"
                )
        rules = self
        for key in keys:
            rules = rules.replace(**_variation_overrides(key, rules))
        added = tuple(k for k in keys if k not in rules.variations)
        return rules.replace(variations=rules.variations + added) if added else rules

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict of every option (``points`` by category name)."""
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "points":
                value = {c.name: value[c] for c in Category}
            elif f.name == "variations":
                value = list(value)
            data[f.name] = value
        return data

    def to_json(self) -> str:
        """The rules as a JSON text."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output; missing options take the named preset's value."""
        if not isinstance(data, Mapping):
            raise RulesError("rules must be a JSON object")
        items = dict(data)
        base = cls.preset(str(items.pop("preset_name", "pagat")))
        if isinstance(items.get("variations"), list):
            items["variations"] = tuple(items["variations"])
        return base.replace(**items) if items else base

    @classmethod
    def from_json(cls, text: str) -> Rules:
        """Rules from :meth:`to_json` output."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesError(f"rules are not valid JSON: {exc}") from None
        return cls.from_dict(data)

    def differences(self, other: Rules | None = None) -> dict[str, Any]:
        """Options that differ from ``other`` (default: the preset this started from)."""
        base = other if other is not None else PRESETS.get(self.preset_name, Rules())
        mine, theirs = self.to_dict(), base.to_dict()
        return {
            k: v for k, v in mine.items()
            if theirs.get(k) != v and k not in ("preset_name", "variations")
        }


_WORDS: dict[str, Any] = {"true": True, "false": False, "none": None, "null": None}


def parse_value(text: str) -> Any:
    """An option's value written as text: a JSON literal (``42``, ``true``, ``null``,
    ``{"ROYAL_FLUSH": 9}``), one of the words true/false/none (any case), else the text
    itself without surrounding spaces (``hdsc``)."""
    stripped = text.strip()
    if stripped.lower() in _WORDS:
        return _WORDS[stripped.lower()]
    try:
        return json.loads(stripped)
    except json.JSONDecodeError:
        return stripped


def parse_option(text: str, separator: str = "=") -> tuple[str, Any]:
    """One ``OPTION=VALUE`` override as text (``lock_at=42``; ``separator`` may be another
    sign, ``:`` in OpenSpiel's game strings): the option's name (``-`` may stand for ``_``)
    and its value (:func:`parse_value`). Raises :class:`RulesError` if it is not of that
    form; the name and value themselves are checked by :meth:`Rules.build`."""
    name, sep, value = text.partition(separator)
    name = name.strip().replace("-", "_")
    if not sep or not name:
        raise RulesError(f"expected OPTION{separator}VALUE, e.g. lock_at{separator}42, "
                         f"not {text!r}")
    return name, parse_value(value)


def _refusal(rules: Rules, overrides: Mapping[str, Any]) -> str | None:
    """Why ``rules`` with every override at once is refused; None if it is valid."""
    try:
        rules.replace(**dict(overrides))
    except RulesError as exc:
        return str(exc)
    except (TypeError, ValueError) as exc:
        values = ", ".join(f"{name}={value!r}" for name, value in overrides.items())
        return f"bad value in {values} ({exc})"
    return None


# ---------------------------------------------------------------------- ranges
@dataclass(frozen=True, slots=True)
class Range:
    """The values a numeric rule option may take: ``low`` to ``high`` inclusive (None too
    when the option's type allows it). ``words``: how a refusal says it, when plain
    ``low-high`` does not."""

    low: int | float
    high: int | float
    words: str = ""

    def describe(self, optional: bool) -> str:
        """The valid values in words: ``1-500``, ``1-500 or None``."""
        if self.words:
            return self.words
        span = f"{self.low} to {self.high}" if self.low < 0 else f"{self.low}-{self.high}"
        return span + (" or None" if optional else "")


RANGES: Mapping[str, Range] = types.MappingProxyType({
    "min_players": Range(2, 6),
    "max_players": Range(2, 6),
    "points": Range(0, 500),  # each category's points
    "exchanges": Range(1, 5),
    "max_discard": Range(0, 5),
    "lock_at": Range(1, 500, "positive or None (no lock), at most 500"),
    "chicago_points": Range(0, 500),
    "chicago_min_score": Range(-500, 500),
    "chicago_breaker_points": Range(0, 500),
    "last_trick_points": Range(0, 500),
    "deuce_chicago_points": Range(0, 500),
    "target": Range(1, 500),
    "stake": Range(0, 1000),
    "max_deals": Range(1, 1000),
})
"""The range of every numeric rule option (docs/RULES.md, "Ranges"): one row per option,
checked by every :class:`Rules` (so the command line, the table server, records and the
environments refuse alike). Scores stay far inside what every client can count exactly, and
no game can be made endless by its numbers. A new numeric option needs a row here (a test
checks that every one has one)."""

_PRESET_NAMES = ("pagat", "denexa", "wikipedia", "wikipedia-42")
"""The presets' names (:data:`PRESETS`, which is built from Rules, holds the same)."""


def _range_problems(r: Rules) -> list[str]:
    """Numeric options outside their :data:`RANGES` (NaN and infinities included)."""
    problems: list[str] = []
    for f in dataclasses.fields(r):
        limits = RANGES.get(f.name)
        value = getattr(r, f.name)
        if limits is None or value is None:
            continue
        optional = f.default is None or "None" in str(f.type)
        if f.name == "points":
            for category, points in zip(Category, value, strict=False):
                if not limits.low <= points <= limits.high:
                    problems.append(f"points for {category.name} must be "
                                    f"{limits.describe(False)} (got {_shown(points)})")
        elif not limits.low <= value <= limits.high:
            problems.append(f"{f.name} must be {limits.describe(optional)} "
                            f"(got {_shown(value)})")
    return problems


def _endless_problems(r: Rules) -> list[str]:
    """A rule set under which nobody can ever score and nothing else ends the game."""
    chicago = r.chicago_enabled and (r.chicago_points or r.chicago_breaker_points
                                     or (r.deuce_bonus and r.deuce_chicago_points))
    if (max(r.points, default=0) == 0 and r.last_trick_points == 0 and not chicago
            and r.max_deals is None and not (r.straight_flush_wins or r.royal_wins)):
        return ["these rules never score a point (every category, the last trick and the "
                "Chicago are worth 0), so the game could not end: give something points, "
                "or set max_deals"]
    return []


def _shown(value: object) -> str:
    """A value as a refusal quotes it: a number of thousands of digits is cut short."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:12]}…({len(text)} characters)"


def _value_problems(r: Rules) -> list[str]:
    """Options whose value is out of range on its own."""
    problems: list[str] = []
    if r.preset_name not in _PRESET_NAMES:
        problems.append(
            f"preset_name {r.preset_name!r} names no preset; valid presets: "
            f"{', '.join(_PRESET_NAMES)}"
        )
    if r.min_players > r.max_players:
        problems.append(
            f"players must satisfy 2 <= min_players <= max_players <= 6 "
            f"(got {r.min_players}..{r.max_players})"
        )
    if len(r.points) != len(Category):
        problems.append(f"points needs {len(Category)} entries, one per category")
    elif r.points[Category.HIGH_CARD] != 0:
        problems.append(
            f"points for HIGH_CARD must be 0, not {r.points[Category.HIGH_CARD]}: a hand "
            "without a pair scores nothing (R-HAND-1)"
        )
    if r.suit_order is not None and sorted(r.suit_order) != sorted("cdhs"):
        problems.append(
            f"suit_order {r.suit_order!r} must name each of c, d, h, s once, highest first"
        )
    if r.chicago_min_score is not None and r.chicago_min_score <= 0 and not r.negative_scores:
        problems.append(
            "chicago_min_score must be positive or None (any score) when scores cannot go "
            "below zero"
        )
    return problems


def _default(name: str) -> Any:
    """The default (``pagat``) value of an option that has a plain default."""
    return Rules.__dataclass_fields__[name].default

# Options that only matter with the Chicago call (R-CHI-*): a value other than the default
# on a rule set without the call would do nothing, so it is refused.
_CHICAGO_OPTIONS = (
    "chicago_points",
    "chicago_min_score",
    "chicago_caller_leads",
    "chicago_final_showdown",
    "chicago_breaker_points",
    "chicago_required",
    "chicago_made_any_size",
    "deuce_chicago_points",
    "negative_scores",
)


def _combination_problems(r: Rules) -> list[str]:
    """Options that contradict each other, or that would do nothing with the others.

    Every rule of the combination table in ``docs/RULES.md`` ("Combinations") is here.
    """
    problems: list[str] = []
    if r.lock_six and r.lock_at is None:
        problems.append(
            "lock_six (V-LOCK-6) needs a lock threshold: set lock_at (42 in wikipedia-42) "
            "or apply V-LOCK-6, which sets 42 when there is none"
        )
    if r.royal_wins and not r.royal_separate:
        problems.append(
            "royal_wins needs royal_separate=True: without V-ROYAL a royal flush is a "
            "straight flush (set royal_separate, apply V-ROYAL, or use straight_flush_wins)"
        )
    if r.suit_order is not None and r.tie_mode == "category":
        problems.append(
            f"suit_order={r.suit_order!r} (V-TIE-SUIT) breaks exactly equal hands, but "
            "tie_mode='category' (V-TIE-CATEGORY) never compares hands of one category: "
            "set suit_order=None or tie_mode='staged'"
        )
    if r.one_up and r.max_discard < 1:
        problems.append("one_up (V-ONE-UP) needs max_discard >= 1: one up exchanges one card")
    if r.quads_end_deal and not r.quads_reset:
        problems.append("quads_end_deal is part of V-QUADS-RESET: set quads_reset too")
    if r.quads_reset_one and not r.quads_reset:
        problems.append(
            "quads_reset_one (V-QUADS-ONE) chooses whom a four-of-a-kind reset lowers: set "
            "quads_reset too (V-QUADS-ONE does)"
        )
    if r.instant_win_score != "target" and not (r.straight_flush_wins or r.royal_wins):
        problems.append(
            f"instant_win_score={r.instant_win_score!r} needs an instant win: set "
            "straight_flush_wins (V-SF-WIN) or royal_wins (V-ROYAL)"
        )
    if (
        r.chicago_required == "made"
        and r.chicago_min_score is not None
        and r.chicago_min_score >= r.target
    ):
        problems.append(
            f"chicago_required='made' (V-CHI-REQ3) resets a player who reaches "
            f"target={r.target} to zero, so nobody could ever have the "
            f"chicago_min_score={r.chicago_min_score} needed to declare the Chicago it "
            "requires and the game could not end: set chicago_min_score below the target "
            "(or None), or a higher target"
        )
    if r.chicago_made_any_size and r.chicago_required != "made":
        problems.append(
            "chicago_made_any_size is part of V-CHI-REQ3: set chicago_required='made' too"
        )
    if r.deuce_chicago_points != _default("deuce_chicago_points") and not r.deuce_bonus:
        problems.append("deuce_chicago_points is part of V-DEUCE: set deuce_bonus=True too")
    if not r.chicago_enabled:
        changed = [name for name in _CHICAGO_OPTIONS if getattr(r, name) != _default(name)]
        if changed:
            problems.append(
                f"{', '.join(changed)} only matter{'s' if len(changed) == 1 else ''} with "
                "the Chicago call, which these rules do not have"
                + (" (only a failed Chicago loses points)" if "negative_scores" in changed else "")
                + ": set chicago_enabled=True, or leave "
                + ", ".join(f"{name}={_default(name)!r}" for name in changed)
            )
    return problems


@functools.cache
def _rule_hints() -> Mapping[str, Any]:
    """The declared type of each rule option, read once: ``typing.get_type_hints`` compiles
    and evaluates every annotation of :class:`Rules` each time it is called (about a
    millisecond, more than the rest of a table's state takes to build: every table made
    or loaded by the server reads its rules so; issue 28, thirty-seventh pass)."""
    return typing.get_type_hints(Rules)


def _check_types(rules: Rules) -> None:
    hints = _rule_hints()
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        expected = hints[f.name]
        if not _is_instance(value, expected):
            raise RulesError(
                f"rule option {f.name!r} must be {_type_name(expected)}, not {value!r}"
            )


def _is_instance(value: object, expected: Any) -> bool:
    origin = typing.get_origin(expected)
    if origin is Literal:
        return value in typing.get_args(expected)
    if origin in (types.UnionType, typing.Union):
        return any(_is_instance(value, arg) for arg in typing.get_args(expected))
    if origin is tuple:
        item = typing.get_args(expected)[0]
        if item is str:
            return isinstance(value, tuple) and all(isinstance(v, str) for v in value)
        return isinstance(value, tuple) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        )
    if expected is type(None):
        return value is None
    if expected is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(expected, type):
        return isinstance(value, expected)
    return True


def _type_name(expected: Any) -> str:
    origin = typing.get_origin(expected)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(expected))
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_type_name(a) for a in typing.get_args(expected))
    if expected is type(None):
        return "None"
    if origin is tuple:
        return "a tuple of variation ids" if typing.get_args(expected)[0] is str else (
            "a points table")
    return getattr(expected, "__name__", str(expected))


_PAGAT = Rules()

PRESETS: dict[str, Rules] = {
    "pagat": _PAGAT,
    "denexa": dataclasses.replace(_PAGAT, preset_name="denexa", chicago_enabled=False),
    "wikipedia": dataclasses.replace(
        _PAGAT,
        preset_name="wikipedia",
        exchanges=2,
        royal_separate=False,
        points=_points_tuple({"ROYAL_FLUSH": 9}),  # used only if V-ROYAL separates it
        lock_at=None,
        one_up=True,
        show_on_break=False,
        chicago_min_score=None,
        negative_scores=True,
        chicago_final_showdown=True,
    ),
}
PRESETS["wikipedia-42"] = dataclasses.replace(
    PRESETS["wikipedia"],
    preset_name="wikipedia-42",
    lock_at=42,
    lock_six=True,
    chicago_required="declared",
)
"""The four presets of RULES.md §6: the rule sets of the four source documents."""


@dataclass(frozen=True, slots=True)
class Variation:
    """A variation of RULES.md §5: its id, a short description and the options it sets."""

    id: str
    description: str
    options: tuple[tuple[str, Any], ...]


def _variation(vid: str, description: str, **options: Any) -> tuple[str, Variation]:
    return vid, Variation(vid, description, tuple(options.items()))


VARIATIONS: dict[str, Variation] = dict(
    [
        _variation(
            "V-QUADS-RESET", "Four of a kind may reset every other score to zero",
            quads_reset=True, quads_reset_one=False,
        ),
        _variation(
            "V-QUADS-ONE", "Four of a kind may reset one other player of the holder's choice",
            quads_reset=True, quads_reset_one=True,
        ),
        _variation(
            "V-QUADS-52", "Four of a kind that scores raises its holder to the target",
            quads_to_target=True,
        ),
        _variation(
            "V-TIE-CATEGORY", "Equal categories score nothing: no staged tie-break",
            tie_mode="category", suit_order=None,
        ),
        _variation(
            "V-TIE-SUIT", "Exactly equal hands: the suit of the highest card decides (h>d>s>c)",
            suit_order="hdsc", tie_mode="staged",
        ),
        _variation("V-SF-10", "A straight flush scores 10", points={"STRAIGHT_FLUSH": 10}),
        _variation(
            "V-SF-WIN", "A straight flush that scores wins the game at once",
            straight_flush_wins=True,
        ),
        _variation(
            "V-ROYAL", "Royal flush scored on its own (9 points)",
            royal_separate=True, points={"ROYAL_FLUSH": 9},
        ),
        _variation("V-LOCK-42", "No exchanges from 42 points", lock_at=42),
        _variation("V-LOCK-45", "No exchanges from 45 points", lock_at=45),
        _variation(
            "V-LOCK-6", "A locked player is dealt six cards and discards one",
            lock_six=True, lock_at=42,
        ),
        _variation(
            "V-CHI-REQ3", "In a three-player game a player must have made a Chicago to win",
            chicago_required="made", chicago_enabled=True,
        ),
        _variation(
            "V-CHI-DECLARED", "A player must have declared a Chicago to win",
            chicago_required="declared", chicago_enabled=True, chicago_made_any_size=False,
        ),
        _variation(
            "V-CHI-BREAKER", "Breaking a Chicago scores 8",
            chicago_breaker_points=8, chicago_enabled=True,
        ),
        _variation(
            "V-CHI-13", "Chicago is worth 13, needs 13 points, and the declarer leads",
            chicago_points=13, chicago_min_score=13, chicago_caller_leads=True,
            chicago_enabled=True,
        ),
        _variation(
            "V-NEG", "Negative scores; Chicago at any score; negatives pay double",
            negative_scores=True, chicago_min_score=None, chicago_enabled=True,
        ),
        _variation(
            "V-ONE-UP", "Exchanging one card, ask for it face up", one_up=True, max_discard=1,
        ),
        _variation(
            "V-REDEAL-LOW", "Five cards all below ten may be redrawn once",
            redeal_low="below-ten",
        ),
        _variation(
            "V-DEUCE", "Last trick with a 2 scores 10; a Chicago ended with a 2 scores 30",
            deuce_bonus=True, chicago_enabled=True,
        ),
        _variation(
            "V-WIN-AGAIN", "At the target, win a later last trick to take the game",
            win_again=True,
        ),
        _variation("V-LARGE", "Five or six players", max_players=6),
    ]
)
"""Each variation of RULES.md §5 by id."""


_CONFLICTS: dict[frozenset[str], str] = {
    frozenset({"V-QUADS-RESET", "V-QUADS-ONE"}): (
        "a reset by four of a kind lowers every other player (V-QUADS-RESET) or one player of "
        "the holder's choice (V-QUADS-ONE)"
    ),
    frozenset({"V-TIE-CATEGORY", "V-TIE-SUIT"}): (
        "under V-TIE-CATEGORY equal categories score nothing, so the suits of V-TIE-SUIT "
        "would never be compared"
    ),
    frozenset({"V-LOCK-42", "V-LOCK-45"}): "a rule set has one lock threshold (lock_at)",
    frozenset({"V-CHI-REQ3", "V-CHI-DECLARED"}): (
        "a player needs either a made Chicago (V-CHI-REQ3) or a declared one "
        "(V-CHI-DECLARED) to win (chicago_required)"
    ),
    frozenset({"V-CHI-13", "V-NEG"}): (
        "V-CHI-13 needs 13 points to declare a Chicago, V-NEG allows one at any score "
        "(chicago_min_score)"
    ),
}
"""Pairs of variations that cannot both be in force, and why."""


def _variation_overrides(key: str, rules: Rules) -> dict[str, Any]:
    """The options that put variation ``key`` in force on top of ``rules``.

    A variation sets its own options and turns on what it needs; where the rule set already
    has its own form of the variation (a royal flush of 52, a suit order, a lock
    threshold, a low-hand limit), that form is kept.
    """
    overrides = dict(VARIATIONS[key].options)
    if key == "V-LOCK-6" and rules.lock_at is not None:
        del overrides["lock_at"]  # keep the rule set's own threshold
    elif key == "V-ROYAL" and rules.royal_separate:
        del overrides["points"]  # already separate: keep its points (52 in P, D)
    elif key == "V-TIE-SUIT" and rules.suit_order is not None:
        del overrides["suit_order"]  # keep the agreed order
    elif key == "V-REDEAL-LOW" and rules.redeal_low != "off":
        del overrides["redeal_low"]  # keep the rule set's limit
    elif key == "V-ONE-UP" and rules.max_discard >= 1:
        del overrides["max_discard"]
    return overrides

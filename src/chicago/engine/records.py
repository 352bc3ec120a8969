"""JSON game records: writing a game's record and replaying one (docs/NOTATION.md).

A record holds the rules, the player count, the seed (and any stacked decks, or a
duplicate game's ``deck_seed``), the first dealer and every action in order, plus the
result. :func:`replay_record` plays it again and reaches the identical final state; a
tampered record raises :class:`RecordError` naming the action number. :meth:`Game.record`
and :meth:`Game.replay` are these two; the text notation is :mod:`chicago.record`.

This module reads a game through :class:`RecordedGame` (what a record needs of it) and
builds one through the class it is given, so it does not import the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NotRequired, Protocol, TypedDict, TypeVar

from chicago.cards import Card
from chicago.engine.actions import Action
from chicago.engine.errors import IllegalAction, RecordError
from chicago.engine.sources import CardSource, DuplicateDecks, deal_deck
from chicago.rules import Rules, RulesError

__all__ = [
    "FORMAT", "VERSION", "GameRecord", "RecordResult", "RecordedGame", "game_record",
    "replay_record", "result_of", "start_record",
]


class RecordResult(TypedDict):
    """The result part of a record (what a replay must reach again)."""

    over: bool
    deals: int
    scores: list[int]
    winners: list[int]
    settlement: list[float] | None


class GameRecord(TypedDict):
    """A game record as :func:`game_record` writes it (docs/NOTATION.md); a record read
    back is checked field by field by :func:`start_record`, whatever its type."""

    format: str
    version: int
    rules: dict[str, Any]
    """The rule options (:meth:`~chicago.rules.Rules.to_dict`)."""
    players: int
    seed: int
    dealer: int
    actions: list[list[int | str]]
    """Every action in order: ``[seat, action text]``."""
    result: RecordResult
    decks: NotRequired[list[list[str]]]
    """The stacked decks the game was dealt from, if any."""
    deck_seed: NotRequired[int]
    """A duplicate game's deck seed (:class:`~chicago.engine.sources.DuplicateDecks`)."""


class RecordedGame(Protocol):
    """What a record reads of a game (the public API of :class:`~chicago.Game`)."""

    rules: Rules
    players: int
    seed: int
    first_dealer: int
    actions: list[tuple[int, Action]]
    deal_number: int
    scores: list[int]
    winners: list[int]
    to_act: int | None

    @property
    def is_over(self) -> bool: ...

    @property
    def source(self) -> CardSource: ...

    @property
    def decks(self) -> tuple[tuple[Card, ...], ...]: ...

    def settlement(self) -> list[float]: ...

    def apply(self, action: Action | str) -> None: ...


G = TypeVar("G", bound=RecordedGame)


FORMAT = "chicago-record"
VERSION = 1


def game_record(game: RecordedGame) -> GameRecord:
    """The JSON-able record of a game so far (a duplicate game's also names its
    ``deck_seed``); RecordError for a game whose cards a record cannot say (chosen ones)."""
    record: GameRecord = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "players": game.players,
        "seed": game.seed,
        "dealer": game.first_dealer,
        "actions": [[seat, str(action)] for seat, action in game.actions],
        "result": result_of(game),
    }
    fields = game.source.record_fields()
    if fields is None:
        raise RecordError(
            f"a game dealt by {type(game.source).__name__} has no record: a record replays "
            "seeded shuffles, stacked decks and duplicate decks only"
        )
    if game.decks:
        record["decks"] = [[str(c) for c in deck] for deck in game.decks]
    if "deck_seed" in fields:  # a duplicate game's
        record["deck_seed"] = fields["deck_seed"]
    return record


def result_of(game: RecordedGame) -> RecordResult:
    """The result part of a record: over, deals, scores, winners, settlement."""
    return {
        "over": game.is_over,
        "deals": game.deal_number,
        "scores": list(game.scores),
        "winners": list(game.winners),
        "settlement": game.settlement() if game.is_over else None,
    }


def start_record(record: Mapping[str, object], make: Callable[..., G]
                 ) -> tuple[G, list[tuple[object, object]]]:
    """The game a record starts from, before its first action (its header: rules, players,
    seed, stacked decks, first dealer), and its list of actions, each a ``[seat, action]``
    pair. A record with ``deck_seed`` is a duplicate game (:class:`DuplicateDecks`: decks
    from that seed, per-seat stock queues); its ``decks``, if given, must be those decks.
    :class:`RecordError` names a bad header or list.

    ``make`` builds the game (``Game``): ``make(rules, players=…, seed=…, decks=…,
    dealer=…)``, or ``make(rules, players=…, seed=…, source=…)`` for a duplicate game.
    """
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"not a chicago record (format {record.get('format')!r})")
    deck_seed = record.get("deck_seed")
    try:
        rules = Rules.from_dict(record.get("rules", {}))
        if deck_seed is None:
            game = make(
                rules,
                players=int(record["players"]),
                seed=int(record["seed"]),
                decks=record.get("decks"),
                dealer=record.get("dealer"),
            )
        else:
            if isinstance(deck_seed, bool) or not isinstance(deck_seed, int):
                raise TypeError(f"deck_seed must be a whole number, not {deck_seed!r}")
            game = make(rules, players=int(record["players"]), seed=int(record["seed"]),
                        source=DuplicateDecks(deck_seed))
    except KeyError as exc:
        raise RecordError(f"bad record header: no {exc.args[0]!r} field (is this a chicago "
                          "game record?)") from None
    except (TypeError, ValueError, RulesError) as exc:
        raise RecordError(f"bad record header: {exc}") from None
    if deck_seed is not None:
        dealer = record.get("dealer")
        if dealer is not None and dealer != game.first_dealer:
            raise RecordError(f"bad record header: dealer {dealer!r}, but deck seed {deck_seed} "
                              f"and seed {game.seed} give dealer {game.first_dealer}")
        for index, deck in enumerate(record.get("decks") or []):
            if [str(c) for c in deal_deck(deck_seed, index)] != [str(c) for c in deck]:
                raise RecordError(f"bad record header: deck {index + 1} is not the deck of "
                                  f"deck seed {deck_seed}")
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("the record's actions must be a list")
    pairs: list[tuple[object, object]] = []
    for number, entry in enumerate(actions, start=1):
        if not (isinstance(entry, list | tuple) and len(entry) == 2):
            raise RecordError(f"action {number}: expected [seat, action], got {entry!r}", number)
        pairs.append((entry[0], entry[1]))
    return game, pairs


def replay_record(record: Mapping[str, object], make: Callable[..., G]) -> G:
    """Replay a record action by action and check its result; raise RecordError if it differs.

    ``make`` builds the game (see :func:`start_record`).
    """
    game, actions = start_record(record, make)
    for number, (seat, text) in enumerate(actions, start=1):
        if game.to_act is None:
            raise RecordError(f"action {number} ({text!r}): the game was already over", number)
        if seat != game.to_act:
            raise RecordError(
                f"action {number} ({text!r}): seat {seat} acted but seat {game.to_act} was to act",
                number,
            )
        if not isinstance(text, str | Action):
            raise RecordError(f"action {number} ({text!r}) by seat {seat}: an action is a text "
                              f"like 'play Ah', not {type(text).__name__}", number)
        try:
            game.apply(text)
        except IllegalAction as exc:
            raise RecordError(f"action {number} ({text!r}) by seat {seat}: {exc}", number) from None
    expected = record.get("result")
    if isinstance(expected, dict):
        _check_result(expected, result_of(game), len(actions))
    return game


def _check_result(expected: Mapping[str, object], result: RecordResult, count: int) -> None:
    """The recorded result against the replayed one; RecordError with the action number.

    A record whose result says the game is over while the replay is not is truncated: the
    error names the first missing action (``count + 1``). Any other field that differs is
    found after the last action (``count``) and named.
    """
    actual: Mapping[str, object] = result
    if expected.get("over") is True and actual["over"] is False:
        raise RecordError(
            f"the record is truncated: its result says the game is over, but after its "
            f"{count} actions the game goes on; action {count + 1} is missing",
            count + 1,
        )
    for key in ("over", "deals", "scores", "winners", "settlement"):
        if key in expected and expected[key] != actual[key]:
            raise RecordError(
                f"the record's result differs after replay of its {count} actions: "
                f"result field {key!r} is {expected[key]!r} in the record, "
                f"{actual[key]!r} replayed",
                count if count else None,
            )



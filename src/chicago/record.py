"""Game records: JSON records, replay, and the text notation (chicago's PGN).

A record holds the rules, the player count, the seed (and any stacked decks), the first
dealer and every action in order, plus the result. :func:`replay_record` plays it again and
reaches the identical final state; a tampered record raises :class:`RecordError` naming the
action number.

The text notation (``docs/NOTATION.md``) is a header of tags and one action per line::

    [Rules "pagat"]
    [Variation "V-ONE-UP"]
    [Set "lock_at=45"]
    [Players "4"]
    [Seed "7"]
    [Dealer "2"]
    [Result "53 45 53 47"]

    ; deal 1, dealer 2
    3: discard 2h 7c
    0: keep

:func:`read_text` collects every problem it finds instead of stopping at the first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chicago.engine.actions import Action, NotationError
from chicago.engine.errors import RecordError
from chicago.engine.game import Game
from chicago.engine.records import FORMAT, VERSION, game_record, result_of, start_record
from chicago.rules import Rules, RulesError, parse_option

__all__ = [
    "FORMAT",
    "ParsedText",
    "RecordError",
    "game_record",
    "read_text",
    "replay_record",
    "start_game",
    "write_text",
]

def start_game(record: dict[str, Any]) -> Game:
    """The game a record starts from, before its first action (a duplicate game's too:
    :func:`chicago.engine.records.start_record`); RecordError names a bad header."""
    game, _ = start_record(record, Game)
    return game


def replay_record(record: Mapping[str, object]) -> Game:
    """The game of a JSON record (:meth:`Game.replay`); a bad record raises RecordError."""
    return Game.replay(record)


# ---------------------------------------------------------------------- text notation
@dataclass
class ParsedText:
    """What :func:`read_text` found: the record, the tags, and every problem with its line."""

    record: dict[str, Any]
    tags: dict[str, str] = field(default_factory=dict)
    errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the text had no problems."""
        return not self.errors


def write_text(record: dict[str, Any], tags: dict[str, str] | None = None) -> str:
    """The record in the text notation; ``tags`` adds header tags such as ``Event``."""
    game = replay_record({**record, "result": None})
    rules = Rules.from_dict(record.get("rules", {}))
    lines: list[str] = []
    for key, value in (tags or {}).items():
        lines.append(f"[{key} {_quote(value)}]")
    lines.append(f"[Rules {_quote(rules.preset_name)}]")
    for vid in rules.variations:
        lines.append(f"[Variation {_quote(vid)}]")
    built = Rules.build(rules.preset_name, variations=rules.variations)
    for option, value in sorted(rules.differences(built).items()):
        lines.append(f"[Set {_quote(option + '=' + json.dumps(value))}]")
    lines.append(f"[Players {_quote(str(record['players']))}]")
    lines.append(f"[Seed {_quote(str(record['seed']))}]")
    lines.append(f"[Dealer {_quote(str(record.get('dealer', game.first_dealer)))}]")
    if record.get("deck_seed") is not None:
        lines.append(f"[DeckSeed {_quote(str(record['deck_seed']))}]")
    else:
        for index, deck in enumerate(record.get("decks") or [], start=1):
            lines.append(f"[Deck{index} {_quote(' '.join(deck))}]")
    if game.is_over:
        lines.append(f"[Result {_quote(' '.join(map(str, game.scores)))}]")
        lines.append(f"[Winners {_quote(' '.join(map(str, game.winners)))}]")
    lines.append("")
    # Walk the game again to place deal markers.
    walker = start_game({**record, "result": None})
    deal_seen = 0
    for seat, text in record["actions"]:
        if walker.deal_number != deal_seen:
            deal_seen = walker.deal_number
            lines.append(
                f"; deal {deal_seen}, dealer {walker.dealer}, scores "
                + " ".join(map(str, walker.scores))
            )
        lines.append(f"{seat}: {text}")
        walker.apply(text)
    if walker.is_over:
        lines.append("; game over, winners " + " ".join(map(str, walker.winners)))
    return "\n".join(lines) + "\n"


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _unquote(value: str) -> str:
    out = []
    escaped = False
    for ch in value:
        if escaped:
            out.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        else:
            out.append(ch)
    return "".join(out)


def read_text(text: str) -> ParsedText:
    """Read the text notation; every problem is collected in ``errors`` with its line number.

    The record is checked by replaying it; an illegal action is reported at its line.
    """
    tags: dict[str, str] = {}
    sets: list[tuple[int, str]] = []
    variations: list[tuple[int, str]] = []
    decks: dict[int, tuple[int, str]] = {}  # deck number -> (line, cards)
    actions: list[tuple[int, int, str]] = []
    errors: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw)
        if not line:
            continue
        if line.startswith("["):
            if not (line.endswith("]") and " " in line and line[-2] == '"'):
                errors.append((number, f"bad tag line {raw.strip()!r}"))
                continue
            key, _, value = line[1:-1].partition(" ")
            value = value.strip()
            if not (value.startswith('"') and value.endswith('"') and len(value) >= 2):
                errors.append((number, f"tag {key} needs a quoted value"))
                continue
            value = _unquote(value[1:-1])
            if key == "Set":
                sets.append((number, value))
            elif key == "Variation":
                variations.append((number, value))
            elif key.startswith("Deck") and key[4:].isdigit():
                decks[int(key[4:])] = (number, value)
            else:
                tags[key] = value
            continue
        seat_text, colon, action_text = line.partition(":")
        if not colon or not seat_text.strip().isdigit():
            errors.append((number, f"expected 'SEAT: ACTION', got {raw.strip()!r}"))
            continue
        try:
            Action.parse(action_text)
        except NotationError as exc:
            errors.append((number, str(exc)))
            continue
        actions.append((number, int(seat_text), action_text.strip()))

    record: dict[str, Any] = {"format": FORMAT, "version": VERSION, "result": None}
    try:
        rules = _rules_of_tags(tags.get("Rules", "pagat"), variations, sets, errors)
        record["rules"] = rules.to_dict()
    except RulesError as exc:
        errors.append((0, str(exc)))
        return ParsedText(record, tags, errors)
    for key in ("Players", "Seed"):
        if key not in tags or not tags[key].lstrip("-").isdigit():
            errors.append((0, f'the header needs a [{key} "<number>"] tag'))
    if errors and any(n == 0 for n, _ in errors):
        return ParsedText(record, tags, errors)
    record["players"] = int(tags["Players"])
    record["seed"] = int(tags["Seed"])
    if tags.get("Dealer", "").isdigit():
        record["dealer"] = int(tags["Dealer"])
    if decks:
        record["decks"] = [decks[k][1].split() for k in sorted(decks)]
    if "DeckSeed" in tags:
        if not tags["DeckSeed"].lstrip("-").isdigit():
            return ParsedText(record, tags, [(0, 'the [DeckSeed "<number>"] tag needs a number')])
        record["deck_seed"] = int(tags["DeckSeed"])
    record["actions"] = [[seat, act] for _, seat, act in actions]
    if errors:
        return ParsedText(record, tags, errors)
    try:
        game = replay_record(record)
    except RecordError as exc:
        failed = exc.action_number
        where = actions[failed - 1][0] if failed and failed <= len(actions) else 0
        errors.append((where, str(exc)))
        return ParsedText(record, tags, errors)
    record["result"] = result_of(game)
    if "Result" in tags:
        expected = tags["Result"].split()
        if not game.is_over:
            count = len(actions)
            errors.append(
                (
                    actions[-1][0] if actions else 0,
                    f"the record is truncated: its Result tag says the game is over, but "
                    f"after its {count} actions the game goes on; action {count + 1} is "
                    "missing",
                )
            )
        elif expected != [str(s) for s in game.scores]:
            errors.append(
                (
                    0,
                    f"Result tag {tags['Result']!r} differs from the replayed scores "
                    + " ".join(map(str, game.scores)),
                )
            )
    return ParsedText(record, tags, errors)


def _rules_of_tags(
    preset: str,
    variations: list[tuple[int, str]],
    sets: list[tuple[int, str]],
    errors: list[tuple[int, str]],
) -> Rules:
    """The rules of the ``Rules``, ``Variation`` and ``Set`` tags, built as every door
    builds them (:meth:`Rules.build`: the preset, the variations, then every ``Set`` at once,
    so options may depend on each other whatever the order of the tags).

    A problem is reported at the line of the tag that causes it: the variation, or the
    ``Set`` without which the others apply (else the first of them). An unknown preset
    raises :class:`RulesError` (reported on the header).
    """
    base = Rules.preset(preset)
    ids: list[str] = []
    for number, vid in variations:
        try:
            base.with_variations(*ids, vid)
        except RulesError as exc:
            errors.append((number, str(exc)))
            continue
        ids.append(vid)
    options: dict[str, tuple[int, Any]] = {}
    for number, assignment in sets:
        try:
            option, value = parse_option(assignment)
        except RulesError:
            errors.append((number, f"Set needs option=value, got {assignment!r}"))
            continue
        options[option] = (number, value)
    try:
        return Rules.build(
            preset, variations=ids, overrides={k: v for k, (_, v) in options.items()}
        )
    except RulesError as exc:
        lines = [options[name][0] for name in exc.options if name in options]
        errors.append((lines[0] if len(lines) == 1 else min(lines, default=0), str(exc)))
    return Rules.build(preset, variations=ids)


def _strip_comment(raw: str) -> str:
    """The line without its ``;`` comment; a ``;`` inside a tag's quoted value is kept."""
    in_quote = escaped = False
    for index, ch in enumerate(raw):
        if escaped:
            escaped = False
        elif ch == "\\" and in_quote:
            escaped = True
        elif ch == '"':
            in_quote = not in_quote
        elif ch == ";" and not in_quote:
            return raw[:index].strip()
    return raw.strip()

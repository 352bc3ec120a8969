"""Golden records: stored full games whose replay must keep giving the same result.

The files under ``tests/golden/`` are written by ``scripts/make_golden.py``; after a
deliberate rule change, run it again and review the diff. One game per preset (R-END-1 for
every preset) plus games with variations, and one in the text notation.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from chicago import Game, Rules
from chicago.record import RecordError, read_text, write_text

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _result(game: Game) -> dict[str, Any]:
    return {
        "scores": game.scores,
        "winners": game.winners,
        "settlement": game.settlement(),
        "deals": game.deal_number,
        "actions": len(game.actions),
        "events": len(game.events),
        "deal_points": [list(d.points) for d in game.deal_history],
    }


def test_golden_files_exist() -> None:
    """One golden game per preset at least, and one in the text notation."""
    presets = {_load(p)["record"]["rules"]["preset_name"] for p in FILES}
    assert presets == {"pagat", "denexa", "wikipedia", "wikipedia-42"}
    assert list(GOLDEN.glob("*.txt"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_replay(path: Path) -> None:
    """R-END-1 / R-END-2: replaying a golden record gives the stored result exactly."""
    data = _load(path)
    game = Game.replay(data["record"])
    assert game.is_over
    assert _result(game) == data["expected"]
    assert_same_record(game.record(), data["record"])


def assert_same_record(replayed: dict[str, Any], stored: dict[str, Any]) -> None:
    """The replayed record is the stored one. Rule options added after a file was written
    are absent from its ``rules`` and take their defaults, so the rules compare as Rules."""
    assert Rules.from_dict(replayed["rules"]) == Rules.from_dict(stored["rules"])
    assert {k: v for k, v in replayed["rules"].items() if k in stored["rules"]} == stored["rules"]
    assert {k: v for k, v in replayed.items() if k != "rules"} == {
        k: v for k, v in stored.items() if k != "rules"
    }


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.txt")), ids=lambda p: p.stem)
def test_golden_text(path: Path) -> None:
    """The text notation: read, replay, same result; writing it again gives the same text."""
    text = path.read_text()
    parsed = read_text(text)
    assert parsed.ok, parsed.errors
    game = Game.replay(parsed.record)
    assert [str(s) for s in game.scores] == parsed.tags["Result"].split()
    assert [str(s) for s in game.winners] == parsed.tags["Winners"].split()
    assert len(game.events) == int(parsed.tags["Events"])
    same = _load(GOLDEN / f"{path.stem}.json")
    assert game.scores == same["expected"]["scores"]
    tags = {k: parsed.tags[k] for k in ("Event", "Events")}
    assert write_text(game.record(), tags) == text


def test_tampered_record_names_the_action() -> None:
    """A tampered record raises RecordError with the number of the first bad action."""
    data = _load(GOLDEN / "pagat.json")["record"]
    bad = copy.deepcopy(data)
    bad["actions"][10][1] = "play As"
    with pytest.raises(RecordError) as info:
        Game.replay(bad)
    assert info.value.action_number == 11 and "action 11" in str(info.value)
    bad = copy.deepcopy(data)
    bad["actions"][5][0] = (bad["actions"][5][0] + 1) % 4
    with pytest.raises(RecordError, match="action 6"):
        Game.replay(bad)
    bad = copy.deepcopy(data)
    bad["result"]["scores"] = [0, 0, 0, 0]
    with pytest.raises(RecordError, match="differs"):
        Game.replay(bad)
    bad = copy.deepcopy(data)
    bad["actions"].append([0, "keep"])
    with pytest.raises(RecordError, match="already over"):
        Game.replay(bad)


def test_truncated_or_changed_result_names_the_action_and_field() -> None:
    """A truncated record names its first missing action; a changed result names the field
    that differs and the last action, after which the difference is found."""
    data = _load(GOLDEN / "pagat.json")["record"]
    count = len(data["actions"])
    for keep in (count - 1, count - 40):
        bad = copy.deepcopy(data)
        del bad["actions"][keep:]
        with pytest.raises(RecordError, match="truncated") as info:
            Game.replay(bad)
        assert info.value.action_number == keep + 1
        assert f"action {keep + 1} is missing" in str(info.value)
    replayed = Game.replay(data)
    for key, value in [("scores", [0, 0, 0, 0]), ("winners", [(replayed.winners[0] + 1) % 4]),
                       ("deals", 99), ("settlement", [0.0, 0.0, 0.0, 0.0])]:
        bad = copy.deepcopy(data)
        bad["result"][key] = value
        with pytest.raises(RecordError, match=f"result field '{key}'") as info:
            Game.replay(bad)
        assert info.value.action_number == count
    bad = copy.deepcopy(data)
    bad["result"]["over"] = False
    with pytest.raises(RecordError, match="result field 'over'"):
        Game.replay(bad)
    # the text notation: a truncated text is reported at its last action's line
    text = (GOLDEN / "pagat.txt").read_text().splitlines()
    last = max(i for i, line in enumerate(text) if line[:1].isdigit())
    parsed = read_text("\n".join(text[:last] + text[last + 1:]) + "\n")
    previous = max(i for i, line in enumerate(text[:last]) if line[:1].isdigit())
    assert [(line, "truncated" in message) for line, message in parsed.errors] == [
        (previous + 1, True)]
    assert f"action {count} is missing" in parsed.errors[0][1]


def test_text_errors_are_collected_with_lines() -> None:
    """read_text reports every problem with its line number."""
    text = (GOLDEN / "pagat.txt").read_text().splitlines()
    first_action = next(i for i, line in enumerate(text) if line[:1].isdigit())
    text[first_action] = "9: flap"
    text[first_action + 1] = text[first_action + 1].split(":")[0] + ": fold"
    parsed = read_text("\n".join(text) + "\n")
    assert not parsed.ok
    lines = [line for line, _ in parsed.errors]
    assert lines == [first_action + 1, first_action + 2]


def test_stacked_deck_record_round_trips() -> None:
    """A record with stacked decks replays, and survives the text notation (Deck tags)."""
    import random

    from engine_helpers import game, play_random

    g = game("pagat", 3, dealer=1, hands=["9c 9d Kh 7s 2c", "Ac Ad 5h 5s 4c"], seed=9)
    play_random(g, random.Random(9))
    record = g.record()
    assert record["decks"] and len(record["decks"][0]) == 52
    again = Game.replay(record)
    assert again.scores == g.scores and len(again.events) == len(g.events)
    text = write_text(record)
    assert '[Deck1 "' in text
    parsed = read_text(text)
    assert parsed.ok, parsed.errors
    assert Game.replay(parsed.record).scores == g.scores


def test_text_tags_may_hold_semicolons_and_quotes() -> None:
    """Text notation: a ';' inside a quoted tag value is not a comment; comments still work."""
    record = _load(GOLDEN / "denexa.json")["record"]
    tags = {"Event": "Club night; final", "Site": 'the "Blue" room \\ 2; upstairs'}
    text = write_text(record, tags)
    parsed = read_text(text)
    assert parsed.ok, parsed.errors
    assert parsed.tags["Event"] == tags["Event"] and parsed.tags["Site"] == tags["Site"]
    commented = text.replace('[Players "3"]', '[Players "3"] ; three of us', 1)
    assert read_text(commented).ok


def test_text_set_tags_apply_together() -> None:
    """The text notation's [Set] tags are one rule set: options that need each other
    (instant_win_score needs straight_flush_wins, V-SF-WIN) are read in any order, and a
    refused combination is reported at the line of the tag that causes it."""
    from chicago import Rules

    rules = Rules.preset("pagat", straight_flush_wins=True, instant_win_score="keep",
                         max_deals=1)
    game = Game(rules, 2, seed=5)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    text = write_text(game.record())
    assert text.index("instant_win_score") < text.index("straight_flush_wins")  # sorted
    parsed = read_text(text)
    assert parsed.ok, parsed.errors
    assert Rules.from_dict(parsed.record["rules"]) == rules
    lines = text.splitlines()
    bad = [line for line in lines if "straight_flush_wins" not in line]
    parsed = read_text("\n".join(bad) + "\n")
    where = next(i for i, line in enumerate(bad, start=1) if "instant_win_score" in line)
    assert [line for line, _ in parsed.errors] == [where]
    assert "instant_win_score" in parsed.errors[0][1]

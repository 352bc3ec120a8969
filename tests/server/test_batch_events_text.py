"""A batch frame's events written as text (issue 28, thirty-second pass).

Seeded tables of every preset (a person at seat 0, bots at the others, 2-4 seats and a few
variations) are played through the table core as :mod:`chicago.server.fanout` writes a
batched connection's frames: each update gathered per audience (every seat and a
spectator), the batch written when the bots have answered the person. Each batch is written
three ways: with the updates' events as the accelerator's text
(:func:`chicago.engine.eventtext.events_text`, put in by
:func:`~chicago.server.protocol.dumps_with_states`, which the accelerator writes too), with
them as the Python code's text in a frame the Python code writes, and as before this pass
(the events' JSON forms in the frame, encoded with it); the three
are the same text, byte for byte, and hold no card their audience has not seen (another
seat's dealt or exchanged cards, R-EX-2's private exchanges; the cards shown, played or
turned face up are seen by all).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from chicago.engine import eventtext
from chicago.engine.game import Game
from chicago.rules import PRESETS, Rules
from chicago.server import protocol
from chicago.server.core import decide, frames
from chicago.server.core.decide import TableSpec
from chicago.server.core.frames import UpdateFrame
from chicago.server.core.rows import LogEntry
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.state import TableState
from chicago.server.views import PublicViews
from engine_helpers import card_strings, seen_cards

AT = 1_700_000_000.0

WAYS = ("c", "python", "objects")
"""The events as the accelerator's text in a frame the accelerator writes; as the Python
code's text in a frame the Python code writes; as JSON objects in a frame the Python code
writes (as before this pass)."""


@dataclass
class Gathered:
    """One audience's updates of a batch, gathered one way, and the texts put in."""

    updates: list[UpdateFrame] = field(default_factory=list)
    states: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)


def gather(state: TableState, entry: LogEntry, audience: int | None, views: PublicViews,
           way: str, into: Gathered) -> None:
    """``fanout._gather`` for one audience (the events as ``way`` says)."""
    trick = frames.ends_trick(state, entry)
    seat_state = None
    if trick:
        current = state.current
        into.states.append(protocol.seat_state_text(current, audience,
                                                    views.public_text(current)))
        seat_state = protocol.STATE_MARK
    with pytest.MonkeyPatch.context() as patch:
        if way == "python":
            patch.setattr(eventtext, "_events_json_text", None)
        update, *_ = frames.entry_frames(
            state, entry, audience, with_state=trick, clock=None, at=AT, seat_state=seat_state,
            events_texts=None if way == "objects" else into.events)
    assert update["type"] == "update"
    into.updates.append(update)


def flush(state: TableState, audience: int | None, views: PublicViews, way: str,
          gathered: Gathered) -> str:
    """``fanout.flush`` for one audience: the batch's text (written as ``way`` says)."""
    updates = gathered.updates
    if updates[-1]["state"] is None:
        current = state.current
        gathered.states.append(protocol.seat_state_text(current, audience,
                                                        views.public_text(current)))
        updates[-1] = frames.with_state(updates[-1], state, audience, clock=None, at=AT,
                                        seat_state=protocol.STATE_MARK)
    with pytest.MonkeyPatch.context() as patch:
        if way != "c":
            patch.setattr(protocol, "_frame_json_text", None)
        return protocol.dumps_with_states(frames.batch(updates), gathered.states,
                                          gathered.events)


def seen_by(game: Game, audience: int | None) -> set[str]:
    """The cards ``audience`` has seen: in the events it may see so far."""
    return seen_cards([e.to_json() for e in game.events if e.visible_to(audience)], audience)


def leaked(text: str, game: Game, audience: int | None) -> set[str]:
    """The cards in a frame's text that ``audience`` has not seen."""
    return card_strings(json.loads(text)) - seen_by(game, audience)


def play(rules: Rules, players: int, seed: int, batches: int) -> list[tuple[int | None, str]]:
    """Play a table (the person's moves random, the bots' too) for ``batches`` batches;
    check every batch of every audience; return them (audience, text)."""
    seats = ["open", *["bot:basic"] * (players - 1)]
    state, _ = decide.new_table(TableSpec(rules, seats, TableOptions()), table_id=f"t{seed}",
                                secret=f"secret{seed:010d}", seed=seed, at=AT)
    _, change = decide.join(state, 0, "p", None, token_hash=hash_token("token"), seed=1, at=AT)
    for entry in change.entries:
        state.apply(entry)
    rng = random.Random(seed)
    audiences: list[int | None] = [*range(players), None]
    views = {way: PublicViews() for way in WAYS}
    sent: list[tuple[int | None, str]] = []
    while len(sent) < batches * len(audiences) and not state.current.is_over:
        if state.pause is not None:
            resumed = decide.continue_deal(state, 0, at=AT) or decide.pause_over(state, at=AT)
            for entry in resumed.entries if resumed is not None else ():
                state.apply(entry)
            continue
        gathered = {(way, a): Gathered() for way in WAYS for a in audiences}
        while True:  # the person's move (or a bot's after a pause), then the bots' replies
            game = state.current
            seat = game.to_act
            assert seat is not None
            move = decide.act(state, seat, str(rng.choice(game.legal_actions())),
                              "player" if seat == 0 else "bot", at=AT)
            for index, entry in enumerate(move.change.entries):
                state.apply(entry, move.games[index])
            for entry in move.change.entries:
                if entry.kind == "act":
                    for (way, audience), into in gathered.items():
                        gather(state, entry, audience, views[way], way, into)
            if move.game_over or state.pause is not None or state.current.to_act == 0:
                break
        for audience in audiences:
            texts = {way: flush(state, audience, views[way], way, gathered[way, audience])
                     for way in WAYS}
            assert texts["c"] == texts["python"] == texts["objects"], audience
            assert not leaked(texts["c"], state.current, audience), audience
            sent.append((audience, texts["c"]))
    return sent


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_batches_events_as_text_are_the_frames_of_before(preset: str) -> None:
    """Every preset, 2-4 seats, with and without R-EX-4's shown hands and V-ONE-UP: every
    batch of every audience is the same text with the events written in C, in Python, and
    as JSON objects encoded with the frame (the frames of before this pass); none holds a
    card its audience has not seen; the private events reach their seat only."""
    batches = 0
    for number, players in enumerate((4, 3, 2)):
        rules = Rules.preset(preset)
        if number == 1:
            rules = rules.replace(show_on_break=True)
        if number == 2:
            rules = rules.with_variations("V-ONE-UP")
        rules = rules.replace(max_deals=2, target=25)
        sent = play(rules, players, seed=number * 7 + len(preset), batches=40)
        batches += len(sent)
        privates = [(a, e) for a, text in sent
                    for u in json.loads(text)["updates"] for e in u["events"] if "to" in e]
        assert all(event["to"] == audience for audience, event in privates)
    assert batches > 100


def test_the_check_finds_a_card_not_seen() -> None:
    """The secrecy check has teeth: another seat's dealt cards in a seat's frame are found."""
    state, _ = decide.new_table(
        TableSpec(Rules.preset("pagat"), ["open", "bot:basic", "bot:basic"], TableOptions()),
        table_id="t", secret="secret0000000001", seed=5, at=AT)
    game = state.current
    other: dict[str, Any] = {"updates": [{"events": json.loads(
        eventtext.events_text(game.events, 1))}]}
    assert leaked(protocol.dumps(other), game, 0)
    assert not leaked(protocol.dumps(other), game, 1)


def test_a_frame_with_events_and_states_as_text_is_the_frame_encoded() -> None:
    """``dumps_with_states`` puts the events' and the states' texts in their marks' places,
    in order, whatever the order of the marks; a frame whose strings or other values hold
    a mark's text is encoded whole (the long way), to the same text."""
    state_mark, events_mark = protocol.STATE_MARK, protocol.EVENTS_MARK
    states = [{"phase": "play", "hand": ["Ah"]}, {"phase": "over"}]
    events = [[{"type": "play", "seat": 1, "card": "Ah", "trick": 1}], [],
              [{"type": "trick", "trick": 1, "winner": 1, "card": "Ah"}]]
    state_texts = [protocol.dumps(s) for s in states]
    event_texts = [json.dumps(e, separators=(",", ":")) for e in events]
    for words in ("plain", "\x00events\x00", protocol.dumps(state_mark),
                  json.dumps(events_mark), '{"\\u0000'):
        marked: dict[str, Any] = {"type": "batch", "seq": 3, "updates": [
            {"type": "update", "seq": 1, "action": words, "events": events_mark,
             "state": state_mark},
            {"type": "update", "state": None, "events": events_mark},
            {"type": "update", "seq": 3, "state": state_mark, "events": events_mark},
        ]}
        whole: dict[str, Any] = {**marked, "updates": [
            {**marked["updates"][0], "events": events[0], "state": states[0]},
            {**marked["updates"][1], "events": events[1]},
            {**marked["updates"][2], "events": events[2], "state": states[1]}]}
        assert protocol.dumps_with_states(marked, state_texts, event_texts) == (
            protocol.dumps(whole))
        other = {**marked, "extra": [{"\x00events\x00": 0}]}  # not the mark: its text
        assert protocol.dumps_with_states(other, state_texts, event_texts) == (
            protocol.dumps({**whole, "extra": [{"\x00events\x00": 0}]}))


@pytest.mark.skipif(protocol._frame_json_text is None, reason="the engine accelerator is not "
                    "built (or CHICAGO_PURE_PYTHON is set)")
def test_a_frame_of_another_shape_is_written_by_python() -> None:
    """The accelerator's frame writer writes floats, tuples, nested objects and the marks
    (by identity) as the stdlib's encoder does, and hands what it does not expect (a text
    to escape, a key that is no text, a float that is not finite, a dict subclass, an int
    past 64 bits, more or fewer marks than texts) to the Python code, which writes the same
    text."""
    assert protocol._frame_json_text is not None
    write = protocol._frame_json_text
    state_mark, events_mark = protocol.STATE_MARK, protocol.EVENTS_MARK
    state, events = '{"phase":"play"}', '[{"type":"pass","seat":0,"round":1}]'
    plain: dict[str, Any] = {"a": [1, 2.5, -0.1, 1e22, (True, False, None)], "b": {},
                             "c": [], "d": {"e": {"f": "g"}}, "s": state_mark,
                             "v": events_mark}
    whole = {**plain, "s": json.loads(state), "v": json.loads(events)}
    assert write(plain, state_mark, events_mark, [state], [events]) == protocol.dumps(whole)
    assert protocol.dumps_with_states(plain, [state], [events]) == protocol.dumps(whole)

    class Sub(dict[str, Any]):
        pass

    for odd in ({"t": 'a "quote"'}, {"t": "\u00e9"}, {"t": "line\n"}, {1: 2},
                {"t": float("nan")}, {"t": Sub(a=1)}, {"t": 2**70}):
        frame = {**plain, **odd}
        made = write(frame, state_mark, events_mark, [state], [events])
        assert made is NotImplemented, odd
        assert protocol.dumps_with_states(frame, [state], [events]) == (
            protocol.dumps({**whole, **odd}))
    for states, event_texts in (([], [events]), ([state, state], [events]), ([state], [])):
        assert write(plain, state_mark, events_mark, states, event_texts) is NotImplemented
    assert write(plain, None, events_mark, [state], [events]) is NotImplemented


HOSTILE = ['a"b', "\\", "\x00", '{"\\u0000', '{"\u0000state\u0000":0}', "é", "\ud800", "😀",
           "\u2028", "\x7f", 1e308, -0.0, 2**63, 2**64, -(2**63) - 1, True, None, 1.5]
"""Values a client can put in a frame (names, chat) or the frame's numbers may take: texts
to escape, a mark's own text, a lone surrogate, ints past 64 bits."""


@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_a_frame_with_a_hostile_value_is_the_frame_encoded(value: object) -> None:
    """A value a player chose (a name, a chat line) written by the C frame writer or handed
    to Python is always the text of the frame encoded whole: never a mark taken for a
    state or events, never another encoding."""
    for key in ("name", 'a"b', "\x00", "é"):
        marked: dict[str, object] = {"type": "batch", "updates": [
            {"type": "update", key: [value, {"x": value}], "events": protocol.EVENTS_MARK,
             "state": protocol.STATE_MARK}]}
        whole: dict[str, object] = {"type": "batch", "updates": [
            {"type": "update", key: [value, {"x": value}], "events": [{"a": 1}],
             "state": {"b": 2}}]}
        assert (protocol.dumps_with_states(marked, ['{"b":2}'], ['[{"a":1}]'])
                == protocol.dumps(whole))


@pytest.mark.skipif(protocol._frame_json_text is None, reason="the engine accelerator is not "
                    "built (or CHICAGO_PURE_PYTHON is set)")
def test_every_ascii_byte_at_every_place_of_a_text() -> None:
    """The frame writer's strings (issue 28, forty-fifth pass: checked and copied eight
    bytes at a time, then byte by byte): every ASCII byte at every place of texts of 0-19
    characters, as a value and as a key, is written as the stdlib's encoder writes it when
    no escape is needed, and handed to the Python code (NotImplemented) when one is; a
    text written after it in the same frame is unchanged."""
    assert protocol._frame_json_text is not None
    write = protocol._frame_json_text
    state_mark, events_mark = protocol.STATE_MARK, protocol.EVENTS_MARK
    state, events = '{"phase":"play"}', "[]"
    for size in range(1, 20):
        for place in range(size):
            for byte in range(128):
                text = "abcdefghijklmnopqrst"[:size]
                text = text[:place] + chr(byte) + text[place + 1:]
                plain = 0x20 <= byte < 0x7F and chr(byte) not in '"\\'
                for frame in ({"t": text, "u": "after", "s": state_mark, "v": events_mark},
                              {text: 1, "u": [text, "after"], "s": state_mark,
                               "v": events_mark}):
                    made = write(frame, state_mark, events_mark, [state], [events])
                    if not plain:
                        assert made is NotImplemented, (size, place, byte)
                        continue
                    whole = {**frame, "s": json.loads(state), "v": json.loads(events)}
                    assert made == protocol.dumps(whole), (size, place, byte)
    assert write({"t": "", "s": state_mark, "v": events_mark}, state_mark, events_mark,
                 [state], [events]) == protocol.dumps({"t": "", "s": {"phase": "play"},
                                                       "v": []})

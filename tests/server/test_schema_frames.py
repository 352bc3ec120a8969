"""The table server's websocket frames of random games are valid against docs/schema.json
(snapshot, update, game_over: their views, states and events; issue 19, item 1), and so is
every other frame of a table (seats, presence, resumed …): the frames' schema is made from
the same typed dicts the table core builds (issue 24)."""

from __future__ import annotations

import json
import random
import typing
from pathlib import Path
from typing import Any

import pytest
from server_support import WsPlayer, create_table, join, play_out

from chicago.server.core.frames import Frame, SnapshotFrame, UpdateFrame
from chicago.server.schema import FRAMES, frame_schema

jsonschema = pytest.importorskip("jsonschema")

SHIPPED = Path(__file__).resolve().parent.parent.parent / "docs" / "schema.json"


def _validators() -> dict[str, Any]:
    defs = json.loads(SHIPPED.read_text(encoding="utf-8"))["$defs"]
    return {kind: jsonschema.Draft202012Validator({"$ref": f"#/$defs/frame.{kind}",
                                                   "$defs": defs})
            for kind in FRAMES}


@pytest.mark.parametrize(("preset", "variations"), [
    ("pagat", []), ("wikipedia", ["V-ONE-UP", "V-QUADS-ONE"]), ("wikipedia-42", ["V-LOCK-6"]),
])
def test_every_game_frame_of_a_random_game_is_valid(client, preset, variations) -> None:
    validators = _validators()
    info = create_table(client, ["open", "bot:random", "bot:random"], preset=preset,
                        variations=variations)
    token = join(client, info["id"], seat=0)
    me = WsPlayer(client, info["id"], token)
    watcher = WsPlayer(client, info["id"])
    batched = WsPlayer(client, info["id"], token, batch=True)  # a second tab, batched
    play_out({0: me}, me, random.Random(3))
    watcher.sync(me.seq)
    batched.sync(me.seq)
    checked = 0
    kinds = set()
    for frame in [*me.frames, *watcher.frames, *batched.frames]:
        check = validators.get(frame["type"])
        if check is not None:
            check.validate(frame)
            checked += 1
            kinds.add(frame["type"])
    assert checked > 20
    assert {"snapshot", "update", "batch", "game_over", "presence"} <= kinds
    assert validators["snapshot"] and me.view is not None
    defs = json.loads(SHIPPED.read_text(encoding="utf-8"))["$defs"]
    jsonschema.Draft202012Validator({"$ref": "#/$defs/view", "$defs": defs}).validate(me.view)


def test_each_frames_schema_is_its_typed_dict() -> None:
    """Every frame type of ``Frame`` has a definition whose properties are the typed dict's
    keys, all required but an update's ``pause`` (``NotRequired``); the JSON forms the
    engine makes are referred to, not described again."""
    classes = typing.get_args(Frame)
    assert len(FRAMES) == len(classes) == 10
    for kind, cls in zip(FRAMES, classes, strict=True):
        schema = frame_schema(kind)
        assert list(schema["properties"]) == list(cls.__annotations__), kind
        assert schema["properties"]["type"] == {"const": kind}
        expected = [k for k in cls.__annotations__ if not (cls is UpdateFrame and k == "pause")]
        assert schema["required"] == expected, kind
        assert schema["description"]
    snapshot = frame_schema("snapshot")["properties"]
    assert snapshot["view"]["allOf"] == [{"$ref": "#/$defs/view"}]
    update = frame_schema("update")["properties"]
    assert update["events"]["items"] == {"$ref": "#/$defs/event"}
    assert update["state"]["anyOf"] == [{"$ref": "#/$defs/state"}, {"type": "null"}]
    assert SnapshotFrame.__annotations__["view"]  # the field the definition came from

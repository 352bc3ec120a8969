"""The table server's websocket frames of random games are valid against docs/schema.json
(snapshot, update, game_over: their views, states and events; issue 19, item 1)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from server_support import WsPlayer, create_table, join, play_out

jsonschema = pytest.importorskip("jsonschema")

SHIPPED = Path(__file__).resolve().parent.parent.parent / "docs" / "schema.json"


def _validators() -> dict[str, Any]:
    defs = json.loads(SHIPPED.read_text(encoding="utf-8"))["$defs"]
    return {kind: jsonschema.Draft202012Validator({"$ref": f"#/$defs/frame.{kind}",
                                                   "$defs": defs})
            for kind in ("snapshot", "update", "game_over")}


@pytest.mark.parametrize(("preset", "variations"), [
    ("pagat", []), ("wikipedia", ["V-ONE-UP", "V-QUADS-ONE"]), ("wikipedia-42", ["V-LOCK-6"]),
])
def test_every_game_frame_of_a_random_game_is_valid(client, preset, variations) -> None:
    validators = _validators()
    info = create_table(client, ["open", "bot:random", "bot:random"], preset=preset,
                        variations=variations)
    me = WsPlayer(client, info["id"], join(client, info["id"], seat=0))
    watcher = WsPlayer(client, info["id"])
    play_out({0: me}, me, random.Random(3))
    watcher.sync(me.seq)
    checked = 0
    for frame in [*me.frames, *watcher.frames]:
        check = validators.get(frame["type"])
        if check is not None:
            check.validate(frame)
            checked += 1
    assert checked > 20
    assert validators["snapshot"] and me.view is not None
    defs = json.loads(SHIPPED.read_text(encoding="utf-8"))["$defs"]
    jsonschema.Draft202012Validator({"$ref": "#/$defs/view", "$defs": defs}).validate(me.view)

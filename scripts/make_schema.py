"""Write docs/schema.json: the JSON Schema of views, events and game frames, made from the
types (chicago.engine.schema: views and events; chicago.server.schema: the frames). Run after
changing an event, the view, a rule option or a frame:

    .venv/bin/python scripts/make_schema.py

tests/test_schema.py fails while the shipped file is not current.
"""

from __future__ import annotations

import json
from pathlib import Path

from chicago.server.schema import json_schema

PATH = Path(__file__).resolve().parent.parent / "docs" / "schema.json"


def text() -> str:
    """The file's content."""
    return json.dumps(json_schema(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    PATH.write_text(text(), encoding="utf-8")
    print(f"wrote {PATH}")

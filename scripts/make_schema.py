"""Write docs/schema.json: the JSON Schema of views, events and game frames, made from the
types (chicago.engine.schema). Run after changing an event, the view or a rule option:

    .venv/bin/python scripts/make_schema.py

tests/test_schema.py fails while the shipped file is not current.
"""

from __future__ import annotations

import json
from pathlib import Path

from chicago.engine.schema import json_schema

PATH = Path(__file__).resolve().parent.parent / "docs" / "schema.json"


def text() -> str:
    """The file's content."""
    return json.dumps(json_schema(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    PATH.write_text(text(), encoding="utf-8")
    print(f"wrote {PATH}")

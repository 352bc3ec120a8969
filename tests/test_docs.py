"""The documentation names every rule option and every variation (R-HAND-1, V-*)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from chicago.rules import PRESETS, VARIATIONS, Rules

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_rules_doc_describes_every_option() -> None:
    text = (DOCS / "RULES.md").read_text(encoding="utf-8")
    missing = [
        f.name for f in dataclasses.fields(Rules)
        if f.name != "preset_name" and f"`{f.name}`" not in text
    ]
    assert not missing, f"docs/RULES.md does not describe {missing}"


def test_rules_doc_names_every_variation_and_preset() -> None:
    text = (DOCS / "RULES.md").read_text(encoding="utf-8")
    assert [v for v in VARIATIONS if v not in text] == []
    assert [p for p in PRESETS if f"`{p}`" not in text] == []

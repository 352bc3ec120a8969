"""A rule option's declared type is read once, not on every ``Rules`` made (issue 28,
thirty-seventh pass: ``typing.get_type_hints`` compiled every annotation of ``Rules`` again
for each table the server made or loaded, about a millisecond), and the type check that
reads it still refuses a value of the wrong type for every option."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest

from chicago.rules import PRESETS, Rules, RulesError


def test_rules_from_a_dict_read_the_declared_types_once(monkeypatch: Any) -> None:
    calls: list[object] = []
    real = typing.get_type_hints

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(typing, "get_type_hints", counting)
    for _ in range(3):
        for preset in sorted(PRESETS):
            rules = Rules.preset(preset)
            assert Rules.from_dict(rules.to_dict()) == rules
    assert calls.count(Rules) <= 1


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(Rules)])
def test_a_value_of_the_wrong_type_is_refused_for_every_option(field: str) -> None:
    """A text where no option takes one (the options that take texts: a list in its place)."""
    base = Rules.preset("pagat").to_dict()
    value = getattr(Rules.preset("pagat"), field)
    base[field] = [object()] if isinstance(value, str) else "not a value"
    with pytest.raises((RulesError, TypeError, ValueError)):
        Rules.from_dict(base)

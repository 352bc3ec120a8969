"""The examples in the README and in the docstrings of the package run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import chicago

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(chicago.__path__, "chicago."):
        if info.name.split(".")[-1].startswith("_"):
            continue
        names.append(info.name)
    return sorted(names)


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # an optional extra that is not installed
        pytest.skip(f"{name} needs an optional dependency: {exc}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0

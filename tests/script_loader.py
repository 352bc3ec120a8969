"""The repository's scripts and benchmarks (not in the package) loaded as modules for tests:
``load_script("benchmarks/bench_ceiling.py")``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
"""The repository's top folder."""


def load_script(path: str) -> ModuleType:
    """A fresh module made from the file at ``path`` (from the repository's top folder),
    named by its file's stem and put in ``sys.modules`` under that name (its dataclasses
    and pickled functions look their module up there)."""
    file = ROOT / path
    spec = importlib.util.spec_from_file_location(file.stem, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module

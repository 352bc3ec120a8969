"""What importing a module loads (issue 24): a package's ``__init__`` imports nothing heavy,
so a light module stays light. ``import chicago.cards`` loads no engine; the server's
protocol, its table core and the table manager driven through the core's ports load neither
the web framework nor SQLAlchemy nor Redis. Each case
runs in a fresh interpreter and reads its ``sys.modules``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

ENGINE = ("chicago.engine",)
SERVER_SHELLS = ("fastapi", "starlette", "sqlalchemy", "redis", "uvicorn",
                 "chicago.server.storage", "chicago.server.app")

CASES = [
    ("chicago", ENGINE),
    ("chicago.cards", ENGINE),
    ("chicago.categories", ENGINE),
    ("chicago.poker", ENGINE),
    ("chicago.rules", ENGINE),
    ("chicago.odds", ENGINE),
    ("chicago.server", SERVER_SHELLS),
    ("chicago.server.protocol", SERVER_SHELLS),
    ("chicago.server.core.rows", (*SERVER_SHELLS, *ENGINE)),
    ("chicago.server.core.decide", SERVER_SHELLS),
    ("chicago.server.core.frames", SERVER_SHELLS),
    ("chicago.server.core.turns", SERVER_SHELLS),
    ("chicago.server.core.ports", (*SERVER_SHELLS, *ENGINE)),
    ("chicago.server.live", SERVER_SHELLS),
    ("chicago.server.messages", SERVER_SHELLS),
    ("chicago.server.tables", SERVER_SHELLS),
]


def loaded_by(module: str) -> set[str]:
    """The modules a fresh interpreter holds after ``import module``."""
    code = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, timeout=120).stdout
    return set(json.loads(out))


@pytest.mark.parametrize(("module", "absent"), CASES, ids=[c[0] for c in CASES])
def test_a_light_module_loads_nothing_heavy(module: str, absent: tuple[str, ...]) -> None:
    loaded = loaded_by(module)
    assert module in loaded
    heavy = sorted(name for name in loaded
                   if any(name == a or name.startswith(a + ".") for a in absent))
    assert heavy == [], f"import {module} loads {heavy}"


def test_the_package_still_offers_its_names() -> None:
    """``from chicago import Game, Rules`` (and every name of ``__all__``) works, loaded on
    first use; an unknown name is an AttributeError as for any module."""
    import chicago
    import chicago.server

    for name in chicago.__all__:
        assert getattr(chicago, name) is not None
    from chicago import Game, Rules

    assert Game(Rules.preset("pagat"), players=4, seed=1).players == 4
    assert chicago.server.Settings.__name__ == "Settings"
    with pytest.raises(AttributeError):
        chicago.no_such_name  # noqa: B018
    with pytest.raises(AttributeError):
        chicago.server.no_such_name  # noqa: B018

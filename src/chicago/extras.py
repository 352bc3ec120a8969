"""The optional parts of chicago and the extras that install them.

The distribution is :data:`DISTRIBUTION` (``chicago-cardgame``: the name ``chicago`` on the
Python Package Index is another, unrelated project); it installs the package ``chicago`` and
the command ``chicago``. ``pip install chicago-cardgame`` is the core: cards, the poker
evaluator (with its C accelerator), draw odds, the rules, the engine, records, the bots,
``chicago odds``, ``chicago simulate`` and the plain line modes of ``chicago play`` and
``chicago replay``; it needs nothing but OpenSkill (the ratings of ``chicago simulate``).
Everything else is an extra, installed as ``pip install 'chicago-cardgame[NAME]'``
(``[all]`` for every one; in an environment made by pipx, ``pipx install --force
'chicago-cardgame[NAME]'``):

========= ==========================================================================
extra     what it adds
========= ==========================================================================
tui       the full-screen terminal (``chicago play``, ``chicago replay``): Textual, Rich
server    the table server and browser app (``chicago serve``): FastAPI, uvicorn,
          SQLAlchemy, Alembic, precis-i18n and confusable-homoglyphs (profile names)
postgres  ``chicago serve --db postgresql://…``: the server with psycopg 3
redis     several server workers (``chicago serve --redis …``): PostgreSQL and redis-py
rl        the PettingZoo environment and the observation vectors: PettingZoo,
          Gymnasium, numpy
openspiel the OpenSpiel game: open_spiel, numpy
cluster   ``chicago simulate --cluster``: Dask distributed
========= ==========================================================================

A command that needs an extra that is not installed says so and exits with status 2
(:class:`MissingExtra`, raised by :func:`require`; the ``chicago`` command prints it)::

    >>> print(MissingExtra("tui", "chicago play", ["textual"]))
    chicago play needs the optional package textual: pip install 'chicago-cardgame[tui]'
    >>> extra_for("sqlalchemy.engine")
    'server'
"""

from __future__ import annotations

import importlib
import itertools
import sys
from pathlib import Path

__all__ = ["DISTRIBUTION", "EXTRAS", "MissingExtra", "extra_for", "install_command",
           "installed_by_pipx", "require"]

DISTRIBUTION = "chicago-cardgame"
"""The name to install chicago by (``pyproject.toml``'s ``project.name``; a test checks that
every install command the program and its documents print names it)."""

EXTRAS: dict[str, tuple[str, ...]] = {
    "tui": ("textual", "rich"),
    "server": ("fastapi", "starlette", "pydantic", "uvicorn", "sqlalchemy", "alembic",
               "precis_i18n", "confusable_homoglyphs"),
    "postgres": ("psycopg",),
    "redis": ("redis",),
    "rl": ("pettingzoo", "gymnasium", "numpy"),
    "openspiel": ("pyspiel", "numpy"),
    "cluster": ("distributed", "dask"),
}
"""Each extra's packages, by the top-level name they are imported as (the extra's own
dependencies in ``pyproject.toml``; ``tests/test_extras.py`` checks that they agree).
``postgres`` and ``redis`` include ``server``, ``redis`` includes ``postgres``; numpy, in
``rl`` and ``openspiel``, is named as ``rl``'s by :func:`extra_for`."""


def installed_by_pipx(prefix: str | None = None) -> bool:
    """Whether this Python environment (``sys.prefix``) is one that pipx made: pipx keeps
    them in a ``venvs`` directory of its own (``~/.local/share/pipx/venvs/NAME``)."""
    parts = Path(prefix if prefix is not None else sys.prefix).parts
    return any(a == "pipx" and b == "venvs" for a, b in itertools.pairwise(parts))


def install_command(extra: str, *, pipx: bool | None = None) -> str:
    """The command that installs ``extra`` where chicago runs: ``pip install
    'chicago-cardgame[extra]'``, or for an environment of pipx (``pipx``: None to look)
    ``pipx install --force 'chicago-cardgame[extra]'``.

    >>> install_command("server", pipx=True)
    "pipx install --force 'chicago-cardgame[server]'"
    """
    if pipx is None:
        pipx = installed_by_pipx()
    tool = "pipx install --force" if pipx else "pip install"
    return f"{tool} '{DISTRIBUTION}[{extra}]'"


class MissingExtra(ImportError):
    """A feature needs packages of an extra that are not installed."""

    def __init__(self, extra: str, feature: str, missing: list[str]) -> None:
        self.extra = extra
        self.feature = feature
        self.missing = list(missing)
        packages = ", ".join(self.missing)
        noun = "package" if len(self.missing) == 1 else "packages"
        super().__init__(f"{feature} needs the optional {noun} {packages}: "
                         f"{install_command(extra)}")


def extra_for(module: str | None) -> str | None:
    """The extra that installs the importable ``module`` (any dotted name); None if none."""
    if not module:
        return None
    top = module.partition(".")[0]
    for extra, modules in EXTRAS.items():
        if top in modules:
            return extra
    return None


def require(extra: str, feature: str) -> None:
    """Raise :class:`MissingExtra` unless every package of ``extra`` can be imported.

    The packages are imported (not only looked for), so a broken installation of one counts
    as missing too; the feature is about to import them anyway.
    """
    missing = []
    for module in EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise MissingExtra(extra, feature, missing)

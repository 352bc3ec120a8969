"""The optional parts of chicago and the extras that install them.

``pip install chicago`` is the core: cards, the poker evaluator (with its C accelerator),
draw odds, the rules, the engine, records, the bots, ``chicago odds``, ``chicago simulate``
and the plain line modes of ``chicago play`` and ``chicago replay``; it needs nothing but
OpenSkill (the ratings of ``chicago simulate``). Everything else is an extra, installed as
``pip install 'chicago[NAME]'`` (``[all]`` for every one):

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
    chicago play needs the optional package textual: pip install 'chicago[tui]'
    >>> extra_for("sqlalchemy.engine")
    'server'
"""

from __future__ import annotations

import importlib

__all__ = ["EXTRAS", "MissingExtra", "extra_for", "install_command", "require"]

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


def install_command(extra: str) -> str:
    """The command that installs ``extra``: ``pip install 'chicago[extra]'``."""
    return f"pip install 'chicago[{extra}]'"


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

"""The ``chicago`` command: one sub-command per module of :mod:`chicago.commands`.

Each sub-command lives in its own module ``chicago.commands.<name>`` with two functions,
``add_arguments(parser)`` and ``run(args) -> int``, so that shells stay independent. A
command module imports the packages of an extra (:mod:`chicago.extras`) only inside
``run``, so ``chicago --help`` and every ``--help`` work with the core alone; a command
whose extra is missing ends with one line naming the ``pip install 'chicago-cardgame[…]'`` that
brings it, and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

import chicago
import chicago.commands as commands_package
from chicago.datadir import data_dir
from chicago.extras import MissingExtra, extra_for, install_command

__all__ = ["main"]

DEFAULT_COMMAND = "serve"
"""What ``chicago`` with no arguments runs: the table server with the browser app."""


def _command_modules() -> dict[str, ModuleType]:
    modules: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(commands_package.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        modules[info.name] = importlib.import_module(f"chicago.commands.{info.name}")
    return modules


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(
        prog="chicago",
        description="The Swedish card game Chicago: play, analyse, simulate and serve.",
        epilog=f"Without COMMAND: chicago {DEFAULT_COMMAND}.\nData directory: {data_dir()} "
        "(CHICAGO_DATA chooses another).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"chicago {chicago.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = _command_modules()
    for name, module in modules.items():
        doc = (module.__doc__ or "").strip().splitlines()
        summary = doc[0] if doc else name
        command_parser = sub.add_parser(
            name, help=summary, description=module.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(command_parser)
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``chicago`` console script."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # A command with something to save catches Ctrl-C itself; one stopped before it gets
        # that far (while importing, say) or with nothing to save ends with one line.
        print("Interrupted.", file=sys.stderr)
        return 130


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser, modules = build_parser()
    if not args_list:
        args_list = [DEFAULT_COMMAND]
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        result = modules[args.command].run(args)
    except MissingExtra as exc:
        print(exc, file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        extra = extra_for(exc.name)
        if extra is None:
            raise
        print(f"chicago {args.command} needs the optional package "
              f"{str(exc.name).partition('.')[0]}: "
              f"{install_command(extra)}", file=sys.stderr)
        return 2
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

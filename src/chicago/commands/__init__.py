"""Sub-commands of the ``chicago`` command line, one module each.

A module here defines ``add_arguments(parser: argparse.ArgumentParser) -> None`` and
``run(args: argparse.Namespace) -> int``; its docstring's first line is its help text.
"""

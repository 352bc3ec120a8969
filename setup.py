"""Build script for the optional C accelerators; all other metadata is in pyproject.toml.

Every ``src/chicago/**/_*.c`` file is built as the extension module of the same dotted path
(``src/chicago/_poker.c`` -> ``chicago._poker``), so adding an accelerator needs no edit here.
"""

from pathlib import Path

from setuptools import Extension, setup

SRC = Path(__file__).parent / "src"


def _extensions() -> list[Extension]:
    extensions = []
    for source in sorted(SRC.glob("chicago/**/_*.c")):
        module = ".".join(source.relative_to(SRC).with_suffix("").parts)
        extensions.append(
            Extension(
                module,
                sources=[str(source.relative_to(Path(__file__).parent))],
                extra_compile_args=["-O3"],
                optional=True,  # without a compiler the pure-Python fallback runs
            )
        )
    return extensions


setup(ext_modules=_extensions())

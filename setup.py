"""Build script for the optional C accelerators; all other metadata is in pyproject.toml.

Every ``src/chicago/**/_*.c`` file is built as the extension module of the same dotted path
(``src/chicago/_poker.c`` -> ``chicago._poker``), so adding an accelerator needs no edit here.
Each is optional: without a compiler the pure-Python fallback runs.

``CHICAGO_PURE_PYTHON=1`` builds none of them, which makes the pure-Python wheel
(``py3-none-any``) for platforms without a compiled wheel (``make release``; the same
variable makes an installed chicago ignore its accelerators at run time).
"""

import os
from pathlib import Path

from setuptools import Extension, setup

SRC = Path(__file__).parent / "src"


def _extensions() -> list[Extension]:
    if os.environ.get("CHICAGO_PURE_PYTHON"):
        return []
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

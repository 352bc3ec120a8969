"""The check of what users get (scripts/check_dist.py, run by .ci/run) catches what issue 15
found: a wheel or sdist without the browser app, a core that requires the shells' packages.

The whole check builds and installs for real in CI; here its checks of a distribution's
contents are run on small made-up archives."""

from __future__ import annotations

import io
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

from script_loader import ROOT, load_script

check_dist = load_script("scripts/check_dist.py")


def _source_files() -> list[str]:
    src = ROOT / "src"
    return [str(p.relative_to(src)) for p in (src / "chicago").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
            and p.suffix not in (".c", ".so", ".pyd", ".pyc")]


def _wheel(path: Path, *, leave_out: str = "", requires: tuple[str, ...] = ("openskill>=6",),
           compiled: tuple[str, ...] | None = None) -> Path:
    """A made-up wheel of every source file; ``compiled`` defaults to every accelerator."""
    if compiled is None:
        compiled = tuple(f"{m}.cpython-311-x86_64-linux-gnu.so"
                         for m in check_dist.accelerators())
    info = "chicago_cardgame-0.1.0.dist-info"
    metadata = ("Metadata-Version: 2.4\nName: chicago-cardgame\nVersion: 0.1.0\n"
                "License-Expression: MIT\n")
    metadata += "".join(f"Requires-Dist: {r}\n" for r in requires)
    metadata += "".join(f"Provides-Extra: {e}\n" for e in check_dist.EXTRAS)
    with zipfile.ZipFile(path, "w") as archive:
        for name in _source_files():
            if not (leave_out and name.startswith(leave_out)):
                archive.writestr(name, "x")
        for name in compiled:
            archive.writestr(name, "x")
        archive.writestr(f"{info}/METADATA", metadata)
        archive.writestr(f"{info}/entry_points.txt",
                         "[console_scripts]\nchicago = chicago.cli:main\n")
        archive.writestr(f"{info}/licenses/LICENSE", "MIT")
    return path


@pytest.fixture
def no_wheel_linter(monkeypatch: pytest.MonkeyPatch) -> None:
    """check-wheel-contents itself is left out: it would refuse these made-up wheels."""
    real = check_dist.run

    def run(argv: list[Any], **kwargs: Any) -> Any:
        if "check_wheel_contents" in map(str, argv):
            return None
        return real(argv, **kwargs)

    monkeypatch.setattr(check_dist, "run", run)


MANYLINUX = "chicago_cardgame-0.1.0-cp311-cp311-manylinux_2_17_x86_64.whl"
PURE = "chicago_cardgame-0.1.0-py3-none-any.whl"


@pytest.mark.usefixtures("no_wheel_linter")
def test_the_wheel_check_passes_a_complete_wheel_and_names_what_one_lacks(
    tmp_path: Path,
) -> None:
    check_dist.check_wheel(_wheel(tmp_path / MANYLINUX))
    without_app = _wheel(tmp_path / PURE, leave_out="chicago/web/static/", compiled=())
    with pytest.raises(check_dist.Failed, match=re.escape("chicago/web/static/index.html")):
        check_dist.check_wheel(without_app)
    heavy = _wheel(tmp_path / PURE, requires=("numpy>=1.26", "openskill>=6", "fastapi>=0.110"),
                   compiled=())
    with pytest.raises(check_dist.Failed, match="OpenSkill alone"):
        check_dist.check_wheel(heavy)


@pytest.mark.usefixtures("no_wheel_linter")
def test_the_wheel_check_wants_manylinux_every_accelerator_and_a_pure_wheel_without(
    tmp_path: Path,
) -> None:
    """Issue 29: a linux_x86_64 wheel (which PyPI refuses), a compiled wheel without one of
    the accelerators (every src/chicago/**/_*.c), a pure wheel with a compiled module."""
    check_dist.check_wheel(_wheel(tmp_path / PURE, compiled=()))
    raw = _wheel(tmp_path / "chicago_cardgame-0.1.0-cp311-cp311-linux_x86_64.whl")
    with pytest.raises(check_dist.Failed, match="PyPI refuses linux_x86_64"):
        check_dist.check_wheel(raw)
    with pytest.raises(check_dist.Failed, match="the pure wheel holds compiled modules"):
        check_dist.check_wheel(_wheel(tmp_path / PURE))
    with pytest.raises(check_dist.Failed, match=re.escape("lacks the compiled accelerators")):
        check_dist.check_wheel(_wheel(tmp_path / MANYLINUX, compiled=()))
    every = check_dist.accelerators()
    assert {"chicago/_poker", "chicago/bots/_solver", "chicago/engine/_engine"} <= set(every)
    for lacking in every:  # a wheel without any one of them is named for it
        others = tuple(f"{m}.cpython-311-x86_64-linux-gnu.so" for m in every if m != lacking)
        with pytest.raises(check_dist.Failed, match=re.escape(f"[{lacking!r}]")):
            check_dist.check_wheel(_wheel(tmp_path / MANYLINUX, compiled=others))


def test_a_release_needs_the_changelog_section_and_writes_checksums(tmp_path: Path) -> None:
    version = check_dist.source_version()
    assert check_dist.changelog_has(version) and not check_dist.changelog_has("9.9.9")
    files = [tmp_path / MANYLINUX, tmp_path / PURE]
    for i, path in enumerate(files):
        path.write_bytes(bytes([i]) * 10)
    sums = check_dist.write_checksums(tmp_path, files).read_text(encoding="utf-8")
    import hashlib

    assert sums.splitlines() == sorted(
        f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}" for p in files)


def test_the_sdist_check_names_a_tracked_file_it_lacks(tmp_path: Path) -> None:
    def sdist(leave_out: str) -> Path:
        path = tmp_path / "chicago_cardgame-0.1.0.tar.gz"
        with tarfile.open(path, "w:gz") as archive:
            for name in check_dist.tracked_files():
                if name.startswith(".ci/") or name == leave_out:
                    continue
                entry = tarfile.TarInfo(f"chicago_cardgame-0.1.0/{name}")
                entry.size = 1
                archive.addfile(entry, io.BytesIO(b"x"))
        return path

    check_dist.check_sdist(sdist(""))
    with pytest.raises(check_dist.Failed, match=re.escape("src/chicago/web/static/js/app.js")):
        check_dist.check_sdist(sdist("src/chicago/web/static/js/app.js"))


def test_ci_runs_the_check_and_fails_with_it() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "\n.venv/bin/python scripts/check_dist.py || status=1\n" in ci
    assert ci.rstrip().endswith("exit $status")

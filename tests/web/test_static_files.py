"""The browser app's files as the page loads them, and a server that refuses to start without
them (issue 15: never a silent JSON page where the app should be)."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

import chicago.web
from chicago.cli import main
from chicago.server import Settings, create_app
from chicago.server.assets import StaticFilesMissing, missing_files, page_files, references
from chicago.web import STATIC_DIR

with warnings.catch_warnings():  # starlette suggests httpx2, which is not needed here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_references_of_a_page_a_module_and_a_stylesheet() -> None:
    page = """<link rel="icon" href="favicon.svg"><link rel="stylesheet" href="css/app.css">
    <link rel="canonical" href="https://example.org/"><a href="other.html">x</a>
    <script type="module" src="./js/app.js?v=2"></script><script src="//cdn.example/x.js">
    </script>"""
    assert references("index.html", page) == ["favicon.svg", "css/app.css", "js/app.js"]
    module = """/* import { old } from "./gone.js"; */
import {
  a,
  b,
} from "./multi.js";
import * as store from './store.js';
import "./side-effect.js";
export { c } from "../shared/c.js";
export const label = "from './not-an-import.js'";
import lodash from "lodash";
const later = () => import("./lang/sv.js");
"""
    assert references("js/app.js", module) == [
        "js/multi.js", "js/store.js", "js/side-effect.js", "shared/c.js", "js/lang/sv.js"]
    css = """@import "base.css"; @import url('theme.css');
    .x { background: url(../img/felt.svg) } .y { mask: url("data:image/svg+xml;utf8,<svg/>") }
    .z { fill: url(#gradient) }"""
    assert references("css/app.css", css) == ["css/base.css", "css/theme.css", "img/felt.svg"]
    assert references("js/app.js", 'import "../../outside.js";') == []  # above the app


def test_references_of_the_installable_app() -> None:
    """A page's manifest and touch icon, a manifest's icons (relative to it), and the service
    worker a module registers (relative to the page, not to the module)."""
    page = ('<link rel="manifest" href="manifest.webmanifest">'
            '<link rel="apple-touch-icon" href="icons/touch.png">')
    assert references("index.html", page) == ["manifest.webmanifest", "icons/touch.png"]
    manifest = '{"icons": [{"src": "icons/a.png"}, {"src": "https://x.org/b.png"}, {"sizes": 1}]}'
    assert references("manifest.webmanifest", manifest) == ["icons/a.png"]
    assert references("manifest.webmanifest", "not json") == []
    module = 'if (ok) navigator.serviceWorker.register("sw.js").catch(() => {});'
    assert references("js/app.js", module) == ["sw.js"]


def test_the_page_reaches_every_file_of_the_app_and_none_is_missing() -> None:
    """From index.html through every import: all the app's scripts and stylesheets are found
    this way (so the check of an installation covers them) and nothing referenced is
    missing."""
    found, missing = page_files(STATIC_DIR)
    assert missing == []
    assert found[0] == "index.html" and {"js/app.js", "css/app.css"} <= set(found)
    loadable = {str(p.relative_to(STATIC_DIR)) for p in STATIC_DIR.rglob("*")
                if p.suffix in (".js", ".css", ".html", ".json")}
    assert loadable <= set(found), f"files the page never loads: {loadable - set(found)}"


def _broken_copy(tmp_path: Path, *removed: str) -> Path:
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    for name in removed:
        (static / name).unlink()
    return static


def test_missing_files_names_what_an_incomplete_installation_lacks(tmp_path: Path) -> None:
    assert missing_files(STATIC_DIR) == []
    assert missing_files(tmp_path / "nowhere") == ["index.html"]
    assert missing_files(None) == ["index.html"]
    static = _broken_copy(tmp_path, "lang/sv.json", "css/app.css")
    assert missing_files(static) == ["css/app.css", "lang/sv.json"]


def test_create_app_refuses_an_incomplete_app_and_serves_json_only_without_one(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    static = _broken_copy(tmp_path, "js/board.js")
    with pytest.raises(StaticFilesMissing) as caught:
        create_app(Settings(db_url=db, static_dir=static))
    assert caught.value.missing == ["js/board.js"]
    assert "js/board.js missing in" in str(caught.value)
    with pytest.raises(StaticFilesMissing):
        create_app(Settings(db_url=db, static_dir=tmp_path / "no-such-dir"))
    with TestClient(create_app(Settings(db_url=db, static_dir=None))) as client:
        assert client.get("/").json()["api"] == "/api/info"  # an API-only server, on purpose


def test_serve_refuses_to_start_without_the_browser_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    _own_data_dir: Path,
) -> None:
    """As from a wheel without its web files: one clear line, status 1, nothing started."""
    monkeypatch.setattr(chicago.web, "STATIC_DIR", tmp_path / "site-packages" / "static")
    assert main(["serve", "--port", "0"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith("chicago serve: the browser app is incomplete: index.html missing in")
    assert "reinstall it from a complete wheel or source archive" in err
    assert list(_own_data_dir.iterdir()) == []  # no database was created

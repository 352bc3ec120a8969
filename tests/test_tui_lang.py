"""The terminal speaks the browser app's words: one catalogue per language, checked against
``web/static/js/lang/en.js`` and ``sv.js``.

Every key of the terminal's catalogues that does not start with ``tui.`` is the browser
app's key and must give the very text the browser gives for the same parameters: literal
entries are compared as they are; entries that are functions (English verbs, plurals) are
run by a JavaScript engine (Node.js, else Debian's chromium through Playwright) for a grid of
parameters and compared with the terminal's. The choice of the language from ``--lang``
and the locale is checked here too.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import chicago
from chicago.tui.lang import CODES, ENGLISH, SWEDISH, Lang, choose_lang, get_lang, lang_from_env

JS_DIR = Path(chicago.__file__).parent / "web" / "static" / "js" / "lang"
_ENTRY = re.compile(
    r'(?:^|,)[ \t]*(?:"(?P<qkey>[^"\n]+)"|(?P<key>[A-Za-z_]\w*))\s*:\s*'
    r'(?P<value>"(?:[^"\\\n]|\\.)*"|\(|[^,\n]*)',
    re.MULTILINE,
)
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def js_entries(code: str) -> dict[str, str | None]:
    """The keys of a browser catalogue: the text of literal entries, None for functions."""
    source = (JS_DIR / f"{code}.js").read_text(encoding="utf-8")
    body = source[source.index("export default {"):]
    found: dict[str, str | None] = {}
    for match in _ENTRY.finditer(body):
        key = match.group("qkey") or match.group("key")
        value = match.group("value").strip()
        found[key] = json.loads(value) if value.startswith('"') else None
    return found


def shared_keys(lang: Lang) -> list[str]:
    return sorted(key for key in lang.entries if not key.startswith("tui."))


def _fill(text: str, params: dict[str, Any]) -> str:
    """The browser's t() for a literal entry."""
    return _PLACEHOLDER.sub(
        lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), text
    )


def parameter_grid() -> list[dict[str, Any]]:
    """Parameters for every placeholder the catalogues use, in the forms that change words."""
    grid = []
    for you, count, flag, reason in itertools.product(
        (True, False), (1, 3), (True, False), ("", "best hand")
    ):
        grid.append({
            "who": "bo", "Who": "Bo", "whom": "bom", "you": you, "n": count, "r": 2,
            "deal": 4, "dealer": "Dee", "cards": "Ah Kd", "card": "7c", "cat": "a pair",
            "points": count, "total": 12, "reason": reason, "max": count, "out": "2c",
            "got": "3d", "names": "Al and Bo", "scores": "Al 1, Bo 2", "hands": "Al 2c 3c",
            "stage": 2, "shown": "nine", "suit": "hearts", "trick": 3, "breaker": "Cy",
            "against": "Al", "youAgainst": flag, "plural": flag, "action": "pass", "i": 1,
            "level": "basic",
        })
    return grid


_RUNNER = """
const cases = JSON.parse(INPUT);
const out = [];
const books = {};
for (const [code, source] of Object.entries(cases.sources)) {
  books[code] = new Function(source.replace("export default", "return"))();
}
for (const [code, key, params] of cases.cases) {
  const entry = books[code][key];
  if (typeof entry === "function") out.push(entry(params));
  else out.push(String(entry).replace(/\\{(\\w+)\\}/g,
                                     (_, n) => (n in params ? String(params[n]) : `{${n}}`)));
}
"""


def _run_js(payload: dict[str, Any]) -> list[str]:
    """Run the browser catalogues' entries in Node.js, or in chromium (Playwright)."""
    data = json.dumps(payload)
    node = shutil.which("node") or shutil.which("nodejs")
    if node:
        script = (
            "let INPUT='';process.stdin.on('data',d=>INPUT+=d);process.stdin.on('end',()=>{"
            + _RUNNER + "process.stdout.write(JSON.stringify(out));});"
        )
        result = subprocess.run(
            [node, "-e", script], input=data, capture_output=True, text=True, timeout=60,
            check=True,
        )
        return list(json.loads(result.stdout))
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if sync_playwright is None or not Path(chromium).exists():
        if os.environ.get("CHICAGO_REQUIRE_CHROMIUM"):
            pytest.fail("neither Node.js nor chromium with Playwright can run the catalogues")
        pytest.skip("neither Node.js nor chromium with Playwright is installed")
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        outputs = page.evaluate(
            "(INPUT) => {" + _RUNNER + "return out; }", data
        )
        browser.close()
    return list(outputs)


@pytest.mark.parametrize("lang", [ENGLISH, SWEDISH], ids=lambda lang: lang.code)
def test_every_shared_key_is_a_browser_key(lang: Lang) -> None:
    """A key without ``tui.`` is one the browser app has in the same language."""
    browser = js_entries(lang.code)
    assert len(browser) > 250, "the browser catalogue was not read"
    missing = [key for key in shared_keys(lang) if key not in browser]
    assert missing == []


@pytest.mark.parametrize("lang", [ENGLISH, SWEDISH], ids=lambda lang: lang.code)
def test_literal_entries_say_what_the_browser_says(lang: Lang) -> None:
    """The browser's literal texts, placeholders filled, are the terminal's, word for word."""
    browser = js_entries(lang.code)
    different = []
    for key in shared_keys(lang):
        text = browser.get(key)
        if text is None:
            continue
        for params in parameter_grid():
            if lang.t(key, **params) != _fill(text, params):
                different.append((key, text, lang.t(key, **params)))
                break
    assert different == []


def test_function_entries_say_what_the_browser_says() -> None:
    """Entries that are functions (verbs, plurals) give the browser's text for every
    parameter in the grid: run in a JavaScript engine and compared."""
    cases: list[tuple[str, str, dict[str, Any]]] = []
    for lang in (ENGLISH, SWEDISH):
        browser = js_entries(lang.code)
        for key in shared_keys(lang):
            if browser.get(key, "") is None:  # a function in the browser
                cases.extend((lang.code, key, params) for params in parameter_grid())
    assert len(cases) > 40 * len(parameter_grid())
    sources = {code: (JS_DIR / f"{code}.js").read_text(encoding="utf-8") for code in CODES}
    expected = _run_js({"sources": sources, "cases": cases})
    different = [
        (code, key, params, want, CODES[code].t(key, **params))
        for (code, key, params), want in zip(cases, expected, strict=True)
        if CODES[code].t(key, **params) != want
    ]
    assert different[:3] == []


def test_both_languages_have_every_terminal_key_with_the_same_placeholders() -> None:
    assert set(ENGLISH.entries) == set(SWEDISH.entries)
    for key, text in ENGLISH.entries.items():
        other = SWEDISH.entries[key]
        if isinstance(text, str) and isinstance(other, str):
            assert set(_PLACEHOLDER.findall(text)) == set(_PLACEHOLDER.findall(other)), key


def test_every_key_the_terminal_asks_for_is_in_the_catalogues() -> None:
    """The literal keys in the terminal's source exist (a missing one would show as its key)."""
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for path in (Path(chicago.__file__).parent / "tui").glob("*.py")
    )
    asked = set(re.findall(r'"((?:tui|ev|btn|sum|q|sel|center|table|phase|score|hint|err|'
                           r'over|replay|act|reason)\.[\w.]+)"', source))
    asked -= {"table.title", "table.header", "table.caption"}  # Rich's style names
    assert len(asked) > 150
    assert sorted(asked - set(ENGLISH.entries)) == []


@pytest.mark.parametrize(("environ", "code"), [
    ({}, "en"),
    ({"LANG": "sv_SE.UTF-8"}, "sv"),
    ({"LANG": "sv"}, "sv"),
    ({"LANG": "sv_FI.UTF-8@euro"}, "sv"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_MESSAGES": "sv_SE.UTF-8", "LANG": "en_US.UTF-8"}, "sv"),
    ({"LC_ALL": "C", "LC_MESSAGES": "sv_SE.UTF-8"}, "en"),
    ({"LC_ALL": "sv_SE.UTF-8", "LANG": "C"}, "sv"),
    ({"LC_ALL": "", "LANG": "sv_SE.UTF-8"}, "sv"),
])
def test_the_locale_chooses_the_language(environ: dict[str, str], code: str) -> None:
    """LC_ALL, then LC_MESSAGES, then LANG: the first that is set decides (as gettext)."""
    assert lang_from_env(environ).code == code
    assert choose_lang(None, environ).code == code
    assert choose_lang("en", environ) is ENGLISH and choose_lang("sv", environ) is SWEDISH


def test_unknown_language_is_refused() -> None:
    assert get_lang("SV") is SWEDISH
    with pytest.raises(ValueError, match="unknown language 'fi'"):
        get_lang("fi")

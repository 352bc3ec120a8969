"""The terminal speaks the browser app's words: one catalogue per language, shared with
``web/static/js/lang/en.js`` and ``sv.js``.

The browser's literal entries are read from its files (:mod:`chicago.tui.lang.browser`), so
they cannot drift; its entries that are functions (English verbs, plurals) are Python
functions in the terminal's catalogues, and these are run against the browser's in a
JavaScript engine (Node.js, else Debian's chromium through Playwright) for a grid of
parameters. The choice of the language from ``--lang`` and the locale is checked here too.
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
from chicago.tui.lang import CODES, ENGLISH, SWEDISH, choose_lang, en, get_lang, lang_from_env, sv
from chicago.tui.lang.browser import browser_entry_kinds, browser_texts

JS_DIR = Path(chicago.__file__).parent / "web" / "static" / "js" / "lang"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
MODULES = {"en": en, "sv": sv}


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
  out.push(books[code][key](params));
}
"""


def _run_js(payload: dict[str, Any]) -> list[str]:
    """Run the browser catalogues' function entries in Node.js, or in chromium."""
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
        outputs = page.evaluate("(INPUT) => {" + _RUNNER + "return out; }", data)
        browser.close()
    return list(outputs)


@pytest.mark.parametrize("code", ["en", "sv"])
def test_the_browser_catalogue_is_read_whole(code: str) -> None:
    """Every entry of lang/*.js is found: literal texts with their words, functions known
    as such (the parser is checked against a count of the entries' keys)."""
    kinds = browser_entry_kinds(code)
    source = (JS_DIR / f"{code}.js").read_text(encoding="utf-8")
    body = source[source.index("export default {"):]
    keys = re.findall(r'(?:^|", )[ \t]*(?:"[^"\n]+"|[A-Za-z_]\w*)\s*:\s*(?=["(\[`]|[a-z])',
                      body, re.MULTILINE)
    assert len(kinds) == len(keys) > 300
    literal = browser_texts(code)
    assert len(literal) > 250
    assert literal["cat.PAIR"] == {"en": "Pair", "sv": "Par"}[code]
    assert literal["rank.K"] == {"en": "king", "sv": "kung"}[code]
    assert literal["reason.reached the target without a made Chicago (V-CHI-REQ3)"]
    assert kinds["ev.exchange"] is None and kinds["keys.list"] is None


@pytest.mark.parametrize("code", ["en", "sv"])
def test_the_terminals_functions_stand_for_the_browsers(code: str) -> None:
    """A shared entry the terminal writes itself is a function in the browser too: the
    terminal never shadows a literal text of the browser."""
    kinds = browser_entry_kinds(code)
    assert MODULES[code].FUNCTIONS
    for key in MODULES[code].FUNCTIONS:
        assert key in kinds and kinds[key] is None, key


def test_function_entries_say_what_the_browser_says() -> None:
    """The terminal's function entries give the browser's text for every parameter in the
    grid: both run (the browser's in a JavaScript engine) and compared."""
    cases: list[tuple[str, str, dict[str, Any]]] = [
        (code, key, params)
        for code, module in MODULES.items() for key in module.FUNCTIONS
        for params in parameter_grid()
    ]
    assert len(cases) > 50 * len(parameter_grid())
    sources = {code: (JS_DIR / f"{code}.js").read_text(encoding="utf-8") for code in CODES}
    expected = _run_js({"sources": sources, "cases": cases})
    different = [
        (code, key, params, want, CODES[code].t(key, **params))
        for (code, key, params), want in zip(cases, expected, strict=True)
        if CODES[code].t(key, **params) != want
    ]
    assert different[:3] == []


def test_both_languages_have_every_terminal_key_with_the_same_placeholders() -> None:
    assert set(en.TERMINAL) == set(sv.TERMINAL)
    for key, text in en.TERMINAL.items():
        other = sv.TERMINAL[key]
        if isinstance(text, str) and isinstance(other, str):
            assert set(_PLACEHOLDER.findall(text)) == set(_PLACEHOLDER.findall(other)), key


def test_every_key_the_terminal_asks_for_is_in_both_catalogues() -> None:
    """The literal keys in the terminal's source exist in English and Swedish (a missing one
    would show as its key), whether the terminal's own or the browser's."""
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for path in (Path(chicago.__file__).parent / "tui").glob("*.py")
    )
    asked = set(re.findall(r'"((?:tui|ev|btn|sum|q|sel|center|table|phase|score|hint|err|'
                           r'over|replay|act|reason)\.[\w.]+)"', source))
    asked -= {"table.title", "table.header", "table.caption"}  # Rich's style names
    asked |= {f"{kind}.{name}" for kind in ("cat", "cata") for name in (
        "none", "HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH",
        "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "ROYAL_FLUSH")}
    asked |= {f"rank.{r}" for r in "23456789TJQKA"} | {f"suit.{s}" for s in "cdhs"}
    assert len(asked) > 150
    assert sorted(asked - set(ENGLISH.entries)) == []
    assert sorted(asked - set(SWEDISH.entries)) == []


def test_every_english_review_key_has_a_swedish_one() -> None:
    """The words of ``chicago review`` and ``replay --review`` (chicago.tui.review_words,
    chicago.commands._review_table): the browser's review words (review.*, grade.*,
    choice.*) and the terminal's tui.review.* keys, each in Swedish in its own words, also
    those built from a phase or a grade."""
    from chicago.review import Grade
    from chicago.review.summary import PHASE_ORDER

    families = ("tui.review.", "review.", "grade.", "choice.")
    english = {k for k in ENGLISH.entries if k.startswith(families)}
    assert len(english) > 80
    assert sorted(english - set(SWEDISH.entries)) == []
    for phase in PHASE_ORDER:
        key = phase.replace(" ", "_")
        for family in ("review.phase.", "tui.review.short.", "tui.review.phases."):
            assert f"{family}{key}" in english and f"{family}{key}" in SWEDISH.entries
    assert {f"grade.{g.value}" for g in Grade} <= english
    source = "\n".join(
        (Path(chicago.__file__).parent / path).read_text(encoding="utf-8")
        for path in ("tui/review_words.py", "commands/_review_table.py", "commands/review.py")
    )
    asked = set(re.findall(r'"((?:tui\.review|review|grade|choice)\.[\w.]+)"', source))
    assert len(asked) > 20
    assert sorted(asked - english) == [] and sorted(asked - set(SWEDISH.entries)) == []


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

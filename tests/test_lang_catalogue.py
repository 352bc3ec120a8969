"""One catalogue of words for the terminal and the browser app (issue 24).

The words are ``web/static/lang/en.json`` and ``sv.json``: one ICU MessageFormat message per
key, read by both shells as they are (no JavaScript is parsed). The terminal formats them
with :mod:`chicago.tui.lang.icu`, the browser with ``web/static/js/icu.js``; here both run on
every message of both languages, for every branch of every plural and select, and must give
the same text. Both languages have every key, written with the same parameters; every key the
terminal asks for exists; the formatter's syntax and the choice of the language are checked.
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
from chicago.tui.lang import (
    CODES,
    ENGLISH,
    SWEDISH,
    catalogue,
    choose_lang,
    get_lang,
    lang_from_env,
)
from chicago.tui.lang.icu import (
    Arg,
    Choice,
    MessageError,
    Part,
    Pound,
    arguments,
    format_message,
    parse,
)

PACKAGE = Path(chicago.__file__).parent
ICU_JS = PACKAGE / "web" / "static" / "js" / "icu.js"
OPTION_PREFIX = "tui.opt."
"""Descriptions of the rule options: English is the Rules class's own documentation
(chicago.tui.rules_help.option_description), so only Swedish has these keys
(tests/test_tui_render.py checks one per field of Rules)."""


# ------------------------------------------------------------------ the JavaScript formatter
_RUNNER = """
const { formatMessage } = await import(
  "data:text/javascript;charset=utf-8," + encodeURIComponent(SOURCE));
const out = CASES.map(([message, params]) => {
  try { return formatMessage(message, params); } catch (error) { return "ERROR " + error.name; }
});
"""


def run_browser_formatter(cases: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """``web/static/js/icu.js`` run on every (message, params): in Node.js, else in Debian's
    chromium through Playwright."""
    source = ICU_JS.read_text(encoding="utf-8")
    node = shutil.which("node") or shutil.which("nodejs")
    if node:
        script = (
            "let INPUT='';process.stdin.on('data',d=>INPUT+=d);process.stdin.on('end',async()=>{"
            "const {SOURCE, CASES}=JSON.parse(INPUT);" + _RUNNER
            + "process.stdout.write(JSON.stringify(out));});"
        )
        result = subprocess.run(
            [node, "--input-type=module", "-e", script],
            input=json.dumps({"SOURCE": source, "CASES": cases}),
            capture_output=True, text=True, timeout=120, check=True,
        )
        return list(json.loads(result.stdout))
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if sync_playwright is None or not Path(chromium).exists():
        if os.environ.get("CHICAGO_REQUIRE_CHROMIUM"):
            pytest.fail("neither Node.js nor chromium with Playwright can run icu.js")
        pytest.skip("neither Node.js nor chromium with Playwright is installed")
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        outputs = page.evaluate(
            "async ([SOURCE, CASES]) => {" + _RUNNER + "return out; }", [source, cases]
        )
        browser.close()
    return list(outputs)


# ------------------------------------------------------------------ parameters for a message
def _choices(parts: tuple[Part, ...]) -> list[Choice]:
    found: list[Choice] = []
    for part in parts:
        if isinstance(part, Choice):
            found.append(part)
            for _, inner in part.branches:
                found.extend(_choices(inner))
    return found


def _values_for(choices: list[Choice]) -> list[Any]:
    """Values that reach every branch of the plurals and selects on one parameter, and
    its absence (``...``)."""
    values: list[Any] = [...]
    for choice in choices:
        if choice.kind == "plural":
            exact = [float(k[1:]) for k, _ in choice.branches if k.startswith("=")]
            values += [0, 1, -1, 2, 7, 2.5, *[int(x) if x.is_integer() else x for x in exact]]
        else:
            for key, _ in choice.branches:
                values.append({"true": True, "false": False}.get(key, key))
            values += [True, False, "other-text", None]
    unique: list[Any] = []
    for value in values:
        if not any(type(value) is type(u) and value == u for u in unique):
            unique.append(value)
    return unique


def parameter_sets(message: str) -> list[dict[str, Any]]:
    """Parameter sets for ``message``: every value that changes a branch of each selecting
    parameter, in combination (at most a few hundred), with texts and numbers for the rest."""
    parts = parse(message)
    by_name: dict[str, list[Choice]] = {}
    for choice in _choices(parts):
        by_name.setdefault(choice.name, []).append(choice)
    plain = {name: f"‹{name}›" for name, use in arguments(message).items() if use == "value"}
    names = sorted(by_name)
    grids = [_values_for(by_name[name]) for name in names]
    sets: list[dict[str, Any]] = [{}, dict(plain)]
    for combination in itertools.islice(itertools.product(*grids), 400):
        params = dict(plain)
        for name, value in zip(names, combination, strict=True):
            if value is not ...:
                params[name] = value
        sets.append(params)
    return sets


def _shown(parts: tuple[Part, ...], number: str | None = None) -> set[str]:
    """The parameters a message writes out: ``{name}`` and a plural's ``#``."""
    found: set[str] = set()
    for part in parts:
        if isinstance(part, Arg):
            found.add(part.name)
        elif isinstance(part, Pound) and number is not None:
            found.add(number)
        elif isinstance(part, Choice):
            inner_number = part.name if part.kind == "plural" else number
            for _, inner in part.branches:
                found |= _shown(inner, inner_number)
    return found


# ------------------------------------------------------------------ the catalogue
def test_both_languages_have_every_key() -> None:
    """Every key is in English and in Swedish (but for the rule options' descriptions, whose
    English is the Rules class's documentation), and the files hold texts only."""
    english, swedish = catalogue("en"), catalogue("sv")
    assert len(english) > 900
    assert sorted(set(english) - set(swedish)) == []
    assert sorted(k for k in set(swedish) - set(english) if not k.startswith(OPTION_PREFIX)) == []
    for book in (english, swedish):
        assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in book.items())


@pytest.mark.parametrize("code", ["en", "sv"])
def test_every_message_is_valid(code: str) -> None:
    """Each message parses (a stray brace or a plural without ``other`` fails here)."""
    for key, message in catalogue(code).items():
        try:
            parse(message)
        except MessageError as error:
            pytest.fail(f"{code} {key}: {error}")


def test_both_languages_write_the_same_parameters() -> None:
    """A key's messages write out the same parameters in both languages (a name, a number,
    a card the other leaves out would be a mistranslation); a parameter may choose a word
    form in one language only (English verbs agree with "you", Swedish ones do not), but
    Swedish never asks for one that the English text has no use for."""
    english, swedish = catalogue("en"), catalogue("sv")
    differing = []
    for key, message in english.items():
        other = swedish[key]
        if _shown(parse(message)) != _shown(parse(other)):
            differing.append((key, sorted(_shown(parse(message))), sorted(_shown(parse(other)))))
        assert set(arguments(other)) <= set(arguments(message)), key
    assert differing == []


def test_both_formatters_give_the_same_text_for_every_message() -> None:
    """icu.js (in a JavaScript engine) and chicago.tui.lang.icu give the same text for every
    message of both catalogues, for every branch of every plural and select, with
    parameters missing, and for the syntax's corner cases."""
    corners = [
        "It''s", "'{'literal'}'", "'#' and '|", "don't {x}", "{x, select, a {A} other {O}}",
        "{n, plural, =0 {zero} =2 {two} one {one #} other {# many {x}}}",
        "{n, plural, other {{you, select, true {# you} other {# them}}}}",
        "{a, select, x {{b, plural, one {# b} other {# bs}}} other {-}}",
        "  { spaced }  ", "{n, plural, one {a} other {b}} #",
    ]
    cases: list[tuple[str, dict[str, Any]]] = []
    for message in corners:
        cases += [(message, params) for params in parameter_sets(message)]
    for code in CODES:
        for message in catalogue(code).values():
            cases += [(message, params) for params in parameter_sets(message)]
    assert len(cases) > 5000
    browser = run_browser_formatter(cases)
    terminal = [format_message(message, params) for message, params in cases]
    different = [
        (message, params, want, got)
        for (message, params), want, got in zip(cases, browser, terminal, strict=True)
        if want != got
    ]
    assert different[:5] == []
    assert format_message(corners[1], {}) == "{literal}"


@pytest.mark.parametrize("message", [
    "{", "}", "{n", "{n, plural, one {a}}", "{n, number}", "{n, select, =1 {a} other {b}}",
    "{n, plural, one {a} one {b} other {c}}", "{1}", "{n, plural, other {a}",
])
def test_a_broken_message_is_refused_by_both_formatters(message: str) -> None:
    with pytest.raises(MessageError):
        parse(message)
    assert run_browser_formatter([(message, {})]) == ["ERROR MessageError"]


def test_a_message_in_words() -> None:
    """The forms the catalogue uses, in the terminal's formatter (V-ONE-UP words aside)."""
    exchange = catalogue("en")["ev.exchange"]
    assert format_message(exchange, {"Who": "You", "you": True, "n": 1}) == \
        "You exchange 1 card."
    assert format_message(exchange, {"Who": "Bo", "you": False, "n": 3}) == \
        "Bo exchanges 3 cards."
    throw = catalogue("sv")["hint.throw_n"]
    assert [format_message(throw, {"n": n}) for n in (0, 2)] == ["dra inget", "släng 2"]
    assert format_message(catalogue("en")["table.points"], {"n": -1}) == "-1 point"
    assert format_message("{x} {y}", {"x": True, "y": None}) == "true null"
    assert format_message("{x}", {"x": 3.0}) == "3"


def test_every_key_the_terminal_asks_for_is_in_both_catalogues() -> None:
    """The literal keys in the terminal's source exist in English and Swedish (a missing one
    would show as its key), whether only the terminal uses them or both shells do."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in (PACKAGE / "tui").glob("*.py"))
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
    chicago.commands._review_table): the review words both shells use (review.*, grade.*,
    choice.*) and the terminal's tui.review.* keys, also those built from a phase or a
    grade."""
    from chicago.review import Grade
    from chicago.review.summary import PHASE_ORDER

    families = ("tui.review.", "review.", "grade.", "choice.")
    english = {k for k in ENGLISH.entries if k.startswith(families)}
    assert len(english) > 80
    for phase in PHASE_ORDER:
        key = phase.replace(" ", "_")
        for family in ("review.phase.", "tui.review.short.", "tui.review.phases."):
            assert f"{family}{key}" in english and f"{family}{key}" in SWEDISH.entries
    assert {f"grade.{g.value}" for g in Grade} <= english
    source = "\n".join(
        (PACKAGE / path).read_text(encoding="utf-8")
        for path in ("tui/review_words.py", "commands/_review_table.py", "commands/review.py")
    )
    asked = set(re.findall(r'"((?:tui\.review|review|grade|choice)\.[\w.]+)"', source))
    assert len(asked) > 20
    assert sorted(asked - english) == [] and sorted(asked - set(SWEDISH.entries)) == []


# ------------------------------------------------------------------ the language
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

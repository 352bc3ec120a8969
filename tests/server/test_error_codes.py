"""Every error code the server sends is in its one list, ``protocol.ERROR_CODES`` (with its
default words), and has words in both languages of the app's catalogues (``err.CODE`` in
web/static/lang/en.json and sv.json).

The codes sent are read from the server's source (its syntax tree): the first argument of a
``TableError``, ``ProtocolError`` or ``TournamentRefused``, the code of an ``error_frame`` or
of an ``_error`` answer (with the HTTP statuses mapped to codes), a ``code=`` default or
keyword, and a ``{"code": …}`` literal. Before: ``bad_request``, ``bad_rules``,
``seat_taken``, ``unknown_game`` (and ``not_found``, ``method_not_allowed``, ``http_error``,
``unknown_exercise``, ``bad_action``) were sent but not listed, so ``ProtocolError`` and
``TableError`` fell back to the bare code as their words and docs/PROTOCOL.md's list missed
them.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from chicago.server import protocol
from chicago.web import STATIC_DIR

SERVER = Path(protocol.__file__).resolve().parent
_CODE = re.compile(r"[a-z]+(?:_[a-z]+)*")
_RAISERS = {"TableError": 0, "ProtocolError": 0, "TournamentRefused": 0, "error_frame": 1,
            "_cap": 1}
"""Calls whose positional argument at that index is the code (``Admission._cap(message,
code)`` makes the 429 of a cap)."""


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _codes_in(node: ast.AST) -> set[str]:
    """The code-like string constants of an expression (``codes.get(status, "http_error")``
    names one too)."""
    return {n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and _CODE.fullmatch(n.value)}


def _sent(tree: ast.AST) -> set[str]:
    codes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in _RAISERS and len(node.args) > _RAISERS[name]:
                codes |= _codes_in(node.args[_RAISERS[name]])
            elif name == "_error" and node.args:
                # lobby._error(status, code, message), static._error(code, message)
                first = node.args[0]
                is_status = not (isinstance(first, ast.Constant) and isinstance(first.value, str))
                arg = node.args[1] if is_status and len(node.args) > 1 else first
                codes |= _codes_in(arg)
            codes |= {c for k in node.keywords if k.arg == "code" for c in _codes_in(k.value)}
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                # {"code": …}, or {404: "not_found", …}: the code of an HTTP status
                if isinstance(key, ast.Constant) and (
                        key.value == "code"
                        or (isinstance(key.value, int) and 400 <= key.value < 600)):
                    codes |= _codes_in(value)
        elif isinstance(node, ast.arguments):
            named = [*node.posonlyargs, *node.args]
            defaults = dict(zip([a.arg for a in named[len(named) - len(node.defaults):]],
                                node.defaults, strict=True))
            defaults |= {a.arg: d for a, d in zip(node.kwonlyargs, node.kw_defaults,
                                                   strict=True) if d is not None}
            if "code" in defaults:
                codes |= _codes_in(defaults["code"])
    return codes


def sent_codes() -> dict[str, set[str]]:
    """Every error code the server's source sends, with the files that send it."""
    found: dict[str, set[str]] = {}
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for code in _sent(tree):
            found.setdefault(code, set()).add(str(path.relative_to(SERVER)))
    return found


def _catalogue(lang: str) -> dict[str, str]:
    words: dict[str, str] = json.loads((STATIC_DIR / "lang" / f"{lang}.json")
                                       .read_text(encoding="utf-8"))
    return words


def test_the_reader_finds_the_codes_of_every_way_of_sending_one() -> None:
    tree = ast.parse(
        'raise TableError("alpha", "words", 409)\n'
        'raise ProtocolError("beta")\n'
        'send(error_frame(seq, "gamma", "words"))\n'
        'return _error(400, "delta", "some words")\n'
        'body = _error("epsilon", f"no file {x}")\n'
        'codes = {404: "zeta"}\n'
        'answer = _error(status, codes.get(status, "eta"), "words")\n'
        'def cap(message, code="theta"): ...\n'
        'body = {"error": {"code": "iota", "message": "two words"}}\n'
        'raise TournamentRefused("kappa", "words")\n'
        'raise self._cap("3 tournaments", "lambda")\n')
    assert _sent(tree) == {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta",
                           "theta", "iota", "kappa", "lambda"}


def test_every_code_the_server_sends_is_listed_with_words() -> None:
    sent = sent_codes()
    assert {"bad_json", "not_your_turn", "stale", "rate_limited", "too_many_tables",
            "bad_host", "tournament_over"} <= set(sent)
    missing = {code: sorted(files) for code, files in sent.items()
               if code not in protocol.ERROR_CODES}
    assert missing == {}, f"sent but not in protocol.ERROR_CODES: {missing}"
    for code, words in protocol.ERROR_CODES.items():
        assert words and words != code, code
        assert protocol.TableError(code).message == words
        assert json.loads(protocol.error_frame(3, code))["message"] == words


def test_every_listed_code_is_sent_and_has_words_in_both_languages() -> None:
    sent = set(sent_codes())
    assert set(protocol.ERROR_CODES) - sent == set(), "listed but never sent"
    for lang in ("en", "sv"):
        have = {key[4:] for key in _catalogue(lang) if key.startswith("err.")}
        assert set(protocol.ERROR_CODES) - have == set(), (lang, "codes without words")


def test_the_protocol_reference_names_every_code() -> None:
    """docs/PROTOCOL.md lists the error codes a client may meet."""
    text = (SERVER.parents[2] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    unnamed = sorted(code for code in protocol.ERROR_CODES if f"`{code}`" not in text)
    assert unnamed == []

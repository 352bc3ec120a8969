"""Every ``wait_for_function`` of the browser tests is given a function, never a bare
expression. Playwright polls a bare expression with ``eval`` inside the page, which the
app's Content-Security-Policy forbids (no ``'unsafe-eval'``): such a wait fails with an
EvalError, or only when the condition is not yet true at the first look, that is on a slow
machine (CI failed so). Nor an async function, whose promise Playwright takes as a true
answer at once. A function (``"() => expr"``, ``"(arg) => …"``, ``"function …"``)
is sent as one and called, which the policy allows.

The check reads the tests' sources (no browser): each call's first argument must be a
string whose text the check can see (a literal, an f-string or a module constant) and
which starts as a function.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
FUNCTION = re.compile(r"\s*(function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")
"""The start of a JavaScript function: ``function``, ``(a, b) =>`` or ``a =>``."""
ASYNC = re.compile(r"\s*async\b")
"""An async function: Playwright takes its promise as the answer, which is truthy at once
(tests/web/test_browser_turns.py and test_browser_offline.py once waited so for nothing)."""
HOLE = "\0"
"""Stands for an f-string's replacement field in the text the check sees."""


def _constants(tree: ast.Module) -> dict[str, ast.expr]:
    """The module's ``NAME = value`` assignments."""
    found: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name):
            found[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and (
                node.value is not None):
            found[node.target.id] = node.value
    return found


def _text(node: ast.expr, constants: dict[str, ast.expr]) -> str | None:
    """The string ``node`` makes, as far as the source shows it (f-string fields as
    :data:`HOLE`), or None when it is not a string the check can see."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = [_text(value, constants) if isinstance(value, ast.Constant) else HOLE
                 for value in node.values]
        return None if None in parts else "".join(p for p in parts if p is not None)
    if isinstance(node, ast.Name) and node.id in constants:
        return _text(constants[node.id], constants)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left, constants), _text(node.right, constants)
        return None if left is None or right is None else left + right
    return None


def bare_waits(source: str, filename: str) -> list[str]:
    """Where ``source`` calls ``wait_for_function`` with anything but a visible function
    (``file:line: what``)."""
    tree = ast.parse(source, filename)
    constants = _constants(tree)
    problems = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "wait_for_function"):
            continue
        given = node.args[0] if node.args else next(
            (k.value for k in node.keywords if k.arg == "expression"), None)
        text = None if given is None else _text(given, constants)
        if text is None:
            problems.append(f"{filename}:{node.lineno}: not a string the check can read")
        elif ASYNC.match(text):
            problems.append(f"{filename}:{node.lineno}: an async function (its promise is "
                            "truthy at once: the wait checks nothing)")
        elif not FUNCTION.match(text):
            problems.append(f"{filename}:{node.lineno}: a bare expression: "
                            f"{text.strip()[:60]!r}")
    return problems


def test_every_wait_for_function_is_given_a_function() -> None:
    problems = [problem for path in sorted(TESTS.rglob("*.py"))
                for problem in bare_waits(path.read_text(), str(path.relative_to(TESTS)))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("call", [
    'page.wait_for_function("window.chicago.table.rest === null")',
    'page.wait_for_function("!window.chicago.table.rest")',
    'page.wait_for_function(expression="document.title")',
    'PAUSED = "a === 1"\npage.wait_for_function(PAUSED)',
    'page.wait_for_function(f"!({x})")',
    'page.wait_for_function(build())',
    'page.wait_for_function("(s) " + "&& s")',
    'page.wait_for_function("async () => await f()")',
])
def test_the_check_finds_a_bare_expression(call: str) -> None:
    """The forms that reached CI once (``"!window.chicago.table.rest"``) and their kin."""
    assert bare_waits(call, "example.py")


@pytest.mark.parametrize("call", [
    'page.wait_for_function("() => !window.chicago.table.rest")',
    'page.wait_for_function("(s) => window.x > s", arg=1)',
    'page.wait_for_function("b => window.x > b", arg=1)',
    'page.wait_for_function("""\n  function () { return 1; }""")',
    'IN = "(s) => s"\npage.wait_for_function(IN, arg=2)',
    'page.wait_for_function(f"() => !({x})")',
    'page.wait_for_function(expression="() => document.title")',
])
def test_the_check_lets_a_function_pass(call: str) -> None:
    assert not bare_waits(call, "example.py")

"""axe-core, the accessibility checker, run inside the app's pages (WCAG 2.1 A and AA).

axe-core comes from npm (``tests/web/package.json``, installed by ``.ci/install-axe`` or
``npm ci --prefix tests/web``). It is put in the page by evaluating its file through the
browser's debugging protocol, not by a script tag: the page keeps the server's
Content-Security-Policy, which allows no inline script. :func:`assert_accessible` fails a
test on any violation of a WCAG 2.1 A/AA rule, naming each rule and the elements it found.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

AXE_FILE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

_RUN = """async ([tags]) => {
  const result = await axe.run(document, {
    runOnly: {type: 'tag', values: tags},
    // tagged wcag21a, but "experimental" and so off unless asked for
    rules: {'label-content-name-mismatch': {enabled: true}},
    resultTypes: ['violations'],
  });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) =>
      n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\\s+/g, ' ')),
  }));
}"""


def axe_source() -> str:
    """The text of axe.min.js; the test skips without it (fails where CI requires it)."""
    if not AXE_FILE.is_file():
        reason = (f"axe-core is not installed ({AXE_FILE} missing): run "
                  "`npm ci --prefix tests/web` (.ci/install-axe does)")
        if os.environ.get("CHICAGO_REQUIRE_AXE"):
            pytest.fail(reason)
        pytest.skip(reason)
    return AXE_FILE.read_text(encoding="utf-8")


def violations(page: Any) -> list[dict[str, Any]]:
    """The WCAG 2.1 A/AA violations axe finds in the page as it is now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found: list[dict[str, Any]] = page.evaluate(_RUN, [WCAG_TAGS])
    return found


def assert_accessible(page: Any, where: str) -> None:
    """No WCAG 2.1 A/AA violation in the page; the failure lists each rule and its nodes."""
    found = violations(page)
    lines = [f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"][:6])
             for v in found]
    assert not found, f"axe found {len(found)} violation(s) on {where}:\n" + "\n".join(lines)

"""Draw the browser app's PNG icons from its SVG ones (for the web-app manifest).

``src/chicago/web/static/icons/icon.svg`` (the app's icon, round corners on a clear ground)
and ``maskable.svg`` (the same on a full square, the card inside the safe circle of a
maskable icon) are rendered by Debian's chromium through Playwright at the sizes a browser
asks for when the app is installed. Run after changing an SVG; the PNGs are committed::

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "src" / "chicago" / "web" / "static" / "icons"
SIZES = [("icon.svg", 192, "icon-192.png"), ("icon.svg", 512, "icon-512.png"),
         ("maskable.svg", 512, "maskable-512.png"), ("maskable.svg", 180, "apple-touch-icon.png")]


def main() -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--headless"])
        for source, size, target in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.goto((ICONS / source).as_uri())
            page.screenshot(path=str(ICONS / target), omit_background=True)
            page.close()
            print(f"{target}: {size} x {size} from {source}")
        browser.close()


if __name__ == "__main__":
    main()

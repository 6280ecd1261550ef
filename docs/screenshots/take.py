"""Take the README's Inspect viewer screenshots with headless Chromium (playwright driving the
system's chromium; playwright is not a project dependency, see README "Viewer screenshots").

    python docs/screenshots/take.py http://127.0.0.1:7591 docs/screenshots LOG_FILE_NAME.eval

Assumes ``inspect view --log-dir <dir> --port 7591`` serves a log dir holding LOG_FILE_NAME, a
kopa/oracle run with sample kopa-001, and maybe other logs. Writes viewer-logs.png, viewer-samples.png,
viewer-tool-calls.png and viewer-scores.png. Korean text needs CJK fonts (fonts-noto-cjk).
"""

from __future__ import annotations

import re
import sys
import tempfile

from playwright.sync_api import Page, sync_playwright

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
         "--disable-component-update", "--disable-sync"]
SAMPLE = "kopa-001"


def settle(page: Page, ms: int = 2500) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(ms)


def main(base: str, out: str, log: str) -> None:
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="chrome-"), executable_path="/usr/bin/chromium", headless=True, args=FLAGS,
            viewport={"width": 1280, "height": 720})
        page = ctx.new_page()
        page.goto(base + "/", wait_until="networkidle")
        settle(page)
        page.screenshot(path=f"{out}/viewer-logs.png", clip={"x": 0, "y": 0, "width": 1280, "height": 240})
        page.goto(f"{base}/#/tasks/{log}", wait_until="networkidle")
        settle(page)
        page.screenshot(path=f"{out}/viewer-samples.png")
        page.get_by_text(SAMPLE, exact=True).first.click()
        settle(page)
        page.get_by_role("tab", name="Messages").first.click()
        settle(page)
        # Scroll past the system prompt and the question to the first tool calls.
        user = page.get_by_text(re.compile(r"^user$", re.I)).first
        user.evaluate("e => e.scrollIntoView({block: 'start'})")
        settle(page, 1000)
        page.screenshot(path=f"{out}/viewer-tool-calls.png")
        page.get_by_role("tab", name="Scoring").first.click()
        settle(page)
        page.screenshot(path=f"{out}/viewer-scores.png")
        ctx.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])

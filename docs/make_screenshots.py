"""Screenshots of the board for the README and the docs, taken in Chromium at 1280x720 from a
real ``perfectplay serve``: ``python docs/make_screenshots.py`` (needs the ``web`` and ``test``
extras and ``apt-get install chromium chromium-driver``) rewrites ``docs/images/board-*.png``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
sys.path.insert(0, str(ROOT / "tests"))

from web_server import chromium, running  # noqa: E402  (the tests' own server runner)

# (file, fragment, what must be on the page before the picture is taken)
SHOTS = [
    ("board-connect4.png", "game=connect4&start=4453", "#overlay g.hint"),
    (
        "board-connect4-end.png",
        "game=connect4&play=4,4,4,4,4,1,3,2,2,2,2,4,2,3,1,1,1,1,1,2,3,3,3,3,5,6,5,5,6,6,6,6,6,"
        "7,7,7,7,7,7,5,5",
        "#winning-line",
    ),
]


def main() -> int:
    browser = chromium(1280, 720)
    if browser is None:
        print("needs Chromium and its driver: apt-get install chromium chromium-driver")
        return 1
    try:
        with running("--workers", "2") as server:
            for name, fragment, ready in SHOTS:
                browser.get(f"{server.url}/#{fragment}")
                deadline = time.monotonic() + 60
                while not browser.execute_script(
                    f"return document.querySelector({ready!r}) !== null && "
                    "!document.querySelector('#history-chart .pending')"
                ):
                    if time.monotonic() > deadline:
                        print(f"{name}: the page showed no {ready} within 60 s")
                        return 1
                    time.sleep(0.2)
                time.sleep(0.5)  # the last drawing settles
                browser.save_screenshot(str(IMAGES / name))
                print(IMAGES / name)
    finally:
        browser.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())

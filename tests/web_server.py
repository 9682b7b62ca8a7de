"""A real ``perfectplay serve`` in a child process, for the API and browser tests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

PREFIX = "perfectplay: the board is at "


class Server:
    def __init__(self, process: subprocess.Popen[str], url: str) -> None:
        self.process, self.url = process, url

    def get(self, path: str, timeout: float = 30) -> tuple[int, Any]:
        """(status, decoded JSON) of ``GET path``."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            with error:  # it holds the connection open until closed
                return error.code, json.loads(error.read())

    def children(self, workers_only: bool = True) -> set[int]:
        """The server's search processes (with ``workers_only=False``, every child: the
        multiprocessing resource tracker too)."""
        found = set()
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        fields = stat.read().rpartition(")")[2].split()
                except OSError:
                    continue
                if int(fields[1]) != self.process.pid or fields[0] == "Z":
                    continue
                try:
                    with open(f"/proc/{entry}/cmdline", "rb") as command:
                        worker = b"spawn_main" in command.read()
                except OSError:
                    continue
                if worker or not workers_only:
                    found.add(int(entry))
        return found


@contextmanager
def running(*options: str, backend: str | None = None) -> Iterator[Server]:
    """``perfectplay serve --port 0`` with ``options``, stopped by Ctrl-C (SIGINT) at the end."""
    env = dict(os.environ)
    if backend is not None:
        env["PERFECTPLAY_BACKEND"] = backend
    process = subprocess.Popen(
        [sys.executable, "-m", "perfectplay", "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith(PREFIX):
            process.kill()
            raise AssertionError(f"the server did not start: {line!r} {process.communicate()[1]}")
        server = Server(process, line[len(PREFIX) :].split()[0].rstrip("/"))
        # The line comes once the server accepts connections: the first request is answered,
        # with no retry.
        server.get("/api/games", timeout=30)
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def chromium(width: int = 1400, height: int = 1000) -> Any:
    """A headless Chromium (Debian's, driven by Selenium) whose page is ``width`` x ``height``
    pixels; None when Chromium or its driver is missing."""
    import shutil
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    class Chromium(webdriver.Chrome):
        """Chromium whose temporary files (its profile, its singleton socket, which it leaves
        in the temporary folder when its driver stops it) live in one folder, removed at
        ``quit()``."""

        def __init__(self, scratch: tempfile.TemporaryDirectory[str], **kwargs: Any) -> None:
            self.scratch = scratch
            super().__init__(**kwargs)

        def quit(self) -> None:
            try:
                super().quit()
            finally:
                self.scratch.cleanup()

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        return None
    scratch = tempfile.TemporaryDirectory(prefix="perfectplay-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument(f"--user-data-dir={scratch.name}/profile")
    service = Service(driver, env={**os.environ, "TMPDIR": scratch.name})
    browser = Chromium(scratch, service=service, options=options)
    # The page gets exactly these pixels (a window's size would include its frame).
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    return browser

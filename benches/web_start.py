"""How soon ``perfectplay serve`` prints its address and answers its first Connect Four
request, in fresh processes: ``python benches/web_start.py [--rounds N]``. The first request
is sent the moment the address is printed and retried (every 20 ms) only if it is refused:
``refused`` counts the rounds where the address came before the server listened."""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time
import urllib.request


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    printed, answered, refused = [], [], 0
    for _ in range(args.rounds):
        began = time.perf_counter()
        server = subprocess.Popen(
            [sys.executable, "-m", "perfectplay", "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert server.stdout is not None
        line = server.stdout.readline()
        printed.append(time.perf_counter() - began)
        url = line.split()[5].rstrip("/")
        first = True
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/analyze?game=connect4", timeout=60):
                    break
            except OSError:
                refused += first
                first = False
                time.sleep(0.02)
        answered.append(time.perf_counter() - began)
        server.send_signal(signal.SIGINT)
        server.wait(30)
    print(
        f"address printed: median {statistics.median(printed):.2f} s; first Connect Four "
        f"answer: median {statistics.median(answered):.2f} s (slowest {max(answered):.2f} s); "
        f"refused at the printed address in {refused} of {args.rounds} rounds"
    )


if __name__ == "__main__":
    main()

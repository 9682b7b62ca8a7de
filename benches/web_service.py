"""The board as a service under load: ``python benches/web_service.py`` starts ``perfectplay
serve`` (two search processes, the defaults otherwise), then 200 concurrent clients ask it for
the analysis of random 7x6 Connect Four positions (random play from the empty board, 0 to 35
stones), each client one request after another on a kept-alive connection of its own, while
a few of the 200 ask m,n,k 5x5 k=4 positions that need long searches. It prints the latency of
the Connect Four requests (median, p90, p99, slowest), the answers by HTTP status and the
requests a second: one slow request must never hold up the others.

Options: ``--clients`` (200), ``--requests`` each (5), ``--slow`` clients among them (4),
``--seed``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from perfectplay import connect4
from web_server import running


def random_moves(rng: random.Random) -> list[int]:
    """The actions of a random game from the empty board, stopped at 0 to 35 stones (earlier
    when it ends: a position still going on)."""
    position = connect4.Position()
    moves: list[int] = []
    for _ in range(rng.randint(0, 35)):
        column = rng.choice(position.legal_moves)
        after = position.play(column)
        if after.is_over:
            break
        position = after
        moves.append(column)
    return moves


def slow_query(rng: random.Random) -> str:
    """An m,n,k 5x5 k=4 position with two stones: a search of millions of nodes."""
    cells = rng.sample(range(25), 2)
    return urlencode(
        {"game": "mnk", "rows": 5, "cols": 5, "k": 4, "moves": ",".join(map(str, cells))}
    )


async def client(
    host: str, port: int, queries: list[str], results: list[tuple[str, int, float]], kind: str
) -> None:
    """One client: one kept-alive connection, its requests one after another, as a browser
    sends them."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        results.extend((kind, 0, float("nan")) for _ in queries)
        return
    try:
        for query in queries:
            started = time.perf_counter()
            request = f"GET /api/analyze?{query} HTTP/1.1\r\nHost: {host}\r\n\r\n"
            writer.write(request.encode())
            await writer.drain()
            status_line = await reader.readline()
            if not status_line:  # the server closed the connection
                results.append((kind, 0, float("nan")))
                return
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            await reader.readexactly(length)
            results.append((kind, int(status_line.split()[1]), time.perf_counter() - started))
    except (OSError, asyncio.IncompleteReadError) as error:
        print(f"{kind} client: {error!r}", file=sys.stderr)
        results.append((kind, 0, float("nan")))
    finally:
        writer.close()


async def load(url: str, args: argparse.Namespace) -> tuple[list[tuple[str, int, float]], float]:
    split = urlsplit(url)
    host, port = split.hostname or "127.0.0.1", split.port or 80
    rng = random.Random(args.seed)
    results: list[tuple[str, int, float]] = []
    tasks = []
    for index in range(args.clients):
        if index < args.slow:
            queries = [slow_query(rng) for _ in range(args.requests)]
            kind = "slow"
        else:
            queries = [
                urlencode({"game": "connect4", "moves": ",".join(map(str, random_moves(rng)))})
                for _ in range(args.requests)
            ]
            kind = "connect4"
        tasks.append(client(host, port, queries, results, kind))
    started = time.perf_counter()
    await asyncio.gather(*tasks)
    return results, time.perf_counter() - started


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--requests", type=int, default=5, help="requests per client")
    parser.add_argument("--slow", type=int, default=4, help="clients asking slow searches")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with running("--workers", "2") as server:
        results, elapsed = asyncio.run(load(server.url, args))
    statuses = collections.Counter((kind, status) for kind, status, _ in results)
    quick = [seconds for kind, status, seconds in results if kind == "connect4" and status == 200]
    count = sum(1 for kind, _, _ in results if kind == "connect4")
    print(json.dumps({f"{kind} {status}": n for (kind, status), n in sorted(statuses.items())}))
    print(
        f"{args.clients} clients ({args.slow} slow), {len(results)} requests in {elapsed:.1f} s "
        f"({len(results) / elapsed:.0f} a second)"
    )
    if quick:
        print(
            f"Connect Four 7x6, {len(quick)} of {count} answered: median "
            f"{statistics.median(quick) * 1000:.0f} ms, p90 {percentile(quick, 0.9) * 1000:.0f} "
            f"ms, p99 {percentile(quick, 0.99) * 1000:.0f} ms, slowest {max(quick) * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

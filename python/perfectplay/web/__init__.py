"""A local analysis board for every registered game, and the JSON API it reads.

``perfectplay serve`` (or ``serve()``) starts it; it needs the ``web`` extra
(``pip install 'perfectplay[web]'``: Starlette and uvicorn). The page is plain HTML, JS and
SVG shipped in the package: no build step, nothing fetched from another site.

The API (every answer JSON; bad input a 4xx whose ``error`` is the library's message):

- ``GET /api/games``: the games, their options and defaults, how a position is pasted.
- ``GET /api/position?game=G&OPTION=V...&start=TEXT&moves=A,B,...``: the board after the
  actions ``moves`` from ``start`` (a pasted position; empty: the game's start), without
  searching: its cells, SVG, side to move, winner and legal actions.
- ``GET /api/analyze?...`` (the same parameters): the position's ``value`` and ``plies`` for
  the side to move, and every legal move with its value and plies, best first (``source``
  says whether a search, a tablebase or the tic-tac-toe table answered). A position too hard
  for the server's node limit or time bound is a 422.
- ``GET /api/agent?...&skill=S&seed=N``: the perfect agent's move at that skill.
- ``GET /api/tablebases``: the loaded tablebases; ``GET /api/tablebase/stats?rows=&cols=&k=``
  their counts by value and plies; ``GET /api/tablebase/examples?rows=&cols=&k=&value=&plies=``
  boards of one count.

Every request is answered once, where its cost calls for: what a table answers (tic-tac-toe, a
loaded tablebase) and the searches the game says cost little (``Game.searches_little``: a 7x6
Connect Four position the opening books reach, a nearly full board) in the server itself, so
they never wait behind long searches; every other search in a search process, under the node
limit and the time bound, where a search whose client leaves, or that overruns the bound, is
stopped by ending its process. A client has
``header_seconds`` to send a request's headers; past ``connections`` open connections,
requests are answered 503.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from importlib import resources
from typing import Any

from perfectplay import tablebase
from perfectplay._kernel.args import quoted
from perfectplay._kernel.files import open_regular
from perfectplay._kernel.game import parse_int
from perfectplay._registry import GAMES, game
from perfectplay.errors import SearchLimitExceeded
from perfectplay.web import _jobs
from perfectplay.web._pool import Abandoned, Busy, Failed, Pool, TooSlow

__all__ = [
    "DEFAULT_CONNECTIONS",
    "DEFAULT_HEADER_SECONDS",
    "DEFAULT_NODE_LIMIT",
    "DEFAULT_SECONDS",
    "create_app",
    "serve",
]

#: The most nodes one search of the server may visit: a too-hard position is refused within
#: a fraction of a second (m,n,k 7x7 k=5; Connect Four searches about six times faster).
DEFAULT_NODE_LIMIT = 500_000
#: The most seconds a request may take, waiting for a free search process included.
DEFAULT_SECONDS = 5.0
#: The longest query string accepted; requests with a body are refused (the API is GET only).
MOST_QUERY = 4096
#: Seconds a client has to send a request's headers, once connected or answered.
DEFAULT_HEADER_SECONDS = 10.0
#: Open connections past which requests are answered 503 (Service Unavailable).
DEFAULT_CONNECTIONS = 500

_NEEDS = "the board needs Starlette and uvicorn: pip install 'perfectplay[web]'"
_STATUS = {"ValueError": 400, "TypeError": 400, "IllegalPosition": 400}
_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/board.css": ("board.css", "text/css; charset=utf-8"),
}


class _Refused(Exception):
    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status, self.kind, self.message = status, kind, message


def _moves(text: str) -> list[int]:
    if not text:
        return []
    parts = text.split(",")
    if len(parts) > _jobs.MOST_MOVES:
        raise _Refused(400, "ValueError", f"more than {_jobs.MOST_MOVES} moves")
    try:
        return [parse_int(part) for part in parts]
    except ValueError:
        raise _Refused(
            400,
            "ValueError",
            f"moves are actions joined by commas (digits 0-9), not {quoted(text)}",
        ) from None


def _int(query: Any, name: str) -> int:
    text = query.get(name)
    if text is None:
        raise _Refused(400, "ValueError", f"missing parameter {name}")
    try:
        return parse_int(text)
    except ValueError:
        raise _Refused(
            400, "ValueError", f"{name} must be an integer in the digits 0-9, not {quoted(text)}"
        ) from None


def _request(query: Any) -> _jobs.Request:
    """The position a query names (``game``, the game's options, ``start``, ``moves``)."""
    try:
        chosen = game(query.get("game", ""))
        options = {key: query[key] for key in chosen.options if key in query}
        return _jobs.Request.read(
            chosen.name, options, query.get("start", ""), _moves(query.get("moves", ""))
        )
    except (ValueError, TypeError) as error:
        raise _Refused(400, type(error).__name__, str(error)) from None


def create_app(
    *,
    node_limit: int = DEFAULT_NODE_LIMIT,
    seconds: float = DEFAULT_SECONDS,
    workers: int | None = None,
    tablebases: Sequence[str | os.PathLike[str]] = (),
) -> Any:
    """The board's Starlette application: ``workers`` search processes (default: one a CPU),
    each search under ``node_limit`` nodes and ``seconds``, m,n,k answers from
    ``tablebases`` (files, loaded when the app starts) where their size matches."""
    try:
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import JSONResponse, Response
        from starlette.routing import Route
    except ImportError as error:
        raise ImportError(_NEEDS) from error

    if isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 1:
        raise ValueError(f"node_limit must be a positive int, got {node_limit!r}")
    if not (isinstance(seconds, (int, float)) and 0 < seconds < float("inf")):
        raise ValueError(f"seconds must be a finite, positive number, got {seconds!r}")
    paths = [os.fspath(path) for path in tablebases]
    # Checked here, so a bad file stops the start with the library's message.
    tables = [tablebase.load(path) for path in paths]
    for table in tables:
        table.verify()
    static = resources.files("perfectplay.web").joinpath("static")
    pages = {route: (_page(static.joinpath(name)), kind) for route, (name, kind) in _STATIC.items()}
    pool = Pool(workers or os.cpu_count() or 1, node_limit)

    def refused(error: _Refused) -> Response:
        return JSONResponse({"error": error.message, "type": error.kind}, error.status)

    # The server's own answers: the tables, and the searches that cost little.
    here = _jobs.Searcher(node_limit, tables, game_limits=True)

    async def in_server(job: str, arguments: tuple[Any, ...], *, if_cheap: bool = False) -> Any:
        try:
            return await asyncio.to_thread(_jobs.run, here, job, arguments, if_cheap)
        except (ValueError, TypeError, SearchLimitExceeded) as error:
            kind = type(error).__name__
            raise _Refused(_STATUS.get(kind, 422), kind, str(error)) from None

    async def searched(request: Request, job: str, arguments: tuple[Any, ...]) -> Any:
        """``_jobs.<job>`` answered once: in the server if its cost allows, else in a search
        process."""
        answered = await in_server(job, arguments, if_cheap=True)
        if answered is not _jobs.COSTLY:
            return answered
        try:
            return await pool.run(job, arguments, seconds, request.is_disconnected)
        except Failed as failed:
            if failed.kind == "SearchLimitExceeded":
                raise _Refused(
                    422,
                    failed.kind,
                    f"too hard for this server: {failed.message} (perfectplay serve "
                    "--node-limit raises it)",
                ) from None
            if failed.kind in _STATUS:
                raise _Refused(_STATUS[failed.kind], failed.kind, failed.message) from None
            raise _Refused(500, failed.kind, failed.message) from None
        except TooSlow:
            raise _Refused(
                422, "TooSlow", f"too hard for this server: no answer within {seconds:g} s"
            ) from None
        except Busy:
            raise _Refused(
                503, "Busy", f"every search process stayed busy for {seconds:g} s"
            ) from None

    def endpoint(
        answer: Callable[[Request], Awaitable[Any]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def handle(request: Request) -> Response:
            try:
                return JSONResponse(await answer(request))
            except _Refused as error:
                return refused(error)
            except Abandoned:
                return Response(status_code=499)

        return handle

    async def games(request: Request) -> Any:
        return _jobs.describe_games()

    async def position(request: Request) -> Any:
        query = _request(request.query_params)
        try:
            return await asyncio.to_thread(_jobs.position, query)
        except (ValueError, TypeError) as error:
            raise _Refused(400, type(error).__name__, str(error)) from None

    async def analyze(request: Request) -> Any:
        return await searched(request, "analyze", (_request(request.query_params),))

    async def agent(request: Request) -> Any:
        query = request.query_params
        try:
            skill = float(query.get("skill", "1"))
        except ValueError:
            raise _Refused(400, "ValueError", "skill must be a number from 0 to 1") from None
        if not 0.0 <= skill <= 1.0:
            raise _Refused(400, "ValueError", f"skill must be from 0 to 1, not {skill}")
        seed = _int(query, "seed") if "seed" in query else 0
        return await searched(request, "agent", (_request(query), skill, seed))

    # The game whose positions the tablebases answer (m,n,k): the one that names a key for them.
    tabled = next((each.name for each in GAMES.values() if each.tablebase_key), None)

    async def tablebase_list(request: Request) -> Any:
        return [
            {"game": tabled, "rows": t.rows, "cols": t.cols, "k": t.k, "entries": t.total}
            for t in tables
        ]

    def size(query: Any) -> tuple[int, int, int]:
        return _int(query, "rows"), _int(query, "cols"), _int(query, "k")

    async def stats(request: Request) -> Any:
        return await in_server("stats", size(request.query_params))

    async def examples(request: Request) -> Any:
        query = request.query_params
        most = min(_int(query, "most"), 50) if "most" in query else 8
        chosen = (_int(query, "value"), _int(query, "plies"), most)
        return await in_server("examples", (*size(query), *chosen))

    async def page(request: Request) -> Response:
        body, kind = pages[request.url.path]
        return Response(body, media_type=kind, headers={"Cache-Control": "no-cache"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        await pool.start()
        # The server's own first answers load what they need (Connect Four's books) while it
        # already takes requests: a request before that waits for it, none is refused.
        warming = asyncio.ensure_future(asyncio.to_thread(_jobs.warm_up, here))
        try:
            yield
        finally:
            warming.cancel()
            pool.close()

    routes = [Route(path, page) for path in _STATIC] + [
        Route(f"/api/{name}", endpoint(function))
        for name, function in (
            ("games", games),
            ("position", position),
            ("analyze", analyze),
            ("agent", agent),
            ("tablebases", tablebase_list),
            ("tablebase/stats", stats),
            ("tablebase/examples", examples),
        )
    ]
    app = Starlette(routes=routes, lifespan=lifespan)

    async def limited(scope: Any, receive: Any, send: Any) -> None:
        """Refuses request bodies and long query strings before any route runs."""
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            too_long = len(scope.get("query_string", b"")) > MOST_QUERY
            has_body = int(headers.get(b"content-length", b"0") or 0) > 0
            if too_long or has_body or b"transfer-encoding" in headers:
                status = 414 if too_long else 413
                message = (
                    f"the query is longer than {MOST_QUERY} bytes"
                    if too_long
                    else "the API takes no request bodies"
                )
                body = json.dumps({"error": message, "type": "ValueError"}).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": status,
                        "headers": [(b"content-type", b"application/json")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return limited


def _page(path: Any) -> bytes:
    """A page the package ships, read as every shipped file is: only a regular file (a FIFO
    in its place would hang the start)."""
    with open_regular(str(path)) as file:
        return file.read()


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    node_limit: int = DEFAULT_NODE_LIMIT,
    seconds: float = DEFAULT_SECONDS,
    workers: int | None = None,
    tablebases: Sequence[str | os.PathLike[str]] = (),
    header_seconds: float = DEFAULT_HEADER_SECONDS,
    connections: int = DEFAULT_CONNECTIONS,
) -> None:
    """Serves the board on ``host:port`` (127.0.0.1 unless told otherwise) until Ctrl-C. A
    client has ``header_seconds`` to send a request's headers; past ``connections`` open
    connections, requests are answered 503 until some close."""
    import socket

    try:
        import uvicorn

        from perfectplay.web._protocol import protocol
    except ImportError as error:
        raise ImportError(_NEEDS) from error
    if not (isinstance(header_seconds, (int, float)) and 0 < header_seconds < float("inf")):
        raise ValueError(
            f"header_seconds must be a finite, positive number, got {header_seconds!r}"
        )
    if isinstance(connections, bool) or not isinstance(connections, int) or connections < 1:
        raise ValueError(f"connections must be a positive int, got {connections!r}")

    app = create_app(node_limit=node_limit, seconds=seconds, workers=workers, tablebases=tablebases)
    # Bound here, so the address printed is the real one (``port=0``: any free port).
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        raise OSError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    port = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        http=protocol(header_seconds),
        limit_concurrency=connections,
    )
    if not ipaddress.ip_address(listener.getsockname()[0]).is_loopback:
        print(
            f"perfectplay: warning: listening on {host}, not only on this machine: anyone who "
            "can reach it may use the board and its search processes (no login, plain HTTP); "
            "serve a lab network you trust, or leave --host at 127.0.0.1",
            file=sys.stderr,
            flush=True,
        )

    class Announced(uvicorn.Server):
        """Says where the board is once it accepts connections (its search processes
        started and the socket listening), not before: a script that waits for the line may
        connect at once."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                print(f"perfectplay: the board is at {url} (Ctrl-C stops it)", flush=True)
                if open_browser:
                    import threading
                    import webbrowser

                    threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    Announced(config).run(sockets=[listener])

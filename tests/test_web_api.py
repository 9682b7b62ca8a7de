"""The board's JSON API on a real server: answers equal to the library for every game, bad
input a 4xx carrying the library's message, the node limit and the time bound, cancelled
requests, parallel requests, where it binds, and nothing left running after it."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from perfectplay import tablebase
from perfectplay._kernel import backend as _backend
from perfectplay._kernel import play as _play
from perfectplay._kernel.backend import BACKENDS
from perfectplay._registry import GAMES
from perfectplay.web import DEFAULT_NODE_LIMIT, _jobs
from tests_support import quiet_games
from web_server import Server, running

# The servers here run on the compiled core unless a test says otherwise; the ``server``
# fixture runs one on each backend, so the pure-Python run has nothing to add.
pytestmark = pytest.mark.compiled

SIZES = {
    "tictactoe": {},
    "mnk": {"rows": "3", "cols": "4", "k": "3"},
    "connect4": {"width": "4", "height": "4"},
    "footholds": {"board": "1111/1111/1111", "aloc": "1,0", "bloc": "1,3"},
}


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    # The twin searches slower: a longer time bound for it (the test sizes' openings).
    bound = "120" if request.param == "python" else "5"
    options = ("--workers", "2", "--node-limit", "5000000", "--time-limit", bound)
    with running(*options, backend=request.param) as started:
        started.backend = request.param  # type: ignore[attr-defined]
        yield started


def url(path: str, **params: Any) -> str:
    return f"{path}?{urllib.parse.urlencode(params)}"


def random_line(name: str, rng: random.Random) -> tuple[Any, list[int]]:
    """A random position of the game from its test size, and the actions that reach it."""
    game = GAMES[name]
    options = _play.options_from_text(game, SIZES[name])
    position, actions = game.start(**options), []
    for _ in range(rng.randrange(0, position.cells)):
        if position.is_over:
            break
        action = rng.choice(position.legal_actions)
        actions.append(action)
        position = position.play(position.move(action))
    return position, actions


def test_games_are_the_registry(server: Server) -> None:
    status, games = server.get("/api/games")
    assert status == 200
    assert [game["name"] for game in games] == list(GAMES)
    for game in games:
        assert game["players"] == list(GAMES[game["name"]].players)


@pytest.mark.parametrize("name", list(GAMES))
def test_answers_equal_the_library(server: Server, name: str) -> None:
    rng = random.Random(name)
    api = _backend.implementation(name, server.backend)  # type: ignore[attr-defined]
    assert api is not None
    for _ in range(25):
        position, actions = random_line(name, rng)
        query = {"game": name, **SIZES[name], "moves": ",".join(map(str, actions))}
        status, board = server.get(url("/api/position", **query))
        assert status == 200
        assert board["codes"] == position.to_array().reshape(-1).tolist()
        assert board["to_move"] == position.to_move and board["over"] == position.is_over
        assert [entry["action"] for entry in board["legal"]] == list(position.legal_actions)
        status, answer = server.get(url("/api/analyze", **query))
        assert status == 200
        expected = position.analyze() if not position.is_over else {}
        got = {
            tuple(move["move"]) if isinstance(move["move"], list) else move["move"]: (
                move["value"],
                move["plies"],
            )
            for move in answer["moves"]
        }
        assert got == expected
        ranked = [(move["value"], move["plies"]) for move in answer["moves"]]
        keys = [(-value, plies if value > 0 else -plies) for value, plies in ranked]
        assert keys == sorted(keys), "best first"
        if not position.is_over:
            solution = position.solve()
            assert (answer["value"], answer["plies"]) == (solution.value, solution.plies)
        else:
            assert answer["winner"] == position.winner and answer["moves"] == []


def test_connect_four_past_64_bits(server: Server) -> None:
    """8x8 positions 12 cells from the end: the board and the answers are the library's."""
    for moves in quiet_games(8, 8, 12, 3, seed=8):
        position = GAMES["connect4"].start(width=8, height=8)
        for column in moves:
            position = position.play(column)
        query = {"game": "connect4", "width": 8, "height": 8, "moves": ",".join(map(str, moves))}
        status, board = server.get(url("/api/position", **query))
        assert status == 200 and board["codes"] == position.to_array().reshape(-1).tolist()
        status, answer = server.get(url("/api/analyze", **query))
        assert status == 200
        assert {move["move"]: (move["value"], move["plies"]) for move in answer["moves"]} == (
            position.analyze()
        )


def test_the_agent_plays_a_best_move_at_skill_one(server: Server) -> None:
    rng = random.Random(5)
    for _ in range(10):
        position, actions = random_line("mnk", rng)
        if position.is_over:
            continue
        query = {"game": "mnk", **SIZES["mnk"], "moves": ",".join(map(str, actions))}
        status, answer = server.get(url("/api/agent", **query, skill=1, seed=rng.randrange(99)))
        assert status == 200
        assert tuple(answer["move"]) in position.solve().best_moves


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "tictactoe", "moves": "4,4"}, "move 2: illegal move 4"),
        ({"game": "tictactoe", "moves": "4,x"}, "moves are actions joined by commas"),
        ({"game": "tictactoe", "moves": "99"}, "actions are 0..8"),
        ({"game": "tictactoe", "start": "xxx/ooo/..."}, "both X and O have 3 in a row"),
        ({"game": "mnk", "rows": "four"}, "option rows"),
        ({"game": "mnk", "rows": "9", "cols": "9"}, "at most 64 are supported"),
        ({"game": "connect4", "start": "4444444"}, "column"),
        ({"game": "connect4", "width": "100"}, "does not fit"),
        ({"game": "footholds", "start": "111 1,0"}, "BOARD ALOC BLOC"),
        ({"game": "footholds", "aloc": "7,7"}, "aloc"),
    ],
)
@pytest.mark.parametrize("endpoint", ["position", "analyze"])
def test_bad_input_is_a_4xx_with_the_library_message(
    server: Server, endpoint: str, query: dict[str, str], message: str
) -> None:
    status, answer = server.get(url(f"/api/{endpoint}", **query))
    assert 400 <= status < 500, answer
    assert message in answer["error"]


def test_the_library_message_is_the_one_it_raises(server: Server) -> None:
    with pytest.raises(ValueError) as raised:
        GAMES["tictactoe"].read_position("xxx/ooo/...")
    status, answer = server.get(url("/api/position", game="tictactoe", start="xxx/ooo/..."))
    assert (status, answer["error"], answer["type"]) == (400, str(raised.value), "IllegalPosition")


def test_bad_agent_and_tablebase_requests(server: Server) -> None:
    for path in (
        url("/api/agent", game="tictactoe", skill="2"),
        url("/api/agent", game="tictactoe", skill="lots"),
        url("/api/tablebase/stats", rows=3, cols=3, k=3),
        url("/api/tablebase/stats", rows="x", cols=3, k=3),
        url("/api/tablebase/examples", rows=3, cols=3),
    ):
        status, answer = server.get(path)
        assert 400 <= status < 500 and answer["error"], path


def test_sizes_are_limited(server: Server) -> None:
    status, answer = server.get(url("/api/position", game="tictactoe", start="." * 5000))
    assert status == 414 and "longer than" in answer["error"]
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcd")
        assert connection.recv(100).startswith(b"HTTP/1.1 413")
    status, answer = server.get(url("/api/position", game="tictactoe", moves=",".join(["0"] * 401)))
    assert status == 400 and "more than 400 moves" in answer["error"]


def test_a_too_hard_position_is_a_422_naming_the_limit() -> None:
    with running("--workers", "1", "--node-limit", "20000") as server:
        status, answer = server.get(url("/api/analyze", game="mnk", rows=7, cols=7, k=5))
    assert status == 422 and answer["error"].startswith("too hard for this server: ")
    assert "node_limit=20000" in answer["error"] and "--node-limit" in answer["error"]
    # The default limit refuses it too (the bound, not the time, is what is tested).
    with running("--workers", "1") as server:
        status, answer = server.get(url("/api/analyze", game="mnk", rows=7, cols=7, k=5))
    assert status == 422 and "too hard for this server" in answer["error"]


def test_parallel_requests(server: Server) -> None:
    rng = random.Random(11)
    lines = [random_line("connect4", rng) for _ in range(16)]

    def ask(line: tuple[Any, list[int]]) -> tuple[int, Any]:
        query = {"game": "connect4", **SIZES["connect4"], "moves": ",".join(map(str, line[1]))}
        return server.get(url("/api/analyze", **query))

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(ask, lines))
    for (position, _), (status, answer) in zip(lines, answers, strict=True):
        assert status == 200
        expected = position.analyze() if not position.is_over else {}
        assert {
            move["move"]: (move["value"], move["plies"]) for move in answer["moves"]
        } == expected


def test_static_pages_only() -> None:
    # Every route is fixed: no request path is ever opened as a file.
    with running("--workers", "1") as server:
        for path in ("/../../etc/passwd", "/static/../../pyproject.toml", "/board.js/../x"):
            with pytest.raises(urllib.error.HTTPError) as raised:
                urllib.request.urlopen(server.url + path, timeout=10)
            with raised.value as error:
                assert error.code == 404
        with urllib.request.urlopen(server.url + "/", timeout=10) as page:
            assert b'<script src="/board.js">' in page.read()


def listening_addresses(port: int) -> set[str]:
    """The local addresses of the listening TCP sockets on ``port`` (from /proc/net/tcp)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.partition(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


def test_binds_only_where_told() -> None:
    with running("--workers", "1") as server:
        port = int(server.url.rsplit(":", 1)[1])
        assert listening_addresses(port) == {"0100007F"}  # 127.0.0.1 only
    with running("--workers", "1", "--host", "0.0.0.0") as server:
        port = int(server.url.rsplit(":", 1)[1])
        assert listening_addresses(port) == {"00000000"}
        # Beyond this machine, a clear warning (printed as the board starts).
        assert server.process.stderr is not None
        warning = server.process.stderr.readline()
        assert "warning: listening on 0.0.0.0, not only on this machine" in warning, warning


def test_the_time_bound_stops_a_search_and_a_left_request_stops_its_search() -> None:
    with running("--workers", "1", "--node-limit", str(10**15), "--time-limit", "1") as server:
        before = server.children()
        assert len(before) == 1
        started = time.monotonic()
        status, answer = server.get(url("/api/analyze", game="mnk", rows=7, cols=7, k=5))
        assert status == 422 and "no answer within 1 s" in answer["error"]
        assert time.monotonic() - started < 30  # a bound, not a benchmark: never minutes
        # Its process was ended and replaced.
        replaced = wait_for(lambda: (server.children() - before) and len(server.children()) == 1)
        assert replaced
        # A client that leaves: its search stops (its process is replaced) well before the
        # time bound would have ended it.
    with running("--workers", "1", "--node-limit", str(10**15), "--time-limit", "600") as server:
        before = server.children()
        host, port = server.url.removeprefix("http://").split(":")
        path = url("/api/analyze", game="mnk", rows=7, cols=7, k=5)
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            time.sleep(1)  # the search is under way; then the client leaves
        assert wait_for(lambda: (server.children() - before) and len(server.children()) == 1)
        status, _ = server.get(url("/api/analyze", game="tictactoe"))
        assert status == 200


def wait_for(condition: Any, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_nothing_outlives_the_server() -> None:
    with running("--workers", "2") as server:
        # A worker just forked shows the server's command line until its exec: wait for both.
        assert wait_for(lambda: len(server.children()) == 2)
        children = server.children(workers_only=False)

    def ended(pid: int) -> bool:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"
        except OSError:
            return True

    # The resource tracker leaves when the server's end of its pipe closes: moments later.
    assert wait_for(lambda: all(ended(pid) for pid in children), seconds=10)


@pytest.fixture(scope="module")
def table_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tables") / "3x4k3.pptb"
    tablebase.build(3, 4, 3).save(path)
    return path


def test_tablebase_answers_stats_and_examples(table_file: Path) -> None:
    table = tablebase.load(table_file)
    # The twin counts a table's symmetries slowly: a long bound.
    with running("--workers", "1", "--tablebase", str(table_file), "--time-limit", "300") as server:
        status, listed = server.get("/api/tablebases")
        assert status == 200 and listed == [
            {"game": "mnk", "rows": 3, "cols": 4, "k": 3, "entries": len(table.data)}
        ]
        rng = random.Random(3)
        for _ in range(10):
            position, actions = random_line("mnk", rng)
            query = {"game": "mnk", **SIZES["mnk"], "moves": ",".join(map(str, actions))}
            status, answer = server.get(url("/api/analyze", **query))
            assert status == 200 and answer["source"] == "tablebase"
            got = {tuple(m["move"]): (m["value"], m["plies"]) for m in answer["moves"]}
            assert got == (position.analyze() if not position.is_over else {})
        status, stats = server.get(url("/api/tablebase/stats", rows=3, cols=4, k=3))
        expected = table.stats()
        assert status == 200, stats
        assert stats["reachable"] == expected["reachable"]
        assert {(c["value"], c["plies"]): c["count"] for c in stats["counts"]} == expected[
            "by_value_plies"
        ]
        for (value, plies), count in list(expected["by_value_plies"].items())[:6]:
            status, found = server.get(
                url("/api/tablebase/examples", rows=3, cols=4, k=3, value=value, plies=plies)
            )
            assert status == 200 and len(found["boards"]) == min(count, 8)
            for board in found["boards"]:
                solution = table.solve(board)
                assert (solution.value, solution.plies) == (value, plies)


def test_a_damaged_tablebase_stops_the_start(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pptb"
    bad.write_bytes(b"not a table")
    result = subprocess.run(
        [sys.executable, "-m", "perfectplay", "serve", "--port", "0", "--tablebase", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "perfectplay serve:" in result.stderr and "not a perfectplay tablebase" in result.stderr


def test_create_app_is_an_asgi_app() -> None:
    # ``create_app`` serves under any ASGI server; Starlette's own test client drives it here.
    from starlette.testclient import TestClient

    from perfectplay.web import create_app

    with TestClient(create_app(workers=1)) as client:
        answer = client.get("/api/analyze", params={"game": "tictactoe", "moves": "4"})
        assert answer.status_code == 200 and answer.json()["value"] == 0
    with pytest.raises(ValueError, match="node_limit must be a positive int"):
        create_app(node_limit=0)


def test_without_the_web_extra_the_command_says_what_to_install() -> None:
    hide = (
        "import sys\n"
        "class Hide:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('starlette', 'uvicorn'):\n"
        "            raise ImportError('hidden for the test')\n"
        "sys.meta_path.insert(0, Hide())\n"
        "from perfectplay.cli import main\n"
        "sys.exit(main(['serve', '--port', '0']))\n"
    )
    result = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True)
    assert result.returncode == 1
    assert "pip install 'perfectplay[web]'" in result.stderr and "Traceback" not in result.stderr


def test_numbers_are_ascii_digits_with_the_apis_own_message(server: Server) -> None:
    for moves in ("\u0663", "\uff13", "\u00b2", "3,\u0664"):
        status, answer = server.get(url("/api/analyze", game="connect4", moves=moves))
        assert status == 400, moves
        assert answer["error"].startswith("moves are actions joined by commas (digits 0-9)")
    status, answer = server.get(url("/api/agent", game="tictactoe", seed="\u00b2"))
    assert status == 400 and answer["error"] == "seed must be an integer in the digits 0-9, not '²'"
    status, answer = server.get(url("/api/position", game="mnk", rows="\uff14", cols=4, k=3))
    assert status == 400 and "expected an integer in the digits 0-9" in answer["error"]


def test_a_client_that_trickles_its_headers_is_cut_off() -> None:
    with running("--workers", "1", "--header-timeout", "1") as server:
        host, port = server.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            started = time.monotonic()
            connection.sendall(b"GET /api/games HTTP/1.1\r\n")
            for _ in range(20):  # a byte now and then, never the end of the headers
                try:
                    connection.sendall(b"X")
                except OSError:
                    break
                time.sleep(0.25)
                connection.settimeout(0.01)
                try:
                    if connection.recv(100) == b"":
                        break
                except TimeoutError:
                    pass
            assert time.monotonic() - started < 4
        # A whole request on a fresh connection is answered as ever.
        assert server.get("/api/games")[0] == 200


def test_help_states_the_connection_limits() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "perfectplay", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert "--header-timeout" in shown and "(default 10)" in shown
    assert "--max-connections" in shown and "(default 500)" in shown


def test_a_cheap_request_does_not_wait_behind_long_searches() -> None:
    """One search process, busy with hard positions; a tic-tac-toe analysis and a Connect Four
    opening the books hold are answered meanwhile, in the server."""
    hard = url("/api/analyze", game="mnk", rows=7, cols=7, k=5)
    limits = ("--workers", "1", "--node-limit", str(10**15), "--time-limit", "20")
    with running(*limits) as server, ThreadPoolExecutor(3) as pool:
        slow = [pool.submit(server.get, hard) for _ in range(3)]
        time.sleep(1)
        assert not any(future.done() for future in slow)
        for query in (
            url("/api/analyze", game="tictactoe", moves="4,0"),
            url("/api/analyze", game="connect4", moves="3,3,3,3"),
        ):
            status, answer = server.get(query, timeout=10)
            assert status == 200 and answer["moves"], query
        assert not all(future.done() for future in slow)


def test_each_request_is_answered_once_where_its_cost_calls_for() -> None:
    """The server answers what a table answers and the searches its game calls cheap itself;
    every other request goes to a search process from the start, never searched first here."""
    searcher = _jobs.Searcher(DEFAULT_NODE_LIMIT, (), game_limits=True)

    def costs_little(name: str, options: dict[str, str], moves: list[int]) -> bool:
        return searcher.costs_little(_jobs.Request.read(name, options, "", moves))

    assert costs_little("tictactoe", {}, [4])
    assert costs_little("connect4", {}, [3, 3, 2])  # 7x6: its books answer at every ply
    assert costs_little("connect4", {}, [0, 1, 0, 1, 1, 0, 1, 0, 2, 3, 3, 2, 5, 6])
    assert costs_little("connect4", {"width": "4", "height": "4"}, [])  # 16 cells
    assert costs_little("mnk", {"rows": "4", "cols": "4", "k": "4"}, [0, 5, 10, 15, 1])
    assert costs_little("footholds", {}, [])
    assert not costs_little("connect4", {"width": "6", "height": "7"}, [0, 1, 0, 1])
    assert not costs_little("connect4", {"width": "8", "height": "7"}, [])
    assert not costs_little("mnk", {"rows": "7", "cols": "7", "k": "5"}, [24])


def test_a_long_bad_request_gets_a_short_message(server: Server) -> None:
    moves = "3," * 60 + "x" * 400
    status, answer = server.get(url("/api/analyze", game="connect4", moves=moves))
    assert status == 400
    assert answer["error"].endswith(f"... ({len(moves)} characters)")
    assert len(answer["error"]) < 150

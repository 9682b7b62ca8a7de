"""The ``perfectplay`` command: judge-style input in, one answer per case out.

Each subcommand reads a file argument or standard input and streams its answers to standard
output. Bad input stops the run with one line on standard error naming the input line and the
problem, and exit status 1 (2 for wrong usage); never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import math
import os
import secrets
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import IO, Any

from perfectplay import __version__, _play, _terminal, openings, stress, tablebase, web
from perfectplay._kernel.args import to_item
from perfectplay._kernel.backend import BACKEND, BACKENDS, implementation
from perfectplay._kernel.board_input import read_mark_grid
from perfectplay._kernel.files import open_regular, write_whole
from perfectplay._registry import GAMES
from perfectplay.errors import SearchLimitExceeded
from perfectplay.judge import FORMATS, InputError, Options, numbered

__all__ = ["main"]


_NPY_HEADER_MOST = 10_000  # numpy's own limit for headers it trusts (np.load's max_header_size)


def _error_text(error: BaseException) -> str:
    """An error's message, never empty (a MemoryError often has none)."""
    if str(error):
        return str(error)
    return "not enough memory" if isinstance(error, MemoryError) else type(error).__name__


def _one_line(message: str, most: int = 300) -> str:
    """A message as one line of at most ``most`` characters."""
    message = " ".join(message.split())
    return message if len(message) <= most else message[: most - 3] + "..."


def _shape(text: str) -> tuple[int, int]:
    """ROWSxCOLS, as argparse reads it."""
    rows, sep, cols = text.lower().partition("x")
    if not (sep and rows.isdigit() and cols.isdigit()):
        raise argparse.ArgumentTypeError(f"expected ROWSxCOLS such as 5x4, got {text!r}")
    return int(rows), int(cols)


def _seconds(text: str) -> float:
    """A finite, positive number of seconds, as argparse reads it (NaN and inf never end)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (math.isfinite(seconds) and seconds > 0):
        raise argparse.ArgumentTypeError(f"expected a finite, positive number, got {text!r}")
    return seconds


def _report_progress(stop: threading.Event, started: float, what: str) -> None:
    """After a second of search, a line on standard error now and then (1, 2, 4, 8 s ...)."""
    wait = 1.0
    while not stop.wait(started + wait - time.monotonic()):
        print(f"perfectplay mnk: still solving {what} ({wait:.0f} s)", file=sys.stderr, flush=True)
        wait *= 2


def _moves_text(moves: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{row},{col}" for row, col in moves) or "-"


def _print_solution(solution: Any) -> None:
    """A solution as the ``mnk`` and ``tablebase probe`` commands print it."""
    print(f"value: {solution.value:+d}" if solution.value else "value: 0")
    print(f"winner: {solution.winner or 'draw'}")
    print(f"plies: {solution.plies}")
    print(f"best moves: {_moves_text(solution.best_moves)}")
    print(f"line: {_moves_text(solution.line)}")


def run_mnk(args: argparse.Namespace) -> int:
    """Solves one m,n,k position and prints value, winner, plies, best moves and the line."""
    api = implementation("mnk", args.backend)
    rows, cols = args.shape
    what = f"{rows}x{cols} k={args.k}"
    limits = {"node_limit": args.node_limit, "table_mb": args.table_mb}
    stop = threading.Event()
    reporter = threading.Thread(
        target=_report_progress, args=(stop, time.monotonic(), what), daemon=True
    )
    reporter.start()
    try:
        if args.board is None:
            solution = api.solve_empty(rows, cols, args.k, **limits)
        else:
            board_rows, board_cols, _ = read_mark_grid(to_item(args.board))
            if (board_rows, board_cols) != (rows, cols):
                raise ValueError(f"the board is {board_rows}x{board_cols}, not {rows}x{cols}")
            solution = api.solve(args.board, args.k, **limits)
    except (ValueError, TypeError, MemoryError, SearchLimitExceeded) as error:
        print(f"perfectplay mnk: {_one_line(_error_text(error))}", file=sys.stderr)
        return 1
    finally:
        stop.set()
    if args.json:
        print(
            json.dumps(
                {
                    "value": solution.value,
                    "winner": solution.winner,
                    "plies": solution.plies,
                    "best_moves": solution.best_moves,
                    "line": solution.line,
                    "nodes": solution.nodes,
                }
            )
        )
    else:
        _print_solution(solution)
    return 0


def run_label(args: argparse.Namespace) -> int:
    """``perfectplay label GAME BOARDS.npy -o LABELS.npz``: batch_solve from .npy to .npz."""
    import numpy as np

    name = "perfectplay label"
    api = implementation(args.game, args.backend)

    def load(path: str, what: str) -> Any:
        try:
            with open_regular(path) as file:
                # numpy reads a header of whatever length the file claims (up to 4 GiB) before
                # judging it; boards' headers are short, so a long one is refused unread.
                version = np.lib.format.read_magic(file)
                length = int.from_bytes(file.read(2 if version == (1, 0) else 4), "little")
                if length > _NPY_HEADER_MOST:
                    raise ValueError(
                        f"its header claims {length:,} bytes; an array of boards needs at most "
                        f"{_NPY_HEADER_MOST:,}"
                    )
                file.seek(0)
                return np.load(file, allow_pickle=False)
        except Exception as error:  # numpy's header parser raises its tokenizer's errors too
            raise InputError(0, f"cannot read {what} {path}: {_error_text(error)}") from None

    try:
        boards = load(args.boards, "boards")
        options: dict[str, Any] = {"moves": args.moves, "errors": args.errors}
        if "node_limit" in inspect.signature(api.batch_solve).parameters:  # not a lookup table
            options.update(threads=args.threads, node_limit=args.node_limit, progress=True)
        # The game's own batch options (registry): --k, or --alocs and --blocs.
        game = GAMES[args.game]
        missing = [f"--{option}" for option in game.batch_options if getattr(args, option) is None]
        if missing:
            print(f"{name}: {game.name} needs {' and '.join(missing)}", file=sys.stderr)
            return 2
        for option in game.batch_options:
            value = getattr(args, option)
            options[option] = value if option == "k" else load(value, option)
        result = game.batch_solve(boards, args.backend, **options)
        # numpy's name rule (``.npz`` added when missing), written whole or not at all.
        output = args.output if str(args.output).endswith(".npz") else f"{args.output}.npz"
        write_whole(output, lambda file: np.savez(file, **result.to_dict()))
    except InputError as error:
        print(f"{name}: {_one_line(str(error).removeprefix('line 0: '))}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, MemoryError, SearchLimitExceeded, OSError) as error:
        print(f"{name}: {_one_line(_error_text(error))}", file=sys.stderr)
        return 1
    statuses = np.bincount(result.status, minlength=3)
    print(
        f"{name}: {len(result)} rows to {args.output}: {statuses[0]} solved, {statuses[1]} bad, "
        f"{statuses[2]} over the node limit",
        file=sys.stderr,
    )
    return 0


def run_stress(args: argparse.Namespace) -> int:
    """``perfectplay stress PROBLEM [options] -- COMMAND``: see ``perfectplay.stress``."""
    name = f"perfectplay stress {args.problem}"
    try:
        if args.python is not None:
            if args.problem != "footholds":
                raise ValueError("--python FILE:FUNCTION is for footholds only")
            if args.program:
                raise ValueError("give --python or a COMMAND after --, not both")
            command = stress.python_command(args.python)
        elif args.program:
            command = args.program
        else:
            raise ValueError("no program to test: give -- COMMAND [ARGS...] (or --python)")
    except ValueError as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    print(f"{name}: seed {seed}", file=sys.stderr, flush=True)
    live = sys.stderr.isatty()

    def progress(passed: int, runs: int, seconds: float) -> None:
        rate = runs / seconds if seconds else 0.0
        print(f"\r{passed} cases passed, {rate:.1f} runs/s ", end="", file=sys.stderr, flush=True)

    def terminate(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)  # unwinds through the run, which stops its programs

    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, terminate) if main_thread else None
    try:
        result = stress.run(
            args.problem,
            command,
            cases=args.cases,
            duration=args.duration,
            seed=seed,
            time_limit=args.time_limit,
            max_size=args.max_size,
            per_run=args.per_run,
            jobs=args.jobs,
            save=args.save,
            progress=progress if live else None,
            backend=args.backend,
        )
    except OSError as error:
        if live:
            print(file=sys.stderr)
        print(
            f"{name}: cannot run {' '.join(command)!r}: {error.strerror or error}", file=sys.stderr
        )
        return 2
    except ValueError as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 2
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
    if live:
        print(file=sys.stderr)
    print(result.report())
    if result.failure is not None and args.save is not None:
        print(f"the failing input is saved in {args.save}", file=sys.stderr)
    return 0 if result.passed else 1


def _build_and_save(
    name: str, build: Callable[[], Any], summary: Callable[[Any], str], output: str
) -> int:
    """Builds a file's contents, saves them to ``output`` and says what it took."""
    started = time.monotonic()
    built = build()
    built.save(output)
    print(
        f"{name}: {summary(built)} in {time.monotonic() - started:.1f} s, saved to {output}",
        file=sys.stderr,
    )
    return 0


def run_tablebase(args: argparse.Namespace) -> int:
    """``perfectplay tablebase build|stats|probe|verify``."""
    name = f"perfectplay tablebase {args.action}"
    try:
        if args.action == "build":
            rows, cols = args.shape
            return _build_and_save(
                name,
                lambda: tablebase.build(rows, cols, args.k, threads=args.threads, progress=True),
                lambda table: f"{rows}x{cols} k={args.k}, {len(table.data):,} entries",
                args.output,
            )
        table = tablebase.load(args.file)
        if args.action == "verify":
            table.verify(args.deep, threads=args.threads, progress=sys.stderr.isatty())
            what = "every entry agrees with" if args.deep else "checksums and a sample agree with"
            print(f"{args.file}: {table.rows}x{table.cols} k={table.k}, {what} the rules")
            return 0
        if args.action == "stats":
            stats = table.stats(progress=sys.stderr.isatty())
            print(f"game: {table.rows}x{table.cols} k={table.k}")
            print(f"reachable positions: {stats['reachable']:,}")
            print(f"up to symmetry: {stats['canonical']:,}")
            by_value = stats["by_value"]
            print(
                f"side to move wins: {by_value[1]:,}, draws: {by_value[0]:,}, "
                f"loses: {by_value[-1]:,}"
            )
            print(f"longest: {stats['longest']['plies']} plies, e.g. {stats['longest']['board']}")
            empty = table.solve_empty(table.rows, table.cols)
            print(f"from the empty board: {empty.winner or 'draw'} in {empty.plies} plies")
            return 0
        solution = table.solve(args.board)
    except (ValueError, TypeError, OSError, MemoryError) as error:
        print(f"{name}: {_one_line(_error_text(error))}", file=sys.stderr)
        return 1
    _print_solution(solution)
    return 0


def run_openings(args: argparse.Namespace) -> int:
    """``perfectplay openings build|verify``."""
    name = f"perfectplay openings {args.action}"
    try:
        if args.action == "build":
            checkpoint = args.checkpoint or f"{args.output}.checkpoint"
            if os.path.exists(checkpoint):
                print(f"{name}: going on from {checkpoint}", file=sys.stderr)
            return _build_and_save(
                name,
                lambda: openings.build(
                    args.depth,
                    width=args.width,
                    height=args.height,
                    threads=args.threads,
                    progress=True,
                    checkpoint=checkpoint,
                ),
                lambda book: (
                    f"{book.width}x{book.height} depth {book.depth}, {len(book):,} positions"
                ),
                args.output,
            )
        if args.file is None:
            book = openings.packaged()
            deep = openings.deep()
            deep.verify(args.sample, seed=args.seed, threads=args.threads)
            print(
                f"{deep.path}: the 12-ply book, {len(deep):,} positions: size, SHA-256, order "
                f"and scores checked, {args.sample:,} re-solved by the search alone "
                f"(seed {args.seed})"
            )
        else:
            book = openings.load(args.file)
            book.verify(args.sample, seed=args.seed, threads=args.threads)
    except (ValueError, TypeError, OSError, MemoryError) as error:
        print(f"{name}: {_one_line(_error_text(error))}", file=sys.stderr)
        return 1
    print(
        f"{book.path}: {book.width}x{book.height} depth {book.depth}, {len(book):,} positions: "
        f"checksum, positions and scores above depth {book.depth} agree with the rules, "
        f"{args.sample:,} re-solved (seed {args.seed})"
    )
    return 0


def _version() -> str:
    return __version__


BACKEND_HELP = (
    f"which implementation answers: rust (the compiled core) or python (the pure-Python "
    f"twin) (default: {BACKEND})"
)
THREADS_HELP = "worker threads (default: every CPU this process may use)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="perfectplay",
        description="Two-player games solved perfectly: judge formats, batch labels, "
        "tablebases, opening books, a stress tester for judge solutions and a board. "
        "perfectplay COMMAND --help tells more of each.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {_version()} ({BACKEND} backend)"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, judge_format in FORMATS.items():
        summary = judge_format.summary
        command = commands.add_parser(
            name, help=summary, description=summary, epilog=judge_format.input_format
        )
        command.add_argument(
            "input",
            nargs="?",
            default="-",
            help="the input file, in the format below (default: standard input)",
        )
        command.add_argument("--backend", choices=BACKENDS, default=BACKEND, help=BACKEND_HELP)
        for argument in judge_format.arguments:
            command.add_argument(*argument.flags, **argument.settings)
    summary = "solve an m,n,k-game: k in a row wins on a ROWSxCOLS board, X first"
    mnk = commands.add_parser("mnk", help=summary, description=summary)
    mnk.add_argument("shape", type=_shape, metavar="ROWSxCOLS", help="the board, such as 4x4")
    mnk.add_argument("k", type=int, metavar="K", help="marks in a row that win, such as 3")
    mnk.add_argument(
        "board",
        nargs="?",
        help="the position: rows of x o . split by /, such as x.../.o../..../.... "
        "(default: the empty board)",
    )
    mnk.add_argument(
        "--node-limit",
        type=int,
        default=None,
        help="give up after this many search nodes, exit status 1 (default: no limit)",
    )
    mnk.add_argument(
        "--table-mb",
        type=float,
        default=None,
        help="the transposition table's size in MiB (default: by the board, at most 96)",
    )
    mnk.add_argument(
        "--json", action="store_true", help="print one JSON object (default: lines of text)"
    )
    mnk.add_argument("--backend", choices=BACKENDS, default=BACKEND, help=BACKEND_HELP)
    summary = "label many positions: a .npy of boards in, a .npz of BatchSolution arrays out"
    label = commands.add_parser("label", help=summary, description=summary)
    label.add_argument("game", choices=tuple(GAMES), help="the game of the boards")
    label.add_argument(
        "boards",
        metavar="BOARDS.npy",
        help="the boards, as batch_solve takes them: (N, rows, cols) codes, such as uint8",
    )
    label.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="LABELS.npz",
        help="the labels' file, written whole or not at all",
    )
    label.add_argument("--k", type=int, help="m,n,k: marks in a row that win (required there)")
    label.add_argument(
        "--alocs", metavar="A.npy", help="footholds: A's cells, (N, 2) or (2,) (required there)"
    )
    label.add_argument(
        "--blocs", metavar="B.npy", help="footholds: B's cells, (N, 2) or (2,) (required there)"
    )
    label.add_argument("--threads", type=int, default=None, help=THREADS_HELP)
    label.add_argument(
        "--node-limit",
        type=int,
        default=None,
        help="search nodes a position may use; past it the row fails (default: no limit)",
    )
    label.add_argument(
        "--moves",
        action="store_true",
        help="also every move's value and plies (default: the positions' alone)",
    )
    label.add_argument(
        "--errors",
        choices=("raise", "mask"),
        default="raise",
        help="raise: stop at the first bad row; mask: mark it in status and go on (default: raise)",
    )
    label.add_argument("--backend", choices=BACKENDS, default=BACKEND, help=BACKEND_HELP)
    summary = "strongly solve whole m,n,k games: build, report, probe, verify tablebase files"
    table = commands.add_parser("tablebase", help=summary, description=summary)
    actions = table.add_subparsers(dest="action", required=True, metavar="ACTION")
    make = actions.add_parser("build", help="solve every position of a game into FILE")
    make.add_argument(
        "shape", type=_shape, metavar="ROWSxCOLS", help="the board, such as 4x4 (20 cells at most)"
    )
    make.add_argument("k", type=int, metavar="K", help="marks in a row that win, such as 4")
    make.add_argument("-o", "--output", required=True, metavar="FILE", help="the table to write")
    make.add_argument("--threads", type=int, default=None, help=THREADS_HELP)
    report = actions.add_parser("stats", help="the whole game: counts by value and plies")
    report.add_argument("file", metavar="FILE", help="a table of tablebase build")
    probe = actions.add_parser("probe", help="solve one position from the table")
    probe.add_argument("file", metavar="FILE", help="a table of tablebase build")
    probe.add_argument(
        "board", metavar="BOARD", help="rows of x o . split by /, such as x.../..../..../...."
    )
    check_file = actions.add_parser(
        "verify", help="check FILE: its checksums and a sample of entries against the rules"
    )
    check_file.add_argument("file", metavar="FILE", help="a table of tablebase build")
    check_file.add_argument(
        "--deep",
        action="store_true",
        help="check every entry against its children, slower (default: a sample)",
    )
    check_file.add_argument("--threads", type=int, default=None, help=THREADS_HELP)
    summary = "Connect Four opening books: build FILE, or verify one"
    books = commands.add_parser("openings", help=summary, description=summary)
    actions = books.add_subparsers(dest="action", required=True, metavar="ACTION")
    make = actions.add_parser("build", help="solve every position of DEPTH stones or fewer")
    make.add_argument(
        "--depth", type=int, required=True, help="the most stones of a book's position, such as 6"
    )
    make.add_argument("--width", type=int, default=7, help="columns of the board (default 7)")
    make.add_argument("--height", type=int, default=6, help="rows of the board (default 6)")
    make.add_argument("-o", "--output", required=True, metavar="FILE", help="the book to write")
    make.add_argument("--threads", type=int, default=None, help=THREADS_HELP)
    make.add_argument(
        "--checkpoint",
        default=None,
        metavar="PATH",
        help="where the scores solved so far are kept, so that a build killed or stopped goes "
        "on from them when run again (default: FILE.checkpoint; removed when the book is saved)",
    )
    check_file = actions.add_parser(
        "verify",
        help="check FILE (default: the packaged books), and re-solve a sample of its deepest "
        "positions by the search alone",
    )
    check_file.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        default=None,
        help="a book of `openings build` (default: the packaged 7x6 book and the 12-ply book)",
    )
    check_file.add_argument(
        "--sample", type=int, default=4, help="positions to re-solve (default 4)"
    )
    check_file.add_argument(
        "--seed", type=int, default=0, help="which positions are drawn (default 0)"
    )
    check_file.add_argument("--threads", type=int, default=None, help=THREADS_HELP)
    summary = "stress-test a judge solution: random cases, compared, the failing one shrunk"
    check = commands.add_parser(
        "stress",
        help=summary,
        description=summary,
        usage="perfectplay stress PROBLEM [options] -- COMMAND [ARGS...]",
    )
    check.add_argument(
        "problem",
        choices=("tictactoe", "alpha", "final", "footholds"),  # stress.PROBLEMS, imported late
        metavar="PROBLEM",
        help="tictactoe, alpha, final or footholds (the formats of those commands)",
    )
    check.add_argument(
        "--python",
        metavar="FILE:FUNCTION",
        help="footholds: test solution(board, aloc, bloc) -> int in FILE, such as "
        "sol.py:solution (default: the COMMAND after --)",
    )
    check.add_argument(
        "--seed", type=int, default=None, help="the random seed (default: random, printed)"
    )
    check.add_argument("--cases", type=int, default=1000, help="cases to try (default 1000)")
    check.add_argument(
        "--duration",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="try cases for this many seconds instead of --cases (default: --cases)",
    )
    check.add_argument(
        "--time-limit",
        type=_seconds,
        default=2.0,
        metavar="SECONDS",
        help="seconds a run of the program may take; past it its processes are killed (default 2)",
    )
    check.add_argument(
        "--max-size",
        type=_shape,
        default=(5, 5),
        metavar="ROWSxCOLS",
        help="footholds: the largest board (default 5x5)",
    )
    check.add_argument(
        "--per-run",
        type=int,
        default=100,
        metavar="N",
        help="cases per run where the format has several (default 100)",
    )
    check.add_argument("--jobs", type=int, default=None, help="runs at once (default: the CPUs)")
    check.add_argument(
        "--save",
        metavar="PATH",
        help="write the minimal failing input here, to replay it (default: not written)",
    )
    check.add_argument("--backend", choices=BACKENDS, default=BACKEND, help=BACKEND_HELP)
    summary = "serve the analysis board in the browser (needs perfectplay[web])"
    serve = commands.add_parser("serve", help=summary, description=summary)
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on; any other lets other machines in, such as 0.0.0.0 for "
        "a lab network (default 127.0.0.1)",
    )
    serve.add_argument(
        "--port", type=int, default=8000, help="the port, 0 for any free one (default 8000)"
    )
    serve.add_argument(
        "--open", action="store_true", help="open the board in the browser (default: do not)"
    )
    serve.add_argument(
        "--tablebase",
        action="append",
        default=[],
        metavar="FILE",
        help="answer m,n,k positions of its size from FILE, a table of tablebase build; "
        "may be repeated (default: none)",
    )
    serve.add_argument(
        "--node-limit",
        type=_positive,
        default=None,
        help="search nodes a request may use; past it the answer is 422 (default 500000)",
    )
    serve.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        help="seconds a request may take, the wait for a worker included (default 5)",
    )
    serve.add_argument(
        "--workers", type=_positive, default=None, help="search processes (default: one a CPU)"
    )
    serve.add_argument(
        "--header-timeout",
        type=_seconds,
        default=None,
        help="seconds a client has to send a request's headers, once connected or answered; "
        "a slower one is disconnected (default 10)",
    )
    serve.add_argument(
        "--max-connections",
        type=_positive,
        default=None,
        help="open connections past which requests are answered 503 (default 200)",
    )
    summary = "play a game in the terminal against the perfect agent"
    play = commands.add_parser("play", help=summary, description=summary)
    play.add_argument("game", choices=list(GAMES), help="the game to play")
    for option, help_text in _game_options().items():
        play.add_argument(f"--{option}", default=None, help=help_text)
    play.add_argument(
        "--start",
        default="",
        help="a position to start from, as the board's Position box reads it, such as 4453 "
        "for Connect Four (default: the game's start)",
    )
    play.add_argument(
        "--skill",
        type=float,
        default=1.0,
        help="the agent's skill, from 0 (random moves) to 1 (perfect) (default 1)",
    )
    play.add_argument(
        "--as",
        dest="human",
        default=None,
        help="your side: x or o, A or B in footholds (default: the first player)",
    )
    play.add_argument(
        "--seed", type=int, default=None, help="the agent's random seed (default: random)"
    )
    play.add_argument(
        "--node-limit",
        type=_positive,
        default=None,
        help="search nodes a reply may use (default: no limit)",
    )
    return parser


def _game_options() -> dict[str, str]:
    """``perfectplay play``'s game options and their help: what each game's registry entry
    says of it, with the game and its default."""
    helps: dict[str, list[str]] = {}
    for game in GAMES.values():
        for name, default in game.options.items():
            shown = ",".join(map(str, default)) if isinstance(default, tuple) else default
            helps.setdefault(name, []).append(
                f"{game.title}: {game.option_help[name]} (default {shown})"
            )
    return {name: "; ".join(texts) for name, texts in sorted(helps.items())}


def _positive(text: str) -> int:
    """A positive whole number, as argparse reads it."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


def run_serve(args: argparse.Namespace) -> int:
    """Serves the board until Ctrl-C."""
    limits = {
        name: value
        for name, value in (
            ("node_limit", args.node_limit),
            ("seconds", args.time_limit),
            ("header_seconds", args.header_timeout),
            ("connections", args.max_connections),
        )
        if value is not None
    }
    try:
        web.serve(
            args.host,
            args.port,
            open_browser=args.open,
            workers=args.workers,
            tablebases=args.tablebase,
            **limits,
        )
    except (ValueError, OSError) as error:
        print(f"perfectplay serve: {_one_line(_error_text(error))}", file=sys.stderr)
        return 1
    return 0


def run_play(args: argparse.Namespace) -> int:
    """One game in the terminal."""
    game = GAMES[args.game]
    names = {name for each in GAMES.values() for name in each.options}
    given = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    try:
        return _terminal.play(
            game,
            _play.options_from_text(game, given),
            start=args.start,
            human=args.human,
            skill=args.skill,
            seed=args.seed,
            node_limit=args.node_limit,
        )
    except (ValueError, TypeError) as error:
        print(f"perfectplay play: {_one_line(_error_text(error))}", file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    program: list[str] = []
    if argv[:1] == ["stress"] and "--" in argv:
        # Everything after `--` is the program under test, options and all.
        split = argv.index("--")
        argv, program = argv[:split], argv[split + 1 :]
    parser = _parser()
    if argv[:1] == ["stress"] and "--" not in argv:
        args, extra = parser.parse_known_args(argv)
        if extra:
            # The program under test was given without the `--` in front of it.
            parser.error(
                f"unrecognized arguments: {' '.join(extra)}; the program under test goes after "
                f"--, as in: perfectplay stress {args.problem} -- {' '.join(extra)}"
            )
    else:
        args = parser.parse_args(argv)
    args.program = program
    jobs = {
        "stress": run_stress,
        "tablebase": run_tablebase,
        "openings": run_openings,
        "label": run_label,
        "mnk": run_mnk,
        "serve": run_serve,
        "play": run_play,
    }
    if args.command in jobs:
        try:
            return jobs[args.command](args)
        except ImportError as error:
            print(f"perfectplay {args.command}: {error}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            return 130
    judged = FORMATS[args.command]
    bad_lines = 0

    def report(error: InputError) -> None:
        nonlocal bad_lines
        bad_lines += 1
        sys.stdout.flush()
        print(f"{name}: {_one_line(_error_text(error))}", file=sys.stderr, flush=True)

    flags = {}
    for argument in judged.arguments:
        dest = argument.settings.get("dest", argument.flags[-1].lstrip("-").replace("-", "_"))
        flags[dest] = getattr(args, dest)
    options = Options(args.backend, flags, report=report)
    name = f"perfectplay {args.command}"
    if sys.stdout is None:  # started with standard output closed (`>&-`)
        if sys.stderr is not None:
            print(
                f"{name}: standard output is closed: nowhere to write the answers", file=sys.stderr
            )
        return 1
    try:
        stream: IO[bytes] = (
            sys.stdin.buffer if args.input == "-" else open(args.input, "rb")  # noqa: SIM115
        )
        mode = os.fstat(stream.fileno()).st_mode
    except OSError as error:
        print(f"{name}: cannot read {args.input}: {error.strerror}", file=sys.stderr)
        return 1
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISDIR(mode):
        # A device (`/dev/zero`, `/dev/urandom`) is endless data, not a file of cases.
        kind = "a directory" if stat.S_ISDIR(mode) else "a device"
        print(f"{name}: {args.input} is {kind}, not a file of cases", file=sys.stderr)
        stream.close()
        return 1
    try:
        with stream:
            lines = numbered(stream, report if judged.goes_on else None)
            judged.run(lines, sys.stdout.write, options)
        sys.stdout.flush()
    except InputError as error:
        sys.stdout.flush()
        print(f"{name}: {_one_line(_error_text(error))}", file=sys.stderr)
        return 1
    except ImportError as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, without a flush error at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:
        # Standard output cannot be written (closed, a full disk): said once, no traceback.
        print(f"{name}: cannot write the answers: {error.strerror}", file=sys.stderr)
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 1 if bad_lines else 0


if __name__ == "__main__":
    sys.exit(main())

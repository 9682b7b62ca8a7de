"""The m,n,k commands of ``perfectplay``: ``mnk`` (solve one position), ``proof`` (prove a
value into a certificate, check one) and ``tablebase`` (build, report, probe and verify
tablebase files)."""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import threading
import time

from perfectplay._kernel.args import to_item
from perfectplay._kernel.backend import BACKEND, BACKENDS, implementation
from perfectplay._kernel.board_input import read_mark_grid
from perfectplay._kernel.command import (
    BACKEND_HELP,
    THREADS_HELP,
    Command,
    build_and_save,
    cluster,
    failed,
    print_solution,
    report_progress,
    shape,
)
from perfectplay._kernel.files import write_whole
from perfectplay.errors import SearchLimitExceeded
from perfectplay.mnk import tablebase

__all__ = ["COMMANDS"]


def add_position_arguments(parser: argparse.ArgumentParser, rows: int, k: int) -> None:
    """ROWSxCOLS, K and an optional BOARD (examples of a ``rows`` x ``rows`` board)."""
    parser.add_argument(
        "shape", type=shape, metavar="ROWSxCOLS", help=f"the board, such as {rows}x{rows}"
    )
    parser.add_argument("k", type=int, metavar="K", help=f"marks in a row that win, such as {k}")
    parser.add_argument(
        "board",
        nargs="?",
        help="the position: rows of x o . split by /, such as x.../.o../..../.... "
        "(default: the empty board)",
    )


def position_of(args: argparse.Namespace) -> str | None:
    """The BOARD argument checked against ROWSxCOLS (``None``: the empty board)."""
    if args.board is not None:
        board_rows, board_cols, _ = read_mark_grid(to_item(args.board))
        if (board_rows, board_cols) != args.shape:
            rows, cols = args.shape
            raise ValueError(f"the board is {board_rows}x{board_cols}, not {rows}x{cols}")
    return args.board  # type: ignore[no-any-return]


def add_mnk_arguments(parser: argparse.ArgumentParser) -> None:
    add_position_arguments(parser, 4, 3)
    parser.add_argument(
        "--node-limit",
        type=int,
        default=None,
        help="give up after this many search nodes, exit status 1 (default: no limit)",
    )
    parser.add_argument(
        "--table-mb",
        type=float,
        default=None,
        help="the transposition table's size in MiB (default: by the board, at most 96)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object (default: lines of text)"
    )
    parser.add_argument("--backend", choices=BACKENDS, default=BACKEND, help=BACKEND_HELP)


def run_mnk(args: argparse.Namespace) -> int:
    """Solves one m,n,k position and prints value, winner, plies, best moves and the line."""
    api = implementation("mnk", args.backend)
    rows, cols = args.shape
    what = f"{rows}x{cols} k={args.k}"
    limits = {"node_limit": args.node_limit, "table_mb": args.table_mb}
    stop = threading.Event()
    reporter = threading.Thread(
        target=report_progress,
        args=(stop, time.monotonic(), "perfectplay mnk", what),
        daemon=True,
    )
    reporter.start()
    try:
        board = position_of(args)
        if board is None:
            solution = api.solve_empty(rows, cols, args.k, **limits)
        else:
            solution = api.solve(board, args.k, **limits)
    except (ValueError, TypeError, MemoryError, SearchLimitExceeded) as error:
        return failed("perfectplay mnk", error)
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
        print_solution(solution)
    return 0


def add_tablebase_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    make = actions.add_parser("build", help="solve every position of a game into FILE")
    make.add_argument(
        "shape", type=shape, metavar="ROWSxCOLS", help="the board, such as 4x4 (20 cells at most)"
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


def run_tablebase(args: argparse.Namespace) -> int:
    """``perfectplay tablebase build|stats|probe|verify``."""
    name = f"perfectplay tablebase {args.action}"
    try:
        if args.action == "build":
            rows, cols = args.shape
            return build_and_save(
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
        return failed(name, error)
    print_solution(solution)
    return 0


def add_proof_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    make = actions.add_parser("prove", help="prove a position's value into a certificate FILE")
    add_position_arguments(make, 7, 5)
    make.add_argument("-o", "--output", required=True, metavar="FILE", help="the certificate")
    make.add_argument(
        "--node-limit",
        type=int,
        default=None,
        help="give up after this many nodes of a search, exit status 1 (default: no limit)",
    )
    make.add_argument(
        "--table-mb",
        type=float,
        default=None,
        help="the search's table, and the most the prover's nodes and tables may hold, in MiB; "
        "past it, exit status 1 (default: the search's by the board, the prover's half the "
        "machine's memory)",
    )
    make.add_argument(
        "--checkpoint",
        metavar="DIR",
        default=None,
        help="split the proof by the first move, one task a move up to symmetry, each kept in DIR "
        "as it ends so a stopped run goes on (default: one proof, nothing kept)",
    )
    make.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="run the split proof's tasks on a Dask cluster, such as tcp://scheduler:8786; "
        "needs perfectplay[dask] (default: here)",
    )
    check = actions.add_parser("check", help="check a certificate FILE without the prover")
    check.add_argument("file", metavar="FILE", help="a certificate of perfectplay proof prove")


def run_proof(args: argparse.Namespace) -> int:
    """``perfectplay proof prove|check``: the value is printed, the certificate written whole."""
    from perfectplay import mnk

    name = f"perfectplay proof {args.action}"
    shown = {1: "the side to move wins", 0: "a draw", -1: "the side to move loses"}
    try:
        if args.action == "prove":
            rows, cols = args.shape
            board = position_of(args) or "/".join("." * cols for _ in range(rows))
            started = time.monotonic()
            with cluster(args.scheduler) as client:
                split = {"checkpoint": args.checkpoint, "client": client}
                if args.checkpoint is None and client is None:
                    split = {}
                certificate = mnk.prove(
                    board,
                    args.k,
                    node_limit=args.node_limit,
                    table_mb=args.table_mb,
                    progress=sys.stderr.isatty() and not split,
                    **split,
                )
            text = json.dumps(certificate).encode()
            write_whole(args.output, lambda file: file.write(text))
            print(f"value: {certificate['value']:+d} ({shown[certificate['value']]})")
            print(
                f"{name}: {rows}x{cols} k={args.k} in {time.monotonic() - started:.1f} s, "
                f"{len(text):,} bytes saved to {args.output}",
                file=sys.stderr,
            )
            return 0
        value = mnk.check(pathlib.Path(args.file))
    except (ValueError, TypeError, OSError, MemoryError, SearchLimitExceeded) as error:
        return failed(name, error)
    print(f"value: {value:+d} ({shown[value]}), checked")
    return 0


COMMANDS = (
    Command(
        "mnk",
        "solve an m,n,k-game: k in a row wins on a ROWSxCOLS board, X first",
        add_mnk_arguments,
        run_mnk,
    ),
    Command(
        "proof",
        "prove an m,n,k position's value into a certificate, or check one",
        add_proof_arguments,
        run_proof,
    ),
    Command(
        "tablebase",
        "strongly solve whole m,n,k games: build, report, probe, verify tablebase files",
        add_tablebase_arguments,
        run_tablebase,
    ),
)

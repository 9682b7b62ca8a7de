"""Connect Four's command of ``perfectplay``: ``openings`` (build a book for any board, verify
one or the packaged books)."""

from __future__ import annotations

import argparse
import os
import sys
import time

from perfectplay._kernel.command import (
    THREADS_HELP,
    Command,
    build_and_save,
    cluster,
    failed,
)

__all__ = ["COMMANDS"]


def add_build_arguments(parser: argparse.ArgumentParser, checkpoint: str) -> None:
    """A build's output, threads and checkpoint (a file or a folder, named ``checkpoint``)."""
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the book to write")
    parser.add_argument("--threads", type=int, default=None, help=THREADS_HELP)
    parser.add_argument(
        "--checkpoint",
        default=None,
        metavar=checkpoint,
        help="where the scores solved so far are kept, so that a build killed or stopped goes "
        "on from them when run again (default: FILE.checkpoint; removed when the book is saved)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    make = actions.add_parser("build", help="solve every position of DEPTH stones or fewer")
    make.add_argument(
        "--depth", type=int, required=True, help="the most stones of a book's position, such as 6"
    )
    make.add_argument("--width", type=int, default=7, help="columns of the board (default 7)")
    make.add_argument("--height", type=int, default=6, help="rows of the board (default 6)")
    add_build_arguments(make, "PATH")
    make.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="solve on a Dask cluster, such as tcp://scheduler:8786; needs perfectplay[dask] "
        "(default: this machine's cores)",
    )
    deeper = actions.add_parser(
        "build-13ply",
        help="solve the children of every entry of the 12-ply book (7x6): the 13-ply book, "
        "about 6 hours on 2 cores",
    )
    add_build_arguments(deeper, "FOLDER")
    deeper_still = actions.add_parser(
        "build-14ply",
        help="solve the children of every position of the 13-ply book (7x6): the 14-ply book, "
        "about 7 hours on 2 cores",
    )
    add_build_arguments(deeper_still, "FOLDER")
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
        help="a book of `openings build` (default: the packaged 7x6 book and the 12-, 13- and "
        "14-ply books)",
    )
    check_file.add_argument(
        "--sample", type=int, default=4, help="positions to re-solve (default 4)"
    )
    check_file.add_argument(
        "--seed", type=int, default=0, help="which positions are drawn (default 0)"
    )
    check_file.add_argument("--threads", type=int, default=None, help=THREADS_HELP)


def run_openings(args: argparse.Namespace) -> int:
    """``perfectplay openings build|build-13ply|build-14ply|verify``."""
    # The books' modules are imported when the command runs: the registry names this command
    # at every start, which need not pay for them.
    from perfectplay.connect4 import book13, openings

    name = f"perfectplay openings {args.action}"
    try:
        if args.action in ("build-13ply", "build-14ply"):
            checkpoint = args.checkpoint or f"{args.output}.checkpoint"
            if os.path.exists(checkpoint):
                print(f"{name}: going on from {checkpoint}", file=sys.stderr)
            started = time.monotonic()
            plies = 13 if args.action == "build-13ply" else 14
            count = book13.build(
                args.output,
                checkpoint=checkpoint,
                plies=plies,
                threads=args.threads,
                progress=True,
            )
            print(
                f"{name}: the {plies}-ply book, {count:,} positions, in "
                f"{time.monotonic() - started:.1f} s, saved to {args.output}",
                file=sys.stderr,
            )
            return 0
        if args.action == "build":
            checkpoint = args.checkpoint or f"{args.output}.checkpoint"
            if os.path.exists(checkpoint):
                print(f"{name}: going on from {checkpoint}", file=sys.stderr)
            with cluster(args.scheduler) as client:
                return build_and_save(
                    name,
                    lambda: openings.build(
                        args.depth,
                        width=args.width,
                        height=args.height,
                        threads=args.threads,
                        progress=True,
                        checkpoint=checkpoint,
                        client=client,
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
            if deep.next_scores is not None:
                print(
                    f"{deep.next_path}: the 13-ply book, 7 scores for each 12-ply entry: size, "
                    f"SHA-256 and scores checked, {args.sample:,} re-solved by the search "
                    f"alone (seed {args.seed})"
                )
            if deep.fourteen is not None:
                print(
                    f"{deep.fourteen.path}: the 14-ply book, {deep.fourteen.keys:,} positions: "
                    f"size, SHA-256 and scores checked, {args.sample:,} re-solved by the search "
                    f"alone (seed {args.seed})"
                )
        else:
            book = openings.load(args.file)
            book.verify(args.sample, seed=args.seed, threads=args.threads)
    except (ValueError, TypeError, OSError, MemoryError) as error:
        return failed(name, error)
    print(
        f"{book.path}: {book.width}x{book.height} depth {book.depth}, {len(book):,} positions: "
        f"checksum, positions and scores above depth {book.depth} agree with the rules, "
        f"{args.sample:,} re-solved (seed {args.seed})"
    )
    return 0


COMMANDS = (
    Command(
        "openings",
        "Connect Four opening books: build FILE, or verify one",
        add_arguments,
        run_openings,
    ),
)

"""The ``perfectplay`` commands beyond the judge formats: solve, label, stress, tablebase,
openings, serve and play; each takes the parsed arguments and returns the exit status."""

from __future__ import annotations

import argparse
import inspect
import secrets
import signal
import sys
import threading
from typing import Any

from perfectplay import _terminal, stress, web
from perfectplay._kernel import play as _play
from perfectplay._kernel.backend import implementation
from perfectplay._kernel.command import error_text, failed, one_line
from perfectplay._kernel.files import open_regular, write_whole
from perfectplay._registry import GAMES
from perfectplay.errors import SearchLimitExceeded
from perfectplay.judge import InputError

__all__ = ["COMMANDS"]

NPY_HEADER_MOST = 10_000  # numpy's own limit for headers it trusts (np.load's max_header_size)


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
                if length > NPY_HEADER_MOST:
                    raise ValueError(
                        f"its header claims {length:,} bytes; an array of boards needs at most "
                        f"{NPY_HEADER_MOST:,}"
                    )
                file.seek(0)
                return np.load(file, allow_pickle=False)
        except Exception as error:  # numpy's header parser raises its tokenizer's errors too
            raise InputError(0, f"cannot read {what} {path}: {error_text(error)}") from None

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
            options[option] = load(value, option) if game.batch_option_help[option].array else value
        result = game.batch_solve(boards, args.backend, **options)
        # numpy's name rule (``.npz`` added when missing), written whole or not at all.
        output = args.output if str(args.output).endswith(".npz") else f"{args.output}.npz"
        write_whole(output, lambda file: np.savez(file, **result.to_dict()))
    except InputError as error:
        print(f"{name}: {one_line(str(error).removeprefix('line 0: '))}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, MemoryError, SearchLimitExceeded, OSError) as error:
        return failed(name, error)
    statuses = np.bincount(result.status, minlength=3)
    print(
        f"{name}: {len(result)} rows to {args.output}: {statuses[0]} solved, {statuses[1]} bad, "
        f"{statuses[2]} over the node limit",
        file=sys.stderr,
    )
    return 0


def _review_record(game: Any, line: str) -> tuple[Any, Any]:
    """A line of ``perfectplay review``: the record and the start it reads. A JSON object
    ``{"moves": ..., "start": TEXT}``, a JSON list of moves (``[row, col]`` pairs read as
    moves), or plain text, which the game's ``review`` reads as its move string or refuses."""
    import json

    text = line.strip()
    start = None
    if text.startswith(("{", "[")):
        data = json.loads(text)
        if isinstance(data, dict):
            if "moves" not in data:
                raise ValueError('a JSON object needs "moves"')
            if data.get("start") is not None:
                start = game.read_position(str(data["start"]), **game.options)
            data = data["moves"]
        record = (
            data
            if isinstance(data, str)
            else [tuple(move) if isinstance(move, list) else move for move in data]
        )
    else:
        record = text
    return record, start


def _review_row(number: int, result: Any, marks: tuple[str, str]) -> dict[str, Any]:
    """One game's CSV row: its line, moves, illegal ply, and each player's summary."""
    row: dict[str, Any] = {"line": number}
    if isinstance(result, str):
        return {**row, "error": result}
    row.update(moves=len(result.moves), illegal_ply=result.illegal and result.illegal.ply)
    for mark in marks:
        player = result.players[mark]
        row.update(
            {
                f"{mark}_moves": player.moves,
                f"{mark}_perfect_rate": round(player.perfect_rate, 4),
                f"{mark}_good_rate": round(player.good_rate, 4),
                f"{mark}_blunders": player.blunders,
                f"{mark}_accuracy": round(player.accuracy, 2),
            }
        )
    return row


def run_review(args: argparse.Namespace) -> int:
    """``perfectplay review GAME [FILE] [-o OUT] [--format jsonl|csv]``: each game of a line
    reviewed against perfect play; a line that is not a record is reported in its place."""
    import csv
    import io
    import json

    from perfectplay._kernel.batch import progress_bar
    from perfectplay._kernel.review import review_many

    name, game = "perfectplay review", GAMES[args.game]
    try:
        if args.file in (None, "-"):
            lines = sys.stdin.read().splitlines()
        else:
            with open_regular(args.file) as file:
                lines = file.read().decode("utf-8").splitlines()
    except (OSError, ValueError) as error:
        return failed(name, error)
    games = [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    module = game.module()
    options = (
        {} if args.node_limit is None or not game.searches else {"node_limit": args.node_limit}
    )
    bar = progress_bar(args.progress or sys.stderr.isatty(), f"{game.name} games", len(games))

    def one(item: tuple[int, str]) -> Any:
        try:
            record, start = _review_record(game, item[1])
            return module.review(record, start=start, **options)
        except (ValueError, TypeError, SearchLimitExceeded) as error:
            return one_line(error_text(error))
        finally:
            if bar is not None:
                bar.update(1)

    try:
        results = review_many(one, games, threads=args.threads)
    finally:
        if bar is not None:
            bar.close()
    marks = game.players
    if args.format == "csv":
        rows = [
            _review_row(number, result, marks)
            for (number, _), result in zip(games, results, strict=True)
        ]
        fields = ["line", "moves", "illegal_ply"]
        fields += [
            f"{m}_{f}"
            for m in marks
            for f in ("moves", "perfect_rate", "good_rate", "blunders", "accuracy")
        ]
        fields.append("error")
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        text = out.getvalue()
    else:
        text = "".join(
            json.dumps(
                {"line": number, "error": result}
                if isinstance(result, str)
                else {"line": number, **result.to_dict()}
            )
            + "\n"
            for (number, _), result in zip(games, results, strict=True)
        )
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_whole(args.output, lambda file: file.write(text.encode()))
    bad = sum(isinstance(result, str) for result in results)
    print(f"{name}: {len(games)} games, {bad} not read", file=sys.stderr)
    return 1 if bad else 0


def run_stress(args: argparse.Namespace) -> int:
    """``perfectplay stress PROBLEM [options] -- COMMAND``: see ``perfectplay.stress``."""
    name = f"perfectplay stress {args.problem}"
    try:
        if args.python is not None:
            if args.program:
                raise ValueError("give --python or a COMMAND after --, not both")
            command = stress.python_command(args.python, args.problem)
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
        return failed("perfectplay serve", error)
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
        return failed("perfectplay play", error)


COMMANDS = {
    "stress": run_stress,
    "label": run_label,
    "review": run_review,
    "serve": run_serve,
    "play": run_play,
}

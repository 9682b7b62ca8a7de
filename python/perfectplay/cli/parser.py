"""The ``perfectplay`` command's arguments: every command, its options and their help (each
option its own text with its default, checked by ``tests/test_cli_help.py``); the games' own
commands come from their ``Game``."""

from __future__ import annotations

import argparse

from perfectplay import __version__, web
from perfectplay._kernel.backend import BACKEND, BACKENDS
from perfectplay._kernel.command import (
    BACKEND_HELP,
    THREADS_HELP,
    Command,
    positive,
    seconds,
    shape,
)
from perfectplay._kernel.game import BatchOption
from perfectplay._registry import GAMES
from perfectplay.judge import FORMATS
from perfectplay.stress import PROBLEMS

__all__ = ["build_parser", "game_commands"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="perfectplay",
        description="Two-player games solved perfectly: judge formats, batch labels, "
        "tablebases, opening books, a stress tester for judge solutions and a board. "
        "perfectplay COMMAND --help tells more of each.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__} ({BACKEND} backend)"
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
    for own in game_commands().values():
        own.add_arguments(commands.add_parser(own.name, help=own.summary, description=own.summary))
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
    for option, (game_title, batch_option) in batch_options().items():
        label.add_argument(
            f"--{option}",
            type=str if batch_option.array else int,
            metavar=f"{option[0].upper()}.npy" if batch_option.array else option.upper(),
            help=f"{game_title}: {batch_option.help} (required there)",
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
    summary = "review games against perfect play: one game a line in, JSON lines or CSV out"
    reviewed = commands.add_parser("review", help=summary, description=summary)
    reviewed.add_argument("game", choices=tuple(GAMES), help="the game of the records")
    reviewed.add_argument(
        "file",
        nargs="?",
        help="one game a line: Connect Four's move string, a JSON list of moves, or a JSON "
        'object {"moves": ..., "start": POSITION} (default: standard input)',
    )
    reviewed.add_argument(
        "-o", "--output", help="the reviews, written whole or not at all (default: stdout)"
    )
    reviewed.add_argument(
        "--format",
        choices=("jsonl", "csv"),
        default="jsonl",
        help="jsonl: a review a line, every move; csv: a row a game, each player's summary "
        "(default: jsonl)",
    )
    reviewed.add_argument("--threads", type=int, default=None, help=THREADS_HELP)
    reviewed.add_argument(
        "--node-limit",
        type=int,
        default=None,
        help="search nodes a position may use; past it the game is reported (default: none)",
    )
    reviewed.add_argument(
        "--progress",
        action="store_true",
        help="a progress bar on standard error (default: when it is a terminal)",
    )
    summary = "stress-test a judge solution: random cases, compared, the failing one shrunk"
    check = commands.add_parser(
        "stress",
        help=summary,
        description=summary,
        usage="perfectplay stress PROBLEM [options] -- COMMAND [ARGS...]",
    )
    check.add_argument(
        "problem",
        choices=tuple(PROBLEMS),
        metavar="PROBLEM",
        help=f"{', '.join(PROBLEMS)} (the formats of those commands)",
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
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="try cases for this many seconds instead of --cases (default: --cases)",
    )
    check.add_argument(
        "--time-limit",
        type=seconds,
        default=2.0,
        metavar="SECONDS",
        help="seconds a run of the program may take; past it its processes are killed (default 2)",
    )
    check.add_argument(
        "--max-size",
        type=shape,
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
        type=positive,
        default=None,
        help="search nodes a request may use; past it the answer is 422 "
        f"(default {web.DEFAULT_NODE_LIMIT})",
    )
    serve.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        help="seconds a request may take, the wait for a worker included "
        f"(default {web.DEFAULT_SECONDS:g})",
    )
    serve.add_argument(
        "--workers", type=positive, default=None, help="search processes (default: one a CPU)"
    )
    serve.add_argument(
        "--header-timeout",
        type=seconds,
        default=None,
        help="seconds a client has to send a request's headers, once connected or answered; "
        f"a slower one is disconnected (default {web.DEFAULT_HEADER_SECONDS:g})",
    )
    serve.add_argument(
        "--max-connections",
        type=positive,
        default=None,
        help="open connections past which requests are answered 503 "
        f"(default {web.DEFAULT_CONNECTIONS})",
    )
    summary = "play a game in the terminal against the perfect agent"
    play = commands.add_parser("play", help=summary, description=summary)
    play.add_argument("game", choices=list(GAMES), help="the game to play")
    for option, help_text in game_options().items():
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
        type=positive,
        default=None,
        help="search nodes a reply may use (default: no limit)",
    )
    return parser


def game_options() -> dict[str, str]:
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


def game_commands() -> dict[str, Command]:
    """Every game's own commands (its ``Game.commands``), by name."""
    return {command.name: command for game in GAMES.values() for command in game.commands}


def batch_options() -> dict[str, tuple[str, BatchOption]]:
    """Every game's batch options beyond the boards (``--k``; ``--alocs``, ``--blocs``), with
    the game that takes each."""
    return {
        name: (game.title, option)
        for game in GAMES.values()
        for name, option in game.batch_option_help.items()
    }

"""The ``perfectplay`` command: judge-style input in, one answer per case out, and the commands
beyond the judge formats (``perfectplay --help``).

Each judge command reads a file argument or standard input and streams its answers to standard
output. Bad input stops the run with one line on standard error naming the input line and the
problem, and exit status 1 (2 for wrong usage); never a traceback. The package is split by job:
``parser`` (every command's arguments), ``commands`` (the commands beyond the judge formats and
the games' own, which their packages give); the judge formats' own runner is here.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from typing import IO

from perfectplay._kernel.command import error_text, failed, one_line
from perfectplay.cli.commands import COMMANDS
from perfectplay.cli.parser import build_parser, game_commands
from perfectplay.judge import FORMATS, InputError, Options, numbered

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    program: list[str] = []
    if argv[:1] == ["stress"] and "--" in argv:
        # Everything after `--` is the program under test, options and all.
        split = argv.index("--")
        argv, program = argv[:split], argv[split + 1 :]
    parser = build_parser()
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
    run = {**COMMANDS, **{name: command.run for name, command in game_commands().items()}}
    if args.command in run:
        try:
            return run[args.command](args)
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
        print(f"{name}: {one_line(error_text(error))}", file=sys.stderr, flush=True)

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
    if args.input == "-" and sys.stdin is None:  # started with standard input closed (`<&-`)
        print(f"{name}: standard input is closed: no cases to read", file=sys.stderr)
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
        return failed(name, error)
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

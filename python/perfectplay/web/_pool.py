"""The server's search processes: a search that overruns its time bound, or whose client has
gone, is stopped by ending its process, which is then replaced. A search in Rust cannot be
interrupted from another thread; a process can always be stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import signal
import time
import traceback
from collections.abc import Awaitable, Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any

from perfectplay.web import _jobs

__all__ = ["Abandoned", "Busy", "Failed", "Pool", "TooSlow"]

_POLL = 0.02  # seconds between two looks at a running search


class TooSlow(Exception):
    """The search ran past the time bound (its process was ended)."""


class Busy(Exception):
    """Every search process stayed busy for the whole time bound."""


class Abandoned(Exception):
    """The client went away while its search ran (its process was ended)."""


class Failed(Exception):
    """A job raised; ``kind`` is the exception's class name, ``message`` its text."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind, self.message = kind, message


def _work(connection: Connection, node_limit: int) -> None:
    """A search process: answers jobs until the server closes its end (or dies). The
    tablebases stay with the server, which answers from them itself."""
    # Ctrl-C in the server's terminal reaches the whole process group; the server ends us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    searcher = _jobs.Searcher(node_limit, (), game_limits=True)
    _jobs.warm_up(searcher)
    while True:
        try:
            name, arguments = connection.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("ok", getattr(_jobs, name)(searcher, *arguments))
        except (ValueError, TypeError, RuntimeError, MemoryError) as error:
            answer = ("error", (type(error).__name__, str(error)))
        except Exception as error:  # reported to the server as a 500, with its traceback
            answer = ("error", ("InternalError", "".join(traceback.format_exception(error))))
        try:
            connection.send(answer)
        except (BrokenPipeError, OSError):
            return


@contextlib.contextmanager
def _woken_by(connection: Connection) -> Iterator[asyncio.Event]:
    """An event set as soon as ``connection`` has something to read, so an answer is taken
    at once, not at the next look (where the loop cannot watch a file, at the next look)."""
    loop, event = asyncio.get_running_loop(), asyncio.Event()
    try:
        loop.add_reader(connection.fileno(), event.set)
    except NotImplementedError:
        yield event
        return
    try:
        yield event
    finally:
        loop.remove_reader(connection.fileno())


class _Worker:
    def __init__(self, context: Any, node_limit: int) -> None:
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_work, args=(theirs, node_limit), daemon=True)
        self.process.start()
        theirs.close()

    def stop(self) -> None:
        self.process.kill()
        self.process.join()
        self.connection.close()


class Pool:
    """``size`` search processes, each with the node limit."""

    def __init__(self, size: int, node_limit: int) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._node_limit = node_limit
        self._size = size
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._all: set[_Worker] = set()
        self._replacing: set[asyncio.Future[None]] = set()

    def _spawn(self) -> _Worker:
        worker = _Worker(self._context, self._node_limit)
        self._all.add(worker)
        return worker

    async def start(self) -> None:
        for _ in range(self._size):
            self._idle.put_nowait(await asyncio.to_thread(self._spawn))

    def close(self) -> None:
        for worker in list(self._all):
            worker.stop()
        self._all.clear()

    async def _replace(self, worker: _Worker) -> None:
        self._all.discard(worker)
        await asyncio.to_thread(worker.stop)
        self._idle.put_nowait(await asyncio.to_thread(self._spawn))

    async def run(
        self,
        job: str,
        arguments: tuple[Any, ...],
        seconds: float,
        gone: Callable[[], Awaitable[bool]],
    ) -> Any:
        """Runs ``_jobs.<job>(searcher, *arguments)`` in a free process within ``seconds`` (the
        wait for a free process included); ``gone()`` says whether the client has left."""
        deadline = time.monotonic() + seconds
        try:
            worker = await asyncio.wait_for(self._idle.get(), seconds)
        except asyncio.TimeoutError:
            raise Busy() from None
        try:
            worker.connection.send((job, arguments))
            with _woken_by(worker.connection) as answered:
                while not worker.connection.poll():
                    if not worker.process.is_alive():
                        raise Failed("InternalError", "a search process ended unexpectedly")
                    if time.monotonic() > deadline:
                        raise TooSlow()
                    if await gone():
                        raise Abandoned()
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(answered.wait(), _POLL)
            status, payload = worker.connection.recv()
        except BaseException:
            # The process may still be searching: end it (asyncio cancellation included).
            task = asyncio.ensure_future(self._replace(worker))
            self._replacing.add(task)
            task.add_done_callback(self._replacing.discard)
            raise
        self._idle.put_nowait(worker)
        if status == "error":
            raise Failed(*payload)
        return payload

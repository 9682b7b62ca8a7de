"""uvicorn's HTTP/1.1 protocol with a deadline for a request's headers: uvicorn closes an idle
kept-alive connection, but not one that trickles a request's headers (any byte received
cancels its idle timer), so a few hundred clients sending half a header each would hold their
connections for ever. Imported only with uvicorn present (``perfectplay[web]``)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a client has, once connected or answered, to send a whole request's headers.
HEADER_SECONDS = 10.0


class HeaderDeadline(H11Protocol):
    """Closes the connection when no request is being answered ``HEADER_SECONDS`` after it
    opened or after its last answer: a client still sending headers by then is cut off (a
    request being searched is never)."""

    header_seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # An answer's headers and body go out as two writes: without TCP_NODELAY the body waits
        # for the client's delayed acknowledgement of the headers, 40 ms on Linux, every time.
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._deadline: asyncio.TimerHandle | None = None
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.header_seconds, self._expire)

    def _expire(self) -> None:
        self._deadline = None
        answering = self.cycle is not None and not self.cycle.response_complete
        if not answering and not self.transport.is_closing():
            self.transport.close()


def protocol(header_seconds: float) -> Any:
    """The protocol class with its deadline set."""
    return type("HeaderDeadline", (HeaderDeadline,), {"header_seconds": header_seconds})

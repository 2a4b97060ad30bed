"""Live games: which streams in this process watch which game, woken when it changes (the stream
``GET /api/games/{id}/events`` reads it from the store then and sends what changed).

A change is published once it is stored (``publish``): this process's streams of that game are woken
at once; on a database several ``serve`` processes share (PostgreSQL) the others are told by
``Database.notify`` on ``CHANNEL``, with the payload ``"<game id> <ply>"``, and each process's one
listening connection (``Database.listen``, outside any pool) wakes its own streams of that game. When
that connection dropped and is open again, every stream here is woken: each reads its game from the
store and catches up on what it missed. A SQLite file has one process: the push stays in memory.

The caps (``Limits.max_game_streams`` in this process: 503 with ``Retry-After``; per client
``Limits.client_game_streams``: 429) count every open stream, and a stream's place is freed when it
ends, however it ends (``Watch.close``, from the stream's ``finally``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio.to_thread

from patchwork_opt.apps.web.database import Database, StoreError
from patchwork_opt.apps.web.jobs import ClientBusyError, QueueFullError

log = logging.getLogger(__name__)

#: the channel of ``NOTIFY``/``LISTEN`` the games' changes go on
CHANNEL = "patchwork_games"
#: what a refused stream is told to wait (streams last long: any moment is as good as another)
RETRY_SECONDS = 5


class GameStreamsBusyError(QueueFullError):
    """Every game stream this server keeps open at once is taken (503, with ``Retry-After``)."""


class ClientGameStreamsError(ClientBusyError):
    """This client already has as many game streams open as one client may (429, with ``Retry-After``)."""


@dataclass(eq=False)
class Watch:
    """One stream's watch on one game: ``changed`` is set when the game may have changed."""

    feed: GameFeed
    game_id: str
    client: str
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False

    async def wait(self, seconds: float) -> None:
        """Until the game may have changed, or ``seconds`` passed (then the stream looks anyway)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), seconds)
        self.changed.clear()

    def close(self) -> None:
        """Free the stream's place (once; every way a stream ends calls it)."""
        if not self.closed:
            self.closed = True
            self.feed.forget(self)


class GameFeed:
    """The streams of one process, by game; publishes changes and hears the other processes'."""

    def __init__(self, database: Database, *, capacity: int, per_client: int) -> None:
        self.database = database
        self.capacity, self.per_client = max(0, capacity), max(1, per_client)
        self._watches: dict[str, set[Watch]] = {}
        self._clients: dict[str, int] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_listening: Callable[[], None] | None = None
        #: the listening connection's reopenings (tests and the benchmark read it)
        self.reopened = 0

    @property
    def open_streams(self) -> int:
        return sum(self._clients.values())

    def start(self) -> None:
        """Listen to the other processes (PostgreSQL), from the app's start-up on its event loop."""
        self._loop = asyncio.get_running_loop()
        if self._stop_listening is None:
            self._stop_listening = self.database.listen(CHANNEL, self._heard, self._reopened)

    def close(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None

    def watch(self, client: str, game_id: str) -> Watch:
        """A new stream's watch on ``game_id``; the busy errors when it cannot open now."""
        if self.open_streams >= self.capacity:
            raise GameStreamsBusyError(
                f"this server keeps {self.capacity} game streams open at once, all taken; retry later", RETRY_SECONDS)
        if self._clients.get(client, 0) >= self.per_client:
            raise ClientGameStreamsError(
                f"you already have {self.per_client} game streams open; close one or retry later", RETRY_SECONDS)
        watch = Watch(self, game_id, client)
        self._watches.setdefault(game_id, set()).add(watch)
        self._clients[client] = self._clients.get(client, 0) + 1
        return watch

    def forget(self, watch: Watch) -> None:
        watches = self._watches.get(watch.game_id)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self._watches[watch.game_id]
        left = self._clients.get(watch.client, 0) - 1
        if left > 0:
            self._clients[watch.client] = left
        else:
            self._clients.pop(watch.client, None)

    async def publish(self, game_id: str, ply: int) -> None:
        """``game_id`` changed (stored, now at ``ply``): wake its streams here, then tell the others.
        The change is stored whatever happens here: when the others cannot be told (the database
        is unreachable), a warning says so and their streams see it at their next read (at most
        ``routers/people.RECHECK_SECONDS`` later, or when their listening connection is back)."""
        self.wake(game_id)
        if self._stop_listening is not None:
            try:
                await anyio.to_thread.run_sync(self.database.notify, CHANNEL, f"{game_id} {ply}")
            except StoreError as exc:
                log.warning("game %s changed (ply %d), not told to the other servers: %s", game_id, ply, exc)

    def wake(self, game_id: str) -> None:
        for watch in self._watches.get(game_id, ()):
            watch.changed.set()

    def wake_all(self) -> None:
        for watches in self._watches.values():
            for watch in watches:
                watch.changed.set()

    def _on_loop(self, fn: Callable[..., None], *args: str) -> None:
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
                self._loop.call_soon_threadsafe(fn, *args)

    def _heard(self, payload: str) -> None:
        """A change another process (or this one) made, from the listening thread."""
        self._on_loop(self.wake, payload.split(" ", 1)[0])

    def _reopened(self) -> None:
        """The listening connection is back: anything may have been missed; every stream looks."""
        self.reopened += 1
        self._on_loop(self.wake_all)

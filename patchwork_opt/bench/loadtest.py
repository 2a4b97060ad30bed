"""A bounded load test of a running service on loopback: N clients, D seconds, latency percentiles.

Each client (a *session*: one request again and again, or a scenario such as playing a game) sends
a request, waits for the answer, and sends the next until the time is up, so the load is
closed-loop and stops by itself. Only loopback addresses are accepted as targets.
Against 127.0.0.1 each client sends from its own loopback address (127.0.0.2, 127.0.0.3, ...), so
a server that shares its work fairly between clients sees that many clients, not one. An answer
that sheds load (503 or 429 with ``Retry-After``) is counted as *shed*, not as an error, and its
client waits the second it was told before asking again; latencies are those of served answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import statistics
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from patchwork_opt.core.errors import PatchworkError


@dataclass(frozen=True, slots=True)
class Probe:
    """One kind of request the clients send."""

    method: str
    path: str
    body: dict[str, Any] | None = None


@dataclass(slots=True)
class LoadResult:
    label: str
    clients: int
    seconds: float
    requests: int = 0
    shed: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def p50_ms(self) -> float:
        return percentile(self.latencies_ms, 50)

    @property
    def p95_ms(self) -> float:
        return percentile(self.latencies_ms, 95)

    @property
    def per_second(self) -> float:
        """Requests answered per second, shed ones included."""
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def served(self) -> int:
        """Requests answered with what was asked (neither shed nor an error)."""
        return self.requests - self.shed - self.errors

    @property
    def served_per_second(self) -> float:
        return self.served / self.seconds if self.seconds else 0.0

    def summary(self) -> dict[str, Any]:
        data = asdict(self)
        del data["latencies_ms"]
        data.update(
            p50_ms=round(self.p50_ms, 2),
            p95_ms=round(self.p95_ms, 2),
            max_ms=round(max(self.latencies_ms, default=0.0), 2),
            per_second=round(self.per_second, 2),
            served=self.served,
            served_per_second=round(self.served_per_second, 2),
        )
        return data


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (inclusive method); 0 for no values."""
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def check_loopback(base_url: str) -> None:
    """Refuse any target but this machine's loopback (127.0.0.0/8, ::1, localhost)."""
    host = urlsplit(base_url).hostname or ""
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    raise PatchworkError(f"load tests only target loopback addresses, not {host!r}")


async def timed(
    http: httpx.AsyncClient, result: LoadResult, method: str, path: str, body: dict[str, Any] | None, deadline: float
) -> httpx.Response | None:
    """One request counted in ``result``: its latency when served, *shed* (the client then waits the
    second it was told, at most until ``deadline``) or an error; the response when served (< 400)."""
    started = time.perf_counter()
    response: httpx.Response | None = None
    try:
        response = await http.request(method, path, json=body)
        ok = response.status_code < 400
        problem = f"HTTP {response.status_code}: {response.text[:200]}"
    except httpx.HTTPError as exc:
        ok = False
        problem = f"{type(exc).__name__}: {exc}"
    result.requests += 1
    if response is not None and response.status_code in (429, 503) and "Retry-After" in response.headers:
        result.shed += 1
        await asyncio.sleep(min(1.0, max(0.0, deadline - time.perf_counter())))
        return None
    result.latencies_ms.append((time.perf_counter() - started) * 1000.0)
    if not ok:
        result.errors += 1
        if len(result.error_samples) < 5:
            result.error_samples.append(problem)
        return None
    return response


#: ``session(http, deadline, results)``: one client's requests until ``deadline``, each counted in
#: the ``LoadResult`` of its label in ``results`` (through ``timed``).
Session = Callable[[httpx.AsyncClient, float, dict[str, LoadResult]], Coroutine[Any, Any, None]]


def probe_session(probe: Probe, label: str, max_requests: int = 100_000) -> Session:
    """A client sending ``probe`` again and again, counted under ``label``."""

    async def session(http: httpx.AsyncClient, deadline: float, results: dict[str, LoadResult]) -> None:
        result = results[label]
        while time.perf_counter() < deadline and result.requests < max_requests:
            await timed(http, result, probe.method, probe.path, probe.body, deadline)

    return session


def client_address(base_url: str, index: int) -> str | None:
    """The loopback address client ``index`` sends from (its own, against 127.0.0.1), else None."""
    return f"127.0.0.{2 + index % 250}" if urlsplit(base_url).hostname == "127.0.0.1" else None


async def run_sessions(
    base_url: str,
    sessions: Sequence[Session],
    labels: Sequence[str],
    seconds: float,
    *,
    timeout: float = 60.0,
    on_tick: Callable[[float], None] | None = None,
) -> dict[str, LoadResult]:
    """Run every session at once, each as its own client, for ``seconds``; the results by label."""
    check_loopback(base_url)
    results = {label: LoadResult(label, 0, seconds) for label in labels}
    async with contextlib.AsyncExitStack() as stack:
        started = time.perf_counter()
        deadline = started + seconds
        tasks: list[asyncio.Task[None]] = []
        for i, session in enumerate(sessions):
            source = client_address(base_url, i)
            transport = httpx.AsyncHTTPTransport(local_address=source) if source else None
            http = await stack.enter_async_context(
                httpx.AsyncClient(base_url=base_url, timeout=timeout, transport=transport)
            )
            tasks.append(asyncio.create_task(session(http, deadline, results)))
        while not all(task.done() for task in tasks):
            await asyncio.wait(tasks, timeout=0.5)
            if on_tick is not None:
                on_tick(min(time.perf_counter() - started, seconds))
        for task in tasks:
            task.result()
        elapsed = time.perf_counter() - started
    for result in results.values():
        result.seconds = elapsed
    return results


async def run_load(
    base_url: str,
    probes: dict[str, tuple[Probe, int]],
    seconds: float,
    *,
    timeout: float = 60.0,
    max_requests: int = 100_000,
    on_tick: Callable[[float], None] | None = None,
) -> dict[str, LoadResult]:
    """Run every probe's clients at once for ``seconds``; ``probes`` maps a label to (probe, clients)."""
    sessions = [probe_session(probe, label, max_requests) for label, (probe, clients) in probes.items()
                for _ in range(clients)]
    results = await run_sessions(base_url, sessions, list(probes), seconds, timeout=timeout, on_tick=on_tick)
    for label, (_, clients) in probes.items():
        results[label].clients = clients
    return results

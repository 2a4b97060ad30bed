"""``patchwork bench friends``: games between people on two ``serve`` processes sharing PostgreSQL.

Two fresh ``patchwork serve`` processes on loopback, one database (``--db postgresql://...``).
Scripted pairs of players, each its own client (its own connection and loopback address): in each
game the first seat plays through server A, the second through server B, so every move crosses from
one process to the other (``NOTIFY`` on the mover's server, ``LISTEN`` on the other's). Each player
keeps its game's stream open (``GET /api/games/{id}/events``), thinks ``think`` seconds (uniform in
the range) when its stream says it is to move, plays a legal move (seeded choice) with its secret, and
notes when the answer came; its opponent notes when the event of that ply reached its own stream.

Three runs: ``small`` and ``large`` games at once (steady: the latency from a move's answer to its
arrival on the other player's stream, p50 and p95), then ``large`` games again while server B is
stopped and started again a third of the way in (its players retry their moves, their streams
reconnect with ``Last-Event-ID``). After each run every game's stored record is checked against the
moves the players were answered: ``lost`` (answered, not stored), ``duplicated`` (stored twice, or
stored without having been played once), and whether every player's stream caught up (saw every ply
to the end). An event that came before its move's answer counts 0 s. The machine's load average is
read before each run: the figures mean little on a busy machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import ssl
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx

from patchwork_opt.bench.loadtest import client_address, percentile
from patchwork_opt.bench.stream import load_average
from patchwork_opt.bench.web import BenchError, ServerCommand, _wait_ready, free_port
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.models import move_model

#: plies a game is played to at most (the games stop there; a run is shorter than a whole game)
MAX_PLIES = 60
#: seconds a player waits before it tries again (a server restarting)
RETRY_SECONDS = 0.25
#: games set up at once before a run (the set-up is not measured)
SEATING_AT_ONCE = 20
_TLS = ssl.create_default_context()


@dataclass
class Player:
    """One player of one game: its seat, server, client, secret and what it saw."""

    game_id: str
    seed: int
    seat: int
    base_url: str
    secret: str
    source: str | None
    #: ply -> when the event of that ply first reached this player's stream
    seen: dict[int, float] = field(default_factory=dict)
    #: ply -> when this player's move to that ply was answered, and the move sent
    answered: dict[int, float] = field(default_factory=dict)
    played: dict[int, dict[str, Any]] = field(default_factory=dict)
    view: dict[str, Any] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reconnects: int = 0
    conflicts: int = 0
    #: status -> how many of its moves were refused so (none expected but 409 after a restart)
    refused: dict[int, int] = field(default_factory=dict)

    def client(self) -> httpx.AsyncClient:
        """The player's own client (its own connections and address); one TLS context for all of them
        (making one per client takes the event loop tens of milliseconds each, hundreds of clients)."""
        transport = httpx.AsyncHTTPTransport(local_address=self.source, verify=_TLS) if self.source else None
        return httpx.AsyncClient(base_url=self.base_url, transport=transport, timeout=httpx.Timeout(30.0, connect=5.0),
                                 headers={"Authorization": f"Bearer {self.secret}"}, verify=_TLS)


async def _follow(player: Player, stop: asyncio.Event) -> None:
    """The player's stream, reopened with ``Last-Event-ID`` whenever it drops, until ``stop``."""
    async with player.client() as http:
        while not stop.is_set():
            last = max(player.seen, default=None)
            headers = {} if last is None else {"Last-Event-ID": str(last)}
            try:
                async with http.stream("GET", f"/api/games/{player.game_id}/events", headers=headers) as response:
                    if response.status_code != 200:
                        raise httpx.HTTPError(f"status {response.status_code}")
                    await _read_events(player, response, stop)
            except (httpx.HTTPError, OSError):
                player.reconnects += 1
                await asyncio.sleep(RETRY_SECONDS)


async def _read_events(player: Player, response: httpx.Response, stop: asyncio.Event) -> None:
    data = None
    async for line in response.aiter_lines():
        if line.startswith("data:"):
            data = line[5:].strip()
        elif line == "" and data is not None:
            view = json.loads(data)
            player.seen.setdefault(view["ply"], time.monotonic())
            player.view, data = view, None
            player.changed.set()
        if stop.is_set():
            return


def _choose(player: Player, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    state = State.new(seed=player.seed)
    for row in view["moves"]:
        state.apply(Move.from_json(row["move"]))
    moves = [m for _, m in zip(range(12), state.legal_moves(), strict=False)]
    return move_model(rng.choice(moves)).model_dump(mode="json")


async def _play(player: Player, http: httpx.AsyncClient, stop: asyncio.Event, think: tuple[float, float],
                rng: random.Random) -> None:
    """Move whenever the stream says this seat is to move, after thinking; retry through a restart."""
    async with http:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(player.changed.wait(), 1.0)
            player.changed.clear()
            view = player.view
            if (view is None or view["people"]["to_move"] != player.seat or view["ply"] >= MAX_PLIES
                    or view["ply"] + 1 in player.played):  # its stream is not yet past this player's last move
                continue
            await asyncio.sleep(rng.uniform(*think))
            if stop.is_set():
                return
            await _send(player, http, view, _choose(player, view, rng), stop)


async def _send(player: Player, http: httpx.AsyncClient, view: dict[str, Any], move: dict[str, Any],
                stop: asyncio.Event) -> None:
    ply = view["ply"]
    player.played[ply + 1] = move
    while not stop.is_set():
        try:
            answer = await http.post(f"/api/games/{player.game_id}/moves", json={"ply": ply, "move": move})
        except (httpx.HTTPError, OSError):
            await asyncio.sleep(RETRY_SECONDS)
            continue
        if answer.status_code == 200:
            player.answered[ply + 1] = time.monotonic()
        elif answer.status_code == 409:
            player.conflicts += 1  # an answer lost in a restart: the game says whether the move landed
        elif answer.status_code >= 500:
            await asyncio.sleep(RETRY_SECONDS)
            continue
        else:
            player.refused[answer.status_code] = player.refused.get(answer.status_code, 0) + 1
        return


async def _seat_players(servers: tuple[str, str], games: int, seed: int) -> list[Player]:
    """``games`` friend games, the first seat on server A and the second on server B."""
    at_once = asyncio.Semaphore(SEATING_AT_ONCE)

    async def seat_pair(i: int) -> list[Player]:
        game_seed, sources = seed + i, [client_address(servers[seat], 2 * i + seat) for seat in (0, 1)]
        async with at_once:
            made = await _post(sources[0], f"{servers[0]}/api/games", {"opponent": "friend", "seat": 0,
                                                                        "seed": game_seed})
            if "secret" not in made:
                raise BenchError(f"the server refused a friend's game: {made}")
            joined = await _post(sources[1], f"{servers[1]}/api/games/{made['id']}/join", None)
        return [Player(made["id"], game_seed, seat, servers[seat], secret, sources[seat])
                for seat, secret in ((0, made["secret"]), (1, joined["secret"]))]

    pairs = await asyncio.gather(*(seat_pair(i) for i in range(games)))
    return [player for pair in pairs for player in pair]


async def _post(source: str | None, url: str, body: dict[str, Any] | None) -> dict[str, Any]:
    """One request from the player's own address (each player is its own client: the server's
    per-client limits count it apart)."""
    transport = httpx.AsyncHTTPTransport(local_address=source) if source else None
    async with httpx.AsyncClient(transport=transport, timeout=30.0) as http:
        answer: dict[str, Any] = (await http.post(url, json=body)).json()
        return answer


async def _run(servers: tuple[str, str], games: int, seconds: float, think: tuple[float, float], seed: int,
               during: Callable[[], Any] | None = None) -> list[Player]:
    players = await _seat_players(servers, games, seed)
    stop, settle = asyncio.Event(), asyncio.Event()
    rng = random.Random(seed)
    streams = [asyncio.create_task(_follow(p, settle)) for p in players]
    clients = [p.client() for p in players]
    await _opened(players, 300.0)  # the run's clock starts once every player sees its game
    moves = [asyncio.create_task(_play(p, c, stop, think, random.Random(rng.random())))
             for p, c in zip(players, clients, strict=True)]
    if during is not None:
        await asyncio.sleep(seconds / 3)
        await asyncio.to_thread(during)
        await asyncio.sleep(seconds * 2 / 3)
    else:
        await asyncio.sleep(seconds)
    stop.set()
    failed = [r for r in await asyncio.gather(*moves, return_exceptions=True) if isinstance(r, BaseException)]
    if failed:
        raise BenchError(f"{len(failed)} players failed: {failed[0]!r}")
    await _caught_up(servers[0], players, 30.0)
    settle.set()
    for task in streams:
        task.cancel()
    await asyncio.gather(*streams, return_exceptions=True)
    return players


async def _opened(players: list[Player], timeout: float) -> None:
    ends = time.monotonic() + timeout
    while not all(p.view is not None for p in players):
        if time.monotonic() > ends:
            raise BenchError(f"{sum(p.view is None for p in players)} streams did not open within {timeout:g} s")
        await asyncio.sleep(0.1)


async def _caught_up(base_url: str, players: list[Player], timeout: float) -> None:
    """Wait until every stream saw its game's last ply (or ``timeout``)."""
    ends = time.monotonic() + timeout
    while time.monotonic() < ends:
        if all(max(p.seen, default=-1) >= _final_ply(p, players) for p in players):
            return
        await asyncio.sleep(0.2)


def _final_ply(player: Player, players: list[Player]) -> int:
    return max((ply for p in players if p.game_id == player.game_id for ply in p.played), default=0)


async def _records(base_url: str, game_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    async with httpx.AsyncClient(base_url=base_url, timeout=30.0) as http:
        return {gid: (await http.get(f"/api/games/{gid}/record")).json()["moves"] for gid in game_ids}


def _tally(players: list[Player], records: dict[str, list[dict[str, Any]]],
           away: tuple[float, float] | None = None) -> dict[str, Any]:
    """Latencies (those of moves answered while a server was ``away`` apart: they wait for it), and
    the records checked against what the players were answered."""
    latencies: list[float] = []
    waited: list[float] = []
    lost = duplicated = behind = missing = 0
    by_game: dict[str, list[Player]] = {}
    for p in players:
        by_game.setdefault(p.game_id, []).append(p)
    for game_id, pair in by_game.items():
        stored = [Move.from_json(m) for m in records[game_id]]
        sent = {ply: Move.from_json(p.played[ply]) for p in pair for ply in p.played}
        for p in pair:
            other = next(q for q in pair if q is not p)
            for ply, at in p.answered.items():
                if ply > len(stored) or stored[ply - 1] != sent[ply]:
                    lost += 1
                elif ply in other.seen:
                    late = max(0.0, other.seen[ply] - at)
                    (waited if away is not None and away[0] <= at <= away[1] else latencies).append(late)
        duplicated += sum(1 for ply, move in enumerate(stored, 1) if sent.get(ply) != move)
        for p in pair:
            gaps = [ply for ply in range(len(stored) + 1) if ply not in p.seen]
            missing += len(gaps)
            behind += int(max(p.seen, default=-1) < len(stored))
    return {"moves": sum(len(r) for r in records.values()), "latency_p50_s": _round(percentile(latencies, 50)),
            "latency_p95_s": _round(percentile(latencies, 95)), "latency_max_s": _round(max(latencies, default=0.0)),
            "timed": len(latencies), "answered_while_away": len(waited),
            "caught_up_within_s": _round(max(waited, default=0.0)), "lost": lost, "duplicated": duplicated,
            "streams_behind": behind,
            "plies_missing_on_streams": missing, "reconnects": sum(p.reconnects for p in players),
            "conflicts": sum(p.conflicts for p in players),
            "refused": {str(k): sum(p.refused.get(k, 0) for p in players) for k in sorted({k for p in players
                                                                                         for k in p.refused})}}


def _round(seconds: float) -> float:
    return round(seconds, 4)


class _Server:
    """One ``patchwork serve`` process on a fixed port (so it can be started again on it)."""

    def __init__(self, argv_for: ServerCommand, db: str, log: IO[bytes]) -> None:
        self.argv_for, self.db, self.log = argv_for, db, log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(list(self.argv_for(self.port, self.db)), stdout=self.log, stderr=self.log)

    def ready(self) -> None:
        assert self.proc is not None
        _wait_ready(self.url, self.proc, Path(self.log.name), timeout=900.0)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def restart(self) -> tuple[float, float]:
        """Stop and start again; when it went away and when it was back (monotonic seconds)."""
        began = time.monotonic()
        self.stop()
        self.start()
        self.ready()
        return began, time.monotonic()


@contextlib.contextmanager
def _servers(argv_for: ServerCommand, db: str) -> Iterator[tuple[_Server, _Server]]:
    with tempfile.NamedTemporaryFile(prefix="patchwork-bench-friends-", suffix=".log") as log:
        pair = (_Server(argv_for, db, log), _Server(argv_for, db, log))
        try:
            for server in pair:
                server.start()
            for server in pair:
                server.ready()
            yield pair
        finally:
            for server in pair:
                server.stop()


def run_friends_bench(argv_for: ServerCommand, db: str, *, small: int = 50, large: int = 200, seconds: float = 30.0,
                      think: tuple[float, float] = (2.0, 4.0), seed: int = 0,
                      say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Start both servers, run the three runs, stop them; ``BenchError`` when a server cannot serve."""
    if not db.startswith(("postgresql://", "postgres://")):
        raise PatchworkError(f"--db {db!r}: the two servers share a PostgreSQL database (postgresql://...)")
    result: dict[str, Any] = {"think_seconds": list(think), "seconds": seconds, "runs": []}
    with _servers(argv_for, db) as (one, two):
        urls = (one.url, two.url)
        away: list[tuple[float, float]] = []
        for name, games, during in (("steady", small, None), ("steady", large, None),
                                    ("restart", large, lambda: away.append(two.restart()))):
            if say is not None:
                say(f"{name}: {games} games for {seconds:g} s (load {load_average()})")
            load = load_average()
            players = asyncio.run(_run(urls, games, seconds, think, seed + 1000 * len(result["runs"]), during))
            records = asyncio.run(_records(one.url, sorted({p.game_id for p in players})))
            window = away[-1] if during is not None else None
            run = {"run": name, "games": games, "load_before": load, "load_after": load_average(),
                   **_tally(players, records, window)}
            if window is not None:
                run["server_away_s"] = round(window[1] - window[0], 1)
            result["runs"].append(run)
            if say is not None:
                say(run_line(run))
    return result


def render_friends_bench(result: dict[str, Any]) -> str:
    lines = [f"friends: two servers, one PostgreSQL; players think {result['think_seconds'][0]:g}-"
             f"{result['think_seconds'][1]:g} s; {result['seconds']:g} s a run"]
    return "\n".join([*lines, *(run_line(run) for run in result["runs"])])


def run_line(run: dict[str, Any]) -> str:
    away = (f", server B away {run['server_away_s']} s: {run['answered_while_away']} moves meanwhile, on the "
            f"other streams within {run['caught_up_within_s']:.1f} s" if "server_away_s" in run else "")
    refused = f", refused {run['refused']}" if run["refused"] else ""
    return (f"  {run['run']:<8} {run['games']:>4} games: {run['moves']} moves, move -> other stream p50 "
            f"{run['latency_p50_s']:.3f} s, p95 {run['latency_p95_s']:.3f} s (max {run['latency_max_s']:.3f}); "
            f"lost {run['lost']}, duplicated {run['duplicated']}, streams behind {run['streams_behind']}, "
            f"plies missing on streams {run['plies_missing_on_streams']}{refused}{away} "
            f"(load {run['load_before']} -> {run['load_after']})")

"""``patchwork bench agreement``: one voice (issue 40, part 2), measured the way people meet it.

**Hints and the review** (``run_agreement_bench``): games on a fresh ``patchwork serve`` (the web's
own code path, over HTTP) in which the person plays the first move of the page's hint (its default
budget, ``Limits.game_hint_seconds``) every turn, against the solver AI at levels 2-4 (seats
alternating), each game then reviewed at the page's default depth (``PAGE_REVIEW_SECONDS``) as the
page asks for it: the labels of the hinted moves, and whether the review shows each hinted move
with the figures the hint showed. The same game is then reviewed again with the analysis cache
emptied (a review that cannot read the hints' analyses: another database, an evicted entry): the
labels of the hinted moves there. The review's figures chain from ply to ply (``apps/judge.py``),
so a hinted move is shown with the figures of the positions before and after it, not the hint's
own estimate of the move: what is compared with the hint is the move in words.

**The same question** (``run_repeat_bench``): endgame positions of the held-out suite
(``data/exact_suite.json``; measuring only, nothing is fitted on it), each solved exactly with a
long budget for the truth (or first played on along best play to a few plies before the end), then
asked what ``patchwork hint POSITION --time-limit T --json`` answers several times, each in a fresh
thread (its own exact-search table): how often the first move loses where a winning move exists,
and on how many positions the first move changed between asks.

**The search's own uncertainty** (``run_noise_fit``): positions of seeded level 2-3 solver games,
each analysed several times at several budgets; the spread of a move's figures between two analyses
fitted as ``sqrt(A^2 / depth + B^2)`` (depth: the analysis's most visited move's visits): the
constants of ``ai.analysis.position`` (``WIN_NOISE``, ``MARGIN_NOISE``) come from here.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

import httpx
import numpy as np

from patchwork_opt.apps.web.services import PAGE_REVIEW_SECONDS, Limits
from patchwork_opt.bench.web import BenchError, ServerCommand, _hint_move, _server
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation

Phase = Callable[[str, float, float], None]
LEVELS = (2, 3, 4)
FLAGGED = ("inaccuracy", "mistake", "blunder")
_SHOWN = ("win_before", "win_after", "loss", "points_lost", "loss_error", "points_error", "exact")


def _request(http: httpx.Client, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """One request, asked again while the server sheds it (429/503); an error is a ``BenchError``."""
    for _ in range(600):
        response = http.request(method, path, json=body)
        if response.status_code in (429, 503):
            time.sleep(1.0)
            continue
        if response.status_code >= 400:
            raise BenchError(f"{method} {path}: HTTP {response.status_code} {response.text[:200]}")
        return response.json()
    raise BenchError(f"{method} {path}: shed for ten minutes")


def _hinted_game(http: httpx.Client, seed: int, level: int, seat: int) -> tuple[dict[str, Any], dict[int, Any]]:
    """A whole game against the solver AI at ``level``, the person (``seat``) playing the first move
    of the page's hint every turn; the game and, by ply, the hint whose first move was played."""
    game = _request(http, "POST", "/api/games", {"seed": seed, "ai": "solver", "level": level, "seat": seat})
    hinted: dict[int, Any] = {}
    while not game["state"]["over"]:
        url = f"/api/games/{game['id']}"
        if game["ai_to_move"]:
            game = _request(http, "POST", f"{url}/ai-move", {"ply": game["ply"]})
            continue
        first = _request(http, "GET", f"{url}/hint")["hints"][0]
        hinted[game["ply"]] = first
        game = _request(http, "POST", f"{url}/moves", {"ply": game["ply"], "move": _hint_move(first)})
    return game, hinted


def _tally(plies: list[dict[str, Any]], hinted: dict[int, Any]) -> dict[str, Any]:
    """Labels of the hinted plies, and hinted moves the review names unlike the hint."""
    out: dict[str, Any] = {"hinted": 0, "unlike_hint": 0}
    for name in FLAGGED:
        out[name] = 0
    for p in plies:
        hint = hinted.get(p["ply"])
        if hint is None:
            continue
        out["hinted"] += 1
        if p["label"] in FLAGGED:
            out[p["label"]] += 1
        out["unlike_hint"] += p["played_words"] != hint["words"]
    return out


def _added(total: dict[str, Any], part: dict[str, Any]) -> None:
    for key, value in part.items():
        total[key] = total.get(key, 0) + value


def run_agreement_bench(argv_for: ServerCommand, *, games: int = 20, seed: int = 0,
                        levels: Sequence[int] = LEVELS, on_phase: Phase | None = None) -> dict[str, Any]:
    """See the module's docstring: ``games`` hinted games on one fresh server, each reviewed twice."""
    page: dict[str, Any] = {}
    emptied: dict[str, Any] = {}
    rows = []
    with _server(argv_for) as (base_url, _, _, db), httpx.Client(base_url=base_url, timeout=600.0) as http:
        for g in range(games):
            if on_phase is not None:
                on_phase("hinted games, each reviewed twice", g, games)
            level, seat = levels[g % len(levels)], (g // len(levels)) % 2
            game, hinted = _hinted_game(http, seed + g, level, seat)
            params = f"?time_per_move={PAGE_REVIEW_SECONDS}"
            reviewed = _request(http, "GET", f"/api/games/{game['id']}/review{params}")
            with contextlib.closing(sqlite3.connect(db, timeout=30.0)) as conn, conn:
                conn.execute("DELETE FROM analyses")
            again = _request(http, "GET", f"/api/games/{game['id']}/review{params}")
            mine, fresh = _tally(reviewed["plies"], hinted), _tally(again["plies"], hinted)
            _added(page, mine)
            _added(emptied, fresh)
            flagged = [{"ply": p["ply"], "label": p["label"], "hint_win": hinted[p["ply"]]["win"],
                        "hint_exact": hinted[p["ply"]]["exact"], **{k: p[k] for k in _SHOWN}}
                       for review in (reviewed, again) for p in review["plies"]
                       if p["ply"] in hinted and p["label"] in FLAGGED]
            rows.append({"seed": seed + g, "level": level, "seat": seat, "plies": game["ply"],
                         "page": mine, "emptied": fresh, "flagged": flagged})
    return {"games": games, "levels": list(levels), "hint_seconds": Limits().game_hint_seconds,
            "review_seconds": PAGE_REVIEW_SECONDS, "page_review": page, "emptied_cache_review": emptied,
            "per_game": rows}


def render_agreement_bench(result: dict[str, Any]) -> str:
    def line(name: str, t: dict[str, Any]) -> str:
        return (f"  {name:<28} {t['hinted']} hinted moves: {t['mistake']} mistakes, {t['blunder']} blunders, "
                f"{t['inaccuracy']} inaccuracies; {t['unlike_hint']} named unlike the hint")
    return "\n".join([
        f"{result['games']} games, the person playing the hint's first move ({result['hint_seconds']:g} s) against "
        f"the solver at levels {', '.join(map(str, result['levels']))}; reviews at {result['review_seconds']:g} s a "
        "position:",
        line("the page's review", result["page_review"]),
        line("review, analysis cache emptied", result["emptied_cache_review"]),
    ])


# --- the same question, the same answer ---------------------------------------------------------------


def suite_positions(spaces: Sequence[int]) -> list[State]:
    """The held-out suite's positions cut at ``spaces`` (measuring only)."""
    text = resources.files("patchwork_opt").joinpath("data/exact_suite.json").read_text(encoding="utf-8")
    return [from_notation(p["notation"]) for p in json.loads(text)["positions"] if p["space"] in spaces]


def _cut(state: State, plies_left: int, seconds: float) -> State | None:
    """The position ``plies_left`` plies before the end of best play from ``state`` (itself when
    closer; None when the exact search cannot settle ``state`` within ``seconds``)."""
    from patchwork_opt.ai.search import exactcore
    from patchwork_opt.core.clock import Deadline

    solved = exactcore.solve(state, deadline=Deadline.after(seconds), every_move=True, pv_plies=200)
    if not solved.solved:
        return None
    line = solved.best.line
    cut = state.clone()
    try:
        for move in line[: max(0, len(line) - plies_left)]:
            cut.apply(move)
    except PatchworkError:  # a line leaving out a leather patch the search placed on its own
        return None
    return None if cut.is_terminal() else cut


def _truth(state: State, seconds: float) -> dict[str, float] | None:
    """Each move's proven win (1 or 0) by its text, up to the board's symmetries (None when the exact
    search cannot settle the position within ``seconds``)."""
    from patchwork_opt.ai.base import move_key
    from patchwork_opt.ai.search import exactcore
    from patchwork_opt.core.clock import Deadline

    solved = exactcore.solve(state, deadline=Deadline.after(seconds), every_move=True)
    if not solved.solved:
        return None
    return {str(move_key(solved.quilt, m.move)): m.win for m in solved.moves}


def _ask(position: str, seconds: float) -> dict[str, Any]:
    """What ``patchwork hint POSITION --time-limit seconds --json`` answers (``apps.hints.hint_for``),
    asked in a fresh thread: its own exact-search table, as a new process has, with the compiled
    searches loaded, as in a server or the engine (a cold process spends its first second loading
    them: issue 44)."""
    from patchwork_opt.apps.hints import AdvisedHints, hint_for
    from patchwork_opt.core.clock import Deadline
    from patchwork_opt.formats.inputs import LoadedInput

    state = from_notation(position)
    answers: list[Any] = []
    worker = threading.Thread(target=lambda: answers.append(
        hint_for(LoadedInput(quilt=Quilt(state.quilts[state.to_move()]), state=state),
                                deadline=Deadline.after(seconds))))
    worker.start()
    worker.join()
    if not answers or not isinstance(answers[0], AdvisedHints):
        raise BenchError(f"no hint for {position}")
    found: dict[str, Any] = answers[0].model_dump()
    return found


def run_repeat_bench(*, spaces: Sequence[int] = (44,), asks: int = 4, seconds: float = 1.0,
                     truth_seconds: float = 30.0, plies_left: int | None = None,
                     on_phase: Phase | None = None) -> dict[str, Any]:
    """See the module's docstring; with ``plies_left`` each position is first played on along best
    play to that many plies before the end (the late endgames a hint is expected to prove)."""
    from patchwork_opt.ai.base import move_key
    from patchwork_opt.core.move import Move
    from patchwork_opt.formats.notation import to_notation

    positions = suite_positions(spaces)
    known = lost = changed = 0
    searches: dict[str, int] = {}
    for i, state in enumerate(positions):
        if on_phase is not None:
            on_phase("endgames asked again", i, len(positions))
        if plies_left is not None:
            found = _cut(state, plies_left, truth_seconds)
            if found is None:
                continue
            state = found
        truth = _truth(state, truth_seconds)
        if truth is None or 1.0 not in truth.values():
            continue  # not settled, or every move loses: nothing to get wrong
        known += 1
        firsts = set()
        for _ in range(asks):
            answer = _ask(to_notation(state), seconds)
            top = Move.from_json(answer["hints"][0]["line"][0])
            key = str(move_key(state.quilts[state.to_move()], top))
            firsts.add(key)
            lost += truth.get(key) == 0.0
            searches[answer["search"]] = searches.get(answer["search"], 0) + 1
        changed += len(firsts) > 1
    return {"spaces": list(spaces), "plies_left": plies_left, "positions": len(positions),
            "known_with_a_win": known, "asks": asks,
            "seconds": seconds, "first_move_lost": lost, "first_move_changed": changed, "searches": searches}


def render_repeat_bench(result: dict[str, Any]) -> str:
    cut = f", played on to {result['plies_left']} plies before the end" if result["plies_left"] is not None else ""
    return (f"{result['known_with_a_win']} suite endgames (of {result['positions']} cut at "
            f"{', '.join(map(str, result['spaces']))}{cut}) with a winning move, each asked {result['asks']} times at "
            f"{result['seconds']:g} s: the first move lost {result['first_move_lost']} times, changed on "
            f"{result['first_move_changed']} positions; searches {result['searches']}")


# --- the search's own uncertainty ---------------------------------------------------------------------


def _game_positions(count: int, seed: int) -> list[State]:
    """``count`` positions of seeded level 2-3 solver games (iteration budgets: the same on any machine)."""
    from patchwork_opt.ai.bots.registry import make_bot

    rng = random.Random(seed)
    out: list[State] = []
    game = 0
    while len(out) < count:
        state = State.new(seed=seed + game)
        bots = [make_bot("solver", level=2, seed=game, iterations=400),
                make_bot("solver", level=3, seed=game, iterations=800)]
        while not state.is_terminal() and len(out) < count:
            if rng.random() < 0.3:
                out.append(state.clone())
            state.apply(bots[state.to_move()].decide(state.clone()).move)
        game += 1
    return out


def run_noise_fit(*, positions: int = 80, repeats: int = 3, seconds: Sequence[float] = (0.1, PAGE_REVIEW_SECONDS, 1.0),
                  seed: int = 1000, on_phase: Phase | None = None) -> dict[str, Any]:
    """Each position analysed ``repeats`` times at each budget of ``seconds`` (the web's analysis:
    ``apps.wiring.analyse``); the squared difference of a sampled move's figures between two
    analyses at the same budget fitted by least squares as ``A^2 (1/d1 + 1/d2) + 2 B^2`` (d: each
    analysis's depth, ``position.depth``). Several budgets give the fit depths to tell A from B."""
    from patchwork_opt.ai.analysis.position import depth
    from patchwork_opt.ai.base import move_key
    from patchwork_opt.apps.wiring import analyse
    from patchwork_opt.core.clock import ThinkBudget

    rows: list[tuple[float, float, float]] = []  # (1/d1 + 1/d2, win difference, margin difference)
    states = _game_positions(positions, seed)
    for i, state in enumerate(states):
        if on_phase is not None:
            on_phase("positions analysed again", i, len(states))
        for budget in seconds:
            analyses = [analyse(state, ThinkBudget(budget)) for _ in range(repeats)]
            runs = [(max(depth(a), 1), {move_key(a.quilt, m.move): m for m in a.moves}) for a in analyses]
            for j, (d1, one) in enumerate(runs):
                for d2, other in runs[j + 1:]:
                    for key, m in one.items():
                        o = other.get(key)
                        if o is None or m.outcome_proven or o.outcome_proven or not (m.visits and o.visits):
                            continue
                        rows.append((1 / d1 + 1 / d2, m.win - o.win, m.margin - o.margin))
    if not rows:
        raise BenchError("no move was sampled in two analyses: nothing to fit")
    design = np.array([[x, 2.0] for x, _, _ in rows])
    fitted = {}
    for name, column in (("win", 1), ("margin", 2)):
        squares = np.array([r[column] ** 2 for r in rows])
        coef, *_ = np.linalg.lstsq(design, squares, rcond=None)
        a, b = (math.sqrt(max(float(c), 0.0)) for c in coef)
        differences = sorted(abs(r[column]) for r in rows)
        fitted[name] = {"A": round(a, 4), "B": round(b, 4),
                        "p95_difference": round(differences[int(0.95 * (len(differences) - 1))], 4)}
    return {"positions": len(states), "repeats": repeats, "seconds": list(seconds), "pairs": len(rows), **fitted}


def render_noise_fit(result: dict[str, Any]) -> str:
    return "\n".join([
        f"{result['pairs']} moves sampled in two of {result['repeats']} analyses of {result['positions']} positions "
        f"at {', '.join(f'{s:g}' for s in result['seconds'])} s; one standard deviation = sqrt(A^2 / depth + B^2):",
        *(f"  {name:<6} A {result[name]['A']}, B {result[name]['B']} (95% of differences under "
          f"{result[name]['p95_difference']})" for name in ("win", "margin")),
    ])

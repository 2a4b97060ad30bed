"""``patchwork bench workshop --page``: the workshop's figures as a person meets them, on the page.

A fresh ``patchwork serve`` (``bench web``'s), warmed up as ``bench workshop`` warms it, and the
workshop page at 1280x800 in Debian's Chromium driven by Playwright (the ``dev`` extra). Each
request is opened as the page's own address (its quilt and patches, as a shared link opens it),
then its button is pressed and timed *in the page*: from the click to the first frame drawn after
the answer is on the quilt (``performance.now`` and ``requestAnimationFrame``; ``ANSWER_TIMER``,
which the browser tests use too):

- **best placements drawn**: ``bench hint``'s random mid-game requests (a quilt 25-55% covered, the
  patch, 3-6 next patches chosen after it as its look-ahead), "Best placements": p50/p95/max.
  Target: p95 at most 0.5 s. The page sends no pool (every other patch may still come), where
  ``bench workshop`` sends the request's pool.
- **fills from the page**: ``bench solvers``' instances (same seed), "Optimal fill" (a job, its
  progress polled) to the verdict drawn: median, p95, and how many read "optimal (proven)".
  Target: median at most 2 s, every one proven.

The machine's load average is part of the result, before and after.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from patchwork_opt.bench.fill import bench_instances
from patchwork_opt.bench.hint import random_midgame
from patchwork_opt.bench.loadtest import percentile
from patchwork_opt.bench.web import BenchError, ServerCommand, _server
from patchwork_opt.bench.workshop import _warm_up

Progress = Callable[[str, float, float], None]
CHROMIUM = os.environ.get("PATCHWORK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
DESKTOP: Any = {"width": 1280, "height": 800}

#: In the page: press the button (by id), wait until the page has drawn a new answer (body's
#: data-answer changes) or said why not (the error line), then for the next frame; the milliseconds
#: from the click, the verdict and the error line.
ANSWER_TIMER = """async ({button, timeout}) => {
  const before = document.body.dataset.answer || "";
  const error = document.getElementById("error");
  const started = performance.now();
  document.getElementById(button).click();
  await new Promise((done) => {
    const look = () => {
      const now = document.body.dataset.answer || "";
      if ((now && now !== before && document.body.dataset.busy === "false") || error.textContent
          || performance.now() - started > timeout) done();
      else requestAnimationFrame(look);
    };
    look();
  });
  await new Promise((done) => requestAnimationFrame(() => done()));
  return { ms: performance.now() - started, verdict: document.getElementById("verdict").textContent,
           error: error.textContent, answer: document.body.dataset.answer || "" };
}"""


def workshop_address(quilt: int, patches: list[int], **options: str) -> str:
    """The workshop's address for a quilt (its 81-bit mask, as the position notation writes it)
    and patches (the first to place, the rest its look-ahead), as ``nav.js``'s workshopHref writes it."""
    query = [f"quilt={quilt:021x}", "patches=" + ",".join(str(p) for p in patches)]
    query += [f"{name}={value}" for name, value in options.items()]
    return "/workshop?" + "&".join(query)


def open_workshop(page: Any, base_url: str, address: str) -> None:
    """The page at ``address``, once it is ready (its modules loaded, its address read)."""
    page.goto(base_url + address)
    page.wait_for_selector("body[data-ready='true']", timeout=120_000)


def timed_answer(page: Any, button: str, timeout_s: float = 60.0) -> dict[str, Any]:
    """Press ``button`` and time the answer drawn (``ANSWER_TIMER``); BenchError on no answer."""
    got: dict[str, Any] = page.evaluate(ANSWER_TIMER, {"button": button, "timeout": timeout_s * 1000})
    if got["error"] or not got["answer"]:
        raise BenchError(f"{button}: no answer drawn within {timeout_s:g} s: {got['error'] or 'timed out'}")
    return {"seconds": got["ms"] / 1000, "verdict": got["verdict"]}


def _ms(values: list[float]) -> dict[str, float]:
    return {"p50_ms": round(statistics.median(values) * 1000, 1), "p95_ms": round(percentile(values, 95) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1)}


def page_placements(page: Any, base_url: str, count: int, seed: int, progress: Progress | None) -> dict[str, Any]:
    """``count`` random mid-game requests, each opened as an address and answered on the page."""
    rng = random.Random(seed)
    seconds = []
    for i in range(count):
        quilt, patch, upcoming, _ = random_midgame(rng)
        open_workshop(page, base_url, workshop_address(quilt, [patch, *upcoming]))
        seconds.append(timed_answer(page, "best-placements")["seconds"])
        if progress is not None:
            progress("best placements on the page", i + 1, count)
    return {"requests": count, "seed": seed, **_ms(seconds)}


def page_fills(page: Any, base_url: str, sets: int, seed: int, progress: Progress | None) -> dict[str, Any]:
    """``bench solvers``' instances, each opened as an address, filled on the page."""
    seconds, proven, rows = [], 0, []
    for i, (quilt, ids) in enumerate(bench_instances(sets, seed=seed)):
        open_workshop(page, base_url, workshop_address(quilt, ids))
        got = timed_answer(page, "optimal-fill")
        seconds.append(got["seconds"])
        proven += got["verdict"] == "optimal (proven)"
        rows.append({"patches": len(ids), "filled": quilt.bit_count(), "ms": round(got["seconds"] * 1000, 1),
                     "verdict": got["verdict"]})
        if progress is not None:
            progress("fills on the page", i + 1, sets)
    return {"sets": sets, "seed": seed, "proven": proven, "median_ms": round(statistics.median(seconds) * 1000, 1),
            **_ms(seconds), "rows": rows}


def run_page_bench(
    argv_for: ServerCommand, *, placements: int = 200, sets: int = 40, seed: int = 1, chromium: str = CHROMIUM,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Start the server, warm it up, open the page in Chromium, measure both figures, stop them."""
    if not Path(chromium).exists():
        raise BenchError(f"Chromium is not at {chromium} (apt-get install -y chromium, or --chromium PATH)")
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    with _server(argv_for) as (base_url, _, _, _), httpx.Client(base_url=base_url, timeout=120.0) as http:
        if progress is not None:
            progress("warming up", 0, 1)
        _warm_up(http)
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport=DESKTOP)
                open_workshop(page, base_url, workshop_address(1, [12, 3]))
                timed_answer(page, "best-placements", 600.0)  # untimed: the page's modules, the first answer
                started = time.perf_counter()
                result: dict[str, Any] = {"placements": page_placements(page, base_url, placements, seed, progress),
                          "fills": page_fills(page, base_url, sets, seed, progress)}
            finally:
                browser.close()
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["load"] = {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]}
    return result


def render_page_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench workshop --page``."""
    placed, fills, load = result["placements"], result["fills"], result["load"]
    return "\n".join([
        f"best placements drawn on the page  p50 {placed['p50_ms']:7.1f} ms  p95 {placed['p95_ms']:7.1f} ms  max "
        f"{placed['max_ms']:7.1f} ms  ({placed['requests']} requests, seed {placed['seed']})   target p95 <= 500 ms",
        f"fills from the page (bench solvers, seed {fills['seed']})  median {fills['median_ms']:7.1f} ms  p95 "
        f"{fills['p95_ms']:7.1f} ms  max {fills['max_ms']:7.1f} ms  proven {fills['proven']}/{fills['sets']}   "
        "target median <= 2000 ms, all proven",
        f"load average {load['before'][0]:.2f} before, {load['after'][0]:.2f} after "
        f"({result['seconds']:.0f} s measured)",
    ])

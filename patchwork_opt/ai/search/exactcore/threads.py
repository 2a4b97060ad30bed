"""The exact search's threads: whose table a search uses, the stacks kept with a table, root work
spread over threads, and the one watcher that stops searches at their deadlines.

The compiled search releases the GIL, so the root moves of one ``solve`` are handed out to threads
(``run_on``), each on its own ``Stack``, all sharing one table. Stacks are megabytes each, so they are
made once per table and kept with it (``stacks``): a new one per search would cost more than a
small search. A search not given a table uses its thread's own (``thread_table``).

A search is stopped by raising the stop flag of its control array; one watcher thread for the
whole process raises it at the search's deadline (``stop_at``): a timer thread per search costs
milliseconds to start on a busy machine.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
import weakref
from collections.abc import Callable

import numpy as np

from patchwork_opt.ai.search.exactcore.search import STOP, Stack
from patchwork_opt.ai.search.exactcore.table import ExactTable

_LOCAL = threading.local()
_STACKS: weakref.WeakKeyDictionary[ExactTable, list[Stack]] = weakref.WeakKeyDictionary()
_STACKS_LOCK = threading.Lock()


def thread_table() -> ExactTable:
    """The calling thread's own table, for searches not given one (made once per thread)."""
    table = getattr(_LOCAL, "table", None)
    if table is None:
        table = _LOCAL.table = ExactTable()
    return table


def stacks(table: ExactTable, threads: int) -> list[Stack]:
    """The search stacks of ``threads`` threads searching ``table``, made once and kept with it."""
    with _STACKS_LOCK:
        kept = _STACKS.setdefault(table, [])
        while len(kept) < threads:
            kept.append(Stack(len(kept)))
        return kept[:threads]


def run_on(workers: list[Stack], work: Callable[[Stack], None]) -> None:
    """``work(stack)`` for each stack: in the calling thread when there is one, else a thread each
    (joined before returning)."""
    if len(workers) == 1:
        work(workers[0])
        return
    pool = [threading.Thread(target=work, args=(w,), daemon=True) for w in workers]
    for t in pool:
        t.start()
    for t in pool:
        t.join()


class _Deadlines:
    """One thread for every search's deadline in the process: it raises a search's stop flag when
    its time is up (a timer thread per search costs milliseconds to start on a busy machine)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, np.ndarray]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None

    def add(self, deadline: float, shared: np.ndarray) -> None:
        """Raise ``shared[STOP]`` at ``deadline`` (``time.perf_counter``; harmless once the search
        is over, so nothing is ever cancelled)."""
        with self._cond:
            heapq.heappush(self._heap, (deadline, next(self._order), shared))
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="exact-search-deadlines", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _watch(self) -> None:
        with self._cond:
            while True:
                now = time.perf_counter()
                while self._heap and self._heap[0][0] <= now:
                    heapq.heappop(self._heap)[2][STOP] = 1
                self._cond.wait(self._heap[0][0] - now if self._heap else None)


_DEADLINES = _Deadlines()


def stop_at(deadline: float, shared: np.ndarray) -> None:
    """Raise the stop flag of the control array ``shared`` at ``deadline`` (``time.perf_counter``)."""
    _DEADLINES.add(deadline, shared)

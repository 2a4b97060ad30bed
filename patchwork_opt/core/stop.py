"""A stop signal for long work (solver searches, CP-SAT runs) that another thread may end early:
the web service sets it when the client who asked has gone."""

from __future__ import annotations

import threading
from collections.abc import Callable


class StopSignal:
    """Every stopper attached runs once when the signal is set; one attached after ``set`` runs at
    once, so work that starts late never starts. The work then returns the best it has, as at its
    time limit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._set = False
        self._stoppers: list[Callable[[], None]] = []

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        with self._lock:
            self._set = True
            stoppers, self._stoppers = self._stoppers, []
        for stop in stoppers:
            stop()

    def attach(self, stop: Callable[[], None]) -> None:
        with self._lock:
            if not self._set:
                self._stoppers.append(stop)
                return
        stop()

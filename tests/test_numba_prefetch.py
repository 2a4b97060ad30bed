"""The one module on Numba's internals: it builds on the installed Numba, or the test says which
version it was written for (the search itself falls back to no prefetch and stays correct)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from patchwork_opt.ai.search import numba_prefetch


def test_the_prefetch_intrinsic_builds_on_the_installed_numba() -> None:
    assert numba_prefetch.LIVE, (
        f"the table prefetch of the exact search was written for Numba {numba_prefetch.WRITTEN_FOR} and "
        f"cannot be built on Numba {numba.__version__} ({numba_prefetch.REASON}): update "
        "patchwork_opt/ai/search/numba_prefetch.py or drop it (the search runs without it)"
    )


def test_a_prefetch_changes_nothing_it_touches() -> None:
    @numba.njit(cache=False)
    def touch(table: np.ndarray) -> int:
        total = 0
        for row in range(table.shape[0]):
            numba_prefetch.prefetch_row(table, row)
            total += table[row, 0]
        return total

    table = np.arange(64, dtype=np.int64).reshape(8, 8)
    before = table.copy()
    assert touch(table) == int(table[:, 0].sum())
    assert np.array_equal(table, before)


def test_a_numba_that_refuses_the_intrinsic_gets_the_plain_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> object:
        raise AttributeError("module 'numba.core.cgutils' has no attribute 'get_item_pointer'")

    monkeypatch.setattr(numba_prefetch, "_intrinsic", refused)
    built, live, reason = numba_prefetch._build()
    assert not live and "get_item_pointer" in reason
    assert built is numba_prefetch._nothing

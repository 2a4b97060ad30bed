"""A software prefetch for compiled code: the one place the project builds on Numba's internals.

The compiled exact search's one random memory access is its table probe; asking the processor to
load the bucket as soon as a child's key is known hides part of that wait. Numba has no public way
to say so, so ``prefetch_row`` is an ``@intrinsic`` that emits LLVM's prefetch through
``numba.core.cgutils`` (written for Numba ``WRITTEN_FOR``). Measured end to end on the exact
search's benchmark (docs/benchmarks/ai.md, "The evaluator slot"): 3 pairs of `bench exact --from 37`
alternating with and without it, 1.03x, 1.13x and 1.12x nodes per second; an earlier paired run
on a busier machine saw 1.02-1.05x. Small, but `bench exact` may not get slower.

Should a later Numba refuse to build it, the search does not break: ``prefetch_row`` falls back to
a function that does nothing (``LIVE`` False, ``REASON`` says why) and
``tests/test_numba_prefetch.py`` fails, naming the version the intrinsic was written for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)

#: The Numba version the intrinsic was written and measured with.
WRITTEN_FOR = "0.68"


def _intrinsic() -> Any:
    """The prefetch intrinsic, built from Numba's internals (imported here only)."""
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    @intrinsic
    def prefetch_row(typingctx: object, table: types.Array, row: types.Integer) -> object:
        """Start loading row ``row`` of a 2-D array into the cache."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> object:
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            zero = context.get_constant(types.intp, 0)
            ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1], zero])
            i32 = ir.IntType(32)
            ptr = builder.bitcast(ptr, ir.IntType(8).as_pointer())
            fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
            # the typed-pointer name: LLVM with opaque pointers upgrades it to llvm.prefetch.p0
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
            builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
            return context.get_dummy_value()

        return types.void(table, row), codegen

    return prefetch_row


@nb.njit(cache=True, inline="always")
def _nothing(table: np.ndarray, row: int) -> None:
    """The stand-in where the intrinsic cannot be built: no prefetch, the same results."""
    return None


#: The intrinsic being tried (``_build``), which ``_probe`` calls: a module global, so that the probe
#: is compiled once and cached like every kernel (compiled at every import it cost 0.4 s a start).
_candidate: Any = None


@nb.njit(cache=True)
def _probe(table: np.ndarray) -> None:
    _candidate(table, 0)


def _build() -> tuple[Any, bool, str]:
    """The intrinsic when it compiles and runs here, else the stand-in, and why."""
    global _candidate
    try:
        _candidate = _intrinsic()
        _probe(np.zeros((1, 8), dtype=np.int64))
        return _candidate, True, ""
    except Exception as exc:  # any failure of Numba's internals: fall back, say why
        return _nothing, False, f"{type(exc).__name__}: {exc}".splitlines()[0]


_built, LIVE, REASON = _build()
#: ``prefetch_row(table, row)`` as compiled code calls it.
prefetch_row = cast(Callable[[np.ndarray, int], None], _built)

"""The compiled search's leaf-evaluator slot, on Numba's public first-class function types.

An evaluator is any ``@numba.njit`` function ``evaluate(s, params, rng) -> (value, win, margin)``
(``EVALUATOR_SIGNATURE``). ``slot_for`` hands it to compiled code once: Numba compiles it for
exactly that signature (or refuses it) and keeps it, as a ``numba.types.FunctionType`` value, in a
one-item typed list (``SLOT_TYPE``) that the search takes as an argument. So the search is
compiled and cached once for every evaluator, a leaf's call goes straight to the evaluator's
compiled code (its errors raised as from any compiled call), and entering the search from Python
costs no more than passing an array. Handing Numba the evaluator itself at every entry instead
costs a lookup of its compiled code each time (85-113 us, 14% of the learned value's iterations
at 256 a slice, measured).

This replaced a Numba intrinsic that built the function value from the evaluator's compile result
(Numba's internals, which pinned Numba to one minor version): measured end to end it bought no
more than noise over this (``docs/benchmarks/ai.md``, "The evaluator slot").
"""

from __future__ import annotations

import functools
import re
from typing import Any

import numba as nb
import numpy as np
from numba import types
from numba.extending import is_jitted
from numba.typed import List

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)

#: Terminal escapes (colours, bold) in a message.
_ESCAPES = re.compile(r"\x1b\[[0-9;]*m")

#: The numba type of the search's ``numpy.random.Generator``.
GENERATOR_TYPE = nb.typeof(np.random.default_rng(0))
#: The type of every leaf evaluator: ``evaluate(s, params, rng) -> (value, win, margin)``.
EVALUATOR_SIGNATURE = types.UniTuple(types.float64, 3)(types.int64[::1], types.float64[::1], GENERATOR_TYPE)
#: An evaluator as a value of compiled code (a first-class function of that signature).
EVALUATOR_TYPE = types.FunctionType(EVALUATOR_SIGNATURE)
#: What the search takes: a typed list holding the one evaluator.
SLOT_TYPE = types.ListType(EVALUATOR_TYPE)


def _slot(evaluate: Any) -> Any:
    """``evaluate``, accepted as an ``EVALUATOR_TYPE`` (Numba compiles it for exactly
    ``EVALUATOR_SIGNATURE``, return type included, as it hands it over, or refuses it), in a list."""
    out = List.empty_list(EVALUATOR_TYPE)
    out.append(evaluate)
    return out


@functools.cache
def _compiled_slot() -> Any:
    """``_slot`` compiled (or loaded from the cache) at first use rather than at import: a given
    signature compiles at once, and the signature is what makes Numba take the evaluator as a
    first-class function (one compiled slot for every evaluator)."""
    return nb.njit(SLOT_TYPE(EVALUATOR_TYPE), cache=True)(_slot)


def slot_for(function: Any, name: str) -> Any:
    """The slot holding ``function`` for the search (compiling ``function`` on first use); a
    ``function`` that cannot fill it is refused with one line saying why (TypeError). The slot does
    not keep ``function`` alive: its holder must."""
    if not is_jitted(function):
        raise TypeError(f"evaluator {name!r}: its function must be compiled with numba.njit")
    try:
        return _compiled_slot()(function)
    except TypeError as error:  # Numba's typing error: its second line says what failed
        # Numba highlights its messages with terminal escapes (when it finds a colour terminal): a
        # one-line error says the words alone
        plain = _ESCAPES.sub("", str(error))
        lines = [line.strip() for line in plain.splitlines() if line.strip()]
        why = lines[1] if len(lines) > 1 else "".join(lines)
        raise TypeError(f"evaluator {name!r} does not compile as evaluate(s, params, rng) -> "
                        f"(value, win, margin) with three floats: {why}") from error

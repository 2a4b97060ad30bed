"""The numbers the compiled search reads, as arrays: placements and 7x7 windows as two words, patch prices, the track.

Built once at import from the engine (``core.catalogue``, ``core.state``, ``core.bitboard``) and the
heuristic's value table (``ai.heuristic.VALUE_PER_TIME``), on the one two-word quilt layout of
``core.bitwords``. Compiled functions read them as globals, which Numba freezes into the machine code
(``jitcache`` fingerprints this file with the code that reads it).
"""

from __future__ import annotations

import numpy as np

from patchwork_opt.ai.heuristic import VALUE_PER_TIME
from patchwork_opt.core.bitboard import WINDOW_MASKS
from patchwork_opt.core.bitwords import split
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS
from patchwork_opt.core.state import MARKS_UPTO, SPACES_AFTER

N_PATCHES = len(PATCHES)
MAX_PLACEMENTS = max(len(p) for p in PLACEMENTS)
#: PL_N[patch]: its placements; PL_LO/PL_HI[patch, i]: placement i's cells (``catalogue.PLACEMENTS`` order).
PL_N = np.array([len(p) for p in PLACEMENTS], dtype=np.int64)
PL_LO = np.zeros((N_PATCHES, MAX_PLACEMENTS), dtype=np.int64)
PL_HI = np.zeros((N_PATCHES, MAX_PLACEMENTS), dtype=np.int64)
for _pid, _masks in enumerate(PLACEMENTS):
    for _i, _m in enumerate(_masks):
        PL_LO[_pid, _i], PL_HI[_pid, _i] = split(_m)
#: The nine 7x7 windows (``bitboard.WINDOW_MASKS`` order) as two words.
WIN_LO = np.array([split(w)[0] for w in WINDOW_MASKS], dtype=np.int64)
WIN_HI = np.array([split(w)[1] for w in WINDOW_MASKS], dtype=np.int64)
COST_A = np.array([p.cost for p in PATCHES], dtype=np.int64)
TIME_A = np.array([p.time for p in PATCHES], dtype=np.int64)
INCOME_A = np.array([p.income for p in PATCHES], dtype=np.int64)
AREA_A = np.array([p.area for p in PATCHES], dtype=np.int64)
#: VPT[patch, position]: the heuristic's purchase value of a patch bought there.
VPT = np.array(VALUE_PER_TIME, dtype=np.float64)
#: MARKS[space]: income marks at or before a space; AFTER[space]: the spaces after it, as bits (the
#: leather patches a token passes).
MARKS = np.array(MARKS_UPTO, dtype=np.int64)
AFTER = np.array(SPACES_AFTER, dtype=np.int64)

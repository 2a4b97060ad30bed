"""Proof-number search (df-pn) against the exact search's null window at 0, for win/loss alone (issue 35).

The question: does the player to move win (``exactcore`` value > 0)? Two ways to answer it, compared
by the positions each looks at (node counts do not depend on the machine's load; seconds do):

* (a) df-pn ``ProofSearch.prove`` of the root (``ai/search/proofnumber.py``);
* (b) ``exactcore``'s alpha-beta with the window (0, 1) at the root (one ``_Run``: the table's bounds,
  static bounds, move ordering; its answer is > 0 exactly when the mover wins);
* (c) the same per root move: df-pn ``prove_moves`` (one table across the moves) against a
  null-window probe at 0 per root move sharing one ``exactcore`` table; nodes summed over the moves.

Each search gets ``--node-limit`` nodes (for (c), for all the moves together) and an empty table.
Positions: the held-out suite (``bench/exact_suite.py``) at spaces 44 and 40 (all of them) and the
first ``--at-36`` per style at 36. Measuring only: nothing is fitted on the suite. The two searches'
answers are checked against each other wherever both finished.

Run as ``python -m patchwork_opt.bench.proofnumber``: progress on stderr, the table on stdout.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from patchwork_opt.ai.search import exactcore
from patchwork_opt.ai.search.fastcore import encode, is_terminal, to_move
from patchwork_opt.ai.search.proofnumber import EPSILON, ProofSearch
from patchwork_opt.bench.exact_suite import STYLES, SuitePosition, load_suite
from patchwork_opt.core.state import State

NODE_LIMIT = 3_000_000
SPACES = (44, 40, 36)


@dataclass(slots=True)
class Answer:
    """One search's answer on one position: ``wins`` (one per question; None: not settled within the
    budget), the nodes and seconds it took."""

    wins: list[bool | None]
    nodes: int
    seconds: float

    @property
    def proven(self) -> bool:
        return all(w is not None for w in self.wins)


@dataclass(slots=True)
class Row:
    """The four searches on one position."""

    position: SuitePosition
    answers: dict[str, Answer] = field(default_factory=dict)


KINDS: tuple[str, ...] = ("dfpn root", "alpha-beta root", "dfpn moves", "alpha-beta moves")


def suite_positions(at_36: int) -> list[SuitePosition]:
    """The suite's positions at 44 and 40, and the first ``at_36`` of each style at 36."""
    suite = load_suite()
    out = [p for p in suite if p.space in (44, 40)]
    for style in STYLES:
        out += [p for p in suite if p.space == 36 and p.style == style][:at_36]
    return out


def _null_window(run: exactcore._Run, flat: object, p: int) -> bool | None:
    """Whether ``flat`` is worth > 0 to ``p`` by one alpha-beta probe at the window (0, 1), or None
    when the run's budget ran out."""
    if run.shared[exactcore.STOP]:
        return None
    try:
        return run.value(run.workers[0], flat, p, 0, 1) > 0  # type: ignore[arg-type]
    except exactcore._Stopped:
        return None


def alpha_beta(state: State, table: exactcore.ExactTable, node_limit: int, every_move: bool) -> Answer:
    """The exact search's answer at the null window 0: for the root, or per root move (one run, one
    table, ``node_limit`` for all the moves)."""
    table.clear()
    table.adopt(list(state.circle))
    run = exactcore._Run(table, node_limit, 1)
    flat = encode(state)
    p = int(to_move(flat))
    started = time.perf_counter()
    if not every_move:
        wins = [_null_window(run, flat, p)]
    else:
        wins = []
        for _, k, lo, hi in exactcore._root_moves(flat, list(state.circle)):
            child = exactcore.play(flat, k, lo, hi)
            if is_terminal(child):
                wins.append(bool(exactcore.final_value(child, p) > 0))
            else:
                wins.append(_null_window(run, child, p))
    return Answer(wins, run.nodes, time.perf_counter() - started)


def proof_number(state: State, search: ProofSearch, node_limit: int, every_move: bool) -> Answer:
    """df-pn's answer: for the root, or per root move (one table, ``node_limit`` for all the moves)."""
    started = time.perf_counter()
    if every_move:
        wins = [w for _, w in search.prove_moves(state, node_limit=node_limit)]
    else:
        wins = [search.prove(state, node_limit=node_limit).win]
    return Answer(wins, search.nodes, time.perf_counter() - started)


def measure(positions: Sequence[SuitePosition], *, node_limit: int = NODE_LIMIT, table_mb: float = 128.0,
            epsilon: float = EPSILON, log: bool = True) -> list[Row]:
    """Every position with the four searches; progress on stderr when ``log``."""
    table = exactcore.ExactTable(table_mb)
    search = ProofSearch(table_mb, epsilon)
    if positions:  # compile (or load) both searches before any clock starts
        first = positions[0].state()
        proof_number(first, search, 10, False)
        alpha_beta(first, table, 10, False)
    rows = []
    for i, position in enumerate(positions):
        state = position.state()
        row = Row(position)
        row.answers["dfpn root"] = proof_number(state, search, node_limit, False)
        row.answers["alpha-beta root"] = alpha_beta(state, table, node_limit, False)
        row.answers["dfpn moves"] = proof_number(state, search, node_limit, True)
        row.answers["alpha-beta moves"] = alpha_beta(state, table, node_limit, True)
        rows.append(row)
        if log:
            cells = "  ".join(f"{k}: {_cell(a)}" for k, a in row.answers.items())
            print(f"[{i + 1}/{len(positions)}] {position.style} @{position.space}: {cells}", file=sys.stderr,
                  flush=True)
    return rows


def _cell(a: Answer) -> str:
    wins = "".join("?" if w is None else "W" if w else "L" for w in a.wins)
    return f"{a.nodes} {wins if len(wins) <= 12 else wins[:12] + '...'}"


def disagreements(rows: Sequence[Row]) -> int:
    """Questions both searches settled with different answers (there should be none)."""
    bad = 0
    for row in rows:
        for ours, theirs in (("dfpn root", "alpha-beta root"), ("dfpn moves", "alpha-beta moves")):
            for a, b in zip(row.answers[ours].wins, row.answers[theirs].wins, strict=True):
                bad += a is not None and b is not None and a != b
    return bad


def head_to_head(rows: Sequence[Row], ours: str, theirs: str) -> str:
    """On the positions both searches settled (beyond the root's static bounds: more than 10 nodes
    each), how often ``ours`` needed fewer nodes, and the geometric mean of ours / theirs."""
    pairs = [(r.answers[ours].nodes, r.answers[theirs].nodes) for r in rows
             if r.answers[ours].proven and r.answers[theirs].proven
             and min(r.answers[ours].nodes, r.answers[theirs].nodes) > 10]
    only_ours = sum(r.answers[ours].proven and not r.answers[theirs].proven for r in rows)
    only_theirs = sum(r.answers[theirs].proven and not r.answers[ours].proven for r in rows)
    if not pairs:
        return f"{ours} vs {theirs}: no position both settled with search"
    fewer = sum(a < b for a, b in pairs)
    ratio = math.exp(statistics.fmean(math.log(a / b) for a, b in pairs))
    return (f"{ours} vs {theirs}: {len(pairs)} positions both settled by search; {ours} fewer nodes on "
            f"{fewer}; nodes ratio (geometric mean) {ratio:.2f}; settled by {ours} alone {only_ours}, "
            f"by {theirs} alone {only_theirs}")


def _median(rows: Sequence[Row], kind: str, node_limit: int) -> str:
    """The median nodes; an unproven search counts as more than the cap (shown as '>cap' when the
    median falls on one)."""
    nodes = sorted(r.answers[kind].nodes if r.answers[kind].proven else node_limit + 1 for r in rows)
    med = statistics.median(nodes)
    return f">{node_limit:,}" if med > node_limit else f"{med:,.0f}"


def table(rows: Sequence[Row], node_limit: int) -> str:
    """The result as a Markdown table by space: median nodes and proven count of each search, then
    each search's nodes per second over all its runs."""
    lines = ["| space | positions | " + " | ".join(f"{k}: median nodes | {k}: proven" for k in KINDS) + " |",
             "|---" * (2 + 2 * len(KINDS)) + "|"]
    for space in SPACES:
        these = [r for r in rows if r.position.space == space]
        if not these:
            continue
        cells = []
        for kind in KINDS:
            proven = sum(r.answers[kind].proven for r in these)
            cells += [_median(these, kind, node_limit), f"{proven}/{len(these)}"]
        lines.append(f"| {space} | {len(these)} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("| search | nodes | seconds | nodes/s |")
    lines.append("|---|---|---|---|")
    for kind in KINDS:
        nodes = sum(r.answers[kind].nodes for r in rows)
        seconds = sum(r.answers[kind].seconds for r in rows)
        lines.append(f"| {kind} | {nodes:,} | {seconds:.1f} | {nodes / max(seconds, 1e-9):,.0f} |")
    lines.append("")
    for ours, theirs in (("dfpn root", "alpha-beta root"), ("dfpn moves", "alpha-beta moves")):
        lines.append(head_to_head(rows, ours, theirs))
    lines.append(f"disagreements between the searches: {disagreements(rows)}; load average at the end: "
                 f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Measure and print the table (progress on stderr)."""
    parser = argparse.ArgumentParser(prog="python -m patchwork_opt.bench.proofnumber",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--node-limit", type=int, default=NODE_LIMIT, help="nodes per search (default 3,000,000)")
    parser.add_argument("--at-36", type=int, default=2, help="positions per style at space 36 (default 2)")
    parser.add_argument("--epsilon", type=float, default=EPSILON, help=f"df-pn's epsilon (default {EPSILON})")
    parser.add_argument("--table-mb", type=float, default=128.0, help="each search's table (default 128 MB)")
    args = parser.parse_args(argv)
    positions = suite_positions(args.at_36)
    rows = measure(positions, node_limit=args.node_limit, table_mb=args.table_mb, epsilon=args.epsilon)
    print(f"node limit {args.node_limit:,} a search; df-pn epsilon {args.epsilon}; tables {args.table_mb:g} MB")
    print(table(rows, args.node_limit))


if __name__ == "__main__":
    main()

"""The greedy player: the value-per-time purchase rule with the heuristic placement."""

from __future__ import annotations

from patchwork_opt.ai.base import Decision
from patchwork_opt.ai.explain import describe, leather_decision
from patchwork_opt.ai.heuristic import ADVANCE_VALUE, greedy_plan
from patchwork_opt.ai.seeding import require_running
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import _, number


class GreedyBot:
    """Buys the affordable offered patch with the best ``(2*area + income*marks_ahead - cost) / time``
    when it beats the one button per space that advancing pays; places it where it touches the
    most edges and covered cells without cutting off holes. Deterministic (the seed is unused)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
        """The greedy move (at once: ``stop`` has nothing to end)."""
        require_running(state)
        p = state.to_move()
        if state.pending >= 0:
            return leather_decision(state)
        plan = greedy_plan(state, p)
        if plan.offer_index < 0:
            return Decision(
                ADVANCE,
                f"advances because no affordable patch that fits earns more than "
                f"{ADVANCE_VALUE:g} button per space of time",
                expected=None,
                stats={"value_per_time": ADVANCE_VALUE},
            )
        pid = state.circle[plan.offer_index]
        move = Move("buy", pid, plan.mask)
        return Decision(
            move,
            # Translators: why the greedy AI buys {move}: the buttons a space of time it earns ({value}: "0.75")
            _("{move} because it earns {value} buttons per space of time (advancing earns {advance})",
              move=describe(move), value=number(plan.value, 2), advance=number(ADVANCE_VALUE)),
            stats={"value_per_time": plan.value},
        )

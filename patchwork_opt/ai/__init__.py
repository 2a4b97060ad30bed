"""AI players. The engine never imports OR-Tools: solver-backed advice is plugged in by the caller."""

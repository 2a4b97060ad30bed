"""How text names things, so every command and page says it the same way."""

from __future__ import annotations


def player_name(p: int) -> str:
    """Seat ``p`` in text: "Player 1" and "Player 2" (JSON and the notation keep 0 and 1)."""
    return f"Player {p + 1}"


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 button``, ``2 buttons``; ``words`` for an irregular plural."""
    return f"{count} {word if count == 1 else (words or word + 's')}"

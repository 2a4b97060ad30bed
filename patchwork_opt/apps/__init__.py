"""Applications on top of the engine and the AI: terminal play, the web service, bot matches."""

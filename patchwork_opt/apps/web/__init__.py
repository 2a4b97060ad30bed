"""The HTTP service and the web page (``patchwork serve``): FastAPI app, SQLite games, static page."""

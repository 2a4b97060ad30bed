"""The HTTP service and its pages (``patchwork serve``): the FastAPI app, its routers and bodies, the stores
in SQLite or PostgreSQL, the job queue, the analysis streams and the static pages."""

"""``python tests/browser/rigged_server.py PORT DB``: the app as ``patchwork serve`` runs it, but with
the rigged analysis of ``tests/rigged_analysis.py`` (the first legal buy of every position is the
best move, any other a blunder) and the greedy AI: a server whose reviews, teaching verdicts and
exercises the browser tests know in advance (``served_pages.rigged_server``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: rigged_analysis

from rigged_analysis import Rigged, rigged_services

from patchwork_opt.apps.web.server import run_server
from patchwork_opt.apps.web.services import Limits

if __name__ == "__main__":
    port, db = int(sys.argv[1]), sys.argv[2]
    run_server(rigged_services(Rigged()), Limits(), host="127.0.0.1", port=port, db=db, say=print)

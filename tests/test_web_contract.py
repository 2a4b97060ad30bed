"""The API contract: the OpenAPI schema says what the service accepts and answers, and Schemathesis,
a property-based API tester, finds no request the schema allows that is refused without a reason the
schema cannot say (``schemathesis.toml``), no undocumented status, body or header, and no 5xx.

The app is served by uvicorn on loopback with the real solvers and AI, their time capped so that a
bounded number of generated requests per operation (seeded: the same every run) finishes quickly.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from test_web_faults import serving

from patchwork_opt.ai.bots.registry import BOT_NAMES
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import Limits
from patchwork_opt.apps.web.solver_services import web_services

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_PER_OPERATION = 8

pytest.importorskip("schemathesis", reason="the dev extra installs schemathesis")

#: Generous where the tester would otherwise meet the guards (it creates many games, one at a time),
#: short where the solvers and the AI would spend their usual seconds.
LIMITS = Limits(
    max_solver_seconds=0.1, max_ai_seconds=0.05, max_review_seconds=1.0, game_hint_seconds=0.05,
    client_games=100_000, client_jobs=100, max_queued=100,
    max_analysis_seconds=0.5, analysis_processes=1, max_analyses=100, client_analyses=100,
)


def test_the_openapi_schema_documents_each_routes_answers(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db", web_services(0.05), LIMITS)
    schema = app.openapi()
    paths = schema["paths"]
    answers = {(path, method): set(op["responses"]) for path, ops in paths.items() for method, op in ops.items()}
    assert answers[("/api/games", "post")] >= {"201", "400", "413", "422", "429", "503"}
    assert answers[("/api/games/{game_id}/moves", "post")] >= {"200", "404", "409", "413", "422"}
    assert answers[("/api/games/{game_id}/review", "get")] >= {"200", "404", "409", "422", "429", "503"}
    assert answers[("/api/hint", "post")] >= {"200", "400", "413", "422", "429", "503"}
    assert "404" not in answers[("/api/hint", "post")] and "409" not in answers[("/api/games", "post")]
    busy = paths["/api/hint"]["post"]["responses"]["503"]
    assert "Retry-After" in busy["headers"] and busy["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorBody"
    }
    hint = schema["components"]["schemas"]["HintRequest"]
    assert [branch["required"] for branch in hint["oneOf"]] == [["position"], ["record"], ["quilt", "patch"]]
    assert hint["properties"]["next"]["uniqueItems"] and "pattern" in hint["properties"]["position"]
    assert schema["components"]["schemas"]["FillRequest"]["properties"]["patches"]["uniqueItems"]
    ai = schema["components"]["schemas"]["CreateGameRequest"]["properties"]["ai"]
    assert ai["enum"] == ["", *BOT_NAMES]  # "": the server's default AI


def test_schemathesis_with_all_its_checks_finds_no_failure(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db", web_services(0.05), LIMITS)
    with serving(app) as url:
        assert httpx.get(f"{url}/api/health", timeout=10).status_code == 200
        done = subprocess.run(
            [
                sys.executable, "-m", "schemathesis.cli", "--config-file", str(ROOT / "schemathesis.toml"),
                "--no-color", "run", f"{url}/openapi.json", "--checks", "all",
                "--max-examples", str(EXAMPLES_PER_OPERATION), "--seed", "1", "--workers", "1",
                "--request-timeout", "30",
            ],
            capture_output=True, text=True, timeout=600, cwd=tmp_path,
            env={**os.environ, "SCHEMATHESIS_HOOKS": ""},
        )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-6000:]
    assert " passed" in report and "failure" not in report.split("SUMMARY")[-1].lower(), report[-3000:]

"""The house layout: the engine imports light, imports go one way, no module pair imports each other."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("networkx", "rich", "fastapi", "uvicorn", "starlette", "ortools", "ray", "typer")
ENGINE_MODULES = (
    "patchwork_opt.core.state",
    "patchwork_opt.core.move",
    "patchwork_opt.formats.record",
    "patchwork_opt.formats.notation",
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports() -> dict[str, set[str]]:
    """Every project module and the project modules it imports (anywhere in the file)."""
    files = [*ROOT.joinpath("patchwork_opt").rglob("*.py"), *ROOT.joinpath("solvers").rglob("*.py"), ROOT / "cli.py"]
    names = {_module_name(f) for f in files}
    graph: dict[str, set[str]] = {}
    for f in files:
        found: set[str] = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                submodules = {f"{node.module}.{alias.name}" for alias in node.names} & names
                found.update(submodules or {node.module})  # ``from package import submodule`` names the submodule
        graph[_module_name(f)] = {n for n in found if n in names}
    return graph


def test_importing_the_engine_loads_no_heavy_library() -> None:
    code = (
        "import sys\n"
        f"for m in {ENGINE_MODULES!r}: __import__(m)\n"
        f"print(' '.join(h for h in {HEAVY!r} if h in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


def test_no_two_modules_import_each_other() -> None:
    graph = _imports()
    pairs = sorted({tuple(sorted((a, b))) for a, deps in graph.items() for b in deps if a in graph.get(b, set())})
    assert pairs == []


#: The house, bottom to top (docs/architecture.md): the engine (``core``, ``formats``, and
#: ``jitcache``, where compiled code keeps its cache), then the solvers and the AI side by side, then
#: puzzles, the applications, the benchmarks and ``cli.py``. Each layer may import only the layers
#: below it; the solvers import the engine alone.
ENGINE = ("patchwork_opt.core", "patchwork_opt.formats", "patchwork_opt.jitcache")
ABOVE_AI = ("solvers", "patchwork_opt.puzzles", "patchwork_opt.apps", "patchwork_opt.bench", "cli")


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_the_solvers_import_only_the_engine() -> None:
    wrong = sorted(
        f"{module} -> {dep}"
        for module, deps in _imports().items()
        if _under(module, ("solvers",))
        for dep in deps
        if not _under(dep, (*ENGINE, "solvers"))
    )
    assert wrong == []


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        ("patchwork_opt.core", ("patchwork_opt.formats", "patchwork_opt.ai", *ABOVE_AI)),
        ("patchwork_opt.formats", ("patchwork_opt.ai", *ABOVE_AI)),
        ("patchwork_opt.ai", ABOVE_AI),
        ("patchwork_opt.ai.search", ("patchwork_opt.ai.learned", "patchwork_opt.ai.analysis", "patchwork_opt.ai.bots")),
        ("patchwork_opt.ai.learned", ("patchwork_opt.ai.analysis", "patchwork_opt.ai.bots")),
        ("patchwork_opt.ai.analysis", ("patchwork_opt.ai.bots",)),
        ("patchwork_opt.puzzles", ("patchwork_opt.apps", "patchwork_opt.bench", "cli")),
        ("patchwork_opt.apps", ("patchwork_opt.bench", "cli")),
        ("patchwork_opt.bench", ("cli",)),
    ],
)
def test_imports_go_one_way(layer: str, forbidden: tuple[str, ...]) -> None:
    wrong = sorted(
        f"{module} -> {dep}"
        for module, deps in _imports().items()
        if _under(module, (layer,))
        for dep in deps
        if _under(dep, forbidden)
    )
    assert wrong == []


def test_only_the_state_calls_its_private_transitions() -> None:
    private = {"_buy", "_advance", "_leather", "_token_to"}
    calls = []
    for f in [*ROOT.joinpath("patchwork_opt").rglob("*.py"), *ROOT.joinpath("solvers").rglob("*.py")]:
        if f.name == "state.py" and f.parent.name == "core":
            continue
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in private
                and not (isinstance(node.value, ast.Name) and node.value.id == "self")
            ):
                calls.append(f"{f.relative_to(ROOT)}:{node.lineno} {node.attr}")
    assert calls == []


def test_no_function_of_the_web_application_is_longer_than_80_lines() -> None:
    """The service is small routers and helpers (issue 23), not one function of closures."""
    long = []
    for f in ROOT.joinpath("patchwork_opt", "apps", "web").rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > 80:
                    long.append(f"{f.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []


def test_routes_raise_domain_errors_not_http_exceptions() -> None:
    """One error table: a route raises the domain error and the one handler answers its
    ``http_status`` (core/errors.py); only the body-size guard, outside every route, answers 413."""
    routers = ROOT.joinpath("patchwork_opt", "apps", "web", "routers")
    assert [f.name for f in routers.rglob("*.py") if "HTTPException" in f.read_text(encoding="utf-8")] == []

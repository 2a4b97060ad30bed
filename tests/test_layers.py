"""The house layout: the engine imports light, imports go one way, no module pair imports each other."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("networkx", "rich", "fastapi", "uvicorn", "starlette", "ortools", "ray", "typer", "babel")
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


#: The house, bottom to top (docs/architecture.md): the engine (``core``, ``formats``, ``i18n``, the
#: language words are said in, and ``jitcache``, where compiled code keeps its cache), then the
#: solvers and the AI side by side, then puzzles, the applications, the benchmarks and ``cli.py``.
#: Each layer may import only the layers below it; the solvers import the engine alone.
ENGINE = ("patchwork_opt.core", "patchwork_opt.formats", "patchwork_opt.i18n", "patchwork_opt.jitcache",
          "patchwork_opt.cluster")
ABOVE_AI = ("solvers", "patchwork_opt.puzzles", "patchwork_opt.apps", "patchwork_opt.rl", "patchwork_opt.bench", "cli")


#: Inside ``puzzles``: what makes, banks, selects and keeps puzzles, above the kinds it uses.
PUZZLES_ABOVE_KINDS = tuple(f"patchwork_opt.puzzles.{m}" for m in (
    "endgame", "making", "banking", "bank", "selection", "stores", "themes"))
#: The web service's stores, one per concern, and the connection layer under them (issue 41).
WEB_STORES = tuple(f"patchwork_opt.apps.web.{m}" for m in (
    "database", "database_postgres", "game_store", "analysis_store", "puzzle_store", "visitor_store", "storage"))
WEB_ABOVE_STORES = tuple(f"patchwork_opt.apps.web.{m}" for m in (
    "routers", "deps", "app", "server", "services", "solver_services", "jobs", "analyses"))


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
        ("patchwork_opt.i18n", ("patchwork_opt.core", "patchwork_opt.formats", "patchwork_opt.ai", *ABOVE_AI)),
        ("patchwork_opt.formats", ("patchwork_opt.ai", *ABOVE_AI)),
        ("patchwork_opt.ai", ABOVE_AI),
        ("patchwork_opt.ai.search", ("patchwork_opt.ai.learned", "patchwork_opt.ai.analysis", "patchwork_opt.ai.bots")),
        ("patchwork_opt.ai.learned", ("patchwork_opt.ai.analysis", "patchwork_opt.ai.bots")),
        ("patchwork_opt.ai.analysis", ("patchwork_opt.ai.bots",)),
        ("patchwork_opt.puzzles", ("patchwork_opt.apps", "patchwork_opt.rl", "patchwork_opt.bench", "cli")),
        # the kinds (their types, formats, judges) sit under what makes, banks and serves puzzles, and
        # never reach the solvers (the service reads every kind without loading OR-Tools)
        ("patchwork_opt.puzzles.kinds", (*PUZZLES_ABOVE_KINDS, "solvers")),
        # the stores of each concern know their database, not the routes that use them
        *[(store, WEB_ABOVE_STORES) for store in WEB_STORES],
        ("patchwork_opt.rl", ("patchwork_opt.bench", "cli")),  # an application: nothing below it imports it
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


#: The compiled exact search's rooms (``ai/search/exactcore/``), bottom to top (docs/architecture.md):
#: canonical quilts, move generation, values and bounds, the table, the tree, the threads, the root
#: (``solve``, anytime) and the estimate of a search's length. Each imports only rooms below it; the
#: package itself only names what callers use, and callers outside it import the package, not a room.
EXACT = "patchwork_opt.ai.search.exactcore"
EXACT_ROOMS = ("symmetry", "moves", "bounds", "table", "search", "threads", "root", "estimate")
#: The compiled UCT search's rooms (``ai/search/fastcore/``), bottom to top, under the same rule: the
#: tables, the flat position, the quilt's geometry, the rules' transitions, the heuristic, the rollout,
#: the tree, the leaf evaluators and the search from Python.
FAST = "patchwork_opt.ai.search.fastcore"
FAST_ROOMS = ("tables", "position", "geometry", "rules", "heuristic", "playout", "tree", "evaluators", "search")
#: The packing search's rooms (``solvers/search/fastpack/``), bottom to top, under the same rule: cells
#: on ``core.bitwords``, the bounds, the state the kernels share, a node, the loop, a problem indexed,
#: the ``Packer``.
PACK = "solvers.search.fastpack"
PACK_ROOMS = ("cells", "bounds", "state", "node", "loop", "index", "packer")


@pytest.mark.parametrize(("package", "names"), [(EXACT, EXACT_ROOMS), (FAST, FAST_ROOMS), (PACK, PACK_ROOMS)],
                         ids=["exact", "fast", "pack"])
def test_the_compiled_search_rooms_import_only_rooms_below_them(package: str, names: tuple[str, ...]) -> None:
    graph = _imports()
    rooms = [f"{package}.{room}" for room in names]
    assert sorted(m for m in graph if m.startswith(package + ".")) == sorted(rooms)  # every room is named
    wrong = sorted(
        f"{module} -> {dep}"
        for i, module in enumerate(rooms)
        for dep in graph[module]
        if _under(dep, (package,)) and dep not in rooms[:i]
    )
    assert wrong == []
    reaching_in = sorted(
        f"{module} -> {dep}"
        for module, deps in graph.items()
        if not _under(module, (package,))
        for dep in deps
        if dep in rooms
    )
    assert reaching_in == []


def _kind_tables(tree: ast.AST, kinds: set[str]) -> list[tuple[int, str]]:
    """Where code keys a table by kind names or tests a kind's name: a dict, tuple, list or set whose
    strings are all kind names, a comparison or ``case`` with one, a lookup by one (``x["fill"]``,
    ``x.get("fill")``), a class with fields, or a call with keywords, named after two kinds or more
    (a view's ``endgame`` and ``fill``: one named after one kind may hold a puzzle of it)."""
    def named(node: ast.AST | None) -> bool:
        return isinstance(node, ast.Constant) and node.value in kinds

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict | ast.Tuple | ast.List | ast.Set):
            items = [k for k in node.keys if k is not None] if isinstance(node, ast.Dict) else node.elts
            strings = [i for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]
            if strings and all(named(i) for i in strings):
                found.append((node.lineno, "a table of kinds"))
        elif isinstance(node, ast.Compare) and any(named(n) for n in (node.left, *node.comparators)):
            found.append((node.lineno, "a test of a kind's name"))
        elif isinstance(node, ast.MatchValue) and named(node.value):
            found.append((node.value.lineno, "a case of a kind's name"))
        elif (isinstance(node, ast.Subscript) and named(node.slice)) or (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                and node.args and named(node.args[0])):
            found.append((node.lineno, "a lookup by a kind's name"))
        elif isinstance(node, ast.Call) and len({k.arg for k in node.keywords} & kinds) > 1:
            found.append((node.lineno, "keywords named after kinds"))
        elif isinstance(node, ast.ClassDef):
            fields = {f.target.id for f in node.body if isinstance(f, ast.AnnAssign) and isinstance(f.target, ast.Name)}
            if len(fields & kinds) > 1:
                found.append((node.lineno, f"{node.name}'s fields named after kinds"))
    return found


def _assigned(trees: Iterable[ast.AST], name: str) -> set[str]:
    """The strings assigned to ``name`` anywhere in ``trees`` (a kind's ``name = "fill"``)."""
    return {str(node.value.value) for tree in trees for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            and [getattr(t, "id", "") for t in node.targets] == [name]}


def test_no_module_tests_which_kind_a_puzzle_is() -> None:
    """Puzzle kinds are types in one registry (``puzzles/kinds``, issue 41): code outside it asks a
    puzzle's kind (``kinds.kind_of``) instead of testing (or casting to) the class of a puzzle,
    verdict or view; and what differs by kind (how it is made and banked, what a view tells of it)
    is said by the kind, not by a table keyed by kind names elsewhere (issue 48). Tables are looked
    for in the modules that import the puzzles (``fill`` elsewhere names the workshop's job and the
    solver, not a puzzle kind)."""
    kinds = ROOT / "patchwork_opt" / "puzzles" / "kinds"
    trees = {f: ast.parse(f.read_text(encoding="utf-8")) for f in kinds.glob("*.py")}
    classes = {node.name for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    assert {"EndgamePuzzle", "FillPuzzle"} <= classes, "is the detection broken?"
    names = _assigned(trees.values(), "name")
    assert {"endgame", "fill", "exercise"} <= names, "is the detection broken?"
    puzzles = {node.name for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
               and any(isinstance(s, ast.Assign) and [getattr(t, "id", "") for t in s.targets] == ["kind"]
                       for s in node.body)}  # a kind's puzzle class says its kind
    assert {"EndgamePuzzle", "FillPuzzle", "Exercise"} <= puzzles, "is the detection broken?"
    tests, tables = [], []
    for f in [*ROOT.joinpath("patchwork_opt").rglob("*.py"), ROOT / "cli.py"]:
        if f.parent == kinds:
            continue
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
                named = {n.id for n in ast.walk(node.args[-1]) if isinstance(n, ast.Name)}
                if named & classes:
                    tests.append(f"{f.relative_to(ROOT)}:{node.lineno} {sorted(named & classes)}")
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "cast"
                  and isinstance(node.args[0], ast.Name) and node.args[0].id in puzzles):
                tests.append(f"{f.relative_to(ROOT)}:{node.lineno} cast to {node.args[0].id}")  # assumes the kind
        imports_puzzles = any(isinstance(n, ast.ImportFrom) and (n.module or "").startswith("patchwork_opt.puzzles")
                              for n in ast.walk(tree))
        if imports_puzzles or f.is_relative_to(ROOT / "patchwork_opt" / "puzzles"):
            tables += [f"{f.relative_to(ROOT)}:{line} {what}" for line, what in _kind_tables(tree, names)]
    assert tests == []
    assert tables == []
    # a kind names the module that makes its puzzles (it is not imported: making needs the solvers)
    makers = _assigned(trees.values(), "maker")
    assert makers and all(_under(m, PUZZLES_ABOVE_KINDS) for m in makers), makers


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


def test_the_command_line_only_parses_calls_and_renders() -> None:
    """cli.py holds the commands' options and one call each: the work is in the applications (issue
    48), so the file stays short."""
    assert len(ROOT.joinpath("cli.py").read_text(encoding="utf-8").splitlines()) <= 350


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


#: Functions over the limit that other helpers are still splitting (issue 31); the lead empties it.
STILL_LONG: set[str] = set()
LONGEST = 60
#: The limit for every function, compiled kernels too (issue 48).
LONGEST_KERNEL = 150
_COMPILERS = {"njit", "jit"}


def _compiler_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def _kernels(tree: ast.Module) -> set[str]:
    """Functions compiled by Numba: decorated with ``njit``/``jit``, or handed to one
    (``nb.njit(signature)(function)``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(_compiler_name(d) in _COMPILERS for d in node.decorator_list):
            names.add(node.name)
        elif isinstance(node, ast.Call) and _compiler_name(node.func) in _COMPILERS:
            names.update(arg.id for arg in node.args if isinstance(arg, ast.Name))
    return names


def _functions() -> list[tuple[str, bool, int]]:
    """(file::name, compiled by Numba, lines) of every function."""
    files = [*ROOT.joinpath("patchwork_opt").rglob("*.py"), *ROOT.joinpath("solvers").rglob("*.py"), ROOT / "cli.py"]
    found = []
    for f in files:
        tree = ast.parse(f.read_text(encoding="utf-8"))
        kernels = _kernels(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            found.append((f"{f.relative_to(ROOT).as_posix()}::{node.name}", node.name in kernels, lines))
    return found


def test_no_function_that_directs_work_is_longer_than_60_lines() -> None:
    """Plain Python has no speed reason to be long: a long function is named steps (issue 31)."""
    long = sorted(name for name, kernel, lines in _functions() if not kernel and lines > LONGEST)
    assert [name for name in long if name not in STILL_LONG] == []


def test_no_function_is_longer_than_150_lines_compiled_kernels_too() -> None:
    """No kernel is kept whole for speed: Numba inlines small functions (``inline="always"``), so a
    long kernel is named steps like any other function (issue 48: the packing search's 352-line
    loop was the last)."""
    functions = _functions()
    assert sum(kernel for _, kernel, _ in functions) > 20, "the compiled searches' kernels: is the detection broken?"
    assert sorted(name for name, _, lines in functions if lines > LONGEST_KERNEL) == []


def test_cp_sat_is_handed_its_time_in_one_place() -> None:
    """One clock to the bottom (core/clock.py): CP-SAT's time limit is set once, in the placement
    model's ``solve``, from the caller's deadline by ``clock.solver_seconds`` (the benchmarks' plain
    baseline models set their own)."""
    files = [*ROOT.joinpath("patchwork_opt").rglob("*.py"), *ROOT.joinpath("solvers").rglob("*.py")]
    found = []
    for f in files:
        if f.parent.name == "bench":
            continue
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Attribute) and t.attr == "max_time_in_seconds" for t in node.targets
            ):
                value = node.value
                named = value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else ""
                found.append((f.relative_to(ROOT).as_posix(), named))
    assert found == [("solvers/model.py", "solver_seconds")]


def test_the_applications_build_the_cp_sat_advisor_in_one_place() -> None:
    """``apps/wiring.solver_advisor`` is the one place the applications and the benchmarks build the
    CP-SAT placement advisor (``solvers.advisor.SolverAdvisor``): each call site asks it."""
    files = [*ROOT.joinpath("patchwork_opt").rglob("*.py"), *ROOT.joinpath("solvers").rglob("*.py"), ROOT / "cli.py"]
    built = sorted(
        f.relative_to(ROOT).as_posix()
        for f in files
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "SolverAdvisor"
    )
    assert set(built) == {"patchwork_opt/apps/wiring.py"}


#: The most lines a product module may hold (issue 48): past it, a module is two jobs or a folder of rooms.
LONGEST_MODULE = 600


def test_no_product_module_is_longer_than_600_lines() -> None:
    files = [*ROOT.joinpath("patchwork_opt").rglob("*.py"), *ROOT.joinpath("solvers").rglob("*.py"), ROOT / "cli.py"]
    lengths = {f.relative_to(ROOT).as_posix(): len(f.read_text(encoding="utf-8").splitlines()) for f in files}
    assert max(lengths.values()) > 300, "is the count broken?"
    assert sorted(name for name, lines in lengths.items() if lines > LONGEST_MODULE) == []

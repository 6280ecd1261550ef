"""docs/DESIGN.md stays true to the code.

The design document names modules by path (``src/kopa_inspect/plans.py``) and by dotted name
(``kopa_inspect.steps.build.split_of``). A rename or a removal that leaves the document behind
fails here, and so does a new import cycle that the document's "Known debts" section does not
name. Everything is read with ``ast``: nothing under ``src/`` is imported.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
DESIGN = ROOT / "docs" / "DESIGN.md"
README = ROOT / "README.md"
PACKAGES = ("kopa_inspect", "edge_synth", "kopa_grpo")

# A repository path as the document writes it: src/..., tests/..., ending in a name or a slash.
_PATH = re.compile(r"(?<![\w./-])((?:src|tests|benchmarks|scripts|docs)/[\w./-]*[\w/])")
# A dotted name rooted in one of our packages; a trailing sentence dot is not part of it.
_DOTTED = re.compile(r"(?<![\w./-])((?:" + "|".join(PACKAGES) + r")(?:\.[A-Za-z_]\w*)*)")
_MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|tmp|root|home|Users|mnt)/")


def module_file(dotted: str, src: Path = SRC) -> Path | None:
    """The source file of a module or package, or None when there is none."""
    base = src.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _names_defined(body: list[ast.stmt]) -> dict[str, ast.AST]:
    """Names bound at one level of a module or class body (defs, classes, assignments, imports)."""
    names: dict[str, ast.AST] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        names[n.id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = node
        elif isinstance(node, ast.If | ast.Try):
            names.update(_names_defined(node.body))
    return names


def dotted_problem(dotted: str, src: Path = SRC) -> str | None:
    """Why a dotted name does not resolve (None when it does): the longest prefix must be a module,
    and what follows it a name that module (then that class) defines."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        path = module_file(".".join(parts[:cut]), src)
        if path is not None:
            break
    else:
        return f"{dotted}: no module {parts[0]}"
    body: list[ast.stmt] = ast.parse(path.read_text(encoding="utf-8")).body
    for attr in parts[cut:]:
        defined = _names_defined(body)
        if attr not in defined:
            return f"{dotted}: {'.'.join(parts[:cut])} has no module or name {attr!r}"
        node = defined[attr]
        body = node.body if isinstance(node, ast.ClassDef) else []
        cut += 1
    return None


def reference_problems(text: str, root: Path = ROOT, src: Path = SRC) -> list[str]:
    """Every path or dotted module name in ``text`` that does not exist in the repository."""
    problems = []
    for path in sorted(set(_PATH.findall(text))):
        if not (root / path).exists():
            problems.append(f"{path}: no such file or folder")
    for dotted in sorted(set(_DOTTED.findall(text))):
        if (problem := dotted_problem(dotted, src)) is not None:
            problems.append(problem)
    return problems


def _module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _existing(dotted: str, src: Path) -> str | None:
    while dotted and module_file(dotted, src) is None:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def import_graph(src: Path = SRC, packages: tuple[str, ...] = PACKAGES) -> nx.DiGraph:
    """Module -> module imports among our packages, lazy (in-function) ones included and
    ``TYPE_CHECKING`` blocks left out. A module importing its own parent package is no edge:
    Python initializes the parent first whatever the order."""
    graph = nx.DiGraph()
    for path in sorted(p for pkg in packages for p in (src / pkg).rglob("*.py")):
        module = _module_name(path, src)
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        type_only = {
            id(n)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for n in ast.walk(node)
        }
        graph.add_node(module)
        for node in ast.walk(tree):
            if id(node) in type_only:
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = module.split(".") if is_package else module.split(".")[:-1]
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                subs = [
                    f"{base}.{alias.name}" for alias in node.names if module_file(f"{base}.{alias.name}", src)
                ]
                targets = subs or [base]
            else:
                continue
            for target in targets:
                if target.split(".")[0] not in packages:
                    continue
                found = _existing(target, src)
                if found and found != module and not module.startswith(found + "."):
                    graph.add_edge(module, found)
    return graph


def import_cycles(graph: nx.DiGraph) -> list[list[str]]:
    """The groups of modules that import each other, directly or around a loop."""
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    return match.group(1) if match else ""


# --- the checker itself: it must catch a wrong document and pass a right one ------------------------


def test_checker_flags_names_that_do_not_exist() -> None:
    text = (
        "See `src/kopa_inspect/no_such_module.py`, `src/grpo/`, `kopa_inspect.scorers.nothing`, "
        "`edge_synth.cli` and `kopa_inspect.steps.build.no_such_function`."
    )
    problems = reference_problems(text)
    assert len(problems) == 5, problems
    for name in ("no_such_module.py", "src/grpo", "scorers.nothing", "edge_synth.cli", "no_such_function"):
        assert any(name in p for p in problems), (name, problems)


def test_checker_accepts_names_that_exist() -> None:
    text = (
        "`src/kopa_inspect/plans.py`, `src/edge_synth/`, `tests/data/answer_corpus`, "
        "`kopa_inspect.steps.build.split_of`, `kopa_inspect.apis.PROVIDER_MODULES`, "
        "`kopa_inspect.execution.Session.call`, `kopa_grpo.rewards`. A sentence ends in kopa_inspect.plans."
    )
    assert reference_problems(text) == []


def test_import_graph_sees_lazy_cycles(tmp_path: Path) -> None:
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from toy import a\n")
    (pkg / "a.py").write_text("from toy.b import f\n")
    (pkg / "b.py").write_text("def f():\n    from toy import a  # late, to dodge the cycle\n    return a\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from toy import a\n")
    graph = import_graph(tmp_path, ("toy",))
    assert import_cycles(graph) == [["toy.a", "toy.b"]]
    assert not graph.has_edge("toy.c", "toy.a")  # a type-only import is no dependency


# --- the document -----------------------------------------------------------------------------------


def test_design_doc_names_only_modules_that_exist() -> None:
    problems = reference_problems(DESIGN.read_text(encoding="utf-8"))
    assert problems == [], "docs/DESIGN.md names what the code does not have:\n" + "\n".join(problems)


def test_design_doc_lists_every_import_cycle_as_a_known_debt() -> None:
    debts = section(DESIGN.read_text(encoding="utf-8"), "Known debts")
    assert debts, "docs/DESIGN.md has no '## Known debts' section"
    missing = [
        cycle
        for cycle in import_cycles(import_graph())
        if not all(f"`{module}`" in debts for module in cycle)
    ]
    assert missing == [], f"import cycles not named under 'Known debts' in docs/DESIGN.md: {missing}"


def test_design_doc_names_no_machine_paths() -> None:
    assert _MACHINE_PATH.findall("built in /work/main, logs in /tmp/x") == ["/work/", "/tmp/"]
    found = _MACHINE_PATH.findall(DESIGN.read_text(encoding="utf-8"))
    assert found == [], f"docs/DESIGN.md names machine paths: {found}"


def test_readme_points_to_the_design_doc_in_the_repository() -> None:
    readme = README.read_text(encoding="utf-8")
    assert "docs/DESIGN.md" in readme
    assert "shared/DESIGN.md" not in readme

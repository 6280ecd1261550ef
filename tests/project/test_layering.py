"""The benchmark package never reaches up into the data recipe, and EDGE's modules form no loop.

``kopa_inspect`` (APIs, execution, tasks, scoring) sits below ``edge_synth`` (EDGE synthesis):
EDGE builds on the benchmark's layers, never the other way. Every import under
``src/kopa_inspect`` is read with ``ast``, module level and inside functions alike, since a late
import is still a dependency. The command line (``kopa_inspect.cli``) is the one exception: it is
the entry-point layer above both packages, and ``kopa synth`` is how EDGE runs.

Inside ``edge_synth`` the words (``lexicon``) sit below the rules that read them (``askable``,
``describe``, ``natural``), and the fact builder (``facts``) below both the sampler and
composition, so no two modules import each other, directly or around a loop.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

SRC = Path(__file__).resolve().parents[2] / "src"
LOWER = "kopa_inspect"
UPPER = "edge_synth"
ENTRY_POINTS = ("kopa_inspect.cli",)


def _module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in ``source``, wherever it stands."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def upward_imports(
    src: Path = SRC, lower: str = LOWER, upper: str = UPPER, exempt: tuple[str, ...] = ENTRY_POINTS
) -> list[str]:
    """``module:line -> target`` for each import of ``upper`` made by a module of ``lower``."""
    problems = []
    for path in sorted((src / lower).rglob("*.py")):
        module = _module_name(path, src)
        if any(module == e or module.startswith(e + ".") for e in exempt):
            continue
        for line, target in imported_modules(path.read_text(encoding="utf-8")):
            if target == upper or target.startswith(upper + "."):
                problems.append(f"{module}:{line} -> {target}")
    return problems


def module_cycles(src: Path, package: str) -> list[list[str]]:
    """The groups of ``package``'s modules that import each other (late imports included)."""
    modules = {_module_name(p, src): p for p in sorted((src / package).rglob("*.py"))}
    graph = nx.DiGraph()
    for module, path in modules.items():
        graph.add_node(module)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                if target in modules and target != module and target != package:
                    graph.add_edge(module, target)
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def test_checker_sees_module_level_and_late_imports(tmp_path: Path) -> None:
    low = tmp_path / "low"
    (low / "cli").mkdir(parents=True)
    (low / "__init__.py").write_text("")
    (low / "a.py").write_text("import high.x\n")
    (low / "b.py").write_text("def f():\n    from high.y import g\n    return g\n")
    (low / "c.py").write_text("from low import a\nimport highway\n")  # a name that only starts alike
    (low / "cli" / "__init__.py").write_text("def main():\n    from high import run\n")
    problems = upward_imports(tmp_path, "low", "high", ("low.cli",))
    assert problems == ["low.a:1 -> high.x", "low.b:2 -> high.y"]


def test_kopa_inspect_never_imports_edge_synth() -> None:
    problems = upward_imports()
    assert problems == [], (
        "kopa_inspect imports edge_synth (EDGE builds on the benchmark, not back):\n" + "\n".join(problems)
    )


def test_cycle_checker_sees_a_late_import_loop(tmp_path: Path) -> None:
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "words.py").write_text("NOUNS = {}\n")
    (pkg / "rules.py").write_text("from toy.words import NOUNS\n")
    (pkg / "facts.py").write_text("from toy import rules\n")
    assert module_cycles(tmp_path, "toy") == []
    (pkg / "rules.py").write_text("from toy.words import NOUNS\n\ndef f():\n    from toy.facts import g\n")
    assert module_cycles(tmp_path, "toy") == [["toy.facts", "toy.rules"]]


def test_edge_synth_modules_form_no_cycle() -> None:
    assert module_cycles(SRC, UPPER) == []


def test_the_world_imports_nothing_of_the_layers_above_it() -> None:
    """The offline world (data fixed by seed and clock) sits under the API specs that read it: none of
    its modules imports the specs, the emulator, execution or anything built on them."""
    problems = []
    for path in sorted((SRC / "kopa_inspect" / "world").rglob("*.py")):
        module = _module_name(path, SRC)
        for line, target in imported_modules(path.read_text(encoding="utf-8")):
            if target.startswith("kopa_inspect.") and not target.startswith("kopa_inspect.world"):
                problems.append(f"{module}:{line} -> {target}")
    assert problems == [], "the world imports layers above it:\n" + "\n".join(problems)

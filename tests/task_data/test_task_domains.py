"""The task families live one module per domain and the build reads their explicit lists.

``domains.families()`` is the only way the build finds families: a family missing from a module's
``FAMILIES`` or from ``TASK_ORDER`` fails loudly instead of silently dropping tasks, and the order
of ``TASK_ORDER`` fixes the task ids. The slow tests rebuild the benchmark and hold it to the
committed kopa_bench.jsonl byte for byte, and each domain module to tasks of its own domain.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path
from types import ModuleType

import pytest

from kopa_inspect.task_data import build, domains, load_tasks
from kopa_inspect.task_data.authoring import Family, Spec
from kopa_inspect.task_data.schema import DEFAULT_PATH

TASK_DATA = Path(build.__file__).parent


def _short(module: ModuleType) -> str:
    return module.__name__.rsplit(".", 1)[-1]


def test_families_lists_every_module_family_once_in_task_order():
    listed = [fam for module in domains.MODULES for fam in module.FAMILIES]
    assert domains.families() == list(domains.TASK_ORDER)
    assert sorted(f.__qualname__ for f in domains.families()) == sorted(f.__qualname__ for f in listed)


def test_a_family_left_out_of_task_order_fails_the_build(monkeypatch):
    def stray() -> list[Spec]:
        return []

    monkeypatch.setattr(domains.weather, "FAMILIES", [*domains.weather.FAMILIES, stray])
    with pytest.raises(ValueError, match="stray"):
        domains.families()


def test_a_family_listed_by_two_modules_fails_the_build(monkeypatch):
    monkeypatch.setattr(domains.law, "FAMILIES", [*domains.law.FAMILIES, domains.weather.FAMILIES[0]])
    with pytest.raises(ValueError, match="twice"):
        domains.families()


def test_domain_modules_are_the_domains_of_the_committed_tasks():
    assert {_short(m) for m in domains.DOMAINS} == {t.domain for t in load_tasks()}


def test_no_authoring_module_imports_the_build():
    """domains -> authoring/plan_parts, build -> domains: an import of build from below is a cycle."""
    for path in [
        TASK_DATA / "authoring.py",
        TASK_DATA / "plan_parts.py",
        *sorted((TASK_DATA / "domains").glob("*.py")),
    ]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                imported = {node.module or ""} | {f"{node.module}.{a.name}" for a in node.names}
                assert "kopa_inspect.task_data.build" not in imported, path.name


@pytest.fixture(scope="module")
def built() -> tuple[list[dict], dict[str, list[Spec]]]:
    """One run of the build, with the specs each module's families wrote."""
    owner = {fam: module for module in domains.MODULES for fam in module.FAMILIES}
    by_module: dict[str, list[Spec]] = defaultdict(list)

    def recording(fam: Family) -> Family:
        def run() -> list[Spec]:
            specs = list(fam())
            by_module[_short(owner[fam])].extend(specs)
            return specs

        return run

    wrapped = [recording(fam) for fam in domains.families()]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(domains, "families", lambda: wrapped)
        records = build.build_tasks()
    return records, by_module


@pytest.mark.slow
def test_build_writes_the_committed_benchmark_byte_for_byte(built, tmp_path):
    records, _ = built
    out = tmp_path / "kopa_bench.jsonl"
    build.write(records, out)
    assert out.read_bytes() == DEFAULT_PATH.read_bytes()


@pytest.mark.slow
def test_each_domain_module_writes_tasks_of_its_domain(built):
    _, by_module = built
    for module in domains.DOMAINS:
        specs = by_module[_short(module)]
        assert specs, _short(module)
        assert {s.domain for s in specs} == {_short(module)}
        assert "unanswerable" not in {s.category for s in specs}
    assert {s.category for s in by_module["unanswerable"]} == {"unanswerable"}


@pytest.mark.slow
def test_check_mode_passes_the_committed_file_and_fails_a_changed_one(tmp_path, monkeypatch, built, capsys):
    records, _ = built
    monkeypatch.setattr(build, "build_tasks", lambda: records)
    monkeypatch.setattr("sys.argv", ["build", "--check", str(DEFAULT_PATH)])
    with pytest.raises(SystemExit) as ok:
        build.main()
    assert ok.value.code == 0 and "up to date" in capsys.readouterr().out
    changed = tmp_path / "kopa_bench.jsonl"
    changed.write_bytes(DEFAULT_PATH.read_bytes().replace(b'"id"', b'"Id"', 1))
    monkeypatch.setattr("sys.argv", ["build", "--check", str(changed)])
    with pytest.raises(SystemExit) as bad:
        build.main()
    assert bad.value.code == 1 and "bump TASK_VERSION" in capsys.readouterr().out
    assert changed.read_bytes() != DEFAULT_PATH.read_bytes()  # check mode writes nothing

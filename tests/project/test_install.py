"""A fresh install, as a new user makes it: the lean core runs the benchmark, each extra adds its feature.

In a new virtual environment (no system site-packages), from the package registry:

1. ``pip install <repo>`` (the core): ``inspect eval kopa_inspect/kopa_bench`` runs and scores, none
   of the heavy optional packages is present, and ``kopa report`` / ``kopa synth`` / ``kopa mcp`` stop
   with the pip command that brings what they need;
2. ``pip install <repo>[report]``: ``kopa report`` writes the report from those logs (jinja2 is not
   needed, so its absence is checked too).

Slow (two pip installs): ``pytest -m slow tests/project/test_install.py``. The core's size is printed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TASK_FILE = REPO / "tests" / "data" / "mini_tasks.jsonl"
HEAVY = ("pandas", "pyarrow", "matplotlib", "datasets", "mcp", "torch", "transformers", "jinja2")

pytestmark = pytest.mark.slow


def _run(cmd: list[str], env: dict[str, str], timeout: int = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, cwd=env["HOME"])


def _size_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink()) / 2**20


def test_fresh_core_install_runs_the_benchmark_and_extras_add_the_rest(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_ = venv / "bin"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(
        HOME=str(tmp_path),
        PATH=f"{bin_}:{env.get('PATH', '')}",
        INSPECT_LOG_DIR=str(tmp_path / "logs"),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
    )
    pip = [str(bin_ / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]

    core = _run([*pip, str(REPO)], env, timeout=1800)
    assert core.returncode == 0, core.stderr[-3000:]
    print(f"\ncore install: {_size_mb(venv):.0f} MB")  # noqa: T201 - the measured figure

    probe = "import importlib.util as u, sys; print(','.join(m for m in sys.argv[1:] if u.find_spec(m)))"
    present = _run([str(bin_ / "python"), "-c", probe, *HEAVY], env).stdout.strip()
    assert present == "", f"the core pulled optional packages: {present}"

    logs = tmp_path / "logs"
    ev = _run(
        [
            str(bin_ / "inspect"),
            "eval",
            "kopa_inspect/kopa_bench",
            "--model",
            "kopa/oracle",
            "-T",
            f"task_file={TASK_FILE}",
            "-T",
            "ids=kopa-901,kopa-904",
            "--log-dir",
            str(logs),
            "--display",
            "plain",
        ],
        env,
    )
    assert ev.returncode == 0, (ev.stdout + ev.stderr)[-3000:]
    assert "kopa_success" in ev.stdout and "pass@1" in ev.stdout, ev.stdout[-2000:]

    for cmd, extra in (
        (["report", "--log-dir", str(logs), "--out", str(tmp_path / "r")], "report"),
        (["mcp", "kma"], "mcp"),
        (["synth", "--out", str(tmp_path / "edge"), "--n", "1"], "edge"),
    ):
        res = _run([str(bin_ / "kopa"), *cmd], env)
        assert res.returncode == 2, (cmd, res.stdout[-1000:], res.stderr[-1000:])
        assert f"pip install 'kopa-inspect[{extra}]'" in res.stderr, res.stderr[-1000:]
        assert "Traceback" not in res.stderr
    assert not (tmp_path / "r").exists()

    report = _run([*pip, f"{REPO}[report]"], env, timeout=1800)
    assert report.returncode == 0, report.stderr[-3000:]
    assert _run([str(bin_ / "python"), "-c", probe, "jinja2"], env).stdout.strip() == ""
    out = tmp_path / "r"
    res = _run([str(bin_ / "kopa"), "report", "--log-dir", str(logs), "--out", str(out)], env)
    assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
    tex = (out / "report.tex").read_text(encoding="utf-8")
    assert "\\begin{tabular}" in tex and (out / "report.md").exists() and (out / "headline.png").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".r.")) == []

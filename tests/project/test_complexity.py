"""No new function above cyclomatic complexity 15 (ruff's C901, with pyproject.toml's limit).

C901 is not in ruff's `select`: the functions that were above the limit when this gate came in would
fail `ruff check`, and a per-file ignore would let a new complex function into those files. They are
listed instead, each with its complexity, in complexity_baseline.txt beside this file. A function
above the limit that the list does not hold fails, a listed one that grew fails, and a listed one that
is now under the limit (split, renamed, removed) fails until its line is deleted, so the list only
shrinks.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASELINE = Path(__file__).with_name("complexity_baseline.txt")
CHECKED = ("src", "tests", "benchmarks")  # what .ci/run lints
LIMIT = 15
_MESSAGE = re.compile(r"`(?P<name>[^`]+)` is too complex \((?P<complexity>\d+) > (?P<limit>\d+)\)")


def too_complex(*paths: str | Path) -> dict[str, int]:
    """``path::function`` -> complexity of every function above the limit, paths relative to the root.

    Two functions of one name in one file above the limit share a key; the larger one counts.
    """
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--exit-zero",
            "--select",
            "C901",
            "--output-format",
            "json",
            "--config",
            str(ROOT / "pyproject.toml"),
            *map(str, paths),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, int] = {}
    for diagnostic in json.loads(proc.stdout):
        match = _MESSAGE.fullmatch(diagnostic["message"])
        assert match, diagnostic["message"]
        assert int(match["limit"]) == LIMIT, diagnostic["message"]
        path = Path(diagnostic["filename"]).resolve()
        where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
        key = f"{where}::{match['name']}"
        found[key] = max(found.get(key, 0), int(match["complexity"]))
    return found


def read_baseline(text: str) -> dict[str, int]:
    listed: dict[str, int] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, complexity = line.rsplit(" ", 1)
        assert key not in listed, f"{key} is listed twice"
        listed[key] = int(complexity)
    return listed


@pytest.fixture(scope="module")
def found() -> dict[str, int]:
    return too_complex(*CHECKED)


@pytest.fixture(scope="module")
def listed() -> dict[str, int]:
    return read_baseline(BASELINE.read_text(encoding="utf-8"))


def test_the_limit_is_set_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["ruff"]["lint"]["mccabe"]["max-complexity"] == LIMIT


def test_a_function_above_the_limit_is_found_and_one_at_it_is_not(tmp_path: Path) -> None:
    # complexity = 1 + one per `if`: 14 ifs make 15 (at the limit), 15 ifs make 16 (above it)
    def function(name: str, branches: int) -> str:
        body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(branches))
        return f"def {name}(x: int) -> int:\n{body}    return -1\n"

    source = tmp_path / "branches.py"
    source.write_text(
        function("at_the_limit", 14) + "\n\n" + function("above_the_limit", 15), encoding="utf-8"
    )
    assert too_complex(source) == {"branches.py::above_the_limit": 16}


def test_a_new_function_above_the_limit_fails(found: dict[str, int], listed: dict[str, int]) -> None:
    new = {key: c for key, c in found.items() if key not in listed}
    assert not new, (
        f"functions above cyclomatic complexity {LIMIT} (ruff C901); split them rather "
        f"than list them in {BASELINE.name}: {new}"
    )


def test_a_listed_function_does_not_grow(found: dict[str, int], listed: dict[str, int]) -> None:
    grown = {key: f"{listed[key]} -> {c}" for key, c in found.items() if key in listed and c > listed[key]}
    assert not grown, f"listed functions grew more complex: {grown}"


def test_the_list_holds_only_functions_still_above_the_limit(
    found: dict[str, int], listed: dict[str, int]
) -> None:
    gone = sorted(set(listed) - set(found))
    assert not gone, (
        f"no longer above {LIMIT} (split, renamed or removed): delete from {BASELINE.name}: {gone}"
    )


def test_the_baseline_reader_rejects_a_line_listed_twice() -> None:
    with pytest.raises(AssertionError, match="listed twice"):
        read_baseline("a.py::f 16\na.py::f 17\n")

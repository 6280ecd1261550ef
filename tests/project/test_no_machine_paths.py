"""No tracked text file names a path of the machine it was written on.

A fresh clone has not the checkout folder of the machine it was made on, no home directory of its author and none of the /tmp folders a run
once wrote to; commands say `.venv/bin/python ...` and `OUT=$(mktemp -d)`, and recorded results say
`<repo>` (results/*/README.md explain their placeholders). Data files (*.jsonl) and binaries are
skipped: they are recordings, not text a reader follows.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A path starts where no word, dot, slash, colon or dash comes before it, so URLs
# (https://host/work/...) and relative paths (docs/work/...) are not machine paths.
MACHINE_PATH = re.compile(r"(?<![\w./:~-])/(?:work|home|root)/|(?<![\w./:~-])/tmp/\w")

# Files whose matches are examples the machine-path checks test themselves against.
SELF_TESTS = {"tests/project/test_design_doc.py"}


def machine_paths(text: str) -> list[str]:
    return [m.group(0) for m in MACHINE_PATH.finditer(text)]


def tracked_text_files() -> dict[str, str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    texts = {}
    for name in filter(None, listed.split("\0")):
        path = ROOT / name
        if name.endswith(".jsonl") or name in SELF_TESTS or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            texts[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return texts


def test_the_pattern_finds_machine_paths_and_leaves_urls_and_placeholders() -> None:
    work, tmp = "/" + "work/", "/" + "tmp/"
    found = machine_paths(f"cd {work}main; ls {tmp}edge2000/dataset; cat /" + "home/me/x /" + "root/.cache/y")
    assert found == [work, tmp + "e", "/" + "home/", "/" + "root/"]
    assert machine_paths("https://example.org/work/tmp/x src/home/x ~/tmp/x <repo>/.kopa $OUT/dataset") == []
    assert machine_paths(f"OUT=$(mktemp -d) and {tmp}") == []  # the folder itself, named in prose


def test_no_tracked_text_file_names_a_machine_path() -> None:
    texts = tracked_text_files()
    assert "README.md" in texts and "pyproject.toml" in texts  # the walk reads the tree
    problems = [
        f"{name}:{number}: {line.strip()[:120]}"
        for name, text in sorted(texts.items())
        for number, line in enumerate(text.splitlines(), 1)
        if machine_paths(line)
    ]
    assert problems == [], f"{len(problems)} lines name machine paths:\n" + "\n".join(problems)


# The team's notes outside the repository (the shared reference/*.md files, ../shared/DESIGN.md): a
# fresh clone has none of them, so no file of it may send a reader there.
OUTSIDE_REFERENCE = re.compile(r"(?<![\w/.-])reference/[\w-]+\.md|\.\./shared/|(?<![\w/.-])shared/DESIGN\.md")


def test_the_outside_reference_pattern() -> None:
    assert OUTSIDE_REFERENCE.findall("see reference/" + "korean-apis.md §2.1 and ../" + "shared/x")
    assert not OUTSIDE_REFERENCE.findall("docs/DESIGN.md, src/kopa_inspect/reference.py, a reference to it")


def test_no_tracked_text_file_points_outside_the_repository() -> None:
    problems = [
        f"{name}:{number}: {line.strip()[:120]}"
        for name, text in sorted(tracked_text_files().items())
        if name != "tests/project/test_no_machine_paths.py"
        for number, line in enumerate(text.splitlines(), 1)
        if OUTSIDE_REFERENCE.search(line)
    ]
    assert problems == [], f"{len(problems)} lines point outside the repository:\n" + "\n".join(problems)

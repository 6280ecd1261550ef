"""The whole registry at the paper's scale: 1,000+ tools over 10+ platforms, each with a real-looking
schema and description, each reachable at its own path."""

from __future__ import annotations

import re
import urllib.parse
from collections import Counter

from kopa_inspect.apis import operations, platforms
from kopa_inspect.apis._schema import tool_schema
from kopa_inspect.backends import build_request
from kopa_inspect.emulator import Router

MIN_TOOLS = 1000
MIN_PLATFORMS = 10


def test_scale_matches_the_paper():
    ops = operations()
    per_platform = Counter(op.platform for op in ops.values())
    assert len(platforms()) >= MIN_PLATFORMS, sorted(platforms())
    assert len(ops) >= MIN_TOOLS, dict(per_platform)
    assert all(per_platform[p] >= 1 for p in platforms()), dict(per_platform)


def test_every_tool_has_a_real_looking_schema():
    names: set[str] = set()
    for op in operations().values():
        fn = tool_schema(op)["function"]
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", fn["name"]), fn["name"]
        assert fn["name"] not in names
        names.add(fn["name"])
        assert re.search("[가-힣]", fn["description"]), op.id  # Korean ...
        assert re.search("[A-Za-z]{3,}", fn["description"]), op.id  # ... with an English gloss
        params = fn["parameters"]
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert set(params["required"]) <= set(params["properties"]), op.id
        for name, prop in params["properties"].items():
            assert prop.get("type") in {"string", "integer", "number", "boolean", "array"}, (op.id, name)
            assert prop.get("description"), (op.id, name)
        platform = platforms()[op.platform]
        # (a session-token platform may name its token parameter like the key it stands for)
        exposed = set(platform.key_params) & set(params["properties"]) - {platform.session_token_param}
        assert not exposed, f"{op.id} exposes its key parameter"


def test_every_operation_routes_to_itself():
    router = Router(operations().values())
    for op in operations().values():
        args = {
            p.name: (p.default if p.default is not None else "1")
            for p in op.params
            if p.required or p.location == "path"
        }
        req = build_request(op, args, "testkey")
        resolved = router.resolve(op.method, urllib.parse.unquote(req.path))
        assert resolved is not None and resolved[0] is op, (op.id, req.path, resolved and resolved[0].id)


def test_platforms_are_described():
    for pid, p in platforms().items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", pid)
        assert re.search("[가-힣]", p.name) and "(" in p.name, pid
        assert p.live_base_url.startswith(("http://", "https://")), pid


# --- the Inspect side: scorers in the registry, metric names, viewer order, samples_df, version ------

INSPECT_REDUCER_NAME = re.compile(r"^(pass_at|pass_k|at_least)_\d+$")


def _oracle_log(tmp_path, **task_args):  # noqa: ANN001, ANN202
    from pathlib import Path

    from inspect_ai import eval as inspect_eval

    task_file = str(Path(__file__).resolve().parents[1] / "data" / "mini_tasks.jsonl")
    logs = inspect_eval(
        "kopa_inspect/kopa_bench",
        model="kopa/oracle",
        log_dir=str(tmp_path),
        display="none",
        task_args={"task_file": task_file, "ids": "kopa-901,kopa-904", **task_args},
        epochs=2,
    )
    assert logs[0].status == "success", logs[0].error
    return logs[0]


def test_results_lead_with_success_without_doubled_or_reducer_like_names(tmp_path):  # noqa: ANN001
    from kopa_inspect.scorers import AXES
    from kopa_inspect.tasks import TASK_VERSION

    log = _oracle_log(tmp_path)
    scores = log.results.scores
    names = [s.name for s in scores]
    assert names[0] == "kopa_success", names
    assert len(names) == len(set(names)), f"two results entries share a name: {names}"
    assert {f"kopa_{a}" for a in AXES} <= set(names)
    for s in scores:
        for key, m in s.metrics.items():
            leaf = key.split("/")[-1]
            assert not INSPECT_REDUCER_NAME.match(leaf), f"{key} reads like Inspect's epoch reducer"
            assert "pass_k_" not in key and key.count("/") <= 1, f"doubled prefix: {key}"
            assert m.name.split("/")[-1] == leaf
    success = scores[0].metrics
    first = next(iter(success))
    assert first.split("/")[-1] == "pass@1" and success[first].value == 1.0
    assert log.results.headline is None or log.results.headline.scorer == "kopa_success"
    assert log.eval.task_version == TASK_VERSION and TASK_VERSION != 0


def test_samples_df_has_one_numeric_column_per_axis(tmp_path):  # noqa: ANN001
    import pandas as pd
    from inspect_ai.analysis import samples_df

    from kopa_inspect.scorers import AXES

    _oracle_log(tmp_path)
    df = samples_df(str(tmp_path), quiet=True)
    for axis in AXES:
        col = f"score_kopa_{axis}"
        assert col in df.columns, sorted(c for c in df.columns if c.startswith("score"))
        assert pd.api.types.is_numeric_dtype(df[col]), (col, df[col].dtype)
    assert (df["score_kopa_success"] == 1.0).all()


def test_undefined_axis_is_left_out_of_the_mean_not_counted_as_zero(tmp_path, monkeypatch):  # noqa: ANN001
    import math

    from kopa_inspect.scorers import kopa as kopa_mod

    real = kopa_mod.grade

    class _Undefined:
        def __init__(self, g) -> None:  # noqa: ANN001
            self.g = g

        def values(self):  # noqa: ANN202
            return {**self.g.values(), "env": None}

        def __getattr__(self, name):  # noqa: ANN001, ANN204
            return getattr(self.g, name)

    def grade_env_undefined_for_904(task, *args, **kwargs):  # noqa: ANN001, ANN202
        g = real(task, *args, **kwargs)
        return _Undefined(g) if task.id == "kopa-904" else g

    monkeypatch.setattr(kopa_mod, "grade", grade_env_undefined_for_904)
    log = _oracle_log(tmp_path)
    env = next(s for s in log.results.scores if s.name == "kopa_env")
    assert env.metrics["mean"].value == 1.0, "None counted as 0"
    assert env.scored_samples == 1 and env.unscored_samples == 1
    by_id = {s.id: s for s in log.samples}
    assert math.isnan(by_id["kopa-904"].scores["kopa_env"].value)


def test_inspect_score_reloads_every_scorer_from_the_registry(tmp_path):  # noqa: ANN001
    import os
    import subprocess
    import sys

    from inspect_ai.log import read_eval_log

    log = _oracle_log(tmp_path)
    out = tmp_path / "rescored.eval"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_ai",
            "score",
            log.location,
            "--action",
            "overwrite",
            "--output-file",
            str(out),
            "--display",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "INSPECT_LOG_DIR": str(tmp_path)},
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    rescored = read_eval_log(str(out))
    before = {(s.id, s.epoch): {k: v.value for k, v in s.scores.items()} for s in log.samples}
    after = {(s.id, s.epoch): {k: v.value for k, v in s.scores.items()} for s in rescored.samples}
    assert after == before


def test_success_metrics_per_task_nan_left_out_and_undefined_k_is_nan():
    import math

    from inspect_ai.scorer import SampleScore, Score

    from kopa_inspect.scorers.metrics import (
        pass_at_1,
        pass_at_1_by_category,
        pass_at_1_stderr,
        pass_at_reported_k,
        pass_hat_reported_k,
    )

    def ss(sid: str, v: float, cat: str) -> SampleScore:
        return SampleScore(score=Score(value=v), sample_id=sid, sample_metadata={"category": cat})

    nan = float("nan")
    # a: 4 epochs, 3 successes; b: 4 epochs, 0; c: one errored/undefined epoch (NaN) left out, 4 counted
    scores = [ss("a", v, "chain2") for v in (1, 1, 1, 0)] + [ss("b", 0.0, "parallel") for _ in range(4)]
    scores += [ss("c", v, "parallel") for v in (1, 1, 1, 1, nan)]
    assert pass_at_1()(scores) == (0.75 + 0 + 1) / 3  # per task, not per epoch; NaN not a failure
    assert pass_at_reported_k()(scores) == (1 + 0 + 1) / 3
    assert pass_hat_reported_k()(scores) == (0 + 0 + 1) / 3
    rates = [0.75, 0.0, 1.0]
    m = sum(rates) / 3
    assert math.isclose(pass_at_1_stderr()(scores), math.sqrt(sum((r - m) ** 2 for r in rates) / 2 / 3))
    assert pass_at_1_by_category()(scores) == {"chain2": 0.75, "parallel": 0.5}
    # fewer epochs than k: undefined, never a number
    assert math.isnan(pass_at_reported_k()(scores[:2] + scores[4:6]))

"""The step-level task kopa_inspect/kopa_steps: examples, split, compaction, scorer, metrics (fast)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from kopa_inspect.steps import build, scoring
from kopa_inspect.steps.parsing import parse_completion

TOKEN = "sess-00aa11bb22cc33dd"
RESULT = {
    "resultCode": "INFO-000",
    "resultMsg": "정상",
    "totalCount": 30,
    "items": [
        {
            "SD_SCHUL_CODE": f"70100{i:02d}",
            "SCHUL_NM": f"서울{i}고등학교",
            "ORG_RDNMA": "서울특별시 종로구 " * 3,
        }
        for i in range(30)
    ],
}
MESSAGES = [
    {"role": "system", "content": "도구를 사용하세요."},
    {"role": "user", "content": "서울2고등학교의 학교코드를 알려 주세요."},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "neis_get_api_key", "arguments": "{}"}}
        ],
    },
    {
        "role": "tool",
        "tool_call_id": "a",
        "name": "neis_get_api_key",
        "content": json.dumps({"token": TOKEN}),
    },
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "b",
                "type": "function",
                "function": {
                    "name": "neis_schoolInfo",
                    "arguments": json.dumps({"SCHUL_NM": "서울2고등학교", "KEY": TOKEN}, ensure_ascii=False),
                },
            }
        ],
    },
    {
        "role": "tool",
        "tool_call_id": "b",
        "name": "neis_schoolInfo",
        "content": json.dumps(RESULT, ensure_ascii=False),
    },
    {"role": "assistant", "content": "서울2고등학교의 학교코드는 7010002입니다."},
]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "neis_get_api_key",
            "description": "[NEIS] 토큰 발급 (issue a token)\n(more)",
            "parameters": {"type": "object", "properties": {}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "neis_schoolInfo",
            "description": "[NEIS 교육정보] 학교기본정보: 학교를 찾습니다 (find schools)\n응답 항목: 많음",
            "parameters": {
                "type": "object",
                "required": ["KEY"],
                "properties": {
                    "KEY": {"type": "string", "description": "세션 토큰 (session token)"},
                    "SCHUL_NM": {"type": "string", "description": "학교명 일부 (part of the school name)"},
                },
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "kma_getVilageFcst",
            "description": "단기예보 (forecast)",
            "parameters": {"type": "object", "properties": {}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "dart_company",
            "description": "기업개황 (company)",
            "parameters": {"type": "object", "properties": {}},
        },
    },
]
FACTS = [
    {
        "id": "f1",
        "description": "학교코드",
        "value": "$s1.items[2].SD_SCHUL_CODE",
        "resolved": "7010002",
        "matcher": "exact",
        "tolerance": 0.0,
    }
]
PLAN = {
    "steps": [
        {"id": "s1", "tool": "neis_schoolInfo", "args": {"SCHUL_NM": "서울2고등학교", "KEY": "$session.neis"}}
    ]
}


def row(i: int = 1) -> dict:
    return {
        "id": f"edge-s0-{i:07d}",
        "messages_json": json.dumps(MESSAGES, ensure_ascii=False),
        "tools_json": json.dumps(TOOLS, ensure_ascii=False),
        "facts_json": json.dumps(FACTS, ensure_ascii=False),
        "plan_json": json.dumps(PLAN, ensure_ascii=False),
        "platforms": ["neis"],
        "junctions": ["SEQ"],
        "clock": "",
        "seed": 0,
    }


def test_steps_of_a_trajectory() -> None:
    steps = build.edge_steps(row())
    assert [s.kind for s in steps] == ["call", "call", "answer"]
    auth, call, answer = steps
    assert auth.target_calls == [("neis_get_api_key", {})]
    assert call.target_calls == [("neis_schoolInfo", {"SCHUL_NM": "서울2고등학교", "KEY": TOKEN})]
    assert call.session_tokens == {"neis": TOKEN}
    # The prompt is everything before the step; the system prompt is the short one with the clock.
    assert [m["role"] for m in call.messages] == ["system", "user", "assistant", "tool"]
    assert "KST" in call.messages[0]["content"]
    assert answer.tool_results[0] == json.dumps({"token": TOKEN})  # the token result is never cut
    assert answer.target_answer.endswith("7010002입니다.")


def test_compaction() -> None:
    answer = build.edge_steps(row())[2]
    shown = json.loads(answer.tool_results[1])
    # Envelope header gone, whole items dropped from the end to fit, a note says how many are shown.
    assert "resultCode" not in shown and len(answer.tool_results[1]) <= build.DEFAULT_MAX_RESULT_CHARS
    assert 0 < len(shown["items"]) < 30 and shown["_shown"].startswith("30건 중")
    tool = next(t for t in answer.tools if t["function"]["name"] == "neis_schoolInfo")["function"]
    assert tool["description"] == "학교기본정보: 학교를 찾습니다 (find schools)"
    cpu = build.edge_steps(
        row(), build.StepSettings(english_descriptions=True, param_description_chars=0, distractors=1)
    )[1]
    names = [t["function"]["name"] for t in cpu.tools]
    assert names == ["neis_get_api_key", "neis_schoolInfo", "kma_getVilageFcst"]  # one distractor kept
    fn = cpu.tools[1]["function"]
    assert fn["description"] == "학교기본정보: find schools"
    assert "description" not in fn["parameters"]["properties"]["KEY"]
    assert fn["parameters"]["required"] == ["KEY"]


def test_unanswerable_steps_are_dropped() -> None:
    # The gold answer's value (item 2) is cut from a 150-character result: the answer step goes.
    dropped: Counter = Counter()
    steps = build.edge_steps(row(), build.StepSettings(max_result_chars=150), dropped)
    assert [s.kind for s in steps] == ["call", "call"] and dropped == {"unanswerable_answer": 1}
    # A later call whose linked argument was cut goes too.
    plan = {
        "steps": [
            PLAN["steps"][0],
            {
                "id": "s2",
                "tool": "neis_schoolInfo",
                "args": {"SD_SCHUL_CODE": "$s1.items[29].SD_SCHUL_CODE", "KEY": "$session.neis"},
            },
        ]
    }
    msgs = [
        *MESSAGES[:-1],
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "c",
                    "type": "function",
                    "function": {
                        "name": "neis_schoolInfo",
                        "arguments": json.dumps({"SD_SCHUL_CODE": "7010029", "KEY": TOKEN}),
                    },
                }
            ],
        },
    ]
    r = {**row(), "messages_json": json.dumps(msgs, ensure_ascii=False), "plan_json": json.dumps(plan)}
    dropped = Counter()
    assert len(build.edge_steps(r, dropped=dropped)) == 2 and dropped == {"unanswerable_call": 1}


def test_held_out_split_is_by_trajectory_and_stable() -> None:
    ids = [f"edge-s0-{i:07d}" for i in range(2000)]
    test = [i for i in ids if build.split_of(i) == "test"]
    assert 150 < len(test) < 250  # about 10 %
    assert test == [i for i in ids if build.split_of(i) == "test"]  # deterministic
    steps = [s for i in range(1, 30) for s in build.edge_steps(row(i))]
    ordered = build.by_trajectory(steps)
    # Whole trajectories, steps in order: consecutive prompts share their prefix.
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a.trajectory_id == b.trajectory_id:
            assert b.step > a.step and b.messages[: len(a.messages)] == a.messages


def test_gold_moves_score_and_junk_does_not() -> None:
    from kopa_inspect.steps.task import step_values

    auth, call, answer = (s.model_dump(mode="json") for s in build.edge_steps(row()))
    gold = parse_completion(
        '<tool_call>{"name": "neis_schoolInfo", "arguments": {"SCHUL_NM": "서울2고등학교", "KEY": "'
        + TOKEN
        + '"}}</tool_call>'
    )
    assert step_values(gold, call) == {
        "parse": 1.0,
        "kind": 1.0,
        "tool_name": 1.0,
        "exact": 1.0,
        "answer": pytest.approx(float("nan"), nan_ok=True),
    }
    no_token = parse_completion(
        '<tool_call>{"name": "neis_schoolInfo", "arguments": {"SCHUL_NM": "서울2고등학교"}}</tool_call>'
    )
    v = step_values(no_token, call)
    assert v["tool_name"] == 1.0 and v["exact"] == 0.0
    prose = parse_completion("학교코드는 7010002입니다.")
    assert step_values(prose, call)["kind"] == 0.0 and step_values(prose, call)["tool_name"] == 0.0
    assert step_values(prose, answer)["answer"] == 1.0
    paste = parse_completion("\n".join(answer["tool_results"]))
    assert step_values(paste, answer)["answer"] == 0.0
    assert step_values(parse_completion(""), answer) == {
        "parse": 0.0,
        "kind": 0.0,
        "tool_name": pytest.approx(float("nan"), nan_ok=True),
        "exact": pytest.approx(float("nan"), nan_ok=True),
        "answer": 0.0,
    }


def _edge_dataset(tmp_path: Path) -> Path:
    from datasets import Dataset

    rows = [row(i) for i in range(60)]
    Dataset.from_list(rows).save_to_disk(str(tmp_path / "edge"))
    return tmp_path / "edge"


def _gold_output(sample) -> str:
    step = sample.metadata["step"]
    if step["kind"] == "answer":
        return step["target_answer"]
    return "".join(
        "<tool_call>" + json.dumps({"name": n, "arguments": a}, ensure_ascii=False) + "</tool_call>"
        for n, a in step["target_calls"]
    )


def test_task_end_to_end_with_a_scripted_model(tmp_path: Path) -> None:
    """Inspect runs the task; a model replaying the gold moves scores 1 on every metric, one that
    pastes the results or calls an unrelated tool scores 0."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from kopa_inspect.steps.task import kopa_steps

    data = _edge_dataset(tmp_path)
    task = kopa_steps(data=str(data), order="trajectory")
    samples = list(task.dataset)
    assert samples and all(build.split_of(s.metadata["step"]["trajectory_id"]) == "test" for s in samples)

    def output(text: str) -> ModelOutput:
        out = ModelOutput.from_content("mockllm/model", text)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
        return out

    def run(outputs: list[str]) -> dict:
        model = get_model("mockllm/model", custom_outputs=[output(o) for o in outputs])
        log = inspect_eval(
            kopa_steps(data=str(data), order="trajectory"),
            model=model,
            display="none",
            log_dir=str(tmp_path / "logs"),
            max_connections=1,
        )[0]
        assert log.status == "success"
        return log.results.scores[0].metrics

    gold = run([_gold_output(s) for s in samples])
    for key in ("parse", "kind", "tool_name", "exact", "answer"):
        assert gold[key].value == 1.0, key
    junk = run(
        [
            "\n".join(s.metadata["step"]["tool_results"])
            or '<tool_call>{"name": "dart_company", "arguments": {}}</tool_call>'
            for s in samples
        ]
    )
    assert junk["exact"].value == 0.0 and junk["answer"].value == 0.0 and junk["tool_name"].value == 0.0


def test_task_parameters_fail_clearly() -> None:
    from kopa_inspect.steps.task import kopa_steps

    with pytest.raises(ValueError, match="needs -T data"):
        kopa_steps(split="edge")
    with pytest.raises(ValueError, match="split must be"):
        kopa_steps(split="nope", data="x")
    with pytest.raises(ValueError, match="profile must be"):
        kopa_steps(split="bench", profile="tiny")


@pytest.mark.slow
def test_bench_split_gold_moves_all_score() -> None:
    """Steps of the KOPA-Bench gold plans, built at load time; each gold move is judged right."""
    from kopa_inspect.steps.task import step_values

    dropped: Counter = Counter()
    steps = build.bench_examples(dropped=dropped)
    assert len(steps) > 100 and {s.kind for s in steps} == {"call", "answer"}
    wrong = []
    for s in steps:
        d = s.model_dump(mode="json")
        text = (
            s.target_answer
            if s.kind == "answer"
            else "".join(
                "<tool_call>" + json.dumps({"name": n, "arguments": a}, ensure_ascii=False) + "</tool_call>"
                for n, a in s.target_calls
            )
        )
        v = step_values(parse_completion(text), d)
        if (v["exact"] if s.kind == "call" else v["answer"]) != 1.0:
            wrong.append(s.id)
    assert len(wrong) <= 0.02 * len(steps), wrong[:10]


def test_scoring_credentials_are_known() -> None:
    creds = scoring.credential_args()
    assert {"serviceKey", "KEY", "crtfc_key", "OC"} <= creds and "dataType" not in creds


def test_per_step_max_tokens_reach_the_model(tmp_path: Path) -> None:
    """max_tokens_file: each step's own generation limit replaces --max-tokens for that turn; a file
    that misses a step or holds a bad limit fails at load with the step named."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import GenerateConfig, ModelAPI, ModelOutput, get_model, modelapi

    from kopa_inspect.steps.task import kopa_steps

    seen: dict[str, int | None] = {}

    class Recorder(ModelAPI):
        async def generate(self, input, tools, tool_choice, config: GenerateConfig):
            seen[input[-1].text[-60:]] = config.max_tokens
            return ModelOutput.from_content(self.model_name, "모르겠습니다.")

    modelapi(name="kopa_test_recorder")(lambda: Recorder)
    data = _edge_dataset(tmp_path)
    ids = [s.id for s in kopa_steps(data=str(data), order="trajectory").dataset]
    caps = {sid: 40 + i for i, sid in enumerate(ids)}
    (tmp_path / "caps.json").write_text(json.dumps(caps))
    task = kopa_steps(data=str(data), order="trajectory", max_tokens_file=str(tmp_path / "caps.json"))
    assert [s.metadata["max_tokens"] for s in task.dataset] == [caps[i] for i in ids]
    log = inspect_eval(
        task,
        model=get_model("kopa_test_recorder/x"),
        display="none",
        max_tokens=999,
        log_dir=str(tmp_path / "logs"),
        max_connections=1,
    )[0]
    assert log.status == "success"
    # every turn got its own step's limit, never the eval's 999
    assert len(seen) > 1 and set(seen.values()) <= set(caps.values())
    del caps[ids[0]]
    (tmp_path / "missing.json").write_text(json.dumps(caps))
    with pytest.raises(ValueError, match="no limit for 1 step"):
        kopa_steps(data=str(data), max_tokens_file=str(tmp_path / "missing.json"))
    (tmp_path / "bad.json").write_text(json.dumps({**caps, ids[0]: 0}))
    with pytest.raises(ValueError, match="not a positive integer"):
        kopa_steps(data=str(data), max_tokens_file=str(tmp_path / "bad.json"))

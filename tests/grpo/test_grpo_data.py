"""EDGE rows -> GRPO step / episode / SFT rows, prompt compaction, config loading (fast)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kopa_grpo import data
from kopa_grpo.config import PromptSettings, TrainSettings, builtin_configs, load_settings
from kopa_grpo.train import deep_merge, throughput

TOKEN = "sess-00aa11bb22cc33dd"
LONG_RESULT = json.dumps(
    {"resultCode": "INFO-000", "items": [{"SD_SCHUL_CODE": "7010083", "SCHUL_NM": "서울고등학교" * 40}]},
    ensure_ascii=False,
)
MESSAGES = [
    {"role": "system", "content": "도구를 사용하세요."},
    {"role": "user", "content": "서울고등학교의 학교코드를 알려 주세요."},
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
                    "arguments": json.dumps({"SCHUL_NM": "서울고등학교", "KEY": TOKEN}, ensure_ascii=False),
                },
            }
        ],
    },
    {"role": "tool", "tool_call_id": "b", "name": "neis_schoolInfo", "content": LONG_RESULT},
    {"role": "assistant", "content": "학교코드는 7010083입니다."},
]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "neis_get_api_key",
            "description": "토큰 발급\n(more)",
            "parameters": {"type": "object", "properties": {}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "neis_schoolInfo",
            "description": "학교 기본정보\n응답 항목: 많음",
            "parameters": {"type": "object", "properties": {"SCHUL_NM": {"type": "string"}}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "kma_getVilageFcst",
            "description": "단기예보 (distractor)",
            "parameters": {"type": "object", "properties": {}},
        },
    },
]
ROW = {
    "id": "edge-s0-0000001",
    "messages_json": json.dumps(MESSAGES, ensure_ascii=False),
    "tools_json": json.dumps(TOOLS, ensure_ascii=False),
    "facts_json": json.dumps(
        [
            {
                "id": "f1",
                "description": "학교코드",
                "value": "$s1.items[0].SD_SCHUL_CODE",
                "resolved": "7010083",
                "matcher": "number",
                "tolerance": 0.0,
            }
        ]
    ),
    "plan_json": json.dumps(
        {
            "steps": [
                {
                    "id": "s1",
                    "tool": "neis_schoolInfo",
                    "args": {"SCHUL_NM": "서울고등학교", "KEY": "$session.neis"},
                }
            ]
        }
    ),
    "platforms": ["neis"],
    "clock": "",
    "seed": 0,
}


@pytest.fixture(scope="module")
def tokenizer():
    from kopa_inspect.providers.local import DEFAULT_DIR, is_prepared

    if not is_prepared(DEFAULT_DIR):
        pytest.skip("the local model folder is not prepared (tests/providers/test_local_model.py makes it)")
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(DEFAULT_DIR))


def _split_rows(n: int = 40) -> list[dict]:
    """Copies of ROW with ids on both sides of the held-out split."""
    from kopa_inspect.steps.build import split_of

    rows = [{**ROW, "id": f"edge-s0-{i:07d}"} for i in range(n)]
    assert {split_of(r["id"]) for r in rows} == {"train", "test"}
    return rows


def test_step_rows(tokenizer) -> None:
    from kopa_inspect.steps import build

    rows = [data.step_row(ex, tokenizer) for ex in build.edge_steps(ROW)]
    assert [r["kind"] for r in rows] == ["call", "call", "answer"]
    auth, call, answer = rows
    assert json.loads(auth["target_calls_json"]) == [["neis_get_api_key", {}]]
    assert json.loads(call["target_calls_json"]) == [
        ["neis_schoolInfo", {"SCHUL_NM": "서울고등학교", "KEY": TOKEN}]
    ]
    assert answer["target_answer"] == "학교코드는 7010083입니다."
    # The prompt is the conversation so far in the model's template, ending at the assistant turn.
    assert call["prompt"].endswith("<|im_start|>assistant\n") and TOKEN in call["prompt"]
    assert "kma_getVilageFcst" in call["prompt"]  # distractor tools are kept by default
    # The token the prompt shows travels with the row for the execution reward, and the tools and
    # results for the format and answer rewards.
    assert json.loads(auth["session_tokens_json"]) == {}
    assert json.loads(call["session_tokens_json"]) == {"neis": TOKEN}
    assert [t["function"]["name"] for t in json.loads(call["tools_json"])][:2] == [
        "neis_get_api_key",
        "neis_schoolInfo",
    ]
    assert len(json.loads(answer["tool_results_json"])) == 2
    assert all(r["clock"] == "" and r["seed"] == 0 for r in rows)


def test_training_prompt_is_what_inspect_renders(tokenizer) -> None:
    """hf_render = the text Inspect's hf provider renders for the kopa_steps sample (same as the
    llamacpp engine's renderer, which claims hf identity too)."""
    from kopa_inspect.providers.local_chat import render_prompt
    from kopa_inspect.steps import build
    from kopa_inspect.steps.task import chat_messages, tool_info

    for ex in build.edge_steps(ROW):
        ours = data.hf_render(tokenizer, ex.messages, ex.tools)
        assert ours == render_prompt(chat_messages(ex.messages), [tool_info(t) for t in ex.tools])


def test_cpu_profile_compacts(tokenizer) -> None:
    from kopa_inspect.steps import build

    full = data.step_row(build.edge_steps(ROW)[2], tokenizer)["prompt"]
    cpu = data.step_row(
        build.edge_steps(ROW, PromptSettings(profile="cpu", max_result_chars=120).step_settings())[2],
        tokenizer,
    )["prompt"]
    assert len(tokenizer(cpu)["input_ids"]) < len(tokenizer(full)["input_ids"])
    assert "응답 항목" not in cpu and "(more)" not in cpu
    assert TOKEN in cpu  # auth results are never cut


def test_build_forms_train_split_only(tokenizer, tmp_path: Path) -> None:
    from datasets import Dataset

    from kopa_inspect.steps.build import split_of

    rows = _split_rows()
    n_train = sum(split_of(r["id"]) == "train" for r in rows)
    Dataset.from_list(rows).save_to_disk(str(tmp_path / "edge"))
    step = data.build(tmp_path / "edge", "step", tokenizer)
    # Only the training side: the held-out trajectories are kopa_steps' evaluation rows.
    assert len(step) == 3 * n_train
    assert not {r.split("#")[0] for r in step["step_id"]} & {
        r["id"] for r in rows if split_of(r["id"]) == "test"
    }
    assert {"prompt", "kind", "target_calls_json", "facts_json", "tools_json", "tool_results_json"} <= set(
        step.column_names
    )
    assert len(data.build(tmp_path / "edge", "step", tokenizer, limit=1)) == 3
    episode = data.build(tmp_path / "edge", "episode", tokenizer)
    assert episode[0]["environment"] == "kma_getVilageFcst,neis_get_api_key,neis_schoolInfo"
    assert [m["role"] for m in episode[0]["prompt"]] == ["system", "user"]
    sft = data.build(tmp_path / "edge", "sft", tokenizer)
    assert set(sft["prompt"]) == set(step["prompt"])
    answer = next(r for r in sft if r["kind"] == "answer")
    assert answer["completion"].startswith("학교코드는 7010083입니다.") and answer[
        "completion"
    ].rstrip().endswith("<|im_end|>")
    call = next(r for r in sft if '"neis_schoolInfo"' in r["completion"])
    assert call["completion"].startswith("<tool_call>")
    with pytest.raises(ValueError, match="no training rows"):
        data.build(tmp_path / "edge", "step", tokenizer, prompt=PromptSettings(max_prompt_tokens=5))
    # max_rows keeps the answer share.
    few = data.build(tmp_path / "edge", "sft", tokenizer, prompt=PromptSettings(max_rows=4, answer_share=0.5))
    assert len(few) == 4 and sum(k == "answer" for k in few["kind"]) == 2


def test_not_an_edge_dataset(tmp_path: Path) -> None:
    from datasets import Dataset

    Dataset.from_list([{"prompt": "x"}]).save_to_disk(str(tmp_path / "d"))
    with pytest.raises(ValueError, match="not an EDGE dataset"):
        data.build(tmp_path / "d", "episode")


def test_builtin_configs_validate(tmp_path: Path) -> None:
    names = builtin_configs()
    assert {"cpu-smoke", "cpu-episode", "grpo-cpu", "sft-cpu", "gpu-single", "gpu-multi"} <= set(names)
    for name in names:
        if name.startswith("accelerate"):
            continue  # accelerate's own launcher config, not ours
        settings = load_settings(name)
        assert isinstance(settings, TrainSettings)
        settings.prompt.step_settings()  # the profile and knobs are valid kopa_steps settings
    smoke = load_settings("cpu-smoke")
    assert smoke.prompt.profile == "cpu" and smoke.trainer["max_steps"] >= 2
    # The CPU configs keep answer rows; GRPO trains only rows whose gold move fits its completion limit.
    grpo = load_settings("grpo-cpu")
    assert load_settings("sft-cpu").prompt.answer_share and grpo.prompt.answer_share
    assert grpo.prompt.max_completion_tokens == grpo.trainer["max_completion_length"]
    from trl import GRPOConfig

    args = GRPOConfig(output_dir=str(tmp_path), use_cpu=True, bf16=False, **grpo.trainer)
    assert args.generation_kwargs == {"use_cache": True}
    with pytest.raises(ValueError, match="reward_weights"):
        TrainSettings(rewards=["outcome"], reward_weights=[1.0, 2.0])


def test_deep_merge_and_throughput() -> None:
    base = load_settings("cpu-smoke").model_dump()
    merged = deep_merge(base, {"trainer": {"max_steps": 7}, "prompt": {"max_prompt_tokens": 10}})
    s = TrainSettings.model_validate(merged)
    assert s.trainer["max_steps"] == 7 and s.trainer["num_generations"] == base["trainer"]["num_generations"]
    assert s.prompt.max_prompt_tokens == 10 and s.prompt.profile == "cpu"

    class Args:
        per_device_train_batch_size, gradient_accumulation_steps, world_size = 2, 1, 1

    history = [
        {"step": 1, "loss": 0.0, "num_tokens": 100.0, "completions/mean_length": 10.0},
        {"step": 2, "loss": 0.0, "num_tokens": 220.0, "completions/mean_length": 20.0},
        {"step": 3, "loss": 0.0, "num_tokens": 330.0, "completions/mean_length": 30.0},
    ]
    t = throughput(history, start_step=1, end_step=3, args=Args(), elapsed=10.0)
    assert t["steps_this_run"] == 2 and t["tokens"] == 230.0 and t["tokens_per_second"] == 23.0
    assert t["completions"] == 4 and t["completions_per_second"] == 0.4
    assert t["completion_tokens_per_second"] == pytest.approx(25 * 4 / 10)


def test_kopa_train_cli_options_and_bad_config(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from kopa_inspect.cli import app

    runner = CliRunner()
    help_text = runner.invoke(app, ["train", "--help"]).output
    for opt in ("--data", "--config", "--out", "--max-steps", "--minutes", "--resume"):
        assert opt in help_text
    (tmp_path / "edge").mkdir()
    res = runner.invoke(
        app,
        [
            "train",
            "--data",
            str(tmp_path / "edge"),
            "--config",
            "no-such-config",
            "--out",
            str(tmp_path / "out"),
        ],
    )
    assert res.exit_code != 0
    assert isinstance(res.exception, FileNotFoundError) and "cpu-smoke" in str(res.exception)


@pytest.mark.parametrize("template", ["model", "qwen2_5"])
def test_episode_tokenizer_parses_tool_calls_like_trl(tokenizer, template: str) -> None:
    """TRL's multi-turn loop turns generated ids into tool calls with parse_response; a template
    it cannot parse would silently make every call plain text (no tool is ever run)."""
    import copy

    from trl.chat_template_utils import is_chat_template_prefix_preserving, parse_response

    from kopa_grpo.train import episode_tokenizer

    tok = episode_tokenizer(copy.deepcopy(tokenizer), template)
    assert is_chat_template_prefix_preserving(tok)
    prompt = tok.apply_chat_template(
        [{"role": "user", "content": "삼성전자 고유번호?"}], add_generation_prompt=True, tokenize=False
    )
    prefix = tok(prompt, add_special_tokens=False)["input_ids"]
    text = '<tool_call>\n{"name": "dart_corpCode", "arguments": {"corp_name": "삼성전자"}}\n</tool_call><|im_end|>'
    ids = tok(text, add_special_tokens=False)["input_ids"]
    msg = parse_response(tok, ids, prefix=prefix)
    assert msg["tool_calls"][0]["function"] == {
        "name": "dart_corpCode",
        "arguments": {"corp_name": "삼성전자"},
    }
    plain = parse_response(
        tok,
        tok("삼성전자의 고유번호는 00126380입니다.<|im_end|>", add_special_tokens=False)["input_ids"],
        prefix=prefix,
    )
    assert not plain.get("tool_calls") and "00126380" in plain["content"]


def test_step_rows_whose_gold_move_does_not_fit_are_dropped(tokenizer, tmp_path: Path) -> None:
    """GRPO rows keep only steps whose gold turn fits max_completion_tokens (the completion limit):
    a longer gold move could never earn the outcome reward. The same gold lengths as the SFT form."""
    from datasets import Dataset

    Dataset.from_list(_split_rows()).save_to_disk(str(tmp_path / "edge"))
    sft = data.build(tmp_path / "edge", "sft", tokenizer)
    gold = {r["step_id"]: len(tokenizer(r["completion"], add_special_tokens=False)["input_ids"]) for r in sft}
    assert len(set(gold.values())) > 1
    limit = min(gold.values())  # keeps the shortest gold turns only
    for form in ("step", "sft"):
        kept = data.build(
            tmp_path / "edge", form, tokenizer, prompt=PromptSettings(max_completion_tokens=limit)
        )
        assert set(kept["step_id"]) == {i for i, n in gold.items() if n <= limit}, form
        assert 0 < len(kept) < len(sft)


def test_lora_delta_is_zero_at_init_and_measures_an_update() -> None:
    """train_stats' lora_delta_*: a fresh adapter (B = 0) has moved nothing; a change of B shows as
    ||scale * B @ A|| against the base weights (what tells a GRPO run that changed nothing apart)."""
    import torch
    from peft import LoraConfig, get_peft_model

    from kopa_grpo.train import lora_delta

    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Linear(8, 8, bias=False), torch.nn.ReLU(), torch.nn.Linear(8, 4, bias=False)
    )
    model = get_peft_model(net, LoraConfig(r=2, lora_alpha=4, target_modules=["0", "2"]))
    start = lora_delta(model)
    assert start is not None and start["lora_delta_norm"] == 0.0 and start["lora_delta_relative"] == 0.0
    layer = model.base_model.model[0]
    with torch.no_grad():
        layer.lora_B["default"].weight.fill_(0.1)
    want = float(
        ((layer.lora_B["default"].weight @ layer.lora_A["default"].weight) * layer.scaling["default"]).norm()
    )
    moved = lora_delta(model)
    assert moved["lora_delta_norm"] == pytest.approx(want)
    w = float(
        torch.cat(
            [
                model.base_model.model[0].base_layer.weight.flatten(),
                model.base_model.model[2].base_layer.weight.flatten(),
            ]
        ).norm()
    )
    assert moved["lora_delta_relative"] == pytest.approx(want / w)
    assert moved["lora_delta_relative_max_layer"] == pytest.approx(
        want / float(layer.base_layer.weight.norm())
    )
    assert lora_delta(net) is None or lora_delta(torch.nn.Linear(2, 2)) is None

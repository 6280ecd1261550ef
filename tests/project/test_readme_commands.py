"""Every command in README.md's ``bash`` blocks is checked: run here (fast ones in the default suite,
the rest marked slow) or parsed by the parser that will read it, with the paths one command hands to
the next and the extras each one needs.

What checks what:

- ``kopa ...``: parsed by the CLI's own click command (options, arguments, path checks); ``kopa train
  --data`` must name the ``dataset`` folder an earlier ``kopa synth --out`` writes, an eval of a
  ``kopa train`` checkpoint must name its ``merged`` folder and cap ``--max-tokens``;
- ``inspect eval ...``: parsed by Inspect's own ``eval`` command; the task is ours and every ``-T`` is one
  of its parameters; a run against an already-running vLLM gets no ``-M`` that only ``vllm serve``
  reads; the provider's package is in the extra the README names for it;
- ``vllm serve ...``: vLLM is not installed here, so its flags and tool-call parsers are checked against
  the names vLLM's tool-calling documentation gives;
- ``pip install``: every extra exists, a ``--no-deps`` pin is the one scripts/setup-env.sh installs;
- ``bash scripts/...``: the script exists (CI runs both: .ci/run);
- the GPU training section: tests/grpo/test_train_scale_out.py parses it with accelerate's, TRL's and
  kopa train's own parsers.
"""

from __future__ import annotations

import inspect
import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GPU_SECTION = "## Training on GPUs: one, several, several machines"
GPU_SECTION_TEST = ROOT / "tests/grpo/test_train_scale_out.py"

# vLLM's tool-calling page: the flags of `vllm serve` the README uses and the parser names it lists.
VLLM_SERVE_FLAGS = {
    "--port",
    "--enable-auto-tool-choice",
    "--tool-call-parser",
    "--reasoning-parser",
    "--chat-template",
    "--served-model-name",
    "--tensor-parallel-size",
    "--max-model-len",
}
VLLM_TOOL_PARSERS = {
    "hermes",
    "mistral",
    "llama3_json",
    "llama4_pythonic",
    "qwen3_coder",
    "qwen3_xml",
    "pythonic",
}
VLLM_REASONING_PARSERS = {"qwen3", "deepseek_r1"}
# `-M` arguments the vllm/ provider passes to the `vllm serve` it starts itself: ignored by a running server.
VLLM_SERVER_ONLY_ARGS = {
    "enable_auto_tool_choice",
    "tool_call_parser",
    "tensor_parallel_size",
    "device",
    "devices",
}
# The package an Inspect provider imports, and the extra the README's table names for it.
PROVIDER_EXTRA = {
    "vllm": ("openai", "openai"),
    "openai-api": ("openai", "openai"),
    "hf": ("local", "transformers"),
    "llamacpp": ("local", "llama-cpp-python"),
}
PLACEHOLDER_MODELS = {"...", "<model>"}


@dataclass(frozen=True)
class Command:
    env: dict[str, str]
    argv: list[str]
    line: str


def bash_blocks(text: str) -> Iterator[tuple[str, str]]:
    """(section heading, block body) of each ```bash block."""
    heading = ""
    for part in re.split(r"(?m)^(## .*)$", text):
        if part.startswith("## "):
            heading = part.strip()
            continue
        for body in re.findall(r"```bash\n(.*?)```", part, flags=re.S):
            yield heading, body


def commands_of(body: str) -> list[Command]:
    """Shell commands of a block: continuations joined, comments dropped, `&&` chains split, leading
    VAR=value assignments kept apart."""
    found = []
    for line in body.replace("\\\n", " ").splitlines():
        tokens = shlex.split(line, comments=True)
        while tokens:
            cut = tokens.index("&&") if "&&" in tokens else len(tokens)
            words, tokens = tokens[:cut], tokens[cut + 1 :]
            env = {}
            while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
                key, value = words.pop(0).split("=", 1)
                env[key] = value
            if words:
                found.append(Command(env, words, line.strip()))
    return found


def readme_commands() -> list[tuple[str, Command]]:
    return [
        (heading, command)
        for heading, body in bash_blocks(README.read_text(encoding="utf-8"))
        for command in commands_of(body)
    ]


# --- the parsers ------------------------------------------------------------------------------------


def kopa_context(args: list[str]):  # noqa: ANN201 (a click Context)
    import typer.main

    from kopa_inspect.cli import app

    command = typer.main.get_command(app)
    name = "kopa"
    while hasattr(command, "commands") and args and args[0] in command.commands:  # type: ignore[attr-defined]
        name, command, args = args[0], command.commands[args[0]], args[1:]  # type: ignore[attr-defined]
    assert not hasattr(command, "commands"), f"kopa {name} needs a subcommand"
    return name, command.make_context(name, list(args))


def inspect_eval_params(args: list[str]) -> dict:
    from inspect_ai._cli.eval import eval_command

    args = ["mockllm/model" if a in PLACEHOLDER_MODELS else a for a in args]
    return eval_command.make_context("eval", args).params


def task_parameters(task: str) -> set[str]:
    from kopa_inspect.bfcl.task import bfcl
    from kopa_inspect.steps.task import kopa_steps
    from kopa_inspect.tasks import kopa_bench

    tasks = {
        "kopa_inspect/kopa_bench": kopa_bench,
        "kopa_inspect/kopa_steps": kopa_steps,
        "kopa_inspect/bfcl": bfcl,
    }
    assert task in tasks, f"not a task of this package: {task}"
    return set(inspect.signature(tasks[task]).parameters)


def extras() -> dict[str, list[str]]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def extra_packages(name: str) -> set[str]:
    """Distribution names an extra installs, nested kopa-inspect[...] extras included."""
    names: set[str] = set()
    for requirement in extras()[name]:
        nested = re.match(r"kopa-inspect\[(.*)\]", requirement)
        if nested:
            for inner in nested.group(1).split(","):
                names |= extra_packages(inner.strip())
        else:
            names.add(re.split(r"[<>=!\[ ;]", requirement, maxsplit=1)[0].lower())
    return names


class Chain:
    """What earlier commands leave behind, for the later ones that read it (run in a scratch folder)."""

    def __init__(self) -> None:
        self.datasets: set[str] = set()
        self.checkpoints: set[str] = set()

    def check(self, heading: str, command: Command) -> None:
        argv = command.argv
        if argv[0].endswith("/kopa"):  # .venv/bin/kopa
            argv = ["kopa", *argv[1:]]
        if argv[0] == "kopa":
            self.kopa(argv[1:])
        elif argv[:2] == ["inspect", "eval"]:
            self.inspect_eval(argv[2:], command.env)
        elif argv[:2] == ["vllm", "serve"]:
            check_vllm_serve(argv[2:])
        elif argv[:2] == ["pip", "install"]:
            check_pip_install(argv[2:])
        elif argv[0] == "bash" and argv[1].startswith("scripts/"):
            assert (ROOT / argv[1]).is_file(), argv[1]
        elif argv == ["source", ".venv/bin/activate"]:
            pass  # made by scripts/setup-env.sh
        else:
            raise AssertionError(f"README command no test checks ({heading}): {command.line}")

    def kopa(self, args: list[str]) -> None:
        name, context = kopa_context(args)
        params = context.params
        if name == "synth":
            self.datasets.add(f"{params['out']}/dataset")
            (Path(params["out"]) / "dataset").mkdir(parents=True, exist_ok=True)
        elif name == "train":
            assert str(params["data"]) in self.datasets, (
                f"kopa train --data {params['data']}: no kopa synth above writes it ({sorted(self.datasets)})"
            )
            self.checkpoints.add(f"{params['out']}/merged")
        elif name == "grid":
            grid = ROOT / "src/kopa_inspect/report/grids" / Path(params["grid_file"]).name
            self.grid_log_dir = yaml.safe_load(grid.read_text())["log_dir"]
        elif name == "report":
            assert str(params["log_dir"]) == self.grid_log_dir, (
                "kopa report reads another folder than the grid wrote"
            )

    def inspect_eval(self, args: list[str], env: dict[str, str]) -> None:
        params = inspect_eval_params(args)
        (task,) = params["tasks"]
        task_args = {t.split("=", 1)[0] for t in params["t"]}
        assert task_args <= task_parameters(task), task_args - task_parameters(task)
        model = params["model"]
        provider = model.split("/", 1)[0]
        model_args = dict(m.split("=", 1) for m in params["m"])
        if provider in PROVIDER_EXTRA:
            extra, package = PROVIDER_EXTRA[provider]
            assert package in extra_packages(extra), f"{model} needs {package}, not in the {extra} extra"
        if provider == "vllm" and ("VLLM_BASE_URL" in env or "base_url" in model_args):
            ignored = set(model_args) & VLLM_SERVER_ONLY_ARGS
            assert not ignored, f"-M {ignored} are ignored by an already-running vLLM server"
        if provider == "openai-api":
            service = model.split("/")[1].upper().replace("-", "_")
            assert {f"{service}_BASE_URL", f"{service}_API_KEY"} <= set(env), model
        if provider == "hf" and "model_path" in model_args and model_args["model_path"] in self.checkpoints:
            # A checkpoint that never learnt to stop runs to the model's own limit on every turn.
            assert params["max_tokens"], "an eval of a trained checkpoint caps --max-tokens"


def check_vllm_serve(args: list[str]) -> None:
    flags = [a for a in args if a.startswith("--")]
    assert set(flags) <= VLLM_SERVE_FLAGS, set(flags) - VLLM_SERVE_FLAGS
    assert "--enable-auto-tool-choice" in flags and "--tool-call-parser" in flags
    assert args[args.index("--tool-call-parser") + 1] in VLLM_TOOL_PARSERS
    if "--reasoning-parser" in flags:
        assert args[args.index("--reasoning-parser") + 1] in VLLM_REASONING_PARSERS
    if "--chat-template" in flags:
        assert args[args.index("--chat-template") + 1].startswith("examples/tool_chat_template_")


def check_pip_install(args: list[str]) -> None:
    if args[0] == "-e":
        named = re.fullmatch(r"\.\[(.*)\]", args[1])
        assert named, args
        missing = {e.strip() for e in named.group(1).split(",")} - set(extras())
        assert not missing, f"no such extra: {missing}"
    else:
        assert args[0] == "--no-deps" and "==" in args[1], args
        assert args[1] in (ROOT / "scripts/setup-env.sh").read_text(), (
            f"{args[1]} is not what setup-env installs"
        )


# --- the tests ----------------------------------------------------------------------------------------


def test_blocks_are_found_and_split() -> None:
    body = "FOO=1 kopa apis   # platforms\nkopa call x \\\n    a=1 && pip install -e '.[report]'\n# only a comment\n"
    commands = commands_of(body)
    assert [(c.env, c.argv) for c in commands] == [
        ({"FOO": "1"}, ["kopa", "apis"]),
        ({}, ["kopa", "call", "x", "a=1"]),
        ({}, ["pip", "install", "-e", ".[report]"]),
    ]
    assert len(readme_commands()) >= 30


def test_every_readme_command_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # synth/train outputs and logs the checks create land here
    for name in ("VLLM_BASE_URL", "ONPREM_BASE_URL", "ONPREM_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    chain = Chain()
    checked = 0
    for heading, command in readme_commands():
        if heading == GPU_SECTION:
            continue
        chain.check(heading, command)
        checked += 1
    assert checked >= 25
    assert "def test_readme_gpu_commands_parse_as_written" in GPU_SECTION_TEST.read_text()


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("kopa synth --out data/edge --n 20\nkopa train --data data/edge --out ckpt/x", "no kopa synth"),
        ("kopa train --data d/dataset --no-such-option 1 --out x", "No such option"),
        ("inspect eval kopa_inspect/kopa_bench -T no_such_arg=1 --model kopa/oracle", "no_such_arg"),
        ("inspect eval kopa_inspect/kopa_nothing --model kopa/oracle", "not a task"),
        (
            "VLLM_BASE_URL=http://h:8000/v1 inspect eval kopa_inspect/kopa_bench --model vllm/m -M tool_call_parser=hermes",
            "ignored",
        ),
        (
            "ONPREM_BASE_URL=http://h:8000/v1 inspect eval kopa_inspect/kopa_bench --model openai-api/onprem/m",
            "onprem",
        ),
        ("vllm serve m --enable-auto-tool-choice --tool-call-parser qwen4", "qwen4"),
        ("vllm serve m --tool-call-parser hermes", "enable-auto-tool-choice"),
        ("pip install -e '.[nonesuch]'", "no such extra"),
        ("rm -rf data", "no test checks"),
        (
            "kopa synth --out e --n 5\nkopa train --data e/dataset --out c\n"
            "inspect eval kopa_inspect/kopa_bench --model hf/local -M model_path=c/merged --limit 2",
            "max-tokens",
        ),
    ],
)
def test_a_wrong_command_fails_its_check(
    bad: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    monkeypatch.chdir(tmp_path)
    (tmp_path / "d/dataset").mkdir(parents=True)
    chain = Chain()
    with pytest.raises(Exception) as raised:  # noqa: B017 (an assertion or the CLI parser's usage error)
        for command in commands_of(bad):
            chain.check("test", command)
    assert why in str(raised.value)


def test_the_openai_extra_is_in_all() -> None:
    # setup-env.sh installs `all`: the default suite runs the openai-api/ loopback test with it.
    assert "openai" in extra_packages("all") and "openai" in extra_packages("openai")


# --- the commands that run ----------------------------------------------------------------------------

FAST_RUNS = ["kopa apis", "kopa call kma_getVilageFcst"]
SLOW_RUNS = ["kopa tasks validate", "kopa tasks stats", "kopa tasks agreement"]


def _readme_line_starting(prefix: str) -> Command:
    for _, command in readme_commands():
        argv = ["kopa", *command.argv[1:]] if command.argv[0].endswith("/kopa") else command.argv
        if " ".join(argv).startswith(prefix):
            return Command(command.env, argv, command.line)
    raise AssertionError(f"README has no command starting {prefix!r}")


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    kopa = [sys.executable, "-m", "kopa_inspect.cli"]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    return subprocess.run(kopa + argv[1:], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("prefix", FAST_RUNS)
def test_fast_readme_commands_run(prefix: str, tmp_path: Path) -> None:
    done = _run(_readme_line_starting(prefix).argv, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip()


@pytest.mark.slow
@pytest.mark.parametrize("prefix", SLOW_RUNS)
def test_slow_readme_commands_run(prefix: str, tmp_path: Path) -> None:
    done = _run(_readme_line_starting(prefix).argv, ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip()


@pytest.mark.slow
def test_the_readme_oracle_eval_runs_on_a_few_tasks(tmp_path: Path) -> None:
    """The README's oracle command, with a limit and a scratch log folder added: success 1.0."""
    from inspect_ai import eval as inspect_eval

    command = _readme_line_starting("inspect eval kopa_inspect/kopa_bench --model kopa/oracle")
    params = inspect_eval_params(command.argv[2:])
    (log,) = inspect_eval(
        params["tasks"][0], model=params["model"], limit=2, log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success" and log.results is not None
    success = next(s for s in log.results.scores if s.name == "kopa_success")
    assert success.metrics["pass@1"].value == 1.0


def test_the_readme_counts_are_what_kopa_apis_prints(tmp_path: Path) -> None:
    done = _run(_readme_line_starting("kopa apis").argv, tmp_path)
    printed = re.search(r"(\d+) operations on (\d+) platforms", done.stdout)
    stated = re.search(r"\*\*(\d+) platforms, ([\d,]+) tools\*\*", README.read_text(encoding="utf-8"))
    assert printed and stated, (done.stdout[-300:], "README's '**N platforms, M tools**'")
    assert (stated.group(1), stated.group(2).replace(",", "")) == (printed.group(2), printed.group(1))

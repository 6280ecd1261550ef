"""``--model kopa/oracle``: replays each sample's gold plan through the real tools.

Each generate call looks at the conversation so far, finds the first wave of the gold plan whose
steps have no tool result yet, and emits that wave as one assistant message with parallel tool
calls (after the auth-tool calls a wave's session tokens need). Arguments that reference earlier
steps are resolved from the tool results the oracle read back, so the oracle proves a task can
be solved through exactly what a model sees. When a result was cut for the model
(``_truncated``), the task asks for more than one tool view shows: by default (strict) the oracle
then fails the task; ``-M strict=false`` reads the full result from the sample's live session
instead and logs it. When every wave is done it answers with
every expected fact (the structured section :func:`grading.oracle_answer` writes). A correct
benchmark scores success 1.0 on every task with this model.

Under ``-T tool_set=search`` the model starts with ``search_tools`` only, and the oracle may call
only what its searches found (it never calls a tool it was not given; a gold tool that no search
finds fails the task, it is not called blind). Before a wave whose tools it lacks it searches as
a model would: first for the task's question as asked (k=10), then, for each gold tool still
missing, for a description of the capability it needs (:func:`tool_search.capability_query`:
the Korean part of the tool's summary, never the tool's name), k=5.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolCall, ToolChoice, ToolInfo

from kopa_inspect.apis._schema import auth_tool_name, coerce_to_schema
from kopa_inspect.matching import arguments_equal
from kopa_inspect.plans import SESSION_STEP, PlanError, resolve_args
from kopa_inspect.scorers.grading import oracle_answer
from kopa_inspect.task_data.schema import BenchTask
from kopa_inspect.tool_search import capability_query
from kopa_inspect.tools import SEARCH_TOOL, SESSION_KEY, live_session

log = logging.getLogger(__name__)

ID_PREFIX = "kopa-oracle-"
AUTH_PREFIX = ID_PREFIX + "auth-"
SEARCH_PREFIX = ID_PREFIX + "search-"
QUERY_K = 10  # results asked for the question as a whole
CAPABILITY_K = 5  # results asked for one needed capability


class OracleModelAPI(ModelAPI):
    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 - Inspect's ModelAPI signature
        language: str = "ko",
        strict: bool = True,
        **model_args: Any,
    ) -> None:
        if model_name != "oracle":
            raise ValueError(f"the kopa provider serves only kopa/oracle, not kopa/{model_name}")
        super().__init__(model_name, base_url, api_key, [], config)
        self.language = language
        # strict (default; -M strict=false to relax): fail a task whose gold plan needs more of an output than the
        # model is shown, instead of reading the full result from the live session.
        self.strict = bool(strict)

    def max_connections(self) -> int:
        return 32

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        from inspect_ai.solver._task_state import sample_state
        from inspect_ai.util import store

        state = sample_state()
        if state is None or "task" not in (state.metadata or {}):
            return self._text("kopa/oracle runs only inside a kopa_bench sample.")
        task = BenchTask.model_validate(state.metadata["task"])
        live = live_session(store().get(SESSION_KEY))
        try:
            return self._next(task, input, live, {t.name: t for t in tools})
        except PlanError as exc:
            return self._text(f"오라클 실패 (oracle failed): {exc}")

    # --- the replay ----------------------------------------------------------------------------

    def _next(
        self, task: BenchTask, messages: list[ChatMessage], live: Any, tools: dict[str, ToolInfo]
    ) -> ModelOutput:
        sent: dict[str, ToolCall] = {}
        for m in messages:
            if isinstance(m, ChatMessageAssistant):
                for tc in m.tool_calls or []:
                    sent[tc.id] = tc
        outputs: dict[str, dict[str, Any]] = {}
        tokens: dict[str, str] = {}
        searched = [str(tc.arguments.get("query", "")) for tc in sent.values() if tc.function == SEARCH_TOOL]
        for m in messages:
            if not isinstance(m, ChatMessageTool) or not (m.tool_call_id or "").startswith(ID_PREFIX):
                continue
            call_id = m.tool_call_id or ""
            if call_id.startswith(SEARCH_PREFIX):
                continue  # what a search found shows up in ``tools`` (the tools now callable)
            if call_id.startswith(AUTH_PREFIX):
                if m.error is None:
                    tokens[call_id[len(AUTH_PREFIX) :]] = json.loads(m.text)["token"]
                continue
            step_id = call_id[len(ID_PREFIX) :]
            step = next((s for s in task.plan.steps if s.id == step_id), None)
            if step is None:
                continue
            if m.error is not None:
                if not step.expect_error:
                    raise PlanError(f"gold step {step_id} failed: {m.error.message}")
                outputs[step_id] = {"error": m.error.message}
                continue
            outputs[step_id] = self._full_output(step.tool, sent.get(call_id), m.text, live, self.strict)

        for wave in task.plan.levels():
            todo = [s for s in wave if s.id not in outputs]
            if not todo:
                continue
            need = sorted({p for s in todo for p in s.session_platforms()} - set(tokens))
            wanted = {s.tool for s in todo} | {auth_tool_name(p) for p in need}
            missing = sorted(wanted - set(tools))
            if missing:
                return self._search(task, missing, searched, tools)
            if need:
                return self._calls(
                    [ToolCall(id=AUTH_PREFIX + p, function=auth_tool_name(p), arguments={}) for p in need]
                )
            scope = {**outputs, SESSION_STEP: tokens}
            return self._calls(
                [
                    ToolCall(
                        id=ID_PREFIX + s.id,
                        function=s.tool,
                        arguments=coerce_to_schema(resolve_args(s.args, scope), tools.get(s.tool)),
                    )
                    for s in todo
                ]
            )
        expected = {f.id: f.resolve(outputs) for f in task.facts}
        return self._text(oracle_answer(task, expected, self.language, outputs=outputs))

    def _search(
        self, task: BenchTask, missing: list[str], searched: list[str], tools: dict[str, ToolInfo]
    ) -> ModelOutput:
        """Search for the tools the next wave needs, or fail when searching cannot find them."""
        if SEARCH_TOOL not in tools:
            raise PlanError(f"gold tool(s) {missing} are not among the tools offered")
        n = len(searched)
        if task.query not in searched:
            return self._calls(
                [
                    ToolCall(
                        id=f"{SEARCH_PREFIX}{n}",
                        function=SEARCH_TOOL,
                        arguments={"query": task.query, "k": QUERY_K},
                    )
                ]
            )
        queries = []
        for op_id in missing:
            if op_id.endswith("_get_api_key"):
                continue  # an auth tool comes with any tool of its platform
            q = capability_query(op_id)
            if q not in searched and q not in queries:
                queries.append(q)
        if not queries:
            raise PlanError(f"search did not find the gold tool(s) {missing}")
        return self._calls(
            [
                ToolCall(
                    id=f"{SEARCH_PREFIX}{n + i}",
                    function=SEARCH_TOOL,
                    arguments={"query": q, "k": CAPABILITY_K},
                )
                for i, q in enumerate(queries)
            ]
        )

    @staticmethod
    def _full_output(
        op_id: str, call: ToolCall | None, text: str, live: Any, strict: bool = False
    ) -> dict[str, Any]:
        view = json.loads(text)
        if "_truncated" in view and strict:
            raise PlanError(f"{op_id} output was cut for the model ({view['_truncated']})")
        if "_truncated" not in view or live is None or call is None:
            return view
        for res in reversed(live.results):
            if (
                res.op_id == op_id
                and arguments_equal(call.arguments, res.args)
                and arguments_equal(res.args, call.arguments)
            ):
                log.warning(
                    "oracle: %s output was cut for the model (%s); using the full result",
                    op_id,
                    view["_truncated"],
                )
                return res.output()
        return view

    # --- outputs -------------------------------------------------------------------------------

    def _usage(self) -> ModelUsage:
        # Always set: without usage Inspect counts tokens with tiktoken, which downloads its data.
        return ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)

    def _text(self, text: str) -> ModelOutput:
        msg = ChatMessageAssistant(content=text, model="oracle", source="generate")
        return ModelOutput(
            model="oracle",
            choices=[ChatCompletionChoice(message=msg, stop_reason="stop")],
            usage=self._usage(),
        )

    def _calls(self, calls: list[ToolCall]) -> ModelOutput:
        msg = ChatMessageAssistant(content="", tool_calls=calls, model="oracle", source="generate")
        return ModelOutput(
            model="oracle",
            choices=[ChatCompletionChoice(message=msg, stop_reason="tool_calls")],
            usage=self._usage(),
        )

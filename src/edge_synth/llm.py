"""Optional LLM link scores (the paper's Phase A filter): any Inspect model rates each candidate
link once, in [0, 1]; links under 0.3 are dropped before grounding, the rest get the score mixed
into their Beta prior. A reply without a number leaves the link unscored (kept, prior unchanged).
"""

from __future__ import annotations

import asyncio
import re

from edge_synth.graph import Edge, LinkGraph
from kopa_inspect.apis import get_operation

DROP_BELOW = 0.3
MAX_SCORED = 2000

_PROMPT = (
    "Two Korean public API tools. Can the output field of the first feed the input parameter of the second "
    "(same meaning, same code system, same value format after the given transform)? Reply with one number "
    "between 0 and 1.\n"
    "Producer {p}: {ps}\n  output field {f}: {fd}\n"
    "Consumer {c}: {cs}\n  input parameter {a}: {ad}\n"
    "Transform: {t}\nScore:"
)


def _prompt(e: Edge) -> str:
    p, c = get_operation(e.producer), get_operation(e.consumer)
    param = c.param(e.param)
    return _PROMPT.format(
        p=e.producer,
        ps=p.summary,
        f=e.field,
        fd=p.output_fields.get(e.field, ""),
        c=e.consumer,
        cs=c.summary,
        a=e.param,
        ad=param.description if param else "",
        t=f"string slice [{e.slice[0]}:{e.slice[1]}]" if e.slice else "none",
    )


def parse_score(text: str) -> float | None:
    m = re.search(r"(?<![\d.])(0(?:\.\d+)?|1(?:\.0+)?)(?![\d.])", text)
    return float(m.group(1)) if m else None


async def score_links(graph: LinkGraph, model: str, concurrency: int = 8) -> dict[str, int]:
    from inspect_ai.model import GenerateConfig, get_model

    llm = get_model(model)
    sem = asyncio.Semaphore(concurrency)
    edges = sorted(graph.edges.values(), key=lambda e: (-e.prior, e.id))[:MAX_SCORED]

    async def one(e: Edge) -> None:
        async with sem:
            try:
                out = await llm.generate(_prompt(e), config=GenerateConfig(temperature=0.0, max_tokens=8))
                e.llm_score = parse_score(out.completion)
            except Exception:  # a failed call leaves the link unscored
                e.llm_score = None

    await asyncio.gather(*(one(e) for e in edges))
    dropped = [e.id for e in edges if e.llm_score is not None and e.llm_score < DROP_BELOW]
    for eid in dropped:
        graph.remove(eid)
    return {
        "scored": sum(e.llm_score is not None for e in edges),
        "dropped": len(dropped),
        "asked": len(edges),
    }

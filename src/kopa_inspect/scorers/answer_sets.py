"""The whole answer set of a gold question: every record it has, over all its pages.

A count the gold reads from ``totalCount`` (the members of one party, the votes against a bill,
the restaurants within 2 km) is grounded by the gold query; a careful agent may instead have
been shown every one of those records by other calls (all 300 members over six pages, an
untyped location list counted by type) and counted them itself. To recognise that, the gold
question is paged to its end once per gold run, and its records' fingerprints are kept beside
the gold step (:class:`~kopa_inspect.scorers.grounding.GoldStep`, ``full``).
"""

from __future__ import annotations

import math
from typing import Any

from kopa_inspect import matching
from kopa_inspect.apis import get_operation, get_platform
from kopa_inspect.execution import Session

# A count above this many records is grounded by its own query only: paging a large answer set
# costs the gold run more calls than any agent would make to count it by hand.
FULL_SET_CAP = 1000
# Pages fetched at most for one answer set (data.go.kr's common 100-row pages: 10 calls).
MAX_PAGES = 10


def _page_requests(op_id: str, args: dict[str, Any], total: int) -> list[dict[str, Any]] | None:
    """The requests that read every record of the question ``args`` asks, or None when the API's
    paging is not one this module knows."""
    op = get_operation(op_id)
    envelope = op.envelope_override or get_platform(op.platform).envelope
    base = {k: v for k, v in args.items() if k not in matching.PAGING_ARGS}
    if envelope.page_param and envelope.size_param:
        size = min(envelope.max_size or 100, 100)
        pages = math.ceil(total / size)
        if pages > MAX_PAGES:
            return None
        return [{**base, envelope.size_param: size, envelope.page_param: p} for p in range(1, pages + 1)]
    if "START_INDEX" in args and "END_INDEX" in args:  # Seoul: rows START..END, at most 1000 per call
        return [{**base, "START_INDEX": 1, "END_INDEX": total}]
    if "start" in args and "end" in args:  # ECOS: rows start..end
        return [{**base, "start": 1, "end": total}]
    return None


async def full_answer_set(
    session: Session, op_id: str, args: dict[str, Any], total: Any
) -> frozenset[str] | None:
    """Fingerprints of every record the question ``args`` has (``total`` of them), or None when the
    set is empty, too large, unpageable or a page fails: then the count is grounded by its query."""
    try:
        count = int(total)
    except (TypeError, ValueError):
        return None
    if count <= 0 or count > FULL_SET_CAP:
        return None
    requests = _page_requests(op_id, args, count)
    if requests is None:
        return None
    found: set[str] = set()
    for request in requests:
        result = await session.call(op_id, request)
        if not result.ok:
            return None
        found |= {matching.record_fingerprint(item) for item in result.parsed.items}
    return frozenset(found) if found else None

"""The inspect_ai entry point: imports every @task, @modelapi, @scorer and @metric (cheap; heavy imports are lazy).

The scorers and metrics are imported here, not only inside the task, so that ``inspect score LOG``
can rebuild them from the registry names a log records.
"""

from kopa_inspect.bfcl.task import bfcl  # noqa: F401 (BFCL beside KOPA-Bench; runs with the bfcl extra)
from kopa_inspect.providers import kopa
from kopa_inspect.providers.llamacpp import llamacpp as llamacpp  # llamacpp/<model> (helper E)
from kopa_inspect.scorers import AXIS_SCORERS, kopa_judge
from kopa_inspect.scorers.metrics import (
    pass_at_1,
    pass_at_1_by_category,
    pass_at_1_stderr,
    pass_at_reported_k,
    pass_hat_reported_k,
)
from kopa_inspect.steps.task import kopa_steps, step_accuracy, step_scorer  # noqa: F401 (helper D)
from kopa_inspect.tasks import kopa_bench

__all__ = [
    "AXIS_SCORERS",
    "kopa",
    "kopa_bench",
    "kopa_judge",
    "pass_at_1",
    "pass_at_1_by_category",
    "pass_at_1_stderr",
    "pass_at_reported_k",
    "pass_hat_reported_k",
]

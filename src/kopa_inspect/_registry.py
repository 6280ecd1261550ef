"""The inspect_ai entry point: imports every @task and @modelapi (cheap; heavy imports are lazy)."""

from kopa_inspect.providers import kopa
from kopa_inspect.providers.llamacpp import llamacpp as llamacpp  # llamacpp/<model> (helper E)
from kopa_inspect.tasks import kopa_bench

__all__ = ["kopa", "kopa_bench"]

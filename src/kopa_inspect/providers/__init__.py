"""Model providers: ``kopa/oracle`` (gold-plan replay) and the local SmolLM2 folder for ``hf/local``."""

from __future__ import annotations

from inspect_ai.model import ModelAPI, modelapi


@modelapi(name="kopa")
def kopa() -> type[ModelAPI]:
    # Imported lazily: the registry module is imported at every eval start.
    from kopa_inspect.providers.oracle import OracleModelAPI

    return OracleModelAPI

"""``inspect eval kopa_inspect/bfcl``: BFCL on the data bfcl-eval ships, scored by BFCL's checkers."""

from __future__ import annotations

from inspect_ai import Task, task

from kopa_inspect.bfcl import categories as cats
from kopa_inspect.bfcl import library
from kopa_inspect.bfcl.data import dataset
from kopa_inspect.bfcl.scorer import bfcl_checker
from kopa_inspect.bfcl.solver import bfcl_solver

DEFAULT_CATEGORIES = "multi_turn,ast,irrelevance"


@task
def bfcl(categories: str | list[str] = DEFAULT_CATEGORIES, per_category: int | None = None) -> Task:
    """BFCL v4: multi-turn, the non-live AST categories and irrelevance.

    Args:
        categories: BFCL category names or groups (multi_turn, ast, simple, single_turn, all),
            comma-separated or a list.
        per_category: run only the first N entries of each category (BFCL's order).
    """
    bfcl_library_check()
    names = cats.resolve(categories)
    return Task(
        dataset=dataset(names, per_category),
        solver=bfcl_solver(),
        scorer=bfcl_checker(),
        # the data's provenance, which kopa report prints beside the figures
        metadata={
            "bfcl_eval_version": library.installed_version(),
            "bfcl_eval_license": library.installed_license(),
            "bfcl_categories": names,
        },
    )


def bfcl_library_check() -> None:
    library.bfcl()  # raises MissingExtra with the install command when bfcl-eval is absent
    if library.installed_version() != library.BFCL_VERSION:
        import warnings

        warnings.warn(
            f"bfcl-eval {library.installed_version()} is installed; this task was checked against {library.BFCL_VERSION}",
            stacklevel=2,
        )

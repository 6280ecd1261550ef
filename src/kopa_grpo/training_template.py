"""The chat template SFT trains whole trajectories with: the evaluation template plus markers.

TRL's ``assistant_only_loss=True`` asks the tokenizer for an assistant mask
(``apply_chat_template(..., return_assistant_tokens_mask=True)``), which only a template with
``{% generation %}`` ... ``{% endgeneration %}`` around the assistant's turns can give; without them
SFTTrainer tries to patch the template itself and fails for SmolLM2's. The shipped file
(``templates/chatml_tool_training.jinja``) is :data:`kopa_inspect.providers.chat_templates.CHATML_TOOL_TEMPLATE`
with those markers added: the same text as evaluation renders (tests/test_edge_trainable_rows.py),
so a model trains on the prompts it is evaluated on, and its loss covers each assistant turn's
calls or answer and its end token, never the system, user or tool turns.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

TEMPLATE_FILE = "chatml_tool_training.jinja"


def training_chat_template() -> str:
    return resources.files("kopa_grpo").joinpath("templates", TEMPLATE_FILE).read_text(encoding="utf-8")


def use_training_template(tokenizer: Any) -> Any:
    """The tokenizer with the training template (in place; returned for chaining)."""
    tokenizer.chat_template = training_chat_template()
    return tokenizer

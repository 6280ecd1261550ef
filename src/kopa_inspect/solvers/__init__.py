"""Solvers: the per-sample set-up (session, tools, prompt) and the default agent loop."""

from kopa_inspect.solvers.agent import kopa_agent
from kopa_inspect.solvers.prompts import system_prompt, user_prompt
from kopa_inspect.solvers.setup import kopa_cleanup, kopa_setup

__all__ = ["kopa_agent", "kopa_cleanup", "kopa_setup", "system_prompt", "user_prompt"]

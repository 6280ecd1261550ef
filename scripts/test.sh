#!/usr/bin/env bash
# The test command: sets up ./.venv, then runs the default (fast) test suite.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m slow` for the slow tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1
if [ "$#" -eq 0 ]; then
  set -- -m "not slow"
fi
exec .venv/bin/python -m pytest -q "$@"

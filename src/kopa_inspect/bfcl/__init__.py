"""BFCL (Berkeley Function Calling Leaderboard) beside KOPA-Bench, offline.

The data and the checkers are BFCL's own, from the ``bfcl-eval`` wheel (installed ``--no-deps``;
see library.py). Modules: categories (what runs, how checked), data (entries as samples), schema
(functions as tools), calls (tool calls in BFCL's forms), backends (BFCL's multi-turn backends),
solver, checks (BFCL's checkers), scorer, weighting (BFCL's summary figures), task, replay (gold
and wrong scripted models for self-tests).
"""

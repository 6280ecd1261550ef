"""EDGE: execution-grounded synthesis of multi-step tool-calling trajectories.

Phase A builds a candidate link graph over the registered operations (``graph``, ``retrieve``,
``fields``) and verifies links by executing them as a bandit (``verify``, ``pool``, ``runner``).
Phase B samples plans over verified links (``sample``), executes and writes them (``compose``),
filters (``filter``) and exports a Hugging Face dataset (``export``). ``pipeline.run`` drives it,
``kopa synth`` is the command. Schema and usage: src/edge_synth/README.md.
"""

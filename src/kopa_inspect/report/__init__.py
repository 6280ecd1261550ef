"""Tables and figures from Inspect logs: the paper's comparisons, reproducible from a log dir."""

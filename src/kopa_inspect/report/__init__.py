"""Tables and figures from Inspect logs: the paper's comparisons, reproducible from a log dir.

Needs the ``report`` extra (pandas, pyarrow for Inspect's samples_df, matplotlib, tabulate).
"""

from kopa_inspect._extras import require

require("report", "pandas", "pyarrow", "matplotlib", "tabulate", feature="kopa report / kopa grid")

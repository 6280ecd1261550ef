"""A run's setting: what must be equal for two runs' scores to be pooled or compared.

A report row pools the samples of every run with one label. Pooling is sound only where the runs
share (model, task version, task arguments, epochs); a label whose runs differ in any of them is
split into one row per setting, each named after what differs (``oracle [max_messages=6]``), and
a note says so. Across rows, settings that differ (another task version, other task arguments)
are named in a note, since the rows' numbers are then not comparable.

Task arguments that only select which tasks run (``ids``, ``categories``, ``held_out``) are not
part of the setting: a rerun over some of the tasks is the same experiment, and the tables count
each row's tasks.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

SELECTION_ARGS = frozenset({"ids", "categories", "held_out"})
FIELDS = ("model", "task version", "task args", "epochs")


def _args(value: Any) -> dict[str, Any]:
    if isinstance(value, str) and value[:1] == "{":
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return {}
    return value if isinstance(value, dict) else {}


def _shown(value: Any) -> str:
    """A setting value short enough for a row name: a file path by its name."""
    text = str(value)
    return text.rsplit("/", 1)[-1] if "/" in text and " " not in text else text


def setting(row: pd.Series) -> dict[str, Any]:
    """The setting of the run a sample row comes from."""
    args = {a: v for a, v in _args(row.get("task_args_json")).items() if a not in SELECTION_ARGS}
    epochs = row.get("run_epochs")
    return {
        "model": row.get("model_key"),
        "task version": row.get("task_version"),
        "task args": json.dumps(args, sort_keys=True, default=str),
        "epochs": 1 if epochs is None or pd.isna(epochs) else int(epochs),
    }


def difference(settings: list[dict[str, Any]]) -> list[str]:
    """For each setting, a short text of what sets it apart from the others."""
    parts: list[list[str]] = [[] for _ in settings]
    for field in FIELDS:
        values = [s.get(field) for s in settings]
        if len(set(values)) < 2:
            continue
        if field == "task args":
            decoded = [json.loads(str(v)) for v in values]  # setting() writes them as JSON text
            names = sorted({a for d in decoded for a in d})
            for a in names:
                if len({json.dumps(d.get(a), default=str) for d in decoded}) > 1:
                    for p, d in zip(parts, decoded, strict=True):
                        p.append(f"{a}={_shown(d.get(a))}")
        elif field == "model":
            for p, v in zip(parts, values, strict=True):
                model, _, args = str(v).partition("|")
                p.append(model if args in ("", "{}") else f"{model} {args}")
        elif field == "task version":
            for p, v in zip(parts, values, strict=True):
                p.append(f"task v{v}")
        else:
            for p, v in zip(parts, values, strict=True):
                p.append(f"{v} epochs")
    return [", ".join(p) for p in parts]


def split_mixed_labels(df: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """One label per setting: a label whose runs differ in setting becomes one label per setting.

    Returns the relabelled frame and a note per split label."""
    df = df.copy()
    keys = df.apply(lambda r: json.dumps(setting(r), sort_keys=True, default=str), axis=1)
    notes = []
    for (label, _task), idx in df.groupby(["label", "task"], sort=True).groups.items():
        distinct = sorted(set(keys[idx]))
        if len(distinct) < 2:
            continue
        names = difference([json.loads(k) for k in distinct])
        new = {k: f"{label} [{n}]" for k, n in zip(distinct, names, strict=True)}
        df.loc[idx, "label"] = keys[idx].map(new)
        notes.append(
            f"runs labelled {label!r} differ in setting and are not pooled; shown as separate rows: "
            + "; ".join(repr(v) for v in new.values())
        )
    return df, notes


def mixed_across_rows(df: pd.DataFrame) -> list[str]:
    """Notes where the rows of one task were run under different task versions or task arguments."""
    notes = []
    for task, sub in df.groupby("task", sort=True):
        first = sub.drop_duplicates("label")
        per_label = {lab: setting(r) for lab, r in zip(first["label"], first.to_dict("records"), strict=True)}
        for field in ("task version", "task args"):
            if len({s[field] for s in per_label.values()}) < 2:
                continue
            shown = difference([{field: s[field]} for s in per_label.values()])
            notes.append(
                f"{task} rows were run with different {field} ("
                + "; ".join(f"{lab}: {d}" for lab, d in zip(per_label, shown, strict=True))
                + "): their numbers are not directly comparable"
            )
    return notes

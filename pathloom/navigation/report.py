"""Text and JSON of a ``reach`` run. JSON: ``{"target": "FILE::f", "targets": [{"line",
"verdict", "inputs", "time_s", "reason"}]}`` (an array of such objects for several functions is
not produced: ``reach`` names one function)."""

from __future__ import annotations

import json
from typing import IO

from pathloom.navigation.verdict import Verdict
from pathloom.report.text import _inputs
from pathloom.encoding.values import json_safe


def write_text(out: IO[str], target: str, verdicts: list[Verdict]) -> None:
    out.write(f"{target}\n")
    for v in verdicts:
        out.write(f"  {v.target.label()}: {v.verdict}, {v.time_s:.3f}s: {v.reason}\n")
        if v.inputs is not None:
            out.write(f"           input: {_inputs(v.inputs)}\n")
    counts = {name: sum(1 for v in verdicts if v.verdict == name) for name in ("reachable", "unreachable", "unknown")}
    out.write(f"  {len(verdicts)} target(s): " + ", ".join(f"{n} {name}" for name, n in counts.items()) + "\n")
    out.flush()


def as_json(target: str, verdicts: list[Verdict]) -> dict[str, object]:
    return {"target": target, "targets": [v.to_json() for v in verdicts]}


def write_json(out: IO[str], target: str, verdicts: list[Verdict]) -> None:
    json.dump(json_safe(as_json(target, verdicts)), out, indent=2)
    out.write("\n")

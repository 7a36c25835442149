"""Search where symbolic reasoning stalled (issue 29, item 4): after an exploration whose paths
left a gap (it is incomplete, or some branch direction has no input), a coverage-guided search
runs on the real code in a child process (``search.child``) for a bounded time, starting from
the arcs and outcomes the symbolic inputs covered; each input it keeps is replayed once more in
a fresh process (``replay.replay``), the kept inputs in the reverse order of their finding, and
becomes a test only if CPython gives the same outcome again (a flaky input, or one whose
outcome depends on module-level state the calls before it changed, is dropped). Symbolic execution stays first: the search
only adds inputs that cover what the symbolic ones did not.

Invariant: ``Exploration.searched`` holds only inputs whose outcome two CPython runs agreed on;
pathloom predicts nothing about them, so they are never compared with a prediction nor counted
as bugs (a test records what the code does).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pathloom.encoding.values import json_safe
from pathloom.replay import OBSERVED_SALT, replay, same_answer
from pathloom.report.test_selection import outcome_key
from pathloom.results import Exploration

JSON = Any

GRACE_S = 10.0  # past the budget, the child is killed (a call runs at most 1 s past it; start-up)


@dataclass(frozen=True)
class SearchReport:
    runs: int  # inputs run
    found: int  # inputs kept by the search
    confirmed: int  # of those, the ones a second run in a fresh process agreed with
    skipped: str | None  # why the target was not searched


def has_gap(exploration: Exploration) -> bool:
    """Whether symbolic execution left something for the search: a path cut or left unknown,
    a stop, or a branch direction no input reached."""
    stats = exploration.stats
    uncovered = stats is not None and stats.branches_covered < stats.branches_total
    return not exploration.complete or uncovered


def run_search(exploration: Exploration, filename: str, target: str, budget_s: float, seed: int = 0) -> SearchReport:
    """Search for ``budget_s`` seconds and put the confirmed inputs in ``exploration.searched``."""
    inputs = [dict(p.inputs) for p in exploration.paths if p.inputs is not None]
    arcs = sorted({arc for covered in exploration.arcs.values() for arc in covered})
    outcomes = {outcome_key(p.outcome, p.returned, p.exception, p.line) for p in exploration.paths if p.outcome in ("return", "raise")}
    outcomes |= {outcome_key(o["outcome"], o["returned"], o["exception"], o["line"]) for o in exploration.observed.values()}
    request = json.dumps(
        json_safe(
            {
                "file": os.path.abspath(filename),
                "target": target,
                "budget": budget_s,
                "seed": seed,
                "globals": exploration.module_globals,
                "arcs": arcs,
                "outcomes": sorted(outcomes, key=repr),
                "inputs": inputs,
            }
        )
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent.parent) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONHASHSEED"] = OBSERVED_SALT  # the same answers on every run (replay.drop_hash_dependent checks others)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pathloom.search.child"], input=request, capture_output=True, text=True, timeout=budget_s + GRACE_S, env=env
        )
    except subprocess.TimeoutExpired:
        return SearchReport(0, 0, 0, f"the search process ran past {budget_s + GRACE_S:g} s and was stopped")
    if proc.returncode != 0 or not proc.stdout.strip():
        last = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
        return SearchReport(0, 0, 0, f"the search process failed: {last}")
    answer = json.loads(proc.stdout.strip().splitlines()[-1])
    kept: list[dict[str, JSON]] = answer["kept"]
    # in a fresh process and in the reverse order: an outcome that depends on what ran before
    # (module-level state a call changes) shows as a disagreement, and that input is dropped
    again = replay(filename, target, [k["inputs"] for k in reversed(kept)], module_globals=exploration.module_globals, arcs=True, hash_seed=OBSERVED_SALT)
    for found, observed in zip(kept, reversed(again)):
        if same_answer(found, observed):
            exploration.searched.append({**found, "arcs": observed.arcs or []})
    return SearchReport(answer["runs"], len(kept), len(exploration.searched), answer["skipped"])

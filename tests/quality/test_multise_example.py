"""Done-when 2: the MultiSE running example has exactly its 5 feasible paths, each replaying."""

from __future__ import annotations

import json
from pathlib import Path

from pathloom.cli import main
from tests.conftest import ROOT


def test_five_paths_in_json(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    code = main(["explore", str(ROOT / "examples/multise_example.py") + "::f", "--json", str(out), "--verify", "--quiet"])
    assert code == 0
    data = json.loads(out.read_text())
    assert set(data) >= {"target", "engine", "complete", "paths", "stats"}
    assert data["complete"] is True
    assert len(data["paths"]) == 5
    assert {p["outcome"] for p in data["paths"]} == {"return"}
    assert sorted(json.dumps(p["returned"]) for p in data["paths"]) == sorted(
        ["0.30000000000000004", "1", "0", "1", "0"]
    )
    for key in ("paths", "solver_calls", "solver_time_s", "time_s", "instructions"):
        assert key in data["stats"]
    assert data["stats"]["paths"] == 5
    for path in data["paths"]:
        assert set(path) >= {"outcome", "exception", "line", "inputs", "returned"}
        assert set(path["inputs"]) == {"x", "z", "r"}

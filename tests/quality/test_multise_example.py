"""Done-when 2: the MultiSE running example has exactly its 5 feasible paths, each replaying."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
    assert sorted(json.dumps(p["returned"]) for p in data["paths"]) == sorted(["0.30000000000000004", "1", "0", "1", "0"])
    for key in ("paths", "solver_calls", "solver_time_s", "time_s", "instructions"):
        assert key in data["stats"]
    assert data["stats"]["paths"] == 5
    for path in data["paths"]:
        assert set(path) >= {"outcome", "exception", "line", "inputs", "returned"}
        assert set(path["inputs"]) == {"x", "z", "r"}


def test_table_one_statistics(tmp_path: Path) -> None:
    """MultiSE reports the statistics of the paper's Table 1, with values that fit their
    definitions: find_max shares ``best`` and ``pos`` across paths, no_sharing shares nothing."""
    from pathloom.api import explore
    from pathloom.frontend.module import load_module
    from pathloom.options import Options

    def stats(name: str) -> dict[str, float]:
        module = load_module(str(ROOT / "benchmarks/multise" / f"{name}.py"))
        return explore(module, name, Options(engine="multise", max_list_len=6, max_iterations=8)).stats  # type: ignore[return-value]

    shared, unshared = stats("find_max"), stats("no_sharing")
    for s in (shared, unshared):
        assert 0.0 <= s["bdd_time_pct"] <= 100.0 and 0.0 <= s["solver_time_pct"] <= 100.0
        assert s["bdd_time_pct"] + s["solver_time_pct"] <= 100.0 + 1e-6
        assert s["avg_summary_size"] >= 1.0 and s["instructions"] > 0 and s["solver_calls"] > 0
    assert unshared["sharing_factor"] == 1.0  # every path holds its own value
    assert shared["sharing_factor"] > 2.0
    assert shared["pc_merges"] > 0


def test_sharing_factor_not_computed_past_its_node_budget(monkeypatch: Any, capsys: Any, tmp_path: Path) -> None:
    """Past its node budget the sharing factor is ``null`` in the JSON and said to be not
    computed on screen, not a number from a partial walk."""
    from pathloom.engines import multise

    monkeypatch.setattr(multise.limits, "SHARING_WALK_MAX_NODES", 0)
    target = str(ROOT / "benchmarks/multise/find_max.py") + "::find_max"
    out = tmp_path / "out.json"
    code = main(["explore", target, "--engine", "multise", "--max-list-len", "3", "--json", str(out)])
    assert code == 0
    assert "sharing factor not computed (guards too large)" in capsys.readouterr().out
    assert json.loads(out.read_text())["stats"]["sharing_factor"] is None
    monkeypatch.setattr(multise.limits, "SHARING_WALK_MAX_NODES", 10**9)
    code = main(["explore", target, "--engine", "multise", "--max-list-len", "3", "--quiet"])
    assert code == 0
    assert "sharing factor not computed" not in capsys.readouterr().out


def test_batched_result_models_replay() -> None:
    """Both ways of solving many result guards at once (one incremental solver for cubes over
    many distinct literals; independent parts through the query cache for cubes over few) give
    inputs that replay on CPython with the predicted return value."""
    from pathloom.api import explore
    from pathloom.engines import multise
    from pathloom.frontend.module import load_module
    from pathloom.options import Options
    from pathloom.replay import verify

    for name in ("no_sharing", "no_sharing_values"):
        path = str(ROOT / "benchmarks/multise" / f"{name}.py")
        exploration = explore(load_module(path), name, Options(engine="multise", max_list_len=6, max_iterations=8))
        assert exploration.complete and len(exploration.paths) == 127 >= multise.limits.CUBE_BATCH
        assert verify(exploration, path, name) == []

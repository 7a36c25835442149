"""The compose engine's SQLite summary store: warm reruns, reuse after a change to a caller,
concurrent runs, damaged rows, and the ``--store``/``--no-store``/``summaries`` commands."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pathloom.api import explore
from pathloom.cli import main
from pathloom.compare import agree
from pathloom.engines.compose.location import default_store_path
from pathloom.engines.compose.store import SummaryStore
from pathloom.options import Options
from pathloom.replay import verify
from pathloom.results import Exploration
from tests.unit.test_compose import BAND

PROGRAM = (
    BAND
    + """


def weigh(v: int) -> int:
    if v > 7:
        return band(v, 3) + 1
    return band(v, 5)


def main(a: int, b: int) -> int:
    total = 0
    for i in range(4):
        total += weigh(a + i) + band(b, a)
    if total > LIMIT:
        return total
    return -total


LIMIT = 9
"""
)


def _run(path: Path, store: Path | None, target: str = "main") -> Exploration:
    return explore(str(path), target, Options(engine="compose", store=None if store is None else str(store)))


def _write(tmp_path: Path, source: str) -> Path:
    path = tmp_path / "program.py"
    path.write_text(source)
    return path


def test_an_unchanged_rerun_is_answered_from_the_store(tmp_path: Path) -> None:
    path, store = _write(tmp_path, PROGRAM), tmp_path / "s.sqlite"
    cold = _run(path, store)
    assert cold.stats["answered_from_store"] is False
    assert cold.stats["trees_built"] == 2 and cold.stats["trees_from_store"] == 0
    warm = _run(path, store)
    assert warm.stats["answered_from_store"] is True
    assert warm.stats["solver_calls"] <= cold.stats["solver_calls"] // 10
    assert warm.stats["replay_divergences"] == 0 and warm.stats["replay_fallbacks"] == 0
    assert len(warm.paths) == len(cold.paths)
    assert sorted(json.dumps(p.inputs) for p in warm.paths) == sorted(json.dumps(p.inputs) for p in cold.paths)
    assert agree(cold, warm) == []
    assert warm.stats["branches_covered"] == cold.stats["branches_covered"]
    assert verify(warm, str(path), "main") == []


def test_a_changed_caller_reuses_its_callees_trees(tmp_path: Path) -> None:
    path, store = _write(tmp_path, PROGRAM), tmp_path / "s.sqlite"
    cold = _run(path, store)
    path.write_text(PROGRAM.replace("for i in range(4)", "for i in range(5)"))
    changed = _run(path, store)
    assert changed.stats["answered_from_store"] is False
    assert changed.stats["trees_from_store"] == 2 and changed.stats["trees_built"] == 0
    assert changed.stats["init_solver_calls"] == 0
    dse = explore(str(path), "main", Options(engine="dse"))
    assert agree(dse, changed) == []
    assert verify(changed, str(path), "main") == []
    assert len(changed.paths) != len(cold.paths) or changed.paths != cold.paths


def test_a_changed_callee_rebuilds_it_and_its_callers(tmp_path: Path) -> None:
    path, store = _write(tmp_path, PROGRAM), tmp_path / "s.sqlite"
    _run(path, store)
    path.write_text(PROGRAM.replace("if v < 2 * w:", "if v < 3 * w:"))
    changed = _run(path, store)
    assert changed.stats["trees_built"] == 2  # band changed; weigh calls it
    path.write_text(PROGRAM.replace("LIMIT = 9", "LIMIT = 10"))  # a module constant: every key changes
    assert _run(path, store).stats["trees_built"] == 2


def test_no_store_means_nothing_read_or_written(tmp_path: Path) -> None:
    path = _write(tmp_path, PROGRAM)
    first, second = _run(path, None), _run(path, None)
    assert second.stats["answered_from_store"] is False and second.stats["trees_built"] == 2
    assert first.stats["solver_calls"] == second.stats["solver_calls"]
    assert not (tmp_path / ".pathloom").exists()


def test_a_damaged_row_is_recomputed(tmp_path: Path) -> None:
    path, store = _write(tmp_path, PROGRAM), tmp_path / "s.sqlite"
    cold = _run(path, store)
    with sqlite3.connect(store) as conn:
        conn.execute("UPDATE summaries SET body = 'not json {'")
    again = _run(path, store)
    assert again.stats["answered_from_store"] is False and again.stats["trees_built"] == 2
    assert len(again.paths) == len(cold.paths)
    assert _run(path, store).stats["answered_from_store"] is True  # the rows were written again


def test_rows_are_json_and_listed(tmp_path: Path) -> None:
    path, store = _write(tmp_path, PROGRAM), tmp_path / "s.sqlite"
    _run(path, store)
    with sqlite3.connect(store) as conn:
        bodies = [json.loads(b) for (b,) in conn.execute("SELECT body FROM summaries")]
    assert {b["qualname"] for b in bodies} == {"band", "weigh", "main"}
    with SummaryStore(store) as opened:
        assert sorted((r.kind, r.qualname) for r in opened.rows()) == [("run", "main"), ("tree", "band"), ("tree", "weigh")]


CONCURRENT = """
import sys
from pathloom.api import explore
from pathloom.options import Options
for _ in range(3):
    explore(sys.argv[1], "main", Options(engine="compose", store=sys.argv[2]))
"""


def test_concurrent_runs_leave_a_sound_store(tmp_path: Path) -> None:
    path, store = _write(tmp_path, PROGRAM), tmp_path / "s.sqlite"
    script = tmp_path / "runner.py"
    script.write_text(CONCURRENT)
    root = str(Path(__file__).resolve().parents[2])
    runs = [
        subprocess.Popen([sys.executable, str(script), str(path), str(store)], env={"PYTHONPATH": root}, stderr=subprocess.PIPE, text=True) for _ in range(3)
    ]
    for run in runs:
        _, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
    with sqlite3.connect(store) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT COUNT(*) FROM summaries").fetchone() == (3,)
    warm = _run(path, store)
    assert warm.stats["answered_from_store"] is True
    assert verify(warm, str(path), "main") == []


def test_cli_store_options_and_summaries_command(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    sub = tmp_path / "pkg"
    sub.mkdir()
    path = _write(sub, PROGRAM)
    assert default_store_path(path) == tmp_path / ".pathloom" / "summaries.sqlite"
    assert main(["explore", f"{path}::main", "--engine", "compose", "--quiet", "--no-store"]) == 0
    assert not (tmp_path / ".pathloom").exists()
    assert main(["explore", f"{path}::main", "--engine", "compose", "--quiet"]) == 0
    assert (tmp_path / ".pathloom" / "summaries.sqlite").is_file()
    elsewhere = tmp_path / "other.sqlite"
    assert main(["explore", f"{path}::main", "--engine", "compose", "--quiet", "--store", str(elsewhere)]) == 0
    assert elsewhere.is_file()
    assert main(["explore", f"{path}::main", "--store", str(elsewhere), "--no-store"]) == 2
    capsys.readouterr()
    monkeypatch.chdir(sub)
    assert main(["summaries", "list"]) == 0
    listed = capsys.readouterr().out
    assert "3 summaries" in listed and "program.py::band" in listed and "run " in listed
    assert main(["summaries", "clear"]) == 0
    assert "3 summaries removed" in capsys.readouterr().out
    assert main(["summaries", "list", "--store", str(elsewhere)]) == 0
    assert "3 summaries" in capsys.readouterr().out


def test_a_shared_subterm_is_written_once_and_read_back() -> None:
    """``x + x`` nested 80 times is a DAG of 81 nodes but a tree of 2**80: the store once wrote
    one JSON object per reference (a tree function's row grew to 24 GB and ignored
    --timeout). The table holds each distinct node once, for one term and across a tree's
    leaves."""
    from pathloom.engines.compose.tree import MemoLeaf, MemoTree, tree_from_json, tree_to_json
    from pathloom.terms import expr as T
    from pathloom.terms.serialize import from_json, to_json

    term: T.Term = T.sym("x", T.INT)
    for _ in range(80):
        term = T.add(term, term)  # type: ignore[assignment]
    data = to_json(term)
    assert len(data["nodes"]) == 81
    assert from_json(json.loads(json.dumps(data))) is term
    cond = T.lt(term, 5)
    leaves = tuple(
        MemoLeaf(conjuncts=(cond, T.not_(cond)) if i else (cond,), outcome="return", detail=None, witness={"x": i}, frames=1, full=(), compressed=())
        for i in range(3)
    )
    stored = tree_to_json(MemoTree("f", (("x", T.INT),), leaves))
    assert len(stored["terms"]) == 83  # the 81 nodes, the comparison and its negation, each once over 3 leaves
    again = tree_from_json(json.loads(json.dumps(stored)))
    assert [leaf.conjuncts for leaf in again.leaves] == [leaf.conjuncts for leaf in leaves]


def test_ints_past_the_decimal_limit_are_stored_exactly() -> None:
    """An int of more than 4,300 digits (in a term and in a witness) is written as hex digits:
    ``json.dumps`` of it raised "Exceeds the limit (4300 digits)", an internal error of every
    compose run on such an input. Ints past 2**53 round-trip exactly."""
    from pathloom.engines.compose.tree import MemoLeaf, MemoTree, tree_from_json, tree_to_json
    from pathloom.terms import expr as T
    from pathloom.terms.serialize import from_json, to_json

    huge = 10**5000 + 1
    for value in (huge, -huge, 2**53, -(2**53) - 7, 2**53 - 1, True, 0):
        term = T.add(T.sym("x", T.INT), value)
        assert from_json(json.loads(json.dumps(to_json(term)))) is term
    leaf = MemoLeaf(conjuncts=(T.lt(T.sym("x", T.INT), huge),), outcome="return", detail=None, witness={"x": huge, "b": True}, frames=1, full=(), compressed=())
    again = tree_from_json(json.loads(json.dumps(tree_to_json(MemoTree("f", (("x", T.INT),), (leaf,))))))
    assert again.leaves == (leaf,)
    assert again.leaves[0].witness["b"] is True


def test_serialization_stops_when_asked() -> None:
    """Writing a row checks its stop (the engine's deadline and Ctrl-C) as the table grows; a
    stopped row is not written."""
    from pathloom.engines.compose.tree import MemoLeaf, MemoTree
    from pathloom.terms import expr as T
    from pathloom.terms.serialize import CHECK_EVERY, SerializationStopped, TermTable

    terms = [T.add(T.sym(f"v{i}", T.INT), i) for i in range(3 * CHECK_EVERY)]
    table = TermTable(stop=lambda: len(table.nodes) > CHECK_EVERY)
    with pytest.raises(SerializationStopped):
        for t in terms:
            table.ref(t)
    assert len(table.nodes) <= 2 * CHECK_EVERY + 1
    leaf = MemoLeaf(conjuncts=tuple(T.lt(t, 0) for t in terms), outcome="return", detail=None, witness={}, frames=1, full=(), compressed=())
    with SummaryStore(":memory:") as store:
        assert not store.save("k", "tree", "f.py", "f", MemoTree("f", (), (leaf,)), stop=lambda: True)
        assert store.rows() == []
        assert store.save("k", "tree", "f.py", "f", MemoTree("f", (), (leaf,)))
        assert len(store.rows()) == 1


def test_malformed_term_tables_are_refused() -> None:
    from pathloom.terms.serialize import from_json

    for bad in (
        {"nodes": [{"op": "add", "sort": "Int", "args": [{"t": 0}, {"c": 1}]}], "root": {"t": 0}},  # refers to itself
        {"nodes": [], "root": {"t": 0}},
        {"nodes": "x", "root": {"c": 1}},
        {"nodes": [], "root": {"c": [1]}},
        {"nodes": [{"op": "sym", "sort": "Int", "args": [3]}], "root": {"t": 0}},
    ):
        with pytest.raises(ValueError):
            from_json(bad)

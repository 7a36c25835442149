"""An answer of CPython's that a generated test asserts (a cut path's observed outcome, a
searched input's) must not follow the str hash salt: the test runs under another
``PYTHONHASHSEED``. Such inputs are left out of the tests (``replay.drop_hash_dependent``);
the real-code run's ``top_sort`` (a set of strs popped) wrote a test that failed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pathloom.cli import main
from pathloom.replay import drop_hash_dependent
from pathloom.results import Exploration, PathResult

SOURCE = """
def order(graph: dict[str, list[str]]) -> list[str]:
    out = []
    todo = set(graph)
    while todo:
        out.append(todo.pop())
    return out


def size(graph: dict[str, list[str]]) -> int:
    return len(set(graph))
"""


def test_generated_tests_pass_under_every_hash_salt(tmp_path: Path) -> None:
    (tmp_path / "graphs.py").write_text(SOURCE)
    out = tmp_path / "test_graphs_generated.py"
    assert main(["explore", f"{tmp_path / 'graphs.py'}::order", "--tests", str(out), "--all-paths", "--search-timeout", "0", "--quiet"]) in (0, 1)
    text = out.read_text()
    assert "_module.order(graph={})" in text  # the empty graph's test stays
    for seed in ("31", "32", "33", "34", "35", "36"):  # none of the salts pathloom ran them under (0 to 24)
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)], capture_output=True, text=True, env=env, cwd=tmp_path)
        assert run.returncode == 0 and " failed" not in run.stdout, (seed, run.stdout, text)


def test_only_the_answers_that_follow_the_salt_are_left_out(tmp_path: Path) -> None:
    (tmp_path / "graphs.py").write_text(SOURCE)
    graph = {"$dict": [[name, []] for name in "ABCDEFGH"]}  # eight strs: their order follows the salt
    exploration = Exploration(
        "order", "dse", paths=[PathResult("cut", inputs={"graph": graph}, cut="timeout"), PathResult("cut", inputs={"graph": {"$dict": []}}, cut="timeout")]
    )
    exploration.observed = {0: {"outcome": "return", "returned": list("ABCDEFGH")}, 1: {"outcome": "return", "returned": []}}
    exploration.searched = [{"inputs": {"graph": graph}, "outcome": "return", "returned": list("HGFEDCBA"), "arcs": []}]
    assert drop_hash_dependent(exploration, str(tmp_path / "graphs.py"), "order") == 2
    assert list(exploration.observed) == [1] and exploration.searched == [] and exploration.hash_dependent == 2

    sizes = Exploration("size", "dse", paths=[PathResult("cut", inputs={"graph": graph}, cut="timeout")])
    sizes.observed = {0: {"outcome": "return", "returned": 8}}
    assert drop_hash_dependent(sizes, str(tmp_path / "graphs.py"), "size") == 0 and list(sizes.observed) == [0]

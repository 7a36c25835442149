"""The same exploration gives the same paths, inputs included, in every process: nothing the
engines iterate over may depend on Python's per-process string hash salt (PYTHONHASHSEED)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from pathloom.engines.registry import engine_names


@pytest.mark.parametrize("engine", engine_names())
def test_paths_do_not_depend_on_the_hash_seed(engine: str, tmp_path: Path) -> None:
    target = str(ROOT / "benchmarks/multise/pl0_parser.py") + "::pl0_parser"
    found = []
    for seed in ("1", "2"):
        out = tmp_path / f"{seed}.json"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run(
            [sys.executable, "-m", "pathloom", "explore", target, "--engine", engine, "--max-list-len", "4", "--json", str(out), "--quiet"],
            env=env,
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        found.append(json.loads(out.read_text())["paths"])
    assert found[0] and found[0] == found[1]

"""Ctrl-C stops a long run, which still prints and writes what it found (complete: false),
at any moment: while Python imports pathloom and Z3, while the module loads, while paths are
found. The process then exits 130 with no traceback, "interrupted" in its summary, and its
JSON file parses."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pathloom import interrupt
from pathloom.api import explore_source
from pathloom.options import Options
from pathloom.engines.registry import engine_names

SLOW = """
def slow(xs: list[int], y: int) -> int:
    t = 0
    for a in xs:
        for b in xs:
            if a * b > t + y:
                t += a
            elif a + b < y:
                t -= b
    return t
"""


def test_interrupt_keeps_results(tmp_path: Path) -> None:
    program = tmp_path / "slow.py"
    program.write_text(SLOW)
    out = tmp_path / "out.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pathloom", "explore", f"{program}::slow", "--max-list-len", "8", "--json", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert "Traceback" not in stderr
    assert proc.returncode == 130, (stdout, stderr)
    assert "INCOMPLETE (interrupted)" in stdout
    data = json.loads(out.read_text())
    assert data["complete"] is False
    # a path the engine counted while Ctrl-C interrupted its delivery is not counted (seen on CI)
    assert data["paths"] and data["stats"]["paths"] == len(data["paths"])


def _startup_s() -> float:
    """How long this machine takes to start Python and import the CLI module: before that no
    program can handle Ctrl-C its own way (Python's default handler prints a traceback)."""
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", "import pathloom.cli"], check=True)
    return time.monotonic() - start


@pytest.mark.parametrize("delay", [0.1, 0.3, 0.6, 1.2])
def test_interrupt_at_any_moment(tmp_path: Path, delay: float) -> None:
    program = tmp_path / "slow.py"
    program.write_text(SLOW)
    out = tmp_path / "out.json"
    wait = max(delay, 1.5 * _startup_s())
    proc = subprocess.Popen(
        [sys.executable, "-m", "pathloom", "explore", f"{program}::slow", "--max-list-len", "8", "--json", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(wait)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert "Traceback" not in stdout + stderr, stderr
    assert proc.returncode == 130, (wait, stdout, stderr)
    assert "interrupted" in stdout, (wait, stdout, stderr)
    assert stderr.strip().splitlines()[-1].startswith("pathloom: interrupted"), stderr
    if out.exists():  # not yet created when Ctrl-C comes before the arguments are read
        data = json.loads(out.read_text())
        assert data["complete"] is False and data["error"] == "interrupted"
        assert data["target"] == f"{program}::slow"


@pytest.mark.parametrize("engine", engine_names())
def test_a_swallowed_interrupt_still_stops_the_run(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Python drops a KeyboardInterrupt raised inside a ``__del__`` (Z3 frees its handles in
    them); the request flag set by the CLI's handler stops the engines at their next step."""
    monkeypatch.setattr(interrupt, "_requested", True)
    exploration = explore_source(SLOW, "slow", Options(engine=engine, max_list_len=8, timeout=10))
    assert exploration.complete is False
    assert [p.reason for p in exploration.paths] == ["interrupted"]

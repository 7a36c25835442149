"""Ctrl-C stops a long run, which still prints and writes what it found (complete: false)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

SLOW = '''
def slow(xs: list[int], y: int) -> int:
    t = 0
    for a in xs:
        for b in xs:
            if a * b > t + y:
                t += a
            elif a + b < y:
                t -= b
    return t
'''


def test_interrupt_keeps_results(tmp_path: Path) -> None:
    program = tmp_path / "slow.py"
    program.write_text(SLOW)
    out = tmp_path / "out.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pathloom", "explore", f"{program}::slow", "--max-list-len", "8", "--json", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert "Traceback" not in stderr
    assert "INCOMPLETE" in stdout
    data = json.loads(out.read_text())
    assert data["complete"] is False
    assert data["paths"] and data["stats"]["paths"] == len(data["paths"])

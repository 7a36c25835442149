"""Branch coverage of one source file by one pytest file, measured by coverage.py in a child
process (the tests that check what generated test files cover share it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def branch_coverage(test_file: Path, source: Path, workdir: Path) -> tuple[dict[str, Any], str]:
    """coverage.py's JSON report entry of ``source`` (``executed_branches``,
    ``missing_branches``, ``executed_lines``...) after ``pytest test_file``, and pytest's
    output; the run must pass (a strict xfail counts as passing)."""
    data = workdir / f".coverage.{test_file.stem}"
    run = subprocess.run(
        [sys.executable, "-m", "coverage", "run", "--branch", f"--include={source}", f"--data-file={data}"]
        + ["-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
        capture_output=True,
        text=True,
        cwd=workdir,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    report = workdir / f"{test_file.stem}.coverage.json"
    subprocess.run([sys.executable, "-m", "coverage", "json", f"--data-file={data}", "-o", str(report)], check=True, capture_output=True, cwd=workdir)
    files = list(json.loads(report.read_text())["files"].values())
    assert len(files) == 1, files
    return files[0], run.stdout

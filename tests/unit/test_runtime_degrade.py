"""What the semantics meets at run time and does not model cuts the path that reaches it, in
every engine; the exploration goes on with the other paths (issue 29: degrade, never refuse a
whole function), and the construct is listed once in the text report."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main

SOURCE = """
import hashlib


def route(s: str, n: int) -> str:
    if n > 0:
        return "positive"
    digest = hashlib.md5(s.encode())
    return digest.hexdigest()[:2]
"""


@pytest.mark.parametrize("engine", ["dse", "multise", "compose"])
def test_an_unmodelled_operation_cuts_its_paths_and_the_others_are_explored(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str) -> None:
    source = tmp_path / "hashing.py"
    source.write_text(textwrap.dedent(SOURCE), encoding="utf-8")
    report = tmp_path / "route.json"
    code = main(["explore", f"{source}::route", "--engine", engine, "--json", str(report), "--no-store"])
    out, err = capsys.readouterr()
    assert code == 0 and "unsupported" not in err, (code, err)
    entry = json.loads(report.read_text())
    assert entry["status"] == "incomplete"
    assert any(p["outcome"] == "return" and p["returned"] == "positive" for p in entry["paths"]), entry["paths"]
    cuts = [p for p in entry["paths"] if p["outcome"] == "cut" and p["cut"] == "unsupported"]
    assert cuts and all(p["line"] == 9 and "a HASH object that cannot be copied" in p["reason"] and "(column " in p["reason"] for p in cuts), cuts
    assert all(p["inputs"]["n"] <= 0 for p in cuts)
    assert "not modelled, the paths that reach it cut there (the others explored): line 9: a HASH object" in out, out

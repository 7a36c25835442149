"""``--json`` gives every target an entry with its ``status`` and, when it stopped early, the
one-line reason: a named unsupported target wrote ``"\\n"``, a whole file of unsupported
targets ``[\\n\\n]``, and skipped targets were missing from a file's array."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pathloom.cli import main

SOURCE = """
def raw(x: int, *rest: int) -> object:
    return x + len(rest)


def fine(x: int) -> int:
    y = x + 1
    assert y != 4
    return y
"""


def test_a_named_unsupported_target_has_its_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "uns.py"
    program.write_text(SOURCE)
    out = tmp_path / "one.json"
    assert main(["explore", f"{program}::raw", "--json", str(out)]) == 2
    entry = json.loads(out.read_text())
    assert entry["status"] == "unsupported" and entry["paths"] == [] and not entry["complete"]
    assert entry["error"].endswith(
        "uns.py:2:18: unsupported: *rest parameter of the explored function (only the functions it calls may take *args and **kwargs)"
    )
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("uns.py:2:18: unsupported: *rest parameter of the explored function (only the functions it calls may take *args and **kwargs)")
    )


def test_a_file_lists_skipped_targets_beside_explored_ones(tmp_path: Path) -> None:
    program = tmp_path / "uns.py"
    program.write_text(SOURCE)
    out = tmp_path / "all.json"
    assert main(["check", str(program), "--json", str(out)]) == 1
    entries = {e["target"].rsplit("::", 1)[1]: e for e in json.loads(out.read_text())}
    assert entries["raw"]["status"] == "unsupported" and "*rest parameter" in entries["raw"]["error"]
    assert entries["fine"]["status"] == "complete" and [b["inputs"] for b in entries["fine"]["bugs"]] == [{"x": 3}]


def test_a_file_of_unsupported_targets_is_an_array_of_entries(tmp_path: Path) -> None:
    program = tmp_path / "uns.py"
    program.write_text(SOURCE.split("def fine")[0])
    out = tmp_path / "all.json"
    assert main(["explore", str(program), "--json", str(out)]) == 2
    [entry] = json.loads(out.read_text())
    assert entry["status"] == "unsupported"


def test_an_incomplete_target_says_so(tmp_path: Path) -> None:
    program = tmp_path / "loop.py"
    program.write_text("def spin(n: int) -> int:\n    i = 0\n    while i < n:\n        i += 1\n    return i\n")
    out = tmp_path / "loop.json"
    assert main(["explore", f"{program}::spin", "--json", str(out), "--max-iterations", "3", "--quiet"]) == 0
    entry = json.loads(out.read_text())
    assert entry["status"] == "incomplete" and "error" not in entry

"""Explore a target through the CLI with every reported input replayed in CPython."""

from __future__ import annotations

import json
from pathlib import Path

from pathloom.cli import main


def explore_verified(path: Path, target: str, engine: str, *options: str) -> dict[str, object]:
    """The JSON result of ``explore FILE::target --verify``; exit 3 (a replay mismatch) or 2
    (unsupported) fails the test."""
    out = path.parent / f"{target.replace('.', '_')}-{engine}.json"
    code = main(["explore", f"{path}::{target}", "--engine", engine, "--json", str(out), "--verify", "--quiet", *options])
    assert code in (0, 1), code
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def explore_source(tmp_path: Path, source: str, filename: str, target: str, engine: str, *options: str) -> dict[str, object]:
    """``explore_verified`` of ``target`` in ``source``, written to ``tmp_path / filename``."""
    path = tmp_path / filename
    path.write_text(source, encoding="utf-8")
    return explore_verified(path, target, engine, *options)


def copy_program(name: str, tmp_path: Path) -> Path:
    """A copy of ``tests/quality/programs/NAME`` in ``tmp_path`` (runs write beside it)."""
    copy = tmp_path / name
    copy.write_text((Path(__file__).parents[1] / "quality" / "programs" / name).read_text(encoding="utf-8"), encoding="utf-8")
    return copy

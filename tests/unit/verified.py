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


def python_outcome(source: str, target: str, inputs: dict[str, object]) -> object:
    """What CPython's ``target(**inputs)`` gives: its value, or the name of the exception it raises."""
    space: dict[str, object] = {}
    exec(source, space)
    try:
        return space[target](**inputs)  # type: ignore[operator]
    except Exception as exc:  # noqa: BLE001 - the outcome compared
        return type(exc).__name__


def refusal(path: Path, target: str, engine: str, capsys: object) -> str:
    """``FILE:LINE:COL: unsupported: <what>``: the one line ``explore FILE::target`` refuses it
    with (exit 2), or, for a statement of the explored code or an operation the semantics does
    not model at run time, where the paths that reach it are cut (kind ``unsupported``, reason
    ``unsupported: <what> (column COL)``), all at one place."""
    report = path.parent / f"{target}-{engine}-refusal.json"
    code = main(["explore", f"{path}::{target}", "--engine", engine, "--quiet", "--json", str(report)])
    err: str = capsys.readouterr().err  # type: ignore[attr-defined]
    if code != 2:
        assert code in (0, 1), (code, err)
        entry = json.loads(report.read_text(encoding="utf-8"))
        cuts = {(p["line"], p["reason"]) for p in entry["paths"] if p["outcome"] == "cut" and p["cut"] == "unsupported"}
        assert len(cuts) == 1, f"neither refused nor cut at one unmodelled statement: {entry['paths']}"
        line, reason = cuts.pop()
        what, _, column = reason.removeprefix("unsupported: ").rpartition(" (column ")
        return f"{path}:{line}:{column.rstrip(')')}: unsupported: {what}"
    lines = err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def unsupported_said(path: Path, target: str, capsys: object, *options: str, engine: str = "dse") -> str:
    """What ``explore`` says of an unsupported construct ``target`` meets: the refusal on stderr
    (exit 2: what concerns the function as a whole, or a shared object that could not be put
    back), else one ``LINE: reason`` per path cut with kind ``unsupported`` (the run-time form)."""
    report = path.parent / f"{target}-{engine}-said.json"
    code = main(["explore", f"{path}::{target}", "--engine", engine, "--quiet", "--json", str(report), *options])
    err: str = capsys.readouterr().err  # type: ignore[attr-defined]
    if code == 2:
        return err
    assert code in (0, 1), (code, err)
    entry = json.loads(report.read_text(encoding="utf-8"))
    return "\n".join(f"{p['line']}: {p['reason']}" for p in entry["paths"] if p["outcome"] == "cut" and p["cut"] == "unsupported")

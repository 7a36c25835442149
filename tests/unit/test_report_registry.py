"""Output formats plug in through ``report.registry``: one registration adds the flag to
``explore``/``check`` and the writer runs on every exploration, with no change to the command."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.report import registry
from pathloom.results import Exploration


def count_paths(explorations: list[Exploration], source_file: str, out_path: str) -> str:
    """A file format for the test: one line per target with its path count."""
    return "".join(f"{Path(e.target).name} {len(e.paths)}\n" for e in explorations)


def test_a_registered_file_format_gets_a_flag_and_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(registry, "_FORMATS", dict(registry._FORMATS))
    registry.register(registry.OutputFormat("counts", "--counts", "OUT.txt", "path counts", f"{__name__}:count_paths", streaming=False, keeps_paths=True))
    program = tmp_path / "prog.py"
    program.write_text("def f(x: int) -> int:\n    if x > 3:\n        return 1\n    return 0\n")
    out = tmp_path / "counts.txt"
    assert main(["explore", f"{program}::f", "--counts", str(out)]) == 0
    assert out.read_text() == "prog.py::f 2\n"
    assert main(["explore", f"{program}::f", "--counts", str(program)]) == 2  # never overwrites the source
    assert "--counts" in capsys.readouterr().err


def test_names_and_flags_are_unique() -> None:
    names = [f.name for f in registry.formats()]
    flags = [f.flag for f in registry.formats() if f.flag is not None]
    assert len(set(names)) == len(names) and len(set(flags)) == len(flags)
    assert [f.name for f in registry.formats() if f.flag is None] == ["text"]
    with pytest.raises(ValueError, match="registered twice"):
        registry.register(registry.OutputFormat("other", "--json", "X", "", "x:y", streaming=True))

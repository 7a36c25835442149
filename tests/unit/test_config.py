"""``[tool.pathloom]`` of the nearest pyproject.toml (issue 30, item 2): every command-line
option as a key, the command line wins, an unknown key or a wrong value is one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.command import build_parser
from pathloom.config import apply, nearest_pyproject, read_table
from pathloom.errors import UsageError


def _args(tmp_path: Path, table: str, *argv: str) -> object:
    (tmp_path / "pyproject.toml").write_text(f"[project]\nname = 'x'\n\n[tool.pathloom]\n{table}\n", encoding="utf-8")
    where = tmp_path / "pyproject.toml"
    return apply(build_parser(), list(argv), read_table(where), where)


def test_keys_are_the_options_and_the_command_line_wins(tmp_path: Path) -> None:
    table = 'max-iterations = 3\nmax_depth = 7\nengine = "multise"\nverify = true\ntimeout = 2.5\nexclude = ["legacy/*"]\nline = [4]'
    args = _args(tmp_path, table, "explore", "f.py")
    assert (args.max_iterations, args.max_depth, args.engine, args.verify, args.timeout, args.exclude) == (3, 7, "multise", True, 2.5, ["legacy/*"])  # type: ignore[attr-defined]
    args = _args(tmp_path, table, "explore", "f.py", "--max-iterations", "9", "--engine", "dse", "--exclude", "old.py")
    assert (args.max_iterations, args.engine, args.exclude) == (9, "dse", ["legacy/*", "old.py"])  # type: ignore[attr-defined]
    assert not hasattr(_args(tmp_path, table, "summaries", "list"), "max_iterations")  # another command's keys are left alone


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("max-iteration = 3", "unknown key 'max-iteration'"),
        ("max-iterations = 0", "max-iterations = 0: not a value of --max-iterations"),
        ('max-iterations = "many"', "not a value of --max-iterations"),
        ('verify = "yes"', "not a value of --verify"),
        ('heap = "mine"', "not a value of --heap"),
        ('exclude = "a"', "not a value of --exclude"),
        ("timeout = -1", "not a value of --timeout"),
    ],
)
def test_an_unknown_key_or_a_wrong_value_is_one_line(tmp_path: Path, table: str, message: str) -> None:
    with pytest.raises(UsageError, match=message) as raised:
        _args(tmp_path, table, "check", "f.py")
    assert str(tmp_path / "pyproject.toml") in str(raised.value) and "\n" not in str(raised.value)


def test_the_nearest_file_counts(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.pathloom]\nquiet = true\n", encoding="utf-8")
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    assert nearest_pyproject(inner) == tmp_path / "pyproject.toml"
    (tmp_path / "a" / "pyproject.toml").write_text("[project]\nname = 'a'\n", encoding="utf-8")
    assert nearest_pyproject(inner) == tmp_path / "a" / "pyproject.toml" and read_table(tmp_path / "a" / "pyproject.toml") == {}


def test_a_run_uses_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "m.py").write_text("def f(x: int) -> int:\n    if x > 2:\n        return 1\n    return 0\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.pathloom]\nquiet = true\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["explore", "m.py::f"]) == 0
    quiet = capsys.readouterr().out
    assert "2 paths, complete" in quiet and "path 1" not in quiet
    (tmp_path / "pyproject.toml").write_text("[tool.pathloom]\nquite = true\n", encoding="utf-8")
    assert main(["explore", "m.py::f"]) == 2
    assert "unknown key 'quite'" in capsys.readouterr().err

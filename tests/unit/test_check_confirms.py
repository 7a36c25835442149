"""``check`` replays the input of every bug it reports in CPython before reporting it: a bug
CPython contradicts is taken back and the run is an internal inconsistency (exit 3, with the
input); a bug CPython gives no answer for in time is reported, marked not confirmed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pathloom import replay
from pathloom.cli import main
from tests.unit.test_one_name_unpacking import SOURCE as ONE_NAME

SOURCE = ONE_NAME  # reach_it: its assert fails for x=8 at line 8


def test_a_confirmed_bug_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "p.py"
    program.write_text(SOURCE)
    out = tmp_path / "p.json"
    assert main(["check", f"{program}::reach_it", "--json", str(out)]) == 1
    assert [b["inputs"] for b in json.loads(out.read_text())["bugs"]] == [{"x": 8}]
    assert "not confirmed" not in capsys.readouterr().err


def test_a_bug_cpython_contradicts_is_taken_back(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    program = tmp_path / "p.py"
    program.write_text(SOURCE)
    out = tmp_path / "p.json"
    monkeypatch.setattr(replay, "replay", lambda file, target, inputs, *rest: [replay.Observed("return", returned=9)] * len(inputs))
    assert main(["check", f"{program}::reach_it", "--json", str(out)]) == 3
    assert json.loads(out.read_text())["bugs"] == []
    captured = capsys.readouterr()
    assert "0 bug(s)" in captured.out
    assert "bug not confirmed, taken back: predicted AssertionError at line 8, CPython returned 9 (inputs {'x': 8})" in captured.err


def test_a_bug_cpython_gives_no_answer_for_is_reported_unconfirmed(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    program = tmp_path / "p.py"
    program.write_text(SOURCE)
    monkeypatch.setattr(replay, "replay", lambda file, target, inputs, *rest: [replay.Observed("timeout", detail="no answer")] * len(inputs))
    assert main(["check", f"{program}::reach_it"]) == 1
    captured = capsys.readouterr()
    assert "1 bug(s)" in captured.out
    assert "the bug at line 8 is not confirmed: CPython gave no answer for its input within 5 s" in captured.err

"""What stops a run, and what the user is left with: exit codes, the text summary, a JSON file
that always parses, output files that never overwrite a source file, the default timeout.

Exit codes: 0 no bug, 1 a bug was reported (also when an unsupported construct stopped a
target later), 2 usage error or nothing analysable, 3 internal error, 130 interrupted. The CLI
runs in-process; what stops a run mid-way (an unsupported construct, a crash, Ctrl-C) is
injected into the results stream, so these tests do not depend on which constructs the
semantics happen to support.
"""

from __future__ import annotations

import builtins
import itertools
import json
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pathloom import command
from pathloom.api import Run
from pathloom.cli import main
from pathloom.errors import Unsupported
from pathloom.options import DEFAULT_TIMEOUT_S, Options
from pathloom.results import PathResult

# every path of ``a`` is a bug (ZeroDivisionError); ``b`` has none
TWO_TARGETS = textwrap.dedent("""\
    def a(x: int) -> int:
        y = x + 1
        if x > 3:
            return 10 // (x - x)
        return 10 // (y - y)


    def b(x: int) -> int:
        if x > 0:
            return 1
        return 0
    """)


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "prog.py"
    path.write_text(TWO_TARGETS, encoding="utf-8")
    return path


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def stop_after(paths: int, exc: BaseException, only: str | None = None) -> Callable[[Run], Iterator[PathResult]]:
    """A ``Run.results`` that yields the first ``paths`` results of target ``only`` (every
    target when None), then raises ``exc``."""
    original = Run.results

    def results(self: Run) -> Iterator[PathResult]:
        if only is not None and self.target != only:
            yield from original(self)
            return
        yield from itertools.islice(original(self), paths)  # never asks the engine for one more
        raise exc

    return results


def unsupported() -> Unsupported:
    return Unsupported("prog.py", 4, 16, "something new")


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# ---------------------------------------------------------------- a bug reported means exit 1


@pytest.mark.parametrize("command", ["check", "explore"])
def test_whole_file_exits_1_when_a_target_with_a_bug_is_then_stopped_by_an_unsupported_construct(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setattr(Run, "results", stop_after(1, unsupported(), only="a"))
    out_json = tmp_path / "out.json"
    code, out, err = run_cli(capsys, command, str(program), "--json", str(out_json))
    assert code == 1, (out, err)
    assert "ZeroDivisionError" in out and "1 bug(s)" in out
    assert err.splitlines() == ["prog.py:4:16: unsupported: something new (target a stopped; the paths found so far are reported)"]
    data = load_json(out_json)
    assert [d["target"] for d in data] == [f"{program}::a", f"{program}::b"]
    assert data[0]["complete"] is False and data[0]["error"] == "prog.py:4:16: unsupported: something new"
    assert [p["exception"] for p in data[0]["paths"]] == ["ZeroDivisionError"]
    assert data[1]["complete"] is True and "error" not in data[1]


def test_named_target_with_a_bug_then_unsupported_exits_1(program: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Run, "results", stop_after(1, unsupported()))
    code, out, err = run_cli(capsys, "check", f"{program}::a")
    assert code == 1
    assert err == "prog.py:4:16: unsupported: something new\n"
    assert "INCOMPLETE (prog.py:4:16: unsupported: something new); 1 bug(s)" in out


def test_unsupported_mid_run_without_a_bug_exits_2_with_valid_json(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Run, "results", stop_after(1, unsupported()))
    out_json = tmp_path / "out.json"
    code, _out, err = run_cli(capsys, "explore", f"{program}::b", "--json", str(out_json))
    assert (code, err) == (2, "prog.py:4:16: unsupported: something new\n")
    data = load_json(out_json)
    assert data["complete"] is False and data["error"] == "prog.py:4:16: unsupported: something new"
    assert len(data["paths"]) == 1 and data["stats"]["paths"] >= 1


@pytest.mark.parametrize("command", ["check", "explore"])
def test_whole_file_without_a_bug_exits_2_when_one_target_is_not_analysed(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """One skipped target of three is enough for 2 (issue 30: a CI job must not pass on a run
    that looked at part of the code); the others are still explored and reported."""
    source = tmp_path / "mixed.py"
    source.write_text("def f(x: int) -> int:\n    return x\n\n\ndef g(x: bytearray) -> int:\n    return 1\n\n\ndef h(x: int) -> int:\n    return -x\n")
    code, out, err = run_cli(capsys, command, str(source))
    assert code == 2 and "(target g skipped)" in err, (out, err)
    assert "mixed.py::f" in out and "mixed.py::h" in out


# ---------------------------------------------------------------- the JSON parses whatever stops the run


@pytest.mark.parametrize("crash", [RuntimeError("boom"), RecursionError("deep")], ids=["RuntimeError", "RecursionError"])
@pytest.mark.parametrize("whole_file", [False, True])
def test_internal_error_mid_run_leaves_valid_json(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, crash: Exception, whole_file: bool
) -> None:
    monkeypatch.setattr(Run, "results", stop_after(1, crash))
    out_json = tmp_path / "out.json"
    target = str(program) if whole_file else f"{program}::a"
    code, _out, err = run_cli(capsys, "explore", target, "--json", str(out_json))
    assert code == 3
    assert len(err.splitlines()) == 1 and "internal error" in err
    data = load_json(out_json)
    first = data[0] if whole_file else data
    assert first["complete"] is False and "internal error" in first["error"]
    assert len(first["paths"]) == 1
    if whole_file:
        assert len(data) == 1  # the run stops at the crash


@pytest.mark.parametrize("whole_file", [False, True])
def test_interrupt_mid_run_keeps_results_and_exits_130(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, whole_file: bool
) -> None:
    monkeypatch.setattr(Run, "results", stop_after(1, KeyboardInterrupt()))
    out_json = tmp_path / "out.json"
    target = str(program) if whole_file else f"{program}::a"
    code, out, err = run_cli(capsys, "explore", target, "--json", str(out_json))
    assert code == 130
    assert "INCOMPLETE (interrupted)" in out and "path 1" in out
    assert "interrupted" in err
    data = load_json(out_json)
    first = data[0] if whole_file else data
    assert first["complete"] is False and first["error"] == "interrupted"
    assert [p["exception"] for p in first["paths"]] == ["ZeroDivisionError"]
    if whole_file:
        assert len(data) == 1  # the later target is not started


@pytest.mark.parametrize("whole_file", [False, True])
def test_interrupt_while_loading_the_module(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, whole_file: bool
) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("pathloom.frontend.module.load_module", interrupted)
    out_json = tmp_path / "out.json"
    target = str(program) if whole_file else f"{program}::a"
    code, out, _err = run_cli(capsys, "check", target, "--json", str(out_json))
    assert code == 130
    assert out == f"{target}\n  not explored: interrupted\n"
    data = load_json(out_json)
    first = data[0] if whole_file else data
    assert first == {
        "target": target,
        "engine": "dse",
        "paths": [],
        "status": "interrupted",
        "complete": False,
        "stats": {},
        "bugs": [],
        "error": "interrupted",
    }


def test_interrupt_while_importing_the_engines(program: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def slow_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pathloom.api":
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", slow_import)
    code, out, err = run_cli(capsys, "explore", f"{program}::a")
    monkeypatch.undo()
    assert code == 130
    assert "interrupted" in out and "interrupted" in err


# ---------------------------------------------------------------- never overwrite a source file


@pytest.mark.parametrize("flag", ["--tests", "--json"])
def test_output_naming_the_analysed_file_is_refused(program: Path, capsys: pytest.CaptureFixture[str], flag: str) -> None:
    code, out, err = run_cli(capsys, "explore", f"{program}::b", flag, str(program))
    assert (code, out) == (2, "")
    assert err == f"{flag} {program}: would overwrite the analysed source file\n"
    assert program.read_text(encoding="utf-8") == TWO_TARGETS


@pytest.mark.parametrize("flag", ["--tests", "--json"])
@pytest.mark.parametrize("where", ["same-directory", "elsewhere", "through-a-symlink"])
def test_output_naming_another_python_source_is_refused(program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, where: str) -> None:
    folder = tmp_path if where == "same-directory" else tmp_path / "other"
    folder.mkdir(exist_ok=True)
    victim = folder / "helper.py"
    victim.write_text("def helper() -> int:\n    return 1\n", encoding="utf-8")
    named = victim
    if where == "through-a-symlink":
        named = tmp_path / "link.txt"
        named.symlink_to(victim)
    code, out, err = run_cli(capsys, "explore", f"{program}::b", flag, str(named))
    assert (code, out) == (2, "")
    assert err == f"{flag} {named}: would overwrite a Python source file that pathloom did not generate\n"
    assert victim.read_text(encoding="utf-8") == "def helper() -> int:\n    return 1\n"


def test_a_generated_test_file_is_overwritten(program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tests = tmp_path / "test_prog.py"
    assert run_cli(capsys, "explore", f"{program}::b", "--tests", str(tests))[0] == 0
    first = tests.read_text(encoding="utf-8")
    assert "def test_b_" in first
    assert run_cli(capsys, "explore", f"{program}::a", "--tests", str(tests))[0] == 1
    assert "def test_a_" in tests.read_text(encoding="utf-8") and "def test_b_" not in tests.read_text(encoding="utf-8")


def test_tests_and_json_naming_the_same_file_is_refused(program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.py"
    code, _out, err = run_cli(capsys, "explore", f"{program}::b", "--tests", str(out), "--json", str(out))
    assert code == 2 and err.startswith("--json and --tests name the same file")
    assert not out.exists()


# ---------------------------------------------------------------- the default timeout


SPIN = "def spin(x: int) -> int:\n    while True:\n        pass\n    return x\n"


def test_the_default_timeout_is_60_seconds_and_no_timeout_removes_it() -> None:
    assert DEFAULT_TIMEOUT_S == 60.0 and Options().timeout == DEFAULT_TIMEOUT_S
    parser = command.build_parser()
    assert command._options(parser.parse_args(["explore", "f.py"])).timeout == DEFAULT_TIMEOUT_S
    assert command._options(parser.parse_args(["explore", "f.py", "--timeout", "2.5"])).timeout == 2.5
    assert command._options(parser.parse_args(["check", "f.py", "--no-timeout"])).timeout is None


def test_timeout_and_no_timeout_together_is_a_usage_error(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_cli(capsys, "explore", f"{program}::b", "--timeout", "5", "--no-timeout")
    assert code == 2 and err == "usage error: --timeout and --no-timeout together\n"


def test_an_infinite_loop_ends_at_the_default_timeout_as_a_cut(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "spin.py"
    path.write_text(SPIN, encoding="utf-8")
    monkeypatch.setattr(command, "DEFAULT_TIMEOUT_S", 1.0)  # the real default is 60 s (test above)
    code, out, err = run_cli(capsys, "explore", f"{path}::spin")
    assert (code, err) == (0, "")
    assert "path 1   cut at line 2: timeout" in out and "INCOMPLETE" in out

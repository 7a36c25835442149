"""User errors on the command line: exactly one stderr line, exit code 2, never a traceback.

Product rules: exit codes for every command (``explore``, ``check``) are 0 no bug, 1 bug found,
2 usage error or unsupported program, 3 internal inconsistency. Every way a user can get the
command wrong (missing file, a directory, a file that is not Python, a syntax error, an unknown
target, a bad option value, an unknown flag) gives exactly one line on stderr and exit 2; a
syntax error is reported as ``file.py:LINE:COL: syntax error: ...``.

The CLI runs in-process through ``pathloom.cli.main`` (fast); a few cases go through the real
console script in a subprocess, to prove the exit code is the process's and nothing else is
printed.
"""

from __future__ import annotations

import builtins
import io
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main

COMMANDS = ("explore", "check")

OK_PROGRAM = textwrap.dedent("""\
    class Account:
        def __init__(self, balance: int) -> None:
            self.balance = balance

        def withdraw(self, amount: int) -> int:
            if amount > self.balance:
                return -1
            self.balance = self.balance - amount
            return self.balance


    def f(x: int) -> int:
        if x > 10:
            return 1
        return 0
    """)

BUG_PROGRAM = textwrap.dedent("""\
    def f(x: int) -> int:
        y = x + 1
        assert y != 43, "the answer"
        return x
    """)  # the assert does not open the body: it is no precondition, its failure is a bug


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    """The single stderr line (asserting there is exactly one and no traceback)."""
    assert "Traceback" not in err, err
    assert err.endswith("\n"), repr(err)
    lines = err.splitlines()
    assert len(lines) == 1, f"expected exactly one stderr line, got {len(lines)}: {err!r}"
    return lines[0]


def assert_usage_error(code: int, err: str) -> str:
    line = one_line(err)
    assert code == 2, f"exit code {code}, expected 2: {line!r}"
    assert "internal error" not in line, line
    return line


@pytest.fixture
def ok_file(tmp_path: Path) -> Path:
    path = tmp_path / "ok.py"
    path.write_text(OK_PROGRAM, encoding="utf-8")
    return path


# ---------------------------------------------------------------- the exit codes that are not errors


@pytest.mark.parametrize("command", COMMANDS)
def test_exit_code_0_without_a_bug_and_1_with_one(tmp_path: Path, ok_file: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    bug = tmp_path / "bug.py"
    bug.write_text(BUG_PROGRAM, encoding="utf-8")
    assert run_cli(capsys, command, f"{ok_file}::f")[::2] == (0, "")
    assert run_cli(capsys, command, f"{ok_file}::Account.withdraw")[::2] == (0, "")
    assert run_cli(capsys, command, str(ok_file))[::2] == (0, "")
    code, out, err = run_cli(capsys, command, f"{bug}::f")
    assert (code, err) == (1, "")
    assert "AssertionError" in out


# ---------------------------------------------------------------- the file


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


FILE_PROBLEMS = {
    # name -> (file name, content or None for "does not exist", target suffix)
    "missing-file": ("missing.py", None, ""),
    "missing-file-with-target": ("missing.py", None, "::f"),
    "binary-file": ("blob.py", bytes(range(256)) * 4, ""),
    "png-named-py": ("image.py", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10", "::f"),
    "latin-1-text": ("latin.py", 'def f(x: int) -> str:\n    return "caf\xe9"\n'.encode("latin-1"), ""),
    "nul-bytes": ("nul.py", b"def f(x: int) -> int:\n    return x\x00\n", "::f"),
    "empty-file": ("empty.py", b"", ""),
    "only-comments": ("comments.py", b"# nothing here\n\nX = 1\n", ""),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("problem", list(FILE_PROBLEMS))
def test_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], problem: str, command: str) -> None:
    name, data, suffix = FILE_PROBLEMS[problem]
    path = tmp_path / name if data is None else _write(tmp_path, name, data)
    code, _out, err = run_cli(capsys, command, f"{path}{suffix}")
    line = assert_usage_error(code, err)
    assert str(path) in line, f"the line should name the file: {line!r}"


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("suffix", ["", "::f"])
def test_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, suffix: str) -> None:
    directory = tmp_path / "pkg.py"  # a directory, even with a .py name
    directory.mkdir()
    code, _out, err = run_cli(capsys, command, f"{directory}{suffix}")
    assert str(directory) in assert_usage_error(code, err)


def _unreadable(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Opening ``path`` fails with EACCES, as for a mode-000 file of another user (the tests may
    run as root, for whom chmod does not prevent reading)."""
    real_open = io.open

    def guarded_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", guarded_open)
    monkeypatch.setattr(builtins, "open", guarded_open)


def test_unreadable_file(ok_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _unreadable(monkeypatch, ok_file)
    code, _out, err = run_cli(capsys, "check", str(ok_file))
    monkeypatch.undo()
    assert str(ok_file) in assert_usage_error(code, err)


def test_utf8_file_with_a_byte_order_mark_is_python(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "bom.py", b"\xef\xbb\xbf" + BUG_PROGRAM.encode("utf-8"))
    code, out, err = run_cli(capsys, "check", f"{path}::f")
    assert (code, err) == (1, "")
    assert "AssertionError" in out


SYNTAX_ERRORS = {
    "invalid-syntax": "def f(x: int) -> int:\n    y = 1\n    return x +\n",
    "unterminated-string": 'X = 1\n\ndef f(x: int) -> str:\n    return "abc\n',
    "unexpected-indent": "def f(x: int) -> int:\n    y = x\n        return y\n",
    "tabs-and-spaces": "def f(x: int) -> int:\n\tif x:\n        return 1\n\treturn 0\n",
    "never-closed": "def f(x: int) -> int:\n    return max(x,\n\n",
    "missing-colon": "\n\ndef f(x: int) -> int\n    return x\n",
    "assign-to-a-call": "def f(x: int) -> int:\n    f(x) = 3\n    return x\n",
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", list(SYNTAX_ERRORS))
def test_syntax_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, command: str) -> None:
    source = SYNTAX_ERRORS[kind]
    path = tmp_path / "broken.py"
    path.write_text(source, encoding="utf-8")
    with pytest.raises(SyntaxError) as python_says:
        compile(source, str(path), "exec")
    code, _out, err = run_cli(capsys, command, f"{path}::f")
    line = assert_usage_error(code, err)
    match = re.match(rf"^{re.escape(str(path))}:(\d+):(\d+): syntax error: .+$", line)
    assert match, f"not 'FILE:LINE:COL: syntax error: ...': {line!r}"
    assert int(match.group(1)) == python_says.value.lineno, line
    assert int(match.group(2)) >= 1


# ---------------------------------------------------------------- the target


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("target", "mentions"),
    [
        ("nope", "nope"),  # no such function
        ("Account.nope", "nope"),  # no such method of an existing class
        ("Nope.withdraw", "Nope"),  # no such class
        ("Account", "Account"),  # a class, not a function or method
        ("", None),  # FILE:: with no name
        ("f.inner", "f.inner"),  # a function has no methods
    ],
)
def test_target_not_found(ok_file: Path, capsys: pytest.CaptureFixture[str], command: str, target: str, mentions: str | None) -> None:
    code, _out, err = run_cli(capsys, command, f"{ok_file}::{target}")
    line = assert_usage_error(code, err)
    if mentions is not None:
        assert mentions in line, f"the line should name {mentions!r}: {line!r}"


# ---------------------------------------------------------------- options


BAD_OPTIONS = [
    (["--timeout", "-1"], "-1"),
    (["--timeout", "abc"], "abc"),
    (["--timeout", "0"], "--timeout"),
    (["--timeout"], "--timeout"),  # missing value
    (["--max-iterations", "0"], "--max-iterations"),
    (["--max-iterations", "-3"], "-3"),
    (["--max-iterations", "1.5"], "1.5"),
    (["--max-depth", "x"], "x"),
    (["--max-depth", "0"], "--max-depth"),
    (["--strategy", "nope"], "nope"),
    (["--engine", "nope"], "nope"),
    (["--frobnicate"], "--frobnicate"),
    (["--seed", "abc"], "abc"),
    (["--solver-timeout", "0"], "--solver-timeout"),
    (["--solver-timeout", "soon"], "soon"),
    (["--max-list-len", "-1"], "--max-list-len"),
    (["--max-str-len", "x"], "x"),
    (["--max-paths", "0"], "--max-paths"),
    (["extra-positional"], "extra-positional"),
]


def _option_id(params: tuple[list[str], str]) -> str:
    return " ".join(params[0])


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("options", "mentions"), BAD_OPTIONS, ids=[_option_id(p) for p in BAD_OPTIONS])
def test_bad_option(ok_file: Path, capsys: pytest.CaptureFixture[str], command: str, options: list[str], mentions: str) -> None:
    code, _out, err = run_cli(capsys, command, f"{ok_file}::f", *options)
    line = assert_usage_error(code, err)
    assert mentions in line, f"the line should name {mentions!r}: {line!r}"


@pytest.mark.parametrize(
    "argv",
    [["frobnicate"], ["check"], ["explore"], ["--timeout", "5"]],
    ids=["unknown-command", "check-without-target", "explore-without-target", "option-without-command"],
)
def test_bad_command_line_shape(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _out, err = run_cli(capsys, *argv)
    assert_usage_error(code, err)


@pytest.mark.parametrize("command", COMMANDS)
def test_nan_timeout_is_a_bad_option_value(ok_file: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, _out, err = run_cli(capsys, command, f"{ok_file}::f", "--timeout", "nan")
    assert "--timeout" in assert_usage_error(code, err)


@pytest.mark.parametrize("value", ["inf", "1e400"])
def test_infinite_timeout_is_not_an_internal_error(ok_file: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    code, _out, err = run_cli(capsys, "check", f"{ok_file}::f", "--timeout", value)
    # either "no timeout" (exit 0: f has no bug) or a usage error: never an internal error
    if code == 2:
        assert_usage_error(code, err)
    else:
        assert (code, err) == (0, "")


@pytest.mark.parametrize("option", ["--json", "--tests"])
@pytest.mark.parametrize("where", ["missing-directory", "is-a-directory"])
def test_unwritable_output_file(tmp_path: Path, ok_file: Path, capsys: pytest.CaptureFixture[str], option: str, where: str) -> None:
    output = tmp_path / "no" / "such" / "dir" / "out.x" if where == "missing-directory" else tmp_path
    code, _out, err = run_cli(capsys, "explore", f"{ok_file}::f", option, str(output))
    assert str(output) in assert_usage_error(code, err)


# ---------------------------------------------------------------- the real executable


def _pathloom_executable() -> Path:
    for candidate in (Path(sys.executable).parent / "pathloom", Path(__file__).resolve().parents[2] / ".venv" / "bin" / "pathloom"):
        if candidate.exists():
            return candidate
    pytest.skip("no pathloom console script next to the interpreter")


def _run_process(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(_pathloom_executable()), *argv], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("case", ["missing-file", "syntax-error", "negative-timeout", "unknown-strategy", "binary-file"])
def test_usage_errors_through_the_console_script(tmp_path: Path, ok_file: Path, case: str) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text(SYNTAX_ERRORS["invalid-syntax"], encoding="utf-8")
    blob = _write(tmp_path, "blob.py", bytes(range(256)))
    argv = {
        "missing-file": ["check", str(tmp_path / "missing.py")],
        "syntax-error": ["explore", f"{broken}::f"],
        "negative-timeout": ["check", f"{ok_file}::f", "--timeout", "-1"],
        "unknown-strategy": ["explore", str(ok_file), "--strategy", "nope"],
        "binary-file": ["check", str(blob)],
    }[case]
    proc = _run_process(*argv)
    assert_usage_error(proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stdout
    if case == "syntax-error":
        assert re.match(rf"^{re.escape(str(broken))}:3:\d+: syntax error: ", proc.stderr)


def test_exit_codes_through_the_console_script(tmp_path: Path, ok_file: Path) -> None:
    bug = tmp_path / "bug.py"
    bug.write_text(BUG_PROGRAM, encoding="utf-8")
    ok = _run_process("check", f"{ok_file}::f")
    assert (ok.returncode, ok.stderr) == (0, "")
    found = _run_process("check", f"{bug}::f")
    assert (found.returncode, found.stderr) == (1, "")
    assert "AssertionError" in found.stdout


def test_version_and_bare_help(capsys: pytest.CaptureFixture[str]) -> None:
    """``pathloom --version`` prints the installed version; a bare ``pathloom`` prints the help
    (exit 0), not a usage error."""
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out == f"pathloom {version('pathloom')}\n"
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: pathloom") and "explore" in out and "check" in out
    bare = _run_process()  # through the console script too
    assert bare.returncode == 0 and bare.stdout.startswith("usage: pathloom") and bare.stderr == ""

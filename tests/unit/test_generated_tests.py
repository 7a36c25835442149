"""Generated pytest files import the analysed module the way pytest would, and run anywhere.

A file inside a package is imported by its package path (so its relative imports work); any
other file from its path under a name unique to that path (two ``sol1.py`` of different folders
never collide; ``my-script.py`` and ``string.py`` work). The module's names are read as
attributes of the module object, so nothing pytest would collect (a module function named
``test_something``) lands in the generated file's namespace. Each case generates files in a
temporary directory and runs pytest on them; ``--verify`` replays a module with a relative
import.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _generate(capsys: pytest.CaptureFixture[str], target: str, tests: Path, *extra: str) -> str:
    tests.parent.mkdir(parents=True, exist_ok=True)
    code = main(["explore", target, "--tests", str(tests), *extra])
    out, err = capsys.readouterr()
    assert code in (0, 1) and "Traceback" not in err, (out, err)
    return tests.read_text(encoding="utf-8")


def _pytest(cwd: Path, *files: Path) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *map(str, files)], capture_output=True, text=True, cwd=cwd, timeout=300
    )
    return proc.returncode, proc.stdout + proc.stderr


def _passed(output: str) -> int:
    match = re.search(r"(\d+) passed", output)
    assert match and not re.search(r"\d+ (failed|errors?)", output), output
    return int(match.group(1))


NEGATIVE = """\
    def sign(x: int) -> int:
        if x > 0:
            return -1
        if x == 0:
            return 0
        return 12
    """


def test_a_package_module_with_a_relative_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "project"
    _write(project / "pkg" / "__init__.py", "")
    _write(project / "pkg" / "sub" / "__init__.py", "")
    _write(project / "pkg" / "sub" / "helper.py", "K = 3\n")
    module = _write(
        project / "pkg" / "sub" / "mod.py",
        """\
        from .helper import K


        def twice(x: int) -> int:
            if x > 10:
                return 2 * x
            return x
        """,
    )
    text = _generate(capsys, f"{module}::twice", project / "tests" / "test_mod.py")
    assert "'pkg.sub.mod'" in text
    code, output = _pytest(tmp_path, project / "tests" / "test_mod.py")
    assert code == 0 and _passed(output) == 2, output
    # the replay check imports it the same way (a relative import needs the package path)
    assert main(["explore", f"{module}::twice", "--verify"]) == 0
    assert "verified 2 input(s)" in capsys.readouterr().err


def test_two_files_with_the_same_name_in_one_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = _write(tmp_path / "a" / "sol1.py", "def answer(x: int) -> int:\n    return 1\n")
    second = _write(tmp_path / "b" / "sol1.py", "def answer(x: int) -> int:\n    return 2\n")
    _generate(capsys, f"{first}::answer", tmp_path / "out" / "test_a_sol1.py")
    _generate(capsys, f"{second}::answer", tmp_path / "out" / "test_b_sol1.py")
    code, output = _pytest(tmp_path, tmp_path / "out" / "test_a_sol1.py", tmp_path / "out" / "test_b_sol1.py")
    assert code == 0 and _passed(output) == 2, output


@pytest.mark.parametrize("name", ["my-script.py", "string.py", "3rd.py"])
def test_any_file_name(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    module = _write(tmp_path / "src" / name, NEGATIVE)
    tests = tmp_path / "test_generated.py"
    _generate(capsys, f"{module}::sign", tests)
    code, output = _pytest(tmp_path, tests)
    assert code == 0 and _passed(output) == 3, output


def test_module_names_pytest_would_collect_stay_out_of_the_test_namespace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = _write(
        tmp_path / "checks.py",
        """\
        class TestData:
            def __init__(self, size: int) -> None:
                self.size = size

            def grow(self, k: int) -> int:
                if k > 0:
                    return self.size + k
                return self.size


        def test_something(x: int) -> int:
            if x > 3:
                return 1
            return 0
        """,
    )
    tests = tmp_path / "test_checks.py"
    text = _generate(capsys, f"{module}::test_something", tests)
    _generate(capsys, f"{module}::TestData.grow", tmp_path / "test_checks_grow.py")
    assert not re.search(r"^(from|import) .*\b(test_something|TestData)\b", text, re.M), text
    code, output = _pytest(tmp_path, tests, tmp_path / "test_checks_grow.py")
    assert code == 0 and _passed(output) == 4, output  # 2 + 2 generated tests, nothing else


def test_a_negative_result_is_named_minus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = _write(tmp_path / "signs.py", NEGATIVE)
    text = _generate(capsys, f"{module}::sign", tmp_path / "test_signs.py", "--all-paths")  # (not one parametrized test)
    names = re.findall(r"^def (test_\w+)\(", text, re.M)
    assert sorted(n.split("_returns_")[1] for n in names) == ["0", "12", "minus_1"], names


def test_a_user_exception_and_a_receiver_are_read_from_the_module(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = _write(
        tmp_path / "bank.py",
        """\
        class Overdrawn(Exception):
            pass


        class Account:
            def __init__(self, balance: int) -> None:
                self.balance = balance

            def withdraw(self, amount: int) -> int:
                if amount > self.balance:
                    raise Overdrawn("no")
                self.balance -= amount
                return self.balance
        """,
    )
    tests = tmp_path / "test_bank.py"
    text = _generate(capsys, f"{module}::Account.withdraw", tests)
    assert "pytest.raises(_module.Overdrawn)" in text and "_module.Account(balance=" in text
    code, output = _pytest(tmp_path, tests)
    assert code == 0 and _passed(output) == 2, output


@pytest.mark.parametrize("bug_form", ["xfail", "raises"])
def test_an_exception_class_of_another_module_is_checked_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str], bug_form: str) -> None:
    """re's ``error``, raised by the code, is no name of the analysed module: the real-code
    run's ``match_symbol`` wrote ``raises=_module.error``, an AttributeError in the test."""
    module = _write(
        tmp_path / "patterns.py",
        """\
        import re


        def count(pattern: str) -> int:
            if pattern == "(":
                return len(re.findall(pattern, "abc"))
            return 0
        """,
    )
    tests = tmp_path / "test_patterns.py"
    text = _generate(capsys, f"{module}::count", tests, *(["--raises-for-bugs"] if bug_form == "raises" else []))
    assert "_module.error" not in text
    if bug_form == "raises":
        assert "pytest.raises(Exception) as raised" in text and "assert type(raised.value).__name__ == 'error'" in text
    else:
        assert "raises=Exception" in text and "class error of another module" in text
    code, output = _pytest(tmp_path, tests)
    assert code == 0 and " failed" not in output and " error" not in output, output


def test_a_cut_path_gets_a_test_of_what_cpython_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``x.encode()`` runs in CPython on a few pinned values and the rest of the inputs is a
    cut path (more values than ``--max-concretizations``); a loop past ``--max-iterations`` is
    cut too. Their inputs still get tests, of what CPython did on them, which pass and say so."""
    module = _write(
        tmp_path / "cuts.py",
        """
        def size(s: str) -> int:
            return len(s.encode("utf-8"))


        def steps(n: int) -> int:
            k = 0
            while n > 1:
                n = n // 2
                k += 1
            if k > 5:
                raise ValueError("deep")
            return k
        """,
    )
    text = _generate(capsys, str(module), tmp_path / "test_cuts.py", "--max-concretizations", "1", "--max-iterations", "3", "--all-paths")
    observed = re.findall(
        r"def (test_\w+_observed_\w+)\(\):\n    # what CPython does: pathloom's exploration of this path was cut at line (\d+) \((.+)\)", text
    )
    assert {name.split("_observed_")[0] for name, _, _ in observed} == {"test_size", "test_steps"}, text
    assert any("more values than --max-concretizations" in why for _, _, why in observed), observed
    assert any("max-iterations" in why for _, _, why in observed), observed
    assert _passed(_pytest(tmp_path, tmp_path / "test_cuts.py")[1]) >= len(observed) + 2

"""``global`` names: a module-level name some function rebinds lives in a heap cell that every
path starts from the module's value (``Module.global_cell``), read and written by every
function of the module; the replay and the generated tests set it back before each call.
Every exploration is replayed in CPython."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main

from .verified import explore_source, refusal, unsupported_said
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    count = 0
    limit = 3
    label = "n"
    items = []


    def bump(n: int) -> int:
        global count
        count += n
        if count > limit:
            count = 0
            return -1
        return count


    def twice(n: int) -> int:
        a = bump(n)
        b = bump(n)
        assert a != b or n == 0
        return a + b + count


    def reads_only(n: int) -> int:
        return count + n


    def unpacked(n: int) -> int:
        global count, label
        count, label = n, label + "!"
        return count * len(label)


    def loop_binds(n: int) -> int:
        global count
        for count in range(n):
            pass
        return count


    def inner_reads(n: int) -> int:
        global count
        count = n

        def inner() -> int:
            return count + 1

        return inner()


    def segmentations(text: str, words: list[str]) -> int:
        global count
        if len(text) == 0:
            return count
        for i in range(1, len(text) + 1):
            if text[:i] in words:
                count += 1
                segmentations(text[i:], words)
        return count


    def rebinds_list(n: int) -> int:
        global items
        items = [n]
        return len(items)


    def never_bound(n: int) -> int:
        global missing
        missing = n
        return n
""")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["bump", "twice", "reads_only", "unpacked", "loop_binds", "inner_reads", "segmentations"])
def test_global_names_are_symbolic_and_replay(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "counter.py", target, engine, "--max-list-len", "2", "--max-str-len", "3")
    assert not result["stats"]["concretizations"]  # type: ignore[index]
    assert result["globals"] == {"count": 0, "label": "n"}
    if target not in ("segmentations", "loop_binds"):  # recursion and loop are cut by bounds
        assert result["complete"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_write_is_seen_by_later_reads_on_the_path(tmp_path: Path, engine: str) -> None:
    """``twice`` fails its assert exactly when the first ``bump`` already reset ``count``
    (n > 3) and returns the reset's -1 plus the second bump's count when 2 <= n <= 3."""
    result = explore_source(tmp_path, SOURCE, "counter.py", "twice", engine)
    paths = result["paths"]
    raised = [p["inputs"]["n"] for p in paths if p["outcome"] == "raise"]  # type: ignore[index]
    assert raised and all(n > 3 for n in raised)
    returned = {p["inputs"]["n"]: p["returned"] for p in paths if p["outcome"] == "return"}  # type: ignore[index]
    assert any(2 <= n <= 3 and r == 2 * n - 3 for n, r in returned.items()), returned


def test_generated_tests_start_every_test_from_the_module_values(tmp_path: Path) -> None:
    source = tmp_path / "counter.py"
    source.write_text(SOURCE, encoding="utf-8")
    tests = tmp_path / "test_counter.py"
    assert main(["explore", f"{source}::twice", "--tests", str(tests), "--quiet", "--all-paths"]) == 1
    text = tests.read_text(encoding="utf-8")
    assert "_module.count = 0" in text and "_module.label = 'n'" in text
    assert text.count("def test_") >= 3  # later tests would see the earlier ones' count without the fixture
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(("target", "line", "name"), [("rebinds_list", 63, "items"), ("never_bound", 69, "missing")])
def test_a_global_not_bound_to_a_literal_is_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str, line: int, name: str) -> None:
    source = tmp_path / "counter.py"
    source.write_text(SOURCE, encoding="utf-8")
    said = refusal(source, target, "dse", capsys)
    assert f"counter.py:{line}:5: unsupported: global {name!r}, which the module does not bind to a literal constant" in said


def test_a_function_run_in_cpython_that_rebinds_a_global_is_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "helper.py").write_text("hits = 0\n\n\ndef hit(n: int) -> int:\n    global hits\n    hits += n\n    return hits\n", encoding="utf-8")
    source = tmp_path / "user.py"
    source.write_text("from helper import hit\n\n\ndef f(n: int) -> int:\n    return hit(n)\n", encoding="utf-8")
    said = unsupported_said(source, "f", capsys)
    assert "unsupported: an operation run in CPython rebound the module-level name 'hits' of module helper" in said

"""The CrossHair column of ``benchmarks/navigation.py``: the contracted copy of the programs
and the replay of CrossHair's counterexample calls (CrossHair itself is not needed here)."""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

BENCHMARKS = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks")
sys.path.insert(0, BENCHMARKS)

import navigation  # noqa: E402


def test_leading_asserts_become_preconditions_and_every_function_gets_a_postcondition(tmp_path: Path) -> None:
    navigation.contracted_copy(str(tmp_path))
    tree = ast.parse((tmp_path / "nav_subjects.py").read_text())
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert {name for _, name, _ in navigation.BENCHMARKS} <= set(functions)
    fig1 = ast.get_docstring(functions["fig1"]) or ""
    assert fig1.splitlines() == ["pre: len(A) == 15 and len(B) == 15", "post: True"]
    assert not any(isinstance(node, ast.Assert) for node in functions["fig1"].body)
    assert (ast.get_docstring(functions["one_loop"]) or "").splitlines() == ["post: True"]


def test_a_counterexample_call_counts_only_when_it_raises_the_programs_error(tmp_path: Path) -> None:
    folder = str(tmp_path)
    assert navigation._replays(folder, "fig1", "fig1([1] * 13 + [0, 0], [2] * 10 + [0] * 5)") is False  # not literals
    assert navigation._replays(folder, "fig1", f"fig1({[1] * 13 + [0, 0]}, {[2] * 10 + [0] * 5})")
    assert not navigation._replays(folder, "fig1", f"fig1({[0] * 15}, {[0] * 15})")  # returns
    assert not navigation._replays(folder, "fig1", "fig1([1], [2])")  # its precondition fails: AssertionError
    assert navigation._replays(folder, "hello", "hello('xHello')")
    assert not navigation._replays(folder, "one_loop", "one_loop(n=15)")

"""Generator functions (``frontend.lower``): a generator is lowered to collect its items in a
hidden list that every ``return`` returns, which is ``list(f(...))`` exactly. A generator
target's outcome is that of ``list(f(...))`` (the replay and the generated tests consume it so);
a call of a generator function inside the code is modelled where its items are consumed
whole (``list``/``tuple``/``sorted`` of the call, ``yield from``), item by item in a loop over a
call of a top-level generator function (``test_generator_inlining``), and unsupported elsewhere.
Every exploration is replayed in CPython."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main

from .verified import explore_source, unsupported_said
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    from typing import Iterator


    def evens(n: int) -> Iterator[int]:
        i = 0
        while i < n:
            if i % 2 == 0:
                yield i
            i += 1


    def checked(xs: list[int]) -> Iterator[int]:
        for x in xs:
            if x < 0:
                raise ValueError("negative")
            yield x
            yield from [x, x + 1]
        return 5  # dropped by list(): the items are the outcome


    def chained(n: int) -> Iterator[int]:
        yield from evens(n)
        got = yield -1
        yield got


    def total(n: int) -> int:
        return sum(list(evens(n))) + len(tuple(evens(n))) + sorted(evens(n), reverse=True)[0]


    def josephus(items: list[int], skip: int) -> Iterator[int]:
        skip = skip - 1
        index = 0
        remaining = len(items)
        while remaining > 0:
            index = (skip + index) % remaining
            yield items.pop(index)
            remaining -= 1


    class Pair:
        def __init__(self, a: int, b: int) -> None:
            self.a = a
            self.b = b

        def __iter__(self) -> Iterator[int]:
            yield self.a
            if self.b > 0:
                yield self.b


    def looped(n: int) -> int:
        t = 0
        for x in evens(n):
            t += x
        return t
""")

OPTIONS = ("--max-iterations", "4", "--max-list-len", "3")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["evens", "checked", "chained", "total", "josephus", "Pair.__iter__"])
def test_generators_are_symbolic_and_replay(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "gens.py", target, engine, *OPTIONS)
    assert not result["stats"]["concretizations"]  # type: ignore[index]
    assert result["paths"]


def test_a_generator_target_returns_its_items_and_raises_where_cpython_does(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "gens.py", "checked", "dse", *OPTIONS)
    outcomes = {(tuple(p["inputs"]["xs"]), p["outcome"]) for p in result["paths"]}  # type: ignore[index, union-attr]
    returned = [p for p in result["paths"] if p["outcome"] == "return"]  # type: ignore[union-attr]
    assert all(p["returned"] == [v for x in p["inputs"]["xs"] for v in (x, x, x + 1)] for p in returned), returned  # type: ignore[index]
    assert any(outcome == "raise" for _, outcome in outcomes) and result["complete"]
    chained = explore_source(tmp_path, SOURCE, "gens.py", "chained", "dse", *OPTIONS)
    assert {tuple(p["returned"]) for p in chained["paths"] if p["outcome"] == "return"} >= {(-1, None), (0, -1, None)}  # type: ignore[union-attr, index]


@pytest.mark.parametrize("engine", engine_names())
def test_a_generator_method_consumed_item_by_item_is_unsupported_not_guessed(tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``for x in pair.__iter__()`` interleaves the loop body with a generator method, which is
    not inlined (``frontend.lowering.generators`` inlines top-level generator functions only):
    collecting the items first could change which of two exceptions comes first, so it is
    unsupported (its paths cut there). ``looped`` (a top-level generator) is modelled item by item."""
    path = tmp_path / "gens.py"
    path.write_text(SOURCE + METHOD_LOOP, encoding="utf-8")
    assert "unsupported: " in unsupported_said(path, "method_looped", capsys, engine=engine)
    assert main(["explore", f"{path}::looped", "--engine", engine, "--quiet", "--verify", *OPTIONS]) == 0


METHOD_LOOP = """

def method_looped(a: int, b: int) -> int:
    t = 0
    for x in Pair(a, b).__iter__():
        t += x
    return t
"""


def test_generated_tests_consume_a_generator_with_list(tmp_path: Path) -> None:
    path = tmp_path / "gens.py"
    path.write_text(SOURCE, encoding="utf-8")
    out = tmp_path / "test_gens_generated.py"
    assert main(["explore", f"{path}::checked", "--tests", str(out), "--quiet", *OPTIONS]) == 0  # an explicit raise is no bug
    text = out.read_text()
    assert "list(_module.checked(xs=" in text and "pytest.raises(ValueError)" in text
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0 and " passed" in run.stdout and "failed" not in run.stdout, run.stdout


STOP_SOURCE = textwrap.dedent("""
    from typing import Iterator


    def firsts(xs: list[int]) -> Iterator[int]:
        it = iter(xs)
        yield next(it)
        yield 5


    def caught(xs: list[int]) -> Iterator[int]:
        it = iter(xs)
        try:
            yield next(it)
        except StopIteration:
            yield -1


    def consume(xs: list[int]) -> list[int]:
        return list(firsts(xs))
""")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["firsts", "caught", "consume"])
def test_stop_iteration_leaving_a_generator_is_a_runtime_error(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, STOP_SOURCE, "stops.py", target, engine)
    raised = {(p["exception"], p["message"]) for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr]
    expected = set() if target == "caught" else {("RuntimeError", "generator raised StopIteration")}
    assert raised == expected
    if target == "caught":
        assert [-1] in [p["returned"] for p in result["paths"]]  # type: ignore[union-attr]

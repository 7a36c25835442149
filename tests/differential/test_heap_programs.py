"""Differential test of input objects: random programs with class-typed parameters
(``progen_heap``: ``Node``, ``Optional[Node]``, ``Pair``, aliasing and cycles) through both
engines under the three heap models against CPython, and the harness's own object-graph
machinery (inputs, their validation, the CPython oracle, planted bugs).

``PATHLOOM_HEAP_EXAMPLES`` overrides the number of random programs (default 30: a CI-sized
run; the fuzzer runs many more: ``python -m tests.differential.fuzz --objects``).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

warnings.filterwarnings("ignore", message="There is no reason to use @st.composite")

from pathloom.results import Exploration

from . import harness
from .harness import (
    ENGINES,
    HEAPS,
    OPEN_BUG_FEATURES,
    check_program,
    configurations,
    sample_strategy,
)
from .oracle import run_in_cpython
from .progen import GeneratedProgram, inputs_for, programs
from .progen_heap import graph_problem, object_schema

EXAMPLES = int(os.environ.get("PATHLOOM_HEAP_EXAMPLES", "30"))
SAMPLES = 10

NODE = (
    "from typing import Optional\n"
    "\n"
    "\n"
    "class Node:\n"
    '    def __init__(self, val: int, next: Optional["Node"] = None) -> None:\n'
    "        self.val = val\n"
    "        self.next = next\n"
    "\n"
    "\n"
)


def _with_node(body: str, *params: tuple[str, str]) -> GeneratedProgram:
    """The class Node, then ``body`` (the entry ``f`` with ``params``)."""
    return GeneratedProgram(NODE + body, "f", params)


_ALIAS = _with_node(
    "def f(a: Node, b: Node) -> int:\n    a.val = 1\n    b.val = 2\n    if a.next is a:\n        return a.next.next.val\n    return a.val\n",
    ("a", "Node"),
    ("b", "Node"),
)
_SHARED = {"a": {"$object": "Node", "$id": 1, "fields": {"val": 0, "next": {"$ref": 1}}}, "b": {"$ref": 1}}
_DISTINCT = {
    "a": {"$object": "Node", "$id": 1, "fields": {"val": 0, "next": None}},
    "b": {"$object": "Node", "$id": 2, "fields": {"val": 0, "next": None}},
}


def test_random_object_programs_agree_with_cpython_under_every_heap_model() -> None:
    seen: set[str] = set()
    checked: list[int] = []

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data: st.DataObject) -> None:
        program = data.draw(programs(heap=True, edges=False, without=frozenset(OPEN_BUG_FEATURES)), label="program")
        if program.source in seen:
            data.draw(sample_strategy(program, harness.base_options(), SAMPLES))
            return
        seen.add(program.source)
        report = check_program(program, ENGINES, SAMPLES, draw=data.draw)
        assert report.engines == tuple(f"{e}/{h}" for e in ENGINES for h in HEAPS)
        assert report.ok, report.describe()
        checked.append(sum(report.checks_by[c, "replay"] for c in report.engines))

    check()
    assert len(checked) >= EXAMPLES // 3 and sum(checked) > 0  # distinct programs, inputs replayed


def test_configurations_expand_heap_models_only_for_object_inputs() -> None:
    assert configurations(_ALIAS, ENGINES) == tuple(f"{e}/{h}" for e in ENGINES for h in HEAPS)
    assert configurations(_ALIAS, ("dse",), ("lazy",)) == ("dse/lazy",)
    assert configurations(_ALIAS, ("multise/pose",)) == ("multise/pose",)  # a regression's labels
    plain = GeneratedProgram("def f(x: int) -> int:\n    return x\n", "f", (("x", "int"),))
    assert configurations(plain, ENGINES) == ENGINES


def test_oracle_rebuilds_shared_and_cyclic_inputs() -> None:
    shared = run_in_cpython(_ALIAS, _SHARED)
    assert (shared.outcome, shared.returned) == ("return", 2)  # b is a, and a.next is a
    distinct = run_in_cpython(_ALIAS, _DISTINCT)
    assert (distinct.outcome, distinct.returned) == ("return", 1)
    returns_node = replace(_ALIAS, source=_ALIAS.source.replace("return a.val", "return a"))
    obs = run_in_cpython(returns_node, _DISTINCT)
    assert obs.returned == {"$object": "Node", "$id": 1, "fields": {"val": 1, "next": None}}
    none = run_in_cpython(replace(_ALIAS, params=(("a", "Optional[Node]"), ("b", "Node"))), {"a": None, "b": _DISTINCT["b"]})
    assert (none.exception, none.detail) == ("AttributeError", "'NoneType' object has no attribute 'val'")
    assert not harness.ill_formed(none)  # a real bug of the program, not a generator bug


def test_graph_problem_names_what_is_wrong() -> None:
    schema = object_schema(_ALIAS.source)
    assert schema == {"Node": (("val", "int"), ("next", "Optional[Node]"))}
    params = _ALIAS.params
    assert graph_problem(params, schema, _SHARED) is None
    assert "before its object" in str(graph_problem(params, schema, {"a": {"$ref": 1}, "b": _SHARED["a"]}))
    assert "is None" in str(graph_problem(params, schema, {"a": None, "b": _SHARED["a"]}))
    bad_field = {"a": {"$object": "Node", "$id": 1, "fields": {"val": True, "next": None}}, "b": {"$ref": 1}}
    assert "not an int" in str(graph_problem(params, schema, bad_field))
    twice = {"a": _DISTINCT["a"], "b": _DISTINCT["a"]}  # the same $id defined twice
    assert "not a new Node" in str(graph_problem(params, schema, twice))


@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_sampled_object_inputs_are_valid_graphs_with_aliasing(data: st.DataObject) -> None:
    program = data.draw(programs(heap=True, edges=False))
    inputs = data.draw(inputs_for(program, max_list_len=2))
    assert list(inputs) == [name for name, _ in program.params]
    assert graph_problem(program.params, object_schema(program.source), inputs) is None
    assert harness._input_problem(program, inputs, harness.base_options(max_list_len=2)) is None


def test_sampled_inputs_include_aliases_cycles_and_none() -> None:
    found: set[str] = set()
    program = replace(_ALIAS, params=(("a", "Node"), ("b", "Optional[Node]")))

    @settings(max_examples=200, deadline=None, derandomize=True, database=None)
    @given(inputs_for(program))
    def collect(inputs: dict[str, Any]) -> None:
        if inputs["b"] is None:
            found.add("none")
        elif "$ref" in inputs["b"]:
            found.add("alias")
        if inputs["a"]["fields"]["next"] == {"$ref": 1}:
            found.add("self-loop")

    collect()
    assert found == {"none", "alias", "self-loop"}


# --------------------------------------------------------------------------------------
# planted bugs: the harness must report them for object inputs and every heap model


def _failures(monkeypatch: pytest.MonkeyPatch, transform) -> set[str]:  # type: ignore[no-untyped-def]
    real = harness.explore

    def planted(module, target, options):  # type: ignore[no-untyped-def]
        exploration = real(module, target, options)
        transform(exploration, options)
        return exploration

    monkeypatch.setattr(harness, "explore", planted)
    report = check_program(_ALIAS, samples=10, extra_inputs=[_SHARED, _DISTINCT])
    return {f.signature for f in report.failures}


def test_harness_passes_the_object_plant(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _failures(monkeypatch, lambda e, o: None) == set()


def test_harness_catches_a_wrong_value_under_one_heap_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def bump(e: Exploration, options: Any) -> None:
        if options.heap == "lazier" and e.engine == "multise":
            e.paths = [replace(p, returned=p.returned + 1) if p.outcome == "return" else p for p in e.paths]

    found = _failures(monkeypatch, bump)
    assert "multise/lazier:replay:return-value" in found
    assert all("multise/lazier" in s for s in found), found  # its replay, its agreement with dse/pose


def test_harness_catches_a_heap_model_missing_the_alias(monkeypatch: pytest.MonkeyPatch) -> None:
    def drop(e: Exploration, options: Any) -> None:
        if options.heap == "lazy" and e.engine == "dse":
            e.paths = [p for p in e.paths if p.outcome != "raise" and p.returned != 2]

    found = _failures(monkeypatch, drop)
    assert "dse/lazy:partition:none-holds" in found
    assert "dse/pose+dse/lazy:agree:outcomes-differ" in found or "dse/pose+dse/lazy:agree:no-path" in found


def test_harness_catches_a_wrong_none_message(monkeypatch: pytest.MonkeyPatch) -> None:
    program = _with_node("def f(a: Node) -> int:\n    return a.next.val\n", ("a", "Node"))

    def rename(e: Exploration, options: Any) -> None:
        e.paths = [replace(p, message="'NoneType' object has no attribute 'next'") if p.exception == "AttributeError" else p for p in e.paths]

    real = harness.explore

    def planted(module, target, options):  # type: ignore[no-untyped-def]
        exploration = real(module, target, options)
        rename(exploration, options)
        return exploration

    assert check_program(program, ("dse",), samples=5, heaps=("pose",)).ok
    monkeypatch.setattr(harness, "explore", planted)
    report = check_program(program, ("dse",), samples=5, heaps=("pose",))
    assert {f.signature for f in report.failures} == {"dse/pose:replay:raise-message"}

"""Input objects (semantics.input_heap): aliasing, cycles and None found with replayed inputs, in both
engines and under the three heap models; POSE forks one trace per program path.

Every exploration runs with --verify: each reported input is rebuilt as an object graph
(shared and cyclic) and replayed in CPython (tests/unit/verified.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.verified import copy_program, explore_verified
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())
HEAPS = ("pose", "lazier", "lazy")


@pytest.fixture
def program(tmp_path: Path) -> Path:
    return copy_program("heap_nodes.py", tmp_path)


def _bugs(result: dict) -> list[dict]:  # type: ignore[type-arg]
    return [p for p in result["paths"] if p.get("kind") in ("assert", "implicit") and p["outcome"] == "raise"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("heap", HEAPS)
def test_aliasing_bug_found(program: Path, engine: str, heap: str) -> None:
    result = explore_verified(program, "alias_bug", engine, "--heap", heap)
    bugs = _bugs(result)
    assert len(bugs) == 1 and bugs[0]["exception"] == "AssertionError"
    a, b = bugs[0]["inputs"]["a"], bugs[0]["inputs"]["b"]
    assert b == {"$ref": a["$id"]}  # the counterexample: b is a
    assert result["complete"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("heap", HEAPS)
def test_cycle_found(program: Path, engine: str, heap: str) -> None:
    result = explore_verified(program, "self_loop", engine, "--heap", heap, "--no-preconditions")
    bugs = _bugs(result)
    assert len(bugs) == 1
    n = bugs[0]["inputs"]["n"]
    assert n["fields"]["next"] == {"$ref": n["$id"]}  # n.next is n


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("heap", HEAPS)
def test_assert_over_three_aliased_nodes_is_proved(program: Path, engine: str, heap: str) -> None:
    result = explore_verified(program, "three_writes", engine, "--heap", heap)
    assert result["complete"] and not _bugs(result)
    assert {p["returned"] for p in result["paths"]} <= {6, 7, 8, 9}  # 1+2+3 distinct ... 3+3+3 one node


@pytest.mark.parametrize("engine", ENGINES)
def test_none_dereference_is_a_bug_with_cpythons_message(program: Path, engine: str) -> None:
    result = explore_verified(program, "second_val", engine)
    bugs = _bugs(result)
    assert [b["message"] for b in bugs] == ["'NoneType' object has no attribute 'val'"]
    assert bugs[0]["inputs"]["n"]["fields"]["next"] is None


@pytest.mark.parametrize("engine", ENGINES)
def test_write_through_alias_is_seen_by_the_other_reference(program: Path, engine: str) -> None:
    result = explore_verified(program, "relink", engine)
    assert result["complete"] and not _bugs(result)  # b.next is the node written through a, when b is a


@pytest.mark.parametrize("engine", ENGINES)
def test_returned_input_objects_replay(program: Path, engine: str) -> None:
    result = explore_verified(program, "last", engine, "--max-iterations", "2")
    assert all(p["returned"]["$object"] == "Node" for p in result["paths"] if p["outcome"] == "return")
    result = explore_verified(program, "push", engine)
    (path,) = result["paths"]
    assert path["returned"]["$object"] == "Node"


@pytest.mark.parametrize("target,traces", [("swap", 2), ("sum3", 1), ("has_null", 6)])
def test_pose_forks_one_trace_per_program_path(program: Path, target: str, traces: int) -> None:
    result = explore_verified(program, target, "dse", "--heap", "pose")
    stats = result["stats"]
    assert result["complete"]
    assert stats["traces"] == stats["program_paths"] == traces


def test_lazy_models_fork_more_traces_on_the_same_program_paths(program: Path) -> None:
    counts = {}
    for heap in HEAPS:
        result = explore_verified(program, "has_null", "dse", "--heap", heap)
        assert result["complete"]
        counts[heap] = (result["stats"]["traces"], result["stats"]["program_paths"])
    # the paper's hasNull with max 4: lazy 21, lazier# 16, path-optimal 6 traces
    assert counts == {"pose": (6, 6), "lazier": (16, 6), "lazy": (21, 6)}


def test_max_objects_cut_is_reported(program: Path) -> None:
    result = explore_verified(program, "has_null", "dse", "--heap", "lazy", "--max-objects", "2")
    assert not result["complete"]
    assert any(p["outcome"] == "cut" and "max-objects" in p["reason"] for p in result["paths"])


def test_class_with_an_untyped_field_is_unsupported_with_its_line(tmp_path: Path) -> None:
    source = tmp_path / "untyped.py"
    source.write_text("class Box:\n    def __init__(self, items):\n        self.items = items\n\ndef f(b: Box) -> int:\n    return 1\n")
    run = subprocess.run([sys.executable, "-m", "pathloom", "explore", f"{source}::f"], capture_output=True, text=True)
    assert run.returncode == 2
    assert f"{source}:3:9: unsupported: input object of class Box: attribute 'items' has no type" in run.stderr


def test_generated_tests_build_shared_and_cyclic_graphs(program: Path, tmp_path: Path) -> None:
    from pathloom.cli import main

    out = tmp_path / "test_generated_heap.py"
    for target in ("alias_bug", "self_loop", "three_writes"):
        target_out = tmp_path / f"test_generated_{target}.py"
        assert main(["explore", f"{program}::{target}", "--tests", str(target_out), "--quiet", "--no-preconditions"]) in (0, 1)
        text = target_out.read_text()
        if target == "self_loop":  # a cycle: made without __init__, then its fields set
            assert "object.__new__(_module.Node)" in text
        else:  # Node's __init__ sets exactly its fields: built by calling it, a shared one once
            assert "object.__new__" not in text and "= _module.Node(" in text
    out.write_text("")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "passed" in run.stdout and " failed" not in run.stdout


def test_json_inputs_are_object_graphs(program: Path, tmp_path: Path) -> None:
    from pathloom.cli import main

    out = tmp_path / "cycle.json"
    main(["check", f"{program}::self_loop", "--json", str(out), "--quiet", "--no-preconditions"])
    data = json.loads(out.read_text())
    node = data["paths"][0]["inputs"]["n"] if "paths" in data else data["targets"][0]["paths"][0]["inputs"]["n"]
    assert set(node) == {"$object", "$id", "fields"} and list(node["fields"]) == ["val", "next"]


def test_compare_heaps_side_by_side(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pathloom.cli import main

    assert main(["compare", f"{program}::has_null", "--heaps", "lazy,lazier,pose"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.strip().startswith("dse/") and " vs " not in line}
    assert rows["dse/lazy"][1:4] == ["21", "21", "6"] and rows["dse/pose"][1:4] == ["6", "6", "6"]
    assert out.count("outcomes agree") == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_list_of_input_objects_may_share_items(program: Path, engine: str) -> None:
    result = explore_verified(program, "shared_in_list", engine, "--max-list-len", "2")
    assert result["complete"] and 5 in {p["returned"] for p in result["paths"]}
    result = explore_verified(program, "optional_items", engine, "--max-list-len", "2")
    assert result["complete"]
    items = [x for p in result["paths"] for x in p["inputs"]["nodes"]]
    assert None in items and any(isinstance(x, dict) for x in items)


def test_class_imported_from_another_project_module(tmp_path: Path) -> None:
    """``from nodes import Tree``: the imported project class is analysed (its methods from
    its own module), so a ``Tree | None`` parameter is an input object."""
    (tmp_path / "nodes.py").write_text(
        "from __future__ import annotations\n"
        "\n"
        "\n"
        "class Tree:\n"
        "    def __init__(self, key: int, left: Tree | None = None, right: Tree | None = None) -> None:\n"
        "        self.key = key\n"
        "        self.left = left\n"
        "        self.right = right\n"
        "\n"
        "    def leaf(self) -> bool:\n"
        "        return self.left is None and self.right is None\n"
    )
    target = tmp_path / "use_tree.py"
    target.write_text(
        "from __future__ import annotations\n"
        "\n"
        "from nodes import Tree\n"
        "\n"
        "\n"
        "def depth2(t: Tree | None) -> int:\n"
        "    if t is None:\n"
        "        return 0\n"
        "    if t.leaf():\n"
        "        return 1\n"
        "    assert t.left is not t\n"
        "    return 2\n"
    )
    for engine in ENGINES:
        result = explore_verified(target, "depth2", engine, "--no-preconditions")
        assert result["complete"]
        outcomes = {str(p["exception"] if p["outcome"] == "raise" else p["returned"]) for p in result["paths"]}
        assert outcomes == {"0", "1", "2", "AssertionError"}, outcomes


@pytest.mark.parametrize("engine", ENGINES)
def test_len_of_an_optional_input_object_with_len(program: Path, engine: str) -> None:
    """len(None) is CPython's TypeError; a non-None object's __len__ runs with its checks."""
    result = explore_verified(program, "sized_len", engine)
    assert result["complete"]
    assert {p["exception"] for p in result["paths"] if p["outcome"] == "raise"} == {"TypeError", "ValueError", "OverflowError"}


def test_input_object_passed_to_cpython_is_one_clear_line(program: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "pathloom", "explore", f"{program}::node_plus"], capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    said = [line for line in run.stdout.splitlines() if line.startswith("  not modelled, the paths that reach it cut there")]
    assert len(said) == 1 and "unsupported" not in run.stderr, run.stdout
    assert "passing an input object (Node) to an operation run in CPython" in said[0]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("receiver", ["constructor", "object"])
def test_method_targets_take_input_objects(program: Path, engine: str, receiver: str) -> None:
    """The partner may be the account itself (aliasing through self) under both receivers;
    with --receiver object, self is an input object (no constructor precondition)."""
    result = explore_verified(program, "Account.transfer", engine, "--receiver", receiver)
    assert result["complete"]
    bugs = _bugs(result)
    assert len(bugs) == 1 and bugs[0]["exception"] == "AssertionError"
    self_input = bugs[0]["inputs"]["self"]
    assert ("$object" in self_input) == (receiver == "object")


def test_generated_tests_for_method_targets_build_their_objects(program: Path, tmp_path: Path) -> None:
    from pathloom.cli import main

    for receiver in ("constructor", "object"):
        out = tmp_path / f"test_tree_{receiver}.py"
        main(["explore", f"{program}::Tree.size", "--receiver", receiver, "--max-depth", "3", "--tests", str(out), "--quiet"])
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0 and " failed" not in run.stdout, run.stdout


def test_calling_an_input_object_raises_cpythons_type_errors(program: Path) -> None:
    result = explore_verified(program, "call_node", "dse")
    assert sorted(p["message"] for p in result["paths"]) == ["'Node' object is not callable", "'NoneType' object is not callable"]


@pytest.mark.parametrize("engine", ENGINES)
def test_type_getattr_hasattr_of_input_objects(program: Path, engine: str) -> None:
    result = explore_verified(program, "reflect", engine)
    assert result["complete"] and 7 in {p["returned"] for p in result["paths"]}  # None: getattr's default


def test_heap_axioms_are_congruence_and_field_domains() -> None:
    """A model naming two access paths of one object must give them the same fields: the
    axioms MultiSE adds when a merged result's model is not one input heap."""
    from pathloom.heap.input_objects import heap_axioms
    from pathloom.frontend.fields import Field
    from pathloom.terms.evaluate import evaluate

    fields = (Field("val", "int", 0, 0), Field("next", ("object", "Node", True), 0, 0))
    axioms = heap_axioms(["a", "b", "a.next", "b.next", "a.next.val", "b.val"], [("a", "Node", False), ("b", "Node", False)], lambda cls: fields, 4)

    def consistent(model: dict[str, object]) -> bool:
        return all(evaluate(x, model) is True for x in axioms)

    # a.next is b, so a.next.val is b.val; a is b, so a.next is b.next
    assert consistent({"a": 1, "b": 2, "a.next": 2, "b.next": 0, "a.next.val": 5, "b.val": 5})
    assert not consistent({"a": 1, "b": 2, "a.next": 2, "b.next": 0, "a.next.val": 5, "b.val": 6})
    assert not consistent({"a": 1, "b": 1, "a.next": 2, "b.next": 0, "a.next.val": 5, "b.val": 5})
    assert not consistent({"a": 1, "b": 2, "a.next": -3, "b.next": 0, "a.next.val": 5, "b.val": 5})


def test_a_path_through_none_still_names_its_location() -> None:
    """POSE reads a field through every location an ite-reference may hold, so a model may
    name ``a.next.next`` although ``a.next`` is None: a detached path whose location is a real
    object's (here ``b.next``). The value read through it is that object's field, so the
    decoded input must show it (merge_two_list of the real-code run: the predicted result had
    a cycle the reported input lacked)."""
    from pathloom.heap.input_objects import ObjectGraph
    from pathloom.frontend.fields import Field

    fields = (Field("val", "int", 0, 0), Field("next", ("object", "Node", True), 0, 0))
    model = {"a": 1, "a.val": 7, "a.next": 0, "a.next.next": 3, "a.next.next.next": 1, "b": 2, "b.next": 3, "b.next.val": 4}
    graph = ObjectGraph(lambda cls: fields, model, [("a", "Node", False), ("b", "Node", False)])
    a, b = graph.value("a", "Node", False), graph.value("b", "Node", False)
    assert a == {"$object": "Node", "$id": 1, "fields": {"val": 7, "next": None}}
    third = b["fields"]["next"]
    assert third["fields"] == {"val": 4, "next": {"$ref": 1}}  # read through a.next.next: it is a


def test_an_unknown_answer_for_an_input_heap_model_is_an_unknown_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """When MultiSE must solve a merged result again for a model that is one input heap and the
    solver gives up, the result is an ``unknown`` path and the run incomplete (a fuzzing run
    under load crashed there)."""
    from pathloom.api import explore_source
    from pathloom.engines.multise import MultiSEEngine
    from pathloom.options import Options

    solve = MultiSEEngine._solve

    def give_up_with_axioms(self: MultiSEEngine, guard: object, extra: object = ()) -> tuple[str, dict]:  # type: ignore[type-arg]
        return ("unknown", {}) if extra else solve(self, guard, extra)  # type: ignore[arg-type]

    monkeypatch.setattr(MultiSEEngine, "_solve", give_up_with_axioms)
    source = (Path(__file__).parents[1] / "differential" / "regressions" / "multise_pose_replay_return_value_37fcd34c.py").read_text()
    exploration = explore_source(source, "f", Options(engine="multise", heap="lazier"))
    unknown = [p for p in exploration.paths if p.outcome == "unknown"]
    assert unknown and not exploration.complete
    assert all("one input heap" in (p.reason or "") for p in unknown)


def test_a_time_limit_passed_inside_a_multise_step_cuts_that_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """MultiSE checked its time limit only between steps, and one step splitting on heap cells
    of hundreds of values (lazy initialization's decisions) ran for minutes (a fuzzed program:
    47 s under --timeout 20). The limit is now checked before each split of a step: passed
    there, the step's entry is a cut path (``timeout``) and nothing of it is committed. Here the
    limit is made to pass when a step meets a cell to split on, so that step is cut."""
    from pathloom.api import explore_source
    from pathloom.engines.multise import MultiSEEngine
    from pathloom.options import Options

    from pathloom.engines.multise.state import _StepTimeout
    from pathloom.engines.multise.heap import CellReader, NeedSplit

    step, value = MultiSEEngine._step, CellReader.value
    cut_inside: list[int] = []

    def late_step(self: MultiSEEngine, *args: object) -> None:
        try:
            step(self, *args)  # type: ignore[arg-type]
        except _StepTimeout:
            cut_inside.append(self.instructions)
            raise

    def splitting_late(self: CellReader, key: object) -> object:
        try:
            return value(self, key)  # type: ignore[arg-type]
        except NeedSplit:
            self.engine.deadline = -1.0  # type: ignore[attr-defined]  (the time limit passes as the step splits)
            raise

    monkeypatch.setattr(MultiSEEngine, "_step", late_step)
    monkeypatch.setattr(CellReader, "value", splitting_late)
    source = (Path(__file__).parents[1] / "differential" / "regressions" / "multise_lazy_replay_return_value_47129864.py").read_text()
    exploration = explore_source(source, "f", Options(engine="multise", heap="lazy", timeout=600))
    cuts = [p for p in exploration.paths if p.outcome == "cut"]
    assert not exploration.complete and cuts and all(p.reason == "timeout" for p in cuts)
    assert len(cut_inside) == 1  # a step was cut from inside, and the run stopped there


CREATED_UNDER_AN_ALIAS = """
from typing import Optional


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next


def f(m: Optional[Node], a: Node) -> int:
    a.next = Node(5)
    if m is not None:
        m.next = Node(6)
    w = a.next
    if w is not None:
        w = w.next
    return 0 if w is None else w.val
"""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("heap", HEAPS)
def test_a_field_that_is_one_of_two_created_objects_is_read_through(tmp_path: Path, engine: str, heap: str) -> None:
    """Found by the heap fuzzer (seed 7474): ``a.next`` is the Node(6) written through ``m`` if
    ``m is a``, else the Node(5): an ite of two objects the code created, which became a
    reference of no class (an internal KeyError on the next read). Their class is read from
    their records now."""
    from tests.unit.verified import explore_source

    result = explore_source(tmp_path, CREATED_UNDER_AN_ALIAS, "created.py", "f", engine, "--heap", heap)
    assert result["complete"] and {p["returned"] for p in result["paths"]} == {0}  # type: ignore[union-attr, index]


PROPERTY_READS = """
class Node:
    def __init__(self, v: int) -> None:
        self.v = v

    @property
    def half(self) -> int:
        if self.v < 0:
            raise AttributeError("no half")
        return self.v // 2


def with_default(n: Node) -> int:
    return getattr(n, "half", -1)


def has(n: Node) -> bool:
    return hasattr(n, "half")
"""


@pytest.mark.parametrize("target", ["with_default", "has"])
def test_getattr_default_and_hasattr_through_a_property_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    """CPython swallows an AttributeError the property raises (-1, False): the property runs as
    a call the engine performs, which cannot swallow it, so the read is refused (it used to
    predict the AttributeError, and hasattr the property's value)."""
    from tests.unit.verified import refusal

    path = tmp_path / "m.py"
    path.write_text(PROPERTY_READS, encoding="utf-8")
    name = "hasattr" if target == "has" else "getattr"
    line = 18 if target == "has" else 14
    for engine in ENGINES:
        assert refusal(path, target, engine, capsys).endswith(
            f"m.py:{line}:12: unsupported: {name}() of attribute 'half' of an input object through a property"
        )

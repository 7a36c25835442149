"""The compose engine: substitution, memoization trees, which functions are summarized, and
composition against DSE (same outcomes, coverage and predictions; every input replays)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from pathloom.api import explore
from pathloom.compare import agree
from pathloom.engines.compose.purity import call_graph
from pathloom.engines.compose.tree import (
    MemoLeaf,
    MemoTree,
    count_nodes,
    tree_from_json,
    tree_to_json,
)
from pathloom.frontend.module import load_module
from pathloom.options import Options
from tests.unit.verified import unsupported_said
from pathloom.replay import verify
from pathloom.results import Exploration
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from pathloom.terms.substitute import OffDomain, substitute, substitute_conjuncts

X, Y = T.sym("x", T.INT), T.sym("y", T.INT)
A, B = T.sym("a", T.INT), T.sym("b", T.INT)
S = T.sym("s", T.STR)


# ---------------------------------------------------------------- substitution


def test_substitution_folds_concrete_arguments() -> None:
    cond = T.and_(T.lt(X, Y), T.eq(T.mod(X, 3), 1))
    assert substitute(cond, {"x": 4, "y": 9}) is True
    assert substitute(cond, {"x": 5, "y": 9}) is False
    assert substitute(cond, {"x": 4}) is T.lt(4, Y)


def test_substitution_agrees_with_evaluation() -> None:
    terms = [
        T.add(T.mul(X, 3), T.neg(Y)),
        T.ite(T.le(X, Y), T.floordiv(X, 7), T.sub(Y, X)),
        T.or_(T.not_(T.eq(X, 2)), T.lt(Y, T.mod(X, 5))),
        T.eq(T.str_len(T.concat(S, "ab")), T.add(X, 2)),
    ]
    images = {"x": T.add(A, B), "y": T.sub(A, 1), "s": T.concat("z", S)}
    for term, a, b, s in itertools.product(terms, range(-3, 4), range(-2, 3), ["", "q"]):
        env = {"a": a, "b": b, "s": s}
        moved = {"x": evaluate(images["x"], env), "y": evaluate(images["y"], env), "s": evaluate(images["s"], env)}
        assert evaluate(substitute(term, images), env) == evaluate(term, moved)


def test_substitution_refuses_to_fold_off_domain() -> None:
    with pytest.raises(OffDomain):
        substitute(T.floordiv(X, Y), {"y": 0})
    guarded = [T.not_(T.eq(Y, 0)), T.lt(T.floordiv(X, Y), 3)]
    assert substitute_conjuncts(guarded, {"y": 0}) is False  # the guard folds first
    assert substitute_conjuncts(guarded, {"y": 2, "x": 1}) is True


def test_substitution_keeps_sorts() -> None:
    with pytest.raises(TypeError):
        substitute(T.lt(X, 3), {"x": "text"})


# ---------------------------------------------------------------- trees


def test_tree_survives_json_and_counts_its_nodes() -> None:
    leaf1 = MemoLeaf((T.lt(X, 3),), "return", None, {"x": 0}, 1, (("p", 0, True),), (("p", 0, True),))
    leaf2 = MemoLeaf(
        (T.not_(T.lt(X, 3)), T.eq(S, "a")), "raise", "ValueError", {"x": 3, "s": "a"}, 2, (("p", 0, False), ("g", 1, True)), (("p", 0, False), ("@", "g", 0))
    )
    tree = MemoTree("p", (("x", T.INT), ("s", T.STR)), (leaf1, leaf2))
    import json

    again = tree_from_json(json.loads(json.dumps(tree_to_json(tree))))
    assert again == tree
    assert tree.nodes(compressed=False) == 4  # root, p0T, p0F, p0F/g1T
    assert count_nodes([(), ()]) == 1
    with pytest.raises(ValueError):
        tree_from_json({"leaves": [{"conjuncts": []}]})


def test_count_nodes_is_the_number_of_distinct_prefixes_in_linear_memory() -> None:
    """The trie count equals the number of distinct non-empty prefixes plus the root, and a
    path of 200,000 choices (a long loop) is counted without holding every prefix (the
    quadratic set of prefixes ran a fuzzing run out of memory: 23 GB)."""
    import random

    rng = random.Random(7)
    for _ in range(50):
        traces = [tuple(("f", rng.randrange(3), rng.random() < 0.5) for _ in range(rng.randrange(6))) for _ in range(rng.randrange(8))]
        prefixes = {t[:i] for t in traces for i in range(1, len(t) + 1)}
        assert count_nodes(traces) == 1 + len(prefixes)
    long = tuple(("f", i % 7, i % 2 == 0) for i in range(200_000))
    assert count_nodes([long, long[:100_000], long[:-1] + (("f", 0, "other"),)]) == 200_002


# ---------------------------------------------------------------- which functions


PURITY = """
LIMIT = 10
TABLE = [1, 2]


def leaf(a: int, b: int) -> int:
    if a > LIMIT:
        return a
    return b


def no_branch(a: int) -> int:
    return a + 1


def reads_table(a: int) -> int:
    if a > 0:
        return TABLE[0]
    return 0


def calls_impure(a: int) -> int:
    if a > 0:
        return reads_table(a)
    return 1


def mid(a: int, s: str) -> int:
    if len(s) > a:
        return leaf(a, 2)
    return no_branch(a)


def takes_list(xs: list[int]) -> int:
    if xs:
        return 1
    return 0


def takes_rows(xs: list[list[int]]) -> int:
    if xs:
        return 1
    return 0


def rec(n: int) -> int:
    if n <= 0:
        return 0
    return rec(n - 1) + mid(n, "ab")


def top(x: int, xs: list[int]) -> int:
    return mid(x, "a") + calls_impure(x) + takes_list(xs) + takes_rows([xs]) + rec(x)
"""


def test_summarizable_functions_bottom_up(tmp_path: Path) -> None:
    path = tmp_path / "purity.py"
    path.write_text(PURITY)
    graph = call_graph(load_module(str(path)), "top")
    assert set(graph.reachable) == {"top", "mid", "leaf", "no_branch", "calls_impure", "reads_table", "takes_list", "takes_rows", "rec"}
    assert set(graph.bottom_up) == {"leaf", "mid", "rec", "takes_list"}  # a list of scalars is a formal; a list of lists is not
    assert graph.bottom_up.index("leaf") < graph.bottom_up.index("mid") < graph.bottom_up.index("rec")


# ---------------------------------------------------------------- composition against DSE


def _both(tmp_path: Path, source: str, target: str, **options: object) -> tuple[Exploration, Exploration, Path]:
    path = tmp_path / "program.py"
    path.write_text(source)
    dse = explore(str(path), target, Options(engine="dse", **options))  # type: ignore[arg-type]
    composed = explore(str(path), target, Options(engine="compose", **options))  # type: ignore[arg-type]
    assert agree(dse, composed) == []
    assert composed.complete == dse.complete
    assert verify(composed, str(path), target) == []
    assert {(p.outcome, p.exception, p.line, p.reason) for p in composed.paths if p.outcome != "return"} == {
        (p.outcome, p.exception, p.line, p.reason) for p in dse.paths if p.outcome != "return"
    }
    assert composed.stats["replay_divergences"] == 0
    assert composed.stats["replay_fallbacks"] == 0
    return dse, composed, path


PAPER = """
def p(x: int, y: int) -> int:
    if x > y:
        x = 3 * x
    else:
        y = 5 * y
    if x + y > 10:
        return x
    return y


def q(a: int, b: int) -> int:
    if a > b:
        return p(a + 1, b)
    return p(b, a)
"""


def test_paper_example_is_replayed_from_p_s_tree(tmp_path: Path) -> None:
    dse, composed, _ = _both(tmp_path, PAPER, "q")
    stats = composed.stats
    assert stats["summarized"] == ["p"]
    assert stats["sub_method_invocations"] == len(composed.paths) == len(dse.paths)
    assert stats["compressed_tree_nodes"] < stats["tree_nodes"]
    assert stats["init_solver_calls"] + stats["composition_solver_calls"] == stats["solver_calls"]
    assert stats["branches_covered"] == dse.stats["branches_covered"] == 6


BAND = """
def band(v: int, w: int) -> int:
    if v < 0:
        return 0
    if v < w:
        return 1
    if v < 2 * w:
        return 2
    return 3
"""

REPEATED = (
    BAND
    + """


def main(a: int, b: int) -> int:
    total = 0
    for i in range(10):
        total += band(a, b)
    return total
"""
)


def test_repeated_calls_are_refuted_without_the_solver(tmp_path: Path) -> None:
    dse, composed, _ = _both(tmp_path, REPEATED, "main")
    stats = composed.stats
    assert stats["leaves_refuted_without_solver"] > 0
    assert stats["sub_method_invocations"] == 10 * len(composed.paths)
    assert stats["solver_calls"] * 3 < dse.stats["solver_calls"]


FRESH = """
def sign(v: int) -> int:
    if v > 0:
        return 1
    if v < 0:
        return -1
    return 0


def main(a: int, b: int, c: int) -> int:
    return sign(a) * 9 + sign(b) * 3 + sign(c)
"""


def test_witnesses_answer_calls_on_fresh_inputs(tmp_path: Path) -> None:
    dse, composed, _ = _both(tmp_path, FRESH, "main")
    stats = composed.stats
    assert len(composed.paths) == 27
    assert stats["witness_hits"] > 0
    assert stats["composition_solver_calls"] == 0  # every leaf check answered by a witness or the model
    assert dse.stats["solver_calls"] > 0


CUTS = """
def count(a: int, b: int) -> int:
    t = 0
    while a > b:
        a -= 1
        t += 1
    return t


def deep(n: int) -> int:
    if n <= 0:
        return 0
    return deep(n - 1) + 1


def main(x: int, y: int) -> int:
    if x > 100:
        return count(x, x - 3)
    return count(x, y) + deep(y)
"""


def test_cut_leaves_are_executed_in_context(tmp_path: Path) -> None:
    dse, composed, _ = _both(tmp_path, CUTS, "main", max_iterations=4, max_depth=6, timeout=60)
    stats = composed.stats
    assert not composed.complete
    assert stats["region_executions"] > 0
    assert stats["sub_method_invocations"] > 0
    cuts = sorted((p.reason, p.line) for p in composed.paths if p.outcome == "cut")
    assert cuts == sorted((p.reason, p.line) for p in dse.paths if p.outcome == "cut")  # one region: DSE's very cuts


EXCEPTIONS = """
def risky(a: int, b: int) -> int:
    if a == b:
        raise ValueError("same")
    if a > b:
        return 100 // (a - b - 1)
    return a - b


def main(x: int, y: int) -> int:
    try:
        r = risky(x, y) + risky(y, 3)
    except ValueError:
        return -1
    if r > 5:
        return r
    return risky(r, 0)
"""


def test_exceptions_leave_replayed_callees_as_in_dse(tmp_path: Path) -> None:
    _, composed, _ = _both(tmp_path, EXCEPTIONS, "main")
    assert any(p.exception == "ZeroDivisionError" for p in composed.paths)
    assert composed.stats["sub_method_invocations"] > 0


MISFIT = """
def pick(a: int, b: int) -> int:
    if a > b:
        return a
    return b


def main(x: int, flag: bool) -> int:
    return pick(flag, x) + pick(x, b=2)
"""


def test_arguments_that_do_not_fit_the_tree_run_inline(tmp_path: Path) -> None:
    _, composed, _ = _both(tmp_path, MISFIT, "main")
    assert composed.stats["inline_calls"] == 1  # pick(flag, x): a bool where the tree has an int
    assert composed.stats["sub_method_invocations"] > 0  # pick(x, b=2): the keyword is bound first


STRINGS = """
def kind(s: str, n: int) -> int:
    if len(s) > n:
        if s[n] == "a":
            return 1
        return 2
    return 0


def main(w: str, k: int) -> int:
    return kind(w, 0) + kind(w + "a", k) + kind("ab", k)
"""


def test_string_arguments_and_concrete_calls(tmp_path: Path) -> None:
    _, composed, _ = _both(tmp_path, STRINGS, "main")
    assert composed.stats["summarized"] == ["kind"]
    assert composed.stats["sub_method_invocations"] > 0


def test_max_paths_and_timeouts_stay_bounded(tmp_path: Path) -> None:
    path = tmp_path / "program.py"
    path.write_text(REPEATED)
    composed = explore(str(path), "main", Options(engine="compose", max_paths=2))
    assert len([p for p in composed.paths if p.outcome == "return"]) == 2
    assert not composed.complete


def test_compare_prints_table_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pathloom.cli import main

    path = tmp_path / "paper.py"
    path.write_text(PAPER)
    assert main(["compare", f"{path}::q", "--engines", "dse,compose", "--no-store"]) == 0
    out = capsys.readouterr().out
    assert "outcomes agree" in out
    assert "compose: solver calls init 3 + composition" in out
    assert "sub-method invocations 6" in out and "trees 1 built / 0 from the store" in out


TARGET = """
def withdraw(balance: int, amount: int) -> int:
    if amount <= 0:
        raise ValueError("not positive")
    left = balance - amount
    if left < 10:
        assert left != 7, "seeded"
    return left


def main(start: int, a: int, b: int) -> int:
    return withdraw(withdraw(start, a), b)
"""


def test_target_heuristics(tmp_path: Path) -> None:
    path = tmp_path / "target.py"
    path.write_text(TARGET)
    plain = explore(str(path), "main", Options(engine="compose"))
    h1 = explore(str(path), "main", Options(engine="compose", target_heuristic="h1"))
    h2 = explore(str(path), "main", Options(engine="compose", target_heuristic="h2"))
    assert agree(plain, h1) == [] and h1.complete
    assert verify(h1, str(path), "main") == [] and verify(h2, str(path), "main") == []
    first = next(p for p in h1.paths if p.outcome in ("return", "raise"))
    assert first.is_bug  # H1: a callee's error path first
    assert [b.line for b in h2.distinct_bugs] == [b.line for b in plain.distinct_bugs] == [7]
    assert not h2.complete and h2.stats["pruned_leaves"] > 0
    assert all(p.reason.startswith("pruned by --target-heuristic h2") for p in h2.paths if p.outcome == "cut")
    with pytest.raises(Exception, match="needs --engine compose"):
        explore(str(path), "main", Options(engine="dse", target_heuristic="h1"))


def test_check_command_takes_a_target_heuristic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pathloom.cli import main

    path = tmp_path / "target.py"
    path.write_text(TARGET)
    assert main(["check", f"{path}::main", "--engine", "compose", "--target-heuristic", "h2", "--no-store"]) == 1
    assert "seeded" in capsys.readouterr().out
    assert main(["check", f"{path}::main", "--target-heuristic", "h1", "--no-store"]) == 2


def test_the_target_benchmark_list_agrees_with_dse_and_heuristics_find_its_seeded_error(tmp_path: Path) -> None:
    """benchmarks/compose_subjects/linked_list.py::shrinking: repOk after each removal."""
    source = (Path(__file__).resolve().parents[2] / "benchmarks" / "compose_subjects" / "linked_list.py").read_text()
    dse, composed, path = _both(tmp_path, source, "shrinking")
    seeded = {b.line for b in dse.distinct_bugs}
    assert len(seeded) == 1 and {b.line for b in composed.distinct_bugs} == seeded
    for heuristic in ("h1", "h2"):
        run = explore(str(path), "shrinking", Options(engine="compose", target_heuristic=heuristic))
        assert {b.line for b in run.distinct_bugs} == seeded
        assert verify(run, str(path), "shrinking") == []


LISTS = """
def count_above(xs: list[int], t: int) -> int:
    n = 0
    for x in xs:
        if x > t:
            n += 1
    return n


def second_big(xs: list[int]) -> int:
    if len(xs) > 1 and xs[1] > 10:
        return xs[1]
    return -1


def same(xs: list[int], ys: list[int]) -> int:
    if len(xs) == len(ys):
        return 1
    return 0


def bump(xs: list[int]) -> int:
    if xs:
        xs[0] += 1
    return len(xs)


def main(xs: list[int], a: int) -> int:
    total = 0
    for k in range(3):
        total += count_above(xs, a + k)
    if second_big(xs) > 0:
        total += 100
    total += count_above([a, a + 1], 3)  # a list the caller built
    total += count_above([a, a, a, a, a], 0)  # more items than --max-list-len: inline
    total += count_above([True, False], 0)  # bools are not int items: inline
    total += same(xs, xs) + same(xs, [a])  # the same list twice: inline
    return total + bump(xs) + bump(xs)
"""


def test_list_arguments_are_summarized_and_replayed(tmp_path: Path) -> None:
    dse, composed, _ = _both(tmp_path, LISTS, "main", max_list_len=3, max_iterations=6)
    assert composed.complete and len(dse.paths) == len(composed.paths) > 10
    stats = composed.stats
    assert {"count_above", "second_big", "same"} <= set(stats["summarized"])  # type: ignore[arg-type]
    assert "bump" not in stats["summarized"]  # type: ignore[operator]  # it writes the list it is given
    assert stats["sub_method_invocations"] > 0
    assert stats["inline_calls"] > 0  # the long list, the bools, the aliased lists


OBJECTS = """
from typing import Optional


class Node:
    def __init__(self, val: int, name: str, key: Optional[int], next: Optional["Node"] = None) -> None:
        self.val = val
        self.name = name
        self.key = key
        self.next = next

    @property
    def double(self) -> int:
        return 2 * self.val

    @property
    def touched(self) -> int:
        self.name = "t"
        return self.val


def same_val(a: Node, b: Node) -> int:
    if a is b:
        return 0
    if a.val == b.val:
        return 1
    return 2


def keyed(n: Node) -> int:
    if n.key is None:
        return -1
    if n.key > n.double:
        return 1
    return 0


def short(n: Node) -> bool:
    if len(n.name) < 2:
        return True
    return n.name[0] == "a"


def ordered(n: Optional[Node]) -> bool:
    if n is None or n.next is None:
        return True
    return n.val <= n.next.val


def bump(n: Node) -> int:
    if n.val > 0:
        n.val -= 1
    return n.val


def touches(n: Node) -> int:
    if n.touched > 0:
        return 1
    return 0


def caller(a: Node, b: Node, c: Optional[Node], x: int) -> int:
    k = same_val(a, b) + keyed(a)
    if short(b):
        k += 10
    a.val = x
    k += same_val(a, b) * 100
    made = Node(x, "abcdef", None, c)
    k += keyed(made) + 1000 * ordered(made)
    if short(made):
        k += 7
    if ordered(c):
        k += 3
    return k + bump(a) + ordered(None) + touches(b)
"""


def test_object_arguments_are_summarized_with_heap_path_conditions(tmp_path: Path) -> None:
    """Callees of input objects get trees (POSE): at each call their fields are read in the
    caller's heap (aliased inputs, an object the caller wrote, one it created, None) and the
    leaves are checked there; the replay re-executes what they write; the paths, outcomes and
    inputs are DSE's."""
    dse, composed, _ = _both(tmp_path, OBJECTS, "caller")
    assert composed.complete and len(dse.paths) == len(composed.paths) > 20
    stats = composed.stats
    assert {"same_val", "keyed", "short", "ordered"} <= set(stats["summarized"])  # type: ignore[arg-type]
    assert "bump" in stats["summarized"]  # type: ignore[operator]  # it writes the object it is given: the replay does too
    assert stats["sub_method_invocations"] > 0 and stats["inline_calls"] == 0
    lazy = explore(str(tmp_path / "program.py"), "caller", Options(engine="compose", heap="lazier"))
    assert not lazy.stats["summarized"] and agree(dse, lazy) == []  # only POSE reads a field outside the program


def test_the_node_list_benchmark_is_composed_over_input_objects(tmp_path: Path) -> None:
    """benchmarks/compose_subjects/node_list.py: repOk over ``Optional[Node]`` called 3 times."""
    source = (Path(__file__).resolve().parents[2] / "benchmarks" / "compose_subjects" / "node_list.py").read_text()
    dse, composed, _ = _both(tmp_path, source, "nodes3times")
    assert composed.complete and len(composed.paths) == len(dse.paths) > 5
    assert composed.stats["summarized"] == ["rep_ok"] and composed.stats["sub_method_invocations"] > 2 * len(composed.paths)


NONE_IN_A_DECLARED_FIELD = """
class Node:
    def __init__(self, val: int, next: "Node") -> None:
        self.val = val
        self.next = next


def nxt(n: Node) -> int:
    if n.next.val > 0:
        return 1
    return 0


def caller(a: Node, x: int) -> int:
    k = nxt(a)
    if x > 0:
        a.next = None  # type: ignore[assignment]
    try:
        k += nxt(a)
    except AttributeError:
        k += 10
    return k
"""


def test_none_in_a_field_the_tree_took_to_hold_an_object_runs_inline(tmp_path: Path) -> None:
    """``nxt``'s tree is built on ``next: Node`` (never None); once the caller may have assigned
    None there, its leaves do not cover the call, which runs inline, and the AttributeError
    path is found as DSE finds it."""
    dse, composed, _ = _both(tmp_path, NONE_IN_A_DECLARED_FIELD, "caller")
    assert sorted(p.returned for p in composed.paths) == sorted(p.returned for p in dse.paths)  # type: ignore[type-var]
    assert 10 in {p.returned for p in composed.paths} or 11 in {p.returned for p in composed.paths}
    assert composed.stats["summarized"] == ["nxt"] and composed.stats["inline_calls"] > 0 and composed.stats["sub_method_invocations"] > 0


def test_a_field_read_unsupported_at_the_call_runs_inline_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Reading ``b.val`` in the caller's heap, where ``b`` may be ``a`` whose ``val`` the caller
    set to a str, is unsupported: the call runs inline, and the run reports it at the callee's
    line, as DSE does (not an internal error of the summary)."""

    path = tmp_path / "kinds.py"
    path.write_text(
        "class Node:\n    def __init__(self, val: int) -> None:\n        self.val = val\n\n\n"
        "def pos(n: Node) -> int:\n    if n.val > 0:\n        return 1\n    return 0\n\n\n"
        "def caller(a: Node, b: Node) -> int:\n    a.val = 'x'  # type: ignore[assignment]\n    return pos(b)\n"
    )
    for engine in ("dse", "compose"):
        said = unsupported_said(path, "caller", capsys, "--no-store", engine=engine)
        assert "7: unsupported: field 'val' of a possibly aliased input Node holds values of different kinds (column 8)" in said, said


def test_the_swap_node_benchmark_replays_a_callee_that_writes_its_objects(tmp_path: Path) -> None:
    """benchmarks/compose_subjects/swap_node.py: ``swap_node`` assigns the fields of the nodes
    it is given; its tree is over their values at the call, and its replay writes them in the
    caller's heap, so the next call sees the swapped values, as in DSE."""
    source = (Path(__file__).resolve().parents[2] / "benchmarks" / "compose_subjects" / "swap_node.py").read_text()
    dse, composed, _ = _both(tmp_path, source, "sweep3")
    assert composed.complete and len(composed.paths) == len(dse.paths) > 5
    assert composed.stats["summarized"] == ["swap_node"] and composed.stats["sub_method_invocations"] > len(composed.paths)

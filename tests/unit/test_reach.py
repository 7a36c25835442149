"""``pathloom reach``: verdicts on small programs with loops, each checked outside pathloom.

Every ``reachable`` input is run in CPython here (the raise, or the line, must happen); every
``unreachable`` claim is cross-checked, on a bounded domain, by exhaustive DSE (complete, no
path raising at the target) and, for int inputs, by running a grid of inputs in CPython.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.cuts import CutReason
from pathloom.api import explore
from pathloom.cli import main
from pathloom.frontend.module import load_module
from pathloom.navigation.reach import ReachOptions, reach_targets
from pathloom.navigation.targets import Target, assert_targets, statement_lines
from pathloom.options import Options
from tests.unit.reach_checks import int_grid, lines_run, raise_line, reach_json, reaching

LOOPS = textwrap.dedent("""\
    def one_loop(n: int) -> int:
        i = 0
        while i < n:
            i += 4
        if i == 15:
            raise ValueError("never")
        return i


    def steps_of_four(n: int) -> int:
        i = 0
        while i < n:
            i += 4
        assert i != 8
        return i


    def two_loops(n: int) -> int:
        i = 0
        while i < n:
            i += 4
        j = 0
        while j < i:
            j += 3
        if j == 9:
            raise ValueError("reached")
        return j


    def countdown(n: int, k: int) -> int:
        total = 0
        while n > 0:
            n -= 2
            total += k
        assert total != 7
        return total
""")

FIG1_TEMPLATE = textwrap.dedent("""\
    def {name}(A: list[int], B: list[int]) -> None:
        assert len(A) == 4 and len(B) == 4
        a = 0
        b = 0
        for i in range(4):
            if A[i] == 1:
                a += 1
        for j in range(4):
            if B[j] == 2:
                b += 1
        if a > {bound} and a + b == 6:
            raise ValueError("target")
""")
# the paper's Figure 1 with lists of 4: a > 2 reachable, a > 4 unreachable (raises at lines 12 and 26)
FIG1 = FIG1_TEMPLATE.format(name="fig1", bound=2) + "\n\n" + FIG1_TEMPLATE.format(name="fig1_unreachable", bound=4)

VERDICT_KEYS = {"line", "verdict", "inputs", "time_s", "reason"}


def _one(data: dict[str, object]) -> dict[str, object]:
    targets = data["targets"]
    assert isinstance(targets, list) and len(targets) == 1
    return targets[0]  # type: ignore[no-any-return]


def test_json_shape_and_unreachable_proof_for_all_ints(tmp_path: Path) -> None:
    code, data, path = reach_json(tmp_path, LOOPS, "one_loop", "--asserts", "--timeout", "20")
    assert code == 0
    assert set(data) == {"target", "targets"} and data["target"] == f"{path}::one_loop"
    verdict = _one(data)
    assert set(verdict) == VERDICT_KEYS
    assert verdict["line"] == 6 and verdict["verdict"] == "unreachable" and verdict["inputs"] is None
    assert "chain technique" in str(verdict["reason"]) and "every input" in str(verdict["reason"])
    assert reaching(path, "one_loop", 6, int_grid(["n"], -40, 200)) == []


def test_previous_iteration_keeps_the_reachable_step(tmp_path: Path) -> None:
    code, data, path = reach_json(tmp_path, LOOPS, "steps_of_four", "--asserts", "--timeout", "20")
    verdict = _one(data)
    assert code == 1 and verdict["verdict"] == "reachable"
    assert raise_line(path, "steps_of_four", verdict["inputs"]) == 14  # type: ignore[arg-type]


def test_second_loop_bounded_by_the_first(tmp_path: Path) -> None:
    code, data, path = reach_json(tmp_path, LOOPS, "two_loops", "--asserts", "--timeout", "20")
    verdict = _one(data)
    assert code == 1 and verdict["verdict"] == "reachable"
    assert raise_line(path, "two_loops", verdict["inputs"]) == 26  # type: ignore[arg-type]


def test_parameter_updated_in_the_loop(tmp_path: Path) -> None:
    code, data, path = reach_json(tmp_path, LOOPS, "countdown", "--asserts", "--timeout", "20")
    verdict = _one(data)
    assert code == 1 and verdict["verdict"] == "reachable"
    assert raise_line(path, "countdown", verdict["inputs"]) == 35  # type: ignore[arg-type]


def test_figure1_reachable_and_unreachable_cross_checked_by_exhaustive_dse(tmp_path: Path) -> None:
    code, data, path = reach_json(tmp_path, FIG1, "fig1", "--asserts", "--max-list-len", "4", "--timeout", "20")
    verdict = _one(data)
    assert code == 1 and verdict["verdict"] == "reachable"
    assert raise_line(path, "fig1", verdict["inputs"]) == 12  # type: ignore[arg-type]
    code, data, _ = reach_json(tmp_path, FIG1, "fig1_unreachable", "--asserts", "--max-list-len", "4", "--timeout", "20")
    verdict = _one(data)
    assert code == 0 and verdict["verdict"] == "unreachable" and verdict["line"] == 26
    exhaustive = explore(str(path), "fig1_unreachable", Options(max_list_len=4, max_iterations=100, timeout=120))
    assert exhaustive.complete
    assert not [p for p in exhaustive.paths if p.outcome == "raise" and p.line == 26]
    assert [
        p for p in explore(str(path), "fig1", Options(max_list_len=4, max_iterations=100, timeout=120)).paths if p.outcome == "raise" and p.line == 12
    ]  # the same DSE does find the reachable twin


def test_line_targets_inside_and_after_loops(tmp_path: Path) -> None:
    code, data, path = reach_json(tmp_path, LOOPS, "two_loops", "--line", "24", "--line", "27", "--timeout", "20")
    assert code == 0  # line targets are not bugs
    by_line = {t["line"]: t for t in data["targets"]}
    assert set(by_line) == {24, 27}
    for line, verdict in by_line.items():
        assert verdict["verdict"] == "reachable"
        assert line in lines_run(path, "two_loops", verdict["inputs"])


def test_fallback_when_the_technique_does_not_apply(tmp_path: Path) -> None:
    source = textwrap.dedent("""\
        def guarded(n: int) -> int:
            try:
                i = 0
                while i < n:
                    i += 3
            except ValueError:
                return -1
            assert i != 6
            return i
    """)
    code, data, path = reach_json(tmp_path, source, "guarded", "--asserts", "--timeout", "20")
    verdict = _one(data)  # the re-raise that ends the try (no statement) is no target
    assert code == 1 and verdict["verdict"] == "reachable"
    assert "not applicable: the function has exception handlers" in str(verdict["reason"]) and "dse" in str(verdict["reason"])
    assert raise_line(path, "guarded", verdict["inputs"]) == 8  # type: ignore[arg-type]


def test_bounded_search_is_unknown_never_unreachable(tmp_path: Path) -> None:
    source = textwrap.dedent("""\
        def far(n: int) -> int:
            i = 0
            while i < n:
                i += 1
            assert i != 1000
            return i
    """)
    code, data, _ = reach_json(tmp_path, source, "far", "--asserts", "--no-chains", "--engine", "dse", "--timeout", "20")
    verdict = _one(data)
    assert code == 0 and verdict["verdict"] == "unknown" and verdict["inputs"] is None
    assert "--max-iterations" in str(verdict["reason"])


def test_timeout_is_unknown(tmp_path: Path) -> None:
    source = textwrap.dedent("""\
        def far(n: int) -> int:
            i = 0
            while i < n:
                i += 1
            assert i != 100000000
            return i
    """)
    code, data, _ = reach_json(tmp_path, source, "far", "--asserts", "--no-chains", "--engine", "dse", "--max-iterations", "1000000000", "--timeout", "0.5")
    verdict = _one(data)
    assert code == 0 and verdict["verdict"] == "unknown" and "timeout" in str(verdict["reason"])


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "loops.py"
    path.write_text(LOOPS, encoding="utf-8")
    assert main(["reach", f"{path}::one_loop"]) == 2
    assert "--line N or --asserts" in capsys.readouterr().err
    assert main(["reach", f"{path}::one_loop", "--line", "9"]) == 2  # a blank line
    assert "no statement" in capsys.readouterr().err


def test_library_entry_and_preconditions(tmp_path: Path) -> None:
    path = tmp_path / "fig.py"
    path.write_text(FIG1, encoding="utf-8")
    module = load_module(str(path))
    statements = statement_lines(module.function_defs["fig1"])
    assert assert_targets(module.function("fig1"), statements) == [Target(12, "raise")]
    assert assert_targets(module.function("fig1"), statements, preconditions=False) == [Target(2, "assert"), Target(12, "raise")]
    run = reach_targets(module, "fig1", [Target(2, "assert")], Options(max_list_len=4, timeout=20), ReachOptions())
    [verdict] = run.verdicts
    assert verdict.verdict == "reachable" and not run.mismatches
    assert raise_line(path, "fig1", verdict.inputs or {}) == 2


def test_random_loop_programs_have_no_wrong_verdict(tmp_path: Path) -> None:
    """A few programs of the differential fuzzer (``tests/differential/reach_fuzz.py``): a
    reachable input raises at the target in CPython, no input of the grid reaches a target
    claimed unreachable."""
    import random

    from tests.differential.reach_fuzz import check, program

    rng = random.Random(7)
    verdicts = []
    for index in range(12):
        verdict, problem = check(program(rng), tmp_path, index, timeout=3.0)
        assert problem == "", problem
        verdicts.append(verdict)
    assert {"reachable", "unreachable"} <= set(verdicts)  # both kinds of claim were checked


LISTS = textwrap.dedent("""\
    def evens(A: list[int]) -> int:
        k = 0
        for x in A:
            k += 2
        if k == 7:
            raise ValueError("odd")
        return k


    def count_ones(A: list[int]) -> int:
        k = 0
        for i in range(len(A)):
            if A[i] == 1:
                k += 1
        if k > len(A) - 1:
            raise ValueError("every item a one")
        return k


    def mutated(A: list[int]) -> int:
        k = 0
        A.append(3)
        for x in A:
            k += 2
        if k == 2:
            raise ValueError("reachable: A == []")
        return k
""")


def test_loops_over_input_lists_count_their_length(tmp_path: Path) -> None:
    """The loop over a list is a loop over its index: a proof for every length, cross-checked
    by exhaustive DSE on lists of up to 5 items."""
    code, data, path = reach_json(tmp_path, LISTS, "evens", "--asserts", "--timeout", "20")
    verdict = _one(data)
    assert code == 0 and verdict["verdict"] == "unreachable" and "every input" in str(verdict["reason"])
    exhaustive = explore(str(path), "evens", Options(max_list_len=5, max_iterations=100, timeout=120))
    assert exhaustive.complete and not [p for p in exhaustive.paths if p.outcome == "raise"]
    code, data, path = reach_json(tmp_path, LISTS, "count_ones", "--asserts", "--timeout", "20")
    verdict = _one(data)  # k > len(A) - 1 needs every item a one: reachable, not refuted by the length
    assert code == 1 and verdict["verdict"] == "reachable"
    assert raise_line(path, "count_ones", verdict["inputs"]) == 16  # type: ignore[arg-type]


def test_a_mutated_list_is_not_measured_by_its_input_length(tmp_path: Path) -> None:
    code, data, path = reach_json(tmp_path, LISTS, "mutated", "--asserts", "--timeout", "20")
    verdict = _one(data)
    assert code == 1 and verdict["verdict"] == "reachable" and verdict["inputs"] == {"A": []}
    assert raise_line(path, "mutated", {"A": []}) == 26


def test_strs_scanned_character_by_character(tmp_path: Path) -> None:
    source = textwrap.dedent("""\
        def scan(s: str) -> int:
            i = 0
            hits = 0
            while i < len(s):
                if s[i] == "a":
                    hits += 2
                i += 1
            if hits == 5 or hits > 2 * len(s):
                raise ValueError("never")
            if hits == 4:
                raise ValueError("two a")
            return hits
    """)
    code, data, path = reach_json(tmp_path, source, "scan", "--asserts", "--max-str-len", "4", "--timeout", "20")
    by_line = {t["line"]: t for t in data["targets"]}
    assert code == 1 and by_line[9]["verdict"] == "unreachable" and "every input" in str(by_line[9]["reason"])
    assert by_line[11]["verdict"] == "reachable" and raise_line(path, "scan", by_line[11]["inputs"]) == 11
    exhaustive = explore(str(path), "scan", Options(max_str_len=4, max_iterations=100, timeout=120))
    assert exhaustive.complete and not [p for p in exhaustive.paths if p.outcome == "raise" and p.line == 9]


def test_geometric_progression(tmp_path: Path) -> None:
    source = textwrap.dedent("""\
        def doubling(n: int) -> int:
            x = 1
            while x < n:
                x *= 2
            if x == 12:
                raise ValueError("never: not a power of two")
            if x == 16:
                raise ValueError("n in 9..16")
            return x
    """)
    code, data, path = reach_json(tmp_path, source, "doubling", "--asserts", "--timeout", "20")
    by_line = {t["line"]: t for t in data["targets"]}
    assert code == 1 and by_line[6]["verdict"] == "unreachable" and "every input" in str(by_line[6]["reason"])
    assert reaching(path, "doubling", 6, int_grid(["n"], -20, 3000)) == []
    assert by_line[8]["verdict"] == "reachable" and raise_line(path, "doubling", by_line[8]["inputs"]) == 8


def test_chains_whose_item_tests_contradict_are_pruned(tmp_path: Path) -> None:
    """A chain that needs one character to equal two constants (or to equal and differ from
    one) is ruled out before any execution (the paper's pruning of infeasible chains): here the
    only chain that counts is such a one, so the target is proved unreachable for every str,
    of any length. Cross-checked by exhaustive DSE on strs of up to 3 characters; the sibling
    target behind a feasible chain is reached."""
    source = textwrap.dedent("""\
        def scan(s: str, A: list[int]) -> int:
            i = 0
            odd = 0
            fine = 0
            while i < len(s):
                if s[i] == "a" and s[i + 0] == "b":
                    odd += 1
                if s[i] == "a" and s[i] != "a":
                    odd += 1
                if s[i] == "a" and s[i] != "b":
                    fine += 1
                i += 1
            if odd > 0:
                raise ValueError("never")
            if fine > 1:
                raise ValueError("two a")
            if len(A) > 0 and A[0] == 1 and A[0] == 2:
                raise ValueError("never either")
            return fine
    """)
    code, data, path = reach_json(tmp_path, source, "scan", "--asserts", "--max-str-len", "3", "--max-list-len", "2", "--timeout", "20")
    by_line = {t["line"]: t for t in data["targets"]}
    assert code == 1 and by_line[14]["verdict"] == "unreachable" and "every input" in str(by_line[14]["reason"])
    assert by_line[18]["verdict"] == "unreachable" and "every input" in str(by_line[18]["reason"])
    assert by_line[16]["verdict"] == "reachable" and raise_line(path, "scan", by_line[16]["inputs"]) == 16
    exhaustive = explore(str(path), "scan", Options(max_str_len=3, max_list_len=2, max_iterations=100, timeout=120))
    assert exhaustive.complete and not [p for p in exhaustive.paths if p.outcome == "raise" and p.line in (14, 18)]


def test_contradictory_item_tests() -> None:
    from pathloom.navigation.linear import Linear
    from pathloom.navigation.transfer import ItemOf, ItemTest, contradictory

    at_i, at_next = ItemOf("s", Linear.symbol("i")), ItemOf("s", Linear.symbol("i").add(Linear(1)))
    assert contradictory([ItemTest(at_i, "H", True), ItemTest(at_i, "W", True)])
    assert contradictory([ItemTest(at_i, "H", True), ItemTest(at_i, "H", False)])
    assert contradictory([ItemTest(at_i, "H", False), ItemTest(at_i, "H", True)])
    assert contradictory([ItemTest(at_i, 1, True), ItemTest(at_i, "1", True)])  # an int item is no str
    assert not contradictory([ItemTest(at_i, "H", True), ItemTest(at_next, "W", True)])
    assert not contradictory([ItemTest(at_i, "H", True), ItemTest(at_i, "W", False), ItemTest(at_i, "H", True)])
    assert not contradictory([ItemTest(at_i, "H", False), ItemTest(at_i, "W", False)])


def test_the_navigator_resumes_its_search_across_time_slices(tmp_path: Path) -> None:
    """``reach`` gives the chain technique doubling time slices; its search is paused at the
    end of a slice and resumed by the next (one engine, no state lost), so many tiny slices
    find what one long run finds."""
    from pathloom.frontend.module import load_module
    from pathloom.navigation.navigator import Plan, plan

    path = tmp_path / "scan.py"
    path.write_text(
        textwrap.dedent("""\
        def two_words(s: str) -> None:
            hi = 0
            yo = 0
            i = 0
            while i + 2 <= len(s):
                if s[i] == "h" and s[i + 1] == "i":
                    hi += 1
                if s[i] == "y" and s[i + 1] == "o":
                    yo += 1
                i += 1
            if hi > 0 and yo > 1:
                raise ValueError("found")
    """)
    )
    module = load_module(str(path))
    function = module.function("two_words")
    [target] = assert_targets(function, statement_lines(module.function_defs["two_words"]))
    options = Options(max_str_len=8, timeout=60)
    navigation = plan(module, "two_words", target, options)
    assert isinstance(navigation, Plan)
    slices = 0
    answer = navigation.run(options, 0.0)
    while answer.verdict == "unknown" and answer.timed_out and slices < 100_000:
        engine = navigation.engine
        answer = navigation.run(options, 0.0)
        assert navigation.engine is engine
        slices += 1
    assert answer.verdict == "reachable" and slices > 1
    assert raise_line(path, "two_words", answer.inputs) == 12  # type: ignore[arg-type]


def test_a_cut_in_an_earlier_slice_forbids_a_proof() -> None:
    """The reasons paths were cut are kept across the slices of one search: a search that ends
    complete in its last slice is no proof when an earlier slice cut a path."""
    from pathloom.engines.forking import PAUSED
    from pathloom.navigation.fallback import Scan, conclude
    from pathloom.results import PathResult

    def results() -> object:
        yield PathResult("cut", None, reason="solver unknown", cut=CutReason.TIMEOUT)
        yield PAUSED
        yield PathResult("return", {"n": 1}, returned=None)

    seen, stream = Scan(), iter(results())  # type: ignore[call-overload]
    first = conclude(stream, lambda: True, "navigation", lambda: "found", "proved", seen)
    assert first.verdict == "unknown" and first.timed_out
    second = conclude(stream, lambda: True, "navigation", lambda: "found", "proved", seen)
    assert second.verdict == "unknown" and "solver unknown" in second.reason

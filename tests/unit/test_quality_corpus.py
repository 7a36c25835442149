"""The quality corpus (tests/quality/corpus) and the pure parts of benchmarks/quality_corpus.py:
the ``# BUG:`` comments and their witnesses, the targets, the tools' results read back, the
classification and the tables (no pathloom or CrossHair run here).

The corpus checks keep it honest: every module imports and holds only definitions, every
target is annotated, there are at least 200 targets, and every planted bug's witness input
really fails its assert in CPython."""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
import textwrap
import traceback
from types import ModuleType
from typing import Any

import pytest

BENCHMARKS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "benchmarks")
sys.path.insert(0, BENCHMARKS)

import quality_corpus as qc  # noqa: E402 (found through the sys.path entry above)

# --------------------------------------------------------------------------
# The BUG comments
# --------------------------------------------------------------------------


def test_split_witness_takes_the_keyword_arguments_in_the_last_parentheses() -> None:
    assert qc.split_witness("off by one (x=10)") == ("off by one", "x=10")
    assert qc.split_witness("gcd(0, 0) is 0 (a=0, b=0)") == ("gcd(0, 0) is 0", "a=0, b=0")
    assert qc.split_witness("round() rounds halves to even (x=0.5)") == ("round() rounds halves to even", "x=0.5")
    assert qc.split_witness("a paren in a value (s='(', t=Point(1, 2))") == ("a paren in a value", "s='(', t=Point(1, 2)")
    assert qc.split_witness("no witness here") == ("no witness here", None)
    assert qc.split_witness("positional only (1, 2)") == ("positional only (1, 2)", None)


MODULE = textwrap.dedent(
    '''\
    """A corpus module."""


    def _helper(x: int) -> int:
        return x


    def good(x: int) -> int:
        assert x >= 0
        return _helper(x)


    def bad(x: int, s: str) -> int:
        """Docstring first."""
        assert x >= 0
        y = x + 1
        assert y != 11  # BUG: off by one (x=10, s='a#b')
        return y


    def unannotated(x, y: int):
        return y
    '''
)


def test_parse_bug_comments_finds_the_line_description_and_witness() -> None:
    assert qc.parse_bug_comments(MODULE) == {17: qc.PlantedBug(17, "off by one", "x=10, s='a#b'")}
    assert qc.parse_bug_comments("x = '# BUG: in a string'\n") == {}


def test_find_targets_skips_helpers_and_sees_annotations_and_preconditions() -> None:
    targets = qc.find_targets(MODULE, "m.py", "/p/m.py")
    assert [t.name for t in targets] == ["good", "bad", "unannotated"]
    good, bad, unannotated = targets
    assert (good.line, good.end_line, good.annotated, good.leading_assert, good.planted) == (8, 10, True, True, ())
    assert bad.leading_assert and bad.annotated and [b.line for b in bad.planted] == [17]
    assert not unannotated.annotated and not unannotated.leading_assert
    assert bad.label == "m.py::bad"
    raising = qc.find_targets("def f(x: int) -> int:\n    raise KeyError(x)\n", "m.py", "/p/m.py")
    assert raising[0].raised == frozenset({"KeyError"})


def test_witness_arguments_are_evaluated_in_the_module_namespace() -> None:
    class Point:
        def __init__(self, x: int, y: int) -> None:
            self.x, self.y = x, y

    args = qc.witness_arguments("p=Point(1, 2), xs=[1, -1], s='\\t'", {"Point": Point})
    assert args["p"].y == 2 and args["xs"] == [1, -1] and args["s"] == "\t"


def test_call_with_passes_positional_only_parameters_by_position() -> None:
    def f(a: int, /, b: int, *, c: int = 0) -> tuple[int, int, int]:
        return a, b, c

    assert qc.call_with(f, {"a": 1, "b": 2, "c": 3}) == (1, 2, 3)


def test_outside_bounds_names_the_values_pathloom_would_not_try() -> None:
    assert qc.outside_bounds("abcdef") == []
    assert qc.outside_bounds("abcdefg") == ["str of length 7 > 6"]
    assert qc.outside_bounds([1, 2, 3, 4, 5]) == ["list of length 5 > 4"]
    assert qc.outside_bounds({"k": ["toolongstr"]}) == ["str of length 10 > 6"]
    assert qc.outside_bounds(10**100) == []


# --------------------------------------------------------------------------
# The tools' results
# --------------------------------------------------------------------------


def test_pathloom_from_json_reads_status_bugs_and_cut_reasons() -> None:
    data = {
        "status": "incomplete",
        "bugs": [{"line": 7, "exception": "AssertionError", "inputs": {"x": 10, "s": "ab"}}],
        "paths": [
            {"outcome": "return"},
            {"outcome": "cut", "reason": "timeout"},
            {"outcome": "unknown", "reason": "solver unknown"},
        ],
    }
    run = qc.pathloom_from_json(data, 1)
    assert run.status == "incomplete" and run.exit_code == 1
    assert run.bugs == [qc.ReportedBug(7, "AssertionError", 'x=10, s="ab"')]
    assert run.cut_reasons == ["timeout", "solver unknown"]
    assert qc.pathloom_from_json(None, None).status == qc.KILLED
    assert qc.pathloom_from_json(None, 3).status == qc.NO_RESULT
    refused = qc.pathloom_from_json({"status": "unsupported", "error": "/p/m.py:3:4: unsupported: mapping pattern"}, 2)
    assert refused.status == "unsupported" and qc.refusal_reason(refused.error) == "unsupported: mapping pattern"


def test_crosshair_errors_keep_the_lines_about_the_target_file() -> None:
    stdout = "/p/m.py:4: error: AssertionError:  when calling f(7, '')\n/q/other.py:9: error: IndexError: x\nnoise\n"
    assert qc.crosshair_errors(stdout, "/p/m.py") == [qc.ReportedBug(4, "AssertionError", "AssertionError:  when calling f(7, '')")]
    assert qc.crosshair_status(1, stdout, "") == "checked"
    assert qc.crosshair_status(0, "", "WARNING: Targets found, but contain no checkable functions.") == "not checkable"
    assert qc.crosshair_status(None, "", "") == qc.KILLED
    assert qc.crosshair_status(2, "", "Traceback") == "error (exit 2)"


def test_cut_reason_groups_reasons_that_differ_in_numbers_and_values() -> None:
    assert qc.cut_reason("loop bound 10 reached at line 12") == qc.cut_reason("loop bound 10 reached at line 40")
    assert qc.cut_reason("concretized: 'x' at 3") == "concretized: '...' at N"


# --------------------------------------------------------------------------
# Classification and tables
# --------------------------------------------------------------------------


def _target(name: str, planted: tuple[int, ...] = ()) -> qc.CorpusTarget:
    bugs = tuple(qc.PlantedBug(line, f"bug {line}", "x=1") for line in planted)
    return qc.CorpusTarget("m.py", "/p/m.py", name, 1, 99, True, True, bugs, frozenset({"ValueError"}))


def _pl(status: str, lines: tuple[int, ...] = (), exit_code: int = 0, time_s: float = 1.0) -> qc.PathloomRun:
    return qc.PathloomRun(exit_code, status, None, [qc.ReportedBug(n, "AssertionError", "x=1") for n in lines], [], time_s)


def _xh(lines: tuple[int, ...] = (), status: str = "checked", raised: tuple[int, ...] = ()) -> qc.CrosshairRun:
    errors = [qc.ReportedBug(n, "AssertionError", "m") for n in lines] + [qc.ReportedBug(n, "ValueError", "v") for n in raised]
    return qc.CrosshairRun(1 if errors else 0, status, errors, 2.0)


ROWS = [
    qc.Row(_target("both", (5,)), _pl("complete", (5,), 1), _xh((5,))),
    qc.Row(_target("only_pl", (6,)), _pl("incomplete", (6,), 1), _xh(())),
    qc.Row(_target("only_xh", (7,)), _pl("incomplete"), _xh((7,))),
    qc.Row(_target("missed_complete", (8,)), _pl("complete"), _xh((), "not checkable")),
    qc.Row(_target("refused"), _pl("unsupported", exit_code=2), _xh((), raised=(9,))),
    qc.Row(_target("disagrees"), _pl("complete", (3,), 3, time_s=12.5), _xh((3, 4))),
    qc.Row(_target("crashed"), _pl("internal error", exit_code=3), None),
]


def test_classify_counts_each_planted_bug_once_by_who_found_it() -> None:
    c = qc.classify(ROWS, 10.0)
    assert (c.targets, c.planted) == (7, 4)
    assert (c.found_by_pathloom, c.found_by_crosshair, c.found_by_both) == (2, 2, 1)
    assert c.only_pathloom == ["m.py::only_pl:6"] and c.only_crosshair == ["m.py::only_xh:7"]
    assert c.neither == ["m.py::missed_complete:8"]
    assert c.refused == ["m.py::refused"]
    assert c.crosshair_only_bugs == ["m.py::only_xh:7", "m.py::disagrees:4"]
    assert c.wrong_answers == [
        "m.py::missed_complete:8: complete, 0 bugs on the planted bug's line",
        "m.py::disagrees: exit 3 (a reported bug CPython does not confirm)",
    ]
    assert c.crashes == ["m.py::crashed: internal error"]
    assert c.unplanned_pathloom == ["m.py::disagrees:3: AssertionError (x=1)"]
    assert c.unplanned_crosshair == ["m.py::disagrees:3: m", "m.py::disagrees:4: m"]
    assert c.crosshair_explicit == ["m.py::refused:9: v"]  # a ValueError the module raises itself: intended
    assert dict(c.missed_by_status) == {"incomplete": 1, "complete": 1}
    assert c.over_budget == ["m.py::disagrees: 12.5s"]


def test_per_bug_table_has_one_row_per_planted_bug() -> None:
    rows = qc.per_bug(ROWS)
    assert [r[0] for r in rows] == ["m.py::both:5", "m.py::only_pl:6", "m.py::only_xh:7", "m.py::missed_complete:8"]
    assert rows[0][2:5] == ["found", "1.0", "found"]
    assert rows[2][2] == "missed (incomplete)" and rows[2][4] == "found"
    assert rows[3][4] == "missed (not checkable)"


def test_report_in_markdown_has_the_summary_the_refusals_and_the_per_bug_table() -> None:
    text = "\n".join(qc.report(ROWS, 10.0, True, True))
    assert "| refused (unsupported) | 1 (14.3%) |" in text
    assert "| planted bugs found by pathloom | 2 / 4 |" in text
    assert "| found by both / only pathloom / only CrossHair / neither | 1 / 1 / 1 / 1 |" in text
    assert "#### Per planted bug" in text and "| m.py::only_xh:7 | bug 7 | missed (incomplete) | 1.0 | found | 2.0 |" in text
    assert "#### pathloom wrong answers" in text
    without = "\n".join(qc.report(ROWS[:1], 10.0, False, False))
    assert "CrossHair" not in without.split("Per planted bug")[0]


# --------------------------------------------------------------------------
# The corpus itself
# --------------------------------------------------------------------------

TARGETS = qc.corpus_targets()
MODULES = sorted({t.module for t in TARGETS})


def _load(module: str) -> ModuleType:
    path = os.path.join(qc.CORPUS, module)
    spec = importlib.util.spec_from_file_location(f"quality_corpus_{module[:-3]}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_corpus_has_at_least_200_annotated_targets_about_half_with_a_planted_bug() -> None:
    assert len(TARGETS) >= 200
    assert all(t.annotated for t in TARGETS), [t.label for t in TARGETS if not t.annotated]
    with_bug = sum(1 for t in TARGETS if t.planted)
    assert 0.35 * len(TARGETS) <= with_bug <= 0.65 * len(TARGETS)


DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.If)


@pytest.mark.parametrize("module", MODULES)
def test_a_corpus_module_imports_and_holds_only_definitions(module: str) -> None:
    with open(os.path.join(qc.CORPUS, module), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body[1:]:  # the docstring first
        assert isinstance(node, DEFINITIONS), f"{module}:{node.lineno}: a top-level {type(node).__name__}"
    mod = _load(module)
    assert all(callable(getattr(mod, t.name)) for t in TARGETS if t.module == module)


def _assert_lines(module: str) -> tuple[set[int], set[int]]:
    """Every assert statement's line, and the lines of the asserts that open a function body."""
    with open(os.path.join(qc.CORPUS, module), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    asserts = {n.lineno for n in ast.walk(tree) if isinstance(n, ast.Assert)}
    leading = set()
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            for st in fn.body:
                if not isinstance(st, ast.Assert):
                    break
                leading.add(st.lineno)
    return asserts, leading


PLANTED = [(t, bug) for t in TARGETS for bug in t.planted]


@pytest.mark.parametrize(("target", "bug"), PLANTED, ids=[f"{t.label}:{b.line}" for t, b in PLANTED])
def test_a_planted_bug_fails_its_assert_in_cpython_on_its_witness(target: qc.CorpusTarget, bug: qc.PlantedBug) -> None:
    asserts, leading = _assert_lines(target.module)
    assert bug.line in asserts, "a BUG comment sits on an assert line"
    assert bug.line not in leading, "a planted bug is no precondition"
    assert bug.witness is not None, "every planted bug names a witness input"
    mod = _load(target.module)
    arguments: dict[str, Any] = qc.witness_arguments(bug.witness, vars(mod))
    assert [why for value in arguments.values() for why in qc.outside_bounds(value)] == []
    with pytest.raises(AssertionError) as caught:
        qc.call_with(getattr(mod, target.name), arguments)
    frame = traceback.extract_tb(caught.value.__traceback__)[-1]
    assert (os.path.basename(frame.filename), frame.lineno) == (target.module, bug.line)

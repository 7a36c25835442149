"""Slice reads ``obj[a:b:c]`` (``semantics.slicing``), in both engines, against CPython.

Each program is explored from the command line with ``--verify`` (every reported input is
replayed in CPython; exit 3 would be a mismatch) and, through the library, its path
conditions are checked to partition a grid of inputs: for each input exactly one path
condition holds, and that path predicts what CPython returns or raises (with its message).
Where the slice is claimed symbolic, the exploration is complete with nothing concretized.
"""

from __future__ import annotations

import itertools
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pathloom.api import explore_source
from pathloom.cli import main
from pathloom.frontend import ir
from pathloom.frontend.module import parse_module
from pathloom.frontend.pprint import function as print_function
from pathloom.options import Options
from pathloom.replay import json_equal
from pathloom.encoding.values import encode_python
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())
LISTS = [list(p) for n in range(4) for p in itertools.product([0, 1], repeat=n)]
STRS = ["".join(p) for n in range(4) for p in itertools.product("ab", repeat=n)]
INTS = range(-4, 5)

PROGRAMS = {
    "tail": (
        """
        def f(xs: list[int], k: int) -> str:
            n = len(xs[k:])
            if n == 0:
                return "empty"
            if n == len(xs):
                return "all"
            return "some"
        """,
        {"xs": LISTS, "k": INTS},
    ),
    "palindrome": (
        """
        def f(s: str) -> bool:
            if s[::-1] == s:
                return True
            return False
        """,
        {"s": STRS},
    ),
    "last_two": (
        """
        def f(xs: list[int]) -> int:
            ys = xs[-2:]
            if len(ys) < 2:
                return -1
            return ys[0] - ys[1]
        """,
        {"xs": LISTS},
    ),
    "step": (
        """
        def f(xs: list[int], k: int) -> list[int]:
            ys = xs[::k]
            if ys == [1, 0]:
                return [9]
            return ys
        """,
        {"xs": LISTS, "k": INTS},
    ),
    "rest_of_empty": (
        """
        def f(xs: list[int]) -> int:
            ys = xs[1:]
            if not ys:
                return 0
            return ys[0]
        """,
        {"xs": LISTS},
    ),
    "copy_is_new": (
        """
        def f(xs: list[int]) -> list[int]:
            ys = xs[:]
            ys.append(7)
            zs = xs[1:]
            if zs:
                zs[0] = 5
            return xs
        """,
        {"xs": LISTS},
    ),
    "substring": (
        """
        def f(s: str, i: int, j: int) -> str:
            t = s[i:j]
            if t == "ab":
                return "found"
            return t
        """,
        {"s": STRS, "i": INTS, "j": INTS},
    ),
    "str_every_other": (
        """
        def f(s: str, i: int) -> str:
            t = s[i::-2]
            if t == "ba":
                return "found"
            return t
        """,
        {"s": STRS, "i": INTS},
    ),
    "tuple": (
        """
        def f(i: int, j: int) -> object:
            t = (1, "a", None)[i:j]
            if len(t) == 2:
                return t[1]
            return t
        """,
        {"i": INTS, "j": INTS},
    ),
    "bounds": (
        """
        def f(k: int) -> object:
            xs = [1, 2, 3]
            if k == 0:
                return xs["a":]
            if k == 1:
                return xs[1.5:]
            if k == 2:
                return (1, 2)[::"x"]
            if k == 3:
                return xs[True:]
            if k == 4:
                return xs[:k:k - 4]
            return k[1:]
        """,
        {"k": INTS},
    ),
}


def _write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / f"slicing_{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def _explore_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, engine: str) -> dict[str, Any]:
    path = _write(tmp_path, name, PROGRAMS[name][0])
    out = tmp_path / "out.json"
    code = main(["explore", f"{path}::f", "--engine", engine, "--json", str(out), "--verify", "--quiet"])
    err = capsys.readouterr().err
    assert code in (0, 1), err  # 3 would be a replay mismatch
    assert "all outcomes as predicted" in err
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def _cpython(source: str, inputs: dict[str, Any]) -> tuple[str, Any]:
    namespace: dict[str, Any] = {}
    exec(textwrap.dedent(source), namespace)  # noqa: S102 - the test's own program
    try:
        return "return", encode_python(namespace["f"](**inputs))
    except Exception as exc:  # noqa: BLE001 - CPython's answer
        return "raise", (type(exc).__name__, str(exc))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_slices_are_symbolic_and_replay_in_cpython(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, engine: str) -> None:
    result = _explore_verified(tmp_path, capsys, name, engine)
    assert result["complete"], [p["reason"] for p in result["paths"] if p["outcome"] == "cut"]
    assert not result["stats"]["concretizations"], "slicing a list, str or tuple is modeled, not run in CPython"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_path_conditions_partition_the_inputs_as_cpython_does(name: str, engine: str) -> None:
    source, grid = PROGRAMS[name]
    exploration = explore_source(textwrap.dedent(source), "f", Options(engine=engine, max_list_len=3, max_str_len=3))
    assert exploration.complete
    names = list(grid)
    for values in itertools.product(*(grid[n] for n in names)):
        inputs = dict(zip(names, values))
        holding = [p for p in exploration.paths if exploration.holds(p, inputs)]
        assert len(holding) == 1, f"{inputs}: {len(holding)} path conditions hold"
        path = holding[0]
        kind, expected = _cpython(source, {k: list(v) if isinstance(v, list) else v for k, v in inputs.items()})
        assert path.outcome == kind, f"{inputs}: {path.outcome}, CPython {kind} {expected}"
        if kind == "return":
            assert json_equal(exploration.predicted_return(path, inputs), expected), inputs
        else:
            assert (path.exception, exploration.predicted_message(path, inputs)) == expected, inputs


@pytest.mark.parametrize("engine", ENGINES)
def test_step_zero_raises_value_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str) -> None:
    result = _explore_verified(tmp_path, capsys, "step", engine)
    raised = [(p["exception"], p["message"], p["kind"], p["inputs"]["k"]) for p in result["paths"] if p["outcome"] == "raise"]
    assert raised == [("ValueError", "slice step cannot be zero", "implicit", 0)]


@pytest.mark.parametrize("engine", ENGINES)
def test_palindromes_are_found_by_the_solver(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str) -> None:
    result = _explore_verified(tmp_path, capsys, "palindrome", engine)
    found = {p["returned"]: p["inputs"]["s"] for p in result["paths"]}
    assert set(found) == {True, False}
    assert found[True] == found[True][::-1] and found[False] != found[False][::-1]


@pytest.mark.parametrize("engine", ENGINES)
def test_bound_errors_have_cpythons_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str) -> None:
    result = _explore_verified(tmp_path, capsys, "bounds", engine)
    raised = sorted((p["inputs"]["k"], p["exception"], p["message"]) for p in result["paths"] if p["outcome"] == "raise")
    wrong = "slice indices must be integers or None or have an __index__ method"
    assert [(k, e, m) for k, e, m in raised if k in (0, 1, 2, 4)] == [
        (0, "TypeError", wrong),
        (1, "TypeError", wrong),
        (2, "TypeError", wrong),
        (4, "ValueError", "slice step cannot be zero"),
    ]
    assert {(e, m) for k, e, m in raised if k not in (0, 1, 2, 3, 4)} == {("TypeError", "'int' object is not subscriptable")}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_range_or_a_real_object_is_sliced_in_cpython(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str) -> None:
    path = _write(
        tmp_path,
        "opaque",
        """
        SQUARES = [n * n for n in range(5)]
        def f(k: int) -> object:
            if k > 2:
                return SQUARES[k:]
            return range(10)[k::2]
        """,
    )
    out = tmp_path / "out.json"
    code = main(["explore", f"{path}::f", "--engine", engine, "--json", str(out), "--verify", "--quiet"])
    assert code == 0 and "all outcomes as predicted" in capsys.readouterr().err
    result = json.loads(out.read_text())
    assert set(result["stats"]["concretizations"]) == {"line 5: slicing [:]", "line 6: slicing [:]"}
    assert not result["complete"], "k has more values than --max-concretizations"
    returned = [p["returned"] for p in result["paths"] if p["outcome"] == "return" and p["inputs"]["k"] == 3]
    assert returned == [[9, 16]]


def test_a_slice_lowers_to_one_getslice_with_none_for_omitted_bounds() -> None:
    module = parse_module("def f(xs: list[int], k: int) -> list[int]:\n    return xs[k:][1::2]\n", "<slicing>")
    function = module.function("f")
    slices = [i for b in function.blocks.values() for i in b.instrs if isinstance(i, ir.GetSlice)]
    assert [(i.start, i.stop, i.step) for i in slices] == [
        (ir.Var("k"), ir.Const(None), ir.Const(None)),
        (ir.Const(1), ir.Const(None), ir.Const(2)),
    ]
    printed = print_function(function)
    assert "%1 = xs[k:None:None]" in printed and "%2 = %1[1:None:2]" in printed


def test_slices_empty_for_any_length_are_recognised_as_cpython_slices_them() -> None:
    """``slicing._empty``: concrete bounds of one sign that the step does not go towards take
    nothing whatever the length (checked against CPython on every length up to 6); the others
    are left to the symbolic count."""
    from pathloom.semantics.slicing import _empty

    for a, b, c in itertools.product(range(-7, 8), range(-7, 8), (-3, -1, 1, 2)):
        if _empty(a, b, c):
            assert all(list(range(n))[a:b:c] == [] for n in range(7)), (a, b, c)
    assert _empty(4, 0, 1) and _empty(-1, -3, 1) and _empty(0, 2, -1)
    assert not _empty(-1, 0, 1) and not _empty(0, 4, 1)  # mixed signs, or items taken


@pytest.mark.parametrize("engine", ENGINES)
def test_an_empty_slice_at_a_merged_length_stays_small(tmp_path: Path, engine: str) -> None:
    """The fuzzed program behind ``tests/quality/programs/guard_blowup.py``: ``l0[4:0]`` of a
    list of merged length summed to a merged index whose MultiSE guards blew up; the slice is
    now empty outright and the exploration complete."""
    program = tmp_path / "f.py"
    program.write_text(
        textwrap.dedent("""
        def f(s: str) -> int:
            l0 = ((len(s) or 7) % 3) * [7, 0]
            l0.pop()
            x = sum(l0[4:0])
            del l0[x]
            return 1
    """),
        encoding="utf-8",
    )
    result = explore_source(program.read_text(encoding="utf-8"), "f", Options(engine=engine, timeout=20, max_list_len=3, max_str_len=3))
    assert result.complete
    assert {p.outcome for p in result.paths} == {"return", "raise"}

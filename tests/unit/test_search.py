"""The coverage-guided search in CPython (``pathloom.search``): where the explored paths leave a
gap it finds inputs for it, each replayed before it becomes a test; shapes build only values of
the parameter's type, in the JSON value encoding the tests write."""

from __future__ import annotations

import enum
import random
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pathloom.cli import main
from pathloom.encoding.values import decode_input
from pathloom.search.seeds import module_pool
from pathloom.search.shapes import NotSearchable, Pool, shape_of
from tests.coverage_measure import branch_coverage

SOURCE = """
import hashlib


def bucket(s: str) -> str:
    digest = hashlib.md5(s.encode()).hexdigest()
    if digest.startswith("0"):
        return "zero"
    return "other"


def sign(n: int) -> str:
    if n < 0:
        return "negative"
    return "positive"


def apply(f: "Callable[[int], int]", s: str) -> int:
    if hashlib.md5(s.encode()).hexdigest() < "1":
        return f(1)
    return 0
"""


def _explore(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str, *extra: str) -> tuple[str, str]:
    source = tmp_path / "searched.py"
    source.write_text("from typing import Callable\n" + textwrap.dedent(SOURCE), encoding="utf-8")
    tests = tmp_path / f"test_{target}.py"
    main(["explore", f"{source}::{target}", "--tests", str(tests), "--timeout", "10", "--search-timeout", "2", *extra])
    out, _ = capsys.readouterr()
    return out, tests.read_text(encoding="utf-8")


def test_the_search_covers_a_branch_symbolic_execution_cannot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """md5 is not modelled: exploration stops at it; the search finds a str whose digest starts with 0."""
    out, text = _explore(tmp_path, capsys, "bucket")
    assert "search in CPython (2 s):" in out, out
    assert "def test_bucket_searched_" in text and "== 'zero'" in text, text
    assert "# what CPython does: an input the coverage-guided search found" in text
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_bucket.py")], capture_output=True, text=True)
    assert run.returncode == 0 and " failed" not in run.stdout, run.stdout


def test_no_search_where_the_paths_left_no_gap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, text = _explore(tmp_path, capsys, "sign")
    assert "search in CPython" not in out and "_searched_" not in text, out


def test_a_refused_function_still_gets_the_search_s_tests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A decorator pathloom refuses: no symbolic path, but the search in CPython covers both branches."""
    source = tmp_path / "decorated.py"
    source.write_text(
        "import functools\n\n\ndef logged(f):\n    @functools.wraps(f)\n    def inner(*args, **kwargs):\n        return f(*args, **kwargs)\n"
        "    inner.calls = 0\n    return inner\n\n\n@logged\ndef double(n: int) -> int:\n    if n > 5:\n        return n * 2\n    return n\n\n\n"
        "def other(n: int) -> int:\n    return n\n",
        encoding="utf-8",
    )
    tests = tmp_path / "test_decorated.py"
    main(["explore", str(source), "--tests", str(tests), "--search-timeout", "2"])
    out, err = capsys.readouterr()
    assert "(target double skipped)" in err and "search in CPython (2 s):" in out, (out, err)
    measured, _ = branch_coverage(tests, source, tmp_path)
    assert not [arc for arc in measured["missing_branches"] if arc[0] == 14], measured["missing_branches"]


def test_a_parameter_without_a_search_shape_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = _explore(tmp_path, capsys, "apply")
    assert "search in CPython: not run (apply: parameter f: values of" in out, out


class Color(enum.Enum):
    RED = 1
    BLUE = 2


@dataclass
class Point:
    x: int
    y: float


HINTS: list[tuple[object, type | tuple[type, ...]]] = [
    (int, int),
    (float, float),
    (str, str),
    (bool, bool),
    (list[int], list),
    (tuple[int, str], tuple),
    (tuple[int, ...], tuple),
    (set[str], set),
    (dict[str, list[int]], dict),
    (Optional[int], (int, type(None))),
    (Literal["a", "b"], str),
    (Color, Color),
    (Point, Point),
    (list[Point], list),
    (object, (int, str, type(None), list)),
]
NAMESPACE = {"Color": Color, "Point": Point}


@given(st.integers(0, 2**32), st.sampled_from(HINTS))
def test_shapes_build_values_of_the_type(seed: int, case: tuple[object, type | tuple[type, ...]]) -> None:
    hint, expected = case
    shape = shape_of(hint, NAMESPACE, "p")
    rng, pool = random.Random(seed), Pool([0, 7, -3], [2.5], ["km", "x"])
    value = shape.generate(rng, pool)
    for _ in range(3):
        assert isinstance(decode_input(value, NAMESPACE), expected), value
        value = shape.mutate(value, rng, pool)
    assert isinstance(decode_input(value, NAMESPACE), expected), value


@pytest.mark.parametrize("hint", [bytes, "Callable", list[bytes], frozenset[int]])
def test_types_without_a_shape_are_refused(hint: object) -> None:
    with pytest.raises(NotSearchable):
        shape_of(hint, NAMESPACE, "p")


def test_the_pool_holds_the_module_literals_and_their_neighbours() -> None:
    pool = module_pool('UNITS = {"km": 1000}\nif x < 10 and y == 2.5: pass\n', [{"s": "found", "n": 41}])
    assert {9, 10, 11, 999, 1000, 1001, 41} <= set(pool.ints) and 2.5 in pool.floats
    assert {"km", "found"} <= set(pool.strs)


def test_a_file_budget_is_shared_and_a_target_past_it_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--file-timeout``: the first target (a loop that never ends) gets half of 1 s; what is
    left after it is too little to start the second, which is reported as not explored."""
    import json

    source = tmp_path / "two.py"
    source.write_text("def spin(n: int) -> int:\n    while True:\n        n += 1\n\n\ndef inc(n: int) -> int:\n    return n + 1\n", encoding="utf-8")
    out = tmp_path / "two.json"
    assert main(["explore", str(source), "--file-timeout", "1", "--json", str(out), "--quiet"]) == 0
    spin, inc = json.loads(out.read_text())
    assert spin["status"] == "incomplete" and inc["status"] == "incomplete", (spin, inc)
    assert inc["error"] == "the --file-timeout of 1 s was spent" and inc["paths"] == []


VALIDATED = """
def greet(name: str, times: int = 1) -> str:
    if not isinstance(name, str):
        raise TypeError("name must be a str")
    if type(times) is not int:
        raise TypeError("times must be an int")
    return "hi " * times + name
"""


def test_a_type_check_of_the_code_is_covered_by_values_outside_the_annotations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "valid.py"
    source.write_text(textwrap.dedent(VALIDATED), encoding="utf-8")
    tests = tmp_path / "test_valid.py"
    main(["explore", str(source), "--tests", str(tests), "--search-timeout", "3"])
    capsys.readouterr()
    text = tests.read_text()
    for name, line in (("name", 4), ("times", 6)):
        said = f"# what CPython does: {name} is outside its annotation, for the code's own type check (found by the search)"
        assert f"{said}\n    with pytest.raises(TypeError):  # line {line}: observed in CPython" in text, text
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout


def test_outside_values_only_for_parameters_the_code_type_checks() -> None:
    from pathloom.search.validation import outside_shape, type_checked

    def f(a: int, b: str, c: float) -> None:
        if isinstance(a, bool) or type(b) != str:  # noqa: E721 - the form the search must recognize
            raise TypeError

    assert type_checked(f) == {"a", "b"}
    rng, pool = random.Random(0), Pool([1], [], ["x"])
    for hint, accepted in ((int, (int,)), (float, (int, float)), (str, (str,)), (list[int], (list,))):
        shape = outside_shape(hint)
        assert shape is not None
        values = [decode_input(shape.generate(rng, pool), {}) for _ in range(50)]
        assert not any(type(v) in accepted for v in values), (hint, values)
    assert outside_shape(Optional[int]) is None and outside_shape(Point) is None

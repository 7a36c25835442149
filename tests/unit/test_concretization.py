"""The trust defects: what CPython does, or a clear "cannot import" / concretized answer.

Each program below once got a wrong answer (a TypeError CPython never raises, a method object
for a property, ``Color.RED == 1`` taken as True) or an "unsupported" refusal for an operation
CPython can simply run. Every case is explored by both engines with ``--verify`` (every
reported input replayed in CPython) and checked against what CPython does.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source, refusal

ENGINES = tuple(engine_names())

DEFECTS = {
    # list repetition was taken for a TypeError
    "list_repetition": (
        """
        def f(pence: int) -> int:
            ways = [0] * (pence + 1)
            return len(ways)
        """,
        "f",
    ),
    # user __lt__ was ignored: TypeError bug reported
    "user_lt": (
        """
        class Money:
            def __init__(self, v: int) -> None:
                self.v = v
            def __lt__(self, other: "Money") -> bool:
                return self.v < other.v
        def f(a: int, b: int) -> bool:
            return Money(a) < Money(b)
        """,
        "f",
    ),
    # len() of an object with __len__: TypeError bug reported
    "user_len": (
        """
        class Box:
            def __init__(self, n: int) -> None:
                self.n = n
            def __len__(self) -> int:
                return self.n if self.n > 0 else 0
        def f(n: int) -> int:
            return len(Box(n))
        """,
        "f",
    ),
    # a property read returned the method object
    "property": (
        """
        class Box:
            def __init__(self, n: int) -> None:
                self.n = n
            @property
            def double(self) -> int:
                return 2 * self.n
        def f(n: int) -> int:
            return Box(n).double
        """,
        "f",
    ),
    # two lists compared: TypeError bug reported (CPython compares lexicographically)
    "list_order": (
        """
        def f(xs: list[int], ys: list[int]) -> bool:
            return xs < ys
        """,
        "f",
    ),
    # an Enum member compared as a plain class attribute: Color.RED == 1 predicted True
    "enum": (
        """
        from enum import Enum
        class Color(Enum):
            RED = 1
            GREEN = 2
        def f(x: int) -> bool:
            if x == 1:
                return Color.RED == 1
            return Color.RED == Color.RED
        """,
        "f",
    ),
    # constructs that were refused and now run in CPython on pinned values
    "sorted": (
        """
        def f(xs: list[int]) -> int:
            ys = sorted(xs)
            if ys and ys[0] < 0:
                return -1
            return 0
        """,
        "f",
    ),
    "str_method": (
        """
        def f(s: str) -> str:
            if s == "a":
                return s
            return s.title()
        """,
        "f",
    ),
    "true_division": (
        """
        def f(x: int) -> float:
            if x > 3:
                return x / 2
            return 0.0
        """,
        "f",
    ),
    "int_plus_float": (
        """
        def f(x: int) -> float:
            return x + 1.5
        """,
        "f",
    ),
    "module_import": (
        """
        import math
        def f(x: int) -> float:
            if x < 0:
                return -1.0
            return math.sqrt(x)
        """,
        "f",
    ),
    "computed_constants": (
        """
        LIMIT = 10 ** 3
        PRIMES = [2, 3, 5, 7]
        NAMES = {1: "one", 2: "two"}
        def f(k: int) -> str:
            if k in PRIMES and k < LIMIT:
                return "prime"
            if k in NAMES:
                return NAMES[k]
            return "?"
        """,
        "f",
    ),
    # super() was run in CPython outside its method: RuntimeError predicted
    "super": (
        """
        class Base:
            def __init__(self, size: int = 11) -> None:
                super().__init__()
                self.size = size
            def area(self) -> int:
                return self.size * 2
        class Child(Base):
            LIMIT = 8
            def __init__(self, k: int) -> None:
                super().__init__(self.LIMIT + k)
            def area(self) -> int:
                return super().area() + 1
        def f(k: int) -> int:
            if Child(k).area() > 20:
                return 1
            return 0
        """,
        "f",
    ),
    # iterators made by CPython are consumed per path (a zip shared by two paths was once
    # consumed by the first); a sentinel object keeps its identity through zip
    "iterators": (
        """
        EMPTY = object()
        def f(n: int) -> int:
            z = zip([1, 2, 3], [EMPTY, 5, EMPTY])
            first = next(z)
            total = 0 if first[1] is EMPTY else 100
            if n > 0:
                for a, b in z:
                    if b is not EMPTY:
                        total += a * b + n
            else:
                total -= next(z)[0]
            return total
        """,
        "f",
    ),
    "string_repetition": (
        """
        def f(s: str, n: int) -> str:
            return s * n
        """,
        "f",
    ),
}


def _write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / f"case_{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", sorted(DEFECTS))
def test_defect_programs_replay_in_cpython(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, engine: str) -> None:
    source, target = DEFECTS[case]
    path = _write(tmp_path, case, source)
    out = tmp_path / "out.json"
    code = main(["explore", f"{path}::{target}", "--engine", engine, "--verify", "--json", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code in (0, 1), err
    assert "all outcomes as predicted" in err
    result = json.loads(out.read_text())
    finished = [p for p in result["paths"] if p["outcome"] in ("return", "raise")]
    assert finished, "no path was explored to its end"
    assert not any(p["kind"] == "implicit" and p["exception"] == "TypeError" for p in finished), "a TypeError CPython does not raise"


def _explored(tmp_path: Path, case: str, engine: str, expected_exit: int = 0) -> dict:  # type: ignore[type-arg]
    """The JSON result of exploring a defect program (with the exit code expected)."""
    source, target = DEFECTS[case]
    path = _write(tmp_path, case, source)
    out = tmp_path / "out.json"
    assert main(["explore", f"{path}::{target}", "--engine", engine, "--json", str(out), "--quiet"]) == expected_exit
    return json.loads(out.read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize("engine", ENGINES)
def test_enum_member_is_not_its_value(tmp_path: Path, engine: str) -> None:
    returned = {p["inputs"]["x"] == 1: p["returned"] for p in _explored(tmp_path, "enum", engine)["paths"]}
    assert returned == {True: False, False: True}


@pytest.mark.parametrize("engine", ENGINES)
def test_list_repetition_is_symbolic_up_to_a_reported_cap(tmp_path: Path, engine: str) -> None:
    result = _explored(tmp_path, "list_repetition", engine, expected_exit=1)
    assert not result["complete"]
    cuts = [p for p in result["paths"] if p["outcome"] == "cut"]
    assert cuts and all("list repetition" in p["reason"] for p in cuts)
    raised = [(p["exception"], p["message"]) for p in result["paths"] if p["outcome"] == "raise"]
    assert raised == [("OverflowError", "cannot fit 'int' into an index-sized integer")]  # a count below -2**63
    assert not result["stats"]["concretizations"], "list repetition is modeled, not concretized"


@pytest.mark.parametrize("engine", ENGINES)
def test_concretization_is_reported_by_site(tmp_path: Path, engine: str) -> None:
    result = _explored(tmp_path, "str_method", engine)
    assert not result["complete"]
    assert list(result["stats"]["concretizations"]) == ["line 5: str.title()"]
    reasons = {p["reason"] for p in result["paths"] if p["outcome"] == "cut"}
    assert reasons == {"concretized: str.title() (more values than --max-concretizations)"}
    assert {p["cut"] for p in result["paths"] if p["outcome"] == "cut"} == {"concretization-limit"}
    upper = [p for p in result["paths"] if p["outcome"] == "return" and p["inputs"]["s"] != "a"]
    assert len(upper) == 4  # four pinned values of s (the default), each replayed


def test_max_concretizations_sets_the_values_per_site(tmp_path: Path) -> None:
    source, _ = DEFECTS["str_method"]
    path = _write(tmp_path, "meth3", source)
    out = tmp_path / "out.json"
    assert main(["explore", f"{path}::f", "--json", str(out), "--quiet", "--max-concretizations", "2"]) == 0
    result = json.loads(out.read_text())
    assert len([p for p in result["paths"] if p["outcome"] == "return" and p["inputs"]["s"] != "a"]) == 2


def test_generated_tests_check_sets_dicts_and_opaque_values(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = _write(
        tmp_path,
        "containers",
        """
        from enum import Enum
        class Color(Enum):
            RED = 1
        def s(x: int) -> set:
            return set([1, 2]) if x > 0 else set()
        def d(x: int) -> dict:
            return dict(a=1, b=x > 0)
        def c(x: int) -> Color:
            return Color.RED
        """,
    )
    tests = tmp_path / "test_containers.py"
    assert main(["explore", str(path), "--tests", str(tests), "--verify", "--quiet", "--all-paths"]) == 0
    text = tests.read_text()
    assert "== {1, 2}" in text and "== {'a': 1, 'b': True}" in text and "repr(" in text
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "5 passed" in run.stdout


def test_a_finite_domain_is_concretized_completely(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "fin",
        """
        def f(b: bool) -> str:
            return hex(b)
        """,
    )
    out = tmp_path / "out.json"
    assert main(["explore", f"{path}::f", "--json", str(out), "--quiet", "--verify"]) == 0
    result = json.loads(out.read_text())
    assert result["complete"], "both values of a bool were run: nothing is left"
    assert sorted(p["returned"] for p in result["paths"]) == ["0x0", "0x1"]


def test_iterating_again_after_a_loop_is_unsupported_not_restarted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(
        tmp_path,
        "twice",
        """
        def f(xs: list[int], ys: list[int]) -> int:
            z = zip(xs, ys)
            n = 0
            for a, b in z:
                n += a * b
            for a, b in z:
                n += 100
            return n
        """,
    )
    assert "unsupported: iterating again over an iterator a for loop took over" in refusal(path, "f", "dse", capsys)


def test_operations_that_change_an_opaque_object_are_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(
        tmp_path,
        "mut",
        """
        TABLE = {1: 2}
        def f(k: int) -> int:
            TABLE.clear()
            return k
        """,
    )
    assert "unsupported: an operation run in CPython changed a dict" in refusal(path, "f", "dse", capsys)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "import pandas_is_not_installed_here\ndef f(x: int) -> int:\n    return x\n",
            "cannot import module: ModuleNotFoundError: No module named 'pandas_is_not_installed_here'",
        ),
        ("class C:\n    X = UNDEFINED\ndef f(x: int) -> int:\n    return x\n", "cannot import module: NameError: name 'UNDEFINED' is not defined"),
        ("x = input()\ndef f(x: int) -> int:\n    return x\n", "cannot import module: EOFError: EOF when reading a line"),
    ],
)
def test_a_module_that_cannot_be_imported_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, message: str) -> None:
    path = tmp_path / "bad.py"
    path.write_text(source, encoding="utf-8")
    assert main(["explore", f"{path}::f", "--verify"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{path}: {message}"]


def test_a_sibling_module_is_imported_from_the_files_directory(tmp_path: Path) -> None:
    (tmp_path / "helper_consts.py").write_text("SCALE = 3\n", encoding="utf-8")
    path = _write(
        tmp_path,
        "uses_sibling",
        """
        from helper_consts import SCALE
        def f(x: int) -> int:
            if x * SCALE > 9:
                return 1
            return 0
        """,
    )
    out = tmp_path / "out.json"
    assert main(["explore", f"{path}::f", "--json", str(out), "--verify", "--quiet"]) == 0
    result = json.loads(out.read_text())
    assert result["complete"] and {p["returned"] for p in result["paths"]} == {0, 1}


def test_nondeterministic_functions_are_never_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(
        tmp_path,
        "rnd",
        """
        import random
        def f(p: int) -> int:
            return random.randint(1, p - 1)
        """,
    )
    assert "unsupported: random.Random.randint() (its answers change from one run to the next)" in refusal(path, "f", "dse", capsys)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_iterator_item_that_raises_raises_where_cpython_takes_it(tmp_path: Path, engine: str) -> None:
    # algorithms' sum_dig_pow: map() made its items while pathloom imported the result, and
    # the ValueError of int('-') crashed the analyser (exit 3)
    path = _write(
        tmp_path,
        "lazy",
        """
        def f(n: int) -> list:
            if n < 0:
                digits = map(int, str(n))
                return list(digits)
            return []
        """,
    )
    out = tmp_path / "out.json"
    assert main(["explore", f"{path}::f", "--engine", engine, "--json", str(out), "--verify", "--quiet"]) == 1
    raised = {(p["exception"], p["line"], p["message"]) for p in json.loads(out.read_text())["paths"] if p["outcome"] == "raise"}
    assert raised == {("ValueError", 5, "invalid literal for int() with base 10: '-'")}


def test_the_replay_compares_the_messages_of_implicit_exceptions() -> None:
    from pathloom.replay import Observed, mismatch
    from pathloom.results import PathResult

    path = PathResult("raise", {"x": 0}, exception="IndexError", message="list index out of range", line=3, kind="implicit")
    assert mismatch(path, Observed("raise", "IndexError", 3, message="list index out of range")) is None
    why = mismatch(path, Observed("raise", "IndexError", 3, message="string index out of range"))
    assert why is not None and "string index out of range" in why
    assert mismatch(path, Observed("raise", "IndexError", 3, message="<object at 0x7f00aa11>")) is None  # not deterministic


@pytest.mark.parametrize("engine", ENGINES)
def test_comparison_and_arithmetic_dunders_of_analysed_classes_are_called(tmp_path: Path, engine: str) -> None:
    # dispatched to the analysed methods (no concretization): complete, one path each
    path = tmp_path / "dd.py"  # the file's folder first on sys.path must not shadow pathloom's 'dd'
    path.write_text(
        textwrap.dedent("""
        class Money:
            def __init__(self, v: int) -> None:
                self.v = v
            def __lt__(self, other: "Money") -> bool:
                return self.v < other.v
            def __add__(self, other: "Money") -> "Money":
                return Money(self.v + other.v)
        def f(a: int, b: int) -> int:
            if Money(a) > Money(b):
                return (Money(a) + Money(b)).v
            return 0
        """),
        encoding="utf-8",
    )
    out = tmp_path / "out.json"
    assert main(["explore", f"{path}::f", "--engine", engine, "--json", str(out), "--verify", "--quiet"]) == 0
    result = json.loads(out.read_text())
    assert result["complete"] and not result["stats"]["concretizations"]
    assert len([p for p in result["paths"] if p["outcome"] == "return"]) == 2


def test_the_text_report_names_the_operations_run_in_cpython(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, _ = DEFECTS["str_method"]
    path = _write(tmp_path, "shown", source)
    assert main(["explore", f"{path}::f"]) == 0
    assert "  run in CPython on pinned values (concretized): line 5: str.title() (x1)\n" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("source", "target", "what"),
    [
        (
            "def deco(f):\n    return f\nclass A:\n    @deco\n    def s(self, x: int) -> int:\n        return x\n",
            "A.s",
            ":5:5: unsupported: method with a decorator (@deco) as a target",
        ),
        (
            "from dataclasses import dataclass\n@dataclass(slots=True)\nclass P:\n    x: int\n    def norm(self) -> int:\n        return abs(self.x)\n",
            "P.norm",
            ":3:1: unsupported: a method of class P, which is not analysed",
        ),
    ],
)
def test_a_method_the_loader_does_not_list_is_one_unsupported_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, target: str, what: str
) -> None:
    path = tmp_path / "case_targets.py"
    path.write_text(source, encoding="utf-8")
    assert main(["explore", f"{path}::{target}"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{path}{what}")


@pytest.mark.parametrize("engine", ENGINES)
def test_messages_about_an_iterator_name_its_real_type(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str) -> None:
    """Regression: an iterator handed to an operation run in CPython is a counting wrapper,
    whose type CPython's message named (``'CountingIterator' object is not subscriptable``:
    a replay mismatch, exit 3)."""
    path = _write(
        tmp_path,
        "iterator_type",
        """
        def f(k: int) -> object:
            z = zip([1], [2])
            if k > 0:
                return z[k]
            if k < 0:
                return z[k:]
            return len(z)
        """,
    )
    out = tmp_path / "out.json"
    code = main(["explore", f"{path}::f", "--engine", engine, "--verify", "--json", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "all outcomes as predicted" in err, err
    messages = {p["message"] for p in json.loads(out.read_text())["paths"] if p["outcome"] == "raise"}
    assert messages == {"'zip' object is not subscriptable", "object of type 'zip' has no len()"}


@pytest.mark.parametrize("engine", engine_names())
def test_a_missing_attribute_of_an_int_or_str_is_cpythons_error_without_running_it(tmp_path: Path, engine: str) -> None:
    """``head.next`` of an int (an ``object`` input) or ``s.nope`` of a str raises the same
    AttributeError whatever the value: modelled, nothing pinned; ``head.real`` (an attribute
    int has) still runs in CPython."""
    path = tmp_path / "attrs.py"
    path.write_text(
        textwrap.dedent("""
        def f(head: object | None, s: str, b: bool) -> int:
            if s.startswith("x") and b:
                return s.nope
            if not head or not head.next:
                return 1
            return head.real
    """),
        encoding="utf-8",
    )
    out = tmp_path / "out.json"
    assert main(["explore", f"{path}::f", "--engine", engine, "--json", str(out), "--verify", "--quiet"]) == 1
    result = json.loads(out.read_text())
    assert not result["stats"]["concretizations"]
    raised = {(p["exception"], p["message"]) for p in result["paths"] if p["outcome"] == "raise"}
    assert raised == {("AttributeError", "'str' object has no attribute 'nope'"), ("AttributeError", "'int' object has no attribute 'next'")}


LITERAL_WORDS = """
def command(s: str) -> int:
    word = s.casefold()
    if word == "stop":
        return 1
    if word == "go":
        return 2
    if word == "a-word-longer-than-the-bound":
        return 3
    return 0
"""


@pytest.mark.parametrize("engine", engine_names())
def test_concretized_operands_try_the_modules_literals_first(tmp_path: Path, engine: str) -> None:
    """``s.casefold()`` runs in CPython on pinned values of ``s``; arbitrary values ('A', 'B')
    never reach ``== "stop"``. The module's literals are tried first, so both branches are
    covered; a literal longer than ``--max-str-len`` is no input and is skipped."""
    result = explore_source(tmp_path, LITERAL_WORDS, "words.py", "command", engine)
    returned = {p["returned"]: p["inputs"]["s"] for p in result["paths"] if p["outcome"] == "return"}  # type: ignore[union-attr,index]
    assert returned.get(1) == "stop" and returned.get(2) == "go" and 0 in returned
    assert 3 not in returned


ROUNDED = """
def rounded(x: float) -> int:
    return round(x)
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_pinned_float_tries_inf_nan_and_negative_zero_first(tmp_path: Path, engine: str) -> None:
    """``round(x)`` runs in CPython: the infinities and NaN, where it raises, are tried before
    arbitrary floats (which all return), so both errors are found and replayed."""
    result = explore_source(tmp_path, ROUNDED, "rounded.py", "rounded", engine)
    raised = {p["exception"] for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr,index]
    assert raised == {"OverflowError", "ValueError"}


ENCODED = """
def encoded(s: str) -> int:
    data = s.encode("utf-8")
    if len(data) != len(s):
        raise ValueError("not ASCII")
    return len(data)
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_pinned_str_tries_a_character_past_ascii(tmp_path: Path, engine: str) -> None:
    """``s.encode()`` runs in CPython: a value with a character past ASCII, where the encoded
    length differs, is tried besides the literals, so the ValueError is found and replayed."""
    result = explore_source(tmp_path, ENCODED, "encoded.py", "encoded", engine)
    raised = [p["inputs"]["s"] for p in result["paths"] if p["outcome"] == "raise"]  # type: ignore[union-attr,index]
    assert raised and all(not s.isascii() for s in raised)  # type: ignore[attr-defined]

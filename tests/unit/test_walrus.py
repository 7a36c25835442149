"""The assignment expression ``name := value`` (``lowering.expressions.expr_NamedExpr``): the
value, bound to ``name`` in the function's scope, in every place Python allows it: ``if`` and
``while`` conditions, comprehension conditions and items (where it binds in the enclosing
function, PEP 572, and stays bound after the comprehension), ``and``/``or`` operands (bound
only when evaluated), lambdas (bound in the lambda), call arguments, and for a variable a
nested function reads (its cell). A walrus in a nested function's default (bound when the
``def`` runs, which the analysis does not model) is refused with one line. Every engine; outcomes compared with CPython's own run of the
same source, every reported input replayed by ``--verify``."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.encoding.values import encode_python
from pathloom.engines.registry import engine_names
from pathloom.frontend.module import parse_module
from tests.unit.verified import explore_source, refusal

ENGINES = engine_names()

SOURCE = """
def conditions(xs: list[int], k: int) -> int:
    total = 0
    if (n := len(xs)) > 1:
        total += n
    i = 0
    while (j := i + k) < 3 and i < 4:
        i = j if j > i else i + 1
    return total * 100 + i * 10 + j


def comprehensions(xs: list[int]) -> object:
    ys = [y for x in xs if (y := x * 2) > 2]
    last = y if xs else -1
    zs = {(z := x + 1): z for x in xs}
    pairs = [(w := a, w + b) for a in xs for b in xs if a < b]
    return (ys, last, zs, pairs, w if pairs else None)


def short_circuit(a: int, b: int) -> object:
    if a > 0 and (s := a + b) > 5:
        return s
    if a < -1 or (t := b) > 2:
        return a
    return t


def unbound(a: int) -> int:
    if a > 0 or (u := a) > 0:
        return u
    return 0


def any_all(xs: list[int]) -> object:
    if any((hit := x) > 3 for x in xs):
        return hit
    return sum((acc := x) for x in xs)


def closures(a: int) -> object:
    f = lambda v: (q := v + 1) * q
    def h() -> int:
        return d
    if (d := a - 1) > 0:
        return (f(a), h(), [(c := b * 3) for b in [a, d]], c)
    return (f(d), h())


def arguments(a: int) -> object:
    return (max((m := a), 2), m, str(n := a * 2), n)
"""

TARGETS = ["conditions", "comprehensions", "short_circuit", "unbound", "any_all", "closures", "arguments"]


def _cpython(target: str, inputs: dict[str, object]) -> dict[str, object]:
    space: dict[str, object] = {}
    exec(compile(SOURCE, "walrus.py", "exec"), space)
    try:
        return {"outcome": "return", "returned": encode_python(space[target](**inputs))}  # type: ignore[operator]
    except Exception as exc:  # noqa: BLE001 - the outcome compared
        return {"outcome": "raise", "exception": type(exc).__name__, "message": str(exc)}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", TARGETS)
def test_walrus_is_cpythons(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "walrus.py", target, engine, "--max-list-len", "3")
    assert result["complete"], target
    paths: list[dict[str, object]] = result["paths"]  # type: ignore[assignment]
    assert len(paths) > 1
    for path in paths:
        inputs: dict[str, object] = path["inputs"]  # type: ignore[assignment]
        expected = _cpython(target, inputs)
        assert {k: path.get(k) for k in expected} == expected, (target, inputs)


def test_the_table_has_the_cases_it_says() -> None:
    """The cases above do what their names say in CPython: an unbound name is an error."""
    assert _cpython("unbound", {"a": 1}) == {
        "outcome": "raise",
        "exception": "UnboundLocalError",
        "message": "cannot access local variable 'u' where it is not associated with a value",
    }
    assert _cpython("comprehensions", {"xs": [1, 2]})["returned"] == encode_python(([4], 4, {2: 2, 3: 3}, [(1, 3)], 1))
    assert _cpython("any_all", {"xs": [1, 5, 7]})["returned"] == 5


@pytest.mark.parametrize("engine", ENGINES)
def test_walrus_in_a_nested_default_is_refused(tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    """CPython binds ``b`` when the lambda is made; the analysis reads a default only at a call."""
    path = tmp_path / "defaults.py"
    path.write_text("def wd(x: int) -> int:\n    f = lambda a=(b := 3): a\n    return b + x\n", encoding="utf-8")
    assert refusal(path, "wd", engine, capsys) == f"{path}:2:19: unsupported: assignment expression in a default value of a nested function or lambda"


def test_rebinding_a_comprehension_variable_is_cpythons_syntax_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rebind.py"
    path.write_text("def rb(xs: list[int]) -> list[int]:\n    return [[(y := 1) for z in xs] for y in xs]\n", encoding="utf-8")
    assert main(["explore", f"{path}::rb", "--quiet"]) == 2
    assert "SyntaxError: assignment expression cannot rebind comprehension iteration variable 'y'" in capsys.readouterr().err


@pytest.mark.parametrize("engine", ENGINES)
def test_a_module_level_walrus_binds_a_global(tmp_path: Path, engine: str) -> None:
    """``X = (Y := 3)`` at module level binds ``Y`` too: its value is the real module's (and
    without the real module the name is opaque, never an undefined builtin)."""
    source = "X = (Y := 3) + 1\n\n\ndef g(a: int) -> int:\n    if a > Y:\n        return X\n    return a\n"
    result = explore_source(tmp_path, source, "modw.py", "g", engine)
    paths: list[dict[str, object]] = result["paths"]  # type: ignore[assignment]
    assert len(paths) == 2
    for path in paths:
        a = path["inputs"]["a"]  # type: ignore[index]
        assert path["returned"] == (4 if a > 3 else a)
    assert "Y" in parse_module(source, "modw.py").opaque

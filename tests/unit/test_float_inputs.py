"""``float`` inputs (``semantics.floats``, ``terms``' FLOAT sort): the solver finds NaN,
infinities and -0.0 where a branch needs them, and every reported input is replayed in
CPython (``explore_verified``: a mismatch, including a float's sign or a NaN, fails), in
both engines."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pathloom.frontend.input_types import parse_input_type
from tests.unit.verified import copy_program, explore_verified
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())


@pytest.fixture
def program(tmp_path: Path) -> Path:
    return copy_program("float_inputs.py", tmp_path)


def _paths(result: dict, outcome: str) -> list[dict]:  # type: ignore[type-arg]
    return [p for p in result["paths"] if p["outcome"] == outcome]


def _returns(result: dict) -> list[object]:  # type: ignore[type-arg]
    return [p.get("returned") for p in _paths(result, "return")]


def _raised(result: dict) -> set[tuple[str, str]]:  # type: ignore[type-arg]
    return {(p["exception"], p["message"]) for p in _paths(result, "raise")}


def _float(value: object) -> float:
    return float(value["$float"]) if isinstance(value, dict) else float(value)  # type: ignore[arg-type,index]


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("float", "float"),
        ("list[float]", ("list", "float")),
        ("Optional[float]", ("optional", "float")),
        ("tuple[float, int]", ("tuple", ("float", "int"))),
        ("list[list[float]]", ("list", ("list", "float"))),
        ("set[float]", None),
        ("dict[float, int]", None),
        ("dict[str, float]", ("dict", ("str", "float"))),
    ],
)
def test_shapes(text: str, shape: object) -> None:
    assert parse_input_type(text) == shape


@pytest.mark.parametrize("engine", ENGINES)
def test_nan_and_infinity_are_found(program: Path, engine: str) -> None:
    result = explore_verified(program, "is_nan", engine)
    assert result["complete"] and sorted(_returns(result)) == ["finite", "inf", "nan"]  # type: ignore[type-var]
    for p in _paths(result, "return"):
        x = _float(p["inputs"]["x"])
        # x == x + 1: an infinity, or a finite float so large that adding 1 rounds back to it
        assert {"nan": math.isnan(x), "inf": not math.isnan(x) and x == x + 1, "finite": x != x + 1}[p["returned"]]


@pytest.mark.parametrize("engine", ENGINES)
def test_division_by_signed_zero(program: Path, engine: str) -> None:
    result = explore_verified(program, "reciprocal_sign", engine)
    assert result["complete"] and sorted(_returns(result)) == [-1, 1]  # type: ignore[type-var]
    assert _raised(result) == {("ZeroDivisionError", "float division by zero")}
    assert all(_float(p["inputs"]["x"]) == 0.0 for p in _paths(result, "raise"))


@pytest.mark.parametrize("engine", ENGINES)
def test_minus_zero_is_an_input(program: Path, engine: str) -> None:
    result = explore_verified(program, "negative_zero", engine)
    found = [p for p in _paths(result, "return") if p["returned"] == "minus zero"]
    assert found and math.copysign(1.0, _float(found[0]["inputs"]["x"])) == -1.0


@pytest.mark.parametrize("engine", ENGINES)
def test_int_float_comparison_is_exact(program: Path, engine: str) -> None:
    result = explore_verified(program, "exact_compare", engine)
    assert result["complete"] and "equal" in _returns(result) and "int above" in _returns(result)
    for p in _paths(result, "return"):
        if p["returned"] == "equal":
            assert p["inputs"]["n"] == 2**53  # 2**53 + 1 == 2.0**53 is False in CPython


@pytest.mark.parametrize("engine", ENGINES)
def test_int_conversion_errors(program: Path, engine: str) -> None:
    result = explore_verified(program, "to_int", engine)
    assert _raised(result) == {
        ("ValueError", "cannot convert float NaN to integer"),
        ("OverflowError", "cannot convert float infinity to integer"),
    }
    assert result["complete"] and all(isinstance(r, int) for r in _returns(result))


@pytest.mark.parametrize("engine", ENGINES)
def test_sqrt_domain(program: Path, engine: str) -> None:
    result = explore_verified(program, "root", engine)
    assert result["complete"] and _raised(result) == {("ValueError", "math domain error")}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["mixed", "total", "maybe", "pair"])
def test_containers_and_mixed_arithmetic(program: Path, engine: str, target: str) -> None:
    result = explore_verified(program, target, engine, "--max-list-len", "2")
    assert _paths(result, "return")
    assert result["complete"] or target == "mixed"  # int * float may exceed the solver: unknown, never wrong

"""Input objects with ``Optional[int]`` / ``str | None`` fields (``frontend.fields``:
``("optional", scalar)``; ``semantics.input_heap``: a ``MaybeNone`` in the record, a split on read).
Every input is replayed in CPython (``explore_verified``), in both engines and all three heap
models; aliasing makes the two fields one."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.frontend.fields import field_shape
from tests.unit.verified import copy_program, explore_verified
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())
HEAPS = ("pose", "lazier", "lazy")


@pytest.fixture
def program(tmp_path: Path) -> Path:
    return copy_program("optional_fields.py", tmp_path)


def _returns(result: dict) -> set[object]:  # type: ignore[type-arg]
    return {p.get("returned") for p in result["paths"] if p["outcome"] == "return"}


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("int | None", ("optional", "int")),
        ("Optional[str]", ("optional", "str")),
        ("'Optional[bool]'", ("optional", "bool")),
        ("None | object", ("optional", "int")),
        ("int", "int"),
        ("list[int] | None", None),
    ],
)
def test_field_shapes(text: str, shape: object) -> None:
    assert field_shape(text, ()) == shape


@pytest.mark.parametrize("heap", HEAPS)
@pytest.mark.parametrize("engine", ENGINES)
def test_none_or_value_and_aliasing(program: Path, engine: str, heap: str) -> None:
    result = explore_verified(program, "keyed_same", engine, "--heap", heap)
    assert result["complete"] and _returns(result) >= {0, 1, 2, 10}
    aliased = [p for p in result["paths"] if p["inputs"]["b"] == {"$ref": 1}]  # type: ignore[union-attr,index]
    # a is b: a.key == b.key + 1 is impossible, so -100 is never returned; 10 only when a is b
    assert aliased and all(p["returned"] == 10 for p in aliased) and -100 not in _returns(result)


@pytest.mark.parametrize("heap", HEAPS)
@pytest.mark.parametrize("engine", ENGINES)
def test_writing_none_through_an_alias(program: Path, engine: str, heap: str) -> None:
    result = explore_verified(program, "relabel", engine, "--heap", heap)
    assert result["complete"]
    gone = [p for p in result["paths"] if p.get("returned") == "gone"]  # type: ignore[union-attr]
    # b.label is None either from the start or because b is a, whose label was just cleared
    assert any(p["inputs"]["b"] == {"$ref": 1} for p in gone)  # type: ignore[index]


@pytest.mark.parametrize("engine", ENGINES)
def test_returned_objects_show_the_written_none(program: Path, engine: str) -> None:
    result = explore_verified(program, "set_key", engine)
    keys = {p["returned"]["fields"]["key"] for p in result["paths"] if p["inputs"]["b"] == {"$ref": 1}}  # type: ignore[index,union-attr]
    assert None in keys and any(isinstance(k, int) and k > 0 for k in keys)


@pytest.mark.parametrize("engine", ENGINES)
def test_through_a_reference_field(program: Path, engine: str) -> None:
    result = explore_verified(program, "succ_key", engine)
    assert result["complete"] and -1 in _returns(result) and len(_returns(result)) >= 2

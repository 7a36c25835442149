"""Inputs of nested types (``frontend.input_types``): lists of any supported type, fixed
tuples, nested lists. Every exploration is replayed in CPython (``--verify``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.frontend.input_types import parse_input_type

from .verified import explore_source, explore_verified
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    from typing import Any, List, Optional, Tuple, Union


    def words(ws: list[str]) -> int:
        n = 0
        for w in ws:
            if w == "ab":
                n += 1
        return n


    def grid(g: List[List[int]]) -> int:
        if len(g) > 1 and len(g[1]) > 0 and g[1][0] == 7:
            return 1
        return 0


    def pair(p: Tuple[int, str]) -> str:
        if p[0] > 3:
            return p[1]
        return "x"


    def any_length(t: tuple[int, ...], names: Tuple[str, ...]) -> int:
        if len(t) > 2 and t[0] < t[2]:
            return t[1]
        return sum(t) + len(names)


    def flags(bs: list[bool]) -> int:
        return sum(1 for b in bs if b)


    def bare(xs: list) -> int:
        return len(xs)


    def optional(x: Optional[int], y: int | None, zs: Union[list[int], None]) -> int:
        if x is None:
            return 0
        if y is not None and y > x:
            return 2
        if zs:
            return zs[0]
        return x + 1


    def none_bug(x: Optional[int]) -> int:
        return x + 1


    def untyped(key: object, values: list[Any], default: object | None) -> int:
        if default is None:
            return -1
        if key in values:
            return len(values)
        return key + default
""")


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("int", "int"),
        ("list[str]", ("list", "str")),
        ("List[List[int]]", ("list", ("list", "int"))),
        ("tuple[int,str]", ("tuple", ("int", "str"))),
        ("list", ("list", "int")),
        ("Optional[int]", ("optional", "int")),
        ("int|None", ("optional", "int")),
        ("None|list[int]", ("optional", ("list", "int"))),
        ("Union[str,None]", ("optional", "str")),
        ("list[Optional[int]]", ("list", "int")),
        ("tuple[int,...]", ("vartuple", "int")),
        ("list[tuple[int,...]]", ("list", ("tuple", ("int", "int")))),  # items as pairs, reported as untried
        ("Tuple[str, ...]", ("vartuple", "str")),
        ("dict[str,int]", ("dict", ("str", "int"))),
        ("dict", ("dict", ("str", "int"))),
        ("Dict[int, list[int]]", ("dict", ("int", ("list", "int")))),
        ("dict[list[int],int]", None),
        ("Optional[dict[str,int]]", ("optional", ("dict", ("str", "int")))),
        ("float", "float"),
        ("complex", None),
        ("object", "int"),
        ("Any", "int"),
        ("typing.Any", "int"),
        ("list[Any]", ("list", "int")),
        ("object|None", ("optional", "int")),
        ("dict[Any,list[Any]]", ("dict", ("int", ("list", "int")))),
        ("Iterable[Any]|None", ("optional", ("list", "int"))),
        ("Sequence[str]", ("list", "str")),
        ("collections.abc.Iterable[int]", ("list", "int")),
        ("typing.Collection", ("list", "int")),
        ("Mapping[str,int]", ("dict", ("str", "int"))),
        ("typing.MutableMapping[int,list[str]]", ("dict", ("int", ("list", "str")))),
        ("collections.abc.Mapping", ("dict", ("str", "int"))),
    ],
)
def test_annotations_parse_to_shapes(text: str, shape: object) -> None:
    assert parse_input_type(text) == shape


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["words", "grid", "pair", "any_length", "flags", "bare", "optional", "none_bug", "untyped"])
def test_nested_inputs_are_symbolic_and_replay(tmp_path: Path, engine: str, target: str) -> None:
    path = tmp_path / "inputs.py"
    path.write_text(SOURCE, encoding="utf-8")
    result = explore_verified(path, target, engine)
    assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]


def test_inputs_are_reported_in_their_types(tmp_path: Path) -> None:
    path = tmp_path / "inputs.py"
    path.write_text(SOURCE, encoding="utf-8")
    grid = explore_verified(path, "grid", "dse")
    assert [[7]] == [row for p in grid["paths"] if p["returned"] == 1 for row in p["inputs"]["g"][1:]]  # type: ignore[union-attr,index]
    lengths = explore_verified(path, "any_length", "dse", "--max-list-len", "3")
    assert {len(p["inputs"]["t"]["$tuple"]) for p in lengths["paths"]} == {0, 1, 2, 3}  # type: ignore[union-attr,index]
    pair = explore_verified(path, "pair", "dse")
    assert all(set(p["inputs"]["p"]) == {"$tuple"} for p in pair["paths"])  # type: ignore[union-attr,index]


@pytest.mark.parametrize("engine", ENGINES)
def test_optional_inputs_take_none_too(tmp_path: Path, engine: str) -> None:
    path = tmp_path / "inputs.py"
    path.write_text(SOURCE, encoding="utf-8")
    bug = explore_verified(path, "none_bug", engine)
    raised = [p for p in bug["paths"] if p["outcome"] == "raise"]  # type: ignore[union-attr]
    assert [(p["inputs"]["x"], p["message"]) for p in raised] == [(None, "unsupported operand type(s) for +: 'NoneType' and 'int'")]
    optional = explore_verified(path, "optional", engine)
    assert {p["returned"] for p in optional["paths"]} == {0, 1, 2} | ({p["inputs"]["zs"][0] for p in optional["paths"] if p["inputs"]["zs"]})  # type: ignore[union-attr,index]


def test_other_input_types_are_one_unsupported_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "complexes.py"
    path.write_text("def f(x: complex) -> int:\n    return 0\n", encoding="utf-8")
    assert main(["explore", f"{path}::f"]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err
        == f"{path}:1:7: unsupported: input of type complex (supported: int, bool, str, float, object and Any as int, list[T], tuple[T1, ...], tuple[T, ...], set[T], dict[K, V], analysed classes, unions of these)"
    )


UNTYPED_FIELD = """\
from typing import Optional


class Node:
    def __init__(self, val: object, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next


def second(head: Node) -> object:
    if head.next is None:
        return head.val
    return head.next.val
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_object_fields_are_int_inputs(tmp_path: Path, engine: str) -> None:
    """A field annotated ``object`` (through ``__init__``) holds an int, as an ``object`` parameter."""
    path = tmp_path / "untyped_field.py"
    path.write_text(UNTYPED_FIELD, encoding="utf-8")
    result = explore_verified(path, "second", engine)
    assert result["complete"] and len(result["paths"]) == 2  # type: ignore[arg-type]
    assert all(type(p["returned"]) is int for p in result["paths"])  # type: ignore[union-attr,index]


VARIABLE_TUPLES = """
def far(points: list[tuple[float, ...]], limit: float) -> int:
    count = 0
    for p in points:
        if p[0] + p[1] > limit:
            count += 1
    return count
"""


@pytest.mark.parametrize("engine", engine_names())
def test_items_of_any_length_tuple_type_are_explored_as_pairs_and_said_so(tmp_path: Path, engine: str) -> None:
    """``list[tuple[float, ...]]`` (algorithms' KDTree) was refused whole; its items are now
    pairs, a length of the type, and the report says the other lengths were not tried."""
    result = explore_source(tmp_path, VARIABLE_TUPLES, "points.py", "far", engine, "--max-list-len", "2", "--timeout", "20")
    assert result["untried"] == ["points: items of type tuple[float, ...] explored as pairs only (other lengths not tried)"]
    assert not result["complete"] and {p["returned"] for p in result["paths"] if p["outcome"] == "return"} >= {0, 1}  # type: ignore[union-attr]
    assert all(len(item["$tuple"]) == 2 for p in result["paths"] for item in p["inputs"]["points"])  # type: ignore[index]

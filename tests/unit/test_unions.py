"""Union inputs (``frontend.input_types``): a parameter of type ``A | B`` takes a value of
each modelled member, one per path; members pathloom does not model, and the other members
of a union inside a container, are reported untried and make the exploration incomplete.
Every input is replayed in CPython (``--verify``)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.frontend.input_types import input_type

from .verified import explore_source
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    from fractions import Fraction
    from typing import Optional, Union


    def kind(x: int | float | Fraction | None) -> str:
        if x is None:
            return "none"
        if isinstance(x, float):
            if x != x:
                return "nan"
            return "float"
        if x > 3:
            return "big"
        return "int"


    def name(v: Union[int, str]) -> str:
        if isinstance(v, str):
            return v + "!"
        return "n" if v < 0 else "p"


    def maybe(d: Optional[dict[str, int]], s: set[int] | None) -> int:
        if d is None:
            return -1
        if s and 2 in s:
            return 2
        return len(d)


    def sized(v: list[int] | str | tuple[int, ...]) -> int:
        if isinstance(v, tuple):
            return -len(v)
        return len(v)


    def first(xs: list[int | float]) -> int:
        if xs and isinstance(xs[0], float):
            return 5
        if xs and xs[0] > 2:
            return 1
        return 0
""")


@pytest.mark.parametrize(
    ("text", "shape", "untried"),
    [
        ("int|float", ("union", ("int", "float")), ()),
        ("int | float | Fraction | None", ("optional", ("union", ("int", "float"))), ("Fraction not tried (not modelled)",)),
        ("Union[list[int], str]", ("union", (("list", "int"), "str")), ()),
        ("Optional[Union[int, str]]", ("optional", ("union", ("int", "str"))), ()),
        ("dict[str, list[str]] | None", ("optional", ("dict", ("str", ("list", "str")))), ()),
        ("list[int | float]", ("list", "int"), ("items of type int | float explored as int only (float not tried)",)),
        ("list[Optional[str]]", ("list", "str"), ("items of type Optional[str] explored as str only (None not tried)",)),
        ("Fraction | complex", None, ()),
        ("int | int", "int", ()),
    ],
)
def test_unions_parse_to_shapes_and_name_what_is_not_tried(text: str, shape: object, untried: tuple[str, ...]) -> None:
    parsed = input_type(text)
    assert (parsed.shape, parsed.untried) == (shape, untried)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_member_of_a_union_is_taken(tmp_path: Path, engine: str) -> None:
    kinds = explore_source(tmp_path, SOURCE, "unions.py", "kind", engine)
    assert {p["returned"] for p in kinds["paths"]} == {"none", "nan", "float", "big", "int"}  # type: ignore[union-attr]
    assert not kinds["complete"] and kinds["untried"] == ["x: Fraction not tried (not modelled)"]
    names = explore_source(tmp_path, SOURCE, "unions.py", "name", engine)
    assert {p["returned"] for p in names["paths"]} == {"!", "n", "p"} and names["complete"]  # type: ignore[union-attr]
    maybe = explore_source(tmp_path, SOURCE, "unions.py", "maybe", engine, "--max-list-len", "2", "--max-dict-len", "2")
    assert {p["returned"] for p in maybe["paths"]} == {-1, 0, 1, 2}  # type: ignore[union-attr]
    sized = explore_source(tmp_path, SOURCE, "unions.py", "sized", engine, "--max-list-len", "2")
    assert {p["returned"] for p in sized["paths"]} >= {0, -1, -2}  # type: ignore[union-attr]
    kinds_of_v = {type(p["inputs"]["v"]).__name__ for p in sized["paths"]}  # type: ignore[union-attr,index]
    assert kinds_of_v == {"list", "str", "dict"}  # {"$tuple": [...]} for the tuples


@pytest.mark.parametrize("engine", ENGINES)
def test_a_union_inside_a_list_takes_its_first_member_and_says_so(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "unions.py", "first", engine)
    assert {p["returned"] for p in result["paths"]} == {0, 1}  # type: ignore[union-attr]
    assert not result["complete"]
    assert result["untried"] == ["xs: items of type int | float explored as int only (float not tried)"]


def test_reach_does_not_call_a_line_unreachable_when_input_types_were_tried_in_part(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "unions.py"
    path.write_text(SOURCE, encoding="utf-8")
    line = next(i for i, text in enumerate(SOURCE.splitlines(), 1) if "return 5" in text)
    out = tmp_path / "reach.json"
    assert main(["reach", f"{path}::first", "--line", str(line), "--json", str(out)]) == 0
    [verdict] = json.loads(out.read_text())["targets"]
    assert verdict["verdict"] == "unknown" and "float not tried" in verdict["reason"]


def test_the_text_report_names_what_was_not_tried(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "unions.py"
    path.write_text(SOURCE, encoding="utf-8")
    assert main(["explore", f"{path}::kind"]) == 0
    out = capsys.readouterr().out
    assert "input type tried in part: x: Fraction not tried (not modelled)" in out
    assert "INCOMPLETE" in out

"""Mapping and class patterns of ``match`` (``lowering/matching.py``, ``semantics/patterns.py``)
in every engine: ``{"k": p, **rest}`` as CPython's ``MATCH_MAPPING``/``MATCH_KEYS`` (a
``Mapping`` test, the length, every lookup before any sub-pattern, a duplicate key's
``ValueError``, ``**rest`` a new dict in the subject's order), and ``C(p, a=q)`` as
``MATCH_CLASS`` (``isinstance``, ``__match_args__`` of dataclasses and of the code's own
classes, the builtins that match themselves, a missing attribute: no match, CPython's
TypeErrors). Every input is replayed in CPython (``--verify``) and each path's outcome is
compared with CPython's on the same input; the forms pathloom cannot know are refused with
one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.encoding.values import decode_inputs
from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source, refusal

SOURCE = """
from collections import defaultdict
from dataclasses import dataclass
from typing import Optional


class K:
    ONE = 1
    LIST = [1]


@dataclass
class Point:
    x: int
    y: int


class Vec:
    __match_args__ = ("a", "b")

    def __init__(self, a: int, b: int) -> None:
        self.a = a
        self.b = b


class Plain:
    def __init__(self, a: int) -> None:
        self.a = a


class Node:
    def __init__(self, val: int, next: Optional["Node"]) -> None:
        self.val = val
        self.next = next


class Prop:
    def __init__(self, a: int) -> None:
        self.a = a

    @property
    def double(self) -> int:
        return self.a * 2


def maps(x: int, s: str) -> int:
    d = {s: x, "b": 2}
    match d:
        case {"a": 0}:
            return 0
        case {"a": v, **rest}:
            return v * 10 + len(rest)
        case {"b": 2, **rest} if len(rest) == 1:
            return 1000 + len(rest)
        case {}:
            return -1
    return -2


def dicts(d: dict[str, int]) -> int:
    match d:
        case {"a": 1, "b": b}:
            return b * 10
        case {"a": 2 | 3 as a, **kw}:
            return a * 100 + len(kw)
        case {"b": _}:
            return -1
    return -2


def rest_order(s: str, x: int) -> list[str]:
    match {"z": 1, s: x, "a": 2}:
        case {"z": _, **rest}:
            return list(rest)
    return []


def defaults(x: int, s: str) -> int:
    d = defaultdict(int)
    d[s] = x
    match d:
        case {"a": v}:
            return v * 10 + len(d)
        case {"b": _}:
            return -1
    return len(d)


def nested(x: int, xs: list[int]) -> int:
    match {"p": Point(x, 0), "l": xs}:
        case {"p": Point(x=0), "l": [a, *_]}:
            return a
        case {"p": Point(x=1) | Point(y=1), "l": []}:
            return -1
        case {"l": [_, _] as pair, **r}:
            return len(pair) * 10 + len(r)
    return -9


def shapes(x: int, y: int) -> int:
    p = Point(x, y) if x > 0 else (Vec(x, y) if x > -3 else (Plain(y) if x > -6 else x))
    match p:
        case Point(1, y=3):
            return 1
        case Point(a, b) if a > b:
            return 2
        case Point(x=2, y=yy):
            return 300 + yy
        case Vec(a, 5):
            return 400 + a
        case Vec(b=b):
            return 500 + b
        case Plain(a=7):
            return 7
        case Plain(b=_):
            return 8
        case int(v):
            return 900 + v
        case _:
            return 0


def builtin_classes(x: int, s: str) -> int:
    v = x if x > 0 else (s if x > -2 else ([x] if x > -5 else x > -7))
    match v:
        case bool():
            return -7
        case int(5):
            return 5
        case str() as t:
            return len(t) + 10
        case list([a]):
            return a
        case float():
            return 99
        case int(n):
            return n + 100
    return 0


def errors(x: int) -> int:
    if x == 0:
        match Vec(x, 1):
            case Vec(1, 2, 3):
                return 1
    if x == 1:
        match Vec(x, 1):
            case Vec(a, a=b):
                return 2
    if x == 2:
        match {1: x, 2: 0}:
            case {K.ONE: v, 1: w}:
                return 3
    if x == 3:
        match {x: 1}:
            case {K.LIST: v}:
                return 4
    if x == 4:
        match x:
            case int(a, b):
                return 5
    if x == 5:
        match x:
            case maps():
                return 6
    return 0


def nodes(n: Optional[Node]) -> int:
    match n:
        case None:
            return 0
        case Node(val=v, next=None):
            return v
        case Node(val=v, next=Node(val=w)):
            return v * 10 + w
    return -1


def mixed(x: int) -> int:
    v = Point(x, 1) if x > 0 else ({"k": x} if x > -3 else [x])
    match v:
        case {"k": k}:
            return k
        case [a]:
            return a * 10
        case int():
            return -1
        case Point(x=a):
            return a + 100
    return 0


def props(x: int) -> int:
    match Prop(x):
        case Prop(double=4):
            return 1
    return 0


def local_class(x: int) -> int:
    C = Plain
    match Plain(x):
        case C(a=1):
            return 1
    return 0
"""

ENGINES = engine_names()
TARGETS = ("maps", "dicts", "rest_order", "defaults", "nested", "shapes", "builtin_classes", "errors", "mixed", "nodes")
OPTIONS = ("--max-list-len", "2", "--max-str-len", "2")


def _explored(tmp_path: Path, target: str, engine: str) -> list[dict[str, object]]:
    result = explore_source(tmp_path, SOURCE, "m.py", target, engine, *OPTIONS)
    assert result["complete"], (target, result["status"])
    return result["paths"]  # type: ignore[return-value]


def _outcome(path: dict[str, object]) -> object:
    return path["returned"] if path["outcome"] == "return" else path["exception"]


def _cpython(target: str, inputs: dict[str, object]) -> object:
    """What CPython's ``target`` gives on the decoded inputs: its value, or the exception's name."""
    space: dict[str, object] = {}
    exec(SOURCE, space)
    try:
        return space[target](**decode_inputs(inputs, space))  # type: ignore[arg-type, operator]
    except Exception as exc:  # noqa: BLE001 - the outcome compared
        return type(exc).__name__


@pytest.mark.parametrize("engine", ENGINES)
def test_every_path_is_cpython_s(tmp_path: Path, engine: str) -> None:
    seen: dict[str, list[object]] = {}
    for target in TARGETS:
        for path in _explored(tmp_path, target, engine):
            assert path["outcome"] in ("return", "raise"), (target, path)
            assert _outcome(path) == _cpython(target, path["inputs"]), (target, path)  # type: ignore[arg-type]
            seen.setdefault(target, []).append(_outcome(path))
    if engine != "dse":
        return  # MultiSE merges paths (fewer, other representatives): CPython's outcomes are checked above
    assert {0, 1001, -1}.issubset(seen["maps"]) and any(isinstance(v, int) and v % 10 == 1 and v < 1000 for v in seen["maps"])
    assert {-2, -1}.issubset(seen["dicts"]) and {200, 300} & set(seen["dicts"]) and any(isinstance(v, int) and v % 10 == 0 for v in seen["dicts"])
    assert ["a"] in seen["rest_order"] and ["", "a"] in seen["rest_order"]  # s == "z" or "a" replaces an item in place
    assert -1 in seen["defaults"] and 1 in seen["defaults"]  # a lookup never calls the factory
    assert {-1, 21, -9}.issubset(seen["nested"])  # 21: a pair and the other key
    assert {1, 2, 7, 0}.issubset(seen["shapes"]) and 8 not in seen["shapes"] and any(isinstance(v, int) and 300 <= v < 1000 for v in seen["shapes"])
    assert {-7, 5, 10, -2}.issubset(seen["builtin_classes"]) and any(isinstance(v, int) and v > 100 for v in seen["builtin_classes"])
    assert {"TypeError", "ValueError", 0}.issubset(seen["errors"])
    assert -1 not in seen["mixed"] and any(isinstance(v, int) and v > 100 for v in seen["mixed"])  # int() never: no int subject
    assert 0 in seen["nodes"] and len(seen["nodes"]) >= 2


def test_the_errors_are_cpython_s_with_their_messages(tmp_path: Path) -> None:
    messages = {path["inputs"]["x"]: path["message"] for path in _explored(tmp_path, "errors", "dse") if path["outcome"] == "raise"}  # type: ignore[index]
    assert messages == {
        0: "Vec() accepts 2 positional sub-patterns (3 given)",
        1: "Vec() got multiple sub-patterns for attribute 'a'",
        2: "mapping pattern checks duplicate key (1)",
        3: "unhashable type: 'list'",
        4: "int() accepts 1 positional sub-pattern (2 given)",
        5: _message("errors", 5),  # "must be a type" (3.11) or "a class": CPython's own
    }


def _message(target: str, x: int) -> str:
    space: dict[str, object] = {}
    exec(SOURCE, space)
    try:
        space[target](x)  # type: ignore[operator]
    except TypeError as exc:
        return str(exc)
    raise AssertionError("no TypeError")


def test_class_patterns_on_instances_run_in_the_model(tmp_path: Path) -> None:
    for target in ("shapes", "mixed"):
        result = explore_source(tmp_path, SOURCE, "m.py", target, "dse", *OPTIONS)
        assert result["stats"]["concretizations"] == {}, target  # type: ignore[index]


@pytest.mark.parametrize(
    ("target", "line", "col", "what"),
    [
        ("props", 196, 14, "a class pattern reading attribute 'double' through a property or __getattr__ (its AttributeError would be swallowed)"),
        ("local_class", 204, 14, "class pattern whose class 'C' a function binds"),
    ],
)
def test_what_is_not_known_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str, line: int, col: int, what: str) -> None:
    path = tmp_path / "m.py"
    path.write_text(SOURCE, encoding="utf-8")
    for engine in ENGINES:
        assert refusal(path, target, engine, capsys).endswith(f"m.py:{line}:{col}: unsupported: {what}")


OPAQUE_SUBCLASS = """
from dataclasses import dataclass


class Base:
    def __init__(self, a: int) -> None:
        self.a = a


@dataclass(slots=True)
class Sub(Base):
    b: int


def f(x: int) -> int:
    s = Sub(x) if x > 0 else Base(x)
    match s:
        case Sub(b=3):
            return 3
        case Base(a=v):
            return 10 + int(isinstance(s, Base))
    return 0
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_an_instance_of_an_opaque_subclass_is_an_instance_of_its_analysed_base(tmp_path: Path, engine: str) -> None:
    """Sub (a slots dataclass) is run in CPython, its instances real objects: isinstance of
    one against the analysed Base is CPython's answer on the object (it was False)."""
    result = explore_source(tmp_path, OPAQUE_SUBCLASS, "m.py", "f", engine)  # --verify replays each input
    assert {p["returned"] for p in result["paths"]} >= {3, 11}  # type: ignore[attr-defined]

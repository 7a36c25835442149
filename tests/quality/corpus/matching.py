"""``match`` statements: literal, capture, sequence, guarded, mapping and class patterns.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

from dataclasses import dataclass
from enum import Enum


def http_reason(code: int) -> str:
    assert 100 <= code <= 599
    match code:
        case 200:
            reason = "OK"
        case 301 | 302:
            reason = "Redirect"
        case 404:
            reason = "Not Found"
        case 500:
            reason = "Server Error"
        case _:
            reason = "Unknown"
    assert reason
    return reason


def run_command(cmd: str) -> str:
    assert len(cmd) <= 20
    match cmd.split():
        case ["go", direction]:
            return f"going {direction}"
        case ["quit"]:
            return "bye"
        case [verb, *rest] if verb == "say":
            message = " ".join(rest)
            assert message  # BUG: 'say' with nothing to say (cmd='say')
            return message
        case _:
            return "unknown command"


def describe_list(xs: list[int]) -> str:
    assert len(xs) <= 4
    match xs:
        case []:
            text = "empty"
        case [x]:
            text = f"one: {x}"
        case [x, y] if x == y:
            text = "a pair"
        case [x, y]:
            text = "two"
        case [first, *_, last]:
            text = f"from {first} to {last}"
    assert text
    return text


def temperature_label(t: int) -> str:
    assert -50 <= t <= 50
    label = None
    match t:
        case n if n < 0:
            label = "freezing"
        case n if n < 15:
            label = "cold"
        case n if n < 25:
            label = "mild"
        case n if n > 25:
            label = "hot"
    assert label is not None  # BUG: 25 matches no case (t=25)
    return label


def handle_event(event: dict[str, int]) -> str:
    assert len(event) <= 3
    match event:
        case {"type": 1, "x": x}:
            result = f"click at {x}"
        case {"type": 2}:
            result = "key"
        case _:
            result = "unknown"
    assert result
    return result


def route(request: dict[str, str]) -> str:
    assert len(request) <= 3
    match request:
        case {"method": "GET", "path": path}:
            return f"read {path}"
        case {"method": "POST", "path": path}:
            assert path.startswith("/")  # BUG: the POST path is not validated (request={'method': 'POST', 'path': 'x'})
            return f"write {path}"
        case _:
            return "bad request"


@dataclass
class Circle:
    r: int


@dataclass
class Box:
    w: int
    h: int


def area_of(kind: int, a: int, b: int) -> int:
    assert a >= 0 and b >= 0
    shape = Circle(a) if kind == 0 else Box(a, b)
    match shape:
        case Circle(r=r):
            area = 3 * r * r
        case Box(w, h):
            area = w * h
    assert area >= 0
    return area


@dataclass
class Pt:
    x: int
    y: int


def quadrant(x: int, y: int) -> int:
    assert abs(x) <= 1000 and abs(y) <= 1000
    match Pt(x, y):
        case Pt(x=px, y=py) if px > 0 and py > 0:
            q = 1
        case Pt(x=px, y=py) if px < 0 and py > 0:
            q = 2
        case Pt(x=px, y=py) if px < 0 and py < 0:
            q = 3
        case Pt(x=px, y=py) if px > 0 and py > 0:
            q = 4
        case _:
            q = 0
    assert q != 0 or x == 0 or y == 0  # BUG: the fourth case repeats the first one's guard (x=1, y=-1)
    return q


def axis_of(x: int, y: int) -> str:
    assert abs(x) <= 1000 and abs(y) <= 1000
    match Pt(x, y):
        case Pt(x=0, y=0):
            where = "origin"
        case Pt(x=0):
            where = "y-axis"
        case Pt(y=0):
            where = "x-axis"
        case _:
            where = "plane"
    assert where != "plane" or (x != 0 and y != 0)
    return where


def is_vowel(c: str) -> bool:
    assert len(c) == 1 and c.isascii()
    match c.lower():
        case "a" | "e" | "i" | "o" | "u":
            return True
        case _:
            return False


def calculator(tokens: list[str]) -> int:
    assert len(tokens) <= 3
    match tokens:
        case ["add", a, b] if a.isdecimal() and b.isdecimal():
            result = int(a) + int(b)
        case ["sub", a, b] if a.isdecimal() and b.isdecimal():
            result = int(a) - int(b)
            assert result >= 0  # BUG: a subtraction can go negative (tokens=['sub', '0', '1'])
        case ["neg", a] if a.isdecimal():
            result = -int(a)
        case _:
            raise ValueError(f"bad expression: {tokens!r}")
    return result


def ordered_pair(a: int, b: int) -> tuple[int, int]:
    assert abs(a) < 10**6 and abs(b) < 10**6
    match (a, b):
        case (x, y) if x > y:
            result = (y, x)
        case pair:
            result = pair
    assert result[0] <= result[1]
    return result


def first_two_sum(xs: list[int]) -> int:
    assert len(xs) <= 4
    match xs:
        case [a, b, *_]:
            total = a + b
        case [a]:
            total = a
        case []:
            total = 0
    assert total == sum(xs[:2])
    return total


def matrix_shape(rows: list[list[int]]) -> tuple[int, int]:
    assert len(rows) <= 3
    match rows:
        case []:
            return 0, 0
        case [first, *_]:
            n = len(first)
            assert all(len(r) == n for r in rows)  # BUG: ragged rows are not rejected (rows=[[1], []])
            return len(rows), n
    raise AssertionError("unreachable")


class Signal(Enum):
    RED = 1
    AMBER = 2
    GREEN = 3


def signal_color(s: Signal) -> str:
    assert isinstance(s, Signal)
    match s:
        case Signal.RED:
            code = "#f00"
        case Signal.AMBER:
            code = "#fa0"
        case Signal.GREEN:
            code = "#0f0"
    assert code.startswith("#") and len(code) == 4
    return code


def letter_grade(score: int) -> str:
    assert 0 <= score <= 100
    match score:
        case s if s >= 90:
            label = "A"
        case s if s >= 80:
            label = "B"
        case s if s >= 70:
            label = "C"
        case s if s > 60:
            label = "D"
        case _:
            label = "F"
    assert (label == "F") == (score < 60)  # BUG: 60 itself is graded F (score=60)
    return label


def file_kind(name: str) -> str:
    assert 1 <= len(name) <= 12
    match name.rsplit(".", 1):
        case [_, "jpg" | "jpeg" | "png" as ext]:
            kind = "image/" + ext
        case [_, "txt"]:
            kind = "text"
        case [_, _]:
            kind = "binary"
        case [_]:
            kind = "unknown"
    assert kind
    return kind


def parse_point(data: dict[str, int]) -> tuple[int, int]:
    assert len(data) <= 3
    match data:
        case {"x": x, "y": y}:
            point = (x, y)
        case {"x": x}:
            point = (x, 0)
        case _:
            point = (0, 0)
    assert point[1] == data.get("y", 0)  # BUG: a y without an x is dropped (data={'y': 1})
    return point

"""Float inputs (IEEE binary64): each function needs a special value or an exact rule."""

import math
from typing import Optional


def is_nan(x: float) -> str:
    if x != x:
        return "nan"
    if x == x + 1:
        return "inf"
    return "finite"


def reciprocal_sign(x: float) -> int:
    if 1 / x < 0:  # -0.0 gives -inf: its branch; 0.0 and -0.0 raise ZeroDivisionError
        return -1
    return 1


def negative_zero(x: float) -> str:
    if x == 0.0 and math.copysign(1.0, x) < 0:
        return "minus zero"
    return "other"


def exact_compare(n: int, x: float) -> str:
    if x == 2.0**53 and n == x:
        return "equal"
    if x == 2.0**53 and n == 2**53 + 1:
        return "int above"
    return "other"


def to_int(x: float) -> int:
    k = int(x)  # ValueError for NaN, OverflowError for infinities
    if k > 2:
        return math.floor(x) - math.ceil(x)
    return k


def root(x: float) -> float:
    return math.sqrt(x)  # ValueError below zero, sqrt(-0.0) is -0.0


def mixed(a: int, b: float) -> float:
    y = a * b - a / 2
    if y > 1.5:
        return -y
    return abs(y)


def total(xs: list[float]) -> float:
    s = 0.0
    for v in xs:
        s += v
    if s > 10.5:
        return s
    return -s


def maybe(x: Optional[float]) -> float:
    if x is None:
        return 0.0
    return +x if x else -1.0


def pair(p: tuple[float, int]) -> bool:
    return p[0] < p[1]

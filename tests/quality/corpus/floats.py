"""Floats: square roots, means, rounding, interest, interpolation, formatting.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

import math


def hypotenuse(a: float, b: float) -> float:
    assert math.isfinite(a) and math.isfinite(b) and abs(a) < 1e100 and abs(b) < 1e100
    h = math.sqrt(a * a + b * b)
    assert h >= abs(a) and h >= abs(b)  # BUG: a tiny side underflows to zero when squared (a=1e-200, b=0.0)
    return h


def celsius_to_fahrenheit(c: float) -> float:
    assert -300.0 <= c <= 1000.0
    f = c * 9 / 5 + 32
    assert f >= -508.0
    return f


def mean(xs: list[float]) -> float:
    assert xs and all(math.isfinite(x) and abs(x) < 1e6 for x in xs)
    avg = sum(xs) / len(xs)
    assert min(xs) <= avg <= max(xs)  # BUG: rounding can push the mean past the largest item (xs=[0.1, 0.1, 0.1])
    return avg


def round_price(x: float) -> float:
    assert 0.0 <= x <= 1e6
    r = round(x, 2)
    assert abs(r - x) <= 0.005 + 1e-9
    return r


def percent(part: int, whole: int) -> int:
    assert whole > 0 and 0 <= part <= whole
    p = round(100 * part / whole)
    assert p < 100 or part == whole  # BUG: 199 of 200 rounds up to 100% (part=199, whole=200)
    return p


def solve_linear(a: float, b: float) -> float:
    assert a != 0.0 and math.isfinite(a) and math.isfinite(b)
    assert 1e-3 < abs(a) < 1e3 and abs(b) < 1e3
    x = -b / a
    assert a * x + b == 0.0  # BUG: rounding leaves a residue (a=49.0, b=-1.0)
    return x


def distance(x1: float, y1: float, x2: float, y2: float) -> float:
    assert all(math.isfinite(v) for v in (x1, y1, x2, y2))
    d = math.hypot(x2 - x1, y2 - y1)
    assert d >= 0.0
    return d


def safe_sqrt(x: float) -> float:
    assert not math.isnan(x)
    if x < 0:
        return 0.0
    r = math.sqrt(x)
    assert r * r == x  # BUG: a square root is rounded (x=2.0)
    return r


def lerp(a: float, b: float, t: float) -> float:
    assert 0.0 <= t <= 1.0 and a <= b and abs(a) <= 1e6 and abs(b) <= 1e6
    r = a + (b - a) * t
    assert a <= r <= b  # BUG: rounding can overshoot the end (a=0.3, b=0.9, t=1.0)
    return r


def lerp_clamped(a: float, b: float, t: float) -> float:
    assert 0.0 <= t <= 1.0 and a <= b and abs(a) <= 1e6 and abs(b) <= 1e6
    r = min(max(a + (b - a) * t, a), b)
    assert a <= r <= b
    return r


def variance(xs: list[float]) -> float:
    assert 2 <= len(xs) <= 4 and all(math.isfinite(x) and abs(x) < 1e6 for x in xs)
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    assert var >= 0.0
    return var


def compound(principal: float, rate: float, years: int) -> float:
    assert 0.0 < principal <= 1e9 and 0.0 <= rate <= 1.0 and 0 <= years <= 10
    amount = principal
    for _ in range(years):
        amount *= 1 + rate
    assert amount >= principal
    interest = amount - principal
    assert interest > 0 or rate == 0 or years == 0  # BUG: a tiny rate is lost to rounding (principal=1.0, rate=1e-17, years=1)
    return amount


def to_fixed(x: float) -> str:
    assert math.isfinite(x)
    s = f"{x:.2f}"
    assert "." in s and len(s.split(".")[1]) == 2
    return s


def floor_ratio(a: float, b: float) -> int:
    assert 0.0 <= a <= 1e6 and 1e-3 <= b <= 1e6
    q = math.floor(a / b)
    assert q * b <= a  # BUG: the product rounds past a (a=0.7, b=0.01)
    return q


def relative_change(old: float, new: float) -> float:
    assert math.isfinite(old) and math.isfinite(new) and old != 0.0
    assert abs(old) < 1e6 and abs(new) < 1e6
    change = (new - old) / old
    assert abs(change) < 1e6  # BUG: a tiny baseline blows the ratio up (old=1e-07, new=1.0)
    return change


def round_half_up(x: float) -> int:
    assert 0.0 <= x <= 1e6
    n = int(x + 0.5)
    assert n == round(x)  # BUG: round() rounds halves to even (x=0.5)
    return n


def clamp_unit(x: float) -> float:
    assert not math.isnan(x)
    y = min(1.0, max(0.0, x))
    assert 0.0 <= y <= 1.0
    return y


def ceil_pages(total: float, per_page: float) -> int:
    assert 0.0 <= total <= 1e6 and 1.0 <= per_page <= 100.0
    pages = math.ceil(total / per_page)
    assert pages >= 0
    return pages

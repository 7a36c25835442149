"""Integer arithmetic: gcd and lcm, digits, Newton's square root, modular power, calendars.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

import calendar
import math


def lcm(a: int, b: int) -> int:
    assert a >= 1 and b >= 1
    result = a * b // math.gcd(a, b)
    assert result % a == 0 and result % b == 0
    return result


def isqrt_newton(n: int) -> int:
    assert 0 <= n <= 1000
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    assert x * x <= n < (x + 1) * (x + 1)
    return x


def digit_sum(n: int) -> int:
    assert n >= 0
    total = 0
    while n > 0:
        total += n % 10
        n //= 10
    assert total <= 9 * len(str(n))  # BUG: n was used up by the loop, so the bound is 9 (n=19)
    return total


def collatz_steps(n: int) -> int:
    assert 1 <= n <= 10
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    assert steps >= 0
    return steps


def power_mod(base: int, exp: int, mod: int) -> int:
    assert 0 <= exp <= 10 and mod >= 1
    result = 1
    b = base % mod
    e = exp
    while e:
        if e & 1:
            result = result * b % mod
        b = b * b % mod
        e >>= 1
    assert result == pow(base, exp, mod)  # BUG: the result starts at 1 even when mod is 1 (base=0, exp=0, mod=1)
    return result


def euclid(a: int, b: int) -> int:
    assert 0 <= a <= 100 and 0 <= b <= 100
    x, y = a, b
    while y:
        x, y = y, x % y
    assert x == math.gcd(a, b)
    return x


def days_in_year(year: int) -> int:
    assert year >= 1
    leap = year % 4 == 0 and year % 100 != 0
    days = 366 if leap else 365
    assert days == (366 if calendar.isleap(year) else 365)  # BUG: forgot the 400-year rule (year=2000)
    return days


def is_power_of_two(n: int) -> bool:
    assert 0 <= n < 2**16
    result = n > 0 and n & (n - 1) == 0
    assert result == (bin(n).count("1") == 1)
    return result


def to_12h(hour: int) -> int:
    assert 0 <= hour < 24
    h = hour % 12
    assert 1 <= h <= 12  # BUG: midnight and noon give 0 (hour=0)
    return h


def to_12h_fixed(hour: int) -> int:
    assert 0 <= hour < 24
    h = hour % 12 or 12
    assert 1 <= h <= 12
    return h


def is_perfect(n: int) -> bool:
    assert 1 <= n <= 10
    s = sum(d for d in range(1, n) if n % d == 0)
    assert s != n  # BUG: 6 is a perfect number (n=6)
    return False


def triangle_kind(a: int, b: int, c: int) -> str:
    assert a > 0 and b > 0 and c > 0
    x, y, z = sorted([a, b, c])
    if x + y <= z:
        return "none"
    if x == z:
        kind = "equilateral"
    elif x == y or y == z:
        kind = "isosceles"
    else:
        kind = "scalene"
    assert kind != "equilateral" or a == b == c
    return kind


def int_average(xs: list[int]) -> int:
    assert xs and len(xs) <= 4
    avg = sum(xs) // len(xs)
    assert min(xs) <= avg <= max(xs)
    return avg


def reverse_digits(n: int) -> int:
    assert n >= 0
    r = int(str(n)[::-1])
    assert len(str(r)) == len(str(n))  # BUG: trailing zeros vanish (n=10)
    return r


def binary_search(xs: list[int], target: int) -> int:
    assert all(a <= b for a, b in zip(xs, xs[1:]))
    lo, hi = 0, len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    result = lo if lo < len(xs) and xs[lo] == target else -1
    assert result == -1 or xs[result] == target
    return result


def insert_point(xs: list[int], x: int) -> int:
    assert all(a <= b for a, b in zip(xs, xs[1:])) and len(xs) >= 1
    lo, hi = 0, len(xs) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    assert all(v >= x for v in xs[lo:])  # BUG: hi starts at the last index, so lo never passes it (xs=[0], x=1)
    return lo


def popcount(n: int) -> int:
    assert 0 <= n < 256
    count = 0
    while n:
        count += n & 1
        n >>= 1
    assert 0 <= count <= 8
    return count


def page_count(items: int, per_page: int) -> int:
    assert items >= 0 and per_page >= 1
    pages = items // per_page + 1
    assert (pages - 1) * per_page < items or items == 0  # BUG: an exact multiple gets an empty last page (items=2, per_page=2)
    return pages


def ceil_div(a: int, b: int) -> int:
    assert b > 0
    q = (a + b - 1) // b
    assert q * b >= a and (q - 1) * b < a
    return q


def mixed_number(n: int, d: int) -> tuple[int, int]:
    assert d > 0
    whole, rem = n // d, n % d
    assert 0 <= rem < d and whole * d + rem == n
    return whole, rem


def wrap_angle(deg: int) -> int:
    assert abs(deg) <= 10**6
    r = deg % 360
    if r > 180:
        r -= 360
    assert -180 < r <= 180
    return r

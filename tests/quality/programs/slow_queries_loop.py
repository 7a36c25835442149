"""A fuzzed program (seed 3636) on which dse and compose ran 80 s past a 20-s timeout: every
branch query of its nested loops over aliased lists took seconds to prepare, and the deadline
was checked only every 1,024 instructions."""

import math
from dataclasses import dataclass
from typing import Iterator


def kw0(a: int, /, b: int = 0, *, c: int, d: int = 0) -> int:
    t = a + 2 * b + 3 * c + 5 * d
    if t > -2:
        return t - a
    return t


def h0(a: int) -> Iterator[int]:
    t0 = a
    t0, a = a, kw0(a, c=8, d=t0)
    yield t0 + 6
    return len(str(8))


def h1(a: int) -> Iterator[int]:
    a = math.ceil(math.isqrt(a) / 3)
    a = a
    yield a * 2
    yield from h0(2)
    return ((wz0 := a) * 2 - wz0)


class N0:
    def __init__(self, v: int) -> None:
        self.v = v

    def __eq__(self, other: object) -> bool:
        o = other.v if isinstance(other, N0) else other
        return abs(self.v) == abs(o)

    def __lt__(self, other: object) -> bool:
        o = other.v if isinstance(other, N0) else other
        return 7 // self.v < 7 // o

    def __bool__(self) -> bool:
        return self.v != 3

    def __contains__(self, item: int) -> bool:
        return item - self.v


@dataclass(frozen=True)
class Fz:
    a: int
    b: int


def f(xs: list[int], ys: list[int], fz: Fz, x: int) -> int:
    v0 = 4
    v1 = 8
    v2 = x
    n0 = N0(min(xs, default=x))
    for k0, it0 in enumerate(ys):
        i0 = 0
        while i0 < 4:
            i0 += 1
            xs[kw0(len(xs), b=x, c=v1, d=k0):-2] = [min(v1, 4)]
        if chr(65 + n0.v % 26) == 'A':
            continue
    try:
        for [it1] in zip(xs):
            ys[:] = xs
    except ValueError:
        v2, x = divmod((-4) % v1, 5)
    except ZeroDivisionError:
        return fz.b
    finally:
        n0.v = x
    return sum(xs, -1)


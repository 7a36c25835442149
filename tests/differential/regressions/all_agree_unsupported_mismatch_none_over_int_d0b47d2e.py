# pathloom differential regression: dse/pose+dse/lazier+dse/lazy+compose/pose+compose/lazier+compose/lazy+multise/pose+multise/lazier+multise/lazy:agree:unsupported-mismatch
# entry: f
# params: a: Node, b: Node
# engines: dse/pose,dse/lazier,dse/lazy,compose/pose,compose/lazier,compose/lazy,multise/pose,multise/lazier,multise/lazy
# inputs: []
# found: fuzz --seed 5151 (batch seed 6706670120588961241); 83 lines, 83 after Hypothesis shrinking, 83 after statement reduction; pose said unsupported: None written through a possibly aliased reference over an int field value (merge of None and an int), now an Optional value

import math
from typing import Optional


WORD = 'a' * 0


def h0(a: int, b: int, c: int) -> int:
    ok0 = False
    c = 0
    return math.isqrt(2)


class C0:
    def __init__(self, v: int) -> None:
        self.v = v

    def step(self, d: int) -> int:
        t0 = self.v
        for ch0 in WORD:
            try:
                t0, d = max(t0, 0), d
                d += d ** 0
            except (IndexError, ZeroDivisionError):
                return d
        return math.floor((len(WORD) * (-2)) / divmod(self.v, len(WORD))[1])

    def get(self) -> int:
        return self.v or True


class N0:
    def __init__(self, v: int) -> None:
        self.v = v

    def __eq__(self, other: object) -> bool:
        o = other.v if isinstance(other, N0) else other
        return abs(self.v) == abs(o)

    def __add__(self, other: object) -> 'N0':
        o = other.v if isinstance(other, N0) else other
        return N0(o - self.v)

    def __radd__(self, other: int) -> 'N0':
        return N0(other + self.v)

    @property
    def big(self) -> int:
        return self.v * 2

    @classmethod
    def make(cls, a: int) -> 'N0':
        return cls(-a)


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None, key: Optional[int] = None) -> None:
        self.val = val
        self.next = next
        self.key = key

    def bump(self, d: int) -> int:
        self.val = self.val + 1
        return self.val

    def peek(self) -> int:
        if self.next is None:
            return 0
        return self.next.val


def f(a: Node, b: Node) -> bool:
    v0 = a.val
    v1 = b.val
    u0 = 'ba'
    o0 = C0((b.key if b.key is not None else a.val))
    n0 = N0(a.val)
    n1 = N0(a.val)
    b.next = a
    b.key = int((b.key or 0))
    n1.v = b.bump(h0(7, len(u0), a.val))
    a.key = None
    return a.next is b.next

# pathloom differential regression: dse/pose+dse/lazier:agree:no-path
# entry: f
# params: a: Node, m: Optional[Node], b: Node
# engines: dse/pose,dse/lazier,dse/lazy,compose/pose,compose/lazier,compose/lazy,multise/pose,multise/lazier,multise/lazy
# inputs: []
# found: fuzz --seed 505 (not shrunk)

import math
from typing import Optional


K0 = -1
PRIMES = [5, 4]
KP = len(PRIMES)
WORD = 'A' + 'a'


class C0:
    def __init__(self, v: int) -> None:
        self.v = v
        self.w = WORD.find('ba')

    def step(self, d: int) -> int:
        t0 = len(PRIMES)
        if (7 - self.w) == math.isqrt(self.v):
            t0, self.w = divmod(3, self.w * 2)
        return 0


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next

    def bump(self, d: int) -> int:
        self.val = self.val + d
        return self.val


def f(a: Node, m: Optional[Node], b: Node) -> bool:
    v0 = len(WORD)
    v1 = K0
    v2 = 4
    u0 = 'a'
    o0 = C0(2 + len(PRIMES))
    w0 = a.next
    for k1 in range(2):
        if w0 is None:
            break
        w1 = (m.next if m is not None else None)
        for k0 in range(4):
            if w1 is None:
                break
            o0.v = a.next.val
            w1 = w1.next
        w0 = w0.next
    return (WORD if True else WORD) != ''

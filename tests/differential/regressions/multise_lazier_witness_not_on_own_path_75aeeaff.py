# pathloom differential regression: multise/lazier:witness:not-on-own-path
# entry: f
# params: a: Node, m: Optional[Node], ns: list[Node]
# engines: multise/pose,multise/lazier,multise/lazy
# inputs: [{"a": {"$object": "Node", "$id": 1, "fields": {"val": 1, "next": {"$object": "Node", "$id": 2, "fields": {"val": 6, "next": null}}}}, "m": {"$object": "Node", "$id": 3, "fields": {"val": 0, "next": null}}, "ns": [{"$object": "Node", "$id": 4, "fields": {"val": 0, "next": null}}, {"$ref": 4}]}]
# found: fuzz --seed 202 (batch seed 7111953271174839857); 47 lines, 47 after Hypothesis shrinking, 47 after statement reduction

from typing import Optional


def h0(n: int) -> int:
    t0 = n
    ok0 = False
    if n <= 0:
        return t0
    try:
        t0 += t0 * 1
        t0 = n
        return t0
    except ValueError:
        ok0 = (ok0 and ok0) and (not ok0)
    except ZeroDivisionError:
        t0 += 7 + t0
    return h0(n - 1) + abs(n)


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next

    def peek(self) -> int:
        if self.next is None:
            return 1
        return self.next.val


def f(a: Node, m: Optional[Node], ns: list[Node]) -> int:
    v0 = a.val
    r0 = a
    r0 = ns[1]
    w0 = ns[v0]
    i0 = 0
    while w0 and i0 < 1:
        i0 += 1
        if m is not None:
            m.val = int(w0.val)
        w1 = w0 if a else a
        for k0 in range(3):
            if w1 is None:
                break
            w1 = w1.next
        w0 = w0.next
    return a.peek()

# pathloom differential regression: multise/lazy:replay:return-value
# entry: f
# params: a: Node, m: Optional[Node], ns: list[Node], pr: Pair, x: int
# engines: multise/lazy
# inputs: [{"a": {"$object": "Node", "$id": 1, "fields": {"val": 15, "next": {"$object": "Node", "$id": 2, "fields": {"val": 0, "next": null}}}}, "m": {"$ref": 1}, "ns": [], "pr": {"$object": "Pair", "$id": 3, "fields": {"left": {"$object": "Node", "$id": 4, "fields": {"val": 11, "next": null}}, "right": {"$ref": 1}}}, "x": 0}]
# found: a hand-written probe of progen_heap's constructs (tests/differential/progen_heap.py), run through check_program; no single statement can be deleted without losing the failure

from typing import Optional


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next

    def bump(self, d: int) -> int:
        self.val = self.val + d
        return self.val


class Pair:
    def __init__(self, left: Node, right: Optional[Node] = None) -> None:
        self.left = left
        self.right = right


def f(a: Node, m: Optional[Node], ns: list[Node], pr: Pair, x: int) -> int:
    v0 = x
    r0 = m
    a.val = int(v0 and x)
    a.next = Node(int(x), r0)
    if a is m:
        v0 += 1
    w0 = a
    for k0 in range(3):
        if w0 is None:
            break
        v0 += w0.val
        w0 = w0.next
    for it0 in ns:
        v0 += it0.bump(1)
    if pr.right is not None and pr.right is a:
        v0 -= pr.left.val
    if r0:
        v0 += r0.next.val
    assert a.val != 5
    return v0

# pathloom differential regression: dse/lazier:witness:not-on-own-path
# entry: f
# params: a: Node, b: Node
# engines: dse/pose,dse/lazier,dse/lazy,multise/pose,multise/lazier,multise/lazy
# inputs: [{"a": {"$object": "Node", "$id": 1, "fields": {"val": 0, "next": null}}, "b": {"$object": "Node", "$id": 2, "fields": {"val": 0, "next": {"$ref": 1}}}}]
# found: fuzz --seed 101 (batch seed 15626562030168072909); 53 lines, 40 after Hypothesis shrinking, 23 after statement reduction

from typing import Optional

class Node:

    def __init__(self, val: int, next: Optional['Node']=None) -> None:
        self.val = val
        self.next = next

    def bump(self, d: int) -> int:
        return self.val

    def peek(self) -> int:
        return self.next.val

def f(a: Node, b: Node) -> int:
    r0 = b
    w0 = r0.next
    i0 = 0
    while w0 and i0 < 2:
        i0 += 1
        a.next = a
        w0 = w0.next
    return a.val

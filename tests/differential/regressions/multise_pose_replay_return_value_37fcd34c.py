# pathloom differential regression: multise/pose:replay:return-value
# entry: f
# params: a: Node, b: Node, a2: Node, pr: Pair
# engines: dse/pose,dse/lazier,dse/lazy,multise/pose,multise/lazier,multise/lazy
# inputs: [{"a": {"$object": "Node", "$id": 1, "fields": {"val": 0, "next": {"$object": "Node", "$id": 2, "fields": {"val": 4, "next": null}}}}, "b": {"$object": "Node", "$id": 3, "fields": {"val": 0, "next": null}}, "a2": {"$ref": 2}, "pr": {"$object": "Pair", "$id": 4, "fields": {"left": {"$ref": 2}, "right": null}}}]
# found: fuzz --seed 101 (batch seed 16756616105029234226); 36 lines, 36 after Hypothesis shrinking, 36 after statement reduction

from typing import Optional


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next


class Pair:
    def __init__(self, left: Node, right: Optional[Node] = None) -> None:
        self.left = left
        self.right = right


def f(a: Node, b: Node, a2: Node, pr: Pair) -> int:
    v0 = a2.val
    v1 = 6
    ok0 = True
    u0 = 'A'
    r0 = pr.right
    for ch0 in u0:
        if a2.next is not a2:
            w0 = pr.left
            for k0 in range(2):
                if w0 is None:
                    break
                w0 = w0.next
        elif (r0.val if r0 is not None else (r0.val if r0 is not None else v0)):
            w1 = b
            for k1 in range(2):
                if w1 is None:
                    break
                v1 = a.next.val
                w1 = w1.next
    return (r0.val if r0 is not None else v0) if (a2.next is not pr.left) else b.val

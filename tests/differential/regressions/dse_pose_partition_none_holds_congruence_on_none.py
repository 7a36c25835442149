# pathloom differential regression: dse/pose:partition:none-holds
# entry: f
# params: ns: list[Node], s: str, m: Optional[Node], pr: Pair
# engines: dse/pose,dse/lazier,dse/lazy,compose/pose,compose/lazier,compose/lazy,multise/pose,multise/lazier,multise/lazy
# inputs: [{"ns": [{"$object": "Node", "$id": 1, "fields": {"val": 4, "next": null}}, {"$object": "Node", "$id": 2, "fields": {"val": -4, "next": {"$ref": 2}}}, {"$ref": 1}], "s": "", "m": {"$ref": 2}, "pr": {"$object": "Pair", "$id": 3, "fields": {"left": {"$object": "Node", "$id": 4, "fields": {"val": 5, "next": null}}, "right": null}}}]
# found: fuzz --seed 1313, reduced by hand; congruence over two None locations (ns[0].next is ns[2].next, both None) made the ghost fields read through them agree, which the environment of concrete inputs does not give

from typing import Optional


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next


class Pair:
    def __init__(self, left: Node, right: Optional[Node] = None) -> None:
        self.left = left
        self.right = right


def f(ns: list[Node], s: str, m: Optional[Node], pr: Pair) -> bool:
    v1 = pr.left.val
    for it0 in ns:
        pr.right = it0.next
        pr.left = it0
        it0.val = int(len(ns))
    v0 = ns[0].val
    w0 = m
    for k0 in range(3):
        if w0 is None:
            break
        w0.val = int(w0.next.val)
        w0.val = 2
        w0 = w0.next
    return pr.left is None

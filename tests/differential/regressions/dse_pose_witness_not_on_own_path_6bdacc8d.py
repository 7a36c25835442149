# pathloom differential regression: dse/pose:witness:not-on-own-path
# entry: f
# params: ns: list[Node]
# engines: dse/pose,dse/lazier,dse/lazy,multise/pose,multise/lazier,multise/lazy
# inputs: [{"ns": []}]
# found: test_heap_programs / fuzz --objects (hand-reduced)

from typing import Optional


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next


def f(ns: list[Node]) -> int:
    return len(ns)

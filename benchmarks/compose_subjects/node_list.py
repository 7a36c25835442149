"""The paper's linked list repOk over the nodes themselves: ``head`` is an input object graph
(POSE: aliasing and cycles included), and repOk follows ``next`` from it, checking that the
list ends within 4 steps after exactly ``size`` nodes and that the values are sorted. repOk
only reads the nodes, so compose summarizes it with heap path conditions and replays it at
each of the 3 or 5 calls."""

from typing import Optional


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next


def rep_ok(head: Optional[Node], size: int) -> bool:
    node = head
    count = 0
    for _ in range(4):
        if node is None:
            break
        if node.next is not None and node.next.val < node.val:
            return False
        count += 1
        node = node.next
    return node is None and count == size


def nodes3times(head: Optional[Node], size: int) -> int:
    ok = 0
    for _ in range(3):
        if rep_ok(head, size):
            ok += 1
    return ok


def nodes5times(head: Optional[Node], size: int) -> int:
    ok = 0
    for _ in range(5):
        if rep_ok(head, size):
            ok += 1
    return ok

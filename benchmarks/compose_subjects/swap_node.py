"""The paper's swap node: ``swap_node`` exchanges the values of a node and its successor when
they are out of order (it writes the input objects it is given); ``sweep3`` and ``sweep5``
call it on each of the first 3 and 5 nodes of an input list (one bubble pass), which may
share nodes or form a cycle (POSE). Compose summarizes ``swap_node`` with heap path conditions over the fields it
reads; the replay re-executes its writes in each calling context."""

from typing import Optional


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next


def swap_node(n: Node) -> int:
    if n.next is None:
        return 0
    if n.val > n.next.val:
        t = n.val
        n.val = n.next.val
        n.next.val = t
        return 1
    return 0


def sweep3(head: Node) -> int:
    """One bubble pass over the first 3 nodes: ``swap_node`` at each. (``sweep5`` repeats the
    loop rather than sharing a ``sweep(head, steps)`` helper: compose would try to summarize
    such a helper too, and its tree alone, over an unbounded input list, passes 256 leaves,
    which costs the init more than the subject measures.)"""
    swaps = 0
    n: Optional[Node] = head
    for _ in range(3):
        if n is None:
            break
        swaps += swap_node(n)
        n = n.next
    return swaps


def sweep5(head: Node) -> int:
    """One bubble pass over the first 5 nodes."""
    swaps = 0
    n: Optional[Node] = head
    for _ in range(5):
        if n is None:
            break
        swaps += swap_node(n)
        n = n.next
    return swaps

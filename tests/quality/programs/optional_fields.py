from typing import Optional


class Node:
    def __init__(self, key: int | None, label: Optional[str], next: Optional["Node"] = None) -> None:
        self.key = key
        self.label = label
        self.next = next


def keyed(a: Node, b: Node) -> int:
    if a.key is None:
        if b.key is None:
            return 0
        return 1
    if b.key is not None and a.key == b.key + 1:
        return 2
    return a.key


def keyed_same(a: Node, b: Node) -> int:
    if a is b:
        if a.key is not None and b.key is not None and a.key == b.key + 1:
            return -100  # a.key == a.key + 1: no input reaches it
        return 10
    return keyed(a, b)


def relabel(a: Node, b: Node) -> Optional[str]:
    a.label = None
    if b.label is None:
        return "gone"
    return b.label


def set_key(a: Node, b: Node, k: int) -> Node:
    a.key = k if k > 0 else None
    return b


def succ_key(n: Node) -> int:
    if n.next is not None and n.next.key is not None:
        return n.next.key + 1
    return -1

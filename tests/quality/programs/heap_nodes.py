"""Linked nodes received as input: aliasing, cycles and None (tests/unit/test_heap_inputs.py)."""

from __future__ import annotations

from typing import Optional


class Node:
    def __init__(self, val: int, next: Optional[Node] = None) -> None:
        self.val = val
        self.next = next


def swap(a: Node, s: Optional[Node]) -> int:
    if s is not None:
        t = a.val
        a.val = s.val
        s.val = t
    return a.val


def sum3(a: Node, b: Node, c: Node) -> int:
    return a.val + b.val + c.val


def alias_bug(a: Node, b: Node) -> int:
    a.val = 1
    b.val = 2
    assert a.val == 1
    return a.val


def three_writes(a: Node, b: Node, c: Node) -> int:
    a.val = 1
    b.val = 2
    c.val = 3
    assert (a is c and a.val == 3) or (a is not c and a is b and a.val == 2) or (a is not c and a is not b and a.val == 1)
    return a.val + b.val + c.val


def has_null(a: Node) -> bool:
    s = a.next
    i = 1
    while s is not None and i <= 4:
        s = s.next
        i = i + 1
    return s is None


def self_loop(n: Node) -> int:
    assert n.next is not n
    return n.val


def length(n: Optional[Node]) -> int:
    count = 0
    while n:
        count += 1
        n = n.next
    return count


def last(n: Node) -> Node:
    while n.next is not None:
        n = n.next
    return n


def second_val(n: Node) -> int:
    return n.next.val


def push(n: Optional[Node], v: int) -> Node:
    return Node(v, n)


def relink(a: Node, b: Node) -> int:
    a.next = Node(7)
    assert a is not b or (b.next is not None and b.next.val == 7)
    return b.next.val if b.next is not None else -1


class Tree:
    def __init__(self, key: int, left: Optional[Tree] = None, right: Optional[Tree] = None) -> None:
        self.key = key
        self.left = left
        self.right = right

    def size(self) -> int:
        n = 1
        if self.left is not None:
            n += self.left.size()
        if self.right is not None:
            n += self.right.size()
        return n


def find(t: Optional[Tree], k: int) -> bool:
    while t is not None:
        if t.key == k:
            return True
        t = t.left if k < t.key else t.right
    return False


def tree_size(t: Tree) -> int:
    return t.size()


def shared_in_list(nodes: list[Node]) -> int:
    if len(nodes) >= 2 and nodes[0] is nodes[1]:
        nodes[0].val = 5
        return nodes[1].val
    return 0


def optional_items(nodes: list[Optional[Node]]) -> int:
    total = 0
    for n in nodes:
        if n is not None:
            total += n.val
    return total


class Sized:
    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n


def sized_len(s: Optional[Sized]) -> int:
    return len(s)


def node_plus(n: Node) -> int:
    return n + 1


class Account:
    def __init__(self, balance: int, partner: Optional[Account] = None) -> None:
        assert balance >= 0
        self.balance = balance
        self.partner = partner

    def transfer(self, amount: int) -> int:
        if self.partner is None or amount <= 0:
            return 0
        self.balance -= amount
        self.partner.balance += amount
        assert self.partner is self or self.balance + self.partner.balance >= 0
        return self.balance

    @property
    def rich(self) -> bool:
        return self.balance > 100


def call_node(n: Optional[Node]) -> int:
    return n()


def reflect(n: Optional[Node]) -> int:
    kind = 1 if type(n) is Node else 0
    return kind + getattr(n, "val", 7) + (10 if hasattr(n, "next") else 0) + (100 if hasattr(n, "nope") else 0)

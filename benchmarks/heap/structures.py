"""Linked-list and tree programs over input objects (benchmarks/heap_models.py)."""

from __future__ import annotations

from typing import Optional


class Node:
    def __init__(self, val: int, next: Optional[Node] = None) -> None:
        self.val = val
        self.next = next


class Tree:
    def __init__(self, key: int, left: Optional[Tree] = None, right: Optional[Tree] = None) -> None:
        self.key = key
        self.left = left
        self.right = right


def insert_sorted(head: Optional[Node], v: int) -> Node:
    if head is None or v <= head.val:
        return Node(v, head)
    cur = head
    while cur.next is not None and cur.next.val < v:
        cur = cur.next
    cur.next = Node(v, cur.next)
    return head


def remove(head: Optional[Node], v: int) -> Optional[Node]:
    if head is None:
        return None
    if head.val == v:
        return head.next
    cur = head
    while cur.next is not None:
        if cur.next.val == v:
            cur.next = cur.next.next
            return head
        cur = cur.next
    return head


def reverse(head: Optional[Node]) -> Optional[Node]:
    prev = None
    while head is not None:
        nxt = head.next
        head.next = prev
        prev = head
        head = nxt
    return prev


def swap_first_two(head: Node) -> Node:
    second = head.next
    if second is None:
        return head
    head.next = second.next
    second.next = head
    return second


def rep_ok(head: Optional[Node]) -> bool:
    """Sorted and acyclic within 4 nodes (a repOk-style invariant)."""
    seen = 0
    cur = head
    while cur is not None:
        seen += 1
        if seen > 4:
            return False
        if cur.next is not None and cur.next.val < cur.val:
            return False
        if cur.next is head:
            return False
        cur = cur.next
    return True


def bst_search(t: Optional[Tree], k: int) -> bool:
    while t is not None:
        if t.key == k:
            return True
        t = t.left if k < t.key else t.right
    return False


def bst_insert(t: Optional[Tree], k: int) -> Tree:
    if t is None:
        return Tree(k)
    cur = t
    while True:
        if k < cur.key:
            if cur.left is None:
                cur.left = Tree(k)
                return t
            cur = cur.left
        else:
            if cur.right is None:
                cur.right = Tree(k)
                return t
            cur = cur.right

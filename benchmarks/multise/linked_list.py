"""Linked list of node objects: sorted insertion of every input item, then removal of ``k``.

Returns the length after removal times 10 plus the position ``k`` was removed from (9 when
absent).  The node structure is the same on many paths; only the order of the links differs.
"""


class Node:
    def __init__(self, value: int, nxt: "Node") -> None:
        self.value = value
        self.next = nxt


class LinkedList:
    def __init__(self) -> None:
        self.head = None
        self.length = 0

    def insert_sorted(self, value: int) -> None:
        if self.head is None or value <= self.head.value:
            self.head = Node(value, self.head)
        else:
            cur = self.head
            while cur.next is not None and cur.next.value < value:
                cur = cur.next
            cur.next = Node(value, cur.next)
        self.length += 1

    def remove(self, value: int) -> int:
        prev = None
        cur = self.head
        pos = 0
        while cur is not None:
            if cur.value == value:
                if prev is None:
                    self.head = cur.next
                else:
                    prev.next = cur.next
                self.length -= 1
                return pos
            prev = cur
            cur = cur.next
            pos += 1
        return 9


def linked_list(xs: list[int], k: int) -> int:
    lst = LinkedList()
    for x in xs:
        lst.insert_sorted(x)
    pos = lst.remove(k)
    return lst.length * 10 + pos

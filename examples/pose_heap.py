"""The POSE paper's swap, sum and hasNull programs (Figure 1), as far as this subset reaches.

The paper gives the methods input references; until the input-heap models land, the objects
are built by the analyzed code from int inputs, so aliasing is decided by those inputs.
"""


class Sample:
    def __init__(self, data: int):
        self.data = data
        self.next = None
        self.max = 4

    def swap(self, s):
        if s is not None:
            d = self.data
            self.data = s.data
            s.data = d

    def has_null(self) -> bool:
        s = self.next
        i = 1
        while s is not None and i <= self.max:
            s = s.next
            i = i + 1
        return s is None


def swap_demo(a: int, b: int, with_other: bool, aliased: bool) -> int:
    first = Sample(a)
    other = None
    if with_other:
        other = first if aliased else Sample(b)
    first.swap(other)
    return first.data


def sum_demo(x: int, y: int, z: int, share: int) -> int:
    n0 = Sample(x)
    n1 = n0 if share == 1 else Sample(y)
    n2 = n1 if share == 2 else Sample(z)
    return n0.data + n1.data + n2.data


def has_null_demo(length: int) -> bool:
    head = Sample(0)
    node = head
    count = 0
    while count < length and count < 6:
        node.next = Sample(count)
        node = node.next
        count += 1
    return head.has_null()

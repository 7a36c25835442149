"""Stack: a list-backed stack driven by a list of operations.

An item > 0 pushes it, 0 pops (an empty stack raises IndexError from ``pop``, caught and
counted), a negative item pushes the sum of the two topmost items when there are two.
The result is the final height times 100 plus the number of failed pops.
"""


class Stack:
    def __init__(self) -> None:
        self.items = []
        self.size = 0

    def push(self, x: int) -> None:
        self.items.append(x)
        self.size += 1

    def pop(self) -> int:
        if self.size == 0:
            raise IndexError("pop from empty stack")
        self.size -= 1
        return self.items.pop()

    def peek(self, depth: int) -> int:
        return self.items[self.size - 1 - depth]


def stack(ops: list[int]) -> int:
    s = Stack()
    failed = 0
    for op in ops:
        if op > 0:
            s.push(op)
        elif op == 0:
            try:
                s.pop()
            except IndexError:
                failed += 1
        elif s.size >= 2:
            s.push(s.peek(0) + s.peek(1))
    return s.size * 100 + failed

"""Queue: a bounded circular-buffer queue driven by a list of operations.

An item > 0 enqueues it (a full queue drops it and counts an overflow), 0 dequeues (an empty
queue counts an underflow), a negative item dequeues and re-enqueues the head (rotation).
The result encodes the final length, the overflows and the underflows.
"""

CAPACITY = 3


class Queue:
    def __init__(self) -> None:
        self.buf = [0, 0, 0]
        self.head = 0
        self.count = 0

    def enqueue(self, x: int) -> bool:
        if self.count == CAPACITY:
            return False
        self.buf[(self.head + self.count) % CAPACITY] = x
        self.count += 1
        return True

    def dequeue(self) -> int:
        if self.count == 0:
            raise IndexError("dequeue from empty queue")
        x = self.buf[self.head]
        self.head = (self.head + 1) % CAPACITY
        self.count -= 1
        return x


def queue(ops: list[int]) -> int:
    q = Queue()
    overflow = 0
    underflow = 0
    for op in ops:
        if op > 0:
            if not q.enqueue(op):
                overflow += 1
        elif op == 0:
            try:
                q.dequeue()
            except IndexError:
                underflow += 1
        elif q.count > 0:
            q.enqueue(q.dequeue())
    return q.count * 100 + overflow * 10 + underflow

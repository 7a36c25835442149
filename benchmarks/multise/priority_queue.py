"""Priority queue: a binary min-heap class driven by a list of operations.

An item >= 0 is inserted with that priority, a negative item extracts the minimum (an empty
queue is counted).  The result is the queue size times 10 plus the number of empty
extractions; the heap arrangement differs between paths, the size rarely does.
"""


class PriorityQueue:
    def __init__(self) -> None:
        self.heap = []
        self.size = 0

    def insert(self, x: int) -> None:
        self.heap.append(x)
        self.size += 1
        i = self.size - 1
        while i > 0:
            parent = (i - 1) // 2
            if self.heap[parent] <= self.heap[i]:
                break
            t = self.heap[parent]
            self.heap[parent] = self.heap[i]
            self.heap[i] = t
            i = parent

    def extract_min(self) -> int:
        top = self.heap[0]
        last = self.heap.pop()
        self.size -= 1
        if self.size > 0:
            self.heap[0] = last
            i = 0
            while True:
                left = 2 * i + 1
                if left >= self.size:
                    break
                smallest = left
                right = left + 1
                if right < self.size and self.heap[right] < self.heap[left]:
                    smallest = right
                if self.heap[i] <= self.heap[smallest]:
                    break
                t = self.heap[i]
                self.heap[i] = self.heap[smallest]
                self.heap[smallest] = t
                i = smallest
        return top


def priority_queue(ops: list[int]) -> int:
    q = PriorityQueue()
    empty = 0
    for op in ops:
        if op >= 0:
            q.insert(op)
        elif q.size == 0:
            empty += 1
        else:
            q.extract_min()
    return q.size * 10 + empty

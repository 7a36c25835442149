"""Everyday list code: search, maximum, and a stack built on append/pop."""


def index_of(xs: list[int], target: int) -> int:
    for i in range(len(xs)):
        if xs[i] == target:
            return i
    return -1


def largest(xs: list[int]) -> int:
    best = xs[0]  # IndexError on an empty list
    for x in xs:
        if x > best:
            best = x
    return best


def binary_search(xs: list[int], key: int) -> int:
    lo = 0
    hi = len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] < key:
            lo = mid + 1
        elif xs[mid] > key:
            hi = mid - 1
        else:
            return mid
    return -1


def balanced(ops: list[int]) -> bool:
    stack = []
    for op in ops:
        if op > 0:
            stack.append(op)
        elif op < 0:
            if not stack:
                return False
            top = stack.pop()
            if top != -op:
                return False
    return len(stack) == 0


def last_item(xs: list[int], k: int) -> int:
    return xs[-k]

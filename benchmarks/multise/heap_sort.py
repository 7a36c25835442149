"""Heap sort: in place on a copy of the input built by the code; returns a checksum.

Sift-down compares symbolic items; paths that end in the same arrangement share values.
The result is the position (in the input) of the smallest item plus ten times the number of
adjacent equal pairs in the sorted output, so many paths share it.
"""


def sift_down(a: list[int], start: int, end: int) -> None:
    root = start
    while 2 * root + 1 <= end:
        child = 2 * root + 1
        if child + 1 <= end and a[child] < a[child + 1]:
            child = child + 1
        if a[root] < a[child]:
            t = a[root]
            a[root] = a[child]
            a[child] = t
            root = child
        else:
            return


def heap_sort(xs: list[int]) -> int:
    a = []
    for x in xs:
        a.append(x)
    n = len(a)
    start = (n - 2) // 2
    while start >= 0:
        sift_down(a, start, n - 1)
        start -= 1
    end = n - 1
    while end > 0:
        t = a[end]
        a[end] = a[0]
        a[0] = t
        end -= 1
        sift_down(a, 0, end)
    i = 1
    while i < n:
        assert a[i - 1] <= a[i], "not sorted"
        i += 1
    dups = 0
    i = 1
    while i < n:
        if a[i - 1] == a[i]:
            dups += 1
        i += 1
    return dups

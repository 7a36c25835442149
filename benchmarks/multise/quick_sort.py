"""Quick sort (Lomuto partition, recursive), in place on a copy of the input built by the code.

Returns the number of distinct items, so that the many orderings of the input share a few
results; the assert checks the output is sorted.
"""


def partition(a: list[int], lo: int, hi: int) -> int:
    pivot = a[hi]
    i = lo
    j = lo
    while j < hi:
        if a[j] < pivot:
            t = a[i]
            a[i] = a[j]
            a[j] = t
            i += 1
        j += 1
    t = a[i]
    a[i] = a[hi]
    a[hi] = t
    return i


def qsort(a: list[int], lo: int, hi: int) -> None:
    if lo < hi:
        p = partition(a, lo, hi)
        qsort(a, lo, p - 1)
        qsort(a, p + 1, hi)


def quick_sort(xs: list[int]) -> int:
    a = []
    for x in xs:
        a.append(x)
    qsort(a, 0, len(a) - 1)
    distinct = 0
    i = 0
    while i < len(a):
        if i > 0:
            assert a[i - 1] <= a[i], "not sorted"
        if i == 0 or a[i - 1] != a[i]:
            distinct += 1
        i += 1
    return distinct

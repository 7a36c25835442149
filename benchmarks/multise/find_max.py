"""Find max: the largest item of a list (and where it is), as in the MultiSE paper's first benchmark.

Paths differ in which item is the running maximum after each step; the paths share the
values of ``best`` and ``pos`` after every join, which is where value summaries pay off.
"""


def find_max(xs: list[int]) -> int:
    if len(xs) == 0:
        return -1
    best = xs[0]
    pos = 0
    i = 1
    while i < len(xs):
        if xs[i] > best:
            best = xs[i]
            pos = i
        i += 1
    return pos

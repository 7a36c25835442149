"""Kadane's maximum subarray sum (empty subarray allowed), with the bounds of the best run.

Every path keeps a running sum ``cur`` and the best sum so far; after each item the paths
that reset ``cur`` to 0 share that value, and ``best``/``start``/``end`` take few distinct
values across many paths.
"""


def kadane(xs: list[int]) -> int:
    best = 0
    cur = 0
    start = 0
    best_start = 0
    best_end = 0
    i = 0
    for x in xs:
        cur = cur + x
        if cur <= 0:
            cur = 0
            start = i + 1
        elif cur > best:
            best = cur
            best_start = start
            best_end = i + 1
        i += 1
    return best_end - best_start

"""Array index: input-dependent indices into arrays the code builds.

A histogram of the input items by magnitude (``counts[bucket_of(x)] += 1``), then the most
frequent bucket, then a lookup at the symbolic index ``k % 4``.  Paths fork on the bucket of
each item; many paths end with the same counts, and the final symbolic read is shared.
"""


def bucket_of(x: int) -> int:
    if x < 0:
        return 0
    if x < 10:
        return 1
    if x < 100:
        return 2
    return 3


def array_index(xs: list[int], k: int) -> int:
    counts = [0, 0, 0, 0]
    for x in xs:
        b = bucket_of(x)
        counts[b] = counts[b] + 1
    best = 0
    i = 1
    while i < 4:
        if counts[i] > counts[best]:
            best = i
        i += 1
    c = counts[k % 4]
    if c == 0:
        return -1
    return c * 4 + best

"""Caller/callee program with exactly 121 feasible paths.

``classify`` (the callee) has two nested branches and therefore three
outcomes (it returns the constant 0, 1 or 2).  ``caller`` calls it twice, on
disjoint inputs, and after each call has its own nested branches comparing
another input with the callee's result.

Path count, per call site (callee outcome r, then the caller's branches on c):

    r = 0:  c > 0 and c > 0     (c > 0 and c <= 0 is infeasible)   -> 1
            c <= 0 and c < 0, c <= 0 and c >= 0 (c == 0)            -> 2
            subtotal 3
    r = 1:  c > 0: c > 1 | c == 1;    c <= 0: c < -1 | -1 <= c <= 0 -> 4
    r = 2:  c > 0: c > 2 | 1 <= c <= 2; c <= 0: c < -2 | -2 <= c <= 0 -> 4

    3 + 4 + 4 = 11 feasible paths per call site.

The two call sites read disjoint parameters ((a1, b1, c1) and (a2, b2, c2)),
so every combination is feasible: 11 * 11 = 121 paths in total.
"""


def classify(a: int, b: int) -> int:
    if a > b:
        if a > b + 10:
            return 2
        return 1
    return 0


def caller(a1: int, b1: int, c1: int, a2: int, b2: int, c2: int) -> int:
    acc = 0
    r1 = classify(a1, b1)
    if c1 > 0:
        if c1 > r1:
            acc = acc + 1
        else:
            acc = acc + 2
    else:
        if c1 < -r1:
            acc = acc + 3
        else:
            acc = acc + 4
    r2 = classify(a2, b2)
    if c2 > 0:
        if c2 > r2:
            acc = acc + 10
        else:
            acc = acc + 20
    else:
        if c2 < -r2:
            acc = acc + 30
        else:
            acc = acc + 40
    return acc + r1 + 3 * r2

"""Figure 1 of the loop-navigation paper, scaled to list inputs.

The paper's loops run 15 times over arrays A and B (2**30 paths); here the lists have a
symbolic length up to --max-list-len and the target condition is scaled to match: with
lists of up to 4 items the assertion fails only when A holds at least three 1s and
a + b == 6.
"""


def figure1(A: list[int], B: list[int]) -> int:
    a = 0
    b = 0
    for x in A:
        if x == 1:
            a += 1
    for y in B:
        if y == 2:
            b += 1
    assert not (a > 2 and a + b == 6), "target reached"
    return a + b

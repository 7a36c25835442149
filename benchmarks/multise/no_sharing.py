"""Control: no sharing.  Every path computes a different expression of the inputs, and every
branch condition depends on the value computed so far, so no two paths ever hold the same
value of ``acc`` (nor the same condition).  MultiSE has nothing to merge here; this measures
its overhead over DSE.
"""


def no_sharing(xs: list[int]) -> int:
    acc = 1
    i = 0
    for x in xs:
        if x > acc:
            acc = acc * 3 + x + i
        else:
            acc = acc * 5 - x + i
        i += 1
    return acc

"""Control: no shared values, shared conditions.  Every path returns a different expression of
the inputs (``acc`` is a different polynomial on every path), but the branch conditions are
on the inputs alone (``x > i``), so the path conditions share their atoms.  MultiSE can merge
nothing but the program counter; this measures its overhead when only values differ.
"""


def no_sharing_values(xs: list[int]) -> int:
    acc = 1
    i = 0
    for x in xs:
        if x > i:
            acc = acc * 3 + x
        else:
            acc = acc * 5 - x
        i += 1
    return acc

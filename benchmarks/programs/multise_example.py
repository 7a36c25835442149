"""MultiSE-style example: 5 feasible paths.

Paths of ``f`` (x, z, r are unconstrained ints):

1. 2x > 100, z == 1          -> r = 1.3, r > 1 is true  -> z = 0.3
2. 2x > 100, z != 1, r > 1   -> z = r - 1
3. 2x > 100, z != 1, r <= 1  -> z unchanged
4. 2x <= 100, r > 1          -> z = r - 1
5. 2x <= 100, r <= 1         -> z unchanged

(2x > 100, z == 1, r <= 1 is infeasible because r was just set to 1.3.)
"""


def f(x: int, z: int, r: int) -> int:
    x = 2 * x
    if x > 100:
        if z == 1:
            r = 1.3
    if r > 1:
        z = r - 1
    return z

"""The running example of the MultiSE paper (Sen et al., Figure 1 / slide 26).

Five feasible paths: x > 50 and z == 1 (r becomes the float 1.3, so r > 1 holds and z
becomes 0.3...); x > 50, z != 1 and r > 1; x > 50, z != 1, r <= 1; x <= 50 and r > 1;
x <= 50 and r <= 1. A concrete float flows into a variable that held a symbolic int.
"""


def f(x: int, z: int, r: int):
    x = 2 * x
    if x > 100:
        if z == 1:
            r = 1.3
    if r > 1:
        z = r - 1
    return z

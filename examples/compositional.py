"""The caller/callee pair of the compositional symbolic execution paper (Figure 1).

``p`` has two decisions; ``q`` calls it with its arguments in either order. The paper's
point: the paths of ``p`` are explored once per calling context by plain symbolic execution.
"""


def p(x: int, y: int) -> int:
    if x > y:
        x = 3 * x
    else:
        y = 5 * y
    if x > y:
        return x
    return y


def q(a: int, b: int) -> int:
    if a > b:
        return p(a, b)
    return p(b, a)

"""The paper's rational numbers: abs, gcd (by subtraction, bounded), simplify."""


def abs_(x: int) -> int:
    if x < 0:
        return -x
    return x


def gcd(a: int, b: int) -> int:
    for _ in range(6):
        if a == b or a <= 0 or b <= 0:
            break
        if a > b:
            a = a - b
        else:
            b = b - a
    return a


def simplify(n: int, d: int) -> tuple[int, int]:
    if d == 0:
        raise ZeroDivisionError("denominator is zero")
    g = gcd(abs_(n), abs_(d))
    if g <= 0:
        return n, d
    return n // g, d // g


def add_simplified(n1: int, d1: int, n2: int) -> tuple[int, int]:
    assert -3 <= n1 <= 3 and 1 <= d1 <= 3 and -3 <= n2 <= 3
    a = simplify(n1, d1)
    b = simplify(n2, d1)
    return simplify(a[0] + b[0], a[1])

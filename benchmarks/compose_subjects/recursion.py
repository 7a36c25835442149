"""Recursion: a recursive callee (its tree is built up to the depth bound), called 4 times."""


def steps(n: int) -> int:
    if n <= 1:
        return 0
    if n % 2 == 0:
        return 1 + steps(n // 2)
    return 1 + steps(n - 1)


def total_steps(a: int, b: int) -> int:
    assert 0 <= a <= 12 and 0 <= b <= 12
    return steps(a) + steps(b) + steps(a + b) + steps(a + 1)

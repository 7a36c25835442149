"""A branching callee called 12 times per path, on the same arguments and on shifted ones."""


def grade(score: int, bar: int) -> int:
    if score < 0:
        return 0
    if score < bar:
        return 1
    if score < 2 * bar:
        return 2
    if score < 3 * bar:
        return 3
    return 4


def same_args(s: int, bar: int) -> int:
    total = 0
    for _ in range(12):
        total += grade(s, bar)
    return total


def shifted_args(s: int, bar: int) -> int:
    assert 0 < bar <= 4
    total = 0
    for i in range(12):
        total += grade(s + i, bar)
    return total


def sign(v: int) -> int:
    if v > 0:
        return 1
    if v < 0:
        return -1
    return 0


def fresh_inputs(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
    return sign(a) + 3 * sign(b) + 9 * sign(c) + 27 * sign(d) + 81 * sign(e) + 243 * sign(f)

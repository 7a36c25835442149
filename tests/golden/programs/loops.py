"""Loops: while and for, with break, continue and else."""


def first_negative(xs: list[int]) -> int:
    for i, x in enumerate(xs):
        if x == 0:
            continue
        if x < 0:
            break
    else:
        return -1
    return i


def countdown(n: int) -> int:
    steps = 0
    while n > 0:
        n -= 2
        if n == 3:
            continue
        steps += 1
        if steps > 2:
            break
    else:
        steps = -steps
    return steps

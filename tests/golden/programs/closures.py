"""A closure over a parameter, a nonlocal counter and lambdas."""


def make_scaler(n: int) -> int:
    def scale(x: int) -> int:
        return x * n

    return scale(3) + scale(-1)


def count_matches(xs: list[int], k: int) -> int:
    count = 0

    def check(x: int) -> None:
        nonlocal count
        if x == k:
            count += 1

    for x in xs:
        check(x)
    return count


def pick(op: str, x: int) -> int:
    f = (lambda v: v + 1) if op == "inc" else (lambda v: -v)
    return f(x)

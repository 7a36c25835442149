"""Comprehensions (list, set, dict) and a generator expression consumed by sum()."""


def evens(xs: list[int]) -> list[int]:
    return [x * 2 for x in xs if x % 2 == 0]


def distinct_count(xs: list[int]) -> int:
    return len({x for x in xs if x > 0})


def index_of(s: str) -> dict[str, int]:
    return {c: i for i, c in enumerate(s) if c != "a"}


def total_positive(xs: list[int]) -> int:
    total = sum(x for x in xs if x > 0)
    if total > 10:
        return 10
    return total


def squares(xs: list[int]):
    for x in xs:
        yield x * x


def sum_squares(xs: list[int]) -> int:
    return sum(list(squares(xs)))

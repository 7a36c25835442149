"""Exceptions: try/except/else, raise, a class of the module's own, an implicit error."""


class EmptyError(Exception):
    pass


def head(xs: list[int]) -> int:
    if not xs:
        raise EmptyError("no items")
    return xs[0]


def safe_div(a: int, b: int) -> int:
    result = 0
    try:
        result = a // b
    except ZeroDivisionError:
        result = -1
    else:
        result += 1
    return result * 2


def lookup(xs: list[int], i: int) -> int:
    try:
        return head(xs) + xs[i]
    except EmptyError as exc:
        raise ValueError("empty list") from exc

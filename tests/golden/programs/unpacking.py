"""Unpacking: a starred target, one name, tuple swap."""


def split_head(xs: list[int]) -> int:
    first, *rest = xs
    if first > 0:
        return len(rest)
    return first


def only(xs: list[int]) -> int:
    (x,) = xs
    return x


def swap(a: int, b: int) -> tuple[int, int]:
    a, b = b, a
    if a < b:
        return a, b
    return b, a

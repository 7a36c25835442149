"""str and list methods pathloom models symbolically (tests/unit/test_str_list_methods.py)."""


def classify(s: str) -> int:
    if s.startswith("ab"):
        return 1
    if s.endswith(("z", "yy")):
        return 2
    return 3


def locate(s: str, t: str) -> int:
    at = s.find(t)
    if at == -1:
        return -1
    if at > 1:
        return s.index(t) * 10
    return at


def strict(s: str) -> int:
    return s.index("x")


def position(xs: list[int], x: int) -> int:
    return xs.index(x) + xs.count(x) * 100


def flag_position(xs: list[bool], b: bool) -> int:
    return xs.index(b)


def word_position(xs: list[str]) -> int:
    return xs.index("a") + xs.count("b")


def letters(word: str) -> str:
    """list() of a str, reversed, tested at both ends, sorted and joined."""
    chars = list(word)
    chars.reverse()
    if len(chars) >= 2 and chars[0] == "x" and chars[-1] == "y":
        return "yx"
    chars.sort()
    return "".join(chars)


def copies(xs: list[int]) -> int:
    """copy() and clear() leave the original as it was; a wrong argument is CPython's TypeError."""
    ys = xs.copy()
    ys.clear()
    if len(xs) == 2 and not ys:
        return xs[0] - xs[1]
    if len(xs) == 3:
        xs.reverse(len(xs))  # type: ignore[call-arg]
    return len(xs)


def extended(xs: list[int], ys: list[int], word: str) -> int:
    """extend() by a list (itself too), a str and a tuple; its value is None."""
    out: list[object] = []
    if out.extend(xs) is not None:
        return -1
    out.extend(out)
    out.extend((1, 2))
    out.extend("ab")
    out.extend(ys)
    if len(out) == 4 + 2 * len(xs) + len(ys) and out[-1 - len(ys)] == "b":
        return len(out)
    return -2


def evens_made(n: int) -> list[int]:
    made = []
    i = 0
    while i < n:
        if i % 2 == 0:
            made.append(i)
        i += 1
    return made


def evens_copied(n: int) -> int:
    """list() of a callee's list whose length differs among merged paths (MultiSE once
    crashed turning the copy into heap-cell writes: a cell read there needed a split)."""
    return sum(list(evens_made(n)))


def inserted(xs: list[int], i: int, v: int) -> int:
    """insert() at a symbolic index: negative counts from the end, both sides clamped."""
    xs.insert(i, v)
    if len(xs) > 2 and xs[1] == v and v > 7:
        return 1
    if xs[0] == v and i > len(xs):
        return 2
    if xs[-1] == v and i < -len(xs):
        return 3
    return 0


def reordered(word: str, xs: list[int]) -> str:
    """sorted() of a str, list() and ''.join() of reversed(): no iterator kept as a value."""
    backwards = "".join(reversed(word))
    if sum(reversed(xs)) > 5 and list(reversed(xs))[0] == 1:
        return "r" + backwards
    return "".join(sorted(word, reverse=True)) + backwards

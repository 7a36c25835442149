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

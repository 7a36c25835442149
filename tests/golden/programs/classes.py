"""A class with an initializer and methods, used by a function and explored as a method."""


class Counter:
    def __init__(self, start: int) -> None:
        self.value = start

    def add(self, k: int) -> int:
        if k < 0:
            raise ValueError("negative step")
        self.value += k
        return self.value


def run(start: int, k: int) -> str:
    c = Counter(start)
    if c.add(k) > 10:
        return "big"
    return "small"

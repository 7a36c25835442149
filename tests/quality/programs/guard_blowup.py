"""A fuzzed program whose MultiSE guards blow up (a symbolic-length list, an item deleted at a
merged index): one step's guard algebra took minutes before steps could be dropped."""


def f(s: str) -> int:
    l0 = ((len(s) or 7) % 3) * [7, 0]
    l0.pop()
    x = sum(l0[4:0])
    del l0[x]
    return 1

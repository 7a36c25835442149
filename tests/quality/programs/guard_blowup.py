"""A fuzzed program whose MultiSE guards blow up (a symbolic-length list, an item deleted at a
merged index): one step's guard algebra took minutes before steps could be dropped. (The
fuzzed original sliced ``l0[4:0]``, empty whatever the length: that slice folds to an empty
list now, ``slicing._empty``; a start that depends on the input keeps the blow-up.)"""


def f(s: str) -> int:
    l0 = ((len(s) or 7) % 3) * [7, 0]
    l0.pop()
    x = sum(l0[len(s):0])
    del l0[x]
    return 1

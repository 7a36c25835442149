# pathloom differential regression: multise:crash:Z3Exception@z3_core.py:check
# entry: f
# params: x: int
# engines: dse,multise
# fixed: the theory lemmas' BDD grew as a product of interleaved terms (minutes in BDD conjunctions, the harness timed out); it is now capped
# found: fuzz --seed 25 --engines multise; 42 lines, not shrunk

def h0(a: int, b: int) -> int:
    ok0 = True
    assert (4 % a) or (not ok0)
    return b


def h1(a: int) -> int:
    t0 = a
    if not (t0 > a):
        if not ((-4) != t0):
            a *= 2
    return t0 - h0(a, 9)


class C0:
    def __init__(self, v: int) -> None:
        self.v = v

    def step(self, d: int) -> int:
        self.v += self.v and True
        return (False and True) and min(8, self.v)


def f(x: int) -> int:
    v0 = x
    ok0 = False
    u0 = 'a'
    o0 = C0(x if False else x)
    if False and o0.step(x):
        o0.v, x = ok0, v0 // v0
    elif o0.step(ok0 + v0):
        if (ok0 and ok0) and (x > o0.v != o0.v):
            o0.v = x - (o0.v * o0.v)
    else:
        x = -(x * 6)
        i0 = 0
        while i0 < 4 and ((i0 >= o0.v) or (ok0 or ok0)):
            i0 += 1
            if 5 >= ok0:
                o0.step(i0)
                o0.step(-3)
    return ord(u0[ok0]) and (-len(u0))

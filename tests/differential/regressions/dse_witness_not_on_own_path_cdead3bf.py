# pathloom differential regression: dse:witness:not-on-own-path
# entry: f
# params: x: int, p: bool
# engines: dse,multise
# inputs: [{"x": -1, "p": true}]
# fixed: [dse:witness:not-on-own-path] path #2 [return 'b']: its own inputs {'x': -1, 'p': True} do not satisfy its path condition (fixed by 602702d: kept as a guard)
# found: fuzz --seed 2 (51 lines, 25 after Hypothesis shrinking, reduced to 21 lines); fixed by 602702d

class C0:

    def __init__(self, v: int) -> None:
        self.v = v
        self.w = v

    def step(self, d: int) -> int:
        d = d - (self.w if self.v else -1)
        return --4 if True or True else 0

def f(x: int, p: bool) -> str:
    ok0 = p
    o0 = C0(x)
    i0 = 0
    while i0 < 1:
        i0 += 1
        o0.v = min(-o0.v, ok0 if ok0 else x)
        for k0 in range(1):
            o0.w = o0.step(ok0 or o0.w)
    return 'b'

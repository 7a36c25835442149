# pathloom differential regression: dse:replay:raise-line
# entry: f
# params: xs: list[int]
# engines: dse,multise
# inputs: [{"xs": []}]
# fixed: [dse:replay:raise-line] path #0 [raise ValueError at line 13 (explicit)] inputs {'xs': []}: predicted raise ValueError at line 13, CPython raised ValueError at line 15 (oops) (fixed by 64475b0: kept as a guard)
# found: fuzz --seed 5 (batch seed 6613812840851947673); 21 lines, 15 after Hypothesis shrinking, 9 after statement reduction

def f(xs: list[int]) -> int:
    i0 = 0
    while i0 < 1:
        try:
            raise ValueError('oops')
        except ValueError:
            raise ValueError('oops')
        i0 += 1
    return 0

# pathloom differential regression: dse:replay:return-value
# entry: f
# params: xs: list[int]
# engines: dse,multise
# inputs: [{"xs": []}]
# fixed: [dse:replay:return-value] path #0 [return 0] inputs {'xs': []}: predicted return 0, CPython returned False (fixed by 64475b0: kept as a guard)
# found: fuzz --seed 1 --batch 500 (an early run; 10 lines, shrunk by Hypothesis and reduced to 4)

def f(xs: list[int]) -> int:
    ok0 = False
    v0 = ok0
    return min(v0, len(xs))

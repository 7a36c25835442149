# pathloom differential regression: multise:crash:RecursionError@bdd.py:and_
# entry: f
# params: xs: list[int]
# engines: dse,multise
# inputs: []
# found: fuzz --seed 22 (batch seed 16737900732481353151); 30 lines, 17 after Hypothesis shrinking, 4 after statement reduction

def f(xs: list[int]) -> int:
    ok0 = True
    xs.append(ok0)
    return 0

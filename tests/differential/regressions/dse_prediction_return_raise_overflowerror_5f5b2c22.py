# pathloom differential regression: dse:prediction:return->raise:OverflowError
# entry: f
# params: x: int
# engines: dse,multise
# inputs: [{"x": -9223372036854775809}]
# found: fuzz --seed 1 (new generator: list repetition by a symbolic count); reduced by hand

def f(x: int) -> int:
    l0 = [1] * min(x, 3)
    return len(l0)

# pathloom differential regression: dse:prediction:return->raise:OverflowError
# entry: f
# params: x: int
# engines: dse,multise
# inputs: [{"x": -9223372036854775809}]
# xfail: [dse:prediction:return->raise:OverflowError] inputs {'x': -9223372036854775809} hold for path #0 [return 0]: predicted return 0, CPython raised OverflowError at line 10 (cannot fit 'int' into an index-sized integer)
# found: fuzz --seed 1 (new generator: list repetition by a symbolic count); reduced by hand

def f(x: int) -> int:
    l0 = [1] * min(x, 3)
    return len(l0)

# pathloom differential regression: dse+multise:agree:messages-differ
# entry: f
# params: x: int, xs: list[int]
# engines: dse,multise
# inputs: []
# fixed: [dse+multise:agree:messages-differ] for {'x': -1, 'xs': [0, 0, -2]}: messages differ: 'string index out of range' vs 'list index out of range'
# found: fuzz --seed 3 --no-shrink (new generator: str.replace, list repetition); reduced by hand

def f(x: int, xs: list[int]) -> str:
    u0 = 'b'
    return u0[xs[x]]

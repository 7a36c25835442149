# pathloom differential regression: dse:replay:raise:AttributeError->return
# entry: f
# params: x: int
# engines: dse,multise
# inputs: [{"x": 0}]
# xfail: [dse:replay:raise:AttributeError->return] path #0 [raise AttributeError at line 19 (implicit)] inputs {'x': 0}: predicted raise AttributeError at line 19, CPython returned 0 -- at 3ec02f6 the write is reported unsupported instead: an operation run in CPython changed a D0 (dicts, sets and opaque objects are not modeled)
# found: fuzz --seed 2 and 3 (new generator: dataclasses); shrunk by Hypothesis and the reducer, then by hand

from dataclasses import dataclass


@dataclass
class D0:
    a: int


def f(x: int) -> int:
    d0 = D0(0)
    d0.a = x
    return d0.a

# pathloom differential regression: dse:replay:raise:AttributeError->return
# entry: f
# params: x: int
# engines: dse,multise
# inputs: [{"x": 0}]
# found: fuzz --seed 2 and 3 (new generator: dataclasses); shrunk by Hypothesis and the reducer, then by hand

from dataclasses import dataclass


@dataclass
class D0:
    a: int


def f(x: int) -> int:
    d0 = D0(0)
    d0.a = x
    return d0.a

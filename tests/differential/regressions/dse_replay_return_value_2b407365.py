# pathloom differential regression: dse:replay:return-value
# entry: f
# params: x: int
# engines: dse,multise
# inputs: [{"x": 0}]
# fixed: [dse:replay:return-value] path #1 [return {'$function': 'N0.clamp'}] inputs {'x': 0}: predicted return {'$function': 'N0.clamp'}, CPython returned 0
# found: fuzz --seed 2 (new generator: static methods); shrunk by Hypothesis and the reducer, then by hand

class N0:
    def __init__(self, v: int) -> None:
        self.v = v

    @staticmethod
    def clamp(a: int) -> int:
        return min(max(a, -3), 3)


def f(x: int) -> int:
    n0 = N0(x)
    return n0.clamp(0)

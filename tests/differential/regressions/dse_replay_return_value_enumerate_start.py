# pathloom differential regression: dse:replay:return-value
# entry: f
# params: xs: list[int], xs2: list[int]
# engines: dse,multise
# inputs: [{"xs": [0, 4], "xs2": {"$same": "xs"}}, {"xs": [0, 0, 2], "xs2": {"$same": "xs"}}]
# fixed: [dse:replay:return-value] inputs {'xs': [0, 4], 'xs2': {'$same': 'xs'}}: predicted return 2, CPython returned 4 (enumerate with start=-2 ran in CPython over a copy of the aliased list; fixed by 9192f73: kept as a guard)
# found: fuzz --seed 2828 (a 30-line program; reduced by hand to this loop)

def f(xs: list[int], xs2: list[int]) -> int:
    n = 0
    for k, it0 in enumerate(xs2, start=-2):
        if n < 3:
            xs[it0:1] = [1]
        n += 1
    return n

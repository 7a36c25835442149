# Found by the fuzzer: non-linear modulo in a loop; Z3 once ignored its timeout on it.
K0 = 7
K1 = -1


def h0(a: int, b: int) -> int:
    t0 = K1
    ok0 = False
    b = -2
    return t0 + abs(b)


def f(x: int) -> str:
    v0 = x
    v1 = 7
    if not (False and False):
        for k0 in range(4):
            for k1 in range(1, 4):
                x = h0(abs(v1), -x)
            for k2 in range(4):
                v0 -= K0 % v0
                x = 4
    else:
        x = v0
    return 'b'

"""A fuzzed program (seed 2727): MultiSE's search for inputs covering every branch direction,
after the exploration, went on for minutes past the time limit (each solver query a timeout)."""

from collections.abc import Callable


K0 = 7
K1 = -7
PRIMES = [0]


def h0(n: int, a: int, b: int) -> int:
    t0 = n
    if n <= 0 or n > 4:
        return K1
    t0 *= 0
    b = K0
    return h0(n - 2, t0 * 3, (-2) * 1) + PRIMES[-2]


def f(s: str, g: Callable[[int], int], t: str, x: int) -> int:
    v0 = K0
    v1 = len(t)
    v2 = 6
    ok0 = True
    t, s = "-".join(sorted([ch for ch in t])), t[:3]
    v2, x = divmod(len(PRIMES), v2)
    if not (8 in PRIMES):
        if s:
            t, s = "-".join(sorted([ch for ch in t])), t[:3]
            s, t = ", ".join(sorted([ch for ch in s])), "".join([ch for ch in t if ch != ''])
            if ok0:
                s = str(v0)
            else:
                t = chr(65 + K0 % 26)
    return (-3) + (-2)

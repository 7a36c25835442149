"""Decorators: functools.cache / lru_cache / wraps / total_ordering, user decorators, registries,
properties, staticmethod and classmethod.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

import functools
from collections.abc import Callable
from functools import cache, lru_cache, wraps


@cache
def _fib(n: int) -> int:
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


def fib_bound(n: int) -> int:
    assert 0 <= n <= 20
    f = _fib(n)
    assert f >= n - 1
    return f


@lru_cache(maxsize=None)
def _ways(n: int) -> int:
    if n <= 1:
        return 1
    return _ways(n - 1) + _ways(n - 2)


def count_ways(n: int) -> int:
    assert 0 <= n <= 15
    w = _ways(n)
    assert w <= 2 ** (n - 1)  # BUG: the bound fails for zero steps (n=0)
    return w


def _nonnegative(f: Callable[..., int]) -> Callable[..., int]:
    @wraps(f)
    def wrapper(*args: int, **kwargs: int) -> int:
        result = f(*args, **kwargs)
        return max(result, 0)

    return wrapper


@_nonnegative
def _balance_after(balance: int, spend: int) -> int:
    return balance - spend


def checkout(balance: int, spend: int) -> int:
    assert balance >= 0 and spend >= 0
    b = _balance_after(balance, spend)
    assert b >= 0
    assert b <= balance
    return b


def _positive_result(f: Callable[..., int]) -> Callable[..., int]:
    @wraps(f)
    def wrapper(*args: int, **kwargs: int) -> int:
        result = f(*args, **kwargs)
        if result < 0:
            raise ValueError(f"{f.__name__} gave {result}")
        return result

    return wrapper


@_positive_result
def _discounted(price: int, percent: int) -> int:
    return price - price * percent // 100


def net_price(price: int, percent: int) -> int:
    assert price >= 0 and 0 <= percent <= 100
    p = _discounted(price, percent)
    assert p <= price
    assert p > 0 or price == 0  # BUG: a full discount makes the item free (price=1, percent=100)
    return p


HANDLERS: dict[str, Callable[[int], int]] = {}


def _register(name: str) -> Callable[[Callable[[int], int]], Callable[[int], int]]:
    def decorate(f: Callable[[int], int]) -> Callable[[int], int]:
        HANDLERS[name] = f
        return f

    return decorate


@_register("double")
def _double(x: int) -> int:
    return 2 * x


@_register("square")
def _square(x: int) -> int:
    return x * x


def dispatch(kind: str, x: int) -> int:
    assert kind in ("double", "square")
    result = HANDLERS[kind](x)
    assert result == (2 * x if kind == "double" else x * x)
    return result


@cache
def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


def next_prime(n: int) -> int:
    assert 0 <= n <= 100
    m = n + 1
    while not _is_prime(m):
        m += 1
    assert m - n <= 6  # BUG: prime gaps can be wider (n=89)
    return m


class Thermometer:
    def __init__(self, celsius: int) -> None:
        self._celsius = celsius

    @classmethod
    def from_fahrenheit(cls, f: int) -> "Thermometer":
        return cls((f - 32) * 5 // 9)

    @staticmethod
    def kelvin_of(celsius: int) -> int:
        return celsius + 273

    @property
    def celsius(self) -> int:
        return self._celsius

    @property
    def kelvin(self) -> int:
        return self.kelvin_of(self._celsius)


def convert(f: int) -> int:
    assert -500 <= f <= 500
    t = Thermometer.from_fahrenheit(f)
    assert t.kelvin == t.celsius + 273
    return t.kelvin


class Volume:
    def __init__(self) -> None:
        self._level = 5

    @property
    def level(self) -> int:
        return self._level

    @level.setter
    def level(self, value: int) -> None:
        self._level = min(value, 10)


def turn(delta: int) -> int:
    assert -20 <= delta <= 20
    v = Volume()
    v.level = v.level + delta
    assert 0 <= v.level <= 10  # BUG: the setter does not clamp below zero (delta=-6)
    return v.level


def _memoize(f: Callable[[int], int]) -> Callable[[int], int]:
    cache: dict[int, int] = {}

    def wrapper(n: int) -> int:
        if n not in cache:
            cache[n] = f(n)
        return cache[n]

    return wrapper


@_memoize
def _triangle(n: int) -> int:
    return 0 if n == 0 else n + _triangle(n - 1)


def triangle_number(n: int) -> int:
    assert 0 <= n <= 20
    t = _triangle(n)
    assert t == n * (n + 1) // 2
    return t


@lru_cache(maxsize=128)
def _binomial(n: int, k: int) -> int:
    if k == 0 or k == n:
        return 1
    return _binomial(n - 1, k - 1) + _binomial(n - 1, k)


def row_sum(n: int) -> int:
    assert 0 <= n <= 6
    total = sum(_binomial(n, k) for k in range(n))
    assert total == 2**n  # BUG: range stops before k = n (n=0)
    return total


def _counted(f: Callable[..., int]) -> Callable[..., int]:
    @functools.wraps(f)
    def wrapper(*args: int, **kwargs: int) -> int:
        return f(*args, **kwargs)

    return wrapper


@_counted
def _area(w: int, h: int) -> int:
    return w * h


def room_area(w: int, h: int) -> int:
    assert w >= 0 and h >= 0
    a = _area(w, h=h)
    assert a == w * h and a >= 0
    return a


def _zero_on_error(f: Callable[..., int]) -> Callable[..., int]:
    @wraps(f)
    def wrapper(*args: int, **kwargs: int) -> int:
        try:
            return f(*args, **kwargs)
        except ZeroDivisionError:
            return 0

    return wrapper


@_zero_on_error
def _average(total: int, n: int) -> int:
    return total // n


def mean_score(total: int, count: int) -> int:
    assert total >= 0 and count >= 0
    m = _average(total, count)
    assert m * count <= total
    assert m > 0 or total < count  # BUG: an empty class averages to zero (total=5, count=0)
    return m


@cache
def _vowels_in(word: str) -> int:
    return sum(1 for c in word if c in "aeiou")


def total_vowels(words: list[str]) -> int:
    assert len(words) <= 4
    total = sum(_vowels_in(w) for w in words)
    assert total <= sum(len(w) for w in words)
    return total


@functools.total_ordering
class Release:
    def __init__(self, major: int, minor: int) -> None:
        self.major = major
        self.minor = minor

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Release) and (self.major, self.minor) == (other.major, other.minor)

    def __lt__(self, other: "Release") -> bool:
        return (self.major, self.minor) < (other.major, other.minor)


def latest(a_major: int, a_minor: int, b_major: int, b_minor: int) -> tuple[int, int]:
    assert min(a_major, a_minor, b_major, b_minor) >= 0
    a, b = Release(a_major, a_minor), Release(b_major, b_minor)
    best = max(a, b)
    assert best >= a and best >= b
    return best.major, best.minor


@cache
def _partitions(n: int, k: int) -> int:
    if n == 0:
        return 1
    if n < 0 or k == 0:
        return 0
    return _partitions(n - k, k) + _partitions(n, k - 1)


def count_partitions(n: int) -> int:
    assert 1 <= n <= 8
    p = _partitions(n, n)
    assert p <= 2 ** (n - 1)
    assert p < 2 * n  # BUG: partitions grow faster than linearly (n=7)
    return p

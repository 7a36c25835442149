"""Calling conventions and control flow: keyword-only and positional-only parameters,
*args/**kwargs in callees, starred assignments and calls, the walrus, imports inside
functions, functions defined under ``if``, try/finally, random generators the code seeds.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

import random
import sys


def make_range(start: int, stop: int, *, step: int = 1) -> list[int]:
    assert 1 <= step <= 3 and 0 <= stop - start <= 10
    out = list(range(start, stop, step))
    assert all(start <= v < stop for v in out)
    return out


def decile(score: int, /, *, out_of: int = 100) -> int:
    assert out_of > 0 and 0 <= score <= out_of
    rank = score * 10 // out_of
    assert 0 <= rank <= 9  # BUG: a perfect score lands in an eleventh decile (score=100, out_of=100)
    return rank


def _total(*values: int) -> int:
    result = 0
    for v in values:
        result += v
    return result


def add_three(a: int, b: int, c: int) -> int:
    assert abs(a) < 10**9 and abs(b) < 10**9 and abs(c) < 10**9
    t = _total(a, b, c)
    assert t == a + b + c
    return t


def _build_url(base: str, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return base + "?" + query


def page_link(page: int, sort: str) -> str:
    assert 0 <= page <= 99 and len(sort) <= 6
    url = _build_url("/items", page=str(page), sort=sort)
    assert url.count("=") == 2  # BUG: the values are not escaped (page=0, sort='=')
    return url


def head_tail(xs: list[int]) -> int:
    assert xs and len(xs) <= 4
    first, *rest = xs
    assert len(rest) == len(xs) - 1 and first == xs[0]
    return first


def middle_value(xs: list[int]) -> int:
    assert len(xs) == 3
    _, mid, _ = xs
    assert sorted(xs)[1] == mid  # BUG: the middle slot is the median only when sorted (xs=[0, 1, 0])
    return mid


def median_of_three(xs: list[int]) -> int:
    assert len(xs) == 3
    low, mid, high = sorted(xs)
    assert low <= mid <= high
    return mid


def longest_line(lines: list[str]) -> int:
    assert len(lines) <= 4
    best = 0
    for line in lines:
        if (n := len(line.rstrip())) > best:
            best = n
    assert best <= max((len(line) for line in lines), default=0)
    return best


def first_long_word(words: list[str], n: int) -> str:
    assert n >= 1 and len(words) <= 4
    if any(len(found := w) >= n for w in words):
        assert len(found) == n  # BUG: longer words match too (words=['ab'], n=1)
        return found
    return ""


def squares_below(xs: list[int], limit: int) -> list[int]:
    assert len(xs) <= 4
    out = [y for x in xs if (y := x * x) < limit]
    assert all(0 <= v < limit for v in out)
    return out


def leg_length(a: int, c: int) -> float:
    assert 0 <= a <= c <= 1000
    import math

    b = math.sqrt(c * c - a * a)
    assert b <= c
    return b


def caesar(s: str, k: int) -> str:
    assert s.isascii() and 0 <= k < 26
    from string import ascii_lowercase

    out = "".join(ascii_lowercase[(ascii_lowercase.index(c) + k) % 26] if c in ascii_lowercase else c for c in s)
    assert len(out) == len(s)
    assert out.isalpha() or not s  # BUG: non-letters pass through unchanged (s='1', k=0)
    return out


def weekday_abbrev(day: int) -> str:
    assert 0 <= day <= 13
    import calendar

    names = list(calendar.day_abbr)
    name = names[day % 7]
    assert len(name) == 3
    return name


if sys.version_info >= (3, 10):

    def _normalize(text: str) -> str:
        return " ".join(text.split())

else:

    def _normalize(text: str) -> str:
        return text.strip()


def normalized_length(text: str) -> int:
    assert len(text) <= 12
    n = len(_normalize(text))
    assert n <= len(text)
    return n


def apply_step(kind: int, x: int) -> int:
    assert abs(x) <= 1000
    if kind == 0:

        def step(v: int) -> int:
            return v + 1

    else:

        def step(v: int) -> int:
            return v * 2

    result = step(x)
    assert result > x  # BUG: doubling a negative number shrinks it (kind=1, x=-1)
    return result


def shuffled_deck(n: int) -> list[int]:
    assert 0 <= n <= 8
    rng = random.Random(42)
    deck = list(range(n))
    rng.shuffle(deck)
    assert sorted(deck) == list(range(n))
    return deck


def pick_winner(names: list[str]) -> str:
    assert names and len(names) <= 4
    rng = random.Random(7)
    i = rng.randint(0, len(names))
    assert 0 <= i < len(names)  # BUG: randint includes its upper bound (names=['a'])
    return names[i]


def sample_code(prefix: str) -> str:
    assert prefix.isalpha() and len(prefix) <= 4
    rng = random.Random(len(prefix))
    n = rng.randint(0, 999)
    code = f"{prefix}{n:03d}"
    assert len(code) == len(prefix) + 3
    return code


def checked_div(a: int, b: int) -> int:
    assert abs(a) <= 1000 and abs(b) <= 1000
    steps = 0
    try:
        steps += 1
        result = a // b
    except ZeroDivisionError:
        result = 0
    finally:
        steps += 1
    assert steps == 2
    assert result * b == a or b == 0  # BUG: floor division drops the remainder (a=1, b=2)
    return result


def _call_with(fn: str, *args: int, **kwargs: int) -> int:
    if fn == "mul":
        return _multiply(*args, **kwargs)
    return _total(*args)


def _multiply(x: int, factor: int = 1) -> int:
    return x * factor


def scaled(x: int, factor: int) -> int:
    assert abs(x) <= 1000 and abs(factor) <= 1000
    r = _call_with("mul", x, factor=factor)
    assert r == x * factor
    return r


def tag(label: str, *, upper: bool = False, limit: int = 5) -> str:
    assert len(label) <= 6
    s = label.upper() if upper else label
    s = s[:limit]
    assert len(s) <= limit  # BUG: a negative limit slices from the end (label='', limit=-1)
    return s


def _rgb_to_hex(r: int, g: int, b: int) -> str:
    return f"#{r:02x}{g:02x}{b:02x}"


def color_code(rgb: list[int]) -> str:
    assert len(rgb) == 3 and all(0 <= v <= 255 for v in rgb)
    code = _rgb_to_hex(*rgb)
    assert len(code) == 7 and code.startswith("#")
    return code


def merge_options(defaults: dict[str, int], overrides: dict[str, int]) -> dict[str, int]:
    assert len(defaults) <= 3 and len(overrides) <= 3
    merged = {**defaults, **overrides}
    assert all(merged[k] == v for k, v in overrides.items())
    assert len(merged) == len(defaults)  # BUG: an override of an unknown option adds a key (defaults={}, overrides={'a': 1})
    return merged

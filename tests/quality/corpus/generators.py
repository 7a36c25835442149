"""Generators consumed item by item: ``for x in g()``, ``next()``, ``sum(g())``, ``yield from``.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

import itertools
from collections.abc import Iterator


def _evens_below(n: int) -> Iterator[int]:
    for i in range(n):
        if i % 2 == 0:
            yield i


def sum_evens(n: int) -> int:
    assert 0 <= n <= 10
    total = sum(_evens_below(n))
    assert total % 2 == 0
    return total


def _negative_positions(xs: list[int]) -> Iterator[int]:
    for i, x in enumerate(xs):
        if x < 0:
            yield i


def first_negative(xs: list[int]) -> int:
    assert len(xs) <= 6
    idx = next(_negative_positions(xs), -1)
    if idx >= 0:
        assert xs[idx] < 0
    return idx


def _chunks(xs: list[int], size: int) -> Iterator[list[int]]:
    for i in range(0, len(xs), size):
        yield xs[i : i + size]


def chunk_sizes(xs: list[int], size: int) -> int:
    assert 1 <= size <= 3 and len(xs) <= 6
    count = 0
    for chunk in _chunks(xs, size):
        assert len(chunk) == size  # BUG: the last chunk can be shorter (xs=[1], size=2)
        count += 1
    return count


def _fibonacci() -> Iterator[int]:
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


def fib_upto(n: int) -> list[int]:
    assert 0 <= n <= 30
    out = []
    for f in _fibonacci():
        if f > n:
            break
        out.append(f)
    assert all(a <= b for a, b in zip(out, out[1:]))
    return out


def _running_totals(xs: list[int]) -> Iterator[int]:
    total = 0
    for x in xs:
        total += x
        yield total


def best_prefix(xs: list[int]) -> int:
    assert len(xs) <= 5
    best = 0
    for t in _running_totals(xs):
        best = max(best, t)
    assert best == max(itertools.accumulate(xs), default=0)  # BUG: best starts at 0, so an all-negative input is wrong (xs=[-1])
    return best


def _words_of(text: str) -> Iterator[str]:
    word = ""
    for c in text:
        if c == " ":
            if word:
                yield word
            word = ""
        else:
            word += c
    if word:
        yield word


def count_words(text: str) -> int:
    assert len(text) <= 10
    n = sum(1 for _ in _words_of(text))
    assert n <= len(text)
    return n


def _window_sums(xs: list[int], k: int) -> Iterator[int]:
    for i in range(len(xs) - k):
        yield sum(xs[i : i + k])


def count_windows(xs: list[int], k: int) -> int:
    assert 1 <= k <= 3 and len(xs) <= 6
    count = 0
    for _ in _window_sums(xs, k):
        count += 1
    if len(xs) >= k:
        assert count == len(xs) - k + 1  # BUG: the last window is skipped (xs=[1], k=1)
    return count


def first_word(s: str) -> str:
    assert len(s) <= 20
    it = iter(s.split())
    try:
        w = next(it)
    except StopIteration:
        return ""
    assert w and " " not in w
    return w


def _numbers_in(lines: list[str]) -> Iterator[int]:
    for line in lines:
        line = line.strip()
        if not line:
            continue
        yield int(line)


def count_records(lines: list[str]) -> int:
    assert all(line.strip() == "" or line.strip().isdecimal() for line in lines)
    n = 0
    for _ in _numbers_in(lines):
        n += 1
    assert n == len(lines)  # BUG: blank lines are skipped (lines=[''])
    return n


def _squares() -> Iterator[int]:
    n = 0
    while True:
        yield n * n
        n += 1


def squares_prefix(n: int) -> list[int]:
    assert 0 <= n <= 6
    out = list(itertools.islice(_squares(), n))
    assert len(out) == n
    return out


def _countdown(n: int) -> Iterator[int]:
    while n > 0:
        yield n
        n -= 1


def launch(n: int) -> int:
    assert 0 <= n <= 8
    last = None
    for v in _countdown(n):
        last = v
    assert last == 1  # BUG: countdown(0) yields nothing (n=0)
    return n


def _walk(rows: list[list[int]]) -> Iterator[int]:
    for row in rows:
        yield from row


def count_cells(rows: list[list[int]]) -> int:
    assert len(rows) <= 3
    n = 0
    for _ in _walk(rows):
        n += 1
    assert n == sum(len(r) for r in rows)
    return n


def _interleave(a: list[int], b: list[int]) -> Iterator[int]:
    for x, y in zip(a, b):
        yield x
        yield y


def merged_length(a: list[int], b: list[int]) -> int:
    assert len(a) <= 3 and len(b) <= 3
    n = sum(1 for _ in _interleave(a, b))
    assert n == len(a) + len(b)  # BUG: zip stops at the shorter list (a=[1], b=[])
    return n


def find_index(xs: list[int], target: int) -> int:
    assert len(xs) <= 6
    idx = next((i for i, x in enumerate(xs) if x == target), -1)
    assert idx == -1 or xs[idx] == target
    return idx


def _unique_by_abs(xs: list[int]) -> Iterator[int]:
    seen = set()
    for x in xs:
        if abs(x) not in seen:
            seen.add(abs(x))
            yield x


def dedupe_count(xs: list[int]) -> int:
    assert len(xs) <= 4
    out = []
    for x in _unique_by_abs(xs):
        out.append(x)
    assert len(out) == len(set(xs))  # BUG: values equal in absolute value count once (xs=[1, -1])
    return len(out)


def _squares_upto(n: int) -> Iterator[int]:
    for i in range(1, n + 1):
        yield i * i


def sum_squares(n: int) -> int:
    assert 0 <= n <= 10
    total = sum(_squares_upto(n))
    assert total == n * (n + 1) * (2 * n + 1) // 6
    return total


def _pairs(xs: list[int]) -> Iterator[tuple[int, int]]:
    for i in range(len(xs) - 1):
        yield xs[i], xs[i + 1]


def is_sorted(xs: list[int]) -> bool:
    assert len(xs) <= 5
    result = all(a <= b for a, b in _pairs(xs))
    assert result == (xs == sorted(xs))
    return result

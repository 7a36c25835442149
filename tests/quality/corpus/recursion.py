"""Recursion: factorials, sums, searches, sorts, trees, number bases.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

import math
from typing import Optional


def _fact(n: int) -> int:
    return 1 if n <= 1 else n * _fact(n - 1)


def factorial_bound(n: int) -> int:
    assert 0 <= n <= 10
    f = _fact(n)
    assert f >= n
    return f


def _sum_to(n: int) -> int:
    return n + _sum_to(n - 1) if n > 1 else 0


def gauss(n: int) -> int:
    assert 0 <= n <= 10
    _total = _sum_to(n)
    assert _total == n * (n + 1) // 2  # BUG: the base case drops 1 (n=1)
    return _total


def _binary_strings(n: int) -> list[str]:
    if n == 0:
        return [""]
    shorter = _binary_strings(n - 1)
    return [s + "0" for s in shorter] + [s + "1" for s in shorter]


def count_binary_strings(n: int) -> int:
    assert 0 <= n <= 3
    out = _binary_strings(n)
    assert len(out) == 2**n and len(set(out)) == len(out)
    return len(out)


def _reverse(s: str) -> str:
    if len(s) <= 1:
        return s
    return _reverse(s[1:]) + s[0]


def reversed_text(s: str) -> str:
    assert len(s) <= 6
    out = _reverse(s)
    assert out == s[::-1]
    return out


def _gcd_rec(a: int, b: int) -> int:
    return a if b == 0 else _gcd_rec(b, a % b)


def common_divisor(a: int, b: int) -> int:
    assert 0 <= a <= 1000 and 0 <= b <= 1000
    g = _gcd_rec(a, b)
    assert g > 0  # BUG: gcd(0, 0) is 0 (a=0, b=0)
    return g


def _hanoi(n: int) -> int:
    return 0 if n == 0 else 2 * _hanoi(n - 1) + 1


def hanoi_moves(n: int) -> int:
    assert 0 <= n <= 6
    moves = _hanoi(n)
    assert moves == 2**n - 1
    return moves


def _search(xs: list[int], x: int, lo: int, hi: int) -> bool:
    if lo >= hi:
        return False
    mid = (lo + hi) // 2
    if xs[mid] == x:
        return True
    if xs[mid] < x:
        return _search(xs, x, mid + 1, hi)
    return _search(xs, x, lo, mid)


def contains(xs: list[int], x: int) -> bool:
    assert all(a <= b for a, b in zip(xs, xs[1:]))
    found = _search(xs, x, 0, len(xs) - 1)
    assert found == (x in xs)  # BUG: the last index is never searched (xs=[1], x=1)
    return found


def _permutations(xs: list[int]) -> list[list[int]]:
    if len(xs) <= 1:
        return [xs[:]]
    out = []
    for i in range(len(xs)):
        for rest in _permutations(xs[:i] + xs[i + 1 :]):
            out.append([xs[i]] + rest)
    return out


def count_permutations(xs: list[int]) -> int:
    assert len(xs) <= 3
    perms = _permutations(xs)
    assert len(perms) == math.factorial(len(xs))
    return len(perms)


class Node:
    def __init__(self, key: int) -> None:
        self.key = key
        self.left: Optional[Node] = None
        self.right: Optional[Node] = None


def _insert(root: Optional[Node], key: int) -> Node:
    if root is None:
        return Node(key)
    if key < root.key:
        root.left = _insert(root.left, key)
    else:
        root.right = _insert(root.right, key)
    return root


def _height(root: Optional[Node]) -> int:
    if root is None:
        return 0
    return 1 + max(_height(root.left), _height(root.right))


def tree_height(xs: list[int]) -> int:
    assert len(xs) <= 4
    root = None
    for x in xs:
        root = _insert(root, x)
    h = _height(root)
    assert h <= len(xs)
    assert h <= 3  # BUG: sorted input gives a degenerate tree (xs=[1, 2, 3, 4])
    return h


def _total(xs: list[int]) -> int:
    return 0 if not xs else xs[0] + _total(xs[1:])


def list_sum(xs: list[int]) -> int:
    assert len(xs) <= 5
    s = _total(xs)
    assert s == sum(xs)
    return s


DIGITS = "0123456789abcdef"


def _to_base(n: int, base: int) -> str:
    if n < base:
        return DIGITS[n]
    return _to_base(n // base, base) + DIGITS[n % base]


def base_repr(n: int, base: int) -> str:
    assert 2 <= base <= 16 and 0 <= n < 10**4
    s = _to_base(n, base)
    assert int(s, base) == n
    assert len(s) <= 4  # BUG: small bases need more digits (n=16, base=2)
    return s


def _merge_sort(xs: list[int]) -> list[int]:
    if len(xs) <= 1:
        return xs
    mid = len(xs) // 2
    left, right = _merge_sort(xs[:mid]), _merge_sort(xs[mid:])
    out = []
    i = j = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out + left[i:] + right[j:]


def sorted_copy(xs: list[int]) -> list[int]:
    assert len(xs) <= 4
    out = _merge_sort(xs)
    assert out == sorted(xs)
    return out


def _quicksort(xs: list[int]) -> list[int]:
    if not xs:
        return []
    pivot = xs[0]
    left = [x for x in xs[1:] if x < pivot]
    right = [x for x in xs[1:] if x > pivot]
    return _quicksort(left) + [pivot] + _quicksort(right)


def quick_sorted(xs: list[int]) -> list[int]:
    assert len(xs) <= 4
    out = _quicksort(xs)
    assert len(out) == len(xs)  # BUG: copies of the pivot are dropped (xs=[1, 1])
    return out


def _grid_paths(rows: int, cols: int) -> int:
    if rows == 1 or cols == 1:
        return 1
    return _grid_paths(rows - 1, cols) + _grid_paths(rows, cols - 1)


def count_grid_paths(rows: int, cols: int) -> int:
    assert 1 <= rows <= 4 and 1 <= cols <= 4
    n = _grid_paths(rows, cols)
    assert n == math.comb(rows + cols - 2, rows - 1)
    return n


def _is_even(n: int) -> bool:
    return True if n == 0 else _is_odd(n - 1)


def _is_odd(n: int) -> bool:
    return False if n == 0 else _is_even(n - 1)


def parity(n: int) -> bool:
    assert 0 <= n <= 20
    even = _is_even(n)
    assert even == (n % 2 == 0)
    return even


def _digital_root(n: int) -> int:
    if n < 10:
        return n
    return _digital_root(sum(int(d) for d in str(n)))


def root_formula(n: int) -> int:
    assert 0 <= n <= 10**6
    r = _digital_root(n)
    assert r == 1 + (n - 1) % 9  # BUG: zero has digital root 0 (n=0)
    return r


def _flatten(xs: list[list[int]]) -> list[int]:
    if not xs:
        return []
    return xs[0] + _flatten(xs[1:])


def flat_length(xs: list[list[int]]) -> int:
    assert len(xs) <= 3
    out = _flatten(xs)
    assert len(out) == sum(len(x) for x in xs)
    return len(out)

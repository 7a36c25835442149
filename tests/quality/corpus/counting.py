"""Counting and tallying: histograms, runs, grades from a constant table, pairs.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

from collections import Counter, defaultdict


def histogram(xs: list[int]) -> dict[int, int]:
    assert len(xs) <= 10
    counts: dict[int, int] = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    assert sum(counts.values()) == len(xs)
    return counts


def majority(xs: list[int]) -> int:
    assert xs
    counts: dict[int, int] = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    best = xs[0]
    for value, n in counts.items():
        if n > counts[best]:
            best = value
    assert counts[best] * 2 > len(xs)  # BUG: the most frequent value need not be a majority (xs=[1, 2])
    return best


def count_runs(s: str) -> int:
    assert len(s) <= 10
    if not s:
        return 0
    runs = 1
    for i in range(1, len(s)):
        if s[i] != s[i - 1]:
            runs += 1
    assert 1 <= runs <= len(s)
    return runs


def longest_run(xs: list[int]) -> int:
    assert len(xs) <= 8
    best = 0
    current = 0
    previous = None
    for x in xs:
        if x == previous:
            current += 1
        else:
            best = max(best, current)
            current = 1
        previous = x
    assert best >= current  # BUG: the last run is never compared (xs=[1, 1])
    return best


def word_frequencies(words: list[str]) -> dict[str, int]:
    assert len(words) <= 8
    freq: defaultdict[str, int] = defaultdict(int)
    for w in words:
        freq[w.lower()] += 1
    assert all(v >= 1 for v in freq.values())
    assert sum(freq.values()) == len(words)
    return dict(freq)


GRADES = [(90, "A"), (80, "B"), (70, "C"), (60, "D")]


def grade_counts(scores: list[int]) -> dict[str, int]:
    assert all(0 <= s <= 100 for s in scores)
    counts = {"A": 0, "B": 0, "C": 0, "D": 0, "F": 0}
    for s in scores:
        grade = "F"
        for cutoff, letter in GRADES:
            if s > cutoff:
                grade = letter
                break
        counts[grade] += 1
    assert counts["A"] == sum(1 for s in scores if s >= 90)  # BUG: a strict comparison misses the cutoff (scores=[90])
    return counts


def grade_of(score: int) -> str:
    assert 0 <= score <= 100
    for cutoff, letter in GRADES:
        if score >= cutoff:
            assert score >= 60
            return letter
    return "F"


def count_distinct(xs: list[int]) -> int:
    assert len(xs) <= 8
    n = len(set(xs))
    assert n <= len(xs)
    assert n >= 1 or not xs
    return n


def char_classes(s: str) -> tuple[int, int, int]:
    assert len(s) <= 10
    digits = letters = other = 0
    for c in s:
        if c.isdigit():
            digits += 1
        elif c.isalpha():
            letters += 1
        else:
            other += 1
    assert digits + letters + other == len(s)
    assert other == sum(1 for c in s if not c.isalnum())  # BUG: numeric characters such as ½ are neither digits nor letters (s='½')
    return digits, letters, other


def vote_winner(votes: list[str]) -> str:
    assert votes
    tally = Counter(votes)
    winner, n = tally.most_common(1)[0]
    assert n >= 1 and winner in votes
    return winner


def bucket_counts(scores: list[int]) -> list[int]:
    assert all(0 <= s <= 100 for s in scores)
    buckets = [0] * 10
    for s in scores:
        i = s // 10
        if i < len(buckets):
            buckets[i] += 1
    assert sum(buckets) == len(scores)  # BUG: a score of 100 falls outside every bucket (scores=[100])
    return buckets


def is_anagram(a: str, b: str) -> bool:
    assert len(a) <= 10 and len(b) <= 10
    result = Counter(a) == Counter(b)
    if result:
        assert len(a) == len(b)
    return result


def count_pairs(xs: list[int], target: int) -> int:
    assert len(xs) <= 6
    count = 0
    for i in range(len(xs)):
        for j in range(i, len(xs)):
            if xs[i] + xs[j] == target:
                count += 1
    assert count <= len(xs) * (len(xs) - 1) // 2  # BUG: an item is paired with itself (xs=[1], target=2)
    return count


def group_by_length(words: list[str]) -> dict[int, list[str]]:
    assert len(words) <= 6
    groups: defaultdict[int, list[str]] = defaultdict(list)
    for w in words:
        groups[len(w)].append(w)
    assert sum(len(g) for g in groups.values()) == len(words)
    return dict(groups)


def take_orders(orders: dict[str, int]) -> dict[str, int]:
    assert all(qty >= 0 for qty in orders.values())
    stock = {"apple": 5, "pear": 2}
    for item, qty in orders.items():
        if item in stock:
            stock[item] -= qty
    assert all(v >= 0 for v in stock.values())  # BUG: no check that enough stock is left (orders={'pear': 3})
    return stock


def running_max(xs: list[int]) -> list[int]:
    assert len(xs) <= 8
    out: list[int] = []
    for x in xs:
        out.append(x if not out else max(out[-1], x))
    assert all(a <= b for a, b in zip(out, out[1:]))
    return out


TIERS = ((0, 10, "small"), (10, 100, "medium"), (100, 1000, "large"))


def tier_counts(amounts: list[int]) -> dict[str, int]:
    assert all(0 <= a < 1000 for a in amounts)
    counts = {"small": 0, "medium": 0, "large": 0}
    for a in amounts:
        for lo, hi, name in TIERS:
            if lo <= a < hi:
                counts[name] += 1
                break
    assert sum(counts.values()) == len(amounts)
    return counts


def streaks(results: list[bool]) -> int:
    assert len(results) <= 8
    best = current = 0
    for won in results:
        current = current + 1 if won else 0
        best = max(best, current)
    assert best <= len(results)
    assert best <= 3  # BUG: a streak can be as long as the season (results=[True, True, True, True])
    return best

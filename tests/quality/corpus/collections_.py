"""The collections module and bytes: Counter, defaultdict, deque, OrderedDict, namedtuple,
ChainMap, heapq, encoding and decoding.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

import heapq
from collections import ChainMap, Counter, OrderedDict, defaultdict, deque, namedtuple


def top_words(text: str) -> list[str]:
    assert len(text) <= 30
    common = Counter(text.split()).most_common(2)
    words = [w for w, _ in common]
    assert len(words) <= 2
    return words


def adjacency(edges: list[int]) -> int:
    assert len(edges) <= 6
    graph: defaultdict[int, list[int]] = defaultdict(list)
    for i in range(0, len(edges) - 1, 2):
        a, b = edges[i], edges[i + 1]
        graph[a].append(b)
        graph[b].append(a)
    degree_sum = sum(len(v) for v in graph.values())
    assert degree_sum == len(edges) - len(edges) % 2
    assert all(a not in graph[a] for a in list(graph))  # BUG: self-loops are not rejected (edges=[1, 1])
    return degree_sum


def utf8_length(s: str) -> int:
    assert len(s) <= 10
    data = s.encode("utf-8")
    assert len(data) >= len(s)
    return len(data)


def ascii_bytes(s: str) -> bytes:
    assert len(s) <= 10
    data = s.encode("utf-8")
    assert len(data) == len(s)  # BUG: non-ASCII characters take several bytes (s='é')
    return data


def xor_checksum(xs: list[int]) -> int:
    assert all(0 <= x <= 255 for x in xs) and len(xs) <= 4
    data = bytes(xs)
    c = 0
    for byte in data:
        c ^= byte
    assert 0 <= c <= 255
    return c


def hexdump(xs: list[int]) -> str:
    assert all(0 <= x <= 255 for x in xs) and len(xs) <= 4
    data = bytes(xs)
    text = " ".join(hex(b)[2:] for b in data)
    assert len(text) == 3 * len(xs) - 1 or not xs  # BUG: hex() drops the leading zero (xs=[1])
    return text


def hexdump_fixed(xs: list[int]) -> str:
    assert all(0 <= x <= 255 for x in xs) and len(xs) <= 4
    text = bytes(xs).hex(" ")
    assert len(text) == 3 * len(xs) - 1 or not xs
    return text


def can_spell(word: str, letters: str) -> bool:
    assert len(word) <= 6 and len(letters) <= 6
    need, have = Counter(word), Counter(letters)
    ok = not (need - have)
    if ok:
        assert len(word) <= len(letters)
    return ok


def window_maxima(xs: list[int], k: int) -> list[int]:
    assert 1 <= k <= 3 and len(xs) <= 5
    window: deque[int] = deque(maxlen=k)
    out = []
    for x in xs:
        window.append(x)
        if len(window) == k:
            out.append(max(window))
    assert len(out) == len(xs) - k + 1  # BUG: an input shorter than the window gives a negative expected count (xs=[], k=2)
    return out


def index_words(words: list[str]) -> dict[str, list[int]]:
    assert len(words) <= 4
    index: defaultdict[str, list[int]] = defaultdict(list)
    for i, w in enumerate(words):
        index[w].append(i)
    assert sum(len(v) for v in index.values()) == len(words)
    return dict(index)


class LRUCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.data: OrderedDict[int, int] = OrderedDict()

    def get(self, key: int) -> bool:
        if key in self.data:
            self.data.move_to_end(key)
            return True
        self.data[key] = key
        if len(self.data) > self.capacity + 1:
            self.data.popitem(last=False)
        return False


def lru_hits(keys: list[int]) -> int:
    assert len(keys) <= 4
    cache = LRUCache(2)
    hits = 0
    for k in keys:
        if cache.get(k):
            hits += 1
    assert len(cache.data) <= 2  # BUG: eviction runs one item late (keys=[1, 2, 3])
    return hits


Pt = namedtuple("Pt", "x y")


def midpoint(x1: int, y1: int, x2: int, y2: int) -> tuple[int, int]:
    assert max(abs(x1), abs(y1), abs(x2), abs(y2)) <= 10**6
    m = Pt((x1 + x2) // 2, (y1 + y2) // 2)
    assert min(x1, x2) <= m.x <= max(x1, x2) and min(y1, y2) <= m.y <= max(y1, y2)
    return m.x, m.y


def mode(xs: list[int]) -> int:
    assert xs and len(xs) <= 4
    m = Counter(xs).most_common(1)[0][0]
    assert m == min(v for v in xs if xs.count(v) == xs.count(m))  # BUG: a tie goes to the first seen, not the smallest (xs=[2, 1])
    return m


def merge_counts(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    assert all(v >= 0 for v in a.values()) and all(v >= 0 for v in b.values())
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    assert sum(out.values()) == sum(a.values()) + sum(b.values())
    return out


def invert(d: dict[str, int]) -> dict[int, str]:
    assert len(d) <= 3
    inv = {v: k for k, v in d.items()}
    assert len(inv) == len(d)  # BUG: equal values collide (d={'a': 1, 'b': 1})
    return inv


def k_smallest(xs: list[int], k: int) -> list[int]:
    assert 0 <= k <= 4 and len(xs) <= 4
    out = heapq.nsmallest(k, xs)
    assert out == sorted(xs)[:k]
    return out


def decode_bytes(xs: list[int]) -> str:
    assert all(0 <= x <= 255 for x in xs) and len(xs) <= 4
    text = bytes(xs).decode("utf-8", errors="replace")
    assert len(text) == len(xs)  # BUG: a multi-byte sequence decodes to one character (xs=[195, 169])
    return text


DEFAULTS = {"retries": 3, "timeout": 30}


def setting(overrides: dict[str, int], key: str) -> int:
    assert len(overrides) <= 2
    config = ChainMap(overrides, DEFAULTS)
    value = config.get(key, 0)
    assert key in overrides or value == DEFAULTS.get(key, 0)
    return value


def letter_histogram(word: str) -> dict[str, int]:
    assert word.isascii() and len(word) <= 8
    counts = Counter(c for c in word.lower() if c.isalpha())
    assert sum(counts.values()) <= len(word)
    return dict(counts)


def queue_rotation(xs: list[int], k: int) -> list[int]:
    assert 0 <= k <= 4 and len(xs) <= 4
    q = deque(xs)
    q.rotate(k)
    out = list(q)
    assert sorted(out) == sorted(xs)
    return out

"""Replayed objects (``semantics.replayed``): a deque, OrderedDict or Counter the code makes,
or a ``random.Random`` it seeds, is a per-path heap record rebuilt in CPython for each
operation from a private copy of it as made and the log of the operations that changed it.
Every reported input is replayed in CPython (``--verify``) and each path's return value is
compared with CPython's, in every engine; what would not be exact stays refused."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from pathloom.encoding.values import encode_python
from pathloom.engines.registry import engine_names

from .verified import explore_source, explore_verified, python_outcome, refusal

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    import copy
    import random
    from collections import Counter, OrderedDict, deque


    def window(xs: list[int], k: int) -> list[int]:
        assert 1 <= k <= 3 and len(xs) <= 3
        w: deque[int] = deque(maxlen=k)
        out = []
        for x in xs:
            w.append(x)
            if len(w) == k:
                out.append(max(w))
        if w:
            out.append(w[0] + w[-1])
        return out


    def queue_ops(n: int) -> list[int]:
        assert 0 <= n <= 3
        q = deque([1, 2])
        q.appendleft(n)
        q.extend(range(n))
        q.rotate(1)
        first = q.popleft()
        seen = [x for x in q]
        return [first, sum(q), len(seen), 5 in q, q.count(1), *q]


    def lru(keys: list[int]) -> list[int]:
        assert len(keys) <= 3
        data: OrderedDict[int, int] = OrderedDict()
        hits = 0
        for k in keys:
            if k in data:
                data.move_to_end(k)
                hits += 1
            data[k] = k
            if len(data) > 2:
                data.popitem(last=False)
        return [hits, *data.keys()]


    def counts(s: str) -> list[tuple[str, int]]:
        assert len(s) <= 3
        c = Counter(s)
        c["z"] += 1
        del c["z"]
        c.update("ab")
        return c.most_common(2)


    def draws(n: int) -> list[int]:
        assert 0 <= n <= 3
        rng = random.Random(n)
        a = rng.randint(0, 9)
        twin = copy.deepcopy(rng)
        b = rng.randint(0, 9)
        c = twin.randint(0, 9)
        deck = list(range(4))
        rng.shuffle(deck)
        return [a, b, c, *deck, rng.choice([7, 8, 9])]


    def aliasing(n: int) -> int:
        assert 0 <= n <= 2
        q: deque[int] = deque()
        r = q
        r.append(n)
        q.append(n + 1)
        if n == 1:
            q.clear()
        return len(r) * 10 + len(q)


    def views(n: int) -> list[object]:
        assert 0 <= n <= 2
        od: OrderedDict[int, str] = OrderedDict()
        ks = od.keys()
        od[n] = "a"
        od[n + 1] = "b"
        total = 0
        for k, v in od.items():
            total += k
        return [list(ks), total, n in ks, len(od.values())]


    def returned(n: int) -> deque[int]:
        assert 0 <= n <= 2
        q = deque([n], maxlen=3)
        q.append(n * 2)
        return q


    def counter_eq(s: str) -> bool:
        assert len(s) <= 2
        a = Counter(s)
        a["c"] = 0
        return a == Counter("ab") and a != OrderedDict()


    class Box:
        def __init__(self) -> None:
            self.q: deque[int] = deque()

        def push(self, x: int) -> None:
            self.q.append(x)


    def helper(q: deque[int], x: int) -> None:
        q.appendleft(x)


    def ops(n: int) -> list[object]:
        assert 0 <= n <= 2
        q = deque([1, 2, 3])
        q[0] = n
        del q[1]
        q += [4]
        q2 = q * 2
        r = list(reversed(q))
        helper(q, 9)
        b = Box()
        b.push(n)
        b.push(5)
        return [isinstance(q, deque), type(q).__name__, str(q), repr(q2), r, f"{q}", list(b.q), q is q2, len(b.q), bool(deque())]


    def iterate(n: int) -> list[int]:
        assert 0 <= n <= 3
        q = deque(range(n))
        it = iter(q)
        out = [next(it, -1)]
        for x in it:
            out.append(x)
        return out


    def counter_math(s: str) -> list[object]:
        assert len(s) <= 2
        a = Counter(s)
        b = a + Counter("x")
        b["y"] += 2
        a.subtract("q")
        return [sorted(b.items()), sorted(a.items()), a["q"], sorted(b.elements())]


    def od_ops(n: int) -> list[object]:
        assert 0 <= n <= 2
        od = OrderedDict.fromkeys("abc", n)
        od.move_to_end("a")
        k, v = od.popitem()
        od.setdefault("z", 1)
        od.update({"w": 2})
        return [k, v, list(od), dict(od), od == {"b": n, "c": n, "z": 1, "w": 2}]


    def method_read(s: str) -> list[object]:
        assert 1 <= len(s) <= 3
        c = Counter(s)
        count = c.get
        c["z"] = 5
        return [max(c, key=c.get), count("z"), sorted(c, key=count)]


    def raises(n: int) -> int:
        assert 0 <= n <= 3
        q = deque(range(n))
        q.pop()
        return q.index(1)
""")

TARGETS = (
    "window",
    "queue_ops",
    "lru",
    "counts",
    "draws",
    "aliasing",
    "views",
    "returned",
    "counter_eq",
    "ops",
    "iterate",
    "counter_math",
    "od_ops",
    "method_read",
    "raises",
)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", TARGETS)
def test_replayed_objects_answer_as_cpython(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "rep.py", target, engine, "--max-concretizations", "3")
    paths = [p for p in result["paths"] if not p.get("cut")]  # type: ignore[union-attr]
    assert paths
    for p in paths:
        if p["outcome"] == "return":
            assert p["returned"] == encode_python(python_outcome(SOURCE, target, p["inputs"])), p
        else:
            assert p["exception"] == python_outcome(SOURCE, target, p["inputs"]), p
    assert "stopped" not in str(result.get("status")), result["status"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("rng = random.Random()\n    return rng.randint(0, n)", "random.Random() without a seed"),
        ("rng = random.Random(None)\n    return rng.randint(0, n)", "random.Random() without a seed"),
        ("rng = random.Random(1)\n    rng.seed()\n    return rng.randint(0, n)", "random.Random.seed() without a seed"),
        ("return random.randint(0, n)", "random.Random.randint() (its answers change from one run to the next)"),
        ("QUEUE.append(n)\n    return n", "an operation run in CPython changed a deque"),
        ("q = deque()\n    q.append([n])\n    return len(q)", "a deque holding something other than plain data"),
        ("q = deque()\n    push = q.append\n    push(n)\n    return len(q)", "an operation run in CPython other than its methods changed a deque"),
        (
            "q = deque()\n    it = iter(q)\n    q.append(n)\n    return len(list(it))",
            "changed while an iterator made in CPython over a copy of it was still in use",
        ),
        ("q = deque()\n    q.extend(map(abs, [n]))\n    return len(q)", "a change to a deque by an operation with operands other than plain data"),
        ("rng = random.Random(float('nan') if n else 0.0)\n    return rng.randint(0, 3)", "random.Random() seeded with a NaN"),
    ],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_what_replay_would_not_make_exact_stays_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str, body: str, message: str) -> None:
    path = tmp_path / "refused.py"
    path.write_text(f"import random\nfrom collections import deque\n\nQUEUE = deque()\n\n\ndef f(n: int) -> int:\n    {body}\n", encoding="utf-8")
    assert message in refusal(path, "f", engine, capsys)


CORPUS = Path(__file__).parents[1] / "quality" / "corpus"


@pytest.mark.parametrize("engine", ENGINES)
def test_pick_winner_bug_found_with_a_replayed_witness(tmp_path: Path, engine: str) -> None:
    copy = tmp_path / "control.py"
    shutil.copy(CORPUS / "control.py", copy)
    result = explore_verified(copy, "pick_winner", engine)  # --verify: every input replayed in CPython
    failing = [p for p in result["paths"] if p.get("exception") == "AssertionError" and p["line"] == 176]  # type: ignore[union-attr, index]
    assert failing and all(len(p["inputs"]["names"]) == 1 for p in failing)
    assert result["complete"]


@pytest.mark.parametrize(
    ("module", "target", "bug_line", "timeout"),
    [
        ("control.py", "shuffled_deck", None, "10"),
        ("control.py", "sample_code", None, "1"),  # its str constraints take the solver long: running, not refused, is the point
        ("collections_.py", "window_maxima", 89, "10"),
        ("collections_.py", "lru_hits", 124, "10"),
    ],
)
def test_corpus_targets_that_were_refused_now_run(tmp_path: Path, module: str, target: str, bug_line: int | None, timeout: str) -> None:
    copy = tmp_path / module
    shutil.copy(CORPUS / module, copy)
    result = explore_verified(copy, target, "dse", "--timeout", timeout)
    assert result["paths"]
    if bug_line is not None:
        assert any(p.get("exception") == "AssertionError" and p["line"] == bug_line for p in result["paths"])  # type: ignore[union-attr, index]


def test_replay_from_the_origin_when_no_state_is_remembered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With one remembered state, most operations replay the whole log from the copy made
    first: the answers are the same (every input replayed in CPython)."""
    from pathloom.semantics import replayed

    monkeypatch.setattr(replayed, "MAX_STATES", 1)
    replayed._STATES.clear()
    for target in ("draws", "lru", "queue_ops"):
        result = explore_source(tmp_path, SOURCE, "rep.py", target, "dse", "--max-concretizations", "3")
        for p in result["paths"]:  # type: ignore[union-attr]
            if p["outcome"] == "return":
                assert p["returned"] == encode_python(python_outcome(SOURCE, target, p["inputs"])), p

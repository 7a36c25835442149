"""``enumerate(xs)`` in ``for`` loops and comprehensions is lowered as a loop over ``xs`` with a
counter, ``reversed(xs)`` as a backwards iteration and ``zip(xs, ys)`` as the iterators advanced
together (``lower._iterable``, ``GetIter.how``, ``sequences.get_reverse_iter``/``get_zip_iter``): the items stay symbolic, nothing runs in CPython. Every input
replayed, both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.verified import explore_source, unsupported_said
from pathloom.engines.registry import engine_names

SOURCE = """
def first_negative(xs: list[int]) -> int:
    for i, x in enumerate(xs):
        if x < 0:
            return i
    return -1


def weighted(xs: list[int]) -> int:
    return sum(i * x for i, x in enumerate(xs, 1))


def skip_zeros(xs: list[int]) -> list[tuple[int, int]]:
    out = []
    for t in enumerate(xs, start=10):
        if t[1] == 0:
            continue
        out.append(t)
    return out


def positions(s: str) -> list[int]:
    return [i for i, c in enumerate(s) if c == "a"]


def backwards(xs: list[int]) -> list[int]:
    out = []
    for x in reversed(xs):
        out.append(x)
    return out


def mirrored(s: str) -> str:
    return "".join([c for c in reversed(s)])


def countdown(n: int) -> list[int]:
    return [i for i in reversed(range(1, n, 2))]


def dot(xs: list[int], ys: list[int]) -> int:
    return sum([a * b for a, b in zip(xs, ys)])


def lax_dot(xs: list[int], ys: list[int]) -> int:
    total = 0
    for a, b in zip(xs, ys, strict=False):  # strict=False is the default
        total += a * b
    return total


def pairs_with_index(s: str, xs: list[int]) -> list[tuple[str, int, int]]:
    out = []
    for c, x, i in zip(s, xs, range(10, 0, -3)):
        out.append((c, x, i))
    return out


def shrinking(xs: list[int]) -> int:
    total = 0
    for x in reversed(xs):
        xs.pop()
        if xs:
            xs.pop()
        total = total * 10 + x
    return total
"""


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize(
    "target", ["first_negative", "weighted", "skip_zeros", "positions", "backwards", "mirrored", "shrinking", "dot", "lax_dot", "pairs_with_index"]
)
def test_enumerate_stays_symbolic(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "enum.py", target, engine, "--max-list-len", "3", "--max-str-len", "3")
    assert result["complete"]
    assert not result["stats"]["concretizations"]  # type: ignore[index]


def test_enumerate_counts_from_its_start_past_a_continue(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "enum.py", "skip_zeros", "dse", "--max-list-len", "3")
    for path in result["paths"]:  # type: ignore[union-attr]
        xs = path["inputs"]["xs"]
        assert path["returned"] == [{"$tuple": [10 + i, x]} for i, x in enumerate(xs) if x != 0]
    found = explore_source(tmp_path, SOURCE, "enum.py", "first_negative", "dse", "--max-list-len", "3")
    assert {p["returned"] for p in found["paths"]} == {-1, 0, 1, 2}  # type: ignore[union-attr]


def test_reversed_follows_cpython_s_reverse_iterator(tmp_path: Path) -> None:
    """The list shrinking under the loop: CPython's iterator stops at an index past the end."""
    result = explore_source(tmp_path, SOURCE, "enum.py", "shrinking", "dse", "--max-list-len", "3")
    assert sorted(len(p["inputs"]["xs"]) for p in result["paths"]) == [0, 1, 2, 3]  # type: ignore[union-attr]
    assert all(p["returned"] == (p["inputs"]["xs"][-1] if p["inputs"]["xs"] else 0) for p in result["paths"])  # type: ignore[union-attr]
    back = explore_source(tmp_path, SOURCE, "enum.py", "backwards", "dse", "--max-list-len", "3")
    assert all(p["returned"] == p["inputs"]["xs"][::-1] for p in back["paths"])  # type: ignore[union-attr]
    down = explore_source(tmp_path, SOURCE, "enum.py", "countdown", "dse", "--max-iterations", "4")
    assert all(p["returned"] == list(reversed(range(1, p["inputs"]["n"], 2))) for p in down["paths"] if p["outcome"] == "return")  # type: ignore[union-attr]


def test_zip_stops_at_the_shortest(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "enum.py", "pairs_with_index", "dse", "--max-list-len", "3", "--max-str-len", "4")
    for p in result["paths"]:  # type: ignore[union-attr]
        s, xs = p["inputs"]["s"], p["inputs"]["xs"]
        assert p["returned"] == [{"$tuple": [c, x, i]} for c, x, i in zip(s, xs, range(10, 0, -3))]
    assert {len(p["returned"]) for p in result["paths"]} == {0, 1, 2, 3}  # type: ignore[union-attr]


DRAWN = """
import itertools


def paired(items: list[int], priorities: list[int] | None) -> int:
    ps = itertools.repeat(None) if priorities is None else iter(priorities)
    total = 0
    for item, p in zip(items, ps, strict=False):
        total += item if p is None else item * p
    return total


def counted_again(items: list[int]) -> int:
    ps = itertools.count(1)
    n = 0
    for a, b in zip(items, ps):
        n += a * b
    return n + next(ps)
"""


@pytest.mark.parametrize("engine", engine_names())
def test_zip_draws_from_an_iterator_cpython_made_as_far_as_the_loop_goes(tmp_path: Path, engine: str) -> None:
    """``zip(xs, itertools.repeat(None))``: the CPython iterator (infinite here) gives one item
    per step, and the zip ends with the list."""
    result = explore_source(tmp_path, DRAWN, "drawn.py", "paired", engine, "--max-list-len", "3")
    for p in result["paths"]:  # type: ignore[union-attr]
        items, priorities = p["inputs"]["items"], p["inputs"]["priorities"]
        if p["outcome"] == "return":
            assert p["returned"] == sum(i if q is None else i * q for i, q in zip(items, priorities or [None] * len(items)))


def test_an_iterator_a_zip_loop_took_over_is_not_used_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "drawn.py"
    path.write_text(DRAWN, encoding="utf-8")
    assert "unsupported: " in unsupported_said(path, "counted_again", capsys)


GROWING = """
def grows_under_enumerate(xs: list[int], ys: list[int]) -> int:
    n = 0
    for i, y in enumerate(ys, start=-2):
        if n < 3:
            xs[y:1] = [1]
        n += 1
    return n


def grows_under_a_cpython_enumerate(xs: list[int], k: int) -> int:
    n = 0
    for i, x in enumerate(xs, k):
        if n < 2:
            xs.append(x)
        n += 1
    return n


def copies_under_a_cpython_enumerate(xs: list[int], k: int) -> int:
    n = 0
    for i, x in enumerate(xs, k):
        n += i
    return n
"""


@pytest.mark.parametrize("engine", engine_names())
def test_enumerate_with_a_negative_start_sees_the_list_grow(tmp_path: Path, engine: str) -> None:
    """Found by the fuzzer (seed 2828): ``enumerate(ys, start=-2)`` ran in CPython over a copy
    of ``ys``, so a slice assignment through the aliased ``xs`` that grew the list was not
    seen. A literal start of any sign is the symbolic counter now; every input replays."""
    result = explore_source(tmp_path, GROWING, "growing.py", "grows_under_enumerate", engine, "--max-list-len", "3")
    assert not result["stats"]["concretizations"]  # type: ignore[index]
    aliased = [p for p in result["paths"] if p["inputs"]["ys"] == {"$same": "xs"}]  # type: ignore[union-attr, index]
    assert any(p["returned"] > 3 for p in aliased if p["outcome"] == "return")  # type: ignore[operator]


def test_a_list_changed_under_an_iterator_made_in_cpython_is_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An iterator CPython made (``enumerate`` with a start that is not a literal) holds a copy
    of the list: once the loop changes the list, CPython's own iterator would see what the
    copy does not, so the run stops as unsupported instead of answering from the copy."""

    path = tmp_path / "growing.py"
    path.write_text(GROWING, encoding="utf-8")
    said = unsupported_said(path, "grows_under_a_cpython_enumerate", capsys, "--max-list-len", "2")
    assert "changed while an iterator made in CPython over a copy of it was still in use" in said
    result = explore_source(tmp_path, GROWING, "growing.py", "copies_under_a_cpython_enumerate", "dse", "--max-list-len", "2")
    assert result["stats"]["concretizations"]  # type: ignore[index]  # the list is never changed: the copy is exact


ZIPPED_WITH_A_MODULE_LIST = """
PRIMES = [6, 8]


def pops_under_zip(xs: list[int], ys: list[int]) -> int:
    for a, p in zip(ys, PRIMES):
        xs.pop()
    return len(xs)


def pops_under_a_cpython_zip(xs: list[int]) -> int:
    for a, b in zip(xs, {1, 2, 3}):
        xs.pop()
    return len(xs)


def reads_under_a_cpython_zip(xs: list[int]) -> int:
    n = 0
    for a, b in zip(xs, {1, 2, 3}):
        n += a * b
    return n
"""


@pytest.mark.parametrize("engine", engine_names())
def test_zip_with_a_module_level_list_sees_an_aliased_list_shrink(tmp_path: Path, engine: str) -> None:
    """Found by the fuzzer (seed 8181): ``zip(ys, PRIMES)`` with ``PRIMES`` a real module-level
    list ran in CPython over a copy of ``ys``, so ``xs.pop()`` through the aliased ``xs`` was
    not seen (predicted 0 items left where CPython leaves 1). The module's list is iterated as
    it is (no path changes it), the input list by the model; every input replays."""
    result = explore_source(tmp_path, ZIPPED_WITH_A_MODULE_LIST, "zipped.py", "pops_under_zip", engine, "--max-list-len", "3")
    assert not result["stats"]["concretizations"]  # type: ignore[index]
    if engine == "multise":  # one input per outcome: the replay of each is the check
        return
    aliased = [p for p in result["paths"] if p["inputs"]["ys"] == {"$same": "xs"} and p["outcome"] == "return"]  # type: ignore[union-attr, index]
    assert (3, 1) in {(len(p["inputs"]["xs"]), p["returned"]) for p in aliased}  # type: ignore[index, arg-type]


def test_a_list_changed_under_a_zip_run_in_cpython_is_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``zip(xs, a_set)`` runs in CPython, which takes the items all at once: once the loop
    changes ``xs`` the items are stale, so the run stops as unsupported; a loop that only
    reads them is exact."""

    path = tmp_path / "zipped.py"
    path.write_text(ZIPPED_WITH_A_MODULE_LIST, encoding="utf-8")
    said = unsupported_said(path, "pops_under_a_cpython_zip", capsys, "--max-list-len", "2")
    assert "changed while an iterator made in CPython over a copy of it was still in use" in said
    result = explore_source(tmp_path, ZIPPED_WITH_A_MODULE_LIST, "zipped.py", "reads_under_a_cpython_zip", "dse", "--max-list-len", "2")
    assert result["stats"]["concretizations"] and len(result["paths"]) >= 3  # type: ignore[index, arg-type]

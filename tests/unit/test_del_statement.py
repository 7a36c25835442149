"""``del`` of locals, dict items and list items (``ir.DelItem``; ``dicts.delitem``,
``sequences.delitem``): every outcome replayed in CPython, in both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.frontend import ir
from pathloom.frontend.module import parse_module
from tests.unit.verified import explore_source
from pathloom.engines.registry import engine_names

SOURCE = """
def drop_key(d: dict[str, int], k: str) -> int:
    del d[k]
    return len(d)


def drop_known(d: dict[str, int], k: str) -> int:
    if k in d:
        del d[k]
    return len(d) + (1 if k in d else 0)


def drop_index(xs: list[int], i: int) -> int:
    del xs[i]
    return xs[0] if xs else -1


def drop_local(x: int) -> int:
    y = x
    if x > 0:
        del y
    return y


def drop_two(xs: list[int], d: dict[int, int]) -> int:
    del xs[0], d[1]
    return len(xs) * 10 + len(d)


def drop_unhashable(d: dict[int, int]) -> int:
    del d[[]]
    return 0


def drop_in_str(s: str) -> int:
    del s[0]
    return 0
"""


def _outcomes(result: dict) -> set[tuple[str, object]]:  # type: ignore[type-arg]
    return {(p["outcome"], p["exception"] if p["outcome"] == "raise" else p.get("returned")) for p in result["paths"]}


def _messages(result: dict) -> set[str]:  # type: ignore[type-arg]
    return {p["message"] for p in result["paths"] if p["outcome"] == "raise"}


@pytest.mark.parametrize("engine", engine_names())
def test_del_dict_item(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "dels.py", "drop_key", engine, "--max-dict-len", "2")
    assert ("raise", "KeyError") in _outcomes(result)
    assert {("return", n) for n in (0, 1)} <= _outcomes(result)
    known = explore_source(tmp_path, SOURCE, "dels.py", "drop_known", engine, "--max-dict-len", "2")
    assert {p["outcome"] for p in known["paths"]} == {"return"}


@pytest.mark.parametrize("engine", engine_names())
def test_del_list_item(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "dels.py", "drop_index", engine, "--max-list-len", "3")
    # an index beyond a C ssize_t is CPython's other IndexError
    assert _messages(result) == {"list assignment index out of range", "cannot fit 'int' into an index-sized integer"}
    assert ("return", -1) in _outcomes(result)  # the only item deleted
    assert any(p["outcome"] == "return" and p["returned"] != -1 for p in result["paths"])


@pytest.mark.parametrize("engine", engine_names())
def test_del_local_then_read(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "dels.py", "drop_local", engine)
    assert _messages(result) == {"cannot access local variable 'y' where it is not associated with a value"}
    assert any(p["outcome"] == "return" for p in result["paths"])


@pytest.mark.parametrize("engine", engine_names())
def test_del_several_targets(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "dels.py", "drop_two", engine, "--max-list-len", "2", "--max-dict-len", "1")
    assert _messages(result) == {"list assignment index out of range", "1"}  # d without the key 1: KeyError(1)
    assert ("return", 10) in _outcomes(result)  # xs had two items, d only the key 1


@pytest.mark.parametrize("engine", engine_names())
def test_del_errors_are_cpython_s(tmp_path: Path, engine: str) -> None:
    unhashable = explore_source(tmp_path, SOURCE, "dels.py", "drop_unhashable", engine)
    assert _messages(unhashable) == {"unhashable type: 'list'"}  # even on an empty dict, unlike pop
    in_str = explore_source(tmp_path, SOURCE, "dels.py", "drop_in_str", engine)
    assert _messages(in_str) == {"'str' object doesn't support item deletion"}


@pytest.mark.parametrize(("body", "what"), [("del xs[1:]", "del of a slice"), ("del xs.count", "del of an attribute")])
def test_del_unsupported_targets(body: str, what: str) -> None:
    module = parse_module(f"def f(xs: list[int]) -> int:\n    {body}\n    return 0\n", "u.py")
    unmodelled = [i for b in module.function("f").blocks.values() for i in b.instrs if isinstance(i, ir.Unmodelled)]
    assert [(i.what, i.loc.line) for i in unmodelled] == [(what, 2)]  # the path that reaches it is cut there

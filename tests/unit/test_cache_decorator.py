"""``@functools.cache`` (``@lru_cache(maxsize=None)``) on a nested function is written out as
CPython's cache runs it (``frontend.lower._cache_expansion``): a dict of results keyed as
functools keys positional arguments (one int or str alone, else the tuple, ``typed=False``),
looked up before the body runs; the body's own calls go through the cache. Exceptions of
the cache (an unhashable argument) are reported at the caller's line, as CPython's C code
does. Every input replayed in CPython (``--verify``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main

from .verified import explore_source
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    import functools
    from functools import cache, lru_cache


    def paths(m: int, n: int) -> int:
        @cache
        def helper(i: int, j: int) -> int:
            if i == 1 or j == 1:
                return 1
            return helper(i - 1, j) + helper(i, j - 1)
        return helper(m, n)


    def calls(x: int) -> int:
        seen = []

        @functools.lru_cache(maxsize=None)
        def f(a: int) -> int:
            seen.append(a)
            return a * 2

        f(x)
        f(x)
        f(x + 1)
        return len(seen) + f(x)


    def keyed(x: float) -> str:
        @cache
        def g(a):
            return repr(a)
        return g(1) + g(True) + g(x)


    def unhashable(xs: list[int]) -> int:
        @lru_cache(None)
        def h(a):
            return 1
        return h(xs)


    def escapes(x: int) -> int:
        @cache
        def h(a):
            return a
        return max([x], key=h)
""")


@pytest.mark.parametrize("engine", ENGINES)
def test_the_cache_skips_the_body_for_a_key_seen_before(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "cached.py", "calls", engine)
    assert {p["returned"] for p in result["paths"]} == {2 + 2 * p["inputs"]["x"] for p in result["paths"]}  # type: ignore[union-attr,index]
    assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_memoized_recursion_is_symbolic(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "cached.py", "paths", engine, "--max-depth", "10")
    assert not result["stats"]["concretizations"]  # type: ignore[index]
    assert {1, 2}.issubset({p["returned"] for p in result["paths"] if p["outcome"] == "return"})  # type: ignore[union-attr]


@pytest.mark.parametrize("engine", engine_names())
def test_keys_are_functools_keys(tmp_path: Path, engine: str) -> None:
    """``g(1)`` and ``g(True)`` are two keys (one int alone; a bool in a tuple), ``g(1.0)``
    finds ``g(True)``'s (tuples compare by their items)."""
    result = explore_source(tmp_path, SOURCE, "cached.py", "keyed", engine)
    for p in result["paths"]:  # type: ignore[union-attr]
        if p["outcome"] == "return":
            assert p["returned"].startswith("1True")  # type: ignore[union-attr]


@pytest.mark.parametrize("engine", engine_names())
def test_an_unhashable_argument_raises_at_the_call(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "cached.py", "unhashable", engine)
    [raised] = [p for p in result["paths"] if p["outcome"] == "raise"]  # type: ignore[union-attr]
    assert (raised["exception"], raised["message"]) == ("TypeError", "unhashable type: 'list'")
    assert "return h(xs)" in SOURCE.splitlines()[raised["line"] - 1]  # type: ignore[index]


def test_a_cached_function_used_as_a_value_is_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cached.py"
    path.write_text(SOURCE, encoding="utf-8")
    assert main(["explore", f"{path}::escapes"]) == 2
    assert "the cached function 'h' used other than called" in capsys.readouterr().err

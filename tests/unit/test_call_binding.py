"""Calls of analysed functions with wrong arguments raise CPython's TypeError, with its message
(``__qualname__``, counts, plural forms, name lists) and in its order of checks."""

from __future__ import annotations

import importlib.util
import json
import textwrap
from pathlib import Path

from pathloom.cli import main
from pathloom.engines.registry import engine_names

SOURCE = textwrap.dedent("""
    def f(a: int, b: int = 1) -> int:
        return a + b


    def g(a: int) -> int:
        return a


    class C:
        def __init__(self, a: int, b: int, c: int) -> None:
            self.a = a


    def t(x: int) -> int:
        h = lambda y: y
        if x == 0:
            return f()
        if x == 1:
            return f(1, 2, 3)
        if x == 2:
            return f(1, c=2)
        if x == 3:
            return f(1, a=2)
        if x == 4:
            return g(1, 2)
        if x == 5:
            C()
        if x == 6:
            C(1, 2)
        if x == 7:
            return h(1, 2)
        if x == 8:
            return f(1, 2, 3, a=1)
        if x == 9:
            return g()
        return 0
""")


def test_binding_errors_are_cpythons(tmp_path: Path) -> None:
    path = tmp_path / "binding.py"
    path.write_text(SOURCE, encoding="utf-8")
    out = tmp_path / "out.json"
    assert main(["explore", f"{path}::t", "--json", str(out), "--verify", "--quiet"]) == 1  # bugs, no mismatch
    predicted = {p["inputs"]["x"]: p["message"] for p in json.loads(out.read_text())["paths"] if p["outcome"] == "raise"}
    spec = importlib.util.spec_from_file_location("binding_case", path)
    assert spec is not None and spec.loader is not None
    real = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(real)
    expected = {}
    for x in range(10):
        try:
            real.t(x)
        except TypeError as exc:
            expected[x] = str(exc)
    assert predicted == expected
    assert expected[5] == "C.__init__() missing 3 required positional arguments: 'a', 'b', and 'c'"


def test_defaults_that_are_not_literals_are_the_real_functions(tmp_path: Path) -> None:
    """``def f(x, cap=LIMIT * 2)``: the default is the value CPython computed at the ``def``."""
    from .verified import explore_source

    source = textwrap.dedent("""
        import math

        LIMIT = 2 ** 5
        EMPTY: tuple[int, ...] = ()


        def f(x: int, cap: int = LIMIT * 2, eps: float = math.pi, names: tuple[int, ...] = EMPTY) -> int:
            if x > cap:
                return cap + len(names)
            return x


        class C:
            def m(self, y: int, lo: int = -LIMIT) -> int:
                return max(y, lo)


        def g(x: int) -> int:
            return f(x) + C().m(x)
    """)
    for engine in engine_names():
        result = explore_source(tmp_path, source, "defaults.py", "g", engine)
        assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]
        above = [p for p in result["paths"] if p["inputs"]["x"] > 64]  # type: ignore[union-attr,index]
        assert [p["returned"] for p in above] == [64 + above[0]["inputs"]["x"]]

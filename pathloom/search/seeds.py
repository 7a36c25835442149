"""The search's starting values: the constants of the target's module (every int, float and str
literal of its source, the ints one off too, as a comparison ``x < 10`` tells 9, 10 and 11 apart),
the words of its str literals, and the parts of the inputs symbolic execution already found.
Invariant: the pool holds only values of the JSON value encoding's plain kinds (int, float, str).
"""

from __future__ import annotations

import ast
import math
from typing import Any

from pathloom.search.shapes import Pool

JSON = Any

MAX_STR = 40  # longer str literals (docstrings, messages) are left out of the pool


def module_pool(source: str, inputs: list[dict[str, JSON]]) -> Pool:
    ints: set[int] = {0, 1, -1}
    floats: set[float] = set()
    strs: set[str] = {""}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Constant):
            continue
        value = node.value
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and abs(value) < 10**18:
            ints |= {value, value - 1, value + 1, -value}
        elif isinstance(value, float) and math.isfinite(value):
            floats.add(value)
        elif isinstance(value, str) and len(value) <= MAX_STR:
            strs.add(value)
            strs.update(value.split())
    for found in inputs:
        _collect(list(found.values()), ints, floats, strs)
    return Pool(sorted(ints), sorted(floats), sorted(strs))


def _collect(values: list[JSON], ints: set[int], floats: set[float], strs: set[str]) -> None:
    for value in values:
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and abs(value) < 10**18:
            ints.add(value)
        elif isinstance(value, float) and math.isfinite(value):
            floats.add(value)
        elif isinstance(value, str) and len(value) <= MAX_STR:
            strs.add(value)
        elif isinstance(value, list):
            _collect(value, ints, floats, strs)
        elif isinstance(value, dict):
            for key in ("$tuple", "$set"):
                if key in value:
                    _collect(value[key], ints, floats, strs)
            if "$dict" in value:
                _collect([x for pair in value["$dict"] for x in pair], ints, floats, strs)
            if "$new" in value:
                _collect(list(value["args"].values()), ints, floats, strs)

"""Generate a pytest file: one readable test per finished path.

Returns are checked with ``==`` against a literal (instances field by field, functions by
``callable``), raises with ``pytest.raises``. The file imports the analyzed module from its
directory, found relative to the test file, so it runs with plain ``pytest`` from anywhere.
Cut and unknown paths get no test (their inputs do not finish a path); the header says how
many there were.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from pathloom.results import Exploration, PathResult

JSON = Any


def literal(value: JSON) -> str:
    """Python source for an input or expected value given in the JSON value encoding."""
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        if "$tuple" in value:
            items = [literal(v) for v in value["$tuple"]]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if "$float" in value:
            return f"float({value['$float']!r})"
        if "$new" in value:
            args = ", ".join(f"{k}={literal(v)}" for k, v in value["args"].items())
            return f"{value['$new']}({args})"
        raise ValueError(f"no literal for {value!r}")
    return repr(value)


def _is_literal(value: JSON) -> bool:
    if isinstance(value, list):
        return all(_is_literal(v) for v in value)
    if isinstance(value, dict):
        return "$tuple" in value and all(_is_literal(v) for v in value["$tuple"])
    return True


def _checks(expr: str, value: JSON, seen: dict[int, str]) -> list[str]:
    """Assertions that ``expr`` (already evaluated) matches the expected JSON value."""
    if isinstance(value, float) and value != value:
        return [f"assert math.isnan({expr})"]
    if isinstance(value, dict) and "$float" in value and value["$float"] == "nan":
        return [f"assert math.isnan({expr})"]
    if value is None or isinstance(value, bool):
        return [f"assert {expr} is {value!r}"]
    if _is_literal(value):
        return [f"assert {expr} == {literal(value)}"]
    if isinstance(value, dict) and "$object" in value:
        seen[value["$id"]] = expr
        lines = [f"assert type({expr}).__name__ == {value['$object']!r}"]
        for name, field in value["fields"].items():
            lines += _checks(f"{expr}.{name}", field, seen)
        return lines
    if isinstance(value, dict) and "$ref" in value:
        return [f"assert {expr} is {seen.get(value['$ref'], expr)}"]
    if isinstance(value, dict) and ("$function" in value or "$method" in value):
        return [f"assert callable({expr})"]
    if isinstance(value, dict) and "$exception" in value:
        return [f"assert type({expr}).__name__ == {value['$exception']!r}"]
    if isinstance(value, dict) and "$class" in value:
        return [f"assert {expr}.__name__ == {value['$class']!r}"]
    if isinstance(value, list):
        lines = [f"assert len({expr}) == {len(value)}"]
        for i, item in enumerate(value):
            lines += _checks(f"{expr}[{i}]", item, seen)
        return lines
    if isinstance(value, dict) and "$tuple" in value:
        lines = [f"assert len({expr}) == {len(value['$tuple'])}"]
        for i, item in enumerate(value["$tuple"]):
            lines += _checks(f"{expr}[{i}]", item, seen)
        return lines
    return [f"assert {expr} is not None  # {value!r}"]


def _slug(text: str) -> str:
    slug = re.sub(r"[^0-9a-zA-Z]+", "_", text).strip("_").lower()
    return slug[:40] or "value"


def _call(exploration: Exploration, target: str, path: PathResult) -> str:
    inputs = dict(path.inputs or {})
    if target.endswith(".__init__"):
        args = ", ".join(f"{k}={literal(v)}" for k, v in inputs.items())
        return f"{target.split('.')[0]}({args})"
    if "." in target:
        method = target.split(".", 1)[1]
        receiver = literal(inputs.pop("self"))
        args = ", ".join(f"{k}={literal(v)}" for k, v in inputs.items())
        return f"{receiver}.{method}({args})"
    args = ", ".join(f"{k}={literal(v)}" for k, v in inputs.items())
    return f"{target}({args})"


def _test(exploration: Exploration, target: str, index: int, path: PathResult) -> str:
    base = target.replace(".", "_")
    call = _call(exploration, target, path)
    if path.outcome == "raise":
        name = f"test_{base}_{index}_raises_{_slug(path.exception or '')}"
        where = f"  # line {path.line}: {'explicit raise' if path.kind == 'explicit' else 'assertion failed' if path.kind == 'assert' else 'raised by the code (bug?)'}"
        return f"def {name}():\n    with pytest.raises({path.exception}):{where}\n        {call}\n"
    name = f"test_{base}_{index}_returns_{_slug(literal(path.returned) if _is_literal(path.returned) else 'object')}"
    if path.returned is None or isinstance(path.returned, bool):
        return f"def {name}():\n    assert {call} is {path.returned!r}\n"
    if _is_literal(path.returned):
        return f"def {name}():\n    assert {call} == {literal(path.returned)}\n"
    lines = [f"result = {call}"] + _checks("result", path.returned, {})
    return f"def {name}():\n" + "".join(f"    {line}\n" for line in lines)


_BUILTIN_EXCEPTIONS = frozenset(dir(__builtins__) if not isinstance(__builtins__, dict) else __builtins__)


def _imported_names(explorations: list[Exploration]) -> list[str]:
    names: list[str] = []

    def add(name: str) -> None:
        if name not in names:
            names.append(name)

    def classes_in(value: JSON) -> None:
        if isinstance(value, list):
            for v in value:
                classes_in(v)
        elif isinstance(value, dict):
            if "$new" in value:
                add(value["$new"])
            for v in value.values():
                classes_in(v)

    for exploration in explorations:
        target = exploration.target.rsplit("::", 1)[1]
        add(target.split(".")[0])
        for path in exploration.paths:
            classes_in(path.inputs)
            if path.outcome == "raise" and path.exception and path.exception not in _BUILTIN_EXCEPTIONS:
                add(path.exception)
    return names


def generate(explorations: list[Exploration], source_file: str, test_file: str) -> str:
    source = Path(source_file).resolve()
    test_dir = Path(test_file).resolve().parent
    relative = os.path.relpath(source.parent, test_dir)
    module_name = source.stem
    body: list[str] = []
    skipped = 0
    uses_math = False
    for exploration in explorations:
        target = exploration.target.rsplit("::", 1)[1]
        index = 0
        for path in exploration.paths:
            if path.outcome not in ("return", "raise") or path.inputs is None:
                skipped += 1
                continue
            index += 1
            test = _test(exploration, target, index, path)
            uses_math = uses_math or "math.isnan" in test
            body.append(test)
    header = [
        f'"""Tests generated by pathloom from {source.name}: one test per explored path."""',
        "",
        "import pathlib",
        "import sys",
        "",
    ]
    if uses_math:
        header.insert(3, "import math")
    header += [
        "import pytest",
        "",
        f"sys.path.insert(0, str((pathlib.Path(__file__).resolve().parent / {relative!r}).resolve()))",
        "",
        f"from {module_name} import {', '.join(_imported_names(explorations))}  # noqa: E402",
        "",
    ]
    if skipped:
        header.append(f"# {skipped} path(s) were cut by a bound or left unknown by the solver: no test for them.")
        header.append("")
    return "\n".join(header) + "\n\n" + "\n\n".join(body)

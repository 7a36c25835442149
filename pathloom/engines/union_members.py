"""The members of a union input type: a label for each (the name the report and the input
choice give it) and which member a JSON input value (``encoding.values``) is a value of.

Invariant: ``fits`` answers for exactly the shapes ``frontend.input_types`` makes, by the JSON
form of their values; the labels of one union are distinct.
"""

from __future__ import annotations

from typing import Any, cast

from pathloom.frontend.input_types import Shape


def member_labels(shapes: tuple[Shape, ...]) -> list[str]:
    """A name for each member of a union: its kind (``int``, ``list``...), numbered when two
    members share a kind."""
    kinds = [s if isinstance(s, str) else s[0] for s in shapes]
    return [k if kinds.count(k) == 1 else f"{k}{kinds[:i].count(k)}" for i, k in enumerate(kinds)]


def fits(value: Any, shape: Shape) -> bool:
    """Whether the JSON input ``value`` (``encoding.values``) is a value of ``shape``."""
    if shape == "bool":
        return isinstance(value, bool)
    if shape == "int":
        return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, dict) and "$int" in value)
    if shape == "float":
        return isinstance(value, float) or (isinstance(value, dict) and "$float" in value)
    if shape == "str":
        return isinstance(value, str)
    kind = shape[0]
    if kind == "list":
        return isinstance(value, list)
    if kind == "optional":
        return value is None or fits(value, shape[1])  # type: ignore[arg-type]
    if kind == "union":
        return any(fits(value, s) for s in cast(tuple[Shape, ...], shape[1]))
    marker = {"tuple": "$tuple", "vartuple": "$tuple", "set": "$set", "dict": "$dict"}.get(kind)
    return isinstance(value, dict) and marker in value

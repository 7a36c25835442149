"""Values outside the annotations, for the code's own type checks (issue 29, item 7).

A function that checks its arguments' types itself (``isinstance(x, str)``, ``type(x) is
int``) has an error branch no well-typed input reaches: Pynguin covers such branches because
its search does not trust the annotations. The search does the same for exactly those
parameters: where the target's own source tests a parameter's type, a few of its candidates
give that parameter a value of another plain type (``None``, an int, a str, a float, a list of
ints). Such inputs are labelled as outside the annotations in the tests they become, and they
are never bugs (a raise on them is what the check is for).

Invariant: a parameter gets outside values only if the target's own source tests its type, and
never values of its annotated class (nor an int for a float, by the numeric tower).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import typing
from typing import Any

from pathloom.search.shapes import ChoiceShape, FloatShape, IntShape, ListShape, NoneShape, Shape, StrShape

OUTSIDE: dict[type, Shape] = {type(None): NoneShape(), int: IntShape(), str: StrShape(), float: FloatShape(), list: ListShape(IntShape())}
PLAIN = (int, str, float, bool, list, dict, tuple, set, frozenset, bytes)


def type_checked(function: Any) -> set[str]:
    """The names whose type the function's own source tests (``isinstance(name, ...)``,
    ``type(name) is / == / is not / != ...``)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" and node.args:
            if isinstance(node.args[0], ast.Name):
                found.add(node.args[0].id)
        elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) for op in node.ops):
            for side in [node.left, *node.comparators]:
                if isinstance(side, ast.Call) and isinstance(side.func, ast.Name) and side.func.id == "type" and len(side.args) == 1:
                    if isinstance(side.args[0], ast.Name):
                        found.add(side.args[0].id)
    return found


def outside_shape(hint: object) -> Shape | None:
    """Values of plain types other than ``hint``'s (a plain class or a generic alias of one),
    or None when the hint is not such a class (a union, a user class: what is outside it is
    less clear, and nothing is tried)."""
    cls = typing.get_origin(hint) or hint
    if cls not in PLAIN:
        return None
    accepted = {cls, int} if cls is float else {cls}
    if cls is int:
        accepted.add(bool)
    options = [shape for kind, shape in OUTSIDE.items() if kind not in accepted]
    return ChoiceShape(options) if options else None

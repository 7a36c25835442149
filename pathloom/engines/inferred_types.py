"""The input type of a parameter without an annotation (issue 29, "parameters without annotations").

The first source that answers gives it:

1. the default's literal: ``y=2`` is an ``int``, ``s="a"`` a ``str``, ``flag=False`` a ``bool``,
   ``0.5`` a ``float``;
2. the types the function's own body tests the parameter against, ``isinstance(x, T)`` (a tuple
   of types too) and ``type(x) is T`` / ``type(x) == T``, with the builtin types the inputs model
   (``list``, ``tuple``, ``set`` and ``dict`` of ints): their union, ``| None`` when the default
   is ``None``;
3. the arguments its doctest examples pass (``>>> f([3, 1, 2], 2)``: ``list[int]`` and ``int``),
   then the literal arguments of the module's own calls of it (a method: ``self.name(...)`` in
   its class): the types of those literals, their union (``| None`` for a ``None``), where
   ``frontend.input_types`` models them (an empty container says nothing about its items).
A parameter whose default is another value (``None`` with no test, a call, a name) keeps that
default as its value, as before: nothing says what else the code expects there. One with
neither a default nor a test is refused (one line): a guessed type (``int | str``) would make
the code's ``TypeError`` on a str it never meant to take a reported bug. Such inputs need
their own label, "outside what the code states", before they are tried.

Invariant: an inferred annotation is one ``frontend.input_types`` parses, and every inference is
reported as an input type tried in part (``Entry.untried``): the exploration is incomplete, and
``reach`` never calls a line unreachable for the inferred types alone.
"""

from __future__ import annotations

import ast
import doctest

from pathloom.frontend import ir
from pathloom.frontend.input_types import parse_input_type
from pathloom.frontend.module import Module

#: the builtin types an ``isinstance`` test may name, as input annotations
_TESTED = {
    "int": "int",
    "bool": "bool",
    "str": "str",
    "float": "float",
    "list": "list[int]",
    "tuple": "tuple[int,...]",
    "set": "set[int]",
    "dict": "dict[str,int]",
}


def infer(module: Module, function: ir.Function, param: ir.Param) -> tuple[str, str] | None:
    """The annotation to explore ``param`` with, and why (the phrase the report shows); None
    when nothing states one (the parameter keeps its default value, or is refused)."""
    default = param.default
    literal = default.value if isinstance(default, ir.Const) else _NO_DEFAULT if default is None else _OTHER
    if isinstance(literal, (bool, int, float, str)):
        name = type(literal).__name__
        return name, f"from its default {literal!r}"
    if literal is not None and literal is not _NO_DEFAULT:
        return None
    tested = _tested_types(module, function, param.name)
    if not tested:
        return _passed_types(module, function, param, literal is None)
    union = "|".join(dict.fromkeys(_TESTED[t] for t in tested))
    if literal is None:
        return f"{union}|None", "from the isinstance tests of its body, and its default None"
    return union, "from the isinstance tests of its body"


_NO_DEFAULT = object()
_OTHER = object()


def _tested_types(module: Module, function: ir.Function, name: str) -> list[str]:
    """The builtin types ``function``'s body tests ``name`` against, in the order written."""
    node = _definition(module, function)
    found: list[str] = []
    if node is None:
        return found
    for sub in ast.walk(node):
        if not isinstance(sub, (ast.Call, ast.Compare)):
            continue
        if isinstance(sub, ast.Call) and _is_call(sub, "isinstance") and len(sub.args) == 2 and _is_name(sub.args[0], name):
            kinds = sub.args[1].elts if isinstance(sub.args[1], ast.Tuple) else [sub.args[1]]
            found += [k.id for k in kinds if isinstance(k, ast.Name) and k.id in _TESTED]
        elif isinstance(sub, ast.Compare) and len(sub.ops) == 1 and isinstance(sub.ops[0], (ast.Is, ast.Eq)):
            left, right = sub.left, sub.comparators[0]
            if isinstance(left, ast.Call) and _is_call(left, "type") and len(left.args) == 1 and _is_name(left.args[0], name):
                if isinstance(right, ast.Name) and right.id in _TESTED:
                    found.append(right.id)
    return found


def _definition(module: Module, function: ir.Function) -> ast.FunctionDef | None:
    for node in ast.walk(module.tree):
        if isinstance(node, ast.FunctionDef) and node.name == function.name and node.lineno == function.line:
            return node
    return None


def _is_call(node: ast.Call, name: str) -> bool:
    return isinstance(node.func, ast.Name) and node.func.id == name


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _passed_types(module: Module, function: ir.Function, param: ir.Param, default_none: bool) -> tuple[str, str] | None:
    """The union of the types of the literals passed for ``param`` by the doctest examples of
    ``function`` (first) or by the module's calls of it, with why; None when none is known."""
    node = _definition(module, function)
    if node is None:
        return None
    for where, calls in (("from its doctest examples", _example_calls(node)), ("from the module's calls of it", _module_calls(module, node))):
        types: list[str] = []
        for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset)):  # in source order
            value = _argument(node, call, param.name)
            if value is not _ABSENT:
                types.append(_annotation_of(value))
        known = [t for t in dict.fromkeys(types) if t and t != "None" and parse_input_type(t, module.classes) is not None]
        if known:
            union = "|".join(known)
            if "None" in types or default_none:
                return f"{union}|None", where
            return union, where
    return None


def _example_calls(node: ast.FunctionDef) -> list[ast.Call]:
    """The calls of the function in the ``>>>`` examples of its docstring."""
    docstring = ast.get_docstring(node)
    if not docstring:
        return []
    calls = []
    for example in doctest.DocTestParser().get_examples(docstring):
        try:
            tree = ast.parse(example.source)
        except SyntaxError:
            continue
        calls += [c for c in ast.walk(tree) if isinstance(c, ast.Call) and _calls(c, node.name)]
    return calls


def _module_calls(module: Module, node: ast.FunctionDef) -> list[ast.Call]:
    """The module's calls of the function: by its name for a top-level function, through
    ``self`` in its own class for a method."""
    if node in module.tree.body:
        return [c for c in ast.walk(module.tree) if isinstance(c, ast.Call) and _is_call(c, node.name)]
    for cls in module.tree.body:
        if isinstance(cls, ast.ClassDef) and node in cls.body:
            return [
                c
                for c in ast.walk(cls)
                if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == node.name and _is_name(c.func.value, "self")
            ]
    return []


def _calls(call: ast.Call, name: str) -> bool:
    return _is_call(call, name) or (isinstance(call.func, ast.Attribute) and call.func.attr == name)


_ABSENT = object()


def _argument(node: ast.FunctionDef, call: ast.Call, name: str) -> object:
    """The literal value ``call`` passes for parameter ``name`` of ``node``, or ``_ABSENT``."""
    positional = [a.arg for a in node.args.posonlyargs + node.args.args]
    if positional[:1] in (["self"], ["cls"]) and isinstance(call.func, ast.Attribute):
        positional = positional[1:]  # a method called through an instance or its class
    chosen: ast.expr | None = None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return _ABSENT  # *args or **kwargs: which argument is which is unknown
    if name in positional and positional.index(name) < len(call.args):
        chosen = call.args[positional.index(name)]
    for keyword in call.keywords:
        if keyword.arg == name:
            chosen = keyword.value
    if chosen is None:
        return _ABSENT
    try:
        return ast.literal_eval(chosen)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _ABSENT


def _annotation_of(value: object) -> str:
    """The annotation of a literal's type (its items' too), or "" when its items are mixed or
    it is empty (nothing then says what they are)."""
    if value is None:
        return "None"
    if isinstance(value, (bool, int, float, str)):
        return type(value).__name__
    if isinstance(value, (list, set, frozenset)):
        items = {_annotation_of(v) for v in value}
        kind = "list" if isinstance(value, list) else "set"
        return f"{kind}[{items.pop()}]" if len(items) == 1 and "" not in items and "None" not in items else ""
    if isinstance(value, tuple):
        parts = [_annotation_of(v) for v in value]
        if not parts or "" in parts or "None" in parts:
            return ""
        return f"tuple[{parts[0]},...]" if len(set(parts)) == 1 and len(parts) > 2 else f"tuple[{','.join(parts)}]"
    if isinstance(value, dict):
        keys, values = {_annotation_of(k) for k in value}, {_annotation_of(v) for v in value.values()}
        if len(keys) == 1 and len(values) == 1 and not ({"", "None"} & (keys | values)):
            return f"dict[{keys.pop()},{values.pop()}]"
    return ""

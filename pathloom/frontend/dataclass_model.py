"""Plain ``@dataclass`` classes of the analysed file, modelled as analysed classes.

Invariant: a dataclass is modelled only when what ``dataclasses`` generated for the real,
imported class is exactly what this module writes down: an ``__init__`` storing each field
in order (literal defaults only, no ``field(...)``, no ``InitVar``, no keyword-only fields),
followed by ``__post_init__`` when the class defines one; ``__eq__`` (with ``eq``) and the
four orderings (with ``order``) comparing the field tuples of two instances of exactly this
class. Every other dataclass (``frozen``, ``slots``, ``unsafe_hash``, a base class, a
``default_factory``) stays opaque and runs in CPython, as before.

The generated comparison methods return ``NotImplemented`` for an operand of another class;
the comparisons written here have no such case: they are not methods of the class (reading
``d.__eq__`` gives the real one, in CPython) but ``ClassInfo.compare_methods``, which the
operator dispatch calls only when both operands are instances of exactly this class; CPython
answers every other case. ``!=`` gets one too (CPython's ``object.__ne__`` inverts
``__eq__``) unless the class defines ``__ne__``.

The checks read the real class (``cls.__dataclass_params__``, ``dataclasses.fields``), so
without the imported module a dataclass stays opaque.
"""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass
from types import ModuleType

_ALLOWED_KEYWORDS = frozenset({"init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args", "kw_only", "slots"})
_ORDERINGS = (("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">="))
# names the generated class binds besides the methods written here: read from the real class
GENERATED_NAMES = frozenset({"__dataclass_fields__", "__dataclass_params__", "__match_args__", "__hash__", "__repr__"})


@dataclass(frozen=True)
class DataclassModel:
    name: str
    fields: tuple[tuple[str, str, ast.expr | None], ...]  # (name, annotation source, default)
    methods: tuple[ast.FunctionDef, ...]  # synthesized methods of the class (``__init__``)
    comparisons: tuple[ast.FunctionDef, ...]  # for two instances of exactly this class


def is_dataclass_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id == "dataclass"
    return isinstance(target, ast.Attribute) and target.attr == "dataclass" and isinstance(target.value, ast.Name) and target.value.id == "dataclasses"


def model_dataclass(node: ast.ClassDef, runtime: ModuleType | None) -> DataclassModel | None:
    """The model of class ``node`` when it is a plain dataclass this module can write down."""
    if runtime is None or len(node.decorator_list) != 1 or node.bases or node.keywords:
        return None
    decorator = node.decorator_list[0]
    if not is_dataclass_decorator(decorator):
        return None
    if isinstance(decorator, ast.Call) and (decorator.args or any(k.arg not in _ALLOWED_KEYWORDS for k in decorator.keywords)):
        return None
    cls = vars(runtime).get(node.name)
    if not isinstance(cls, type) or not dataclasses.is_dataclass(cls):
        return None
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.init or params.frozen or params.unsafe_hash:
        return None
    if getattr(params, "slots", False) or "__slots__" in vars(cls):
        return None
    fields = _fields(node)
    if fields is None or not _matches_real_fields(cls, fields):
        return None
    own = {stmt.name for stmt in node.body if isinstance(stmt, ast.FunctionDef)}
    methods: list[ast.FunctionDef] = []
    comparisons: list[ast.FunctionDef] = []
    if "__init__" not in own:
        methods.append(_init(fields, "__post_init__" in own))
    if params.eq and "__eq__" not in own:
        comparisons.append(_tuple_comparison("__eq__", "==", fields))
        if "__ne__" not in own:
            comparisons.append(_tuple_comparison("__ne__", "!=", fields))
    if params.order:
        for dunder, op in _ORDERINGS:
            if dunder in own:
                return None  # dataclass raises TypeError at class creation: never reached
            comparisons.append(_tuple_comparison(dunder, op, fields))
    for method in methods + comparisons:
        for sub in ast.walk(method):
            if isinstance(sub, (ast.stmt, ast.expr, ast.arg)):
                sub.lineno, sub.col_offset = node.lineno, node.col_offset
                sub.end_lineno, sub.end_col_offset = node.lineno, node.col_offset
    return DataclassModel(node.name, fields, tuple(methods), tuple(comparisons))


def _fields(node: ast.ClassDef) -> tuple[tuple[str, str, ast.expr | None], ...] | None:
    """The fields the class body declares, or None when one is more than ``name: T [= literal]``."""
    from pathloom.frontend.module import _NOT_LITERAL, _literal

    fields: list[tuple[str, str, ast.expr | None]] = []
    for stmt in node.body:
        if not isinstance(stmt, ast.AnnAssign):
            continue
        if not isinstance(stmt.target, ast.Name) or not stmt.simple:
            return None
        annotation = ast.unparse(stmt.annotation)
        if "ClassVar" in annotation:
            continue
        if "InitVar" in annotation or annotation.endswith("KW_ONLY"):
            return None
        if stmt.value is not None and _literal(stmt.value) is _NOT_LITERAL:
            return None
        fields.append((stmt.target.id, annotation, stmt.value))
    return tuple(fields)


def _matches_real_fields(cls: type, fields: tuple[tuple[str, str, ast.expr | None], ...]) -> bool:
    from pathloom.frontend.module import _literal

    declared = getattr(cls, "__dataclass_fields__", {})
    real = dataclasses.fields(cls)
    if len(declared) != len(real) or [f.name for f in real] != [name for name, _, _ in fields]:
        return False
    for f, (_, _, default) in zip(real, fields):
        if f.default_factory is not dataclasses.MISSING or not f.init or getattr(f, "kw_only", False):
            return False
        if default is None:
            if f.default is not dataclasses.MISSING:
                return False
        else:
            value = _literal(default)
            if type(f.default) is not type(value) or f.default != value:
                return False
    return True


def _init(fields: tuple[tuple[str, str, ast.expr | None], ...], post_init: bool) -> ast.FunctionDef:
    params = ", ".join(["self"] + [f"{name}: {annotation}" + ("" if default is None else f" = {ast.unparse(default)}") for name, annotation, default in fields])
    body = [f"    self.{name} = {name}" for name, _, _ in fields]
    if post_init:
        body.append("    self.__post_init__()")
    return _parse_def(f"def __init__({params}):\n" + ("\n".join(body) or "    pass"))


def _tuple_comparison(dunder: str, op: str, fields: tuple[tuple[str, str, ast.expr | None], ...]) -> ast.FunctionDef:
    mine = "".join(f"self.{name}, " for name, _, _ in fields)
    theirs = "".join(f"other.{name}, " for name, _, _ in fields)
    return _parse_def(f"def {dunder}(self, other):\n    return ({mine}) {op} ({theirs})")


def _parse_def(source: str) -> ast.FunctionDef:
    stmt = ast.parse(source).body[0]
    assert isinstance(stmt, ast.FunctionDef)
    return stmt

"""Plain ``@dataclass`` classes of the analysed file, modelled as analysed classes.

Invariant: a dataclass is modelled only when what ``dataclasses`` generated for the real,
imported class is exactly what this module writes down: an ``__init__`` storing each field
in order (literal defaults, or ``field(default_factory=NAME)`` for a builtin or a name of the
module: the sentinel default and a fresh ``NAME()`` when the argument is the sentinel, as the
generated code does; no other ``field(...)``, no ``InitVar``, no keyword-only fields),
followed by ``__post_init__`` when the class defines one; ``__eq__`` (with ``eq``) and the
four orderings (with ``order``) comparing the field tuples of two instances of exactly this
class. A ``frozen`` one's ``__init__`` stores its fields past the frozen ``__setattr__``
(``%init_field``, as the generated code calls ``object.__setattr__``), and its generated
``__setattr__``/``__delattr__`` stay the real ones (``FROZEN_NAMES``: any other assignment of an
attribute runs in CPython, which raises ``FrozenInstanceError``, or is unsupported on an input
object). Every other dataclass (``slots``, ``unsafe_hash``, a base class, another
``field(...)``) stays opaque and runs in CPython, as before.

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
import builtins
import dataclasses
import sys
from dataclasses import dataclass
from types import ModuleType

_ALLOWED_KEYWORDS = frozenset({"init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args", "kw_only", "slots"})
_ORDERINGS = (("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">="))
# names the generated class binds besides the methods written here: read from the real class
GENERATED_NAMES = frozenset({"__dataclass_fields__", "__dataclass_params__", "__match_args__", "__hash__", "__repr__"})
FROZEN_NAMES = frozenset({"__setattr__", "__delattr__"})  # a frozen dataclass's, which raise FrozenInstanceError
INIT_FIELD = "%init_field"  # a frozen dataclass's __init__ storing a field (object.__setattr__)


@dataclass(frozen=True)
class DataclassModel:
    name: str
    fields: tuple[tuple[str, str, ast.expr | None], ...]  # (name, annotation source, default)
    methods: tuple[ast.FunctionDef, ...]  # synthesized methods of the class (``__init__``)
    comparisons: tuple[ast.FunctionDef, ...]  # for two instances of exactly this class
    frozen: bool = False


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
    if params is None or not params.init or params.unsafe_hash:
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
        methods.append(_init(fields, "__post_init__" in own, params.frozen))
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
    return DataclassModel(node.name, fields, tuple(methods), tuple(comparisons), params.frozen)


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
        default = stmt.value
        if default is not None and _factory_name(default) is not None:
            pass  # field(default_factory=NAME): checked against the real field below
        elif default is not None and _literal(default) is _NOT_LITERAL:
            return None
        fields.append((stmt.target.id, annotation, default))
    return tuple(fields)


def _matches_real_fields(cls: type, fields: tuple[tuple[str, str, ast.expr | None], ...]) -> bool:
    from pathloom.frontend.module import _literal

    declared = getattr(cls, "__dataclass_fields__", {})
    real = dataclasses.fields(cls)
    if len(declared) != len(real) or [f.name for f in real] != [name for name, _, _ in fields]:
        return False
    for f, (_, _, default) in zip(real, fields):
        if not f.init or getattr(f, "kw_only", False):
            return False
        factory = _factory_name(default) if default is not None else None
        if factory is not None or f.default_factory is not dataclasses.MISSING:
            # the factory the source names is the real field's (a builtin or a name of the
            # module: the generated __init__ calls it, unless the argument is given)
            named = vars(sys.modules[cls.__module__]).get(factory, getattr(builtins, factory, None)) if factory else None
            if named is None or f.default_factory is not named or f.default is not dataclasses.MISSING:
                return False
            continue
        if default is None:
            if f.default is not dataclasses.MISSING:
                return False
        else:
            value = _literal(default)
            if type(f.default) is not type(value) or f.default != value:
                return False
    return True


def _factory_name(default: ast.expr) -> str | None:
    """``NAME`` of a field declared ``= field(default_factory=NAME)`` (and nothing else)."""
    if not (
        isinstance(default, ast.Call)
        and isinstance(default.func, ast.Name)
        and default.func.id == "field"
        and not default.args
        and len(default.keywords) == 1
        and default.keywords[0].arg == "default_factory"
    ):
        return None
    value = default.keywords[0].value
    return value.id if isinstance(value, ast.Name) else None


# the generated __init__'s default of a field with a factory (``dataclasses``' sentinel, read
# from the real ``__init__.__defaults__``), and the test the body makes of it
SENTINEL_DEFAULT = "__dataclass_HAS_DEFAULT_FACTORY__"
IS_SENTINEL = "%is_factory_default"


def _init(fields: tuple[tuple[str, str, ast.expr | None], ...], post_init: bool, frozen: bool = False) -> ast.FunctionDef:
    """What ``dataclasses`` generates: each field stored in order; a field with a factory
    defaults to the sentinel and gets a fresh ``factory()`` when the argument is the sentinel;
    a frozen class's fields stored past its ``__setattr__`` (``_init_field``)."""
    params, body = ["self"], []

    def store(name: str, value: str) -> str:
        return f"    _init_field(self, {name!r}, {value})" if frozen else f"    self.{name} = {value}"

    for name, annotation, default in fields:
        factory = _factory_name(default) if default is not None else None
        if factory is not None:
            params.append(f"{name}: {annotation} = {SENTINEL_DEFAULT}")
            body.append(store(name, f"{factory}() if _is_factory_default({name}) else {name}"))
        else:
            params.append(f"{name}: {annotation}" + ("" if default is None else f" = {ast.unparse(default)}"))
            body.append(store(name, name))
    if post_init:
        body.append("    self.__post_init__()")
    function = _parse_def(f"def __init__({', '.join(params)}):\n" + ("\n".join(body) or "    pass"))
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == "_is_factory_default":
            node.id = IS_SENTINEL
        elif isinstance(node, ast.Name) and node.id == "_init_field":
            node.id = INIT_FIELD
    return function


def _tuple_comparison(dunder: str, op: str, fields: tuple[tuple[str, str, ast.expr | None], ...]) -> ast.FunctionDef:
    mine = "".join(f"self.{name}, " for name, _, _ in fields)
    theirs = "".join(f"other.{name}, " for name, _, _ in fields)
    return _parse_def(f"def {dunder}(self, other):\n    return ({mine}) {op} ({theirs})")


def _parse_def(source: str) -> ast.FunctionDef:
    stmt = ast.parse(source).body[0]
    assert isinstance(stmt, ast.FunctionDef)
    return stmt

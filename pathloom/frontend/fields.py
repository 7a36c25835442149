"""The declared fields of a class, as an input object of that class has them.

An input object (a parameter typed with a class the code defines, see ``semantics.input_heap``) holds
exactly its declared fields, in declaration order: the class body's annotations
(``val: int``, dataclass fields included), then the attributes ``__init__`` stores from an
annotated parameter (``self.next = next`` with ``next: Optional[Node]``) or with an annotated
assignment (``self.count: int = 0``), each once, base classes first. A field's shape is
``"int"``, ``"bool"`` or ``"str"`` (``object`` and ``Any`` are ``"int"``, as for parameters), ``("optional", scalar)`` for
``Optional[int]``, ``str | None``... (the field's symbol ``n.key`` and the Bool ``n.key.is_none``),
or ``("object", C, nullable)`` for a reference to an
instance of the analysed class ``C`` (``C``, ``"C"``, ``Optional[C]``, ``C | None``).

Invariant: ``declared_fields`` either returns every field with a shape, or raises
``Unsupported`` naming the first field whose type input objects cannot hold (a list, an
unannotated attribute), so that an input object is never built with a field left out.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TypeGuard, Union, cast

from pathloom.frontend.input_types import UNTYPED, optional_of
from pathloom.errors import Unsupported
from pathloom.frontend.module import Module

ReferenceShape = tuple[str, str, bool]  # ("object", C, nullable)
FieldShape = Union[str, tuple[str, str], ReferenceShape]

_SCALARS = frozenset({"int", "bool", "str", "float"})


@dataclass(frozen=True)
class Field:
    name: str
    shape: FieldShape
    line: int
    col: int


def reference_shape(annotation: ast.expr | str, classes: object) -> ReferenceShape | None:
    """``("object", C, nullable)`` when the annotation names an analysed class ``C``,
    optionally ``Optional``/``| None``; None otherwise."""
    node = _parse(annotation)
    if node is None:
        return None
    node = _without_final(_unquote(node) or node)
    nullable = False
    inner = _optional_of(node)
    if inner is not None:
        node, nullable = inner, True
    node = _unquote(node) or node
    if isinstance(node, ast.Name) and node.id in classes:  # type: ignore[operator]
        return ("object", node.id, nullable)
    return None


def field_shape(annotation: ast.expr | str, classes: object) -> FieldShape | None:
    node = _parse(annotation)
    if node is None:
        return None
    node = _without_final(_unquote(node) or node)
    scalar = _scalar(node)
    if scalar is not None:
        return scalar
    inner = _optional_of(node)
    if inner is not None:
        scalar = _scalar(_unquote(inner) or inner)
        if scalar is not None:
            return ("optional", scalar)
    return reference_shape(node, classes)


def _scalar(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name) and node.id in _SCALARS:
        return node.id
    if ast.unparse(node) in UNTYPED:
        return "int"  # as an input of type object or Any (frontend.input_types)
    return None


def is_reference(shape: object) -> TypeGuard[ReferenceShape]:
    """Whether a field of ``shape`` holds a reference to an input object (``("object", C, nullable)``)."""
    return isinstance(shape, tuple) and shape[0] == "object"


def as_reference(shape: FieldShape) -> ReferenceShape:
    """``shape``, that of a field holding no scalar (``scalar_of`` is None), as the
    ``("object", C, nullable)`` it then is."""
    return cast(ReferenceShape, shape)


def scalar_of(shape: object) -> str | None:
    """The scalar a field of ``shape`` holds: ``"int"`` for ``int`` and ``Optional[int]``; None
    for a reference."""
    if isinstance(shape, str):
        return shape
    if isinstance(shape, tuple) and shape[0] == "optional":
        return shape[1]  # type: ignore[no-any-return]
    return None


def none_flag(symbol: str) -> str:
    """The Bool symbol that says the Optional scalar field ``symbol`` (``n.key``) is None."""
    return f"{symbol}.is_none"


def declared_fields(module: Module, cls: str) -> tuple[Field, ...]:
    cache: dict[str, tuple[Field, ...]] = module.__dict__.setdefault("_declared_fields", {})
    found = cache.get(cls)
    if found is None:
        found = _collect(module, cls)
        cache[cls] = found
    return found


def _collect(module: Module, cls: str) -> tuple[Field, ...]:
    node = _class_node(module, cls)
    filename = module.adopted.get(cls, module).filename
    if node is None:
        raise Unsupported(filename, module.classes[cls].line, 1, f"input object of class {cls}: its definition is not a plain class statement")
    if "__setattr__" in module.classes[cls].other:  # a frozen dataclass: no field of it can be set from outside
        raise Unsupported(filename, module.classes[cls].line, 1, f"input object of class {cls}, whose fields its constructor alone sets (a frozen dataclass)")
    fields: dict[str, Field] = {}
    base = module.classes[cls].base
    if base is not None and base in module.classes and not module.classes[cls].is_exception:
        fields.update((f.name, f) for f in declared_fields(module, base))
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            if _is_classvar(stmt.annotation):
                continue
            _add(module, fields, cls, stmt.target.id, stmt.annotation, stmt)
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is not None:
        params = {a.arg: a.annotation for a in init.args.args + init.args.kwonlyargs}
        for sub in ast.walk(init):
            if not isinstance(sub, (ast.AnnAssign, ast.Assign)):
                continue  # no assignment to an attribute of self
            target: ast.expr | None = None
            annotation: ast.expr | None = None
            value: ast.expr | None = None
            if isinstance(sub, ast.AnnAssign):
                target, annotation = sub.target, sub.annotation
            elif len(sub.targets) == 1:
                target, value = sub.targets[0], sub.value
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"):
                continue
            if target.attr in fields:
                continue
            if annotation is None and isinstance(value, ast.Name) and value.id in params:
                annotation = params[value.id]
            if annotation is None:
                raise Unsupported(
                    filename,
                    sub.lineno,
                    sub.col_offset + 1,
                    f"input object of class {cls}: attribute '{target.attr}' has no type (annotate it in the class body)",
                )
            _add(module, fields, cls, target.attr, annotation, sub)
    return tuple(fields.values())


def _add(module: Module, fields: dict[str, Field], cls: str, name: str, annotation: ast.expr, stmt: ast.stmt) -> None:
    shape = field_shape(annotation, module.classes)
    if shape is None:
        raise Unsupported(
            module.adopted.get(cls, module).filename,
            stmt.lineno,
            stmt.col_offset + 1,
            f"input object of class {cls}: field '{name}' of type {ast.unparse(annotation)} "
            "(input objects hold int, bool, str, float, Optional of these, and references to analysed classes)",
        )
    fields.setdefault(name, Field(name, shape, stmt.lineno, stmt.col_offset + 1))


def _class_node(module: Module, cls: str) -> ast.ClassDef | None:
    home = module.adopted.get(cls, module)  # a class imported from another project module
    for stmt in home.tree.body:
        if isinstance(stmt, ast.ClassDef) and stmt.name == cls:
            return stmt
    return None


def _parse(annotation: ast.expr | str) -> ast.expr | None:
    if isinstance(annotation, ast.expr):
        return annotation
    try:
        return ast.parse(annotation, mode="eval").body
    except SyntaxError:
        return None


def _without_final(node: ast.expr) -> ast.expr:
    """``T`` for ``Final[T]`` (a field never rebound holds a ``T`` all the same)."""
    if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("Final", "typing.Final"):
        return _unquote(node.slice) or node.slice
    return node


def _unquote(node: ast.expr) -> ast.expr | None:
    """The annotation inside a string annotation (``"Node"``, ``"Optional[Node]"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        inner = _parse(node.value)
        return inner
    return None


def _optional_of(node: ast.expr) -> ast.expr | None:
    """``optional_of`` of the annotation, inside quotes too (``"Node | None"``)."""
    unquoted = _unquote(node)
    return optional_of(unquoted if unquoted is not None else node)


def _is_classvar(annotation: ast.expr) -> bool:
    text = ast.unparse(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))

"""The input types pathloom explores, parsed from a parameter's annotation text.

A shape is ``"int"``, ``"bool"`` or ``"str"`` (``object`` and ``Any`` are ``"int"``: a
documented default); ``Iterable[T]``, ``Sequence[T]``, ``Collection[T]`` and ``Reversible[T]``
are ``list[T]`` (a list is one of their values: a documented default), ``Mapping[K, V]`` and
``MutableMapping[K, V]`` are ``dict[K, V]`` (so); ``("list", item)`` for ``list[T]`` (``List[T]``,
and bare ``list``, which is ``list[int]``: a documented default); ``("tuple", items)`` for a
fixed-length ``tuple[T1, ..., Tn]`` (``Tuple[...]``); items may be any of these, nested.
A parameter may be ``("vartuple", item)``: ``tuple[T, ...]``, a tuple of any length up to
``--max-list-len`` (at the top level only). A
parameter may also be ``("optional", shape)``: ``Optional[T]``, ``T | None``, ``Union[T,
None]`` (at the top level only: an item of a list is never None, except an input object's
reference: ``list[Optional[Node]]`` items are ``("object", ("Node", True))``). A parameter may
also be ``("set", item)``: ``set[T]`` (``Set[T]``; bare ``set`` is ``set[int]``) of ints, bools
or strs, at the top level only (not inside a container). A parameter may
also be ``("dict", (key, value))``: ``dict[K, V]`` (``Dict[K, V]``; bare ``dict`` is
``dict[str, int]``) with int, bool or str keys and values of any item shape (input objects
included: ``dict[str, Node]``), at the top level only.
A parameter may be ``("union", (shape, ...))``: ``A | B``, ``Union[A, B]`` (wrapped in
``("optional", ...)`` when None is a member), one value of one member per path; members
pathloom does not model (``Fraction``, a class) are left untried and reported
(``InputType.untried``: the exploration is incomplete). A union inside a container (an item,
a dict's key or value) takes its first modelled member, the others untried: an item has one
kind of value on every path.
A parameter may be ``("callable", (A, R))``: ``Callable[[A], R]`` of one int, bool or str
argument returning one of those or a float (bare ``Callable`` is ``Callable[[int], int]``): a
lookup table the solver chooses (``domain.values.TableFunc``).
A ``float`` (IEEE binary64, any value: NaN, infinities and ``-0.0`` included) may be a
parameter, an item of a list or tuple, ``Optional[float]`` or a dict's value; it is never a
set item nor a dict key (a NaN there matches only itself, by identity).
Invariant: ``parse_input_type`` returns None for every other annotation (a class, ``tuple[T, ...]`` inside a container, a union of no modelled member); the caller reports it unsupported; ``input_type`` names everything the shape leaves out of the annotation.
"""

from __future__ import annotations

import ast
from collections.abc import Container
from dataclasses import dataclass
from typing import Union

Shape = Union[str, tuple[str, object]]

SCALARS = frozenset({"int", "bool", "str"})
# ``object`` and ``Any`` say nothing of the value: explored as an int (a documented default,
# like bare ``list``); a path found with an int is a real path, other types are not tried.
UNTYPED = frozenset({"object", "Any", "typing.Any"})
_LISTS = frozenset({"list", "List", "typing.List"})
# abstract collection types: a list is one of their values (a documented default, as for object)
_LIKE_LISTS = frozenset(
    f"{prefix}{name}" for prefix in ("", "typing.", "collections.abc.", "abc.") for name in ("Iterable", "Sequence", "Collection", "Reversible")
)
_TUPLES = frozenset({"tuple", "Tuple", "typing.Tuple"})
_SETS = frozenset({"set", "Set", "typing.Set"})
_DICTS = frozenset({"dict", "Dict", "typing.Dict"})
# abstract mapping types: a dict is one of their values (a documented default, as for Sequence)
_LIKE_DICTS = frozenset(f"{prefix}{name}" for prefix in ("", "typing.", "collections.abc.", "abc.") for name in ("Mapping", "MutableMapping"))
NESTED_MOST = 2  # entries of a dict whose values are dicts or sets, and of each of those (engines.entry)
_CALLABLES = frozenset({"Callable", "typing.Callable", "collections.abc.Callable", "callable"})


@dataclass(frozen=True)
class InputType:
    """The shape explored for an annotation, and what the annotation allows that exploration
    does not try (one phrase each; empty when the shape is the whole type)."""

    shape: Shape | None
    untried: tuple[str, ...] = ()


def input_type(annotation: str, classes: Container[str] = ()) -> InputType:
    """The shape of an annotation (``parse_input_type``) with what it leaves untried: a
    union's members pathloom does not model (``Fraction`` in ``int | float | Fraction``), and
    the other members of a union inside a container, whose items take its first modelled
    member (``list[int | float]`` is explored as ``list[int]``)."""
    try:
        node = ast.parse(annotation, mode="eval").body
    except SyntaxError:
        return InputType(None)
    untried: list[str] = []
    shape = _top(node, classes, untried)
    return InputType(shape, tuple(untried) if shape is not None else ())


def parse_input_type(annotation: str, classes: Container[str] = ()) -> Shape | None:
    """The shape of an annotation; an item of a list may also be an input object of one of
    ``classes`` (``("object", C, nullable)``: ``C`` or ``Optional[C]``, see ``semantics.input_heap``)."""
    return input_type(annotation, classes).shape


def _top(node: ast.expr, classes: Container[str], untried: list[str]) -> Shape | None:
    """The shape of a parameter's annotation (where unions, sets, dicts and ``tuple[T, ...]``
    may be)."""
    members = union_members(node)
    if members is not None:
        return _union(members, classes, untried)
    head = ast.unparse(node.value) if isinstance(node, ast.Subscript) else ast.unparse(node)
    if head in _SETS:
        item = _shape(node.slice, classes, untried) if isinstance(node, ast.Subscript) else "int"
        return ("set", item) if item in SCALARS else None
    if head in _DICTS or head in _LIKE_DICTS:
        return _dict_shape(node, classes, untried)
    if head in _CALLABLES:
        return _callable_shape(node, untried)
    if (
        head in _TUPLES
        and isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Tuple)
        and len(node.slice.elts) == 2
        and isinstance(node.slice.elts[1], ast.Constant)
        and node.slice.elts[1].value is Ellipsis
    ):
        item = _shape(node.slice.elts[0], classes, untried)  # tuple[T, ...]: any length
        return None if item is None else ("vartuple", item)
    return _shape(node, classes, untried)


def _union(members: list[ast.expr], classes: Container[str], untried: list[str]) -> Shape | None:
    """A parameter's union: ``("optional", ...)`` when None is a member, around the one
    modelled member or ``("union", (shape, ...))`` of them in the annotation's order; the
    members pathloom does not model are left untried (None when no member is modelled)."""
    shapes: list[Shape] = []
    skipped: list[str] = []
    for member in members:
        if _is_none(member):
            continue
        inner: list[str] = []
        shape = _top(member, classes, inner)
        if shape is None:
            skipped.append(ast.unparse(member))
        elif shape not in shapes:
            shapes.append(shape)
            untried += inner
    if not shapes:
        return None
    if skipped:
        untried.append(f"{' | '.join(skipped)} not tried (not modelled)")
    shape = shapes[0] if len(shapes) == 1 else ("union", tuple(shapes))
    return ("optional", shape) if any(_is_none(m) for m in members) else shape


def union_members(node: ast.expr) -> list[ast.expr] | None:
    """The members of ``A | B | ...``, ``Union[A, B, ...]`` or ``Optional[A]`` (None a
    member as the constant None); None when ``node`` is not a union."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return [m for side in (node.left, node.right) for m in (union_members(side) or [side])]
    if isinstance(node, ast.Subscript):
        head = ast.unparse(node.value)
        if head in ("Optional", "typing.Optional"):
            return [node.slice, ast.Constant(None)]
        if head in ("Union", "typing.Union"):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return [m for part in parts for m in (union_members(part) or [part])]
    return None


def _callable_shape(node: ast.expr, untried: list[str]) -> Shape | None:
    """``Callable[[A], R]`` with ``A`` an int, bool or str and ``R`` one of those or a float:
    ``("callable", (A, R))``; bare ``Callable`` (``callable``) is ``Callable[[int], int]``, a
    documented default. Other arities and ``Callable[..., R]``: None."""
    if not isinstance(node, ast.Subscript):
        return ("callable", ("int", "int"))
    if not (isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2 and isinstance(node.slice.elts[0], ast.List) and len(node.slice.elts[0].elts) == 1):
        return None
    arg = _shape(node.slice.elts[0].elts[0], (), untried)
    ret = _shape(node.slice.elts[1], (), untried)
    return ("callable", (arg, ret)) if arg in SCALARS and (ret in SCALARS or ret == "float") else None


def _dict_shape(node: ast.expr, classes: Container[str], untried: list[str]) -> Shape | None:
    if not isinstance(node, ast.Subscript):
        return ("dict", ("str", "int"))
    if not isinstance(node.slice, ast.Tuple) or len(node.slice.elts) != 2:
        return None
    key_node, value_node = node.slice.elts
    key = _shape(key_node, (), untried)
    value = _object_item(value_node, classes) or _shape(value_node, classes, untried)
    if value is None and not isinstance(value_node, ast.Constant):
        inner: list[str] = []
        nested = _top(value_node, classes, inner) if union_members(value_node) is None else None
        if _flat_container(nested):
            untried += inner
            untried.append(f"a dict of {ast.unparse(value_node)} values explored with at most {NESTED_MOST} entries, each of at most {NESTED_MOST}")
            value = nested
    return ("dict", (key, value)) if key in SCALARS and value is not None else None


def _flat_container(shape: Shape | None) -> bool:
    """A set, or a dict whose values are no dicts nor sets: what a dict's values may be."""
    if not isinstance(shape, tuple) or shape[0] not in ("set", "dict"):
        return False
    inner = shape[1][1] if shape[0] == "dict" else None  # type: ignore[index]
    return not (isinstance(inner, tuple) and inner[0] in ("dict", "set"))


def optional_of(node: ast.expr) -> ast.expr | None:
    """``T`` when ``node`` is ``Optional[T]``, ``T | None``, ``None | T`` or ``Union[T, None]``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        if _is_none(node.right):
            return node.left
        if _is_none(node.left):
            return node.right
    if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("Optional", "typing.Optional"):
        return node.slice
    if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("Union", "typing.Union") and isinstance(node.slice, ast.Tuple):
        parts = node.slice.elts
        if len(parts) == 2 and _is_none(parts[1]):
            return parts[0]
        if len(parts) == 2 and _is_none(parts[0]):
            return parts[1]
    return None


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _object_item(node: ast.expr, classes: Container[str]) -> Shape | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    inner = optional_of(node)
    target = inner if inner is not None else node
    if isinstance(target, ast.Constant) and isinstance(target.value, str):
        return _object_item(target, classes) if inner is None else None
    if isinstance(target, ast.Name) and target.id in classes:
        return ("object", (target.id, inner is not None))
    return None


def _shape(node: ast.expr, classes: Container[str], untried: list[str]) -> Shape | None:
    """The shape of an item of a container (or of a parameter that is no union, set, dict nor
    ``tuple[T, ...]``): a union takes its first modelled member, the others left untried."""
    members = union_members(node)
    if members is not None:
        return _first_member(node, members, classes, untried)
    name = ast.unparse(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    if name in SCALARS or name == "float":
        return name
    if name in UNTYPED:
        return "int"
    if name in _LISTS or name in _LIKE_LISTS:
        return ("list", "int")
    if not isinstance(node, ast.Subscript):
        return None
    outer = ast.unparse(node.value)
    if outer in _LISTS or outer in _LIKE_LISTS:
        item = _object_item(node.slice, classes) or _shape(node.slice, classes, untried)
        return None if item is None else ("list", item)
    if outer in _TUPLES:
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(parts) == 2 and isinstance(parts[1], ast.Constant) and parts[1].value is Ellipsis:
            item = _shape(parts[0], classes, untried)  # an item tuple[T, ...]: explored at one length
            if item is None:
                return None
            untried.append(f"items of type {ast.unparse(node)} explored as pairs only (other lengths not tried)")
            return ("tuple", (item, item))
        if any(isinstance(p, ast.Constant) and p.value is Ellipsis for p in parts):
            return None
        items = [_shape(p, classes, untried) for p in parts]
        return None if any(i is None for i in items) else ("tuple", tuple(items))
    return None


def _first_member(node: ast.expr, members: list[ast.expr], classes: Container[str], untried: list[str]) -> Shape | None:
    """An item of union type: explored as its first modelled member (an item is one kind of
    value on every path); the other members, None included, are left untried."""
    for member in members:
        if _is_none(member):
            continue
        inner: list[str] = []
        shape = _shape(member, classes, inner)
        if shape is not None:
            others = ", ".join(ast.unparse(m) for m in members if m is not member)
            untried += inner
            untried.append(f"items of type {ast.unparse(node)} explored as {ast.unparse(member)} only ({others} not tried)")
            return shape
    return None

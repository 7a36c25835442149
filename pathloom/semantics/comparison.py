"""Comparison operators on pathloom values: ``==``/``!=``, ordering, ``in``/``not in`` and
``is``/``is not``, with the dunder protocols of analysed classes first (``ops.protocol_call``,
``ops.dispatch_dunder``), sets (``sets.compare``), then the model: ints and floats as terms,
strs, sequences lexicographically, membership item by item. Anything the model does not
know (opaque objects, dicts ordered) runs in CPython on pinned values, so results and
exceptions are CPython's. Invariant: every comparison returns an ``Outcome`` whose value is a
bool or a Bool term, or CPython's TypeError with its message.
"""

from __future__ import annotations

import builtins
from collections.abc import Collection
from typing import TYPE_CHECKING, Callable, TypeGuard, cast

from pathloom.semantics import floats as F
from pathloom.semantics.concretize import run_concretely
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.replayed import is_replayed_ref
from pathloom.domain.outcome import NotModeled, Ok, Outcome, RuntimeUnsupported, throw
from pathloom.semantics import input_heap as IN
from pathloom.domain.values import BuiltinVal, ClassVal, ExcVal, FuncVal, ListRec, PyObj, RangeVal, Ref, SymRef, concrete_length
from pathloom.terms import expr as T
from pathloom.terms.expr import STR, Arg, Term
from pathloom.semantics.ops import (
    _COMPARISON_DUNDERS,
    _PY_OPERATORS,
    _analysed_class,
    _concrete_scalar,
    _defines,
    _has_dunder,
    _in_range,
    _is_dict,
    _is_number,
    _is_set,
    _same_class_comparison,
    as_int,
    concrete_outcome,
    dispatch_dunder,
    equal,
    fix_length,
    input_reference,
    is_plain,
    item_equal,
    kind,
    protocol_call,
    shown_type,
)

if TYPE_CHECKING:
    from pathloom.frontend.module import Module


def compare(module: Module, heap: HeapView, op: str, a: object, b: object) -> Outcome:
    if isinstance(a, SymRef) or isinstance(b, SymRef):
        return input_reference(module, heap, (a, b), lambda v: _compare(module, heap, op, v[0], v[1]))
    return _compare(module, heap, op, a, b)


def _compare(module: Module, heap: HeapView, op: str, a: object, b: object) -> Outcome:
    if op in ("in", "not in"):
        protocol = protocol_call(module, heap, op, b, a)
        if protocol is not None:
            return protocol
    if op in _COMPARISON_DUNDERS and (_analysed_class(heap, a) or _analysed_class(heap, b)):
        same_class = _same_class_comparison(module, heap, op, a, b)
        if same_class is not None:
            return same_class
        if op == "!=" and _analysed_class(heap, b) in (None, _analysed_class(heap, a)):
            protocol = protocol_call(module, heap, "!=", a, b)
            if protocol is not None:
                return protocol
        names = _COMPARISON_DUNDERS[op]
        if op != "!=" or _defines(module, heap, a, "__ne__"):
            dispatched = dispatch_dunder(module, heap, names, a, b)
            if dispatched is not None:
                return dispatched
    if _is_set(heap, a) or _is_set(heap, b):
        from pathloom.semantics import sets

        compared = sets.compare(heap, op, a, b)
        if compared is not None:
            return compared
    if _needs_cpython(heap, op, a, b):
        return run_concretely(module, heap, f"comparison {op}", _PY_OPERATORS[op], (a, b))
    if op == "==":
        return Ok(equal(heap, a, b))
    if op == "!=":
        return Ok(T.not_(equal(heap, a, b)))
    if op in ("in", "not in"):
        return _membership(module, heap, op, a, b)
    if op in ("is", "is not"):
        same = _identical(a, b)
        return Ok(same if op == "is" else T.not_(same))
    if is_plain(a) and is_plain(b):
        return concrete_outcome(lambda: _PY_COMPARE[op](a, b))
    ka, kb = kind(a), kind(b)
    x: Arg
    y: Arg
    if _is_number(ka) and _is_number(kb):
        x, y = as_int(a), as_int(b)
    elif "float" in (ka, kb) and F.is_numeric(a) and F.is_numeric(b):
        x, y = F.number(a), F.number(b)
    elif ka == "str" and kb == "str":
        x, y = a, b  # type: ignore[assignment]
    elif (items := _sequence_items(heap, a)) is not None and type(items) is type(_sequence_items(heap, b)):
        return _lexicographic(module, heap, op, a, b)
    else:
        return run_concretely(module, heap, f"comparison {op}", _PY_OPERATORS[op], (a, b))
    return Ok(_order(op, x, y))


def _order(op: str, x: Arg, y: Arg) -> Arg:
    if op == "<":
        return T.lt(x, y)
    if op == "<=":
        return T.le(x, y)
    if op == ">":
        return T.lt(y, x)
    return T.le(y, x)


def _needs_cpython(heap: HeapView, op: str, a: object, b: object) -> bool:
    """Operands whose comparison the model does not know: opaque objects, and instances of
    analysed classes that define the comparison's dunders."""
    if (isinstance(a, float) and isinstance(b, Term) and b.sort == STR) or (isinstance(b, float) and isinstance(a, Term) and a.sort == STR):
        return True
    if op in ("in", "not in") and isinstance(b, PyObj) and _plain_collection(b.obj) and not isinstance(a, PyObj):
        return False
    if op not in ("in", "not in", "is", "is not") and (_is_dict(heap, a) or _is_dict(heap, b)):
        return True
    if isinstance(a, PyObj) or isinstance(b, PyObj):
        return not (op in ("is", "is not") or (op in ("==", "!=") and _concrete_scalar(a) and _concrete_scalar(b)))
    dunders = {
        "==": ("__eq__",),
        "!=": ("__eq__", "__ne__"),
        "<": ("__lt__", "__gt__"),
        ">": ("__lt__", "__gt__"),
        "<=": ("__le__", "__ge__"),
        ">=": ("__le__", "__ge__"),
        "in": ("__contains__", "__iter__", "__getitem__"),
        "not in": ("__contains__", "__iter__", "__getitem__"),
    }.get(op, ())
    return _has_dunder(heap, a, dunders) or _has_dunder(heap, b, dunders)


def _sequence_items(heap: HeapView, value: object) -> list[object] | tuple[object, ...] | None:
    """The items of a list whose length is concrete (as a list) or of a tuple (as a tuple)."""
    if isinstance(value, tuple):
        return value
    if isinstance(value, Ref):
        record = heap.record(value)
        if isinstance(record, ListRec):
            if isinstance(record.length, Term):
                return []
            return list(record.items[: concrete_length(record)])
    return None


def _lexicographic(module: Module, heap: HeapView, op: str, a: object, b: object) -> Outcome:
    """List or tuple ordering: the first pair of items that differ decides it, else the lengths."""
    for v in (a, b):
        if isinstance(v, Ref):
            record = heap.record(v)
            assert isinstance(record, ListRec)
            if isinstance(record.length, Term):
                return fix_length(v, record)
    xs, ys = _sequence_items(heap, a), _sequence_items(heap, b)
    assert xs is not None and ys is not None
    result: Arg = _order(op, len(xs), len(ys))
    for x, y in reversed(list(zip(xs, ys))):
        kx, ky = kind(x), kind(y)
        if not ((_is_number(kx) and _is_number(ky)) or (kx == "str" and ky == "str")):
            return run_concretely(module, heap, f"comparison {op}", _PY_OPERATORS[op], (a, b))
        ix, iy = (as_int(x), as_int(y)) if _is_number(kx) else (x, y)
        strict = "<" if op in ("<", "<=") else ">"
        result = T.ite(equal(heap, x, y), result, _order(strict, ix, iy))  # type: ignore[arg-type]
    return Ok(result)


_PY_COMPARE: dict[str, Callable[[object, object], object]] = {
    "<": lambda a, b: a < b,  # type: ignore[operator]
    "<=": lambda a, b: a <= b,  # type: ignore[operator]
    ">": lambda a, b: a > b,  # type: ignore[operator]
    ">=": lambda a, b: a >= b,  # type: ignore[operator]
}


def _identical(a: object, b: object) -> Arg:
    found = IN.identical(a, b)
    if found is not None:
        return found
    if isinstance(a, PyObj) or isinstance(b, PyObj):
        if isinstance(a, PyObj) and isinstance(b, PyObj):
            return a.obj is b.obj
        other = b if isinstance(a, PyObj) else a
        obj = a.obj if isinstance(a, PyObj) else cast(PyObj, b).obj
        if isinstance(other, Term) and isinstance(obj, (int, str)):
            raise RuntimeUnsupported("'is' between a symbolic value and an int or str object")
        if isinstance(other, BuiltinVal) and not other.name.startswith("%"):
            return obj is getattr(builtins, other.name)  # type(x) is int
        if is_plain(other) or isinstance(other, (Ref, ExcVal)):
            return obj is other if is_plain(other) else False  # a real object is never a heap record
        raise NotModeled("'is' between a real object and a function or class of the analysis")
    if a is None or b is None:
        return a is b
    if isinstance(a, (Ref, ExcVal)) or isinstance(b, (Ref, ExcVal)):
        return a == b
    if isinstance(a, bool) and isinstance(b, bool):
        return a is b
    if isinstance(a, (ClassVal, BuiltinVal)) and isinstance(b, (ClassVal, BuiltinVal)):
        return a == b  # one class or builtin per name
    if isinstance(a, FuncVal) and isinstance(b, FuncVal) and not (a.captured or b.captured or "<" in a.qualname + b.qualname):
        return a == b  # a top-level function or method: one object per qualname
    raise RuntimeUnsupported("'is' comparison of values other than None, booleans and objects")


def _membership(module: Module, heap: HeapView, op: str, needle: object, container: object) -> Outcome:
    found: Arg
    kc = kind(container)
    hashing = isinstance(container, PyObj) and type(container.obj) in (set, frozenset, dict)
    if hashing and not (isinstance(needle, Term) or is_plain(needle)):
        return run_concretely(module, heap, f"comparison {op}", _PY_OPERATORS[op], (needle, container))
    if isinstance(container, RangeVal) and isinstance(needle, float):
        return run_concretely(module, heap, f"comparison {op}", _PY_OPERATORS[op], (needle, container))
    if isinstance(container, PyObj) and _plain_collection(container.obj) and not isinstance(needle, PyObj):
        container = tuple(container.obj)
        kc = "tuple"
    elif isinstance(container, PyObj) or isinstance(needle, PyObj) or is_replayed_ref(heap, container):
        return run_concretely(module, heap, f"comparison {op}", _PY_OPERATORS[op], (needle, container))
    if kc == "str":
        if kind(needle) != "str":
            return throw("TypeError", f"'in <string>' requires string as left operand, not {shown_type(heap, needle)}")
        found = T.contains(container, needle)  # type: ignore[arg-type]
    elif kc == "tuple":
        assert isinstance(container, tuple)
        found = False
        for item in container:
            found = T.or_(found, item_equal(heap, needle, item))
    elif isinstance(container, Ref) and isinstance(heap.record(container), ListRec):
        record = heap.record(container)
        assert isinstance(record, ListRec)
        found = False
        for i, item in enumerate(record.items):
            found = T.or_(found, T.and_(T.lt(i, record.length), item_equal(heap, needle, item)))  # type: ignore[arg-type]
    elif _is_set(heap, container):
        from pathloom.semantics import sets

        in_set = sets.contains(heap, heap.record(container), needle)  # type: ignore[arg-type]
        if not isinstance(in_set, Ok):
            return in_set
        found = in_set.value  # type: ignore[assignment]
    elif (in_dict := _dict_membership(heap, needle, container)) is not None:
        if not isinstance(in_dict, Ok):
            return in_dict
        found = in_dict.value  # type: ignore[assignment]
    elif isinstance(container, RangeVal):
        if not _is_number(kind(needle)):
            found = False
        else:
            found = _in_range(container, as_int(needle))
    else:
        return throw("TypeError", f"argument of type '{shown_type(heap, container)}' is not iterable")
    return Ok(found if op == "in" else T.not_(found))


def _dict_membership(heap: HeapView, needle: object, container: object) -> Outcome | None:
    """``needle in d`` (or in ``d.keys()``), as the dict model says; None for other containers."""
    from pathloom.semantics import dicts
    from pathloom.domain.values import DictView

    if isinstance(container, DictView):
        if container.kind != "keys":
            raise NotModeled(f"'in' on dict {container.kind}")
        container = container.ref
    record = dicts.record_of(heap, container)
    return dicts.contains(heap, record, needle) if record is not None else None


def _plain_collection(obj: object) -> TypeGuard[Collection[object]]:
    """A list, tuple, set or dict (its keys) of ints, bools and strs: membership in it is
    equality with one of its items, which the model knows."""
    kinds = (list, tuple, set, frozenset, dict)
    if not isinstance(obj, kinds) or type(obj) not in kinds or len(obj) > 256:
        return False
    return all(type(x) in (int, bool, str) for x in obj)

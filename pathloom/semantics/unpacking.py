"""Starred items and ``**`` mappings: what the lowering's hidden builtins for ``[*xs, x]``,
``(x, *xs)``, ``{*xs, x}`` and ``{**d, k: v}`` mean.

The lowering builds such a display as CPython's compiler does (``starunpack_helper``,
``compiler_dict``): the items before the first starred one make the list (set, dict), then a
starred item extends it (``%star_items`` then ``list.extend``; a set's ``update`` takes the
iterable itself), another item is appended, and a tuple is the list converted at the end
(``%star_tuple``); a ``**`` mapping is checked (``%star_mapping``) and merged by a loop over its
items. These functions decide which values CPython iterates here and raise its TypeErrors for
the others; a value whose iterability the model cannot decide (an instance, a class, an input
object) is unsupported, never guessed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from pathloom.domain.outcome import Ok, Outcome, RuntimeUnsupported, throw
from pathloom.domain.values import (
    BoundMethod, BuiltinVal, ClassVal, DictRec, ExcVal, FuncVal, ListRec, ObjRec, PyObj, RangeVal, Ref, SetRec, TableFunc,
)
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.ops import shown_type
from pathloom.terms.expr import BOOL, FLOAT, INT, Term

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

HIDDEN = frozenset({"%star_items", "%star_set_items", "%star_tuple", "%star_mapping"})

Caller = Callable[[object, tuple[object, ...]], Outcome]  # calls a function value with positional arguments


def call_hidden(module: Module, heap: HeapView, name: str, args: tuple[object, ...], call: Caller) -> Outcome:
    """One of ``HIDDEN``: ``call`` runs a call as the IR's ``Call`` does (``list(x)``, ``tuple(xs)``)."""
    if name == "%star_items":
        return star_items(module, heap, args[0], call)
    if name == "%star_set_items":  # set.update() takes the iterable itself (a set's own layout)
        return _checked_iterable(module, heap, args[0], "'{}' object is not iterable")
    if name == "%star_tuple":
        return call(PyObj(tuple), (args[0],))
    return star_mapping(module, heap, args[0])


def _shown(heap: HeapView, value: object) -> str:
    return "builtin_function_or_method" if isinstance(value, BuiltinVal) else shown_type(heap, value)


def _class_chain_defines(module: Module, cls: str, names: tuple[str, ...]) -> bool | None:
    """Whether the analysed class ``cls`` or a base defines one of ``names``; None when a base
    is not an analysed class (a builtin exception: the model does not know its slots)."""
    current: str | None = cls
    while current is not None:
        info = module.classes.get(current)
        if info is None:
            return None
        if any(n in info.methods or n in info.other or n in info.attrs for n in names):
            return True
        current = info.base
    return False


def iterable(module: Module, heap: HeapView, value: object) -> bool | None:
    """Whether CPython's ``*value`` iterates ``value`` (True) or raises ``TypeError: Value
    after * must be an iterable`` (False: no ``__iter__`` and not a sequence); None when the
    model cannot tell."""
    if value is None or isinstance(value, (bool, int, float, FuncVal, BoundMethod, BuiltinVal, TableFunc)):
        return False
    if isinstance(value, Term):
        return value.sort not in (INT, BOOL, FLOAT)
    if isinstance(value, (str, tuple, RangeVal)):
        return True
    if isinstance(value, ExcVal):
        return False if value.cls not in module.classes else None
    if isinstance(value, Ref):
        record = heap.record(value)
        if isinstance(record, (ListRec, DictRec, SetRec)):
            return True
        if isinstance(record, ObjRec) and record.cls in module.classes:
            return _class_chain_defines(module, record.cls, ("__iter__", "__getitem__"))
        return None
    if isinstance(value, PyObj):
        real = type(value.obj)
        return hasattr(real, "__iter__") or (hasattr(real, "__getitem__") and not issubclass(real, dict))
    return None


def star_items(module: Module, heap: HeapView, value: object, call: Caller) -> Outcome:
    """``*value`` in a list or tuple display: a list or a concrete str as it is (``list.extend``
    takes them in the model), another iterable as ``list(value)`` (a tuple, a symbolic str, a
    dict's keys, a set in CPython's order, a range), a value that is not iterable CPython's
    TypeError."""
    checked = _checked_iterable(module, heap, value, "Value after * must be an iterable, not {}")
    if not isinstance(checked, Ok):
        return checked
    if isinstance(value, str) or (isinstance(value, Ref) and isinstance(heap.record(value), ListRec)):
        return Ok(value)  # list.extend's own cases; a symbolic str is list(s): its characters, symbolic
    return call(PyObj(list), (value,))


def _checked_iterable(module: Module, heap: HeapView, value: object, message: str) -> Outcome:
    """``Ok(value)`` when ``*value`` iterates it, else the TypeError of ``message``."""
    answer = iterable(module, heap, value)
    if answer is None:
        raise RuntimeUnsupported(f"a starred item of type {_shown(heap, value)}")
    return Ok(value) if answer else throw("TypeError", message.format(_shown(heap, value)))


def is_mapping(module: Module, heap: HeapView, value: object) -> bool | None:
    """Whether ``**value`` merges ``value`` as a dict (True), is CPython's ``not a mapping``
    TypeError (False: no ``keys``), or neither as far as the model knows (None)."""
    if isinstance(value, Ref):
        record = heap.record(value)
        if isinstance(record, DictRec):
            return True
        if isinstance(record, (ListRec, SetRec)):
            return False
        if isinstance(record, ObjRec) and record.cls in module.classes:
            return None if _class_chain_defines(module, record.cls, ("keys",)) is not False else False
        return None
    if isinstance(value, PyObj):  # a real dict (a module-level value) is not merged in the model
        return None if hasattr(value.obj, "keys") else False
    if isinstance(value, ClassVal):
        return None
    return None if iterable(module, heap, value) is None else False


def star_mapping(module: Module, heap: HeapView, value: object) -> Outcome:
    """``**value`` in a dict display: ``value`` itself when it is a dict (its items are then
    merged in order), else CPython's ``TypeError: 'T' object is not a mapping``."""
    answer = is_mapping(module, heap, value)
    if answer is None:
        real = " (a real object of the module)" if isinstance(value, PyObj) else ""
        raise RuntimeUnsupported(f"a ** mapping of type {_shown(heap, value)}{real}")
    if not answer:
        return throw("TypeError", f"'{_shown(heap, value)}' object is not a mapping")
    return Ok(value)

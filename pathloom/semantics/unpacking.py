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

import re
import collections
from typing import TYPE_CHECKING, Callable, NamedTuple, cast

from pathloom.domain.outcome import Ok, Outcome, RuntimeUnsupported, throw
from pathloom.domain.values import (
    BoundMethod,
    BuiltinVal,
    ClassVal,
    DictRec,
    ExcVal,
    FuncVal,
    ListRec,
    ObjRec,
    PyObj,
    RangeVal,
    REPLAYED,
    Ref,
    SetRec,
    TableFunc,
    concrete_length,
    type_name,
)
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.replayed import iterable as replayed_iterable
from pathloom.semantics.ops import shown_type, with_concrete_length
from pathloom.terms.expr import BOOL, FLOAT, INT, Term

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

HIDDEN = frozenset(
    {
        "%star_items",
        "%star_set_items",
        "%star_tuple",
        "%star_mapping",  # displays
        "%method_of",
        "%star_args",
        "%kw_add",
        "%kw_merge",
        "%star_call",  # calls
    }
)

Kwargs = tuple[tuple[str, object], ...]
Caller = Callable[[object, tuple[object, ...]], Outcome]  # calls a function value with positional arguments


class Dispatch(NamedTuple):
    """What these need of ``semantics.calls`` (which imports this module)."""

    call: Callable[[object, tuple[object, ...], Kwargs, bool], Outcome]  # func, args, kwargs, whole
    call_method: Callable[[object, str, tuple[object, ...], Kwargs, bool], Outcome]  # obj, name, args, kwargs, whole
    getattr_: Callable[[object, str], Outcome]


def call_hidden(module: Module, heap: HeapView, name: str, args: tuple[object, ...], dispatch: Dispatch, whole: bool) -> Outcome:
    """One of ``HIDDEN``, called by ``semantics.calls.call`` (``whole``: ``ir.Call.whole``)."""
    call: Caller = lambda f, a: dispatch.call(f, a, (), False)  # noqa: E731
    if name == "%star_items":
        return star_items(module, heap, args[0], call)
    if name == "%star_set_items":  # set.update() takes the iterable itself (a set's own layout)
        return _checked_iterable(module, heap, args[0], "'{}' object is not iterable")
    if name == "%star_tuple":
        return call(PyObj(tuple), (args[0],))
    if name == "%star_mapping":
        return star_mapping(module, heap, args[0])
    if name == "%method_of":
        return method_of(heap, args[0], cast(str, args[1]), dispatch)
    if name == "%star_args":
        return star_args(module, heap, args[0], args[1], call)
    if name == "%kw_add":
        return kw_add(module, heap, args[0], cast(Kwargs, args[1]), tuple(zip(cast(tuple[str, ...], args[2]), args[3:])))
    if name == "%kw_merge":
        return kw_merge(module, heap, args[0], cast(Kwargs, args[1]), args[2])
    return star_call(heap, args[0], args[1], cast(Kwargs, args[2]), whole, dispatch)


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
        if isinstance(record, ObjRec) and record.cls == REPLAYED:  # a deque, an OrderedDict, a Random...
            return replayed_iterable(record)
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


def _checked_mapping(module: Module, heap: HeapView, value: object, what: str, message: Callable[[str], str]) -> Outcome:
    """``Ok(value)`` when ``**value`` merges it as a dict, else the TypeError ``message(type)``."""
    answer = is_mapping(module, heap, value)
    if answer is None:
        real = " (a real object of the module)" if isinstance(value, PyObj) else ""
        raise RuntimeUnsupported(f"a ** {what} of type {_shown(heap, value)}{real}")
    return Ok(value) if answer else throw("TypeError", message(_shown(heap, value)))


def star_mapping(module: Module, heap: HeapView, value: object) -> Outcome:
    """``**value`` in a dict display: ``value`` itself when it is a dict (its items are then
    merged in order), else CPython's ``TypeError: 'T' object is not a mapping``."""
    return _checked_mapping(module, heap, value, "mapping", lambda shown: f"'{shown}' object is not a mapping")


# ---------------------------------------------------------------- calls with * and **


_METHOD = "%method"  # (_METHOD, receiver, name): a method of a builtin receiver, called by name
_SCALAR_TYPES: dict[str, type] = {"int": int, "bool": bool, "float": float, "str": str, "NoneType": type(None), "tuple": tuple}


def _builtin_type(heap: HeapView, value: object) -> type | None:
    """The real type of a receiver whose methods ``calls.call_method`` takes by name."""
    if isinstance(value, Ref):
        record = heap.record(value)
        if isinstance(record, DictRec):
            return dict if record.default is None else collections.defaultdict
        return list if isinstance(record, ListRec) else set if isinstance(record, SetRec) else None
    if value is None or isinstance(value, (Term, bool, int, float, str, tuple)):
        return _SCALAR_TYPES.get(type_name(value))
    return None


def method_of(heap: HeapView, obj: object, name: str, dispatch: Dispatch) -> Outcome:
    """``obj.name`` read before the arguments of a call with ``*``/``**`` (CPython reads the
    bound method first there): a method of a list, dict, set or scalar stays a call by name."""
    real = _builtin_type(heap, obj)
    if real is None:
        return dispatch.getattr_(obj, name)
    if not hasattr(real, name):
        return throw("AttributeError", f"'{shown_type(heap, obj)}' object has no attribute '{name}'")
    return Ok((_METHOD, obj, name))


def function_text(module: Module, heap: HeapView, func: object) -> str:
    """CPython's name of a callable in the TypeErrors of ``*``/``**`` arguments
    (``_PyObject_FunctionStr``: ``module.qualname()``, or ``qualname()`` for a builtin)."""
    if isinstance(func, tuple) and func[:1] == (_METHOD,):
        real = _builtin_type(heap, func[1])
        return f"{getattr(real, func[2]).__qualname__}()"
    if isinstance(func, BuiltinVal):
        return f"{func.name}()"
    if isinstance(func, ClassVal) and func.name not in module.classes:
        return f"{func.name}()"
    if isinstance(func, (FuncVal, BoundMethod, ClassVal)):
        qualname = func.name if isinstance(func, ClassVal) else func.qualname
        namespace, _, local = qualname.rpartition(":")
        owner = module.linked[namespace] if namespace else module
        runtime = getattr(owner, "runtime", None)
        if runtime is None:
            raise RuntimeUnsupported("the message of a bad * or ** argument without the real module")
        return f"{runtime.__name__}.{python_qualname(local)}()"
    if isinstance(func, PyObj):
        real_name = getattr(func.obj, "__qualname__", None)
        if isinstance(real_name, str):
            real_module = getattr(func.obj, "__module__", None)
            return f"{real_module}.{real_name}()" if isinstance(real_module, str) and real_module != "builtins" else f"{real_name}()"
    raise RuntimeUnsupported(f"the message of a bad * or ** argument of a {_shown(heap, func)}")


_COMPREHENSIONS = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")


def python_qualname(qualname: str) -> str:
    """The ``__qualname__`` CPython shows for an analysed function. A lambda's own qualname is
    its maker's, the comprehensions it is made in (``lowering.functions.expr_Lambda``) and
    ``<lambdaN>``; CPython puts ``<locals>`` after a function's name, never after a
    comprehension's (``f.<locals>.<listcomp>.<lambda>``, ``f.<locals>.<lambda>.<locals>.<lambda>``)."""
    qualname = re.sub(r"#\d+", "", qualname.rpartition(":")[2])  # a linked module's function: its own qualname; no own_qualname marks
    parts: list[str] = []
    for part in qualname.split("."):
        inner = part.startswith("<lambda") or part in _COMPREHENSIONS
        if inner and parts and parts[-1] not in _COMPREHENSIONS and parts[-1] != "<locals>":
            parts.append("<locals>")
        parts.append("<lambda>" if part.startswith("<lambda") else part)
    return ".".join(parts)


def star_args(module: Module, heap: HeapView, func: object, value: object, call: Caller) -> Outcome:
    """``f(*value)`` alone: ``value`` checked as ``CALL_FUNCTION_EX`` does (the function named in
    the TypeError), then a list or tuple of its items."""
    answer = iterable(module, heap, value)
    if answer is None:
        raise RuntimeUnsupported(f"a * argument of type {_shown(heap, value)}")
    if not answer:
        return throw("TypeError", f"{function_text(module, heap, func)} argument after * must be an iterable, not {_shown(heap, value)}")
    if isinstance(value, tuple) or (isinstance(value, Ref) and isinstance(heap.record(value), ListRec)):
        return Ok(value)
    return call(PyObj(list), (value,))


def kw_add(module: Module, heap: HeapView, func: object, acc: Kwargs, pairs: Kwargs) -> Outcome:
    """``acc`` with ``pairs`` merged (``DICT_MERGE``): an equal name is CPython's TypeError."""
    names = {name for name, _ in acc}
    for name, _ in pairs:
        if name in names:
            return throw("TypeError", f"{function_text(module, heap, func)} got multiple values for keyword argument '{name}'")
        names.add(name)
    return Ok(acc + tuple(pairs))


def kw_merge(module: Module, heap: HeapView, func: object, acc: Kwargs, mapping: object) -> Outcome:
    """``f(..., **mapping)``: the mapping's items merged into the keywords so far."""
    checked = _checked_mapping(
        module, heap, mapping, "argument", lambda shown: f"{function_text(module, heap, func)} argument after ** must be a mapping, not {shown}"
    )
    if not isinstance(checked, Ok):
        return checked
    assert isinstance(mapping, Ref)
    record = heap.record(mapping)
    assert isinstance(record, DictRec)
    if not all(isinstance(k, str) for k in record.keys):
        raise RuntimeUnsupported("a ** argument whose keys are not all str constants")
    return kw_add(module, heap, func, acc, tuple((cast(str, k), v) for k, v in zip(record.keys, record.values)))


def star_call(heap: HeapView, func: object, positional: object, kwargs: Kwargs, whole: bool, dispatch: Dispatch) -> Outcome:
    """The call itself, once its positional arguments are a list or tuple and its keywords merged."""
    if isinstance(positional, Ref):
        record = heap.record(positional)
        assert isinstance(record, ListRec)
        return with_concrete_length(heap, positional, lambda: _call_with(func, record.items[: concrete_length(record)], kwargs, whole, dispatch))
    assert isinstance(positional, tuple)
    return _call_with(func, positional, kwargs, whole, dispatch)


def _call_with(func: object, args: tuple[object, ...], kwargs: Kwargs, whole: bool, dispatch: Dispatch) -> Outcome:
    if isinstance(func, tuple) and func[:1] == (_METHOD,):
        return dispatch.call_method(func[1], func[2], args, kwargs, whole)
    return dispatch.call(func, args, kwargs, whole)

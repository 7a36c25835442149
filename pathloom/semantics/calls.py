"""Calls, attributes, classes and exceptions: what ``Call``, ``CallMethod``, ``GetAttr``,
``SetAttr`` and ``ExcMatch`` mean.

A call of analyzed code is returned as ``Invoke`` with the arguments already bound to the
callee's parameters (``semantics.binding``: positional, keyword, defaults, ``*args`` and
``**kwargs``; arity errors are the TypeErrors CPython raises), so engines only push a frame. Instantiating a user class allocates an ``ObjRec`` and
invokes ``__init__`` with the instance as result. User exception classes create ``ExcVal``s.
"""

from __future__ import annotations

import builtins
import collections
import functools
import inspect
import types
from dataclasses import replace
from typing import TYPE_CHECKING

from pathloom.frontend.linker import linked_qualname
from pathloom.semantics import aggregates as AGG
from pathloom.semantics import binding as BIND
from pathloom.semantics import strings as STR
from pathloom.semantics import builtins as B
from pathloom.semantics import dicts as D
from pathloom.semantics import library_models as LM
from pathloom.semantics import floats as F
from pathloom.semantics import patterns as PAT
from pathloom.semantics import replayed as REPLAY
from pathloom.semantics import regex as RX
from pathloom.semantics import sequences as S
from pathloom.semantics import sets as SETS
from pathloom.semantics import unpacking as UNP
from pathloom.semantics.concretize import run_concretely
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.ops import input_reference, kind, list_extend_method, shown_type
from pathloom.domain.names import BUILTIN_FUNCTIONS, EXCEPTION_BASES, NEVER_RUN, NONDETERMINISTIC_MODULES
from pathloom.semantics import input_heap as IN
from pathloom.domain.outcome import Invoke, Ok, Outcome, RuntimeUnsupported, Split, Throw, map_ok, split, throw
from pathloom.terms import expr as T
from pathloom.terms.expr import Arg, Term
from pathloom.domain.values import (
    ITERATOR,
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
    Ref,
    SetRec,
    SuperVal,
    TableFunc,
    SymRef,
    from_runtime,
    type_name,
)

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

Kwargs = tuple[tuple[str, object], ...]


def resolve_global(module: Module, name: str) -> Outcome:
    namespace, _, local = name.rpartition(":")
    if namespace:
        return _resolve_linked(module, module.linked[namespace], local)
    if name in module.function_defs:
        return Ok(FuncVal(name))
    if name in module.classes:
        return Ok(ClassVal(name))
    if module.has_runtime(name):  # the module's own binding shadows a builtin
        return Ok(runtime_object(module, module.runtime_value(name)))
    if name in module.constants:  # no real module: the literal constants of the source
        return Ok(module.constants[name])
    return _builtin(name) or throw("NameError", f"name '{name}' is not defined")


def _resolve_linked(module: Module, linked: Module, name: str) -> Outcome:
    """A module-level name used by a function of a linked module: its real value there."""
    if linked.has_runtime(name):
        return Ok(runtime_object(module, linked.runtime_value(name)))
    return _builtin(name) or throw("NameError", f"name '{name}' is not defined")


def _builtin(name: str) -> Outcome | None:
    if name in BUILTIN_FUNCTIONS:
        return Ok(BuiltinVal(name))
    if name in EXCEPTION_BASES:
        return Ok(ClassVal(name))
    if hasattr(builtins, name) and not name.startswith("_"):
        return Ok(PyObj(getattr(builtins, name)))
    return None


def runtime_object(module: Module, obj: object) -> object:
    """A real module-level value as a pathloom value: the target's own functions and the
    functions of other project modules it can analyse (``frontend.linker``) as functions,
    anything else as ``from_runtime`` says."""
    if not isinstance(obj, (types.FunctionType, type)):
        return from_runtime(obj)  # only functions and classes can be the analysis's own
    found = module.modeled_name(obj)
    if found is not None and found[0] == "function":
        return FuncVal(found[1])
    if found is not None and found[0] == "class":
        return ClassVal(found[1])
    qualname = linked_qualname(module, obj)
    if qualname is not None:
        return FuncVal(qualname)
    return from_runtime(obj)


def _invoke(
    module: Module,
    qualname: str,
    args: tuple[object, ...],
    kwargs: Kwargs,
    result: object = None,
    writes: tuple[tuple[Ref, ObjRec], ...] = (),
    captured: tuple[object, ...] = (),
    whole: bool = False,
    heap: HeapView | None = None,
) -> Outcome:
    if not whole and module.function(qualname).generator:  # its items are modelled as one list, made at the call
        raise RuntimeUnsupported(
            f"a call of generator function {qualname.rpartition('.')[2]}() whose items are not consumed whole "
            "(generators are modelled in list(), tuple(), sorted() and 'yield from' only)"
        )
    bound, made = BIND.bind(module, qualname, args, kwargs, heap)
    if not isinstance(bound, Ok):
        return bound
    return Invoke(qualname, bound.value + captured, (), result, writes + made)  # type: ignore[operator]


def invoke_method(module: Module, qualname: str, args: tuple[object, ...]) -> Outcome:
    """The call of an analysed method with positional arguments (the receiver first)."""
    return _invoke(module, qualname, args, ())


def call(module: Module, heap: HeapView, func: object, args: tuple[object, ...], kwargs: Kwargs, whole: bool = False) -> Outcome:
    """``func(*args, **kwargs)``; ``whole``: the value is consumed whole (``ir.Call.whole``)."""
    if isinstance(func, FuncVal):
        return _invoke(module, func.qualname, args, kwargs, captured=func.captured, whole=whole, heap=heap)
    if isinstance(func, BoundMethod):
        return _invoke(module, func.qualname, (func.self_ref,) + args, kwargs, whole=whole, heap=heap)
    if isinstance(func, BuiltinVal) and func.name == "%object_init":
        if args or kwargs:
            return throw("TypeError", "object.__init__() takes exactly one argument (the instance to initialize)")
        return Ok(None)
    if isinstance(func, TableFunc):
        return _table_call(heap, func, args, kwargs)
    order_free = SETS.order_free_args(heap, func, args, kwargs)
    if order_free is not None:  # sorted(s), sum(s)...: the items as a tuple (same answer in any order)
        args = order_free
    if isinstance(func, BuiltinVal):
        if func.name in UNP.HIDDEN:  # starred items and ** mappings (frontend.lowering.expressions)
            return UNP.call_hidden(module, heap, func.name, args, _dispatch(module, heap), whole)
        if func.name in PAT.HELPERS:  # a mapping or class pattern's lookups (frontend.lowering.matching)
            return PAT.call_helper(module, heap, func.name, args, lambda o, n: getattr_(module, heap, o, n))
        if func.name.startswith("%"):  # the analysis's own checks (frontend.protocols)
            return B.call_builtin(module, heap, func.name, args)
        if func.name not in ("print", "isinstance") and any(isinstance(a, SymRef) for a in args):
            # an input object that may be None: len(None) is CPython's TypeError, not __len__'s
            return input_reference(module, heap, args, lambda values: _builtin_call(module, heap, func.name, values, kwargs))
        return _builtin_call(module, heap, func.name, args, kwargs)
    if isinstance(func, ClassVal):
        return instantiate(module, heap, func.name, args, kwargs)
    if isinstance(func, PyObj) and func.obj is REPLAY.SEEDED:  # random.Random(seed): a replayed object
        return REPLAY.seeded_random(module, heap, args, kwargs)
    if isinstance(func, PyObj):
        model = LM.for_function(module, func.obj, args, kwargs)
        if model is not None:  # math.gcd(a, b): its Python-level model, analysed (models.library)
            return _invoke(module, model, args, kwargs, heap=heap)
        if args and isinstance(args[0], SymRef) and not kwargs and func.obj in (type, getattr, hasattr):
            return _input_object_builtin(module, heap, func.obj, args)
        if len(args) == 1 and not kwargs:
            text = _modelled_text(module, heap, func.obj, args[0])
            if text is not None:
                return text
        regex = RX.call(module, heap, func.obj, args, kwargs)
        if regex is not None:  # from re import fullmatch: membership in the pattern's language (semantics.regex)
            return regex
        floated = None if kwargs else F.call(func.obj, args)
        if floated is not None:
            return floated
        made = _list_or_dict(heap, func.obj, args, kwargs)
        if made is None:
            made = AGG.call_builtin(heap, func.obj, args, kwargs)
        if made is None and func.obj is set:
            made = SETS.make_set(heap, args, kwargs)
        return made if made is not None else call_real(module, heap, func.obj, args, kwargs)
    if isinstance(func, Ref) and isinstance(heap.record(func), ObjRec):
        record = heap.record(func)
        info = module.classes.get(record.cls)  # type: ignore[union-attr]
        if info is not None and "__call__" in info.methods:
            return _invoke(module, info.methods["__call__"], (func,) + args, kwargs, heap=heap)
        if info is None or "__call__" in info.other:
            return run_concretely(module, heap, "call", lambda f, *a, **k: f(*a, **k), (func,) + args, kwargs)
    if isinstance(func, SymRef):  # an input object: None is not callable either
        info = module.classes[func.cls]
        if "__call__" in info.other:
            raise RuntimeUnsupported(f"calling an input object of class {func.cls}")
        found = (
            _invoke(module, info.methods["__call__"], (func,) + args, kwargs, heap=heap)
            if "__call__" in info.methods
            else throw("TypeError", f"'{func.cls}' object is not callable")
        )
        none = [(T.eq(func.loc, 0), throw("TypeError", "'NoneType' object is not callable"))] if func.nullable else []
        return split(none + [(IN.not_none(func) if none else True, found)])
    return throw("TypeError", f"'{shown_type(heap, func)}' object is not callable")


def _dispatch(module: Module, heap: HeapView) -> UNP.Dispatch:
    return UNP.Dispatch(
        lambda f, a, k, w: call(module, heap, f, a, k, w),
        lambda o, n, a, k, w: call_method(module, heap, o, n, a, k, w),
        lambda o, n: getattr_(module, heap, o, n),
    )


def _table_call(heap: HeapView, func: TableFunc, args: tuple[object, ...], kwargs: Kwargs) -> Outcome:
    """A call of a ``Callable`` input, as its replayed ``lambda x: table.get(x, default)``
    answers: the value of the first live entry whose key equals the argument (dict lookup:
    an unhashable argument is CPython's TypeError), else the default."""
    if kwargs or len(args) != 1:  # CPython's TypeError names the lambda by its qualified name, which depends on where it is made
        raise RuntimeUnsupported(f"calling a Callable input with {len(args)} positional and {len(kwargs)} keyword arguments")
    problem = D.unhashable(heap, args[0])
    if problem is not None:
        return problem
    cases: list[tuple[Arg, Outcome]] = []
    earlier: Arg = False
    for i, (key, value) in enumerate(zip(func.keys, func.values)):
        hit = T.and_(T.and_(T.lt(i, func.size), D.same_key(heap, args[0], key)), T.not_(earlier))  # type: ignore[arg-type]
        cases.append((hit, Ok(value)))
        earlier = T.or_(earlier, hit)
    cases.append((T.not_(earlier), Ok(func.default)))
    default = func.default
    if isinstance(default, Term) and all(isinstance(v, Term) and v.sort == default.sort for v in func.values):  # one if-then-else term
        result: Arg = func.default  # type: ignore[assignment]
        for hit, outcome in reversed(cases[:-1]):
            result = T.ite(hit, outcome.value, result)  # type: ignore[union-attr, arg-type]
        return Ok(result)
    return split(cases)


def _list_or_dict(heap: HeapView, fn: object, args: tuple[object, ...], kwargs: Kwargs) -> Outcome | None:
    """``dict()``, ``dict(d)`` and ``list(d)`` of a modelled dict, in the model; None for
    other calls (run in CPython)."""
    if fn not in (dict, list) or kwargs or len(args) > 1:
        return None
    record = D.record_of(heap, args[0]) if args else D.EMPTY
    if record is None or (fn is list and not args):
        return None
    return D.new(heap, replace(record, default=None)) if fn is dict else D.as_list(heap, record)  # dict(a defaultdict) is a dict


def _modelled_text(module: Module, heap: HeapView, fn: object, value: object) -> Outcome | None:
    """``str(value)``, ``repr(value)`` or ``ascii(value)`` where the model covers ``value``."""
    for conversion, builtin in B.CONVERSIONS.items():
        if fn is builtin:
            return B.text_of(module, heap, value, conversion)
    return None


def _check_runnable(fn: object) -> str:
    """The name of a real callable the analysis may run in CPython (unsupported otherwise)."""
    name = getattr(fn, "__qualname__", None) or type(fn).__name__
    if getattr(fn, "__module__", None) == "builtins" and name in NEVER_RUN:
        raise RuntimeUnsupported(f"builtin {name}()")
    owner = getattr(fn, "__module__", None) or type(getattr(fn, "__self__", None)).__module__
    if isinstance(owner, str) and owner.split(".")[0] in NONDETERMINISTIC_MODULES:
        raise RuntimeUnsupported(f"{owner}.{name}() (its answers change from one run to the next)")
    return name


def call_real(module: Module, heap: HeapView, fn: object, args: tuple[object, ...], kwargs: Kwargs) -> Outcome:
    """A call of a real (builtin, compiled or not analysed) callable, run in CPython."""
    name = _check_runnable(fn)
    if not callable(fn):
        return throw("TypeError", f"'{type(fn).__name__}' object is not callable")
    return run_concretely(module, heap, f"{name}()", fn, args, kwargs)


def instantiate(module: Module, heap: HeapView, cls: str, args: tuple[object, ...], kwargs: Kwargs) -> Outcome:
    if module.is_exception_class(cls):
        info = module.classes.get(cls)
        if info is not None and "__init__" in info.methods:
            raise RuntimeUnsupported(f"exception class {cls} with its own __init__")
        if kwargs:
            return throw("TypeError", f"{cls}() takes no keyword arguments")
        return Ok(ExcVal(cls, tuple(args), heap.fresh().id))
    info = module.classes.get(cls)
    if info is None:
        raise RuntimeUnsupported(f"instantiating {cls}")
    if info.abstract:  # CPython's TypeError: "Can't instantiate abstract class ..."
        return call_real(module, heap, module.real_class(cls), args, kwargs)
    ref = heap.fresh()
    record = ObjRec(cls, ())
    init = info.methods.get("__init__")
    if init is None:
        if args or kwargs:
            return throw("TypeError", f"{cls}() takes no arguments")
        return Ok(ref, ((ref, record),))
    return _invoke(module, init, (ref,) + args, kwargs, result=ref, writes=((ref, record),), heap=heap)


def getattr_(module: Module, heap: HeapView, obj: object, name: str) -> Outcome:
    if isinstance(obj, SymRef):
        return _input_attribute(module, heap, obj, name)
    if isinstance(obj, Ref):
        record = heap.record(obj)
        if isinstance(record, ObjRec) and record.cls == ITERATOR:
            return run_concretely(module, heap, f"attribute .{name}", getattr, (obj, name))
        if REPLAY.is_replayed(record):
            return REPLAY.getattr_(module, heap, obj, name)
        if isinstance(record, ObjRec):
            info = module.classes[record.cls]
            kind, qualname = info.decorated.get(name, ("", ""))
            if kind == "property":  # a data descriptor: before the instance's own attributes
                return _invoke(module, qualname, (obj,), ())
            present, value = record.get(name)
            if present:
                return Ok(value)
            if kind:
                return Ok(_descriptor_value(kind, qualname, ClassVal(record.cls)))
            if name in info.methods:
                return Ok(BoundMethod(obj, info.methods[name]))
            if name in info.attrs:
                return Ok(info.attrs[name])
            if name in info.other or name.startswith("__"):
                return _class_attribute(module, heap, obj, record.cls, name)
            if "__getattr__" in info.methods:
                return _invoke(module, info.methods["__getattr__"], (obj, name), ())
            if "__getattr__" in info.other or "__getattribute__" in info.methods or "__getattribute__" in info.other:
                return run_concretely(module, heap, f"attribute .{name}", getattr, (obj, name))
            return throw("AttributeError", f"'{record.cls}' object has no attribute '{name}'")
        if isinstance(record, DictRec) and record.default is not None and name == "default_factory":
            return Ok(record.default)
        if (
            name in ("append", "pop")
            or (isinstance(record, DictRec) and hasattr(dict if record.default is None else collections.defaultdict, name))
            or (isinstance(record, SetRec) and hasattr(set, name))
        ):
            raise RuntimeUnsupported(f"{record.cls if isinstance(record, (DictRec, SetRec)) else 'list'} method {name} used as a value")
        return throw("AttributeError", f"'{shown_type(heap, obj)}' object has no attribute '{name}'")
    if isinstance(obj, ExcVal) and name == "args":
        return Ok(obj.args)
    if isinstance(obj, SuperVal):
        return _super_attribute(module, obj, name)
    if isinstance(obj, ClassVal) and obj.name in module.classes:
        info = module.classes[obj.name]
        kind, qualname = info.decorated.get(name, ("", ""))
        if kind in ("staticmethod", "classmethod"):
            return Ok(_descriptor_value(kind, qualname, obj))
        if name in info.attrs:
            return Ok(info.attrs[name])
        if name in info.methods:
            return Ok(FuncVal(info.methods[name]))
    if isinstance(obj, (FuncVal, BoundMethod, BuiltinVal, RangeVal)) or (isinstance(obj, ClassVal) and obj.name not in module.classes):
        if isinstance(obj, RangeVal) and name in ("start", "stop", "step"):
            return Ok(getattr(obj, name))
        if name == "__name__" and isinstance(obj, (FuncVal, ClassVal, BuiltinVal)):
            return Ok(UNP.python_qualname(obj.qualname).rsplit(".", 1)[-1] if isinstance(obj, FuncVal) else obj.name)
    if isinstance(obj, ExcVal) and obj.cls in module.classes:
        raise RuntimeUnsupported(f"attribute '{name}' of a user exception")
    python_type = _SCALAR_TYPES.get(type_name(obj)) if obj is None or isinstance(obj, (Term, bool, int, float, str)) else None
    if python_type is not None and not hasattr(python_type, name):
        # the same AttributeError whatever the value: nothing to run in CPython
        return throw("AttributeError", f"'{type_name(obj)}' object has no attribute '{name}'")
    analysed = _module_function(module, obj, name)
    if analysed is not None:
        return Ok(analysed)
    return run_concretely(module, heap, f"attribute .{name}", getattr, (obj, name))


_SCALAR_TYPES: dict[str, type] = {"int": int, "bool": bool, "float": float, "str": str, "NoneType": type(None)}


def _input_object_builtin(module: Module, heap: HeapView, fn: object, args: tuple[object, ...]) -> Outcome:
    """``type(obj)``, ``getattr(obj, name[, default])`` and ``hasattr(obj, name)`` of an input
    object, with a str name: as the attribute read (None is split off, CPython's builtin
    answers for it)."""
    obj = args[0]
    assert isinstance(obj, SymRef)
    if fn is type and len(args) == 1:
        found: Outcome = Ok(ClassVal(obj.cls))
    elif fn in (getattr, hasattr) and len(args) in ((2, 3) if fn is getattr else (2,)) and isinstance(args[1], str):
        read = getattr_(module, heap, SymRef(obj.cls, obj.loc, False), args[1])

        def absent(outcome: Outcome) -> Outcome:
            if isinstance(outcome, Split):
                return Split(tuple((c, absent(o)) for c, o in outcome.cases))
            if isinstance(outcome, Throw) and outcome.exc.cls == "AttributeError":
                return Ok(False) if fn is hasattr else (Ok(args[2]) if len(args) == 3 else outcome)
            if isinstance(outcome, Invoke) and (fn is hasattr or len(args) == 3):
                # a property of the input object's class: an AttributeError it raises would be
                # swallowed, which a call the engine performs cannot do
                raise RuntimeUnsupported(f"{'hasattr' if fn is hasattr else 'getattr'}() of attribute {args[1]!r} of an input object through a property")
            if isinstance(outcome, Ok) and fn is hasattr:
                return Ok(True, outcome.writes)
            return outcome

        found = absent(read)
    else:
        return call_real(module, heap, fn, args, ())
    if not obj.nullable:
        return found
    return split([(T.eq(obj.loc, 0), call_real(module, heap, fn, (None,) + args[1:], ())), (IN.not_none(obj), found)])


def _builtin_call(module: Module, heap: HeapView, name: str, args: tuple[object, ...], kwargs: Kwargs) -> Outcome:
    if not kwargs:
        try:
            return B.call_builtin(module, heap, name, args)
        except RuntimeUnsupported:
            pass  # a case the model does not cover: CPython's own builtin, below
    return call_real(module, heap, getattr(builtins, name), args, kwargs)


def _module_function(module: Module, obj: object, name: str) -> FuncVal | None:
    """``m.name`` for an imported module ``m`` whose function ``name`` the analysis runs
    (the target's own, or a linked module's: ``frontend.linker``)."""
    if not (isinstance(obj, PyObj) and isinstance(obj.obj, types.ModuleType)):
        return None
    found = runtime_object(module, vars(obj.obj).get(name))
    return found if isinstance(found, FuncVal) else None


def _descriptor_value(kind: str, qualname: str, cls: ClassVal) -> object:
    """What a static method (the function) or a class method (bound to the class) is when read."""
    return FuncVal(qualname) if kind == "staticmethod" else BoundMethod(cls, qualname)  # type: ignore[arg-type]


def _super_attribute(module: Module, sup: SuperVal, name: str) -> Outcome:
    """An attribute looked up from the base of ``sup.cls`` on (its methods bound to) the
    receiver; ``object.__init__`` when no analysed base defines ``__init__``."""
    base = module.classes[sup.cls].base
    if base is None:
        if name == "__init__":
            return Ok(BuiltinVal("%object_init"))
        raise RuntimeUnsupported(f"super().{name} resolved on object")
    info = module.classes.get(base)
    if info is None or info.is_exception:
        raise RuntimeUnsupported(f"super().{name} on a builtin base class")
    if name in info.methods:
        return Ok(BoundMethod(sup.obj, info.methods[name]))  # type: ignore[arg-type]
    if name in info.attrs:
        return Ok(info.attrs[name])
    if name == "__init__":
        return Ok(BuiltinVal("%object_init"))
    raise RuntimeUnsupported(f"super().{name} not found in the analysed bases")


def _class_attribute(module: Module, heap: HeapView, obj: Ref, cls: str, name: str) -> Outcome:
    """An attribute the class body binds in a way the analysis does not model (a property, a
    static or class method, a computed constant), or a dunder attribute: read in CPython.
    A plain value of the class is read without the instance; anything else (a descriptor
    such as a property) runs on the materialized instance."""
    real = module.real_class(cls)
    try:
        static = inspect.getattr_static(real, name)
    except AttributeError:
        return throw("AttributeError", f"'{cls}' object has no attribute '{name}'")
    if not hasattr(static, "__get__"):
        return Ok(from_runtime(static))
    return run_concretely(module, heap, f"attribute .{name}", getattr, (obj, name))


def _input_attribute(module: Module, heap: HeapView, obj: SymRef, name: str) -> Outcome:
    """``obj.name`` on an input reference (``semantics.input_heap``): AttributeError where it is None,
    else its field, or what its class gives (a method, a property, a class attribute)."""
    decided = IN.resolve(module, heap, (obj,), "deref")
    if decided is not None:
        return decided
    none = IN.none_case(obj, name, _none_message(getattr, name))
    found = IN.read_field(module, heap, obj, name)
    if found is None:
        found = _class_level_attribute(module, obj, name)
    return split(none + [(IN.not_none(obj) if none else True, found)])


def _none_message(operation: object, name: str) -> str:
    """CPython's message for ``None.name`` (read) or ``None.name = 0`` (write)."""
    try:
        if operation is getattr:
            getattr(None, name)
        else:
            setattr(None, name, 0)
    except AttributeError as exc:
        return str(exc)
    raise AssertionError(f"None has an attribute {name!r}")


def _class_level_attribute(module: Module, obj: SymRef, name: str) -> Outcome:
    """An attribute of an input object that is not one of its fields: its class's."""
    info = module.classes[obj.cls]
    kind, qualname = info.decorated.get(name, ("", ""))
    if kind == "property":
        return _invoke(module, qualname, (obj,), ())
    if kind:
        return Ok(_descriptor_value(kind, qualname, ClassVal(obj.cls)))
    if name in info.methods:
        return Ok(BoundMethod(obj, info.methods[name]))  # type: ignore[arg-type]
    if name in info.attrs:
        return Ok(info.attrs[name])
    if name in info.other or name.startswith("__") or "__getattr__" in info.methods or "__getattribute__" in info.methods:
        raise RuntimeUnsupported(f"attribute '{name}' of an input object of class {obj.cls}")
    return throw("AttributeError", f"'{obj.cls}' object has no attribute '{name}'")


def setattr_(module: Module, heap: HeapView, obj: object, name: str, value: object) -> Outcome:
    if isinstance(obj, SymRef):
        info = module.classes[obj.cls]
        if name in info.other or "__setattr__" in info.methods or "__setattr__" in info.other:
            raise RuntimeUnsupported(f"assigning attribute '{name}' of an input object of class {obj.cls}")
        decided = IN.resolve(module, heap, (obj,), "deref")
        if decided is not None:
            return decided
        none = IN.none_case(obj, name, _none_message(setattr, name))
        return split(none + [(IN.not_none(obj) if none else True, IN.write_field(module, heap, obj, name, value))])
    if isinstance(obj, Ref):
        record = heap.record(obj)
        if isinstance(record, ObjRec):
            cinfo = module.classes.get(record.cls)
            if cinfo is not None and not ("__setattr__" in cinfo.methods or "__setattr__" in cinfo.other):
                if name in cinfo.setters:  # a property's setter, analysed
                    return _invoke(module, cinfo.setters[name], (obj, value), (), heap=heap)
                if cinfo.decorated.get(name, ("", ""))[0] == "property":
                    return throw("AttributeError", _no_setter_message(record.cls, name))
            if cinfo is not None and not (name in cinfo.other or "__setattr__" in cinfo.methods or "__setattr__" in cinfo.other):
                return Ok(None, ((obj, record.with_field(name, value)),))
        else:
            return throw("AttributeError", f"'{shown_type(heap, obj)}' object has no attribute '{name}'")
    elif obj is None or isinstance(obj, (bool, int, float, str, tuple, Term)):
        return throw("AttributeError", f"'{type_name(obj)}' object has no attribute '{name}'")
    elif isinstance(obj, ExcVal):
        raise RuntimeUnsupported(f"setting attribute '{name}' of an exception")
    return run_concretely(module, heap, f"attribute assignment .{name}", setattr, (obj, name, value))


@functools.cache
def _no_setter_message(cls: str, name: str) -> str:
    """CPython's message for assigning a property without a setter (asked of CPython itself,
    on a class of that name with such a property: it changed between versions)."""
    probe = type(cls, (), {name: property(lambda self: None)})()
    try:
        setattr(probe, name, None)
    except AttributeError as exc:
        return str(exc)
    raise AssertionError("a property without a setter was assigned")


def call_method(module: Module, heap: HeapView, obj: object, name: str, args: tuple[object, ...], kwargs: Kwargs, whole: bool = False) -> Outcome:
    if isinstance(obj, SymRef):
        return map_ok(_input_attribute(module, heap, obj, name), lambda found: _call_found(module, heap, found, args, kwargs, whole))
    if isinstance(obj, Ref):
        record = heap.record(obj)
        if isinstance(record, ListRec):
            try:
                return _list_method(heap, obj, record, name, args, kwargs)
            except RuntimeUnsupported:
                pass  # a case the model does not cover: CPython's own method, below
            return run_concretely(module, heap, f"list.{name}()", _method_caller(name), (obj,) + args, kwargs)
        if isinstance(record, DictRec):
            try:
                if not kwargs:
                    return D.call_method(heap, obj, record, name, args)
            except RuntimeUnsupported:
                pass  # a method the model does not cover: CPython's own, below
            return run_concretely(module, heap, f"dict.{name}()", _method_caller(name), (obj,) + args, kwargs)
        if isinstance(record, SetRec):
            if name == "pop" and not args and not kwargs:
                return SETS.pop(module, heap, obj, record)
            try:
                if not kwargs:
                    return SETS.call_method(heap, obj, record, name, args)
            except RuntimeUnsupported:
                pass  # a method the model does not cover: CPython's own, below
            return run_concretely(module, heap, f"set.{name}()", _method_caller(name), (obj,) + args, kwargs)
        if REPLAY.is_replayed(record):
            return REPLAY.call_method(module, heap, obj, name, args, kwargs)
    elif isinstance(obj, PyObj):  # a method of a real object: the receiver is an operand (checked for changes)
        analysed = _module_function(module, obj, name)
        if analysed is not None:  # helpers.clamp(x): a function the analysis runs
            return _invoke(module, analysed.qualname, args, kwargs, whole=whole, heap=heap)
        if getattr(obj.obj, name, None) is REPLAY.SEEDED:  # random.Random(seed): a replayed object
            return REPLAY.seeded_random(module, heap, args, kwargs)
        method = getattr(obj.obj, name, None)
        if method is not None:
            _check_runnable(method)
            model = LM.for_function(module, method, args, kwargs)
            if model is not None:  # math.gcd(a, b): its Python-level model, analysed (models.library)
                return _invoke(module, model, args, kwargs, heap=heap)
        regex = RX.call(module, heap, method, args, kwargs)
        if regex is not None:  # re.fullmatch(P, s): membership in P's language (semantics.regex)
            return regex
        if isinstance(obj.obj, types.ModuleType) and not kwargs:  # math.sqrt(x)
            floated = F.call(method, args)
            if floated is not None:
                return floated
        return run_concretely(module, heap, f"{type_name(obj)}.{name}()", _method_caller(name), (obj,) + args, kwargs)
    elif RX.is_match(obj):  # m.group(1) of a match of a modelled pattern (semantics.regex)
        return RX.match_method(module, heap, obj, name, args, kwargs)
    elif not isinstance(obj, (FuncVal, BoundMethod, ClassVal, ExcVal, SuperVal)):
        if name == "join" and kind(obj) == "str":
            joined = AGG.join(heap, obj, args, kwargs)
            if joined is not None:
                return joined
        if kind(obj) == "str":
            modelled = STR.call_method(module, heap, obj, name, args, kwargs)
            if modelled is not None:
                return modelled
            model = LM.for_str_method(module, obj, name, args, kwargs)
            if model is not None:  # s.split(","): its Python-level model, analysed (models.library)
                return _invoke(module, model, (obj,) + args, kwargs, heap=heap)
        # str, int, tuple, opaque objects...: the method runs in CPython on the receiver
        return run_concretely(module, heap, f"{type_name(obj)}.{name}()", _method_caller(name), (obj,) + args, kwargs)
    attribute = getattr_(module, heap, obj, name)
    if isinstance(attribute, Invoke):  # found by __getattr__: the call runs in CPython
        return run_concretely(module, heap, f"method .{name}()", _method_caller(name), (obj,) + args, kwargs)
    return map_ok(attribute, lambda found: _call_found(module, heap, found, args, kwargs, whole))


def _call_found(module: Module, heap: HeapView, found: Ok, args: tuple[object, ...], kwargs: Kwargs, whole: bool) -> Outcome:
    """Call the attribute a method call looked up (on each case, when the lookup split)."""
    if found.writes:
        raise RuntimeUnsupported("a method looked up by an operation that changed the heap")
    return call(module, heap, found.value, args, kwargs, whole)


def _list_method(heap: HeapView, ref: Ref, record: ListRec, name: str, args: tuple[object, ...], kwargs: Kwargs) -> Outcome:
    if name == "sort":
        sorted_in_place = AGG.sort(heap, ref, args, kwargs)
        if sorted_in_place is not None:
            return sorted_in_place
    if name in ("count", "index"):
        found = (AGG.count if name == "count" else AGG.index)(heap, ref, args, kwargs)
        if found is not None:
            return found
    if kwargs:
        raise RuntimeUnsupported(f"keyword arguments to list.{name}()")
    if name in ("reverse", "clear", "copy"):
        if args:
            return throw("TypeError", f"list.{name}() takes no arguments ({len(args)} given)")
        return AGG.without_arguments(heap, ref, record, name)
    if name == "append":
        if len(args) != 1:
            return throw("TypeError", f"list.append() takes exactly one argument ({len(args)} given)")
        return S.append(ref, record, args[0])
    if name == "extend" and len(args) == 1:
        extended = list_extend_method(heap, ref, args[0])
        if extended is not None:
            return extended
    if name == "pop":
        if len(args) > 1:
            return throw("TypeError", f"pop expected at most 1 argument, got {len(args)}")
        return S.pop(heap, ref, record, args[0] if args else None)
    if name == "insert" and len(args) == 2:
        inserted = S.insert(heap, ref, args[0], args[1])
        if inserted is not None:
            return inserted
    raise RuntimeUnsupported(f"list method {name}()")


def _method_caller(name: str):  # type: ignore[no-untyped-def]
    def call(receiver: object, *args: object, **kwargs: object) -> object:
        return getattr(receiver, name)(*args, **kwargs)

    call.__qualname__ = name
    return call


def exc_match(module: Module, exc: object, classes: tuple[object, ...]) -> Outcome:
    if not isinstance(exc, ExcVal):
        raise RuntimeUnsupported("except clause on a non-exception")
    classes = tuple(_exception_class(module, c) for c in classes)
    for cls in classes:
        if isinstance(cls, tuple):
            return exc_match(module, exc, cls)
        if not isinstance(cls, ClassVal) or not module.is_exception_class(cls.name):
            return throw("TypeError", "catching classes that do not inherit from BaseException is not allowed")
    names = {c.name for c in classes}  # type: ignore[attr-defined]
    current: str | None = exc.cls
    while current is not None:
        if current in names:
            return Ok(True)
        current = module.exception_base(current)
    return Ok(False)


def _exception_class(module: Module, cls: object) -> object:
    """A real exception class (``PyObj``) as the name the analysis knows it by."""
    if isinstance(cls, tuple):
        return tuple(_exception_class(module, c) for c in cls)
    if isinstance(cls, PyObj) and isinstance(cls.obj, type) and issubclass(cls.obj, BaseException):
        return ClassVal(module.register_exception(cls.obj))
    return cls


def as_exception(module: Module, heap: HeapView, value: object) -> Outcome:
    """What ``raise value`` raises: the instance, a new instance of a class, or TypeError."""
    if isinstance(value, ExcVal):
        return Ok(value)
    if isinstance(value, PyObj) and isinstance(value.obj, BaseException):
        name = module.register_exception(type(value.obj))
        return Ok(ExcVal(name, tuple(from_runtime(a) for a in value.obj.args), heap.fresh().id))
    value = _exception_class(module, value)
    if isinstance(value, ClassVal) and module.is_exception_class(value.name):
        return Ok(ExcVal(value.name, (), heap.fresh().id))
    return throw("TypeError", "exceptions must derive from BaseException")

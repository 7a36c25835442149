"""The builtin functions of the subset: len, abs, min, max, ord, chr, range, print, bool, int,
isinstance; ``str``, ``repr`` and ``ascii`` of the kinds below; and what an f-string's
fields (``Format``) and their joining (``BuildString``) mean.

``chr`` of a symbolic code point beyond Z3's string range (``MAX_CODE``) is a ``Cut``: the
path is reported as cut rather than explored with a wrong model of Python.

Text of values (``text_of``) is symbolic for ints (CPython's decimal digits, ``-`` first),
bools (``True``, ``False``), strs under ``str()`` and ``None``, under every conversion but
``repr`` and ``ascii`` of a str (quotes and escapes: CPython's). An int of more digits than
``sys.get_int_max_str_digits()`` raises CPython's ValueError; inputs never have that many
(CPython could not write them as text: pathloom could neither report nor replay them), so an
input or its negation needs no check, and a computed int is checked on inputs within the
limit. An f-string field ``{v}`` is ``format(v, "")``, which is that text for those kinds; a
field with a conversion converts first; an int under a format spec of fill, alignment, sign,
``0`` and width (``{n:03d}``, ``{n:5}``, ``{n:+d}``: ``strings.format_int``) is built from its
text; other format specs, and a value of any other kind (floats, lists, instances of the
analysed classes with their ``__str__`` or ``__format__``, opaque objects), are CPython's
``format`` run on pinned values (``concretize``). ``int(s)`` of a symbolic str is
``strings.int_of_str``.
"""

from __future__ import annotations

import abc
import dataclasses

import builtins
import collections
import sys
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from pathloom.semantics import floats as F
from pathloom.semantics import sequences as S
from pathloom.semantics import strings as STRS
from pathloom.semantics.concretize import run_concretely
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.comparison import compare
from pathloom.semantics.ops import as_int, is_list, is_plain, kind, protocol_call, shown_type, truth_outcome, with_concrete_length
from pathloom.domain.names import CACHE_ARGUMENTS
from pathloom.domain.outcome import Cut, NotModeled, Ok, Outcome, RuntimeUnsupported, Throw, map_ok, split, throw
from pathloom.semantics import input_heap as IN
from pathloom.domain.values import (
    BuiltinVal,
    ClassVal,
    DictRec,
    ExcVal,
    ListRec,
    SetRec,
    SliceVal,
    Message,
    ObjRec,
    PyObj,
    RangeVal,
    Ref,
    SuperVal,
    SymRef,
    concrete_length,
    type_name,
)
from pathloom.terms import expr as T
from pathloom.terms.expr import BOOL, FLOAT, INT, STR, Arg, Term

if TYPE_CHECKING:
    from pathloom.frontend.module import Module


_NUMERIC_ARGUMENTS = frozenset({"abs", "ord", "chr", "range", "int", "min", "max"})


def call_builtin(module: Module, heap: HeapView, name: str, args: tuple[object, ...]) -> Outcome:
    if name in _NUMERIC_ARGUMENTS and any(isinstance(a, (Ref, PyObj, SymRef)) and not is_list(heap, a) for a in args):
        raise NotModeled(f"{name}() of an object")  # its dunders (__abs__, __index__...): CPython's builtin
    if name in ("abs", "ord", "chr", "range", "int") and any(is_list(heap, a) for a in args):
        raise NotModeled(f"{name}() of a list")  # CPython's builtin and its message
    if name == "print":
        return Ok(None)
    if name == "len":
        _arity(name, args, 1)
        return protocol_call(module, heap, "len", args[0]) or S.length(heap, args[0])
    if name == "%as_length":
        return _as_length(heap, args[0])
    if name == "%bool_result":
        return _bool_result(heap, args[0])
    if name == "%sort_by_keys":  # (list, keys, reverse, returns the list): frontend.lower._sort_by_key
        from pathloom.semantics import aggregates as AGG  # it imports this module's importers

        return AGG.sort_by_keys(heap, args[0], args[1], args[2], args[3])  # type: ignore[arg-type]
    if name == "%is_list":
        return Ok(is_list(heap, args[0]))
    if name == "%slice":  # the slice of an item assignment target: frontend.lower.index
        return Ok(SliceVal(args[0], args[1], args[2]))
    if name == "%is_factory_default":  # a dataclass field's argument left out: frontend.dataclass_model._init
        return Ok(isinstance(args[0], PyObj) and args[0].obj is dataclasses._HAS_DEFAULT_FACTORY)  # type: ignore[attr-defined]
    if name == "%cache_key":  # functools' key for positional arguments (typed=False): frontend.lower._cache_expansion
        if len(args) == 1 and kind(args[0]) in ("int", "str"):
            return Ok(args[0])  # the argument alone, so 1 and (1.0,) are different keys, as in CPython
        return Ok(("%cache_key",) + tuple(args))
    if name == "%init_field":  # a frozen dataclass's __init__ storing a field: frontend.dataclass_model._init
        obj, field_name, value = args
        if not isinstance(obj, Ref) or not isinstance(field_name, str):
            raise RuntimeUnsupported("a frozen dataclass's __init__ called on another object")
        record = heap.record(obj)
        if not isinstance(record, ObjRec):
            raise RuntimeUnsupported("a frozen dataclass's __init__ called on another object")
        return Ok(None, ((obj, record.with_field(field_name, value)),))
    if name == "%cache_plain":  # a top-level cached function's arguments or result: frontend.lowering.decorators
        from pathloom.semantics.control import plain_arguments

        values = tuple(args)
        if values and values[0] == CACHE_ARGUMENTS:  # the arguments, not the result
            values = values[1:]
            if any(_equal_across_types(v) for v in values):
                raise RuntimeUnsupported(
                    "a cached function called with a bool or float argument (True == 1 == 1.0 share one cache entry, "
                    "so a call can return what an earlier call with an equal argument of another type computed)"
                )
        if not plain_arguments(values):
            raise RuntimeUnsupported("a cached function called with or returning a mutable value (the cache could keep it across calls)")
        return Ok(None)
    if name == "abs":
        _arity(name, args, 1)
        return _abs(args[0])
    if name in ("min", "max"):
        return _min_max(module, heap, name, args)
    if name == "ord":
        _arity(name, args, 1)
        return _ord(args[0])
    if name == "chr":
        _arity(name, args, 1)
        return _chr(args[0])
    if name == "range":
        return _range(module, heap, args)
    if name == "bool":
        if len(args) > 1:
            raise NotModeled("bool() with several arguments")  # CPython's TypeError
        return truth_outcome(module, heap, args[0]) if args else Ok(False)
    if name == "int":
        if len(args) == 1 and isinstance(args[0], Term) and args[0].sort == STR:
            return STRS.int_of_str(module, heap, args[0])
        return _int(args)
    if name == "isinstance":
        return _isinstance(module, heap, args)
    if name == "super":
        return _super(module, heap, args)
    raise RuntimeUnsupported(f"builtin {name}()")


def _super(module: Module, heap: HeapView, args: tuple[object, ...]) -> Outcome:
    """``super()`` (lowered with its class and receiver) and ``super(C, obj)``."""
    if len(args) != 2:
        raise RuntimeUnsupported("super() with other than two arguments")
    cls, obj = args
    name = cls if isinstance(cls, str) else cls.name if isinstance(cls, ClassVal) else None
    if name is None or name not in module.classes or not isinstance(obj, Ref):
        raise RuntimeUnsupported("super() outside a method of an analysed class")
    record = heap.record(obj)
    if not isinstance(record, ObjRec) or not _is_instance(module, heap, obj, name):
        return throw("TypeError", "super(type, obj): obj must be an instance or subtype of type")
    return Ok(SuperVal(name, obj))


def _arity(name: str, args: tuple[object, ...], n: int) -> None:
    if len(args) != n:
        raise RuntimeUnsupported(f"{name}() with {len(args)} arguments")


def _as_length(heap: HeapView, value: object) -> Outcome:
    """What ``len()`` makes of the value ``__len__`` returned: an int (a bool counts) from 0 to
    ``sys.maxsize``, else CPython's TypeError, ValueError or OverflowError."""
    if isinstance(value, Ref) and isinstance(heap.record(value), ObjRec) or isinstance(value, PyObj):
        raise RuntimeUnsupported("__len__ returning an object (its __index__)")
    if kind(value) not in ("int", "bool"):
        return throw("TypeError", f"'{shown_type(heap, value)}' object cannot be interpreted as an integer")
    n = as_int(value)
    return split(
        [
            (T.and_(T.le(0, n), T.le(n, sys.maxsize)), Ok(n)),
            (T.lt(n, 0), Throw(ExcVal("ValueError", ("__len__() should return >= 0",)))),
            (T.lt(sys.maxsize, n), Throw(ExcVal("OverflowError", ("cannot fit 'int' into an index-sized integer",)))),
        ]
    )


def _bool_result(heap: HeapView, value: object) -> Outcome:
    """``__bool__`` must return a bool (exactly)."""
    if kind(value) == "bool":
        return Ok(value)
    return throw("TypeError", f"__bool__ should return bool, returned {shown_type(heap, value)}")


def _abs(x: object) -> Outcome:
    if is_plain(x):
        try:
            return Ok(abs(x))  # type: ignore[arg-type]
        except TypeError as exc:
            return throw("TypeError", str(exc))
    if kind(x) in ("int", "bool"):
        v = as_int(x)
        return Ok(T.ite(T.lt(v, 0), T.neg(v), v))
    if kind(x) == "float":
        return Ok(T.fabs(x))  # type: ignore[arg-type]
    return throw("TypeError", f"bad operand type for abs(): '{type_name(x)}'")


def _min_max(module: Module, heap: HeapView, name: str, args: tuple[object, ...]) -> Outcome:
    if len(args) == 1:
        seq = args[0]
        if isinstance(seq, Ref) and isinstance(heap.record(seq), ListRec):
            return with_concrete_length(heap, seq, lambda: _min_max_list(module, heap, name, seq))
        if isinstance(seq, tuple):
            items = seq
        else:
            raise RuntimeUnsupported(f"{name}() of a {type_name(seq)}")
    else:
        items = args
    if not items:
        return throw("ValueError", f"{name}() arg is an empty sequence")
    return _fold_best(module, heap, name, items[0], items[1:])


def _fold_best(module: Module, heap: HeapView, name: str, best: object, rest: tuple[object, ...]) -> Outcome:
    """max keeps the first maximal item: replace only when strictly greater (min: less).
    Items of the same kind that are one term each merge into an if-then-else; a bool against an
    int splits (Python returns the item itself, keeping its type), as do tuples and objects."""
    for i, item in enumerate(rest):
        better = compare(module, heap, ">" if name == "max" else "<", item, best)
        if not isinstance(better, Ok) or not isinstance(better.value, (bool, Term)):
            raise RuntimeUnsupported(f"{name}() of items the model does not order")  # run in CPython instead
        if isinstance(better.value, bool):
            best = item if better.value else best
        elif kind(item) == kind(best) and _one_term(item) and _one_term(best):
            best = T.ite(better.value, item, best)  # type: ignore[arg-type]
        else:
            tail = rest[i + 1 :]
            return split(
                [
                    (better.value, _fold_best(module, heap, name, item, tail)),
                    (T.not_(better.value), _fold_best(module, heap, name, best, tail)),
                ]
            )
    return Ok(best)


def _one_term(value: object) -> bool:
    """A value one term's if-then-else can choose (a tuple or an object: a split instead)."""
    return isinstance(value, (Term, bool, int, str, float))


def _min_max_list(module: Module, heap: HeapView, name: str, ref: Ref) -> Outcome:
    record = heap.record(ref)
    assert isinstance(record, ListRec)
    items = record.items[: concrete_length(record)]
    if not items:
        return throw("ValueError", f"{name}() arg is an empty sequence")
    return _fold_best(module, heap, name, items[0], items[1:])  # (not _min_max: one item is not a sequence)


def _ord(s: object) -> Outcome:
    if isinstance(s, str):
        if len(s) != 1:
            return throw("TypeError", f"ord() expected a character, but string of length {len(s)} found")
        return Ok(ord(s))
    if kind(s) != "str":
        return throw("TypeError", f"ord() expected string of length 1, but {type_name(s)} found")
    size = T.str_len(s)  # type: ignore[arg-type]
    one = T.eq(size, 1)
    return split(
        [
            (one, Ok(T.to_code(s))),  # type: ignore[arg-type]
            (T.not_(one), Throw(ExcVal("TypeError", (Message("ord() expected a character, but string of length {} found", (size,)),)))),
        ]
    )


def _chr(i: object) -> Outcome:
    if kind(i) not in ("int", "bool"):
        if isinstance(i, float):
            return throw("TypeError", "'float' object cannot be interpreted as an integer")
        return throw("TypeError", f"'{type_name(i)}' object cannot be interpreted as an integer")
    code = as_int(i)
    if not isinstance(code, Term):
        if 0 <= code <= 0x10FFFF:
            return Ok(chr(code))
        return throw("ValueError", "chr() arg not in range(0x110000)")
    valid = T.and_(T.le(0, code), T.le(code, T.MAX_CODE))
    out = T.or_(T.lt(code, 0), T.lt(0x10FFFF, code))
    beyond = T.and_(T.lt(T.MAX_CODE, code), T.le(code, 0x10FFFF))
    return split(
        [
            (valid, Ok(T.from_code(code))),
            (out, throw("ValueError", "chr() arg not in range(0x110000)")),
            (beyond, Cut("chr() of a code point beyond the solver's string range")),
        ]
    )


def _range(module: Module, heap: HeapView, args: tuple[object, ...]) -> Outcome:
    if not 1 <= len(args) <= 3:
        return throw("TypeError", f"range expected at most 3 arguments, got {len(args)}")
    for a in args:
        if kind(a) not in ("int", "bool"):
            return throw("TypeError", f"'{type_name(a)}' object cannot be interpreted as an integer")
    ints = [as_int(a) for a in args]
    start, stop, step = (0, ints[0], 1) if len(ints) == 1 else (ints[0], ints[1], ints[2] if len(ints) == 3 else 1)
    if isinstance(step, Term):  # the step's values pinned one by one (a range's length needs a constant step); start and stop stay symbolic
        pinned = run_concretely(module, heap, "range() step", lambda value: value, (step,))
        return map_ok(pinned, lambda ok: _range(module, heap, (start, stop, ok.value)))
    if step == 0:
        return throw("ValueError", "range() arg 3 must not be zero")
    return Ok(RangeVal(start, stop, int(step)))


def _int(args: tuple[object, ...]) -> Outcome:
    if not args:
        return Ok(0)
    x = args[0]
    if len(args) == 1 and kind(x) in ("int", "bool"):
        return Ok(as_int(x))
    if len(args) == 1 and isinstance(x, Term) and x.sort == FLOAT:
        return F.to_int(x)
    if len(args) == 1 and isinstance(x, (str, float)):
        try:
            return Ok(int(x))
        except ValueError as exc:
            return throw("ValueError", str(exc))
        except OverflowError as exc:
            return throw("OverflowError", str(exc))
    raise RuntimeUnsupported(f"int() of a {type_name(x)}")


_PY_TYPES = {"int": ("int", "bool"), "bool": ("bool",), "str": ("str",), "float": ("float",), "tuple": ("tuple",)}


def _isinstance(module: Module, heap: HeapView, args: tuple[object, ...]) -> Outcome:
    if len(args) != 2:
        return throw("TypeError", f"isinstance expected 2 arguments, got {len(args)}")
    value, cls = args
    classes = cls if isinstance(cls, tuple) else (cls,)
    flat = _flat_classes(classes)
    if isinstance(value, SymRef):  # an input object of exactly its class, or None
        if not all(isinstance(c, ClassVal) for c in flat):
            known = _analysed_instance_of(module, value.cls, flat)
            targets = _real_targets(module, flat)
            if known is None or targets is None:
                raise RuntimeUnsupported("isinstance() of an input object with this class argument")
            none = value.nullable and any(isinstance(None, t) for t in targets)
            return Ok(T.or_(T.and_(IN.not_none(value), known), T.eq(value.loc, 0) if none else False))
        names = [value.cls]
        while (base := module.classes[names[-1]].base) is not None and base in module.classes:
            names.append(base)
        return Ok(T.and_(IN.not_none(value), any(c.name in names for c in flat)))  # type: ignore[attr-defined]
    if isinstance(value, Ref) and not all(isinstance(c, ClassVal) for c in flat):
        record = heap.record(value)
        known = _analysed_instance_of(module, record.cls, flat) if isinstance(record, ObjRec) else None
        if known is not None:
            return Ok(known)
    value_type = _python_type(heap, value)
    if value_type is not None:
        reals = [_real_class(c) for c in _flat_classes(classes)]
        if all(r is not None for r in reals):  # the value's type is known even when it is symbolic
            return Ok(any(r is not _NOT_A_BASE and issubclass(value_type, r) for r in reals))  # type: ignore[arg-type]
    for c in classes:
        if not isinstance(c, ClassVal):
            raise RuntimeUnsupported("isinstance() with this class argument")
        if _is_instance(module, heap, value, c.name):
            return Ok(True)
    return Ok(False)


_NOT_A_BASE = object()  # an analysed class: never a base of a builtin type
_KIND_TYPES: dict[str, type] = {"int": int, "bool": bool, "str": str, "float": float, "none": type(None), "tuple": tuple}


def _python_type(heap: HeapView, value: object) -> type | None:
    """The builtin type of a value of a kind the model knows (ints, strs, lists...: symbolic or
    not), None for objects and anything else."""
    found = _KIND_TYPES.get(kind(value))
    if found is not None:
        return found
    if isinstance(value, Ref):
        record = heap.record(value)
        if isinstance(record, DictRec) and record.default is not None:
            return collections.defaultdict
        return next((t for rec, t in ((ListRec, list), (DictRec, dict), (SetRec, set)) if isinstance(record, rec)), None)
    return range if isinstance(value, RangeVal) else None


def _flat_classes(classes: tuple[object, ...]) -> list[object]:
    return [c for item in classes for c in (_flat_classes(item) if isinstance(item, tuple) else [item])]


def _real_class(cls: object) -> object | None:
    """The class (or ``int | str`` union) a class argument names; ``_NOT_A_BASE`` for an
    analysed class; None for what is not a class (CPython's TypeError, left to it)."""
    if isinstance(cls, ClassVal):
        return _NOT_A_BASE
    real = cls.obj if isinstance(cls, PyObj) else getattr(builtins, cls.name, None) if isinstance(cls, BuiltinVal) else None
    return real if isinstance(real, (type, types.UnionType)) else None


def _analysed_instance_of(module: Module, cls: str, classes: list[object]) -> bool | None:
    """``isinstance`` of an instance of the analysed class ``cls`` (an ``int`` pattern, a
    ``Mapping`` test): the real class's ``issubclass`` of each class, CPython's answer when
    ``_real_targets`` gives the classes and ``cls`` does not bind ``__class__``; None when
    the answer is not that."""
    info = module.classes.get(cls)
    if module.runtime is None or info is None or any("__class__" in names for names in (info.methods, info.attrs, info.other)):
        return None
    targets = _real_targets(module, classes)
    try:
        real = module.real_class(cls)
    except (AttributeError, RuntimeUnsupported):
        return None
    if targets is None or not isinstance(real, type):
        return None
    return any(issubclass(real, t) for t in targets)


def _real_targets(module: Module, classes: list[object]) -> list[type] | None:
    """The real classes an ``isinstance`` tests (unions flattened), when each answers by the
    instance's class alone: plain classes and ``abc.ABCMeta`` ones (``collections.abc``: their
    ``__instancecheck__`` is ``issubclass`` of the instance's class); None otherwise."""
    try:
        targets = [module.real_class(c.name) if isinstance(c, ClassVal) else _real_class(c) for c in classes]
    except (AttributeError, RuntimeUnsupported):
        return None
    flat = [t for target in targets for t in (target.__args__ if isinstance(target, types.UnionType) else (target,))]
    if not all(type(t) in (type, abc.ABCMeta) for t in flat):
        return None
    return flat


def _is_instance(module: Module, heap: HeapView, value: object, cls: str) -> bool:
    name: str | None
    if isinstance(value, ExcVal):
        name = value.cls
    elif isinstance(value, Ref) and isinstance(heap.record(value), ObjRec):
        name = heap.record(value).cls  # type: ignore[union-attr]
    elif isinstance(value, PyObj) and module.runtime is not None:
        # a real object (an instance of a class the analysis keeps opaque, which may derive
        # from an analysed one): CPython's own answer, on the concrete object
        try:
            return isinstance(value.obj, module.real_class(cls))
        except AttributeError:
            raise RuntimeUnsupported(f"isinstance() of a real object and class {cls}") from None
    else:
        return False
    while name is not None:
        if name == cls:
            return True
        name = module.exception_base(name)
    return False


# ---------------------------------------------------------------- text: str(), repr(), f-strings

CONVERSIONS: dict[str, Callable[[object], str]] = {"s": str, "r": repr, "a": ascii}


def text_of(module: Module, heap: HeapView, value: object, conversion: str = "s") -> Outcome | None:
    """``str(value)`` (``conversion`` "s"), ``repr`` ("r") or ``ascii`` ("a") for the values the
    model covers; None for the others."""
    if is_plain(value):
        return run_concretely(module, heap, f"{CONVERSIONS[conversion].__name__}()", CONVERSIONS[conversion], (value,))
    if not isinstance(value, Term):
        return None
    if value.sort == BOOL:
        return Ok(T.ite(value, "True", "False"))
    if value.sort == INT:
        return int_text(value)
    if value.sort == FLOAT:
        return None  # CPython's repr of a float, on pinned values
    return Ok(value) if conversion == "s" else None


def int_text(value: Term) -> Outcome:
    """CPython's text of an int, or its ValueError past the limit on digits."""
    limit = sys.get_int_max_str_digits()
    if not limit or _input_or_negated(value):  # an input is within the limit (see below)
        return Ok(T.int_str(value))
    largest = 10**limit - 1
    most = _magnitude_bound(value)
    if most is not None and most <= largest:  # e.g. 9 * len(s): no test the solver must refute
        return Ok(T.int_str(value))

    def within(v: Arg) -> Arg:
        return T.and_(T.le(-largest, v), T.le(v, largest))

    inputs = T.conj([within(s) for s in sorted(T.symbols(value), key=lambda s: s.serial) if s.sort == INT])
    too_long = T.and_(T.not_(within(value)), inputs)  # (inputs beyond the limit are outside the domain)
    return split([(within(value), Ok(T.int_str(value))), (too_long, throw("ValueError", _digit_limit_message(limit)))])


_MAGNITUDE_LEAVES: dict[str, int] = {
    "len": sys.maxsize,  # no str or list is longer
    "indexof": sys.maxsize,
    "to_code": sys.maxunicode,
}


def _magnitude_bound(value: Arg, depth: int = 12) -> int | None:
    """An upper bound of ``abs(value)`` on every input, from the term's shape alone (lengths
    and code points are bounded, constants are known, an int input is within the limit on
    digits: ``int_text``); None when the term is deeper than ``depth`` or of another kind."""
    if not isinstance(value, Term):
        return abs(int(value))
    if value.op in _MAGNITUDE_LEAVES:
        return _MAGNITUDE_LEAVES[value.op]
    if value.op == "sym" and value.sort == INT:
        limit = sys.get_int_max_str_digits()
        return 10**limit - 1 if limit else None
    if depth == 0 or value.op not in ("add", "sub", "mul", "neg", "floordiv", "mod", "ite"):
        return None
    if value.op == "mod":  # |a % b| < |b|, whatever a is
        return _magnitude_bound(value.args[1], depth - 1)
    parts = value.args[1:] if value.op == "ite" else value.args
    bounds = [_magnitude_bound(a, depth - 1) for a in parts]
    if any(b is None for b in bounds):
        return None
    known = [b for b in bounds if b is not None]
    if value.op in ("add", "sub"):
        return known[0] + known[1]
    if value.op == "mul":
        return known[0] * known[1]
    if value.op == "floordiv":
        # |a // b| <= |a| for an int b != 0 (b == 0 raised before): |floor(a / b)| is at most
        # ceil(|a| / |b|), which is at most |a| for |b| >= 1
        return known[0]
    return max(known)  # neg, ite


def _input_or_negated(value: Term) -> bool:
    return value.op == "sym" or (value.op == "neg" and isinstance(value.args[0], Term) and value.args[0].op == "sym")


def _digit_limit_message(limit: int) -> str:
    try:
        str(10**limit)
    except ValueError as exc:
        return str(exc)
    raise AssertionError("the digit limit did not apply")


def _equal_across_types(value: object) -> bool:
    """A bool or float (in a tuple too): equal to a key of another type (``True == 1 == 1.0``)."""
    if isinstance(value, tuple):
        return any(_equal_across_types(v) for v in value)
    return kind(value) in ("bool", "float")


def format_value(module: Module, heap: HeapView, value: object, conversion: str, spec: object) -> Outcome:
    """What the f-string field ``{value!conversion:spec}`` gives: ``format(value, spec)``
    after the conversion."""
    if conversion:
        converted = text_of(module, heap, value, conversion)
        if converted is None:
            name = CONVERSIONS[conversion].__name__
            converted = run_concretely(module, heap, f"{name}()", CONVERSIONS[conversion], (value,))
        return map_ok(converted, lambda ok: _then(ok, format_value(module, heap, ok.value, "", spec)))
    if isinstance(spec, str) and not spec:
        text = text_of(module, heap, value)
        if text is not None:
            return text
    if isinstance(spec, str) and isinstance(value, Term) and value.sort == INT and STRS.format_int(value, "", spec) is not None:
        return map_ok(int_text(value), lambda ok: Ok(STRS.format_int(value, cast(Arg, ok.value), spec)))
    return run_concretely(module, heap, "format()", format, (value, spec))


def _then(first: Ok, outcome: Outcome) -> Outcome:
    """``outcome``, with the heap writes of ``first`` (which ran before it) kept."""
    if not first.writes:
        return outcome
    return map_ok(outcome, lambda ok: Ok(ok.value, first.writes + ok.writes))


def join_strings(parts: list[object]) -> Outcome:
    """An f-string: its parts (strs, made by ``Format`` or literal) joined."""
    text: Arg = ""
    for part in parts:
        if kind(part) != "str":
            raise RuntimeUnsupported(f"joining a {type_name(part)} into an f-string")
        text = T.concat(text, part)  # type: ignore[arg-type]
    return Ok(text)

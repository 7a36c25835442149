"""Python's operators on pathloom values: arithmetic, truthiness, equality and the dunder protocols
(comparisons and membership are ``comparison``'s).

Each function takes values (concrete Python values, terms, heap references) and returns an
``Outcome`` (or, for the pure predicates ``truth`` and ``equal``, a bool or Bool term). When all
operands are plain concrete values the real Python operator is applied, so concrete semantics
(including the exceptions raised and their messages) is CPython's by construction. Symbolic
cases follow Python: ``//`` and ``%`` floor toward negative infinity and raise
ZeroDivisionError on a zero divisor; booleans act as the integers 0 and 1; arithmetic with a
float operand, and ``/``, are ``floats``' (IEEE binary64, CPython's conversions and errors),
and comparisons of ints and floats are the terms' (IEEE, or exact between an int and a float). The bitwise operators on ints are ``bitwise``'s
(``&``, ``|``, ``^`` of two bools stay bools); on other builtin kinds they raise CPython's
TypeError, on anything else they run in CPython.
"""

from __future__ import annotations

import sys

import operator
from typing import TYPE_CHECKING, Any, Callable, cast

from pathloom.semantics import bitwise as W
from pathloom.semantics import floats as F
from pathloom.semantics.concretize import run_concretely
from pathloom.semantics.heapview import HeapView
from pathloom.domain.outcome import Cut, NotModeled, Ok, Outcome, Refine, RuntimeUnsupported, map_ok, split, throw
from pathloom.semantics import input_heap as IN
from pathloom.domain.values import REPLAYED, DictRec, ListRec, ObjRec, PyObj, RangeVal, Ref, SetRec, SymRef, concrete_length, list_length, type_name
from pathloom.terms import expr as T
from pathloom.terms.expr import BOOL, FLOAT, INT, STR, Arg, Term

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

MAX_POWER = 64
MAX_REPEAT_CAP = 32  # list repetition with a symbolic count: longer results are a cut
#: Concrete int products and powers past this many bits are a cut: CPython's multiplication
#: of such ints takes a second or more in one native call that no deadline can stop (a
#: Sylvester-sequence function ran 40 s past --timeout squaring ints of millions of digits).
MAX_INT_BITS = 1 << 22


def _result_bits(op: str, a: object, b: object) -> int:
    """An upper bound on the bits of the concrete int ``a op b`` for ``*`` and ``**`` (0 for
    any other operation or operand)."""
    if not isinstance(a, int) or not isinstance(b, int):
        return 0
    if op == "*":
        return a.bit_length() + b.bit_length()
    if op == "**" and b > 0 and abs(a) > 1:
        return a.bit_length() * b
    return 0


def kind(value: object) -> str:
    if isinstance(value, Term):
        return {INT: "int", BOOL: "bool", STR: "str", FLOAT: "float"}[value.sort]
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, float):
        return "float"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return "tuple"
    return "other"


def is_plain(value: object) -> bool:
    """A concrete value the real Python operators can be applied to directly."""
    if isinstance(value, tuple):
        return all(is_plain(v) for v in value)
    return isinstance(value, (int, float, str)) or value is None


def as_int(value: object) -> Term | int:
    """An int or bool value as an integer (bools are 0 and 1 in arithmetic)."""
    if isinstance(value, Term):
        # an ite on a Bool term (not a constant) of two different ints is a term
        return cast(Term, T.ite(value, 1, 0)) if value.sort == BOOL else value
    return int(value)  # type: ignore[call-overload, no-any-return]


def concrete_outcome(fn: Callable[[], object]) -> Outcome:
    """``fn()`` on plain values: its value, or the exception CPython raises, with its message;
    a cut when it runs out of memory (the analyser's, not an answer of the program's)."""
    try:
        return Ok(fn())
    except (ArithmeticError, TypeError, ValueError) as exc:
        return throw(type(exc).__name__, str(exc))
    except MemoryError:
        return Cut("an operation run in CPython ran out of memory")


MAX_REPEATED = 10_000_000  # items of a str or tuple that ``*`` may make in the analyser (past it: a cut)


def _repeated_length(a: object, b: object) -> int:
    """The length of ``a * b`` when it repeats a str or tuple, else 0."""
    for seq, times in ((a, b), (b, a)):
        if isinstance(seq, (str, tuple)) and isinstance(times, int):
            return len(seq) * max(times, 0)
    return 0


def _is_number(k: str) -> bool:
    return k in ("int", "bool")


_PY_BINOPS: dict[str, Callable[[object, object], object]] = {
    "+": lambda a, b: a + b,  # type: ignore[operator]
    "-": lambda a, b: a - b,  # type: ignore[operator]
    "*": lambda a, b: a * b,  # type: ignore[operator]
    "//": lambda a, b: a // b,  # type: ignore[operator]
    "%": lambda a, b: a % b,  # type: ignore[operator]
    "**": lambda a, b: a**b,  # type: ignore[operator]
    "/": lambda a, b: a / b,  # type: ignore[operator]
    "+=": operator.iadd,
    "-=": operator.isub,
    "*=": operator.imul,
    "//=": operator.ifloordiv,
    "%=": operator.imod,
    "**=": operator.ipow,
    "/=": operator.itruediv,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
    "<<": operator.lshift,
    ">>": operator.rshift,
    "&=": operator.iand,
    "|=": operator.ior,
    "^=": operator.ixor,
    "<<=": operator.ilshift,
    ">>=": operator.irshift,
}
BITWISE = frozenset({"&", "|", "^", "<<", ">>"})


def binop(module: Module, heap: HeapView, op: str, a: object, b: object) -> Outcome:
    """``a op b``; ``op`` ending in ``=`` is the in-place form of an augmented assignment
    (the same as the plain operator on immutable values; lists are extended in place)."""
    base = op[:-1] if op.endswith("=") else op
    if is_plain(a) and is_plain(b):
        if base == "**" and isinstance(b, int) and b > 100_000:
            raise RuntimeUnsupported("power with a huge exponent")
        if base == "<<" and isinstance(a, int) and a and isinstance(b, int) and b > W.MAX_SHIFT:
            raise RuntimeUnsupported(f"left shift by more than {W.MAX_SHIFT} bits")
        if _result_bits(base, a, b) > MAX_INT_BITS:
            return Cut(f"operator {base} of ints with a result past {MAX_INT_BITS:,} bits")
        if base == "*" and MAX_REPEATED < _repeated_length(a, b) <= sys.maxsize:  # (past maxsize: CPython's OverflowError)
            return Cut(f"operator * making a str or tuple of more than {MAX_REPEATED:,} items")
        return concrete_outcome(lambda: _PY_BINOPS[op](a, b))
    if base in _ARITHMETIC_DUNDERS and not op.endswith("=") and (_analysed_class(heap, a) or _analysed_class(heap, b)):
        dispatched = dispatch_dunder(module, heap, _ARITHMETIC_DUNDERS[base], a, b)
        if dispatched is not None:
            return dispatched
    if _is_set(heap, a) or _is_set(heap, b):
        from pathloom.semantics import sets

        made = sets.binop(heap, op, a, b)
        if made is not None:
            return made
    if base in BITWISE:
        return _bitwise(module, heap, op, a, b)
    ka, kb = kind(a), kind(b)
    if op == "+=" and is_list(heap, a):
        if _extends_in_model(heap, b):
            return _list_extend(heap, a, b)  # type: ignore[arg-type]
        return run_concretely(module, heap, "operator +=", _PY_BINOPS[op], (a, b))
    symbolic = isinstance(a, Term) or isinstance(b, Term)
    if symbolic and F.is_numeric(a) and F.is_numeric(b) and ("float" in (ka, kb) or base == "/"):
        return F.binop(base, a, b, lambda where: run_concretely(module, heap, f"operator {op}", _PY_BINOPS[op], (a, b), where=where))
    if _is_number(ka) and _is_number(kb) and symbolic:
        try:
            return _int_binop(base, as_int(a), as_int(b))
        except RuntimeUnsupported:
            pass  # true division, symbolic exponents...: CPython's operator, below
    elif ka == "str" and kb == "str" and base == "+":
        return Ok(T.concat(a, b))  # type: ignore[arg-type]
    elif base == "%" and isinstance(a, str):
        from pathloom.semantics.percent_format import format_percent  # (it builds on builtins, which imports this module)

        formatted = format_percent(module, heap, a, b)
        if formatted is not None:
            return formatted
    elif op == "+" and is_list(heap, a) and is_list(heap, b):
        return _list_concat(heap, a, b)  # type: ignore[arg-type]
    elif op == "*" and (is_list(heap, a) and _is_number(kb) or is_list(heap, b) and _is_number(ka)):
        seq, count = (a, b) if is_list(heap, a) else (b, a)
        return _list_repeat(heap, cast(Ref, seq), count)  # is_list: a Ref
    return run_concretely(module, heap, f"operator {op}", _PY_BINOPS[op], (a, b))


_BUILTIN_KINDS = frozenset({"int", "bool", "str", "float", "none", "tuple"})


def _builtin_kind(heap: HeapView, value: object) -> bool:
    """A value of a builtin type that defines no bitwise operator but int's (and bool's)."""
    return kind(value) in _BUILTIN_KINDS or is_list(heap, value)


def _bitwise(module: Module, heap: HeapView, op: str, a: object, b: object) -> Outcome:
    """``a op b`` for a bitwise ``op`` (or its in-place form), not both operands concrete."""
    base = op.rstrip("=")
    ka, kb = kind(a), kind(b)
    if _is_number(ka) and _is_number(kb):
        if ka == kb == "bool" and base != "<<" and base != ">>":
            return Ok(W.bools(base, a, b))  # type: ignore[arg-type]

        def pin(value: Arg, where: Arg) -> Outcome:
            return run_concretely(module, heap, f"operator {op}", _identity, (value,), where=where)

        if base in ("<<", ">>"):
            return W.shift(base, as_int(a), as_int(b), pin)
        return W.logic(base, as_int(a), as_int(b), pin)
    if _builtin_kind(heap, a) and _builtin_kind(heap, b):
        names = shown_type(heap, a), shown_type(heap, b)
        return throw("TypeError", f"unsupported operand type(s) for {op}: '{names[0]}' and '{names[1]}'")
    return run_concretely(module, heap, f"operator {op}", _PY_BINOPS[op], (a, b))


def _identity(value: object) -> object:
    return value


def is_list(heap: HeapView, value: object) -> bool:
    return isinstance(value, Ref) and isinstance(heap.record(value), ListRec)


def _list_repeat(heap: HeapView, seq: Ref, count: object) -> Outcome:
    """``seq * count``: the items repeated; a count <= 0 gives an empty list. A symbolic count
    splits over its values up to a cap (the resulting list's capacity); larger ones are cut."""
    record = heap.record(seq)
    assert isinstance(record, ListRec)
    if isinstance(record.length, Term):
        return fix_length(seq, record)
    items = record.items[: concrete_length(record)]
    n = as_int(count)

    def repeated(times: int) -> Outcome:
        ref = heap.fresh()
        new = items * max(0, times)
        return Ok(ref, ((ref, ListRec(len(new), new)),))

    overflow = throw("OverflowError", "cannot fit 'int' into an index-sized integer")
    if not isinstance(n, Term):
        if not -(2**63) <= n < 2**63:
            return overflow
        if len(items) * max(0, n) > 10_000_000:
            raise RuntimeUnsupported("list repetition longer than ten million items")
        return repeated(n)
    if not items:
        return split([(T.lt(n, -(2**63)), overflow), (T.le(-(2**63), n), repeated(0))])
    cap = max(1, MAX_REPEAT_CAP // len(items))
    length = T.ite(T.le(n, 0), 0, T.mul(n, len(items)))
    ref = heap.fresh()
    symbolic = Ok(ref, ((ref, ListRec(length, items * cap)),))
    cases: list[tuple[Arg, Outcome]] = [
        (T.lt(n, -(2**63)), overflow),
        (T.and_(T.le(-(2**63), n), T.le(n, cap)), symbolic),
        (T.lt(cap, n), Cut(f"list repetition by a symbolic count above {cap} (lists are bounded at {MAX_REPEAT_CAP} items)")),
    ]
    return split(cases)


def shown_type(heap: HeapView, value: object) -> str:
    """The type name CPython shows for ``value`` in a message: heap references are looked up
    (``list``, ``dict``, the class of an instance)."""
    if isinstance(value, Ref):
        record = heap.record(value)
        if isinstance(record, ObjRec) and record.cls == REPLAYED:
            return str(record.get("type")[1])  # deque, OrderedDict...
        return "list" if isinstance(record, ListRec) else record.shown if isinstance(record, DictRec) else record.cls
    return type_name(value)


def _int_binop(op: str, a: Term | int, b: Term | int) -> Outcome:
    if op == "+":
        return Ok(T.add(a, b))
    if op == "-":
        return Ok(T.sub(a, b))
    if op == "*":
        return Ok(T.mul(a, b))
    if op in ("//", "%"):
        fold = T.floordiv if op == "//" else T.mod
        message = "integer division or modulo by zero" if op == "//" else "integer modulo by zero"
        is_zero = T.eq(b, 0)
        return split([(is_zero, throw("ZeroDivisionError", message)), (T.not_(is_zero), Ok(fold(a, b)))])
    if op == "**":
        if isinstance(b, Term):
            raise RuntimeUnsupported("power with a symbolic exponent")
        if b < 0:
            raise RuntimeUnsupported("negative power of a symbolic int (produces a float)")
        if b > MAX_POWER:
            raise RuntimeUnsupported(f"power of a symbolic int with exponent above {MAX_POWER}")
        result: Arg = 1
        for _ in range(int(b)):
            result = T.mul(result, a)
        return Ok(result)
    if op == "/":
        raise RuntimeUnsupported("true division '/' of a symbolic int (produces a float)")
    raise RuntimeUnsupported(f"operator {op}")


def _list_concat(heap: HeapView, a: Ref, b: Ref) -> Outcome:
    ra, rb = heap.record(a), heap.record(b)
    if not isinstance(ra, ListRec) or not isinstance(rb, ListRec):
        raise RuntimeUnsupported("'+' on objects")
    if isinstance(ra.length, Term) or isinstance(rb.length, Term):
        return with_concrete_length(heap, a, lambda: with_concrete_length(heap, b, lambda: _list_concat(heap, a, b)))
    items = ra.items[: concrete_length(ra)] + rb.items[: concrete_length(rb)]
    ref = heap.fresh()
    return Ok(ref, ((ref, ListRec(len(items), items)),))


def _extends_in_model(heap: HeapView, b: object) -> bool:
    """Whether ``xs += b`` / ``xs.extend(b)`` is modelled: ``b`` a list or a concrete str or tuple."""
    return is_list(heap, b) or isinstance(b, str) or (isinstance(b, tuple) and is_plain(b))


def list_extend_method(heap: HeapView, a: Ref, b: object) -> Outcome | None:
    """``a.extend(b)`` in the model (``a += b``, returning None) when ``b`` is a list or a
    concrete str or tuple; None: another iterable (run in CPython)."""
    if not _extends_in_model(heap, b):
        return None
    return map_ok(_list_extend(heap, a, b), lambda extended: Ok(None, extended.writes))


def _list_extend(heap: HeapView, a: Ref, b: object) -> Outcome:
    """``a += b`` with ``b`` a list or a concrete str or tuple: ``a`` itself, extended by
    the items of ``b``."""
    ra = heap.record(a)
    assert isinstance(ra, ListRec)
    if isinstance(ra.length, Term):
        return fix_length(a, ra)
    if isinstance(b, Ref):
        rb = heap.record(b)
        assert isinstance(rb, ListRec)
        if isinstance(rb.length, Term):
            return fix_length(b, rb)
        more = tuple(rb.items[: concrete_length(rb)])
    else:
        more = tuple(cast("str | tuple[object, ...]", b))
    items = tuple(ra.items[: concrete_length(ra)]) + more
    return Ok(a, ((a, ListRec(len(items), items)),))


def with_concrete_length(heap: HeapView, ref: Ref, then: Callable[[], Outcome]) -> Outcome:
    """``then()`` if the list's length is concrete, else a split over every possible length
    whose cases fix the length (``Refine``) so the engine executes the instruction again."""
    record = heap.record(ref)
    assert isinstance(record, ListRec)
    if not isinstance(record.length, Term):
        return then()
    return fix_length(ref, record)


def fix_length(ref: Ref, record: ListRec) -> Outcome:
    """A split over every possible length of a list, each case fixing it (``Refine``)."""
    length = list_length(record)
    return split([(T.eq(length, n), Refine(((ref, ListRec(n, record.items[:n])),))) for n in range(len(record.items) + 1)])


def unary(module: Module, heap: HeapView, op: str, a: object) -> Outcome:
    if op == "not":
        protocol = protocol_call(module, heap, "not", a)
        if protocol is not None:
            return protocol
        if isinstance(a, PyObj) or _has_dunder(heap, a, ("__bool__", "__len__")):
            return run_concretely(module, heap, "truth test", operator.not_, (a,))
        return Ok(T.not_(truth(heap, a)))
    if is_plain(a):
        return concrete_outcome(lambda: _PY_UNARY[op](a))
    if kind(a) == "float" and op != "~":
        return Ok(F.unary(op, a))  # type: ignore[arg-type]
    if _is_number(kind(a)):
        value = as_int(a)
        return Ok(T.neg(value) if op == "-" else W.invert(value) if op == "~" else value)
    if op == "~" and _builtin_kind(heap, a):
        return throw("TypeError", f"bad operand type for unary ~: '{shown_type(heap, a)}'")
    return run_concretely(module, heap, f"unary {op}", _PY_UNARY[op], (a,))


_PY_UNARY: dict[str, Callable[[object], object]] = {
    "-": lambda a: -a,  # type: ignore[operator]
    "+": lambda a: +a,  # type: ignore[operator]
    "~": lambda a: ~a,  # type: ignore[operator]
}


# ---------------------------------------------------------------- truthiness and equality


def truth(heap: HeapView, value: object) -> Arg:
    """Python's truth of a modelled value (see :func:`truth_outcome` for any value)."""
    if isinstance(value, Term):
        if value.sort == BOOL:
            return value
        if value.sort == INT:
            return T.not_(T.eq(value, 0))
        if value.sort == FLOAT:
            return F.truth(value)
        return T.not_(T.eq(value, ""))
    if isinstance(value, SymRef):
        return IN.not_none(value)  # the class defines neither __bool__ nor __len__ (truth_outcome)
    if isinstance(value, Ref):
        record = heap.record(value)
        if isinstance(record, ListRec):
            return T.not_(T.eq(list_length(record), 0))
        if isinstance(record, DictRec):
            return bool(record.keys)
        if isinstance(record, SetRec):
            return bool(record.items)
        _reject_dunder(heap, record, ("__bool__", "__len__"))
        return True
    if isinstance(value, RangeVal):
        return truth(heap, range_length(value))
    if is_plain(value):
        return bool(value)
    if isinstance(value, PyObj):
        raise RuntimeUnsupported(f"truth of a {type_name(value)} here")
    return True


def truth_outcome(module: Module, heap: HeapView, value: object) -> Outcome:
    """``bool(value)`` for any value: objects with ``__bool__`` or ``__len__`` the analysis
    does not model, and opaque objects, are tested in CPython."""
    if isinstance(value, SymRef):
        return input_reference(module, heap, (value,), lambda v: _truth_outcome(module, heap, v[0]))
    return _truth_outcome(module, heap, value)


def _truth_outcome(module: Module, heap: HeapView, value: object) -> Outcome:
    protocol = protocol_call(module, heap, "truth", value)
    if protocol is not None:
        return protocol
    if isinstance(value, PyObj) or _has_dunder(heap, value, ("__bool__", "__len__")):
        return run_concretely(module, heap, "truth test", bool, (value,))
    return Ok(truth(heap, value))


def protocol_call(module: Module, heap: HeapView, kind: str, value: object, *rest: object) -> Outcome | None:
    """The call of the analysed dunder behind ``len``/truth/``not``/``in``/``!=`` on ``value``
    (``frontend.protocols``: the method runs symbolically, its result checked as CPython
    does), or None when ``value`` is not an instance of an analysed class whose dunder for
    ``kind`` is an analysed method (a property, an inherited real method: CPython runs it)."""
    cls = _analysed_class(heap, value)
    info = module.classes.get(cls) if cls is not None else None
    if info is None:
        return None
    methods, other = info.methods, info.other
    if kind == "len":
        analysed = "__len__" in methods
    elif kind in ("truth", "not"):
        analysed = "__bool__" in methods or ("__bool__" not in other and "__len__" in methods)
    elif kind in ("in", "not in"):
        analysed = "__contains__" in methods
    else:  # "!=": object.__ne__ inverts the analysed __eq__ (which never returns NotImplemented)
        analysed = "__eq__" in methods and "__ne__" not in methods and "__ne__" not in other and not module.mentions(methods["__eq__"], "NotImplemented")
    if not analysed:
        return None
    from pathloom.frontend.protocols import protocol_function
    from pathloom.semantics.calls import invoke_method

    return invoke_method(module, protocol_function(module, kind, cls), (value,) + rest)  # type: ignore[arg-type]


def _has_dunder(heap: HeapView, value: object, names: tuple[str, ...]) -> bool:
    """Whether ``value`` is an instance of an analysed class that defines one of ``names``."""
    if not isinstance(value, Ref):
        return False
    record = heap.record(value)
    if not isinstance(record, ObjRec):
        return False
    if record.cls == REPLAYED:  # a deque, an OrderedDict...: its real type's dunders, in CPython
        return True
    info = getattr(heap, "classes", {}).get(record.cls)
    return info is not None and any(n in info.methods or n in info.other for n in names)


def _class_defines_eq(heap: HeapView, cls: str) -> bool:
    info = getattr(heap, "classes", {}).get(cls)
    return info is not None and ("__eq__" in info.methods or "__eq__" in info.other)


def _reject_dunder(heap: HeapView, record: ObjRec, names: tuple[str, ...]) -> None:
    if record.cls == REPLAYED:  # a deque, an OrderedDict...: its real type's dunders, in CPython
        raise NotModeled(f"{names[0]} of a replayed object")
    info = getattr(heap, "classes", {}).get(record.cls)
    if info is not None:
        for name in names:
            if name in info.methods or name in info.other:
                raise RuntimeUnsupported(f"user-defined {name}")


def equal(heap: HeapView, a: object, b: object) -> Arg:
    """Python ``a == b`` as a bool or Bool term."""
    if is_plain(a) and is_plain(b):
        return bool(a == b)
    ka, kb = kind(a), kind(b)
    if "float" in (ka, kb) and F.is_numeric(a) and F.is_numeric(b):
        return T.eq(F.number(a), F.number(b))
    if _is_number(ka) and _is_number(kb):
        if ka == "bool" and kb == "bool":
            return T.eq(a, b)  # type: ignore[arg-type]
        return T.eq(as_int(a), as_int(b))
    if ka == "str" and kb == "str":
        return T.eq(a, b)  # type: ignore[arg-type]
    if ka == "tuple" and kb == "tuple":
        assert isinstance(a, tuple) and isinstance(b, tuple)
        if len(a) != len(b):
            return False
        return T.conj([item_equal(heap, x, y) for x, y in zip(a, b)])
    if isinstance(a, SymRef) or isinstance(b, SymRef):
        for v in (a, b):
            if isinstance(v, SymRef) and _class_defines_eq(heap, v.cls):
                raise RuntimeUnsupported(f"user-defined __eq__ of input object of class {v.cls}")
        return IN.identical(a, b)  # type: ignore[return-value]
    if isinstance(a, Ref) and isinstance(b, Ref):
        ra, rb = heap.record(a), heap.record(b)
        if isinstance(ra, ListRec) and isinstance(rb, ListRec):
            return _lists_equal(heap, ra, rb)
        if isinstance(ra, DictRec) or isinstance(rb, DictRec):
            raise NotModeled("dict equality")  # run in CPython
        if isinstance(ra, SetRec) and isinstance(rb, SetRec):
            from pathloom.semantics import sets

            return sets.equal(heap, ra, rb)
        if isinstance(ra, ObjRec):
            _reject_dunder(heap, ra, ("__eq__",))
        return a == b
    for v in (a, b):
        if isinstance(v, Ref) and isinstance(heap.record(v), ObjRec):
            _reject_dunder(heap, heap.record(v), ("__eq__",))  # type: ignore[arg-type]
    if isinstance(a, PyObj) or isinstance(b, PyObj):
        if _concrete_scalar(a) and _concrete_scalar(b):
            return bool((a.obj if isinstance(a, PyObj) else a) == (b.obj if isinstance(b, PyObj) else b))
        raise RuntimeUnsupported(f"comparing a {shown_type(heap, a)} with a {shown_type(heap, b)} here")
    if isinstance(a, Term) or isinstance(b, Term) or isinstance(a, Ref) or isinstance(b, Ref):
        return False  # different kinds never compare equal here (no user __eq__ involved)
    if ka != kb and "other" not in (ka, kb):
        return False
    return a == b


def item_equal(heap: HeapView, a: object, b: object) -> Arg:
    """``a == b`` as a container compares its items: CPython tries identity first, so a NaN
    equals itself there. Two symbolic floats may be one object or not, which values do not
    tell: unsupported."""
    if isinstance(a, Term) and isinstance(b, Term) and a.sort == FLOAT and b.sort == FLOAT:
        raise RuntimeUnsupported("comparing two symbolic floats inside a container (a NaN is equal to itself there)")
    return equal(heap, a, b)


def _concrete_scalar(value: object) -> bool:
    return isinstance(value, PyObj) or is_plain(value)


def _lists_equal(heap: HeapView, ra: ListRec, rb: ListRec) -> Arg:
    result: Arg = T.eq(ra.length, rb.length)  # type: ignore[arg-type]
    for i in range(min(len(ra.items), len(rb.items))):
        in_range = T.lt(i, ra.length)  # type: ignore[arg-type]
        result = T.and_(result, T.or_(T.not_(in_range), item_equal(heap, ra.items[i], rb.items[i])))
    return result


# CPython's operators, applied to real objects of any type
_PY_OPERATORS: dict[str, Callable[[Any, Any], object]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
    "is": operator.is_,
    "is not": operator.is_not,
}


_COMPARISON_DUNDERS = {
    "==": ("__eq__", "__eq__"),
    "<": ("__lt__", "__gt__"),
    ">": ("__gt__", "__lt__"),
    "<=": ("__le__", "__ge__"),
    ">=": ("__ge__", "__le__"),
    "!=": ("__ne__", "__ne__"),
}
_ARITHMETIC_DUNDERS = {
    "+": ("__add__", "__radd__"),
    "-": ("__sub__", "__rsub__"),
    "*": ("__mul__", "__rmul__"),
    "//": ("__floordiv__", "__rfloordiv__"),
    "%": ("__mod__", "__rmod__"),
    "**": ("__pow__", "__rpow__"),
    "/": ("__truediv__", "__rtruediv__"),
    "&": ("__and__", "__rand__"),
    "|": ("__or__", "__ror__"),
    "^": ("__xor__", "__rxor__"),
    "<<": ("__lshift__", "__rlshift__"),
    ">>": ("__rshift__", "__rrshift__"),
}


def dispatch_dunder(module: Module, heap: HeapView, names: tuple[str, str], a: object, b: object) -> Outcome | None:
    """The call of an analysed class's dunder that CPython makes for a binary operator, when
    the analysis can name it before running: ``a.__op__(b)``, or the reflected ``b.__rop__(a)``
    when ``a``'s class has no ``__op__``. None (the caller runs the operator in CPython) when
    the choice depends on a result: a method that may return ``NotImplemented``, or a right
    operand of a subclass that overrides the reflected method (CPython tries it first)."""
    from pathloom.semantics.calls import invoke_method

    forward, reflected = names
    ca, cb = _analysed_class(heap, a), _analysed_class(heap, b)
    info_a = module.classes.get(ca) if ca else None
    info_b = module.classes.get(cb) if cb else None
    if (
        info_b is not None
        and cb is not None
        and cb != ca
        and ca is not None
        and _is_subclass(module, cb, ca)
        and (reflected in info_b.methods or reflected in info_b.other)
    ):
        return None
    if info_a is not None and (forward in info_a.methods or forward in info_a.other):
        qualname = info_a.methods.get(forward)
        if qualname is None or module.mentions(qualname, "NotImplemented"):
            return None
        return invoke_method(module, qualname, (a, b))
    if info_b is not None and (reflected in info_b.methods or reflected in info_b.other) and (ca is None or info_a is not None):
        qualname = info_b.methods.get(reflected)
        if qualname is None or module.mentions(qualname, "NotImplemented"):
            return None
        return invoke_method(module, qualname, (b, a))
    return None


def _defines(module: Module, heap: HeapView, value: object, name: str) -> bool:
    cls = _analysed_class(heap, value)
    info = module.classes.get(cls) if cls else None
    return info is not None and name in info.methods


def input_reference(module: Module, heap: HeapView, values: tuple[object, ...], then: Callable[[tuple[object, ...]], Outcome]) -> Outcome:
    """``then(values)`` where ``values`` hold input references (``semantics.input_heap``): after what
    lazy initialization or lazier# decide first; a reference that may be None and whose
    class defines a dunder the operation may call is split into None and not None first;
    then the analysed class's dunders take it as ``self``."""
    decided = IN.resolve(module, heap, values, "test")
    if decided is not None:
        return decided
    for i, v in enumerate(values):
        if isinstance(v, SymRef) and v.nullable and _class_defines(module, v.cls):
            rest = values[:i], values[i + 1 :]
            return split(
                [
                    (T.eq(v.loc, 0), then(rest[0] + (None,) + rest[1])),
                    (IN.not_none(v), then(rest[0] + (SymRef(v.cls, v.loc, False),) + rest[1])),
                ]
            )
    return then(values)


_PROTOCOL_DUNDERS = ("__bool__", "__len__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__contains__", "__hash__")


def _class_defines(module: Module, cls: str) -> bool:
    info = module.classes[cls]
    return any(n in info.methods or n in info.other or n in info.compare_methods for n in _PROTOCOL_DUNDERS)


def _analysed_class(heap: HeapView, value: object) -> str | None:
    if isinstance(value, SymRef):
        return value.cls
    if isinstance(value, Ref):
        record = heap.record(value)
        if isinstance(record, ObjRec):
            return record.cls
    return None


def _is_subclass(module: Module, sub: str, sup: str) -> bool:
    current: str | None = sub
    while current is not None:
        if current == sup:
            return True
        current = module.exception_base(current)
    return False


def _same_class_comparison(module: Module, heap: HeapView, op: str, a: object, b: object) -> Outcome | None:
    """The class's own comparison for two instances of exactly one analysed class
    (``ClassInfo.compare_methods``: a dataclass's generated ``__eq__`` and orderings)."""
    cls = _analysed_class(heap, a)
    info = module.classes.get(cls) if cls is not None and cls == _analysed_class(heap, b) else None
    qualname = info.compare_methods.get(_COMPARISON_DUNDERS[op][0]) if info is not None else None
    if qualname is None:
        return None
    from pathloom.semantics.calls import invoke_method

    return invoke_method(module, qualname, (a, b))


def _is_set(heap: HeapView, value: object) -> bool:
    return isinstance(value, Ref) and isinstance(heap.record(value), SetRec)


def _is_dict(heap: HeapView, value: object) -> bool:
    return isinstance(value, Ref) and isinstance(heap.record(value), DictRec)


def _in_range(r: RangeVal, x: Arg) -> Arg:
    start, stop, step = as_int(r.start), as_int(r.stop), r.step
    if step > 0:
        bounds = T.and_(T.le(start, x), T.lt(x, stop))
    else:
        bounds = T.and_(T.le(x, start), T.lt(stop, x))
    if abs(step) == 1:
        return bounds
    return T.and_(bounds, T.eq(T.mod(T.sub(x, start), abs(step)), 0))


def range_length(r: RangeVal) -> Arg:
    """``len(range(start, stop, step))`` for a concrete nonzero step."""
    start, stop, step = as_int(r.start), as_int(r.stop), r.step
    if step > 0:
        span = T.sub(stop, start)
        count = T.floordiv(T.add(span, step - 1), step)
    else:
        span = T.sub(start, stop)
        count = T.floordiv(T.add(span, -step - 1), -step)
    return T.ite(T.lt(0, count), count, 0)

"""The meaning of each IR instruction, written once: ``execute`` maps an instruction and the
values of its operands to an ``Outcome``; ``destinations`` names the locals an ``Ok`` value is
assigned to. Engines read operands (``read_operand``), call ``execute``, and apply the outcome
to their own state representation. Terminators' value parts are here too (``raise_value``,
``branch_value``); how control moves is the engine's job.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping, cast

from pathloom.errors import EngineBug
from pathloom.frontend import ir
from pathloom.frontend.module import CHECK_IR
from pathloom.semantics import builtins as B
from pathloom.semantics import calls as C
from pathloom.semantics import dicts as D
from pathloom.semantics import comparison
from pathloom.semantics import ops as O
from pathloom.semantics import regex as RX
from pathloom.semantics import sequences as S
from pathloom.semantics import sets as SETS
from pathloom.semantics import slicing as SL
from pathloom.semantics.heapview import HeapView
from pathloom.terms.expr import Arg
import itertools
import operator

from pathloom.semantics.concretize import clone_iterator, iteration_watch, run_concretely
from pathloom.cuts import CutReason
from pathloom.domain.outcome import Cut, InterpreterStateLost, NotModeled, Ok, Outcome, RuntimeUnsupported, Throw, map_ok, throw
from pathloom.domain.values import EMPTY_CELL, UNBOUND, FuncVal, ListRec, Ref, SeqIter, SliceVal, is_value

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

EXC_VAR = "%exc"  # local holding the exception being handled (set by the engine at a handler)


def read_operand(module: Module, local_vars: Mapping[str, object], operand: ir.Operand) -> Outcome:
    if isinstance(operand, ir.Const):
        return Ok(operand.value)
    if isinstance(operand, ir.Var):
        value = local_vars.get(operand.name, UNBOUND)
        if value is UNBOUND:
            name = operand.name if operand.name.startswith("%") else operand.name.partition(".")[0]  # ``x.N``: a renamed local ``x``
            return throw("UnboundLocalError", f"cannot access local variable '{name}' where it is not associated with a value")
        return Ok(value)
    return C.resolve_global(module, operand.name)


def destinations(instr: ir.Instruction) -> tuple[str, ...]:
    if isinstance(instr, ir.Unpack):
        return instr.dsts
    if isinstance(instr, ir.Unbind):
        return (instr.name,)
    dst = getattr(instr, "dst", None)
    return (dst,) if dst is not None else ()


def bindings(instr: ir.Instruction, value: object) -> tuple[tuple[str, object], ...]:
    """The locals that ``instr``'s ``Ok`` value binds: an ``Unpack`` binds each destination to
    its item of the unpacked tuple (one destination too: ``r, = xs`` binds ``r`` to ``xs[0]``),
    any other instruction its one destination to the value itself. Every engine binds through
    this, so the two shapes are never confused. Under ``PATHLOOM_CHECK_IR`` (the test suite)
    every bound value is checked to be a ``domain.values.Value``."""
    if isinstance(instr, ir.Unpack):
        assert isinstance(value, tuple) and len(value) == len(instr.dsts), value
        bound: tuple[tuple[str, object], ...] = tuple(zip(instr.dsts, value))
    else:
        dst = destinations(instr)
        bound = ((dst[0], value),) if dst else ()
    if CHECK_IR:
        for name, item in bound:
            if not is_value(item):
                raise EngineBug(f"pathloom: internal error: {name} bound to {item!r} ({type(item).__name__}), no runtime value")
    return bound


def operands(instr: ir.Instruction) -> tuple[ir.Operand, ...]:
    if isinstance(instr, (ir.Assign,)):
        return (instr.src,)
    if isinstance(instr, (ir.BinOp, ir.Compare)):
        return (instr.left, instr.right)
    if isinstance(instr, (ir.UnaryOp, ir.Truth)):
        return (instr.operand,)
    if isinstance(instr, ir.Call):
        return (instr.func,) + instr.args + tuple(v for _, v in instr.kwargs)
    if isinstance(instr, ir.CallMethod):
        return (instr.obj,) + instr.args + tuple(v for _, v in instr.kwargs)
    if isinstance(instr, ir.GetAttr):
        return (instr.obj,)
    if isinstance(instr, ir.SetAttr):
        return (instr.obj, instr.value)
    if isinstance(instr, ir.GetItem):
        return (instr.obj, instr.index)
    if isinstance(instr, ir.GetSlice):
        return (instr.obj, instr.start, instr.stop, instr.step)
    if isinstance(instr, ir.SetItem):
        return (instr.obj, instr.index, instr.value)
    if isinstance(instr, ir.DelItem):
        return (instr.obj, instr.index)
    if isinstance(instr, ir.StoreCell):
        return (instr.cell, instr.value)
    if isinstance(instr, ir.LoadCell):
        return (instr.cell,)
    if isinstance(instr, (ir.BuildList, ir.BuildTuple, ir.BuildSet)):
        return instr.items
    if isinstance(instr, ir.MakeFunction):
        return instr.captures
    if isinstance(instr, ir.BuildDict):
        return tuple(x for pair in zip(instr.keys, instr.values) for x in pair)
    if isinstance(instr, ir.Format):
        return (instr.value, instr.spec)
    if isinstance(instr, ir.BuildString):
        return instr.parts
    if isinstance(instr, ir.Unpack):
        return (instr.src,)
    if isinstance(instr, ir.GetIter):
        return (instr.iterable,)
    if isinstance(instr, ir.CurrentException):
        return (ir.Var(EXC_VAR),)
    if isinstance(instr, ir.ExcMatch):
        return (instr.exc,) + instr.classes
    return ()


def execute(module: Module, heap: HeapView, local_vars: Mapping[str, object], instr: ir.Instruction) -> Outcome:
    """The outcome of ``instr``. What the semantics does not model at run time (and cannot run
    in CPython) ends the path there: a ``Cut`` of kind ``unsupported`` naming the construct,
    which every engine reports with the path's input (solved up to there) while it goes on
    with the other paths. Only ``InterpreterStateLost`` (shared state an operation run in
    CPython changed and that could not be put back) propagates: the engine refuses the rest."""
    try:
        return _execute(module, heap, local_vars, instr)
    except InterpreterStateLost:
        raise  # no later path could be trusted: the engine refuses the rest of the target
    except RuntimeUnsupported as exc:
        return unsupported_cut(str(exc), instr.loc)


def unsupported_cut(what: str, loc: ir.Loc) -> Cut:
    """The cut of a path at what the semantics does not model, met at run time or lowered as a
    statement outside the subset (``ir.Unmodelled``): ``unsupported: <what> (column C)``."""
    return Cut(f"unsupported: {what} (column {loc.col})", CutReason.UNSUPPORTED)


def advance(heap: HeapView, it: object, loc: ir.Loc) -> list[tuple[Arg, object | None, object]] | Cut:
    """The cases of advancing the iterator ``it`` (``sequences.next_item``) at ``loc``, or the
    ``Cut`` of an iteration the semantics does not model (as ``execute``)."""
    try:
        return S.next_item(heap, it)
    except RuntimeUnsupported as exc:
        return unsupported_cut(str(exc), loc)


def _execute(module: Module, heap: HeapView, local_vars: Mapping[str, object], instr: ir.Instruction) -> Outcome:
    values: list[object] = []
    for operand in operands(instr):
        got = read_operand(module, local_vars, operand)
        if not isinstance(got, Ok):
            return got
        values.append(got.value)
    handler = _HANDLERS.get(type(instr))
    if handler is None:
        raise RuntimeUnsupported(f"instruction {type(instr).__name__}")
    try:
        return handler(module, heap, instr, values)
    except NotModeled as exc:
        return _in_cpython(module, heap, instr, values, exc)


MAX_ITERATED_ITEMS = 100_000


def _in_cpython(module: Module, heap: HeapView, instr: ir.Instruction, v: list[object], why: NotModeled) -> Outcome:
    """An instruction whose operands the model does not cover, run in CPython."""
    if isinstance(instr, ir.GetItem):
        return run_concretely(module, heap, "subscript []", operator.getitem, (v[0], v[1]))
    if isinstance(instr, ir.GetSlice):
        return run_concretely(module, heap, "slicing [:]", _sliced, (v[0], v[1], v[2], v[3]))
    if isinstance(instr, ir.SetItem):
        return run_concretely(module, heap, "item assignment []", operator.setitem, (v[0], v[1], v[2]))
    if isinstance(instr, ir.DelItem):
        return run_concretely(module, heap, "item deletion del []", operator.delitem, (v[0], v[1]))
    if isinstance(instr, ir.GetIter):
        taken = {"reversed": lambda x: _snapshot(reversed(x)), "zip": lambda x: _snapshot(zip(*x))}.get(instr.how, _snapshot)
        snapshot = run_concretely(module, heap, "iteration", taken, (v[0],))
        return map_ok(snapshot, lambda ok: Ok(SeqIter(ok.value, 0, iteration_watch(heap, v[0], ok.writes)), ok.writes))
    if isinstance(instr, ir.Compare):
        return run_concretely(module, heap, f"comparison {instr.op}", O._PY_OPERATORS[instr.op], (v[0], v[1]))
    if isinstance(instr, ir.BuildSet):
        return run_concretely(module, heap, "set display", lambda *items: set(items), tuple(v))
    if isinstance(instr, ir.BuildDict):
        return run_concretely(module, heap, "dict display", lambda *kv: dict(zip(kv[::2], kv[1::2])), tuple(v))
    if isinstance(instr, ir.Unpack):
        count, star = len(instr.dsts), instr.star
        return run_concretely(module, heap, "unpacking", lambda value: _unpacked(value, count, star), (v[0],))
    raise RuntimeUnsupported(str(why))


def _sliced(obj: object, start: object, stop: object, step: object) -> object:
    return obj[start:stop:step]  # type: ignore[index]


def _snapshot(iterable: object) -> tuple[object, ...]:
    """The items an iteration over ``iterable`` yields, without consuming a shared iterator."""
    iterator = iter(iterable)  # type: ignore[call-overload]
    if iterator is iterable:
        try:
            iterator = clone_iterator(iterator)
        except TypeError:
            raise RuntimeUnsupported(f"iterating over a {type(iterable).__name__} shared by several paths") from None
    items = tuple(itertools.islice(iterator, MAX_ITERATED_ITEMS + 1))
    if len(items) > MAX_ITERATED_ITEMS:
        raise RuntimeUnsupported(f"iterating over more than {MAX_ITERATED_ITEMS} items of an object run in CPython")
    return items


def _unpacked(value: object, count: int, star: int | None) -> tuple[object, ...]:
    try:
        iter(value)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"cannot unpack non-iterable {type(value).__name__} object") from None
    items = _snapshot(value)
    problem = S.unpack_problem(len(items), count, star)
    if problem is not None:
        raise ValueError(problem)
    if star is None:
        return items
    before, rest, after = S.split_starred(items, count, star)
    return (*before, list(rest), *after)


def _kwargs(instr: ir.Call | ir.CallMethod, values: list[object]) -> tuple[tuple[str, object], ...]:
    n = len(instr.kwargs)
    kw_values = values[len(values) - n :] if n else []
    return tuple((name, v) for (name, _), v in zip(instr.kwargs, kw_values))


def _call(module: Module, heap: HeapView, instr: ir.Call, v: list[object]) -> Outcome:
    n = len(instr.args)
    return C.call(module, heap, v[0], tuple(v[1 : 1 + n]), _kwargs(instr, v), instr.whole)


def _call_method(module: Module, heap: HeapView, instr: ir.CallMethod, v: list[object]) -> Outcome:
    n = len(instr.args)
    return C.call_method(module, heap, v[0], instr.name, tuple(v[1 : 1 + n]), _kwargs(instr, v), instr.whole)


def _build_list(module: Module, heap: HeapView, instr: ir.BuildList, v: list[object]) -> Outcome:
    ref = heap.fresh()
    return Ok(ref, ((ref, ListRec(len(v), tuple(v))),))


def _getitem(module: Module, heap: HeapView, instr: ir.GetItem, v: list[object]) -> Outcome:
    if RX.is_match(v[0]):  # m[1] of a match of a modelled pattern (semantics.regex)
        return RX.match_method(module, heap, v[0], "__getitem__", (v[1],), ())
    record = D.record_of(heap, v[0])
    if record is not None:
        return D.getitem(heap, v[0], record, v[1])  # type: ignore[arg-type]
    return S.getitem(heap, v[0], v[1])


def _setitem(module: Module, heap: HeapView, instr: ir.SetItem, v: list[object]) -> Outcome:
    if isinstance(v[1], SliceVal):  # xs[a:b] = ...
        from pathloom.semantics.slicing import setslice

        return setslice(heap, v[0], v[1], v[2])
    record = D.record_of(heap, v[0])
    if record is not None:
        return D.setitem(heap, v[0], record, v[1], v[2])  # type: ignore[arg-type]
    return S.setitem(heap, v[0], v[1], v[2])


def _delitem(module: Module, heap: HeapView, instr: ir.DelItem, v: list[object]) -> Outcome:
    record = D.record_of(heap, v[0])
    if record is not None:
        return D.delitem(heap, v[0], record, v[1])  # type: ignore[arg-type]
    return S.delitem(heap, v[0], v[1])


def _make_cell(module: Module, heap: HeapView, instr: ir.MakeCell, v: list[object]) -> Outcome:
    """A cell is a one-item list record holding the value or ``EMPTY_CELL`` (every engine's
    heap knows lists; no reported value reaches one)."""
    return _build_list(module, heap, instr, [EMPTY_CELL])  # type: ignore[arg-type]


def _load_cell(module: Module, heap: HeapView, instr: ir.LoadCell, v: list[object]) -> Outcome:
    record = heap.record(v[0])  # type: ignore[arg-type]
    assert isinstance(record, ListRec)
    value = record.items[0]
    if value is EMPTY_CELL:
        return throw("NameError", f"cannot access free variable '{instr.name}' where it is not associated with a value in enclosing scope")
    return Ok(value)


def _build_dict(module: Module, heap: HeapView, instr: ir.BuildDict, v: list[object]) -> Outcome:
    return D.build(heap, tuple(v[::2]), tuple(v[1::2]))


def _get_iter(module: Module, heap: HeapView, instr: ir.GetIter, v: list[object]) -> Outcome:
    if instr.how == "reversed":
        return S.get_reverse_iter(heap, v[0])
    if instr.how == "zip":
        return S.get_zip_iter(heap, v[0])  # type: ignore[arg-type]
    over_set = SETS.record_of(heap, v[0])
    if over_set is not None:
        return SETS.get_iter(module, heap, v[0], over_set)  # type: ignore[arg-type]
    return S.get_iter(heap, v[0])


def _unpack(module: Module, heap: HeapView, instr: ir.Unpack, v: list[object]) -> Outcome:
    return S.unpack(heap, v[0], len(instr.dsts), instr.star)


_Handler = Callable[["Module", HeapView, object, list[object]], Outcome]

_HANDLERS: dict[type, _Handler] = {
    ir.Assign: lambda m, h, i, v: Ok(v[0]),
    ir.BinOp: lambda m, h, i, v: O.binop(m, h, i.op, v[0], v[1]),  # type: ignore[attr-defined]
    ir.UnaryOp: lambda m, h, i, v: O.unary(m, h, i.op, v[0]),  # type: ignore[attr-defined]
    ir.Compare: lambda m, h, i, v: comparison.compare(m, h, i.op, v[0], v[1]),  # type: ignore[attr-defined]
    ir.Truth: lambda m, h, i, v: O.truth_outcome(m, h, v[0]),
    ir.Call: _call,  # type: ignore[dict-item]
    ir.CallMethod: _call_method,  # type: ignore[dict-item]
    ir.GetAttr: lambda m, h, i, v: C.getattr_(m, h, v[0], i.name),  # type: ignore[attr-defined]
    ir.SetAttr: lambda m, h, i, v: C.setattr_(m, h, v[0], i.name, v[1]),  # type: ignore[attr-defined]
    ir.GetItem: _getitem,  # type: ignore[dict-item]
    ir.GetSlice: lambda m, h, i, v: SL.getslice(h, v[0], v[1], v[2], v[3]),
    ir.SetItem: _setitem,  # type: ignore[dict-item]
    ir.DelItem: _delitem,  # type: ignore[dict-item]
    ir.BuildList: _build_list,  # type: ignore[dict-item]
    ir.BuildTuple: lambda m, h, i, v: Ok(tuple(v)),
    ir.BuildDict: _build_dict,  # type: ignore[dict-item]
    ir.BuildSet: lambda m, h, i, v: SETS.build(h, tuple(v), i.foldable),  # type: ignore[attr-defined]
    ir.Unpack: _unpack,  # type: ignore[dict-item]
    ir.MakeFunction: lambda m, h, i, v: Ok(FuncVal(i.qualname, tuple(v))),  # type: ignore[attr-defined]
    ir.GetIter: _get_iter,  # type: ignore[dict-item]
    ir.CurrentException: lambda m, h, i, v: Ok(v[0]),
    ir.ExcMatch: lambda m, h, i, v: C.exc_match(m, v[0], tuple(v[1:])),
    ir.Unbind: lambda m, h, i, v: Ok(UNBOUND),
    ir.Unmodelled: lambda m, h, i, v: unsupported_cut(i.what, i.loc),  # type: ignore[attr-defined]
    ir.MakeCell: _make_cell,  # type: ignore[dict-item]
    ir.StoreCell: lambda m, h, i, v: Ok(None, ((cast(Ref, v[0]), ListRec(1, (v[1],))),)),
    ir.LoadCell: _load_cell,  # type: ignore[dict-item]
    ir.Format: lambda m, h, i, v: B.format_value(m, h, v[0], i.conversion, v[1]),  # type: ignore[attr-defined]
    ir.BuildString: lambda m, h, i, v: B.join_strings(v),
}


def raise_value(module: Module, heap: HeapView, local_vars: Mapping[str, object], term: ir.Raise) -> Outcome:
    """The exception a ``Raise`` terminator raises (``Throw``), or the error raising it gives."""
    if term.value is None:
        current = local_vars.get(EXC_VAR)
        if current is None:
            return throw("RuntimeError", "No active exception to reraise")
        return Throw(current)  # type: ignore[arg-type]
    got = read_operand(module, local_vars, term.value)
    if not isinstance(got, Ok):
        return got
    exc = C.as_exception(module, heap, got.value)
    return Throw(exc.value) if isinstance(exc, Ok) else exc  # type: ignore[arg-type]

"""Concretization, the escape hatch: run an operation the symbolic model does not cover in
CPython itself, on values taken from models of the current path, with the path pinned to them.

``run_concretely(module, heap, site, fn, args, kwargs, where)`` collects the terms the operands hold
(symbolic ints, bools and strs, the lengths and live items of lists, the fields of objects),
asks the engine (``heap.models``) for up to ``--max-concretizations`` models of the current
path (and of ``where``, when the operation runs in CPython on one case of a split only, such
as a bitwise operation on ints outside the range the model covers) that give those terms
pairwise different values, and returns a ``Split``: one case per
model, pinned by the equalities ``term == value`` (they join the path condition), in which
``fn`` ran in CPython on the operands materialized under that model, and, unless the engine
proved there is no other value, a ``Cut`` for the rest (reason ``concretized``). With no
term among the operands the call simply runs: a concrete operation loses nothing.

Invariants: every reported input on a pinned case drives the real code down the same path,
because the operation saw exactly the values that input gives. Values cross into CPython
materialized from the heap (lists as lists, dicts as dicts, instances of the analysed
classes as real instances of the imported classes, aliasing kept); what the call mutates is
written back as new records (a dict only with keys a ``DictRec`` holds, else unsupported); a value that cannot be materialized (a lambda, an object without its real
class) is ``unsupported``. Results come back as pathloom values: lists and dicts into the heap,
instances of analysed classes as records, anything else as an opaque ``PyObj``. An
exception the call raises is the ``Throw`` CPython gives, at the line of the innermost frame
in the analysed file (else the instruction's line).
"""

from __future__ import annotations

import builtins
import collections
import copy
import enum
import functools
import itertools
import math
import os
import sys
import types
from typing import TYPE_CHECKING, Any, Callable, Sequence, cast

from pathloom.semantics import replayed as REPLAY
from pathloom.semantics.heapview import HeapView
from pathloom.cuts import CutReason
from pathloom.domain.outcome import Cut, InterpreterStateLost, Ok, Outcome, RuntimeUnsupported, Throw, split
from pathloom.domain.values import (
    DEFAULT_FACTORIES,
    ITERATOR,
    BoundMethod,
    BuiltinVal,
    ClassVal,
    DictIter,
    DictRec,
    DictView,
    ExcVal,
    FuncVal,
    ListRec,
    MatchVal,
    ObjRec,
    REPLAYED,
    DrawIter,
    PyObj,
    RangeIter,
    RangeVal,
    Record,
    Ref,
    RevIter,
    SeqIter,
    SliceVal,
    ZipIter,
    SetIter,
    SetRec,
    SymRef,
    TableFunc,
    Watch,
    iterator_record,
    concrete_length,
    table_function,
)
from pathloom.terms import expr as T
from pathloom.terms import str_ops as SO
from pathloom.terms.evaluate import evaluate
from pathloom.terms.expr import Arg, Term

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

Kwargs = tuple[tuple[str, object], ...]


def collect_terms(heap: HeapView, values: tuple[object, ...]) -> list[Term]:
    """The terms whose values decide what the operands are in CPython, each once, in order."""
    found: dict[Arg, None] = {}
    seen: set[int] = set()
    todo: list[object] = list(reversed(values))
    while todo:
        v = todo.pop()
        if isinstance(v, Term):
            found.setdefault(v, None)
        elif isinstance(v, tuple):
            todo.extend(reversed(v))
        elif isinstance(v, Ref):
            if v.id in seen:
                continue
            seen.add(v.id)
            record = heap.record(v)
            if isinstance(record, ListRec):
                if isinstance(record.length, Term):
                    found.setdefault(record.length, None)
                    for i, item in enumerate(record.items):
                        if isinstance(item, Term):  # only the live items decide anything
                            found.setdefault(T.ite(T.lt(i, record.length), item, _zero(item)), None)
                        else:
                            todo.append(item)
                else:
                    todo.extend(reversed(record.items[: concrete_length(record)]))
            elif isinstance(record, DictRec):
                todo.extend(reversed([x for pair in zip(record.keys, record.values) for x in pair]))
            elif isinstance(record, SetRec):  # the history decides the table, hence the order
                from pathloom.semantics.set_order import history_values

                todo.extend(reversed(list(record.items) + history_values(record.history)))
            elif record.cls != REPLAYED:  # a replayed object holds no terms (its log can be long)
                todo.extend(reversed([value for _, value in record.fields]))
        elif isinstance(v, ExcVal):
            todo.extend(reversed(v.args))
        elif isinstance(v, MatchVal):
            found.setdefault(v.string, None)
        elif isinstance(v, TableFunc):
            todo.extend((v.size, *v.keys, *v.values, v.default))
        elif isinstance(v, SliceVal):
            todo.extend((v.start, v.stop, v.step))
        elif isinstance(v, RangeVal):
            todo.extend((v.start, v.stop))
        elif isinstance(v, (BoundMethod, DictView)):
            todo.append(v.self_ref if isinstance(v, BoundMethod) else v.ref)
        elif isinstance(v, (SeqIter, RangeIter, DictIter, SetIter, RevIter, ZipIter, DrawIter)):
            raise RuntimeUnsupported("an iterator passed to an operation run in CPython")
    return [t for t in found if isinstance(t, Term)]


_ZEROS: dict[str, Arg] = {T.INT: 0, T.BOOL: False, T.STR: "", T.FLOAT: 0.0}  # by sort


def _zero(item: Term) -> Arg:
    return _ZEROS[item.sort]


def pin(terms: list[Term], model: dict[str, Any]) -> Arg:
    """The conjunction ``term == value`` for each term's value under ``model`` (a float is
    pinned to its bit pattern: ``==`` would let ``-0.0`` stand for ``0.0`` and miss a NaN)."""
    memo: dict[Term, Any] = {}
    return T.conj([(T.fsame if t.sort == T.FLOAT else T.eq)(t, evaluate(t, model, memo)) for t in terms])


class Materializer:
    """Pathloom values to real CPython objects under one model; remembers what it built from
    the heap so that mutations can be written back."""

    def __init__(self, module: Module, heap: HeapView, model: dict[str, Any]) -> None:
        self.module = module
        self.heap = heap
        self.model = model
        self.term_memo: dict[Term, Any] = {}
        self.built: dict[int, object] = {}  # ref id -> the Python object
        self.snapshots: list[tuple[Ref, object, object]] = []  # ref, object, its contents before
        self.opaque: list[tuple[object, object]] = []  # an opaque mutable object, a copy of it before
        self.replayed: list[tuple[Ref, object]] = []  # a replayed object's record, the object rebuilt (``semantics.replayed``)

    def value(self, v: object) -> object:
        if isinstance(v, Term):
            return evaluate(v, self.model, self.term_memo)
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, tuple):
            return tuple(self.value(x) for x in v)
        if isinstance(v, PyObj):
            if not _immutable(v.obj) and all(v.obj is not o for o, _ in self.opaque):
                try:
                    self.opaque.append((v.obj, copy.deepcopy(v.obj)))
                except Exception:  # noqa: BLE001 - cannot tell whether the call changes it
                    raise RuntimeUnsupported(f"a {type(v.obj).__name__} object that cannot be copied, passed to an operation run in CPython") from None
            return v.obj
        if isinstance(v, Ref):
            return self._ref(v)
        if isinstance(v, MatchVal):  # a match of a modelled pattern (semantics.regex), made on the pinned string
            return v.rebuild(cast(str, self.value(v.string)))
        if isinstance(v, FuncVal):
            return self.module.real_function(v.qualname)
        if isinstance(v, SliceVal):
            return slice(self.value(v.start), self.value(v.stop), self.value(v.step))
        if isinstance(v, TableFunc):
            table: dict[object, object] = {}
            for key, value in zip(v.keys[: self._int(v.size)], v.values):
                table.setdefault(self.value(key), self.value(value))  # the first equal key wins, as the lookup does
            return table_function(table, self.value(v.default))
        if isinstance(v, BoundMethod):
            return getattr(self._ref(v.self_ref), v.qualname.rsplit(".", 1)[-1])
        if isinstance(v, ClassVal):
            return self.module.real_class(v.name)
        if isinstance(v, BuiltinVal):
            return getattr(builtins, v.name)
        if isinstance(v, ExcVal):
            return self.module.real_class(v.cls)(*(self.value(a) for a in v.args))
        if isinstance(v, RangeVal):
            return range(self.value(v.start), self.value(v.stop), v.step)  # type: ignore[call-overload]
        if isinstance(v, DictView):
            return getattr(self._ref(v.ref), v.kind)()
        if isinstance(v, SymRef):
            raise RuntimeUnsupported(f"passing an input object ({v.cls}) to an operation run in CPython")
        raise RuntimeUnsupported(f"passing a {type(v).__name__} to an operation run in CPython")

    def _int(self, v: object) -> int:
        """The value of an int or Int term (a list's length, a table's size)."""
        return cast(int, self.value(v))

    def _ref(self, ref: Ref) -> object:
        if ref.id in self.built:
            return self.built[ref.id]
        record = self.heap.record(ref)
        if isinstance(record, ListRec):
            result: list[object] = []
            self.built[ref.id] = result
            n = self._int(record.length)
            result.extend(self.value(x) for x in record.items[:n])
            self.snapshots.append((ref, result, list(result)))
            return result
        if isinstance(record, DictRec):
            real: dict[object, object] = {} if record.default is None else collections.defaultdict(getattr(builtins, record.default.name))  # type: ignore[attr-defined]
            self.built[ref.id] = real
            real.update((self.value(k), self.value(x)) for k, x in zip(record.keys, record.values))
            self.snapshots.append((ref, real, list(real.items())))
            return real
        if isinstance(record, SetRec):
            return self._set(ref, record)
        if record.cls == ITERATOR:
            return self._iterator(ref, record)
        if record.cls == REPLAYED:
            return REPLAY.materialize(self, ref, record)
        cls = self.module.real_class(record.cls)
        instance: object = object.__new__(cls)
        self.built[ref.id] = instance
        fields = {name: self.value(x) for name, x in record.fields}
        instance.__dict__.update(fields)
        self.snapshots.append((ref, instance, dict(fields)))
        return instance

    def _set(self, ref: Ref, record: SetRec) -> object:
        """The set its history builds in CPython (its table, hence its order, is CPython's)."""
        from pathloom.semantics.set_order import DISPLAY_PROBLEM, known_order, order_problem

        problem = order_problem(record.history)
        if problem is not None:
            raise RuntimeUnsupported(f"a set passed to an operation run in CPython: {problem}")
        real = known_order(record.history, self.value)
        if real is None:
            raise RuntimeUnsupported(f"a set passed to an operation run in CPython: {DISPLAY_PROBLEM}")
        self.built[ref.id] = real
        self.snapshots.append((ref, real, list(real)))
        return real

    def _iterator(self, ref: Ref, record: ObjRec) -> object:
        fields = dict(record.fields)
        if fields["looped"]:
            raise RuntimeUnsupported("using an iterator again after a for loop took it over")
        from pathloom.semantics.sequences import check_watch

        check_watch(self.heap, fields.get("watch"))  # type: ignore[arg-type]
        iterator = counting_iterator(str(fields["type"]), advanced_copy(fields["source"], fields["pos"]))  # type: ignore[arg-type]
        self.built[ref.id] = iterator
        self.snapshots.append((ref, iterator, fields["pos"]))
        return iterator


class CountingIterator:
    """A real iterator handed to an operation run in CPython, counting the items taken."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.taken = 0

    def __iter__(self) -> CountingIterator:
        return self

    def __next__(self) -> object:
        item = next(self.inner)  # type: ignore[call-overload]
        self.taken += 1
        return item


_COUNTING_TYPES: dict[str, type[CountingIterator]] = {}


def counting_iterator(type_name: str, inner: object) -> CountingIterator:
    """A ``CountingIterator`` over ``inner`` whose type bears the real iterator's type name,
    so that CPython's messages name the real one (``'zip' object is not subscriptable``)."""
    cls = _COUNTING_TYPES.get(type_name)
    if cls is None:
        cls = _COUNTING_TYPES[type_name] = type(type_name, (CountingIterator,), {})
    return cls(inner)


def advanced_copy(source: PyObj, pos: int) -> object:
    """A copy of an iterator record's untouched source, advanced past the ``pos`` items the
    path has taken."""
    copy_ = clone_iterator(source.obj)
    for _ in itertools.islice(copy_, pos):  # type: ignore[call-overload]
        pass
    return copy_


MAX_ITERATOR_ITEMS = 100_000
LITERAL_TRIES = 8  # solver calls per concretization spent on the module's literals (enumerate_models)
FLOAT_CANDIDATES: tuple[float, ...] = (math.inf, -math.inf, math.nan, -0.0)  # tried first for a pinned float


class Importer:
    """Real CPython objects back to pathloom values: objects built from the heap map back to
    their references; new lists and instances of analysed classes become new records."""

    def __init__(self, module: Module, heap: HeapView, built: dict[int, object]) -> None:
        self.module = module
        self.heap = heap
        self.known: dict[int, Ref] = {id(obj): Ref(ref_id) for ref_id, obj in built.items()}
        self.writes: list[tuple[Ref, Record]] = []
        self.materialized = tuple(Ref(ref_id) for ref_id in built)
        self.iterators: list[Ref] = []  # the iterators the call returned (``watch_iterators``)

    def value(self, obj: object) -> object:
        if obj is None or isinstance(obj, (bool, int, float, str)):
            return obj
        if isinstance(obj, tuple) and type(obj) is tuple:
            return tuple(self.value(x) for x in obj)
        if id(obj) in self.known:
            return self.known[id(obj)]
        if type(obj) is list:
            ref = self.heap.fresh()
            self.known[id(obj)] = ref
            items = tuple(self.value(x) for x in obj)
            self.writes.append((ref, ListRec(len(items), items)))
            return ref
        if (type(obj) is dict or _modelled_defaultdict(obj)) and all(_plain_key(k) for k in obj):  # type: ignore[attr-defined]
            ref = self.heap.fresh()
            self.known[id(obj)] = ref
            self.writes.append((ref, self._dict_record(obj)))  # type: ignore[arg-type]
            return ref
        if type(obj) is range:
            return RangeVal(obj.start, obj.stop, obj.step)
        if hasattr(obj, "__next__") and type(obj).__module__ in ("builtins", "itertools", "_collections"):
            try:
                source = clone_iterator(obj)
            except TypeError:
                raise RuntimeUnsupported(f"a {type(obj).__name__} iterator that cannot be copied") from None
            ref = self.heap.fresh()
            self.known[id(obj)] = ref
            self.writes.append((ref, iterator_record(type(obj).__name__, PyObj(source))))
            self.iterators.append(ref)
            return ref
        if isinstance(obj, BaseException):
            name = self.module.register_exception(type(obj))
            return ExcVal(name, tuple(self.value(a) for a in obj.args), self.heap.fresh().id)
        modeled = self.module.modeled_name(obj)
        if modeled is not None:
            kind, name = modeled
            if kind == "function":
                return FuncVal(name)
            if kind == "class":
                return ClassVal(name)
            ref = self.heap.fresh()
            self.known[id(obj)] = ref
            fields = tuple((k, self.value(x)) for k, x in vars(obj).items())
            self.writes.append((ref, ObjRec(name, fields)))
            return ref
        return PyObj(obj)

    def _dict_record(self, obj: dict[object, object]) -> DictRec:
        """A real dict (or defaultdict of a modelled factory) as a record: its keys (plain,
        checked by the caller) and values."""
        default = BuiltinVal(obj.default_factory.__name__) if isinstance(obj, collections.defaultdict) else None  # type: ignore[union-attr]
        return DictRec(tuple(self.value(k) for k in obj), tuple(self.value(x) for x in obj.values()), default)

    def watch_iterators(self) -> None:
        """Give each iterator the call returned the records it may read copies of, as the call
        left them (after ``write_back``): every record materialized for the call, and what
        the iterators among them watch (``sequences.check_watch``)."""
        if not self.iterators:
            return
        final = dict(self.writes)
        watched: dict[Ref, Record] = {}
        for ref in self.materialized:
            record = final[ref] if ref in final else self.heap.record(ref)
            if isinstance(record, ObjRec) and record.cls == ITERATOR:
                inner = dict(record.fields).get("watch")
                watched.update(inner.records if isinstance(inner, Watch) else ())
            else:
                watched[ref] = record
        if not watched:
            return
        watch = Watch(tuple(watched.items()))
        self.writes = [
            (ref, record.with_field("watch", watch) if ref in self.iterators and isinstance(record, ObjRec) else record) for ref, record in self.writes
        ]

    def write_back(self, snapshots: list[tuple[Ref, object, object]]) -> None:
        """New records for the materialized lists and instances the call changed."""
        for ref, obj, before in snapshots:
            if isinstance(obj, CountingIterator):  # ``before``: the position it was handed over at
                if obj.taken:
                    record = self.heap.record(ref)
                    assert isinstance(record, ObjRec)
                    self.writes.append((ref, record.with_field("pos", before + obj.taken)))  # type: ignore[operator]
            elif isinstance(obj, set):
                assert isinstance(before, list)
                after = list(obj)
                if len(after) != len(before) or any(a is not b for a, b in zip(after, before)):
                    raise RuntimeUnsupported("an operation run in CPython changed a set")
            elif isinstance(obj, dict):
                assert isinstance(before, list)
                entries = list(obj.items())
                if len(entries) != len(before) or any(a is not c or b is not d for (a, b), (c, d) in zip(entries, before)):
                    if isinstance(obj, collections.defaultdict) and not _modelled_defaultdict(obj):
                        raise RuntimeUnsupported("an operation run in CPython changed a defaultdict's default factory")
                    if not all(_plain_key(k) for k in obj):
                        raise RuntimeUnsupported("an operation run in CPython put a key the dict model does not hold into a dict")
                    self.writes.append((ref, self._dict_record(obj)))
            elif isinstance(obj, list):
                assert isinstance(before, list)
                if len(obj) != len(before) or any(a is not b for a, b in zip(obj, before)):
                    items = tuple(self.value(x) for x in obj)
                    self.writes.append((ref, ListRec(len(items), items)))
            else:
                assert isinstance(before, dict)
                now = vars(obj)
                if now.keys() != before.keys() or any(now[k] is not before[k] for k in now):
                    record = self.heap.record(ref)
                    assert isinstance(record, ObjRec)
                    self.writes.append((ref, ObjRec(record.cls, tuple((k, self.value(x)) for k, x in now.items()))))


def iteration_watch(heap: HeapView, value: object, writes: tuple[tuple[Ref, Record], ...] = ()) -> Watch | None:
    """The records an iteration run in CPython over ``value`` read, as ``writes`` left them:
    each list, dict and set it walks (not their items, which come back as the same
    references) and everything an object (a user iterable, an iterator record) reaches through
    its fields. The items were taken all at once, while CPython's iterator takes them one at a
    time: a change to one of these records before the loop ends makes it unsupported
    (``sequences.check_watch``) instead of a loop over stale items."""
    final = dict(writes)
    watched: dict[Ref, Record] = {}
    todo: list[object] = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, tuple):
            todo.extend(v)
        elif isinstance(v, Ref) and v not in watched:
            record = final[v] if v in final else heap.record(v)
            watched[v] = record
            if isinstance(record, ObjRec):
                todo.extend(x for _, x in record.fields)
    return Watch(tuple(watched.items())) if watched else None


def _modelled_defaultdict(obj: object) -> bool:
    """A ``collections.defaultdict`` whose factory the dict model calls (``DictRec.default``)."""
    factory = getattr(obj, "default_factory", None)
    name = getattr(factory, "__name__", "")
    return type(obj) is collections.defaultdict and factory is getattr(builtins, name, None) and name in DEFAULT_FACTORIES


def _plain_key(key: object) -> bool:
    """A key a ``DictRec`` can hold (see ``semantics.dicts``)."""
    if type(key) is tuple:
        return all(_plain_key(k) for k in key)
    return key is None or type(key) in (bool, int, str) or (type(key) is float and key == key)


def run_concretely(
    module: Module,
    heap: HeapView,
    site: str,
    fn: Callable[..., object],
    args: tuple[object, ...],
    kwargs: Kwargs = (),
    where: Arg = True,
) -> Outcome:
    """``fn(*args, **kwargs)`` in CPython (see the module docstring); ``where``: the condition
    of the split case this runs on (the models are taken under it)."""
    terms = collect_terms(heap, args + tuple(v for _, v in kwargs))
    if not terms:
        return _call_under(module, heap, {}, fn, args, kwargs)
    models, exhausted = heap.models(terms, site, where)
    cases: list[tuple[Arg, Outcome]] = []
    for model in models:
        cases.append((pin(terms, model), _call_under(module, heap, model, fn, args, kwargs)))
    if not exhausted:
        others = T.conj([T.not_(c) for c, _ in cases])
        why = "more values than --max-concretizations" if models else "no value found: the solver answered unknown"
        cases.append((others, Cut(f"concretized: {site} ({why})", CutReason.CONCRETIZATION_LIMIT)))
    return split(cases)


def _immutable(obj: object) -> bool:
    """Objects no operation can change (opaque objects of other kinds are checked)."""
    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes, range, frozenset, type, enum.Enum, types.ModuleType)):
        return True
    if type(obj) is tuple:
        return all(_immutable(x) for x in obj)
    return callable(obj) and isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, functools.partial))


def same_state(a: object, b: object, depth: int = 0) -> bool:
    """Whether ``b`` (a deep copy taken before an operation) still matches ``a``."""
    if depth > 50:
        return True
    if type(a) is not type(b):
        return False
    # a and b are of one type: b passes each isinstance test a passes
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_state(x, y, depth + 1) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a.keys()) == list(b.keys()) and all(same_state(a[k], b[k], depth + 1) for k in a)
    if hasattr(a, "__next__"):  # an iterator: its position is in its reduced state
        try:
            return same_state(a.__reduce__()[1:], b.__reduce__()[1:], depth + 1)
        except Exception:  # noqa: BLE001 - an iterator that does not say where it is
            return False
    if hasattr(a, "__dict__") and not isinstance(a, type):
        return same_state(vars(a), vars(b), depth + 1)
    slots = [n for cls in type(a).__mro__ for n in getattr(cls, "__slots__", ())]
    if slots:
        return all(same_state(getattr(a, n, None), getattr(b, n, None), depth + 1) for n in slots if isinstance(n, str))
    if type(a).__eq__ is object.__eq__:
        state = _reduced_state(a)  # a C object's state (decimal.Context), when it says it
        return state is None or same_state(state, _reduced_state(b), depth + 1)
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return False


def _reduced_state(obj: object) -> tuple[object, ...] | None:
    """The arguments and state of ``obj``'s reduced form (None when it has none)."""
    try:
        reduced = obj.__reduce_ex__(4)
    except Exception:  # noqa: BLE001 - an object that cannot be reduced says nothing
        return None
    if not isinstance(reduced, tuple) or len(reduced) < 2:
        return None
    return tuple(reduced[1:3])


def interpreter_state() -> tuple[object, ...]:
    """Interpreter-wide state that operations run in CPython read without its being an
    operand: decimal's current context (the object and its settings; its sticky flags are
    left out, every inexact operation sets them)."""
    decimal = sys.modules.get("decimal")
    if decimal is None:
        return ()
    context = decimal.getcontext()
    return (context, _context_settings(context))


def _context_settings(context: Any) -> tuple[object, ...]:
    return (context.prec, context.rounding, context.Emin, context.Emax, context.capitals, context.clamp, tuple(context.traps.items()))


def _set_context(context: Any, settings: tuple[Any, ...]) -> None:
    context.prec, context.rounding, context.Emin, context.Emax, context.capitals, context.clamp = settings[:6]
    for signal, on in settings[6]:
        context.traps[signal] = on


def check_interpreter_state(before: tuple[object, ...]) -> None:
    """Interpreter state is shared by every path: an operation run in CPython that changed it
    (``decimal.getcontext().prec = n``, ``decimal.setcontext``) is unsupported, and the state
    is put back (another path, or another target, must not see it)."""
    if before == interpreter_state():
        return
    context, settings = before
    sys.modules["decimal"].setcontext(context)
    _set_context(context, settings)  # type: ignore[arg-type]
    raise RuntimeUnsupported("an operation run in CPython changed decimal's current context (interpreter state is shared by every path)")


def clone_iterator(iterator: object) -> object:
    """A copy of a builtin iterator at the same position over the same objects (its reduced
    form rebuilt), so that iterating the copy leaves the shared original untouched; items
    keep their identity (a deep copy would not)."""
    reduced = iterator.__reduce__()
    if not isinstance(reduced, tuple) or len(reduced) < 2 or not callable(reduced[0]):
        raise RuntimeUnsupported(f"iterating over a {type(iterator).__name__} shared by several paths")
    rebuild, args = reduced[0], tuple(clone_iterator(a) if hasattr(a, "__next__") else a for a in reduced[1])
    clone = rebuild(*args)
    if len(reduced) > 2 and reduced[2] is not None:
        clone.__setstate__(reduced[2])
    return clone


def _call_under(module: Module, heap: HeapView, model: dict[str, Any], fn: Callable[..., object], args: tuple[object, ...], kwargs: Kwargs) -> Outcome:
    materializer = Materializer(module, heap, model)
    real_args = [materializer.value(a) for a in args]
    real_kwargs = {k: materializer.value(v) for k, v in kwargs}
    pending = REPLAY.before_call(materializer, fn, real_args, real_kwargs)
    bindings = _module_bindings(module, fn)
    state = interpreter_state()
    try:
        result = fn(*real_args, **real_kwargs)
    except RuntimeUnsupported:
        raise
    except RecursionError:
        raise RuntimeUnsupported("an operation run in CPython exceeded the recursion limit") from None
    except Exception as exc:  # noqa: BLE001 - CPython's own answer for these operands
        check_interpreter_state(state)
        _check_bindings(bindings)
        _check_unchanged(materializer)
        REPLAY.after_call(module, heap, pending, fn, raised=True)
        importer = Importer(module, heap, materializer.built)
        importer.write_back(materializer.snapshots)
        if importer.writes:
            raise RuntimeUnsupported("an operation run in CPython changed its arguments and raised") from None
        name = module.register_exception(type(exc))
        try:
            text: str | None = str(exc)
        except Exception:  # noqa: BLE001 - a broken __str__
            text = None
        exc_val = ExcVal(name, tuple(importer.value(a) for a in exc.args), 0, text)
        return Throw(exc_val, _line_in(module, exc))
    check_interpreter_state(state)
    _check_bindings(bindings)
    _check_unchanged(materializer)
    importer = Importer(module, heap, materializer.built)
    value = REPLAY.adopt(importer, materializer, fn, [*real_args, *real_kwargs.values()], result, importer.value(result))
    importer.write_back(materializer.snapshots)
    importer.writes.extend(REPLAY.after_call(module, heap, pending, fn, raised=False))
    importer.watch_iterators()
    return Ok(value, tuple(importer.writes))


def _module_bindings(module: Module, fn: Callable[..., object]) -> list[tuple[dict[str, object], dict[str, object]]]:
    """The namespaces an operation run in CPython may rebind names of with ``global`` (the
    analysed module's, its linked modules', the called function's), each with a copy of its
    bindings."""
    spaces: dict[int, dict[str, object]] = {}
    for runtime in [module.runtime, *(m.runtime for m in module.linked.values())]:
        if runtime is not None:
            spaces[id(vars(runtime))] = vars(runtime)
    function = getattr(fn, "__func__", fn)
    namespace = getattr(function, "__globals__", None)
    if isinstance(namespace, dict) and _in_project(module, namespace.get("__file__")):
        spaces[id(namespace)] = namespace
    return [(space, dict(space)) for space in spaces.values()]


def _in_project(module: Module, file: object) -> bool:
    """Whether ``file`` belongs to the analysed file's project (``linker.is_project_file``).
    Other libraries (the standard library's lazily built caches) are taken to keep their
    module-level names to themselves."""
    return isinstance(file, str) and _project_file(file, module.filename)


@functools.lru_cache(maxsize=256)
def _project_file(file: str, target_file: str) -> bool:
    from pathloom.frontend.linker import is_project_file

    try:
        return is_project_file(file, target_file)
    except OSError:
        return False


def _check_bindings(bindings: list[tuple[dict[str, object], dict[str, object]]]) -> None:
    """Module-level names are shared by every path: an operation that rebinds one (a function
    run in CPython that writes a ``global``) is unsupported; the bindings are put back."""
    for space, before in bindings:
        changed = sorted(k for k in space.keys() | before.keys() if space.get(k, _GONE) is not before.get(k, _GONE))
        if changed:
            space.clear()
            space.update(before)
            where = before.get("__name__", "?")
            raise RuntimeUnsupported(
                f"an operation run in CPython rebound the module-level name {changed[0]!r} of module {where} (module-level names are shared by every path)"
            )


_GONE = object()


def _restore(obj: object, before: object) -> None:
    """Undo a change to a real object (the analysis must not leave the module changed)."""
    try:
        if isinstance(obj, (list, dict, set)):
            obj.clear()
            # before: the deep copy of obj taken before the operation (Materializer.opaque)
            if isinstance(obj, list):
                obj.extend(cast(list[object], before))
            elif isinstance(obj, dict):
                obj.update(cast(dict[object, object], before))
            else:
                obj.update(cast(set[object], before))
        elif hasattr(obj, "__dict__") and not isinstance(obj, type):
            vars(obj).clear()
            vars(obj).update(vars(before))
    except Exception:  # noqa: BLE001 - best effort: the caller checks whether it worked
        pass


def _check_unchanged(materializer: Materializer) -> None:
    """Opaque objects are shared by every path: an operation that changes one is unsupported."""
    for obj, before in materializer.opaque:
        if not same_state(obj, before):
            _restore(obj, before)
            what = f"an operation run in CPython changed a {type(obj).__name__} (module-level dicts, sets and opaque objects are shared by every path)"
            if not same_state(obj, before):
                raise InterpreterStateLost(what + "; it could not be put back")
            raise RuntimeUnsupported(what)


def _line_in(module: Module, exc: BaseException) -> int | None:
    """The line of the innermost traceback frame in the analysed file, if any."""
    target = os.path.realpath(module.filename)
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if os.path.realpath(tb.tb_frame.f_code.co_filename) == target:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def enumerate_models(
    first: dict[str, Any] | None,
    terms: list[Term],
    limit: int,
    solve: Callable[[list[Arg]], tuple[str, dict[str, Any]]],
    where: Arg = True,
    literals: Sequence[str | int] = (),
) -> tuple[list[dict[str, Any]], bool]:
    """Models of ``where`` that give ``terms`` pairwise different values, for an engine's
    ``models``: ``first`` (a model of the path, when the engine has one and it satisfies
    ``where``; else the solver's first model), then models where a term equals one of the module's ``literals`` of its sort
    (the values the code compares against: ``s.lower() == "stop"`` needs ``s`` to be a case of
    ``"stop"``, which an arbitrary model never is; a float term tries ``inf``, ``-inf``, ``nan``
    and ``-0.0``, where CPython's float operations raise or differ; a str term first tries a
    value with a character past ASCII, where ``encode``, ``upper`` and their kin differ), at
    most ``LITERAL_TRIES`` solver calls,
    then what ``solve`` (the path's constraints plus the given ones: ``sat``/``unsat``/
    ``unknown`` and a model) answers with ``where`` and the values found so far excluded.
    Exhausted only when ``solve`` proves no other value."""
    models: list[dict[str, Any]] = []
    if where is False:
        return models, True
    excluded: list[Arg] = [] if where is True else [where]
    if first is not None and where is not True and not evaluate(where, first):
        first = None
    if first is None and limit > 1:  # the solver's own first model: often the boundary (an empty list)
        status, model = solve(excluded)
        if status == "unsat":
            return models, True
        if status == "sat":
            first = model
    if first is not None:
        models.append(first)
        excluded.append(T.not_(pin(terms, first)))
    tries = 0
    for term in terms:  # a str with a character past ASCII, where str operations differ most
        chars = SO.alphabet(term) if term.sort == T.STR else None
        if term.sort == T.STR and (chars is None or not all(c.isascii() for c in chars)) and len(models) < limit and tries < LITERAL_TRIES:
            tries += 1
            status, model = solve([*excluded, T.not_(T.str_class(term, "isascii"))])
            if status == "sat":
                models.append(model)
                excluded.append(T.not_(pin(terms, model)))
    for term in terms:
        for value in FLOAT_CANDIDATES if term.sort == T.FLOAT else literals:
            if len(models) >= limit or tries >= LITERAL_TRIES:
                break
            if T.sort_of(value) != term.sort:
                continue
            tries += 1
            status, model = solve([*excluded, (T.fsame if term.sort == T.FLOAT else T.eq)(term, value)])
            if status == "sat":
                models.append(model)
                excluded.append(T.not_(pin(terms, model)))
    while len(models) < limit:
        status, model = solve(excluded)
        if status == "unsat":
            return models, True
        if status != "sat":
            return models, False
        models.append(model)
        excluded.append(T.not_(pin(terms, model)))
    status, _ = solve(excluded)
    return models, status == "unsat"

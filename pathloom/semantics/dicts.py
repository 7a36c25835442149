"""Dicts: displays, ``d[k]``, ``d[k] = v``, ``k in d``, ``len``, iteration, the common methods.

A dict is a ``DictRec`` in the heap (immutable: a write replaces it). Invariant, on every path
that holds a record: the number of entries is concrete and the keys are pairwise different
under Python's key equality (``ops.equal``: ``1 == True``, ``1 == 1.0``, tuples item by item).
So a lookup of a key ``k`` is a choice among disjoint conditions ``k == key_i`` and "no key
equal", which the engines fork or merge (``Split``); when the values (and a default) are of one
sort the found case is one if-then-else term instead of one case per entry. A key replaced
keeps its position and its first key object (CPython keeps the stored key); a new key comes
last; a display inserts left to right, so a later equal key takes the first one's place.

Keys outside the model raise ``NotModeled``, so the operation runs in CPython on pinned values
(``semantics.concretize``): instances (their ``__hash__``/``__eq__``), NaN, a float against
a symbolic value. A list or dict key is CPython's ``TypeError: unhashable type``. Methods the
model lacks (``update``, ``popitem``, views' other methods, ``==`` between dicts) run in
CPython too; a changed dict is written back as a new record.

Iteration (``for k in d``, over ``keys()``, ``values()``, ``items()``) walks the entries by
position; a dict whose keys changed since the iteration began is unsupported (CPython raises
``RuntimeError: dictionary changed size during iteration``; the model does not raise from a
``for``), never silently continued.
"""

from __future__ import annotations

import math
from dataclasses import replace

from pathloom.semantics.heapview import HeapView
from pathloom.semantics.ops import equal
from pathloom.domain.outcome import NotModeled, Ok, Outcome, RuntimeUnsupported, Throw, split, throw
from pathloom.domain.values import DictIter, DictRec, DictView, ExcVal, ListRec, Ref, SetRec, type_name
from pathloom.terms import expr as T
from pathloom.terms.expr import FLOAT, Arg, Term, sort_of

Cases = list[tuple[Arg, DictRec]]

EMPTY = DictRec((), ())


def record_of(heap: HeapView, value: object) -> DictRec | None:
    if isinstance(value, Ref):
        record = heap.record(value)
        if isinstance(record, DictRec):
            return record
    return None


def _key_problem(heap: HeapView, key: object) -> str | None:
    """The type CPython reports as unhashable, or None for a key the model compares;
    ``NotModeled`` for other keys."""
    if key is None or isinstance(key, (bool, int, str, Term)):
        return None
    if isinstance(key, float):
        if math.isnan(key):
            raise NotModeled("a NaN dict key")
        return None
    if isinstance(key, tuple):
        for item in key:
            problem = _key_problem(heap, item)
            if problem is not None:
                return problem
        return None
    if isinstance(key, Ref):
        record = heap.record(key)
        if isinstance(record, (ListRec, DictRec, SetRec)):
            return "list" if isinstance(record, ListRec) else record.shown if isinstance(record, DictRec) else record.cls
    raise NotModeled(f"a dict key of type {type_name(key)}")


def unhashable(heap: HeapView, key: object) -> Throw | None:
    """CPython's ``TypeError`` for a key it cannot hash, None for a key the model compares
    (``NotModeled`` for other keys)."""
    problem = _key_problem(heap, key)
    return throw("TypeError", f"unhashable type: '{problem}'") if problem is not None else None


def _has_float(value: object) -> bool:
    if isinstance(value, Term):
        return value.sort == FLOAT
    return isinstance(value, float) or (isinstance(value, tuple) and any(_has_float(v) for v in value))


def _has_term(value: object) -> bool:
    return isinstance(value, Term) or (isinstance(value, tuple) and any(_has_term(v) for v in value))


def same_key(heap: HeapView, a: object, b: object) -> Arg:
    """Python's key equality of ``a`` and ``b`` (``NotModeled`` for a float against a term)."""
    if (_has_float(a) and _has_term(b)) or (_has_float(b) and _has_term(a)):
        raise NotModeled("a float dict key compared with a symbolic one")  # also: a symbolic float (a NaN key matches by identity)
    return equal(heap, a, b)


def _matches(heap: HeapView, record: DictRec, key: object) -> list[Arg]:
    return [same_key(heap, key, k) for k in record.keys]


def _one_sort(values: tuple[object, ...]) -> bool:
    """Whether the values can be one if-then-else term (ints, bools or strs of one sort)."""
    sorts = {sort_of(v) if isinstance(v, (Term, int, str)) else None for v in values}
    return len(sorts) == 1 and None not in sorts


def _chosen(hits: list[Arg], values: tuple[object, ...], otherwise: object) -> Arg:
    """``values[i]`` where ``hits[i]`` holds (at most one does), else ``otherwise``."""
    result: Arg = otherwise  # type: ignore[assignment]
    for hit, value in reversed(list(zip(hits, values))):
        result = T.ite(hit, value, result)  # type: ignore[arg-type]
    return result


def _lookup(hits: list[Arg], values: tuple[object, ...], missing: Outcome, found: object = None) -> Outcome:
    """The value at the key that ``hits`` locates, else ``missing``; with ``found`` given (a
    default of ``values``' sort), one term for the whole outcome when no case may be missing."""
    none: Arg = T.conj([T.not_(h) for h in hits])
    if isinstance(missing, Ok) and _one_sort(values + (missing.value,)) and not missing.writes:
        return Ok(_chosen(hits, values, missing.value))
    if hits and _one_sort(values) and any(isinstance(h, Term) for h in hits):
        return split([(T.not_(none), Ok(_chosen(hits[:-1], values[:-1], values[-1]))), (none, missing)])
    return split([(h, Ok(v)) for h, v in zip(hits, values)] + [(none, missing)])


def _insert(heap: HeapView, record: DictRec, key: object, value: object) -> Cases:
    """The records after ``d[key] = value``: the key replaced in place, or appended."""
    hits = _matches(heap, record, key)
    none: Arg = T.conj([T.not_(h) for h in hits])
    appended = _appended(record, key, value)
    if _one_sort(record.values + (value,)) and any(isinstance(h, Term) for h in hits):
        merged = tuple(T.ite(h, value, old) for h, old in zip(hits, record.values))  # type: ignore[arg-type]
        return [(T.not_(none), replace(record, values=merged)), (none, appended)]
    cases: Cases = []
    for i, hit in enumerate(hits):
        cases.append((hit, replace(record, values=record.values[:i] + (value,) + record.values[i + 1 :])))
    return cases + [(none, appended)]


def _appended(record: DictRec, key: object, value: object) -> DictRec:
    """``record`` with the new entry ``key: value`` last (a defaultdict stays one)."""
    return replace(record, keys=record.keys + (key,), values=record.values + (value,))


def new(heap: HeapView, record: DictRec) -> Ok:
    """A fresh dict holding ``record``'s entries (a defaultdict's copy is one too)."""
    fresh = heap.fresh()
    return Ok(fresh, ((fresh, record),))


def _stored(ref: Ref, cases: Cases, returned: bool = False) -> Outcome:
    """``ref`` holding each case's record; the value is ``ref`` itself or None."""
    return split([(c, Ok(ref if returned else None, ((ref, r),))) for c, r in cases if c is not False])


# ---------------------------------------------------------------- instructions


def build(heap: HeapView, keys: tuple[object, ...], values: tuple[object, ...]) -> Outcome:
    """A dict display: the pairs inserted left to right into a fresh dict."""
    for key in keys:
        problem = unhashable(heap, key)
        if problem is not None:
            return problem
    cases: Cases = [(True, EMPTY)]
    for key, value in zip(keys, values):
        cases = [(T.and_(c, d), r) for c, record in cases for d, r in _insert(heap, record, key, value)]
    return _stored(heap.fresh(), cases, returned=True)


def getitem(heap: HeapView, ref: Ref, record: DictRec, key: object) -> Outcome:
    problem = unhashable(heap, key)
    if problem is not None:
        return problem
    missing = Throw(ExcVal("KeyError", (key,))) if record.default is None else _missing(heap, ref, record, key)
    return _lookup(_matches(heap, record, key), record.values, missing)


def _missing(heap: HeapView, ref: Ref, record: DictRec, key: object) -> Outcome:
    """A defaultdict's ``d[key]`` of a missing key (``__missing__``): the default factory's
    new value, inserted under ``key`` and returned."""
    from pathloom.semantics.sets import make_set

    factory = record.default.name  # type: ignore[attr-defined]
    plain = {"int": 0, "float": 0.0, "str": "", "bool": False, "tuple": ()}
    if factory in plain:
        made = Ok(plain[factory])
    elif factory == "set":
        made = make_set(heap, (), ())  # type: ignore[assignment]
    else:
        made = new(heap, EMPTY) if factory == "dict" else _new_list(heap)
    assert isinstance(made, Ok)
    return Ok(made.value, made.writes + ((ref, _appended(record, key, made.value)),))


def _new_list(heap: HeapView) -> Ok:
    fresh = heap.fresh()
    return Ok(fresh, ((fresh, ListRec(0, ())),))


def setitem(heap: HeapView, ref: Ref, record: DictRec, key: object, value: object) -> Outcome:
    problem = unhashable(heap, key)
    if problem is not None:
        return problem
    return _stored(ref, _insert(heap, record, key, value))


def contains(heap: HeapView, record: DictRec, key: object) -> Outcome:
    problem = unhashable(heap, key)
    if problem is not None:
        return problem
    found: Arg = False
    for hit in _matches(heap, record, key):
        found = T.or_(found, hit)
    return Ok(found)


# ---------------------------------------------------------------- methods


def call_method(heap: HeapView, ref: Ref, record: DictRec, name: str, args: tuple[object, ...]) -> Outcome:
    """A method of a dict with positional arguments; ``RuntimeUnsupported`` for the others
    (the caller runs them in CPython)."""
    arity = _ARITIES.get(name)
    if arity is None:
        raise RuntimeUnsupported(f"dict method {name}()")
    low, high = arity
    if not low <= len(args) <= high:
        raise RuntimeUnsupported(f"dict.{name}() with {len(args)} arguments")  # CPython's TypeError and message
    if name in ("keys", "values", "items"):
        return Ok(DictView(ref, name))
    if name == "copy":
        return new(heap, record)
    if name == "clear":
        return Ok(None, ((ref, replace(record, keys=(), values=())),))
    key, default = args[0], args[1] if len(args) > 1 else None
    missing = Ok(default) if len(args) > 1 else Throw(ExcVal("KeyError", (key,)))
    if name == "pop" and not record.keys:
        return missing  # CPython's pop looks at an empty dict's size before hashing the key
    problem = unhashable(heap, args[0])
    if problem is not None:
        return problem
    hits = _matches(heap, record, key)
    if name == "get":
        return _lookup(hits, record.values, Ok(default))
    if name == "setdefault":
        return _lookup(hits, record.values, Ok(default, ((ref, _appended(record, key, default)),)))
    return _pop(ref, record, hits, missing)


_ARITIES = {
    "keys": (0, 0),
    "values": (0, 0),
    "items": (0, 0),
    "copy": (0, 0),
    "clear": (0, 0),
    "get": (1, 2),
    "setdefault": (1, 2),
    "pop": (1, 2),
}


def delitem(heap: HeapView, ref: Ref, record: DictRec, key: object) -> Outcome:
    """``del d[key]``: unlike ``pop``, CPython hashes the key even when the dict is empty."""
    problem = unhashable(heap, key)
    if problem is not None:
        return problem
    return _pop(ref, record, _matches(heap, record, key), Throw(ExcVal("KeyError", (key,))), deleting=True)


def _pop(ref: Ref, record: DictRec, hits: list[Arg], missing: Outcome, deleting: bool = False) -> Outcome:
    """``pop`` (the value removed) or ``del`` (None) of the item ``hits`` says matches."""
    cases: list[tuple[Arg, Outcome]] = []
    for i, hit in enumerate(hits):
        rest = replace(record, keys=record.keys[:i] + record.keys[i + 1 :], values=record.values[:i] + record.values[i + 1 :])
        cases.append((hit, Ok(None if deleting else record.values[i], ((ref, rest),))))
    cases.append((T.conj([T.not_(h) for h in hits]), missing))
    return split(cases)


def as_list(heap: HeapView, record: DictRec) -> Outcome:
    """``list(d)``: a new list of the keys."""
    fresh = heap.fresh()
    return Ok(fresh, ((fresh, ListRec(len(record.keys), record.keys)),))


# ---------------------------------------------------------------- iteration


def get_iter(heap: HeapView, value: object) -> Outcome | None:
    """An iterator over a dict (its keys) or a view; None for other values."""
    if isinstance(value, DictView):
        record = record_of(heap, value.ref)
        assert record is not None
        return Ok(DictIter(value.ref, value.kind, 0, record.keys))
    record = record_of(heap, value)
    if record is None:
        return None
    return Ok(DictIter(value, "keys", 0, record.keys))  # type: ignore[arg-type]


def next_item(heap: HeapView, it: DictIter) -> tuple[DictIter | None, object]:
    """The advanced iterator and the item, or ``(None, None)`` at the end."""
    record = record_of(heap, it.ref)
    assert record is not None
    if len(record.keys) != len(it.keys):
        raise RuntimeUnsupported("dictionary changed size during iteration (CPython raises RuntimeError)")
    if any(a is not b for a, b in zip(record.keys, it.keys)):
        raise RuntimeUnsupported("dictionary keys changed during iteration")
    if it.index >= len(record.keys):
        return None, None
    i = it.index
    item = {"keys": record.keys[i], "values": record.values[i]}.get(it.kind, (record.keys[i], record.values[i]))
    return DictIter(it.ref, it.kind, i + 1, it.keys), item

"""Lists, strings, tuples and ranges: indexing, item assignment, list methods, iteration,
unpacking.

Symbolic indices stay symbolic: ``xs[i]`` splits only into the in-range case (whose value is an
if-then-else over the possible positions) and the IndexError case, so indexing forks exactly
as Python's control flow does. A list's ``length`` may be an Int term (a list input, or a list
grown from one); ``len(items)`` bounds it. Negative indices are normalized as in Python.
"""

from __future__ import annotations

import itertools
from typing import Callable, Sequence, cast

from pathloom.semantics import dicts, sets
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.ops import as_int, fix_length, kind, range_length, with_concrete_length
from pathloom.domain.outcome import NotModeled, Ok, Outcome, RuntimeUnsupported, Throw, split, throw
from pathloom.domain.values import (
    ITERATOR,
    DictIter,
    DrawIter,
    DictRec,
    ExcVal,
    ListRec,
    ObjRec,
    PyObj,
    RangeIter,
    RangeVal,
    Ref,
    RevIter,
    SeqIter,
    ZipIter,
    SetIter,
    SetRec,
    Watch,
    concrete_length,
    type_name,
)
from pathloom.terms import expr as T
from pathloom.terms.expr import Arg, Term, sort_of


def _normalized(index: Arg, length: Arg) -> tuple[Arg, Arg]:
    """(position, in_range) for a Python index into a sequence of ``length``."""
    position = T.ite(T.lt(index, 0), T.add(index, length), index)
    in_range = T.and_(T.le(0, position), T.lt(position, length))
    return position, in_range


def _too_large(index: Arg) -> Arg:
    """An index CPython cannot convert to a C ``ssize_t`` (before any range check)."""
    return T.or_(T.lt(index, -(2**63)), T.le(2**63, index))


def _range_error(index: Arg, message: str) -> Outcome:
    """The IndexError of an index out of range: CPython's ``cannot fit`` for one beyond a C
    ``ssize_t``, else ``message``."""
    huge = _too_large(index)
    return split([(huge, throw("IndexError", "cannot fit 'int' into an index-sized integer")), (T.not_(huge), throw("IndexError", message))])


def _index_value(index: object) -> Arg | None:
    if kind(index) in ("int", "bool"):
        return as_int(index)
    return None


def _beyond(position: Arg, record: ListRec) -> bool:
    """A concrete position past the list's capacity, which bounds every possible length."""
    return not isinstance(position, Term) and not 0 <= int(position) < len(record.items)


def merged_item(items: Sequence[object], position: Arg) -> Arg | None:
    """The item at a symbolic position as one if-then-else term (the last item at any
    position past the others), or None when the items are not ints, bools or strs of one
    sort."""
    sorts = {sort_of(v) if isinstance(v, (Term, int, str)) else None for v in items}
    if len(sorts) != 1 or None in sorts or not items:
        return None
    value: Arg = items[-1]  # type: ignore[assignment]
    for i in range(len(items) - 2, -1, -1):
        value = T.ite(T.eq(position, i), items[i], value)  # type: ignore[arg-type]
    return value


def _select(items: tuple[object, ...], position: Arg) -> Outcome:
    """The item at a (possibly symbolic, in-range) position."""
    if not isinstance(position, Term):
        return Ok(items[int(position)])
    merged = merged_item(items, position)
    if merged is not None:
        return Ok(merged)
    return split([(T.eq(position, i), Ok(item)) for i, item in enumerate(items)])


def getitem(heap: HeapView, obj: object, index: object) -> Outcome:
    if isinstance(obj, PyObj) and isinstance(index, Term):
        return _opaque_getitem(obj.obj, index)
    k = kind(obj)
    if isinstance(obj, Ref):
        record = heap.record(obj)
        if not isinstance(record, ListRec):
            raise NotModeled(f"indexing a {record.cls}")
        if _index_value(index) is None:
            raise NotModeled("a list index that is not an int")
        return _list_index(record, index, "list index out of range", lambda position: _select(record.items, position))
    if k == "str":
        idx = _index_value(index)
        if idx is None:
            raise NotModeled("a str index that is not an int")
        position, in_range = _normalized(idx, T.str_len(obj))  # type: ignore[arg-type]
        if in_range is False:
            return _range_error(idx, "string index out of range")
        return split(
            [
                (T.not_(in_range), _range_error(idx, "string index out of range")),
                (in_range, Ok(T.char_at(obj, position))),  # type: ignore[arg-type]
            ]
        )
    if k == "tuple":
        assert isinstance(obj, tuple)
        idx = _index_value(index)
        if idx is None:
            raise NotModeled("a tuple index that is not an int")
        position, in_range = _normalized(idx, len(obj))
        if in_range is False:
            return _range_error(idx, "tuple index out of range")
        return split(
            [
                (T.not_(in_range), _range_error(idx, "tuple index out of range")),
                (in_range, _select(obj, position) if obj else Ok(None)),
            ]
        )
    raise NotModeled(f"indexing a {type_name(obj)}")


def _opaque_getitem(obj: object, index: Term) -> Outcome:
    """A symbolic index into a real tuple or list of literals, or a symbolic key of a real dict
    whose keys and values are literals: a split over the positions or keys, as CPython looks
    them up; other objects are indexed in CPython."""
    plain = (int, bool, str, float, type(None))
    if isinstance(obj, (list, tuple)) and type(obj) in (list, tuple) and len(obj) <= 256 and all(type(x) in plain for x in obj):
        items = tuple(obj)
        if index.sort != T.INT:
            raise NotModeled("a non-int index")
        position, in_range = _normalized(index, len(items))
        message = f"{type(obj).__name__} index out of range"
        return split([(T.not_(in_range), _range_error(index, message)), (in_range, _select(items, position) if items else Ok(None))])
    if type(obj) is dict and len(obj) <= 256 and all(type(k) in (int, str) and type(v) in plain for k, v in obj.items()):
        key_kind = T.STR if index.sort == T.STR else T.INT
        cases: list[tuple[Arg, Outcome]] = []
        missing: Arg = True
        for key, value in obj.items():
            if (key_kind == T.STR) != isinstance(key, str):
                continue
            hit = T.eq(index if index.sort != T.BOOL else T.ite(index, 1, 0), key)
            cases.append((hit, Ok(value)))
            missing = T.and_(missing, T.not_(hit))
        if index.sort == T.BOOL:
            raise NotModeled("a bool key")
        cases.append((missing, Throw(ExcVal("KeyError", (index,)))))
        return split(cases)
    raise NotModeled(f"indexing a {type(obj).__name__}")


def setitem(heap: HeapView, obj: object, index: object, value: object) -> Outcome:
    if not isinstance(obj, Ref) or not isinstance(heap.record(obj), ListRec):
        if kind(obj) in ("str", "tuple"):
            return throw("TypeError", f"'{type_name(obj)}' object does not support item assignment")
        raise NotModeled(f"item assignment on a {type_name(obj)}")
    record = heap.record(obj)
    assert isinstance(record, ListRec)
    if _index_value(index) is None:
        raise NotModeled("a list index that is not an int")
    return _list_index(record, index, "list assignment index out of range", lambda position: _store(obj, record, position, value))


def _list_index(record: ListRec, index: object, message: str, at: Callable[[Arg], Outcome]) -> Outcome:
    """Python's checks of a list index (type, then range), with ``at(position)`` in range."""
    idx = _index_value(index)
    if idx is None:
        return throw("TypeError", f"list indices must be integers or slices, not {type_name(index)}")
    position, in_range = _normalized(idx, record.length)  # type: ignore[arg-type]
    if in_range is False or _beyond(position, record):
        return _range_error(idx, message)
    return split([(T.not_(in_range), _range_error(idx, message)), (in_range, at(position))])


def _store(ref: Ref, record: ListRec, position: Arg, value: object) -> Outcome:
    if not isinstance(position, Term):
        p = int(position)  # slicing keeps the other items unread (MultiSE's heap reads cells lazily)
        return Ok(None, ((ref, ListRec(record.length, record.items[:p] + (value,) + record.items[p + 1 :])),))
    mergeable = isinstance(value, (Term, int, str)) and all(isinstance(v, (Term, int, str)) and sort_of(v) == sort_of(value) for v in record.items)
    if mergeable:
        items = tuple(T.ite(T.eq(position, i), value, old) for i, old in enumerate(record.items))  # type: ignore[arg-type]
        return Ok(None, ((ref, ListRec(record.length, items)),))
    return split([(T.eq(position, i), _store(ref, record, i, value)) for i in range(len(record.items))])


def append(ref: Ref, record: ListRec, value: object) -> Outcome:
    if not isinstance(record.length, Term):
        n = concrete_length(record)
        items = record.items[:n] + (value,)
        return Ok(None, ((ref, ListRec(n + 1, items)),))
    grown = ListRec(record.length, record.items + (value,))
    stored = _store(ref, grown, record.length, value)
    if not isinstance(stored, Ok):
        return fix_length(ref, record)
    new_record = stored.writes[0][1]
    assert isinstance(new_record, ListRec)
    return Ok(None, ((ref, ListRec(T.add(record.length, 1), new_record.items)),))


def pop(heap: HeapView, ref: Ref, record: ListRec, index: object) -> Outcome:
    if index is None:
        empty = T.eq(record.length, 0)  # type: ignore[arg-type]
        if isinstance(record.length, Term):
            last = T.sub(record.length, 1)
            value = _select(record.items, last) if record.items else Ok(None)
            if not isinstance(value, Ok):
                return fix_length(ref, record)
            popped = Ok(value.value, ((ref, ListRec(last, record.items)),))
        else:
            n = concrete_length(record)
            popped = Ok(record.items[n - 1] if n else None, ((ref, ListRec(n - 1, record.items[: n - 1])),))
        return split([(empty, throw("IndexError", "pop from empty list")), (T.not_(empty), popped)])
    return with_concrete_length(heap, ref, lambda: _pop_at(heap, ref, index))


def insert(heap: HeapView, ref: Ref, index: object, value: object) -> Outcome | None:
    """``xs.insert(index, value)`` as CPython does it (an index beyond a C ssize_t is an
    OverflowError; a negative index counts from the end, then both are clamped to
    ``0..len(xs)``): one case per place the item can land, on a list
    of known length (a symbolic length is split first). None when ``index`` is not an int or
    bool (CPython's own TypeError, run there)."""
    idx = _index_value(index)
    if idx is None:
        return None

    def known() -> Outcome:
        record = heap.record(ref)
        assert isinstance(record, ListRec)
        n = concrete_length(record)
        where = T.ite(T.lt(idx, 0), T.ite(T.lt(T.add(idx, n), 0), 0, T.add(idx, n)), T.ite(T.lt(n, idx), n, idx))
        # CPython converts the index to a C ssize_t first
        fits = T.and_(T.le(-(2**63), idx), T.lt(idx, 2**63))
        return split(
            [(T.not_(fits), throw("OverflowError", "Python int too large to convert to C ssize_t"))]
            + [(T.and_(fits, T.eq(where, p)), Ok(None, ((ref, ListRec(n + 1, record.items[:p] + (value,) + record.items[p:n])),))) for p in range(n + 1)]
        )

    return with_concrete_length(heap, ref, known)


def delitem(heap: HeapView, obj: object, index: object) -> Outcome:
    """``del obj[index]`` on a list (an int index); str and tuple refuse it."""
    if not isinstance(obj, Ref) or not isinstance(heap.record(obj), ListRec):
        if kind(obj) in ("str", "tuple"):
            # CPython words it by the index: a sequence index, or any other key
            if _index_value(index) is not None:
                return throw("TypeError", f"'{type_name(obj)}' object doesn't support item deletion")
            if kind(index) in ("str", "float", "none", "tuple") or (isinstance(index, Ref) and not isinstance(heap.record(index), ObjRec)):
                return throw("TypeError", f"'{type_name(obj)}' object does not support item deletion")
        raise NotModeled(f"item deletion on a {type_name(obj)}")
    if _index_value(index) is None:
        raise NotModeled("a list index that is not an int")
    return with_concrete_length(heap, obj, lambda: _pop_at(heap, obj, index, deleting=True))


def _pop_at(heap: HeapView, ref: Ref, index: object, deleting: bool = False, fits: bool = False) -> Outcome:
    """``xs.pop(index)`` (the item removed) or ``del xs[index]`` (None, and its messages)."""
    record = heap.record(ref)
    assert isinstance(record, ListRec)
    n = concrete_length(record)
    idx = _index_value(index)
    if idx is None:
        return throw("TypeError", f"'{type_name(index)}' object cannot be interpreted as an integer")
    out_of_range = "list assignment index out of range" if deleting else "pop index out of range"
    if not deleting and not fits:  # pop's argument is converted to a C ssize_t first
        huge = _too_large(idx)
        if huge is not False:
            return split([(huge, throw("OverflowError", "Python int too large to convert to C ssize_t")), (T.not_(huge), _pop_at(heap, ref, index, fits=True))])
    if n == 0:
        return _range_error(idx, out_of_range) if deleting else throw("IndexError", "pop from empty list")
    position, in_range = _normalized(idx, n)
    cases: list[tuple[Arg, Outcome]] = [(T.not_(in_range), _range_error(idx, out_of_range))]
    for i in range(n):
        items = record.items[:i] + record.items[i + 1 : n]
        removed = None if deleting else record.items[i]
        cases.append((T.and_(in_range, T.eq(position, i)), Ok(removed, ((ref, ListRec(n - 1, items)),))))
    return split(cases)


def length(heap: HeapView, obj: object) -> Outcome:
    k = kind(obj)
    if k == "str":
        return Ok(T.str_len(obj))  # type: ignore[arg-type]
    if k == "tuple":
        return Ok(len(obj))  # type: ignore[arg-type]
    if isinstance(obj, Ref):
        record = heap.record(obj)
        if isinstance(record, ListRec):
            return Ok(record.length)
        if isinstance(record, DictRec):
            return Ok(len(record.keys))
        if isinstance(record, SetRec):
            return Ok(len(record.items))
    if isinstance(obj, RangeVal):
        return Ok(range_length(obj))
    raise NotModeled(f"len() of a {type_name(obj)}")


# ---------------------------------------------------------------- iteration


def get_iter(heap: HeapView, obj: object) -> Outcome:
    if isinstance(obj, (RangeIter, SeqIter, RevIter, ZipIter, DictIter, SetIter)):  # an iterator the lowering made (a library model's argument): itself
        return Ok(obj)
    if isinstance(obj, RangeVal):
        return Ok(RangeIter(obj.start, obj.stop, obj.step))
    if isinstance(obj, Ref) and isinstance(heap.record(obj), ListRec):
        return Ok(SeqIter(obj, 0))
    over_dict = dicts.get_iter(heap, obj)
    if over_dict is not None:
        return over_dict
    if kind(obj) in ("str", "tuple"):
        return Ok(SeqIter(obj, 0))
    if isinstance(obj, Ref):
        record = heap.record(obj)
        if isinstance(record, ObjRec) and record.cls == ITERATOR:
            fields = dict(record.fields)
            if fields["looped"]:
                raise RuntimeUnsupported("iterating again over an iterator a for loop took over")
            check_watch(heap, fields.get("watch"))  # type: ignore[arg-type]
            return Ok(SeqIter(_items_left(fields), 0, fields.get("watch")), ((obj, record.with_field("looped", True)),))  # type: ignore[arg-type]
    raise NotModeled(f"iterating over a {type_name(obj)}")


MAX_LOOPED_ITEMS = 100_000


def check_watch(heap: HeapView, watch: Watch | None) -> None:
    """Unsupported once a record a CPython iterator read a copy of has changed: CPython's
    iterator would see the change (a list growing under ``enumerate``), the copy does not."""
    if watch is None:
        return
    for ref, record in watch.records:
        if heap.record(ref) != record:
            raise RuntimeUnsupported("a list, dict, set or object changed while an iterator made in CPython over a copy of it was still in use")


def _items_left(fields: dict[str, object]) -> tuple[object, ...]:
    """What an iterator record has left to yield, for a ``for`` loop over it (its items made
    now: one that raises makes the loop unsupported, since CPython would first run the loop
    body on the items before it)."""
    from pathloom.semantics.concretize import advanced_copy

    try:
        items = tuple(itertools.islice(advanced_copy(fields["source"], fields["pos"]), MAX_LOOPED_ITEMS + 1))  # type: ignore[arg-type, call-overload]
    except RuntimeUnsupported:
        raise
    except Exception as exc:  # noqa: BLE001
        raise RuntimeUnsupported(f"a for loop over an iterator whose items raise {type(exc).__name__}") from None
    if len(items) > MAX_LOOPED_ITEMS:
        raise RuntimeUnsupported(f"a for loop over an iterator of more than {MAX_LOOPED_ITEMS} items")
    return tuple(_plain_or_opaque(x) for x in items)


def _plain_or_opaque(value: object) -> object:
    from pathloom.domain.values import from_runtime

    if type(value) is tuple:
        return tuple(_plain_or_opaque(v) for v in value)
    return from_runtime(value)


def _last_index(heap: HeapView, ref: Ref) -> int:
    """The index of the last item of a list of concrete length."""
    return concrete_length(cast(ListRec, heap.record(ref))) - 1


def get_reverse_iter(heap: HeapView, obj: object) -> Outcome:
    """``iter(reversed(obj))`` for a list, str, tuple or range; other objects: CPython's."""
    if isinstance(obj, Ref) and isinstance(heap.record(obj), ListRec):
        return with_concrete_length(heap, obj, lambda: Ok(RevIter(obj, _last_index(heap, obj))))
    if isinstance(obj, (tuple, str)):
        return Ok(SeqIter(obj[::-1], 0))
    if kind(obj) == "str":
        return Ok(RevIter(obj, T.sub(T.str_len(obj), 1)))  # type: ignore[arg-type]
    if isinstance(obj, RangeVal):
        last = T.add(obj.start, T.mul(T.sub(range_length(obj), 1), obj.step))  # type: ignore[arg-type]
        return Ok(RangeIter(last, T.sub(obj.start, obj.step), -obj.step))  # type: ignore[arg-type]
    raise NotModeled(f"reversed() of a {type_name(obj)}")


def get_zip_iter(heap: HeapView, iterables: tuple[object, ...]) -> Outcome:
    """``iter(zip(*iterables))`` when each is a list, str, tuple or range (``iter()`` of each
    in turn, as zip does); other objects: CPython's zip."""
    iters: list[object] = []
    writes: list[tuple[Ref, ObjRec]] = []
    for iterable in iterables:
        record = heap.record(iterable) if isinstance(iterable, Ref) else None
        if isinstance(record, ObjRec) and record.cls == ITERATOR and not any(ref == iterable for ref, _ in writes):
            fields = dict(record.fields)
            if fields["looped"]:
                raise RuntimeUnsupported("iterating again over an iterator a for loop took over")
            check_watch(heap, fields.get("watch"))  # type: ignore[arg-type]
            iters.append(DrawIter(fields["source"], fields["pos"], fields.get("watch")))  # type: ignore[arg-type]
            writes.append((iterable, record.with_field("looped", True)))  # type: ignore[arg-type]
            continue
        if isinstance(iterable, PyObj) and type(iterable.obj) in (list, tuple) and len(iterable.obj) <= MAX_LOOPED_ITEMS:  # type: ignore[arg-type]
            # a module-level list: no path changes it (an operation that would is unsupported)
            iters.append(SeqIter(tuple(_plain_or_opaque(x) for x in iterable.obj), 0))  # type: ignore[attr-defined]
            continue
        if not (isinstance(iterable, (tuple, RangeVal)) or kind(iterable) == "str" or isinstance(record, ListRec)):
            raise NotModeled(f"zip() of a {type_name(iterable)}")
        got = get_iter(heap, iterable)
        assert isinstance(got, Ok) and not got.writes
        iters.append(got.value)
    return Ok(ZipIter(tuple(iters)), tuple(writes))


def _next_zipped(heap: HeapView, it: ZipIter) -> list[tuple[Arg, object | None, object]]:
    """Each iterator advanced in turn; the first one exhausted ends the zip."""
    going: list[tuple[Arg, tuple[object, ...], tuple[object, ...]]] = [(True, (), ())]
    ended: list[Arg] = []
    for inner in it.iters:
        following = []
        for cond, advanced, items in going:
            for case, after, item in next_item(heap, inner):
                both = T.and_(cond, case)
                if both is False:
                    continue
                if after is None:
                    ended.append(both)
                else:
                    following.append((both, advanced + (after,), items + (item,)))
        going = following
    cases: list[tuple[Arg, object | None, object]] = [(cond, ZipIter(advanced), items) for cond, advanced, items in going]
    if ended:
        stop: Arg = False
        for cond in ended:
            stop = T.or_(stop, cond)
        cases.append((stop, None, None))
    return cases


def _next_drawn(it: DrawIter) -> list[tuple[Arg, object | None, object]]:
    """The next item of a CPython iterator, drawn now; one that raises is unsupported (the
    loop would have run its body on the items before it)."""
    from pathloom.semantics.concretize import advanced_copy

    try:
        item = next(advanced_copy(it.source, it.pos))  # type: ignore[arg-type, call-overload]
    except StopIteration:
        return [(True, None, None)]
    except RuntimeUnsupported:
        raise
    except Exception as exc:  # noqa: BLE001
        raise RuntimeUnsupported(f"a zip loop over an iterator whose items raise {type(exc).__name__}") from None
    return [(True, DrawIter(it.source, it.pos + 1, it.watch), _plain_or_opaque(item))]


def _next_reversed(heap: HeapView, it: RevIter) -> list[tuple[Arg, object | None, object]]:
    index = it.index
    if isinstance(it.seq, Ref):
        record = heap.record(it.seq)
        assert isinstance(record, ListRec) and isinstance(index, int)
        if index < 0:
            return [(True, None, None)]
        more = T.lt(index, record.length)  # type: ignore[arg-type]
        item = record.items[index] if index < len(record.items) else None
    else:
        more = T.and_(T.le(0, index), T.lt(index, T.str_len(it.seq)))  # type: ignore[arg-type]
        item = T.char_at(it.seq, index)  # type: ignore[arg-type]
    return [(more, RevIter(it.seq, T.sub(index, 1)), item), (T.not_(more), None, None)]  # type: ignore[arg-type]


def items_left(list_length: Callable[[Ref], object], it: object) -> int | None:
    """How many more items ``it`` yields, when that is a known number (a tuple, a concrete str,
    a list of concrete length, a range of int bounds, or a zip of such): a loop over it ends by
    itself, so the loop bound need not cut it. None when the count depends on the inputs, or for
    iterators whose length the model does not track. ``list_length`` gives a list's current
    length (an int, or a term when symbolic)."""
    if isinstance(it, SeqIter):
        seq = it.seq
        if isinstance(seq, (tuple, str)):
            return max(0, len(seq) - it.index)
        if isinstance(seq, Ref):
            size = list_length(seq)
            return max(0, size - it.index) if type(size) is int else None
        return None
    if isinstance(it, RevIter):
        return it.index + 1 if type(it.index) is int and it.index >= -1 else None
    if isinstance(it, RangeIter):
        if type(it.current) is int and type(it.stop) is int:
            return max(0, -((it.current - it.stop) // it.step))  # ceil((stop - current) / step)
        return None
    if isinstance(it, ZipIter):
        known = [n for n in (items_left(list_length, i) for i in it.iters) if n is not None]
        return min(known) if known else None
    return None


def next_item(heap: HeapView, it: object) -> list[tuple[Arg, object | None, object]]:
    """Cases of advancing an iterator: (condition, new iterator or None when exhausted, item)."""
    if isinstance(it, RevIter):
        return _next_reversed(heap, it)
    if isinstance(it, ZipIter):
        return _next_zipped(heap, it)
    if isinstance(it, DrawIter):
        check_watch(heap, it.watch)
        return _next_drawn(it)
    if isinstance(it, RangeIter):
        current = as_int(it.current)
        more = T.lt(current, as_int(it.stop)) if it.step > 0 else T.lt(as_int(it.stop), current)
        advanced = RangeIter(T.add(current, it.step), it.stop, it.step)
        return [(more, advanced, current), (T.not_(more), None, None)]
    if isinstance(it, DictIter):
        after, taken = dicts.next_item(heap, it)
        return [(True, after, taken)]
    if isinstance(it, SetIter):
        following, item = sets.next_item(heap, it)
        return [(True, following, item)]
    assert isinstance(it, SeqIter)
    check_watch(heap, it.watch)
    seq = it.seq
    if isinstance(seq, Ref):
        record = heap.record(seq)
        assert isinstance(record, ListRec)
        size: Arg = record.length  # type: ignore[assignment]
        item = record.items[it.index] if it.index < len(record.items) else None
    elif isinstance(seq, tuple):
        size = len(seq)
        item = seq[it.index] if it.index < len(seq) else None
    else:
        size = T.str_len(seq)  # type: ignore[arg-type]
        item = T.char_at(seq, it.index) if not isinstance(seq, str) or it.index < len(seq) else None  # type: ignore[arg-type]
    more = T.lt(it.index, size)
    return [(more, SeqIter(seq, it.index + 1, it.watch), item), (T.not_(more), None, None)]


def unpack(heap: HeapView, value: object, count: int, star: int | None = None) -> Outcome:
    """The items of ``value`` as a tuple of ``count`` values, or the ValueError Python raises;
    with ``star``, the value at that index is a new list of the items the others leave."""
    if isinstance(value, tuple):
        items = value
    elif isinstance(value, Ref) and isinstance(heap.record(value), ListRec):
        record = heap.record(value)
        assert isinstance(record, ListRec)
        if isinstance(record.length, Term):
            return with_concrete_length(heap, value, lambda: unpack(heap, value, count, star))
        items = record.items[: concrete_length(record)]
    elif isinstance(value, str):
        items = tuple(value)
    else:
        raise NotModeled(f"unpacking a {type_name(value)}")
    problem = unpack_problem(len(items), count, star)
    if problem is not None:
        return throw("ValueError", problem)
    if star is None:
        return Ok(tuple(items))
    before, rest, after = split_starred(tuple(items), count, star)
    ref = heap.fresh()
    return Ok((*before, ref, *after), ((ref, ListRec(len(rest), rest)),))


def split_starred(items: tuple[object, ...], count: int, star: int) -> tuple[tuple[object, ...], tuple[object, ...], tuple[object, ...]]:
    """The items before the starred target at index ``star`` of ``count`` targets, the items
    the starred one takes, and the items after it (``unpack_problem`` found they fit)."""
    end = len(items) - (count - 1 - star)
    return items[:star], items[star:end], items[end:]


def unpack_problem(got: int, count: int, star: int | None) -> str | None:
    """CPython's ValueError message for unpacking ``got`` items into ``count`` targets (one of
    them starred at index ``star``), or None when they fit."""
    if star is not None:
        return None if got >= count - 1 else f"not enough values to unpack (expected at least {count - 1}, got {got})"
    if got < count:
        return f"not enough values to unpack (expected {count}, got {got})"
    if got > count:
        return f"too many values to unpack (expected {count})"
    return None

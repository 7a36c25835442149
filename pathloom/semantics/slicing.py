"""Slice reads ``obj[start:stop:step]`` of lists, strs and tuples, with CPython's meaning.

CPython (``PySlice_Unpack``, then ``PySlice_AdjustIndices``) checks the step first (an int,
else TypeError; zero is ValueError ``slice step cannot be zero``), then the start and the
stop (None or an int; bools are ints; anything else without ``__index__`` is TypeError
``slice indices must be integers or None or have an __index__ method``). It then clamps the
bounds into the sequence: a negative bound counts from the end; a bound still outside is the
nearest end (``-1`` and ``len - 1`` for a negative step, ``0`` and ``len`` otherwise); a None
bound is the end the step walks from, or to. The slice takes ``count`` items, at ``first``,
``first + step``, ... CPython clamps huge bounds to the machine's index range first, which
changes nothing here: arithmetic on terms is on unbounded ints, and no sequence is that long.

That arithmetic is written once, over terms (``span``): the length, the bounds and the step
may each be symbolic (the step's sign then selects with an if-then-else). The count is
``ceil(distance / |step|)`` for a concrete step, and for a symbolic step a sum over the
positions the sequence can have (linear, where a division by the step would not be).

- **str**: a step of 1 is one ``substr`` term, whatever the length. Another step is the
  concatenation, over the positions a slice of a str of its length can take, of
  ``s[first + k * step]`` while ``k < count``; the length is bounded by the str's make-up
  (a literal, characters, concatenations of bounded parts) or by ``STR_CAP``: a longer str
  with a step other than 1 is a cut path (reported; the input domain's strs are shorter).
- **list** (``ListRec``): a new list (a fresh heap record; the original is unchanged) whose
  length is ``count`` and whose items are picked at the positions: the item itself at a
  concrete position, an if-then-else over the items at a symbolic one. Its capacity is the
  number of positions the slice can take from the original's capacity, which bounds the
  count, so ``ListRec``'s invariant holds.
- **tuple**: a tuple, whose length must be concrete: a split over the count's values.
- an int, bool, float or None, a function, a real object whose type has no ``__getitem__``:
  CPython's TypeError (``'int' object is not subscriptable``), whatever the bounds. So is a
  bound that cannot have ``__index__`` (a range, a function, a class, a real object whose
  type has none).

Items that an if-then-else cannot merge (objects, values of several sorts) at symbolic
positions: a split over the step's values (those beyond the length act alike), then over
the first position's. Anything else sliced (a range, a real object, an instance) and a
bound that may have ``__index__`` (an instance) raise ``NotModeled``: ``semantics.step`` runs
the slice in CPython on pinned values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from pathloom.semantics.heapview import HeapView
from pathloom.semantics.ops import as_int, concrete_outcome, fix_length, is_list, is_plain, kind
from pathloom.domain.outcome import Cut, NotModeled, Ok, Outcome, split, throw
from pathloom.semantics.sequences import merged_item
from pathloom.domain.values import (
    BoundMethod,
    BuiltinVal,
    ClassVal,
    FuncVal,
    ListRec,
    PyObj,
    RangeVal,
    Ref,
    SliceVal,
    concrete_length,
    type_name,
)
from pathloom.terms import expr as T
from pathloom.terms.expr import STR, Arg, Term, postorder

STR_CAP = 16  # the longest str sliced symbolically with a step other than 1
BOUND_TYPE_ERROR = "slice indices must be integers or None or have an __index__ method"

Bounds = Callable[["Arg | None", "Arg | None", Arg], Outcome]


@dataclass(frozen=True)
class Span:
    """The positions a slice takes: ``first + k * step`` for ``0 <= k < count``; ``last``
    is the clamped stop, which the positions never reach."""

    first: Arg
    last: Arg
    step: Arg
    count: Arg

    def at(self, k: int) -> Arg:
        return T.add(self.first, T.mul(k, self.step))

    def starting_at(self, first: int) -> Span:
        return Span(first, self.last, self.step, self.count)

    def stepping(self, step: int) -> Span:
        return Span(self.first, self.last, step, self.count)


def span(length: Arg, capacity: int, start: Arg | None, stop: Arg | None, step: Arg) -> Span:
    """What ``[start:stop:step]`` takes from a sequence of ``length`` items (at most
    ``capacity``), for a nonzero step."""
    down = T.lt(step, 0)
    first = _clamped(start, length, down, T.ite(down, T.sub(length, 1), 0))
    last = _clamped(stop, length, down, T.ite(down, -1, length))
    if _empty(start, stop, step):
        return Span(first, last, step, 0)
    return Span(first, last, step, _count(first, last, step, down, capacity))


def _empty(start: Arg | None, stop: Arg | None, step: Arg) -> bool:
    """Whether the slice takes nothing from a sequence of any length: concrete bounds of one
    sign that the step does not go from the start towards (``xs[4:0]``, ``xs[-1:-3]``,
    ``xs[0:2:-1]``); clamping a bound to the sequence keeps the order of bounds of one sign."""
    if not (type(start) is int and type(stop) is int and type(step) is int):
        return False
    if (start < 0) != (stop < 0):
        return False
    return stop <= start if step > 0 else start <= stop


def _clamped(bound: Arg | None, length: Arg, down: Arg, default: Arg) -> Arg:
    if bound is None:
        return default
    wrapped = T.add(bound, length)
    below = T.ite(T.lt(wrapped, 0), T.ite(down, -1, 0), wrapped)
    above = T.ite(T.le(length, bound), T.ite(down, T.sub(length, 1), length), bound)
    return T.ite(T.lt(bound, 0), below, above)


def _count(first: Arg, last: Arg, step: Arg, down: Arg, capacity: int) -> Arg:
    if not isinstance(step, Term):
        size = abs(int(step))
        distance = T.sub(last, first) if int(step) > 0 else T.sub(first, last)
        return T.ite(T.lt(0, distance), T.floordiv(T.add(distance, size - 1), size), 0)
    count: Arg = 0
    for k in range(capacity):
        position = T.add(first, T.mul(k, step))
        inside = T.ite(down, T.lt(last, position), T.lt(position, last))
        count = T.add(count, T.ite(inside, 1, 0))
    return count


def slots(capacity: int, step: Arg) -> int:
    """How many items a slice can take from a sequence of at most ``capacity`` items."""
    if isinstance(step, Term):
        return capacity
    return -(-capacity // abs(int(step)))


# ---------------------------------------------------------------- the instruction


def getslice(heap: HeapView, obj: object, start: object, stop: object, step: object) -> Outcome:
    """``obj[start:stop:step]``."""
    k = kind(obj)
    if k in ("str", "tuple") and is_plain(obj) and is_plain((start, stop, step)):
        return concrete_outcome(lambda: obj[start:stop:step])  # type: ignore[index]
    if is_list(heap, obj):
        return _checked(heap, start, stop, step, lambda a, b, c: _list_slice(heap, obj, a, b, c))  # type: ignore[arg-type]
    if k == "str":
        return _checked(heap, start, stop, step, lambda a, b, c: _str_slice(obj, a, b, c))  # type: ignore[arg-type]
    if k == "tuple":
        return _checked(heap, start, stop, step, lambda a, b, c: _tuple_slice(obj, a, b, c))  # type: ignore[arg-type]
    if k in ("int", "bool", "float", "none") or isinstance(obj, FuncVal) or _real_without(obj, "__getitem__"):
        return throw("TypeError", f"'{type_name(obj)}' object is not subscriptable")
    raise NotModeled(f"slicing a {type_name(obj)}")


def _real_without(value: object, method: str) -> bool:
    """A real object (not a class) whose type has no ``method``: CPython's answer does not
    depend on its state."""
    return isinstance(value, PyObj) and not isinstance(value.obj, type) and not hasattr(type(value.obj), method)


_WRONG_TYPE = object()  # a bound CPython rejects with BOUND_TYPE_ERROR


def _bound(heap: HeapView, value: object) -> object:
    """A bound as an integer, None for None, or ``_WRONG_TYPE``."""
    if value is None:
        return None
    k = kind(value)
    if k in ("int", "bool"):
        return as_int(value)
    if k in ("str", "float", "tuple") or is_list(heap, value) or _real_without(value, "__index__"):
        return _WRONG_TYPE
    if isinstance(value, (RangeVal, FuncVal, BuiltinVal, BoundMethod, ClassVal)):
        return _WRONG_TYPE  # none of these has __index__ (analysed classes have no metaclass)
    raise NotModeled(f"a slice bound of type {type_name(value)} (it may have __index__)")


def _checked(heap: HeapView, start: object, stop: object, step: object, then: Bounds) -> Outcome:
    """CPython's checks of the bounds, in its order, then ``then(start, stop, step)`` with
    ints (None for an omitted start or stop) and a nonzero step."""
    step_, start_, stop_ = (_bound(heap, v) for v in (step, start, stop))
    wrong = throw("TypeError", BOUND_TYPE_ERROR)
    if step_ is _WRONG_TYPE:
        return wrong
    step_value: Arg = 1 if step_ is None else step_  # type: ignore[assignment]
    zero = T.eq(step_value, 0)
    if zero is True:
        return throw("ValueError", "slice step cannot be zero")
    valid = start_ is not _WRONG_TYPE and stop_ is not _WRONG_TYPE
    rest = then(start_, stop_, step_value) if valid else wrong  # type: ignore[arg-type]
    return split([(zero, throw("ValueError", "slice step cannot be zero")), (T.not_(zero), rest)])


# ---------------------------------------------------------------- per kind


def _str_slice(s: Arg, start: Arg | None, stop: Arg | None, step: Arg) -> Outcome:
    length = T.str_len(s)
    if not isinstance(step, Term) and step == 1:
        where = span(length, 0, start, stop, 1)
        return Ok(T.substr(s, where.first, T.sub(where.last, where.first)))
    made_of = str_capacity(s)
    if made_of is not None and (made_of <= STR_CAP or not isinstance(s, Term)):
        return Ok(_every_step(s, made_of, start, stop, step))
    fits = T.le(length, STR_CAP)
    too_long = Cut(f"str slicing with a step other than 1 on a str longer than {STR_CAP} characters")
    return split([(fits, Ok(_every_step(s, STR_CAP, start, stop, step))), (T.not_(fits), too_long)])


def _every_step(s: Arg, capacity: int, start: Arg | None, stop: Arg | None, step: Arg) -> Arg:
    """``s[start:stop:step]`` for a str of at most ``capacity`` characters, char by char:
    with concrete bounds, an if-then-else over the str's lengths, each of which fixes every
    position (Z3 solves ``s[::-1] == s`` for up to 6 characters in 0.05 s this way, 0.5 s
    with symbolic positions); else at symbolic positions."""
    if isinstance(s, Term) and not any(isinstance(b, Term) for b in (start, stop, step)):
        text: Arg = ""
        for n in range(capacity, -1, -1):
            text = T.ite(T.eq(T.str_len(s), n), _chars(s, n, n, start, stop, step), text)
        return text
    return _chars(s, T.str_len(s), capacity, start, stop, step)


def _chars(s: Arg, length: Arg, capacity: int, start: Arg | None, stop: Arg | None, step: Arg) -> Arg:
    where = span(length, capacity, start, stop, step)
    text: Arg = ""
    for k in range(slots(capacity, step)):
        live = T.lt(k, where.count)
        if live is not False:
            text = T.concat(text, T.ite(live, _char(s, where.at(k)), ""))
    return text


def _char(s: Arg, position: Arg) -> Arg:
    """``s[position]``; the empty string at a concrete position outside a concrete ``s`` (as
    ``at`` gives outside a symbolic one; such positions are never live)."""
    if isinstance(s, str) and not isinstance(position, Term) and not 0 <= int(position) < len(s):
        return ""
    return T.char_at(s, position)


def str_capacity(s: Arg) -> int | None:
    """A bound of the length of ``s`` from what it is made of, or None."""
    if not isinstance(s, Term):
        return len(str(s))
    found: dict[Term, int | None] = {}

    def of(part: Arg) -> int | None:
        return found.get(part) if isinstance(part, Term) else len(str(part))

    for t in postorder(s):  # iterative: concatenations in a loop make deep terms
        if t.sort != STR:
            continue
        if t.op in ("at", "from_code"):
            found[t] = 1
        elif t.op == "substr":
            found[t] = of(t.args[0])
        elif t.op in ("concat", "ite"):
            parts = [of(a) for a in t.args[-2:]]
            known = [p for p in parts if p is not None]
            found[t] = None if len(known) < 2 else (sum(known) if t.op == "concat" else max(known))
        else:
            found[t] = None
    return found[s]


def _live_items(heap: HeapView, ref: Ref) -> tuple[object, ...]:
    """The items of a list of concrete length."""
    record = cast(ListRec, heap.record(ref))
    return record.items[: concrete_length(record)]


def setslice(heap: HeapView, obj: object, where: SliceVal, value: object) -> Outcome:
    """``obj[start:stop] = value`` (``list_ass_slice``): the items of ``value`` (a list, which
    may be ``obj`` itself, or a tuple) replace the clamped slice (a stop below the start is the
    start), one case per pair of places on a list of known length. A str or tuple is
    CPython's TypeError; a step other than 1, other values and other objects: ``NotModeled``
    (CPython, on pinned values)."""
    if kind(obj) in ("str", "tuple"):
        return throw("TypeError", f"'{kind(obj)}' object does not support item assignment")
    if not (is_list(heap, obj) and (where.step is None or (type(where.step) is int and where.step == 1))):
        raise NotModeled("a slice assignment other than of a list with a step of 1")
    if not (isinstance(value, tuple) or is_list(heap, value)):
        raise NotModeled(f"assigning a {type_name(value)} to a slice")
    assert isinstance(obj, Ref)
    for ref in (obj, value):
        if isinstance(ref, Ref) and isinstance(heap.record(ref).length, Term):  # type: ignore[union-attr]
            return fix_length(ref, heap.record(ref))  # type: ignore[arg-type]

    def replaced(start: Arg | None, stop: Arg | None, step: Arg) -> Outcome:
        record = heap.record(obj)
        assert isinstance(record, ListRec)
        n = concrete_length(record)
        new = value if isinstance(value, tuple) else _live_items(heap, cast(Ref, value))
        taken = span(n, n, start, stop, 1)
        low, high = taken.first, T.add(taken.first, taken.count)
        cases: list[tuple[Arg, Outcome]] = []
        for lo in range(n + 1):
            for hi in range(lo, n + 1):
                items = record.items[:lo] + tuple(new) + record.items[hi:n]
                cases.append((T.and_(T.eq(low, lo), T.eq(high, hi)), Ok(None, ((obj, ListRec(len(items), items)),))))
        return split(cases)

    return _checked(heap, where.start, where.stop, where.step, replaced)


def _list_slice(heap: HeapView, ref: Ref, start: Arg | None, stop: Arg | None, step: Arg) -> Outcome:
    record = heap.record(ref)
    assert isinstance(record, ListRec)
    capacity = len(record.items)
    where = span(record.length, capacity, start, stop, step)  # type: ignore[arg-type]

    def new_list(items: Sequence[object]) -> Outcome:
        fresh = heap.fresh()
        return Ok(fresh, ((fresh, ListRec(where.count, items)),))  # type: ignore[arg-type]

    return _picked(record.items, where, slots(capacity, step), new_list)


def _tuple_slice(items: tuple[object, ...], start: Arg | None, stop: Arg | None, step: Arg) -> Outcome:
    n = len(items)
    where = span(n, n, start, stop, step)

    def new_tuple(picked: Sequence[object]) -> Outcome:
        if not isinstance(where.count, Term):
            return Ok(tuple(picked[: int(where.count)]))
        return split([(T.eq(where.count, c), Ok(tuple(picked[:c]))) for c in range(len(picked) + 1)])

    return _picked(items, where, slots(n, step), new_tuple)


def _picked(items: Sequence[object], where: Span, count: int, then: Callable[[Sequence[object]], Outcome]) -> Outcome:
    """``then(picked)``, ``picked`` the items at the first ``count`` positions of ``where``
    (positions past the items, never live, hold None)."""
    if type(where.count) is int and where.count == 0:
        return then(items[0:0])
    positions = [where.at(k) for k in range(count)]
    fixed = [int(p) for p in positions if not isinstance(p, Term)]
    if len(fixed) == len(positions):
        return then(_take(items, fixed))
    merged = [merged_item(items, p) for p in positions]
    if all(m is not None for m in merged):
        return then(tuple(merged))
    if isinstance(where.step, Term):
        steps = _step_cases(where.step, len(items))
        return split([(case, _picked(items, where.stepping(step), count, then)) for case, step in steps])
    cases = [(T.eq(where.first, a), _picked(items, where.starting_at(a), count, then)) for a in range(-1, len(items) + 1)]
    return split(cases)


def _take(items: Sequence[object], positions: list[int]) -> Sequence[object]:
    """The items at concrete positions (None past the items: such positions are never live),
    joined from slices of ``items``, so that the cells of MultiSE's lazily read records
    stay unread."""
    taken = items[0:0]
    for p in positions:
        taken = taken + (items[p : p + 1] if 0 <= p < len(items) else (None,))  # type: ignore[operator]
    return taken


def _step_cases(step: Term, n: int) -> list[tuple[Arg, int]]:
    """The nonzero values of a symbolic step over ``n`` items, as (condition, concrete step):
    a step beyond ``n`` either way takes at most the first position's item, as ``n + 1``
    (or ``-n - 1``) does."""
    cases = [(T.lt(step, -n), -n - 1), (T.lt(n, step), n + 1)]
    return cases + [(T.eq(step, value), value) for value in range(-n, n + 1) if value != 0]

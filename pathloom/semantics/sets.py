"""Sets: displays, comprehensions, ``set()``, ``in``, ``len``, truth, the operators and the
common methods, symbolic; iteration where CPython's order is known.

A set is a ``SetRec`` in the heap (immutable: a change replaces it). Invariant, on every path
that holds a record: the number of items is concrete and the items are pairwise different
under Python's key equality (``ops.equal``, as a dict's keys, ``semantics.dicts``), each the
object CPython keeps (adding an item equal to one present keeps the present one: ``{1, True}``
is ``{1}``). So ``x in s`` is one disjunction of equalities, and ``s.add(x)`` splits into
"present" (the set unchanged) and "new" (one item more); ``discard``/``remove`` split on which
item is equal, or none. The operators and methods that make or change sets are these steps
over the operands' items, in the order CPython takes them (``a & b`` walks the smaller set and
keeps its objects, the right one on a tie; ``a | b`` copies ``a`` then adds ``b``'s items).

Iteration order. The items' order in the record is the model's, not CPython's: CPython's
order is the order of its hash table, which depends on the items' hashes and on the whole
history of the set (insertions, removals leaving dummies, resizes, copies). The record keeps
that history (``SetHistory``: every operation, with its operands as values or terms), and the
order is obtained by replaying it on real sets in CPython, which is exact by construction
when every value the history holds has a hash that is the same in every process (ints,
bools, floats and tuples of these; not strs, whose hash is salted per process, nor None,
hashed by address before Python 3.12). So:

- a set of at most one item: its items, whatever they are;
- a history of concrete ints, bools, floats and tuples of these: replayed, no pinning, exact;
- a set made only by adding (``set(xs)``, ``add``, a display or comprehension of terms) of at
  most ``MAX_SORTED`` ints: where every item is in ``range(table_size(n))``, ascending (each
  int is its own hash and sits at its own slot), symbolic; elsewhere as the next case;
- a history holding Int or Bool terms: the iteration runs in CPython on the history replayed
  under models of the path (``concretize``: the terms are pinned, at most
  ``--max-concretizations`` values, then a reported ``concretized`` cut);
- a history holding strs or None (concrete or not): unsupported, never guessed;
- a display of more than two constants may be, in CPython, ``set().update(frozenset
  constant)``, whose table depends on whether the module was compiled afresh or loaded from a
  ``.pyc`` (marshal sorts a frozenset's items): replayed the three ways, unsupported where
  their orders differ.

What does not depend on the order is symbolic whatever the items: ``in``, ``len``, truth,
``==``, ``<=``/``<``/``>=``/``>`` (subset tests), ``|``, ``&``, ``-``, ``^`` and their in-place
forms, ``add``, ``discard``, ``remove``, ``clear``, ``copy``, ``update``, ``union``,
``intersection``, ``difference``, ``symmetric_difference``, ``issubset``, ``issuperset``,
``isdisjoint``, and ``sorted``, ``sum``, ``min``, ``max``, ``any``, ``all`` of a set whose items
are all ints and bools (or all strs, for ``sorted``, ``min``, ``max``, ``any``, ``all``): these
see the items as a list in the model's order, which gives CPython's answer because it cannot
depend on the order (distinct items of one kind have no ties, and no comparison between
items can raise). A set passed to any other operation run in CPython (``str(s)``, ``list(s)``,
``s.pop()`` with symbolic items...) is the history replayed under the pinned model, so its
order is CPython's; one holding strs or None is unsupported there. An operation run in CPython
that changes a set is unsupported. Items outside the dict model's keys (instances with their
``__hash__``, NaN) run the operation in CPython; a list, dict or set item is CPython's
``TypeError: unhashable type``. A real set or frozenset of plain values (a module
constant) is an operand like a modelled set (kept, unchanged, in the history). One operation
makes at most ``MAX_CASES`` cases of "this item is new or not"; beyond, it runs in CPython.
Departure: frozensets are not modelled (CPython's own).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import TYPE_CHECKING

from pathloom.semantics import dicts
from pathloom.semantics.heapview import HeapView
from pathloom.domain.outcome import (
    NotModeled,
    Ok,
    Outcome,
    RuntimeUnsupported,
    Throw,
    map_ok,
    split,
    throw,
)
from pathloom.semantics.set_order import (
    DISPLAY_PROBLEM,
    concrete_history,
    history_values,
    known_order,
    order_problem,
    small_ints_in_order,
)
from pathloom.domain.values import (
    BuiltinVal,
    DictRec,
    ExcVal,
    Items,
    ListRec,
    PyObj,
    RangeVal,
    Ref,
    SetHistory,
    SetIter,
    SetRec,
    concrete_length,
    type_name,
)
from pathloom.terms import expr as T
from pathloom.terms.expr import Arg, Term

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

Cases = list[tuple[Arg, tuple[object, ...]]]

NEW = SetHistory("new", None, ())


def record_of(heap: HeapView, value: object) -> SetRec | None:
    if isinstance(value, Ref):
        record = heap.record(value)
        if isinstance(record, SetRec):
            return record
    return None


def _any(conditions: list[Arg]) -> Arg:
    found: Arg = False
    for c in conditions:
        found = T.or_(found, c)
    return found


def _present(heap: HeapView, items: tuple[object, ...], x: object) -> list[Arg]:
    return [dicts.same_key(heap, x, y) for y in items]


MAX_CASES = 1024  # most cases of one set operation (each symbolic item may be new or not)


def _added(heap: HeapView, cases: Cases, values: tuple[object, ...]) -> Cases:
    """The item tuples after adding ``values`` one by one to each case."""
    for x in values:
        grown: Cases = []
        for cond, items in cases:
            present = _any(_present(heap, items, x))
            grown.append((T.and_(cond, present), items))
            grown.append((T.and_(cond, T.not_(present)), items + (x,)))
        cases = _bounded([(c, items) for c, items in grown if c is not False])
    return cases


def _bounded(cases: Cases) -> Cases:
    if len(cases) > MAX_CASES:
        raise NotModeled(f"a set operation with more than {MAX_CASES} cases of equal items")  # run in CPython
    return cases


def _kept(heap: HeapView, items: tuple[object, ...], other: tuple[object, ...], keep_if_in: bool) -> Cases:
    """The cases of the items of ``items`` that are (or are not) in ``other``, in order."""
    cases: Cases = [(True, ())]
    for x in items:
        inside = _any(_present(heap, other, x))
        wanted = inside if keep_if_in else T.not_(inside)
        grown: Cases = []
        for cond, kept in cases:
            grown.append((T.and_(cond, wanted), kept + (x,)))
            grown.append((T.and_(cond, T.not_(wanted)), kept))
        cases = _bounded([(c, k) for c, k in grown if c is not False])
    return cases


def _stored(ref: Ref, cases: Cases, history: SetHistory, result: object = None) -> Outcome:
    """``ref`` holding each case's items (one history for all: it is the operations done);
    the value is ``result``."""
    return split([(c, Ok(result, ((ref, SetRec(items, history)),))) for c, items in cases])


def _new(heap: HeapView, cases: Cases, history: SetHistory) -> Outcome:
    fresh = heap.fresh()
    return _stored(fresh, cases, history, fresh)


def _first_unhashable(heap: HeapView, values: tuple[object, ...]) -> Throw | None:
    for x in values:
        problem = dicts.unhashable(heap, x)
        if problem is not None:
            return problem
    return None


# ---------------------------------------------------------------- making sets


def build(heap: HeapView, values: tuple[object, ...], foldable: bool = False) -> Outcome:
    """A set display ``{a, b, ...}``: a new set, the values added left to right (a
    ``foldable`` one may be CPython's ``set().update(frozenset constant)``: see ``replay``)."""
    problem = _first_unhashable(heap, values)
    if problem is not None:
        return problem
    if foldable:
        history = SetHistory("display", None, (Items(values),))
    else:
        history = NEW
        for x in values:
            history = SetHistory("add", history, (x,))
    return _new(heap, _added(heap, [(True, ())], values), history)


def _operand_items(heap: HeapView, value: object) -> tuple[tuple[object, ...], object] | None:
    """The items a set operation takes from an iterable (a list of concrete length, a tuple,
    a concrete str, a set, a range of concrete bounds, a real list or tuple of plain values
    such as a module constant) and its replay form (``SetHistory`` or ``Items``); None for
    others."""
    from pathloom.semantics.ops import is_plain

    record = record_of(heap, value)
    if record is not None:
        return record.items, record.history
    in_real_set = real_set(value)
    if in_real_set is not None:
        return in_real_set, value
    if isinstance(value, PyObj) and isinstance(value.obj, (list, tuple)) and type(value.obj) in (list, tuple):
        real: tuple[object, ...] = tuple(value.obj)
        if len(real) > MAX_REAL_ITEMS or not all(is_plain(v) for v in real):
            return None
        value = real
    if isinstance(value, RangeVal) and isinstance(value.start, int) and isinstance(value.stop, int):
        span = range(value.start, value.stop, value.step)
        if len(span) > MAX_REAL_ITEMS:
            return None
        value = tuple(span)
    if isinstance(value, tuple):
        return value, Items(value)
    if isinstance(value, str):
        return tuple(value), Items(tuple(value))
    if isinstance(value, Ref):
        listed = heap.record(value)
        if isinstance(listed, ListRec) and not isinstance(listed.length, Term):
            items = listed.items[: concrete_length(listed)]
            return items, Items(items)
    return None


MAX_REAL_ITEMS = 1000  # most items taken from a real list or a range (more: run in CPython)


def _with_operands(heap: HeapView, values: tuple[object, ...], then: Callable[[list[tuple[tuple[object, ...], object]]], Outcome]) -> Outcome:
    """``then`` on the operands' items, a list whose length is symbolic split on it first."""
    from pathloom.semantics.ops import with_concrete_length

    operands: list[tuple[tuple[object, ...], object]] = []
    for value in values:
        got = _operand_items(heap, value)
        if got is None:
            if isinstance(value, Ref) and isinstance(heap.record(value), ListRec):
                return with_concrete_length(heap, value, lambda: _with_operands(heap, values, then))
            raise NotModeled(f"a set operation on a {type_name(value)}")
        operands.append(got)
    return then(operands)


def from_iterable(heap: HeapView, value: object) -> Outcome:
    """``set(value)``: a copy of a set, or the items of a list, tuple or str added in order."""
    record = record_of(heap, value)
    if record is not None:
        return _new(heap, [(True, record.items)], SetHistory("copy", record.history, ()))

    def made(operands: list[tuple[tuple[object, ...], object]]) -> Outcome:
        items, form = operands[0]
        problem = _first_unhashable(heap, items)
        if problem is not None:
            return problem
        return _new(heap, _added(heap, [(True, ())], items), SetHistory("from", None, (form,)))

    return _with_operands(heap, (value,), made)


# ---------------------------------------------------------------- queries


def contains(heap: HeapView, record: SetRec, needle: object) -> Outcome:
    """``needle in s``; a set needle is looked up as a frozenset (CPython), never present here."""
    if record_of(heap, needle) is not None:
        return Ok(False)
    problem = dicts.unhashable(heap, needle)
    if problem is not None:
        return problem
    return Ok(_any(_present(heap, record.items, needle)))


def _subset(heap: HeapView, a: tuple[object, ...], b: tuple[object, ...]) -> Arg:
    return T.conj([_any(_present(heap, b, x)) for x in a])


def equal(heap: HeapView, a: SetRec, b: SetRec) -> Arg:
    if len(a.items) != len(b.items):
        return False
    return _subset(heap, a.items, b.items)


def real_set(value: object) -> tuple[object, ...] | None:
    """The items of a real set or frozenset of plain values (a module constant), else None."""
    from pathloom.semantics.ops import is_plain

    if not isinstance(value, PyObj) or not isinstance(value.obj, (set, frozenset)) or type(value.obj) not in (set, frozenset):
        return None
    items: tuple[object, ...] = tuple(value.obj)
    if len(items) > MAX_REAL_ITEMS or not all(is_plain(v) for v in items):
        return None
    return items


def _set_items(heap: HeapView, value: object) -> tuple[object, ...] | None:
    record = record_of(heap, value)
    return record.items if record is not None else real_set(value)


def compare(heap: HeapView, op: str, a: object, b: object) -> Outcome | None:
    """``a op b`` for the six comparisons when one operand is a modelled set and the other a
    set too (a real one included): equality and subset tests; None otherwise."""
    if record_of(heap, a) is None and record_of(heap, b) is None:
        return None
    x, y = _set_items(heap, a), _set_items(heap, b)
    if x is None or y is None or op not in ("==", "!=", "<", "<=", ">", ">="):
        return None
    if op in ("==", "!="):
        same = _subset(heap, x, y) if len(x) == len(y) else False
        return Ok(same if op == "==" else T.not_(same))
    if op in (">=", ">"):
        x, y, op = y, x, op.replace(">", "<")
    subset = _subset(heap, x, y)
    return Ok(T.and_(subset, len(x) < len(y)) if op == "<" else subset)


# ---------------------------------------------------------------- operators


_OPERATOR_METHODS = {"|": "union", "&": "intersection", "-": "difference", "^": "symmetric_difference"}


def binop(heap: HeapView, op: str, a: object, b: object) -> Outcome | None:
    """``a op b`` (``|``, ``&``, ``-``, ``^`` or their in-place forms) when both are sets;
    None when they are not both sets (the caller decides: TypeError or CPython)."""
    ra, rb = record_of(heap, a), record_of(heap, b)
    if op.rstrip("=") not in _OPERATOR_METHODS:
        return None
    left, right = _set_items(heap, a), _set_items(heap, b)
    if left is None or right is None:
        if _builtin_operand(heap, a) and _builtin_operand(heap, b):
            from pathloom.semantics.ops import shown_type

            return throw("TypeError", f"unsupported operand type(s) for {op}: '{shown_type(heap, a)}' and '{shown_type(heap, b)}'")
        return None
    if ra is None and (op.endswith("=") or type(a.obj) is not set):  # type: ignore[attr-defined]
        return None  # a real frozenset's operator makes a frozenset; a real set changed in place: CPython's
    base = op.rstrip("=")
    cases = _combined(heap, base, left, [(right, True)])
    parent = ra.history if ra is not None else SetHistory("real", None, (a,))
    operand = rb.history if rb is not None else b
    if op.endswith("="):
        return _stored(a, cases, SetHistory(op, parent, (operand,)), a)  # type: ignore[arg-type]
    return _new(heap, cases, SetHistory(base, parent, (operand,)))


def _builtin_operand(heap: HeapView, value: object) -> bool:
    """A value of a builtin type whose ``|``, ``&``, ``-``, ``^`` with a set is a TypeError
    (or a set: the caller has checked that both are not sets)."""
    from pathloom.semantics.ops import kind

    if kind(value) != "other":
        return True
    return isinstance(value, Ref) and isinstance(heap.record(value), (ListRec, DictRec, SetRec))


def _combined(heap: HeapView, base: str, items: tuple[object, ...], others: list[tuple[tuple[object, ...], bool]]) -> Cases:
    """The item cases of ``items op other`` for each other in turn (``|``, ``&``, ``-``, ``^``);
    each other is its items and whether it is a set (else a sequence, maybe with repeats)."""
    cases: Cases = [(True, items)]
    for other, is_set in others:
        grown: Cases = []
        for cond, current in cases:
            for c, result in _combine_once(heap, base, current, other, is_set):
                grown.append((T.and_(cond, c), result))
        cases = [(c, r) for c, r in grown if c is not False]
    return cases


def _combine_once(heap: HeapView, base: str, a: tuple[object, ...], b: tuple[object, ...], b_is_set: bool) -> Cases:
    if base == "|":
        return _added(heap, [(True, a)], b)
    if base == "-":
        return _kept(heap, a, b, keep_if_in=False)
    if not b_is_set:  # CPython makes a set of the sequence first (its first equal item kept)
        cases: Cases = []
        for c, unique in _added(heap, [(True, ())], b):
            for d, result in _combine_once(heap, base, a, unique, True):
                both = T.and_(c, d)
                if both is not False:
                    cases.append((both, result))
        return cases
    if base == "&":  # CPython walks the smaller set (the right one on a tie) and keeps its objects
        small, large = (b, a) if len(b) <= len(a) else (a, b)
        return _kept(heap, small, large, keep_if_in=True)
    left = _kept(heap, a, b, keep_if_in=False)
    right = _kept(heap, b, a, keep_if_in=False)
    return [(T.and_(c, d), x + y) for c, x in left for d, y in right if T.and_(c, d) is not False]


# ---------------------------------------------------------------- methods


_MAKING = {"union": "|", "intersection": "&", "difference": "-", "symmetric_difference": "^"}
_UPDATING = {"update": "|", "intersection_update": "&", "difference_update": "-", "symmetric_difference_update": "^"}


def call_method(heap: HeapView, ref: Ref, record: SetRec, name: str, args: tuple[object, ...]) -> Outcome:
    """A method of a set with positional arguments; ``RuntimeUnsupported`` for the others (the
    caller runs them in CPython)."""
    if name in ("add", "discard", "remove"):
        if len(args) != 1:
            raise RuntimeUnsupported(f"set.{name}() with {len(args)} arguments")  # CPython's TypeError
        return _add_or_remove(heap, ref, record, name, args[0])
    if name in ("clear", "copy") and not args:
        if name == "copy":
            return _new(heap, [(True, record.items)], SetHistory("copy", record.history, ()))
        return _stored(ref, [(True, ())], SetHistory("clear", record.history, ()))
    if name in _MAKING or name in _UPDATING:
        if name in ("symmetric_difference", "symmetric_difference_update") and len(args) != 1:
            raise RuntimeUnsupported(f"set.{name}() with {len(args)} arguments")
        return _with_operands(heap, args, lambda operands: _apply(heap, ref, record, name, operands))
    if name in ("issubset", "issuperset", "isdisjoint") and len(args) == 1:
        return _with_operands(heap, args, lambda operands: _test(heap, name, record.items, operands[0]))
    raise RuntimeUnsupported(f"set method {name}()")


def _add_or_remove(heap: HeapView, ref: Ref, record: SetRec, name: str, x: object) -> Outcome:
    if name != "add" and record_of(heap, x) is not None:
        if name == "discard":  # looked up as a frozenset (CPython): not present
            return Ok(None)
        raise NotModeled("set.remove() of a set")  # the KeyError shows the set's repr
    problem = dicts.unhashable(heap, x)
    if problem is not None:
        return problem
    if name == "add":
        return _stored(ref, _added(heap, [(True, record.items)], (x,)), SetHistory("add", record.history, (x,)))
    hits = _present(heap, record.items, x)
    history = SetHistory("discard", record.history, (x,))
    cases: list[tuple[Arg, Outcome]] = []
    for i, hit in enumerate(hits):
        cases.append((hit, Ok(None, ((ref, SetRec(record.items[:i] + record.items[i + 1 :], history)),))))
    missing: Outcome = Ok(None) if name == "discard" else Throw(ExcVal("KeyError", (x,)))
    cases.append((T.conj([T.not_(h) for h in hits]), missing))
    return split(cases)


def _apply(heap: HeapView, ref: Ref, record: SetRec, name: str, operands: list[tuple[tuple[object, ...], object]]) -> Outcome:
    for items, form in operands:
        if isinstance(form, Items) and name in ("union", "update", "symmetric_difference", "symmetric_difference_update"):
            problem = _first_unhashable(heap, items)  # these add the items: CPython hashes each
            if problem is not None:
                return problem
        elif isinstance(form, Items) and any(dicts.unhashable(heap, x) is not None for x in items):
            raise NotModeled(f"set.{name}() of an iterable holding unhashable items")  # where CPython raises depends on the order
    base = _MAKING.get(name) or _UPDATING[name]
    cases = _combined(heap, base, record.items, [(items, not isinstance(form, Items)) for items, form in operands])
    history = SetHistory(name, record.history, tuple(form for _, form in operands))
    if name in _UPDATING:
        return _stored(ref, cases, history)
    return _new(heap, cases, history)


def _test(heap: HeapView, name: str, items: tuple[object, ...], operand: tuple[tuple[object, ...], object]) -> Outcome:
    other, form = operand
    if isinstance(form, Items) and any(dicts.unhashable(heap, x) is not None for x in other):
        raise NotModeled(f"set.{name}() of an iterable holding unhashable items")  # where CPython raises depends on the order
    if name == "issubset":
        return Ok(_subset(heap, items, other))
    if name == "issuperset":
        return Ok(_subset(heap, other, items))
    return Ok(T.conj([T.not_(_any(_present(heap, other, x))) for x in items]))


def pop(module: Module, heap: HeapView, ref: Ref, record: SetRec) -> Outcome:
    """``s.pop()``: the item CPython's table gives first from its pop finger, found by
    replaying the history in CPython (on pinned values when it holds terms)."""
    from pathloom.semantics.concretize import run_concretely

    if not record.items:
        return Throw(ExcVal("KeyError", ("pop from an empty set",)))
    problem = order_problem(record.history)
    if problem is not None:
        raise RuntimeUnsupported(f"set.pop(): {problem}")
    values = tuple(history_values(record.history))
    popped = run_concretely(module, heap, "set.pop()", lambda *reals: _replayed_pop(record.history, values, reals), values)
    history = SetHistory("pop", record.history, ())

    def removed(ok: Ok) -> Outcome:
        hits = _present(heap, record.items, ok.value)
        cases: list[tuple[Arg, Outcome]] = []
        for i, hit in enumerate(hits):
            cases.append((hit, Ok(record.items[i], ok.writes + ((ref, SetRec(record.items[:i] + record.items[i + 1 :], history)),))))
        return split(cases)

    return map_ok(popped, removed)


def _replayed_pop(history: SetHistory, values: tuple[object, ...], reals: tuple[object, ...]) -> object:
    def real(v: object) -> object:
        for model, value in zip(values, reals):
            if model is v:
                return value
        return v

    built = known_order(history, real)
    if built is None:
        raise RuntimeUnsupported(DISPLAY_PROBLEM)
    return built.pop()


# ---------------------------------------------------------------- calls of builtins

# builtin -> (the keyword arguments that keep its answer independent of the order, whether
# the items must be numbers)
_ORDER_FREE: dict[object, tuple[frozenset[str], bool]] = {
    builtins.sorted: (frozenset({"reverse"}), False),
    builtins.sum: (frozenset({"start"}), True),
    builtins.min: (frozenset(), False),
    builtins.max: (frozenset(), False),
    builtins.any: (frozenset(), False),
    builtins.all: (frozenset(), False),
}


def order_free_args(heap: HeapView, func: object, args: tuple[object, ...], kwargs: tuple[tuple[str, object], ...]) -> tuple[object, ...] | None:
    """For ``sorted``, ``sum``, ``min``, ``max``, ``any`` or ``all`` of one set whose items
    make the answer the same in any order (see the module docstring): the arguments with the
    set replaced by the tuple of its items; None otherwise."""
    if isinstance(func, BuiltinVal):
        real: object = getattr(builtins, func.name, None)
    elif isinstance(func, PyObj):
        real = func.obj
    else:
        return None
    try:
        allowed = _ORDER_FREE.get(real)
    except TypeError:  # an unhashable callable
        return None
    if allowed is None or not args or any(name not in allowed[0] for name, _ in kwargs):
        return None
    record = record_of(heap, args[0])
    most = 2 if real is builtins.sum else 1
    if record is None or len(args) > most or not _one_order(record, numbers_only=allowed[1]):
        return None
    return (record.items,) + args[1:]


def make_set(heap: HeapView, args: tuple[object, ...], kwargs: tuple[tuple[str, object], ...]) -> Outcome | None:
    """``set()`` or ``set(iterable)`` in the model; None for the calls CPython runs."""
    if kwargs or len(args) > 1:
        return None
    if not args:
        return _new(heap, [(True, ())], NEW)
    try:
        return from_iterable(heap, args[0])
    except NotModeled:
        return None


def _one_order(record: SetRec, numbers_only: bool) -> bool:
    """Whether the items are all ints and bools (or all strs, unless ``numbers_only``): a
    builtin that sorts, sums, compares or tests them then gives the same answer in any order."""
    from pathloom.semantics.ops import kind

    kinds = {kind(x) for x in record.items}
    return kinds <= {"int", "bool"} or (not numbers_only and kinds == {"str"})


# ---------------------------------------------------------------- iteration


def get_iter(module: Module, heap: HeapView, ref: Ref, record: SetRec) -> Outcome:
    """An iterator in CPython's order: the items' order when the model knows it (see the
    module docstring), else CPython's on pinned values; unsupported for strs and None."""
    if len(record.items) <= 1:
        return Ok(SetIter(ref, record.items, 0, record.items))
    problem = order_problem(record.history)
    if problem is not None:
        raise RuntimeUnsupported(problem)
    if concrete_history(record.history):
        real = known_order(record.history, lambda v: v)
        if real is None:
            raise RuntimeUnsupported(DISPLAY_PROBLEM)
        return Ok(SetIter(ref, tuple(real), 0, record.items))
    small = small_ints_in_order(record)
    if small is None:
        return _iterated_in_cpython(module, heap, ref, record, True)
    within, ascending = small
    return split(
        [
            (within, Ok(SetIter(ref, ascending, 0, record.items))),
            (T.not_(within), _iterated_in_cpython(module, heap, ref, record, T.not_(within))),
        ]
    )


def _iterated_in_cpython(module: Module, heap: HeapView, ref: Ref, record: SetRec, where: Arg) -> Outcome:
    from pathloom.semantics.concretize import run_concretely

    order = run_concretely(module, heap, "iteration", lambda real: tuple(real), (ref,), where=where)
    return map_ok(order, lambda ok: Ok(SetIter(ref, ok.value, 0, record.items), ok.writes))  # type: ignore[arg-type]


def next_item(heap: HeapView, it: SetIter) -> tuple[SetIter | None, object]:
    """The advanced iterator and the item, or ``(None, None)`` at the end."""
    record = record_of(heap, it.ref)
    assert record is not None
    if record.items is not it.items:
        raise RuntimeUnsupported("a set changed during iteration over it (CPython raises RuntimeError or goes on in table order)")
    if it.index >= len(it.order):
        return None, None
    return SetIter(it.ref, it.order, it.index + 1, it.items), it.order[it.index]

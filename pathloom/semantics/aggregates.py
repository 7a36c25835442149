"""Symbolic models of the builtins that consume a whole list or tuple: ``sorted``,
``list.sort``, ``sum``, ``list(...)``/``tuple(...)`` copies and ``sep.join``.

Each works on the items of a list of known length (a symbolic length is split first, as
``with_concrete_length`` does) or a tuple, and answers only where the answer is exactly CPython's; anything
else returns None and the caller runs CPython's builtin on pinned values (concretization):

- ``sorted``/``sort`` order items that are all ints or all strs (not bools, not a mix: the
  result keeps each item's type) by a bubble network of compare-exchanges, each an
  if-then-else term, ascending or (``reverse=True``, a literal) descending. Equal items are
  equal values, so the network's lack of stability is invisible;
- ``sorted(xs, key=lambda ...)``/``xs.sort(key=lambda ...)`` (``sort_by_keys``: the lowering
  computes the keys first, as CPython does, then calls ``%sort_by_keys``) order by keys that
  are all ints or all strs, stably as CPython's sort (``reverse=True`` too: equal keys keep
  their order): items that are all ints or all strs by a network that carries them with their
  keys; other items (objects, tuples) by an insertion sort whose every comparison of two keys
  is a split, for at most ``MAX_SORT_SPLIT`` items (n! cases at most);
- ``sum`` of ints and bools from an int start is their ``+`` fold (floats are left to CPython,
  whose 3.12 ``sum`` compensates rounding);
- ``sep.join(items)`` of strs is their concatenation; an item of a known non-str kind is
  CPython's TypeError with its message;
- ``xs.count(x)`` and ``xs.index(x)`` over items and needles that are ints, bools, strs or
  None compare by ``==`` (``1 == True``); ``index`` is the first match, or CPython's
  ValueError, whose message shows the needle's repr (an int's text past CPython's limit on
  digits is that limit's ValueError, as there; a symbolic str needle is left to CPython).

Invariant: no model here reads an item beyond the list's length, and none changes the
arguments except ``sort``, which writes the sorted items back to the same list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from pathloom.semantics.heapview import HeapView
from pathloom.semantics.ops import as_int, fix_length, item_equal, kind
from pathloom.domain.outcome import Cut, Ok, Outcome, RuntimeUnsupported, map_ok, split, throw
from pathloom.domain.values import ListRec, RangeVal, Ref, concrete_length, type_name
from pathloom.terms import expr as T
from pathloom.terms.expr import Arg, Term

MAX_NETWORK = 8  # most items ordered by a network (28 compare-exchanges)
MAX_SORT_SPLIT = 6  # most items sorted by key through splits (720 orders at most)

Kwargs = tuple[tuple[str, object], ...]


def network(items: Sequence[Arg], descending: bool = False) -> tuple[Arg, ...]:
    """``items`` sorted by a bubble network of compare-exchanges of neighbours."""
    ordered = list(items)
    for end in range(len(ordered) - 1, 0, -1):
        for i in range(end):
            a, b = ordered[i], ordered[i + 1]
            keep = T.le(b, a) if descending else T.le(a, b)
            ordered[i], ordered[i + 1] = T.ite(keep, a, b), T.ite(keep, b, a)
    return tuple(ordered)


def _orderable(items: Sequence[object]) -> bool:
    kinds = {kind(x) for x in items}
    return len(items) <= MAX_NETWORK and (kinds <= {"int"} or kinds <= {"str"})


def _reverse_flag(kwargs: Kwargs) -> bool | None:
    """``reverse=`` given as a bool (the only keyword modelled), False when absent."""
    flags = dict(kwargs)
    if set(flags) - {"reverse"} or not isinstance(flags.get("reverse", False), bool):
        return None
    return flags.get("reverse", False)  # type: ignore[return-value]


def _items_then(heap: HeapView, seq: object, then: Callable[[tuple[object, ...]], Outcome | None]) -> Outcome | None:
    """``then(items)`` of a tuple or of a list of known length; a list of symbolic length is
    first split by length (the engine runs the call again on each); None for anything else."""
    if isinstance(seq, tuple):
        return then(seq)
    if isinstance(seq, Ref) and isinstance(heap.record(seq), ListRec):
        record = heap.record(seq)
        assert isinstance(record, ListRec)
        if isinstance(record.length, Term):
            return fix_length(seq, record)
        return then(record.items[: concrete_length(record)])
    return None


def call_builtin(heap: HeapView, fn: object, args: tuple[object, ...], kwargs: Kwargs) -> Outcome | None:
    """``sorted``, ``sum``, ``list`` or ``tuple`` of a list or tuple, modelled; else None."""
    if fn is sorted and len(args) == 1:
        reverse = _reverse_flag(kwargs)
        if reverse is None:
            return None
        if kind(args[0]) == "str" and isinstance(args[0], Term):
            return _sorted_characters(heap, args[0], reverse)
        return _items_then(heap, args[0], lambda items: _new_list(heap, network(items, reverse)) if _orderable(items) else None)  # type: ignore[arg-type]
    if kwargs or len(args) != 1 and fn is not sum:
        return None
    if fn is sum and len(args) in (1, 2):
        start = args[1] if len(args) == 2 else 0
        return _items_then(heap, args[0], lambda items: _sum(start, items))
    if fn is list and isinstance(args[0], Ref) and isinstance(heap.record(args[0]), ListRec):
        record = heap.record(args[0])
        assert isinstance(record, ListRec)
        return without_arguments(heap, args[0], record, "copy")
    if fn is list and isinstance(args[0], tuple):
        return _new_list(heap, args[0])
    if fn is list and kind(args[0]) == "str":
        return _characters(heap, args[0])  # type: ignore[arg-type]
    if fn is list and isinstance(args[0], RangeVal):
        return _range_items(heap, args[0])
    if fn is tuple:
        return _items_then(heap, args[0], lambda items: Ok(tuple(items)))
    return None


def without_arguments(heap: HeapView, ref: Ref, record: ListRec, name: str) -> Outcome:
    """``xs.reverse()`` (in place; a list of symbolic length is first split by length),
    ``xs.clear()``, ``xs.copy()`` (same length, symbolic or not, same items)."""
    if name == "clear":
        return Ok(None, ((ref, ListRec(0, ())),))
    if name == "copy":
        copy = heap.fresh()
        return Ok(copy, ((copy, record),))
    reversed_ = _items_then(heap, ref, lambda items: Ok(None, ((ref, ListRec(len(items), tuple(reversed(items)))),)))
    assert reversed_ is not None  # a list
    return reversed_


def sort(heap: HeapView, ref: Ref, args: tuple[object, ...], kwargs: Kwargs) -> Outcome | None:
    """``xs.sort()`` / ``xs.sort(reverse=True)`` in place, modelled; else None."""
    reverse = _reverse_flag(kwargs)
    if args or reverse is None:
        return None

    def in_place(items: tuple[object, ...]) -> Outcome | None:
        if not _orderable(items):
            return None
        return Ok(None, ((ref, ListRec(len(items), network(items, reverse))),))  # type: ignore[arg-type]

    return _items_then(heap, ref, in_place)


def sort_by_keys(heap: HeapView, ref: Ref, keys: Ref, reverse: bool, returns_list: bool) -> Outcome:
    """The list ``ref`` sorted in place by ``keys`` (a list of as many keys, made by the key
    function in item order), stably; its value is ``ref`` (``sorted``) or None (``sort``).
    Keys of other kinds, more items than the models take: RuntimeUnsupported."""

    def with_items(items: tuple[object, ...]) -> Outcome | None:
        # the keys were made one per item of this very list: as many as its items (in a
        # merged state of MultiSE the keys' length may be a term equal to it; not split again)
        record = heap.record(keys)
        assert isinstance(record, ListRec)
        if (not isinstance(record.length, Term) and record.length != len(items)) or len(record.items) < len(items):
            # no run gets here (MultiSE may split the two lengths apart in states no input
            # reaches): a reported cut if one did, never an answer
            return Cut("a key function that changed the list it sorts")
        return _sorted_by(ref, items, tuple(record.items[: len(items)]), reverse, ref if returns_list else None)

    found = _items_then(heap, ref, with_items)
    assert found is not None  # a list
    return found


def _sorted_by(ref: Ref, items: tuple[object, ...], keys: tuple[object, ...], reverse: bool, value: object) -> Outcome:
    if not (_orderable(keys) or _orderable_tuples(keys)):
        raise RuntimeUnsupported(f"sorting by keys of kinds {sorted({kind(k) for k in keys})} (or more than {MAX_NETWORK})")

    def done(ordered: Sequence[object]) -> Outcome:
        return Ok(value, ((ref, ListRec(len(ordered), tuple(ordered))),))

    if _orderable(items):  # all ints or all strs
        return done(_carried_network(keys, items, reverse))
    if len(items) > MAX_SORT_SPLIT:
        raise RuntimeUnsupported(f"sorting more than {MAX_SORT_SPLIT} objects by key")

    def place(order: tuple[int, ...], i: int, pos: int) -> Outcome:
        """Insert item ``i`` into ``order`` at ``pos`` or further left: it passes its left
        neighbour only when its key is strictly smaller (greater, descending): stable."""
        if pos == 0:
            return following((i,) + order)
        left = keys[order[pos - 1]]
        passes = _key_lt(left, keys[i]) if reverse else _key_lt(keys[i], left)
        stays = following(order[:pos] + (i,) + order[pos:]) if passes is not True else None
        if isinstance(passes, bool):
            return place(order, i, pos - 1) if passes else stays  # type: ignore[return-value]
        return split([(passes, place(order, i, pos - 1)), (T.not_(passes), stays)])  # type: ignore[list-item]

    def following(order: tuple[int, ...]) -> Outcome:
        i = len(order)
        return done([items[j] for j in order]) if i == len(items) else place(order, i, i)

    try:
        return following(())
    finally:
        del place, following  # they call each other: no cycle left for the collector


def _carried_network(keys: Sequence[object], items: Sequence[object], descending: bool) -> list[object]:
    """``items`` ordered by ``keys`` through a bubble network that moves each item with its
    key; a compare-exchange keeps the pair unless the right key is strictly smaller
    (greater, descending), so equal keys keep their order."""
    ks, xs = list(keys), list(items)
    for end in range(len(ks) - 1, 0, -1):
        for i in range(end):
            keep = T.not_(_key_lt(ks[i], ks[i + 1])) if descending else T.not_(_key_lt(ks[i + 1], ks[i]))
            ks[i], ks[i + 1] = _key_ite(keep, ks[i], ks[i + 1]), _key_ite(keep, ks[i + 1], ks[i])
            xs[i], xs[i + 1] = T.ite(keep, xs[i], xs[i + 1]), T.ite(keep, xs[i + 1], xs[i])  # type: ignore[arg-type]
    return xs


def _orderable_tuples(keys: Sequence[object]) -> bool:
    """Keys that are tuples of one length whose items, position by position, are all ints
    or all strs: compared lexicographically, as CPython compares tuples."""
    if not keys or len(keys) > MAX_NETWORK or not all(type(k) is tuple and k for k in keys):
        return False
    width = len(keys[0])  # type: ignore[arg-type]
    return all(len(k) == width for k in keys) and all(_orderable([k[i] for k in keys]) for i in range(width))  # type: ignore[index, arg-type]


def _key_lt(a: object, b: object) -> Arg:
    """``a < b`` of two sort keys: ints or strs, or tuples of them of one length (the first
    position where they differ decides; all equal: not less)."""
    if not isinstance(a, tuple):
        return T.lt(a, b)  # type: ignore[arg-type]
    less: Arg = False
    for x, y in reversed(list(zip(a, b))):  # type: ignore[call-overload]
        less = T.or_(T.lt(x, y), T.and_(T.eq(x, y), less))
    return less


def _key_ite(condition: Arg, a: object, b: object) -> object:
    if isinstance(a, tuple):
        return tuple(T.ite(condition, x, y) for x, y in zip(a, b))  # type: ignore[call-overload]
    return T.ite(condition, a, b)  # type: ignore[arg-type]


def join(heap: HeapView, sep: object, args: tuple[object, ...], kwargs: Kwargs) -> Outcome | None:
    """``sep.join(items)`` of a list or tuple of strs, modelled; else None."""
    if kwargs or len(args) != 1:
        return None

    def joined(items: tuple[object, ...]) -> Outcome | None:
        out: Arg = ""
        for i, item in enumerate(items):
            k = kind(item)
            if k != "str":
                if k == "other":
                    return None  # an object: its type name is CPython's to say
                return throw("TypeError", f"sequence item {i}: expected str instance, {type_name(item)} found")
            text = cast(Arg, item)  # a str or Str term
            out = text if i == 0 else T.concat(T.concat(out, sep), text)  # type: ignore[arg-type]
        return Ok(out)

    return _items_then(heap, args[0], joined)


_COMPARABLE = ("int", "bool", "str", "none")


def count(heap: HeapView, ref: Ref, args: tuple[object, ...], kwargs: Kwargs) -> Outcome | None:
    """``xs.count(x)``, modelled for int, bool, str and None items and needle; else None."""
    if kwargs or len(args) != 1 or kind(args[0]) not in _COMPARABLE:
        return None

    def counted(items: tuple[object, ...]) -> Outcome | None:
        if any(kind(x) not in _COMPARABLE for x in items):
            return None
        total: Arg = 0
        for item in items:
            total = T.add(total, T.ite(item_equal(heap, args[0], item), 1, 0))
        return Ok(total)

    return _items_then(heap, ref, counted)


def index(heap: HeapView, ref: Ref, args: tuple[object, ...], kwargs: Kwargs) -> Outcome | None:
    """``xs.index(x)``, modelled for int, bool, str and None items and needle (not a symbolic
    str: its repr is CPython's to write); else None."""
    needle = args[0] if len(args) == 1 else None
    if kwargs or len(args) != 1 or kind(needle) not in _COMPARABLE or (isinstance(needle, Term) and needle.sort == T.STR):
        return None

    def first(items: tuple[object, ...]) -> Outcome | None:
        if any(kind(x) not in _COMPARABLE for x in items):
            return None
        cases: list[tuple[Arg, Outcome]] = []
        before: Arg = True  # no earlier item matched
        for i, item in enumerate(items):
            match = item_equal(heap, needle, item)
            cases.append((T.and_(before, match), Ok(i)))
            before = T.and_(before, T.not_(match))
        return split(cases + [(before, _not_in_list(needle))])

    return _items_then(heap, ref, first)


def _not_in_list(needle: object) -> Outcome:
    if not isinstance(needle, Term):
        return throw("ValueError", f"{needle!r} is not in list")
    if needle.sort == T.BOOL:
        return throw("ValueError", T.concat(T.ite(needle, "True", "False"), " is not in list"))  # type: ignore[arg-type]
    from pathloom.semantics.builtins import int_text  # builtins imports this module's importers

    return map_ok(int_text(needle), lambda text: throw("ValueError", T.concat(text.value, " is not in list")))  # type: ignore[arg-type]


def _sum(start: object, items: tuple[object, ...]) -> Outcome | None:
    if any(kind(x) not in ("int", "bool") for x in (start, *items)):
        return None
    total: Arg = as_int(start)
    for item in items:
        total = T.add(total, as_int(item))
    return Ok(total)


def _characters(heap: HeapView, s: Arg) -> Outcome:
    """``list(s)``: the characters of ``s``. A symbolic str is a list of length ``len(s)`` with
    the item ``s[i]`` at position ``i``, for strs of at most ``STR_CAP`` characters (a cut
    beyond: the list's items must bound its length)."""
    from pathloom.semantics.slicing import STR_CAP, str_capacity

    if isinstance(s, str):
        return _new_list(heap, tuple(s))
    capacity = str_capacity(s)
    ref = heap.fresh()
    made = Ok(ref, ((ref, ListRec(T.str_len(s), tuple(T.char_at(s, i) for i in range(min(capacity or STR_CAP, STR_CAP))))),))
    if capacity is not None and capacity <= STR_CAP:
        return made
    fits = T.le(T.str_len(s), STR_CAP)
    return split([(fits, made), (T.not_(fits), Cut(f"list() of a str longer than {STR_CAP} characters"))])


def _sorted_characters(heap: HeapView, s: Term, reverse: bool) -> Outcome:
    """``sorted(s)`` of a symbolic str: one case per length (up to what a sorting network
    orders, ``MAX_NETWORK`` characters), the characters ``s[i]`` ordered by the network; a
    longer str is a cut."""
    from pathloom.semantics.slicing import STR_CAP, str_capacity

    capacity = str_capacity(s)
    most = min(STR_CAP if capacity is None else capacity, STR_CAP, MAX_NETWORK)
    ref = heap.fresh()
    cases: list[tuple[Arg, Outcome]] = [
        (T.eq(T.str_len(s), n), Ok(ref, ((ref, ListRec(n, network(tuple(T.char_at(s, i) for i in range(n)), reverse))),))) for n in range(most + 1)
    ]
    if capacity is None or capacity > most:
        cases.append((T.lt(most, T.str_len(s)), Cut(f"sorted() of a str longer than {most} characters")))
    return split(cases)


def _range_items(heap: HeapView, r: RangeVal) -> Outcome:
    """``list(range(...))``: a list of ``len(r)`` items ``start + k * step``, up to
    ``MAX_REPEAT_CAP`` items (a longer one is a cut, as a repetition by a symbolic count)."""
    from pathloom.semantics.ops import MAX_REPEAT_CAP, range_length

    length = range_length(r)
    if not isinstance(length, Term):
        return _new_list(heap, tuple(range(int(r.start), int(r.stop), r.step)))  # type: ignore[call-overload]
    start = as_int(r.start)
    ref = heap.fresh()
    made = Ok(ref, ((ref, ListRec(length, tuple(T.add(start, k * r.step) for k in range(MAX_REPEAT_CAP)))),))
    fits = T.le(length, MAX_REPEAT_CAP)
    return split([(fits, made), (T.not_(fits), Cut(f"list() of a range longer than {MAX_REPEAT_CAP} items"))])


def _new_list(heap: HeapView, items: Sequence[object]) -> Outcome:
    ref = heap.fresh()
    return Ok(ref, ((ref, ListRec(len(items), tuple(items))),))

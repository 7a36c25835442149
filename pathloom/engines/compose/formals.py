"""The formals of a memoization tree: what a summarized function's parameters are, alone and
at a call site.

A formal is ``(name, sort)``: ``name`` is ``@<qualname>.<param>``; ``sort`` is a scalar sort
(``Int``, ``Bool``, ``Str``, ``Float``), whose formal is the one symbol ``name``, or ``list[<sort>]`` for a
``list[int]``, ``list[bool]`` or ``list[str]`` parameter, whose formal is a list of ``--max-list-len``
items ``K``: the symbols ``name.len`` (``0 <= len <= K``) and ``name[0]`` .. ``name[K-1]``,
as the entry builds an input list (``engines.entry``).

At a call site (``actuals``), a list actual fits when it is a list record of at most ``K``
items, each of the item sort, and no two list formals get the same list (the tree was built on
distinct lists; aliased lists run inline). Its length and items replace the formal's symbols;
the formal items past the actual's are given the sort's default: a leaf that reads item ``i``
has ``i < len`` among its conjuncts, which the actual length refutes, so no feasible leaf
depends on them. Invariant (``values.ListRec``): an actual's item count bounds its length, so
the leaves, which partition ``0 <= len <= K``, cover every value the call can receive.

A formal of an analysed class ``C`` (``obj:C``, or ``obj?:C`` for ``Optional[C]``) is an input
object (``semantics.input_heap``, POSE): its location symbol ``name``, None too (a call may pass None
to a formal that is not Optional, and CPython raises the AttributeError in the callee), and
the fields its paths read are the symbols ``name.f``, ``name.f.g``... named by access path, as
the entry names an input object's; at a call site ``heap_formals`` reads those fields in the
calling context (the paper's heap path conditions over the formals).

The paper summarizes methods over heap inputs with heap path conditions; here a callee may
read the lists it is given and read and write the objects (the tree builder rejects a function
that writes a record it did not allocate that is no input object; the replay re-executes the
writes in each calling context).
"""

from __future__ import annotations

from collections.abc import Container

from pathloom.frontend.input_types import parse_input_type
from pathloom.frontend.fields import reference_shape
from pathloom.heap.base import Heap
from pathloom.domain.values import ListRec, Ref, SymRef
from pathloom.terms import expr as T
from pathloom.terms.evaluate import DEFAULTS
from pathloom.terms.expr import BOOL, FLOAT, INT, SCALAR_SORTS, STR, Arg, Term

_LIST = "list["


_OBJECT, _OPTIONAL_OBJECT = "obj:", "obj?:"


def param_sort(annotation: str | None, classes: Container[str] = ()) -> str | None:
    """The formal sort of a parameter annotated ``annotation``, or None (not summarizable);
    ``classes``: the analysed classes, whose instances are object formals."""
    if annotation is None:
        return None
    if annotation in SCALAR_SORTS:
        return SCALAR_SORTS[annotation]
    reference = reference_shape(annotation, classes)
    if reference is not None:
        return f"{_OPTIONAL_OBJECT if reference[2] else _OBJECT}{reference[1]}"
    shape = parse_input_type(annotation)
    if isinstance(shape, tuple) and shape[0] == "list" and shape[1] in ("int", "bool", "str"):
        return f"{_LIST}{SCALAR_SORTS[str(shape[1])]}]"
    return None


def object_class(sort: str) -> tuple[str, bool] | None:
    """(class, nullable) of an object formal's sort, None for another sort."""
    for prefix, nullable in ((_OBJECT, False), (_OPTIONAL_OBJECT, True)):
        if sort.startswith(prefix):
            return sort[len(prefix) :], nullable
    return None


def item_sort(sort: str) -> str | None:
    """The item sort of a list formal's sort, None for a scalar one."""
    return sort[len(_LIST) : -1] if sort.startswith(_LIST) else None


def bind(heap: Heap, formals: tuple[tuple[str, str], ...], max_list_len: int) -> tuple[tuple[object, ...], list[Term]]:
    """The values of the formals for a function explored alone (list formals allocated in
    ``heap``), and the constraints on them (each list's length within ``0..K``)."""
    values: list[object] = []
    constraints: list[Term] = []
    for name, sort in formals:
        reference = object_class(sort)
        if reference is not None:  # a location, None (0) too: a caller may pass None where it is not Optional
            values.append(SymRef(reference[0], T.sym(name, INT), True))
            continue
        inner = item_sort(sort)
        if inner is None:
            values.append(T.sym(name, sort))
            continue
        length = T.sym(f"{name}.len", INT)
        constraints += [T.le(0, length), T.le(length, max_list_len)]  # type: ignore[list-item]
        ref = heap.fresh()
        heap.write(ref, ListRec(length, tuple(T.sym(f"{name}[{i}]", inner) for i in range(max_list_len))))
        values.append(ref)
    return tuple(values), constraints


def fits(value: object, sort: str) -> bool:
    if isinstance(value, Term):
        return value.sort == sort
    return type(value) is {INT: int, BOOL: bool, STR: str, FLOAT: float}.get(sort)


def actuals(heap: Heap, formals: tuple[tuple[str, str], ...], args: tuple[object, ...], max_list_len: int) -> dict[str, Arg] | None:
    """The formals' symbols mapped to the actual arguments' values, or None when an argument
    does not fit its formal (the call then runs inline); object formals are left to
    ``heap_formals``, which reads the calling context's heap."""
    if len(args) != len(formals):
        return None
    mapping: dict[str, Arg] = {}
    lists: set[Ref] = set()
    for (name, sort), arg in zip(formals, args):
        if object_class(sort) is not None:
            continue
        inner = item_sort(sort)
        if inner is None:
            if not fits(arg, sort):
                return None
            mapping[name] = arg  # type: ignore[assignment]
            continue
        if not isinstance(arg, Ref) or arg in lists:
            return None
        lists.add(arg)
        record = heap.get(arg)
        if not isinstance(record, ListRec) or len(record.items) > max_list_len or not fits(record.length, INT):
            return None
        if not all(fits(item, inner) for item in record.items):
            return None
        mapping[f"{name}.len"] = record.length  # type: ignore[assignment]
        for i in range(max_list_len):
            mapping[f"{name}[{i}]"] = record.items[i] if i < len(record.items) else DEFAULTS[inner]  # type: ignore[assignment]
    return mapping

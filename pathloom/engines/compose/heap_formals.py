"""Object formals at a call site: a summary's heap path conditions moved into the calling
context (the paper's heap path conditions, section 3, and their consistency check).

A tree built on an object formal ``@f.n`` names what its paths read by access path: the
location ``@f.n``, a field's initial value ``@f.n.val`` (its None flag ``@f.n.key.is_none``
for an Optional scalar), a reference field's location ``@f.n.next``, and so on down. At a
call, ``object_actuals`` reads each of those fields in the caller's heap, through the actual
argument (``semantics.input_heap.FieldReader``: the ite over the caller's possibly aliased input
objects under POSE, a field of an object the caller created, nothing through None), and
maps every such symbol to the value read. A leaf's condition, rewritten with that mapping, is
then a condition on the caller's own inputs, checked like any other (``engine``); the reads'
writes (fields initialized in the caller's input heap) and assumptions (their domains and
congruence) join the caller's path first, so the callee's replay reads the same values.

``heap_conjuncts`` rewrites the conjuncts a leaf got from the callee's own input heap: a
reference field's domain ``1 <= @f.n.next`` says "not None" (``@f.n.next != 0``, which an
object the caller created, a negative location, meets too) and ``0 <= @f.n.next`` nothing;
a str field's length bound is left out (a caller's object may hold a longer str). Leaving
out only widens a leaf, and the replay follows the model, so a widened leaf never takes a
path its model does not.

Invariant: the mapping names every symbol of the tree that starts with an object formal's
name, or ``object_actuals`` returns None and the call runs inline (as DSE runs it).
"""

from __future__ import annotations

from collections.abc import Iterable

from pathloom.engines.compose.formals import fits, object_class
from pathloom.errors import Unsupported
from pathloom.frontend.fields import as_reference, declared_fields, none_flag, scalar_of
from pathloom.frontend.module import Module
from pathloom.heap.base import Heap
from pathloom.semantics.input_heap import FieldReader, Unreadable, location
from pathloom.domain.outcome import Outcome, RuntimeUnsupported
from pathloom.domain.values import MaybeNone, ObjRec, Ref, SymRef
from pathloom.terms import expr as T
from pathloom.terms.evaluate import DEFAULTS
from pathloom.terms.expr import SCALAR_SORTS, STR, Arg, Term, postorder


def symbol_names(conjunct_lists: Iterable[Iterable[Arg]]) -> frozenset[str]:
    """The names of the symbols in the conjuncts."""
    names: set[str] = set()
    for conjuncts in conjunct_lists:
        for c in conjuncts:
            if isinstance(c, Term):
                names.update(str(t.args[0]) for t in postorder(c) if t.op == "sym")
    return frozenset(names)


def field_symbols(module: Module, formals: tuple[tuple[str, str], ...], names: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The names among ``names`` that are read through an object formal: the locations of its
    reference fields (``@f.n.next``; the formals' own locations excluded), and its str fields."""
    references: set[str] = set()
    strs: set[str] = set()

    def walk(prefix: str, cls: str) -> None:
        for field in declared_fields(module, cls):
            name = f"{prefix}.{field.name}"
            if name not in names:
                continue
            scalar = scalar_of(field.shape)
            if scalar is None:
                references.add(name)
                walk(name, field.shape[1])
            elif SCALAR_SORTS[scalar] == STR:
                strs.add(name)

    for formal, sort in formals:
        reference = object_class(sort)
        if reference is not None:
            walk(formal, reference[0])
    return frozenset(references), frozenset(strs)


def heap_conjuncts(conjuncts: tuple[Arg, ...], references: frozenset[str], strs: frozenset[str]) -> tuple[Arg, ...]:
    """A leaf's conjuncts with the domains of the callee's own input heap rewritten (see the
    module docstring): ``references`` the reference fields' locations, ``strs`` the str fields."""
    kept: list[Arg] = []
    for c in conjuncts:
        if isinstance(c, Term) and c.op == "le":
            low, high = c.args
            if isinstance(high, Term) and high.op == "sym" and str(high.args[0]) in references and low in (0, 1):
                if low == 1:
                    kept.append(T.not_(T.eq(high, 0)))
                continue
            if (
                isinstance(low, Term)
                and low.op == "str_len"
                and isinstance(low.args[0], Term)
                and low.args[0].op == "sym"
                and str(low.args[0].args[0]) in strs
                and not isinstance(high, Term)
            ):
                continue
        kept.append(c)
    return tuple(kept)


class _NoFit(Exception):
    """An actual the tree's object formal does not describe: the call runs inline."""


def object_actuals(
    module: Module, heap: Heap, formals: tuple[tuple[str, str], ...], args: tuple[object, ...], names: frozenset[str]
) -> tuple[dict[str, Arg], Outcome] | None:
    """The object formals' symbols among ``names`` (a tree's) mapped to the values read in the
    calling context, and the reads' writes and assumptions; None when an actual does not fit
    (an object of another class, a field no ite can read or the object lacks, a field the
    class does not declare Optional that may hold None here: the tree's leaves, built on the
    declared types, do not cover that value)."""
    reader = FieldReader(module, heap)
    mapping: dict[str, Arg] = {}

    def value_of(cls: str, holder: object, field: str) -> object:
        if holder is None:
            return None
        if isinstance(holder, SymRef):
            return reader.read(holder, field)
        assert isinstance(holder, Ref)
        record = reader.record(holder)
        if not isinstance(record, ObjRec) or record.cls != cls:
            raise _NoFit()
        present, value = record.get(field)
        if not present:
            raise _NoFit()
        return value

    def walk(prefix: str, cls: str, holder: object) -> None:
        for field in declared_fields(module, cls):
            name = f"{prefix}.{field.name}"
            scalar = scalar_of(field.shape)
            if name not in names and none_flag(name) not in names:
                continue
            value = value_of(cls, holder, field.name)
            if holder is not None and scalar == field.shape and (value is None or isinstance(value, MaybeNone)):
                raise _NoFit()  # None in a field the tree took to hold an int (the caller assigned it)
            if scalar is not None:
                sort = SCALAR_SORTS[scalar]
                is_none, plain = (value.none, value.value) if isinstance(value, MaybeNone) else (value is None, value)
                if plain is None:
                    plain = DEFAULTS[sort]
                if not fits(plain, sort):
                    raise _NoFit()
                mapping[name] = plain  # type: ignore[assignment]
                mapping[none_flag(name)] = is_none
                continue
            _, target, nullable = as_reference(field.shape)
            if holder is not None and not nullable and (value is None or (isinstance(value, SymRef) and value.nullable)):
                raise _NoFit()  # maybe None where the tree took the field to hold an object
            mapping[name] = _location(target, value)
            walk(name, target, value)

    try:
        for (formal, sort), arg in zip(formals, args):
            reference = object_class(sort)
            if reference is None:
                continue
            cls = reference[0]
            mapping[formal] = _location(cls, arg)
            walk(formal, cls, arg)
    except (_NoFit, Unreadable, Unsupported, RuntimeUnsupported):  # inline: DSE's run says what it is
        return None
    objects = [formal for formal, sort in formals if object_class(sort) is not None]
    if any(n not in mapping for n in names if any(n == f or n.startswith(f + ".") for f in objects)):
        return None
    return mapping, reader.outcome()


def _location(cls: str, value: object) -> Arg:
    """The location of a reference the caller holds (None: 0; an object it created: minus its
    id), checked to be of class ``cls``."""
    if isinstance(value, SymRef) and value.cls != cls:
        raise _NoFit()
    if not (value is None or isinstance(value, (SymRef, Ref))):
        raise _NoFit()
    found = location(value)
    assert found is not None
    return found

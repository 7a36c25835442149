"""Input objects: references of class type received as input, read and written the
path-optimal way (POSE), with lazy initialization and lazier# as forking policies over it.

Implements POSE (pose-path-optimal-heap.txt, section 3): an input reference is a location
symbol (an Int term; ``0`` is None; locations are per class, so two references of one class
alias exactly when their locations are equal). The value read through an input reference is
an ite-expression over the alias conditions of the type-compatible input locations whose
field was initialized before (rule Getfield (r2)); a write updates every such location under
its alias condition (Putfield); reading or writing through an ite of locations reads or
writes each leaf (Getfield (c2)). The analysis forks only where the program does: a None
test, an identity test, or the AttributeError of a dereferenced None.

Departures from the paper, each exact for CPython:
- Each dereferenced location symbol ("atom", named by its access path: ``n``, ``n.next``)
  gets a record in the heap (``ObjRec`` of its class, its fields initialized on first read);
  the bookkeeping (which atoms have records, which fields were initialized from which
  symbol, what lazy/lazier# decided) is the record ``INPUTS``, so that both engines keep it
  per path (forking) or under guards (MultiSE) with no engine code: the semantics returns
  its writes in ``Ok.writes`` like any other heap write.
- Besides the paper's ite on initialization, every pair of initial-value symbols of one
  field gets the congruence assumption ``a == b -> a.f == b.f``, so that a model decodes to
  one initial heap whichever aliased symbol it reads (``heap.input_objects``).
- Locations of objects the code creates are negative constants (``-k`` for ``Ref(k)``), so
  an input field can be assigned such an object and read back through an ite.
- An ``Optional[int]`` (``str | None``...) field, which the paper's Java has no analogue of,
  holds a ``MaybeNone`` (its Bool symbol ``n.key.is_none`` and its value symbol ``n.key``) in
  the record; ites merge both parts, and a read splits into None / the value, a branch of
  the program's own (a None test, or the TypeError of using None).
- Assumptions (a field's domain, congruence) are added as the condition of a one-case split:
  the inputs they exclude are not input heaps.

The heap models (``--heap``) are plug-ins behind ``InputPolicy``, registered by name and
loaded when a path first needs one (``register_model``; POSE in ``heap.pose``, lazy
initialization and lazier# in ``heap.lazy``): a policy decides when aliasing is decided
ahead of a use (``resolve``: lazy and lazier# split the instruction into ``Refine`` cases and
run it again in each) and how decided aliases fold (``alias``). The values computed are the
same in all three models; only the number of analysis traces differs.

Invariant: the records of atoms and the ``INPUTS`` record are written only here and by the
policies' ``Refine`` outcomes; a value read from an input field is always the same term
whatever the model.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
import importlib
from typing import TYPE_CHECKING, Protocol, cast

from pathloom.domain.outcome import (
    Ok,
    Outcome,
    RuntimeUnsupported,
    Split,
    split,
    throw,
)
from pathloom.frontend.fields import FieldShape, as_reference, none_flag, scalar_of
from pathloom.domain.values import MaybeNone, ObjRec, Record, Ref, SymRef
from pathloom.terms import expr as T
from pathloom.terms.expr import BOOL, INT, SCALAR_SORTS, Arg, Term

if TYPE_CHECKING:
    from pathloom.frontend.fields import Field
    from pathloom.frontend.module import Module
    from pathloom.semantics.heapview import HeapView

INPUTS = Ref(1 << 29)  # never an allocation: engines allocate upward from 1
INPUTS_CLASS = "%inputs"
_DONT_CARE = object()  # the value read through the None leaf of an ite: never the path's value
# atom, level decided, decided fresh, class, representative (the fresh atom it is; None: None)
Known = tuple[Term, int, bool, str, object]
# the other fields of the INPUTS record that hold tuples (see inputs_record)
Params = tuple[tuple[str, str, bool], ...]
Classes = tuple[tuple[str, tuple["Field", ...]], ...]
Atoms = tuple[tuple[Term, Ref, str], ...]
_Inits = tuple[tuple[str, str, Term, object], ...]


def inputs_record(
    model: str, max_objects: int, max_str_len: int, params: tuple[tuple[str, str, bool], ...], classes: tuple[tuple[str, tuple[Field, ...]], ...]
) -> ObjRec:
    return ObjRec(
        INPUTS_CLASS,
        (
            ("model", model),
            ("max_objects", max_objects),
            ("max_str_len", max_str_len),
            ("params", params),  # (name, class, nullable) of each class-typed parameter
            ("classes", classes),  # (class, declared fields) of each class an input object may have
            ("atoms", ()),  # (atom, record ref, class) of each dereferenced atom, in order
            ("inits", ()),  # (class, field, atom, initial-value symbol) of each field read
            ("known", ()),  # lazy/lazier#: (atom, level, fresh, class, representative): level 1 None-ness decided, 2 identity
        ),
    )


def location(value: object) -> Arg | None:
    """The location of a reference value (None: 0), or None for a value of another kind."""
    if value is None:
        return 0
    if isinstance(value, SymRef):
        return value.loc
    if isinstance(value, Ref):
        return -value.id
    return None


def make_ref(cls: str, loc: Arg, nullable: bool) -> object:
    if isinstance(loc, Term):
        return SymRef(cls, loc, nullable)
    if loc == 0:
        return None
    assert isinstance(loc, int) and loc < 0, loc
    return Ref(-loc)


def leaf_set(loc: Arg) -> list[Arg]:
    """The distinct leaves of an ite of locations (atoms and constants), in first-met order."""
    found: dict[Arg, None] = {}
    seen: set[Arg] = set()
    todo = [loc]
    while todo:
        t = todo.pop()
        if t in seen:
            continue
        seen.add(t)
        if isinstance(t, Term) and t.op == "ite":
            todo += [t.args[2], t.args[1]]
        else:
            found.setdefault(t, None)
    return list(found)


def leaves(loc: Arg) -> Iterator[tuple[Arg, Arg]]:
    """(condition, leaf) for each path to a leaf of an ite of locations (exponential in the
    worst case: only for reads no ite joins)."""
    if isinstance(loc, Term) and loc.op == "ite":
        c, a, b = loc.args
        for cond, leaf in leaves(a):
            yield T.and_(c, cond), leaf
        for cond, leaf in leaves(b):
            yield T.and_(T.not_(c), cond), leaf
    else:
        yield True, loc


class _NoMerge(Exception):
    """Two values an ite cannot join (a list and an int): the read splits instead."""


def merge(cond: Arg, a: object, b: object, tx: InputsTx | None = None) -> object:
    """The value that is ``a`` where ``cond`` holds, else ``b`` (an ite), if one value can say it
    (``tx``: where the class of an object the code created is read)."""
    if a is _DONT_CARE:
        return b
    if b is _DONT_CARE or cond is True or a is b:
        return a
    if cond is False:
        return b
    if isinstance(a, MaybeNone) or isinstance(b, MaybeNone):
        ma, mb = _as_maybe(a, b), _as_maybe(b, a)
        if ma is None or mb is None:
            raise _NoMerge()
        return MaybeNone(T.ite(cond, ma.none, mb.none), T.ite(cond, ma.value, mb.value))  # type: ignore[arg-type]
    if a is None and _scalar_sort(b) is not None:  # None written over a scalar: an Optional scalar now
        return MaybeNone(cond, b)
    if b is None and _scalar_sort(a) is not None:
        return MaybeNone(T.not_(cond), a)
    la, lb = location(a), location(b)
    if la is not None and lb is not None and not (a is None and b is None):
        cls = _class_of(a, tx) or _class_of(b, tx)
        other = _class_of(b, tx) or cls
        if cls is None or cls != other:  # two objects the code created, of no class known here: a split
            raise _NoMerge()
        return make_ref(cls, T.ite(cond, la, lb), _nullable(a) or _nullable(b))
    if _scalar_sort(a) is not None and _scalar_sort(a) == _scalar_sort(b):
        return T.ite(cond, a, b)  # type: ignore[arg-type]
    if a == b and type(a) is type(b):
        return a
    raise _NoMerge()


def _as_maybe(value: object, other: object) -> MaybeNone | None:
    """``value`` as the value of an Optional scalar field merged with ``other`` (one of them a
    ``MaybeNone``), if it can be one: None, or a scalar of the other's sort."""
    other_value = other.value if isinstance(other, MaybeNone) else other
    if isinstance(value, MaybeNone):
        return value
    if value is None:
        return MaybeNone(True, other_value)
    if _scalar_sort(value) is not None and _scalar_sort(value) == _scalar_sort(other_value):
        return MaybeNone(False, value)
    return None


def _same_initial(a: object, b: object) -> Arg:
    """Two initial-value symbols of one field are equal (both parts of an Optional scalar's)."""
    if isinstance(a, MaybeNone) and isinstance(b, MaybeNone):
        return T.and_(T.eq(a.none, b.none), T.eq(a.value, b.value))  # type: ignore[arg-type]
    return T.eq(a, b)  # type: ignore[arg-type]


def _class_of(value: object, tx: InputsTx | None) -> str | None:
    if isinstance(value, SymRef):
        return value.cls
    if isinstance(value, Ref) and tx is not None:
        record = tx.record(value)
        return record.cls if isinstance(record, ObjRec) else None
    return None


def _nullable(value: object) -> bool:
    return value is None or (isinstance(value, SymRef) and value.nullable)


def _scalar_sort(value: object) -> str | None:
    return T.sort_of(value) if isinstance(value, (Term, bool, int, str)) else None


@dataclass
class InputsTx:
    """Record writes and assumptions of one operation, read back before they are applied."""

    heap: HeapView
    pending: dict[Ref, Record]
    assumptions: list[Arg]

    def record(self, ref: Ref) -> Record:
        found = self.pending.get(ref)
        return found if found is not None else self.heap.record(ref)

    def write(self, ref: Ref, record: Record) -> None:
        self.pending[ref] = record

    def inputs(self) -> ObjRec:
        record = self.record(INPUTS)
        assert isinstance(record, ObjRec)
        return record

    def get(self, name: str) -> object:
        return self.inputs().get(name)[1]

    # the fields of INPUTS, of the types inputs_record gives them (only this module writes it)

    def atoms(self) -> Atoms:
        return cast(Atoms, self.get("atoms"))

    def inits(self) -> _Inits:
        return cast(_Inits, self.get("inits"))

    def known(self) -> tuple[Known, ...]:
        return cast(tuple[Known, ...], self.get("known"))

    def max_objects(self) -> int:
        return cast(int, self.get("max_objects"))

    def max_str_len(self) -> int:
        return cast(int, self.get("max_str_len"))

    def put(self, name: str, value: object) -> None:
        self.write(INPUTS, self.inputs().with_field(name, value))

    def done(self, outcome: Outcome) -> Outcome:
        """``outcome`` with the pending writes (on its ``Ok``) and under the assumptions."""
        writes = tuple(self.pending.items())
        if writes and isinstance(outcome, Ok):
            outcome = Ok(outcome.value, writes + outcome.writes)
        elif writes and isinstance(outcome, Split):
            outcome = Split(tuple((c, self._with(o, writes)) for c, o in outcome.cases))
        if self.assumptions:
            return Split(((T.conj(self.assumptions), outcome),))
        return outcome

    def _with(self, outcome: Outcome, writes: tuple[tuple[Ref, Record], ...]) -> Outcome:
        if isinstance(outcome, Ok):
            return Ok(outcome.value, writes + outcome.writes)
        if isinstance(outcome, Split):
            return Split(tuple((c, self._with(o, writes)) for c, o in outcome.cases))
        return outcome


def inputs_tx(heap: HeapView) -> InputsTx:
    return InputsTx(heap, {}, [])


# ---------------------------------------------------------------- atoms and fields


def _atom_record(tx: InputsTx, atom: Term, cls: str) -> Ref:
    """The record of ``atom``, created (all fields uninitialized) on its first dereference."""
    atoms = tx.atoms()
    for a, ref, _ in atoms:
        if a is atom:
            return ref
    ref = tx.heap.fresh()
    tx.write(ref, ObjRec(cls, ()))
    tx.put("atoms", atoms + ((atom, ref, cls),))
    return ref


def _compatible(tx: InputsTx, cls: str) -> list[tuple[Term, Ref]]:
    return [(a, ref) for a, ref, c in tx.atoms() if c == cls]


def _declared(module: Module, cls: str) -> dict[str, FieldShape]:
    from pathloom.frontend.fields import declared_fields

    return {f.name: f.shape for f in declared_fields(module, cls)}


def _initialize(module: Module, tx: InputsTx, atom: Term, cls: str, name: str, shape: FieldShape) -> object:
    """Rule Getfield (r2): the first read of ``atom.name``; returns its current value."""
    symbol_name = f"{atom.args[0]}.{name}"
    scalar = scalar_of(shape)
    symbol: object
    if scalar is not None:
        initial: object = T.sym(symbol_name, SCALAR_SORTS[scalar])
        if scalar == "str":
            tx.assumptions.append(T.le(T.str_len(initial), tx.max_str_len()))  # type: ignore[arg-type]
        if scalar != shape:  # Optional[int]...: None where its flag holds
            initial = MaybeNone(T.sym(none_flag(symbol_name), BOOL), initial)
        symbol = initial
    else:
        _, field_cls, nullable = as_reference(shape)
        symbol = T.sym(symbol_name, INT)
        tx.assumptions.append(T.le(0 if nullable else 1, symbol))
        initial = SymRef(field_cls, symbol, nullable)
    inits = tx.inits()
    for c, f, other, other_symbol in inits:
        if c == cls and f == name and other is not atom:
            # congruence, for objects only: two None locations are equal, and the fields read
            # through them (ite alternatives no execution takes) need not be
            tx.assumptions.append(T.or_(T.or_(T.not_(_alias(tx, atom, other)), T.eq(atom, 0)), _same_initial(symbol, other_symbol)))
    value = initial
    for other, ref in _compatible(tx, cls):
        record = tx.record(ref)
        assert isinstance(record, ObjRec)
        present, current = record.get(name)
        if other is not atom and present:
            try:
                value = merge(_alias(tx, atom, other), current, value, tx)
            except _NoMerge:
                raise RuntimeUnsupported(f"field '{name}' of a possibly aliased input {cls} holds values of different kinds") from None
    tx.put("inits", inits + ((cls, name, atom, symbol),))
    ref = _atom_record(tx, atom, cls)
    record = tx.record(ref)
    assert isinstance(record, ObjRec)
    tx.write(ref, record.with_field(name, value))
    return value


def _read_leaf(module: Module, tx: InputsTx, cls: str, leaf: Arg, name: str, shape: FieldShape) -> object:
    if isinstance(leaf, Term):
        ref = _atom_record(tx, leaf, cls)
        record = tx.record(ref)
        assert isinstance(record, ObjRec)
        present, value = record.get(name)
        return value if present else _initialize(module, tx, leaf, cls, name, shape)
    if leaf == 0:
        return _DONT_CARE
    record = tx.record(Ref(-int(leaf)))
    if not isinstance(record, ObjRec) or record.cls != cls:
        raise _NoMerge()
    present, value = record.get(name)
    if not present:
        raise _NoMerge()
    return value


def _read(module: Module, tx: InputsTx, cls: str, loc: Arg, name: str, shape: FieldShape, memo: dict[Arg, object]) -> object:
    """Rule Getfield (c2): the ite of the reads of the leaves (``memo``: an ite of locations is
    a DAG, each shared part read once)."""
    stack: list[tuple[Arg, bool]] = [(loc, False)]  # iterative: a loop's location is a deep ite chain
    while stack:
        node, expanded = stack.pop()
        if node in memo:
            continue
        if isinstance(node, Term) and node.op == "ite":
            c, a, b = node.args
            if expanded:
                memo[node] = merge(c, memo[a], memo[b], tx)
            else:  # the then-branch's leaves are read (and initialized) first
                stack += [(node, True), (b, False), (a, False)]
        else:
            memo[node] = _read_leaf(module, tx, cls, node, name, shape)
    return memo[loc]


def read_field(module: Module, heap: HeapView, ref: SymRef, name: str) -> Outcome | None:
    """``ref.name`` for a declared field ``name`` of a reference known not to be None here
    (None when ``name`` is not a declared field: a method or class attribute)."""
    shape = _declared(module, ref.cls).get(name)
    if shape is None:
        return None
    tx = inputs_tx(heap)
    try:
        value = _read(module, tx, ref.cls, ref.loc, name, shape, {})
    except _NoMerge:
        return _read_split(module, heap, ref, name)
    assert value is not _DONT_CARE
    if isinstance(value, MaybeNone):  # an Optional scalar field: None or its value
        return tx.done(split([(value.none, Ok(None)), (T.not_(value.none), Ok(value.value))]))
    if isinstance(value, SymRef) and _policy(tx).forks_on_read:
        # lazy initialization proper: a reference field is initialized (forked) when it is read
        decided = resolve(module, heap, (value,), "deref")
        if decided is not None:
            return decided
    return tx.done(Ok(value))


class Unreadable(Exception):
    """A field ``FieldReader`` cannot read as one value (no ite joins its leaves' values)."""


class FieldReader:
    """Reads of input objects' fields outside an instruction, in one transaction: the compose
    engine reads, in a calling context, the fields a summary's path conditions name
    (``engines.compose.heap_formals``). ``read`` gives the current value (the ite over the
    possibly aliased locations, as ``read_field`` computes it, an Optional scalar field as its
    ``MaybeNone``), or None through a location that is None on every leaf; ``record`` reads a
    record as the reads so far left it; ``outcome`` is their writes under their assumptions,
    to apply as an instruction's. POSE only: lazy initialization and lazier# decide aliasing
    when a reference is used, which a read outside the program cannot do."""

    def __init__(self, module: Module, heap: HeapView) -> None:
        self.module = module
        self.tx = inputs_tx(heap)

    def read(self, ref: SymRef, name: str) -> object:
        shape = _declared(self.module, ref.cls).get(name)
        if shape is None:
            raise Unreadable(f"{ref.cls}.{name} is no declared field")
        try:
            value = _read(self.module, self.tx, ref.cls, ref.loc, name, shape, {})
        except _NoMerge:
            raise Unreadable(f"{ref.cls}.{name} holds values no ite joins") from None
        return None if value is _DONT_CARE else value

    def record(self, ref: Ref) -> Record:
        return self.tx.record(ref)

    def outcome(self) -> Outcome:
        return self.tx.done(Ok(None))


def _read_split(module: Module, heap: HeapView, ref: SymRef, name: str) -> Outcome:
    """A read whose leaves hold values no ite joins: one case per leaf."""
    from pathloom.semantics.calls import getattr_

    cases: list[tuple[Arg, Outcome]] = []
    for cond, leaf in leaves(ref.loc):
        if leaf == 0:
            continue
        if isinstance(leaf, Term):
            cases.append((cond, read_field(module, heap, SymRef(ref.cls, leaf, False), name)))  # type: ignore[arg-type]
        else:
            cases.append((cond, getattr_(module, heap, Ref(-int(leaf)), name)))
    return split(cases)


def write_field(module: Module, heap: HeapView, ref: SymRef, name: str, value: object) -> Outcome:
    """``ref.name = value`` (Putfield) for a reference known not to be None here."""
    shape = _declared(module, ref.cls).get(name)
    if shape is None:
        raise RuntimeUnsupported(f"assigning attribute '{name}' that class {ref.cls} does not declare, on an input object")
    tx = inputs_tx(heap)
    loc: Arg = ref.loc
    for leaf in leaf_set(loc):
        if isinstance(leaf, Term):
            atom_ref = _atom_record(tx, leaf, ref.cls)
            record = tx.record(atom_ref)
            if leaf is not loc and not record.get(name)[0]:  # type: ignore[union-attr]
                _initialize(module, tx, leaf, ref.cls, name, shape)
        elif leaf != 0:
            target = Ref(-int(leaf))
            record = tx.record(target)
            if not isinstance(record, ObjRec) or record.cls != ref.cls or not record.get(name)[0]:
                raise RuntimeUnsupported(f"assigning '{name}' through an input reference that may be an object the code created without it")
            tx.write(target, record.with_field(name, _merged(tx, T.eq(loc, leaf), value, record.get(name)[1], name, ref.cls)))
    for other, atom_ref in _compatible(tx, ref.cls):
        record = tx.record(atom_ref)
        assert isinstance(record, ObjRec)
        present, current = record.get(name)
        if other is loc:
            tx.write(atom_ref, record.with_field(name, value))
        elif present:
            tx.write(atom_ref, record.with_field(name, _merged(tx, _alias(tx, loc, other), value, current, name, ref.cls)))
    return tx.done(Ok(None))


def _merged(tx: InputsTx, cond: Arg, new: object, old: object, name: str, cls: str) -> object:
    try:
        return merge(cond, new, old, tx)
    except _NoMerge:
        raise RuntimeUnsupported(f"field '{name}' of a possibly aliased input {cls} assigned a value of another kind") from None


# ---------------------------------------------------------------- tests on references


def identical(a: object, b: object) -> Arg | None:
    """``a is b`` when one side is an input reference (None: neither is)."""
    if not isinstance(a, SymRef) and not isinstance(b, SymRef):
        return None
    la, lb = location(a), location(b)  # a MaybeNone field value is split by its read: never seen here
    if la is None or lb is None:
        return False  # an input object is never an int, a list...
    if isinstance(a, SymRef) and isinstance(b, SymRef) and a.cls != b.cls:
        return T.and_(T.eq(la, 0), T.eq(lb, 0))
    return T.eq(la, lb)


def not_none(ref: SymRef) -> Arg:
    return T.not_(T.eq(ref.loc, 0))


def none_case(ref: SymRef, name: str, message: str) -> list[tuple[Arg, Outcome]]:
    """The AttributeError (CPython's ``message``) of ``ref.name`` where ``ref`` is None (no
    case when the types exclude it)."""
    if not ref.nullable:
        return []
    return [(T.eq(ref.loc, 0), throw("AttributeError", message))]


# ---------------------------------------------------------------- heap models


class InputPolicy(Protocol):
    """A heap model for input references: when their aliasing is decided, and how."""

    # a reference read from a field is decided at once (lazy initialization proper)
    forks_on_read: bool

    def resolve(self, tx: InputsTx, refs: list[SymRef], use: str) -> Outcome | None:
        """The split to make before ``use`` ("deref" or "test") of ``refs``; None: nothing
        to decide."""
        ...

    def alias(self, tx: InputsTx, a: Arg, b: Term) -> Arg:
        """The condition that location ``a`` is the atom ``b``."""
        ...


_MODELS: dict[str, str] = {}  # name -> "module:attribute" of its policy
_LOADED: dict[str, InputPolicy] = {}


def register_model(name: str, path: str) -> None:
    if name in _MODELS:
        raise ValueError(f"heap model {name!r} registered twice")
    _MODELS[name] = path


def model_names() -> tuple[str, ...]:
    """The registered heap models, in the order they were registered (the default first)."""
    return tuple(_MODELS)


def policy(name: str) -> InputPolicy:
    found = _LOADED.get(name)
    if found is None:
        module_name, _, attr = _MODELS[name].partition(":")
        found = _LOADED[name] = cast(InputPolicy, getattr(importlib.import_module(module_name), attr))
    return found


register_model("pose", "pathloom.heap.pose:POSE")
register_model("lazier", "pathloom.heap.lazy:LAZIER")
register_model("lazy", "pathloom.heap.lazy:LAZY")


def _policy(tx: InputsTx) -> InputPolicy:
    return policy(cast(str, tx.get("model")))


def resolve(module: Module, heap: HeapView, values: tuple[object, ...], use: str) -> Outcome | None:
    """The split the path's heap model makes before ``use`` ("deref" or "test") of the input
    references among ``values`` whose aliasing it has not decided; None: nothing to decide
    (always, under POSE)."""
    refs = [v for v in values if isinstance(v, SymRef)]
    if not refs:
        return None
    tx = inputs_tx(heap)
    return _policy(tx).resolve(tx, refs, use)


def _alias(tx: InputsTx, a: Arg, b: Term) -> Arg:
    return _policy(tx).alias(tx, a, b)

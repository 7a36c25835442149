"""Runtime values of the analyzed program, shared by every engine.

A value is one of: a concrete Python value (``int``, ``bool``, ``str``, ``float``, ``None``,
or a ``tuple`` of values); a symbolic ``Term`` of sort Int, Bool or Str; or one of the frozen
records below. Mutable Python objects (lists, instances) live in the heap and are referred to
by ``Ref``; the records stored in the heap (``ListRec``, ``ObjRec``) are immutable, so a heap
write replaces a record and forking a state never shares mutable data. All values are
hashable, so value summaries can join equal values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union, cast

from pathloom.terms.expr import Arg, Term


@dataclass(frozen=True)
class Ref:
    """A reference to a heap record (a list or an instance)."""

    id: int


@dataclass(frozen=True)
class SymRef:
    """A reference received as input (``semantics.input_heap``): ``loc`` is its location, an Int term
    over the location symbols of the input references (``0`` is None, a negative constant
    ``-k`` the object ``Ref(k)`` the code created); locations of one class are one space, so
    two input references alias exactly when their locations are equal. ``nullable``: whether
    ``loc`` may be 0 by the types (an ``Optional`` input); the path may still exclude it."""

    cls: str
    loc: Arg
    nullable: bool


@dataclass(frozen=True)
class MaybeNone:
    """The value an input object's ``Optional[int]`` (``str | None``...) field holds, stored in
    its record only (``semantics.input_heap``): None where the Bool ``none`` holds, else ``value``. A
    read turns it into a split, so the program never sees one."""

    none: Arg
    value: object


@dataclass(frozen=True)
class FuncVal:
    qualname: str
    captured: tuple[object, ...] = ()  # a closure's values of the enclosing function's variables


@dataclass(frozen=True)
class SliceVal:
    """The slice ``start:stop:step`` of an item assignment target (``xs[a:b] = ...``)."""

    start: object
    stop: object
    step: object


@dataclass(frozen=True)
class TableFunc:
    """A ``Callable[[A], R]`` input: the function that maps ``x`` to ``values[i]`` for the
    first ``i < size`` whose ``keys[i] == x`` (Python's key equality), else to ``default``: a
    lookup table the solver chooses, replayed as ``lambda x: {k: v, ...}.get(x, default)``
    (``table_function``)."""

    name: str
    size: object  # Int term
    keys: tuple[object, ...]
    values: tuple[object, ...]
    default: object


def table_function(table: dict[object, object], default: object):  # type: ignore[no-untyped-def]
    """The real function a ``TableFunc`` input is (a lambda, as CPython names it)."""
    return lambda x: table.get(x, default)


@dataclass(frozen=True)
class BoundMethod:
    self_ref: Ref
    qualname: str


@dataclass(frozen=True)
class SuperVal:
    """``super()`` in a method of class ``cls`` on receiver ``obj``: attribute lookups start
    after ``cls`` in the receiver's class chain."""

    cls: str
    obj: object


@dataclass(frozen=True)
class ClassVal:
    name: str


@dataclass(frozen=True)
class BuiltinVal:
    name: str


@dataclass(frozen=True, eq=False)
class PyObj:
    """A real CPython object the semantics does not model (a module-level value that is not
    a literal, a class it does not analyse and its instances, the result of an operation run
    in CPython). Operations on it run in CPython (``semantics.concretize``); it is hashed and
    compared by identity, as the object it stands for."""

    obj: object


@dataclass(frozen=True, eq=False)
class MatchVal:
    """The ``re.Match`` of ``re.<mode>(pattern, string, flags)`` on a path where the str term
    ``string`` matches (``semantics.regex``): its groups are read symbolically where the
    model covers them; anything else makes the real object in CPython on the pinned string
    (``concretize``). One per call, compared by identity as the object it stands for."""

    pattern: str
    flags: int
    mode: str
    string: Term

    def rebuild(self, string: str) -> object:
        """The real match object for a value of ``string`` (one that matches)."""
        import re

        found = getattr(re.compile(self.pattern, self.flags), self.mode)(string)
        assert found is not None, (self.pattern, string)  # the path's condition says it matches
        return found


@dataclass(frozen=True)
class Message:
    """An exception message that shows symbolic values: ``template.format(*values)`` under the
    path's model (``ord() expected a character, but string of length {} found``)."""

    template: str
    values: tuple[object, ...]


@dataclass(frozen=True)
class ExcVal:
    """An exception instance: its class name (builtin or user-defined) and its args.

    ``uid`` tells apart instances the analyzed code creates (``raise E(...)`` twice makes two
    exceptions, and re-raising keeps the first one's line only for the same instance);
    exceptions raised implicitly by an operation have uid 0."""

    cls: str
    args: tuple[object, ...]
    uid: int = 0
    text: str | None = None  # str() of the exception, when CPython made it (an operation run in CPython)


@dataclass(frozen=True)
class RangeVal:
    start: object
    stop: object
    step: int


@dataclass(frozen=True)
class RangeIter:
    current: object
    stop: object
    step: int


@dataclass(frozen=True, eq=False)
class Watch:
    """The heap records an iterator made in CPython reads copies of (the lists, dicts, sets and
    objects the call that made it was given), as they were after that call: CPython's own
    iterator would see later changes to them, the copy does not, so using the iterator after
    one of them changed is unsupported (``sequences.check_watch``). Compared by identity, and
    not a tuple, so that no walk over values (terms, merges) looks inside."""

    records: tuple[tuple[Ref, Record], ...]


@dataclass(frozen=True)
class SeqIter:
    """Iterator over a list (``seq`` is a ``Ref``), a str or a tuple, at position ``index``;
    ``watch``: for the items a CPython iterator had left (a ``for`` loop over it), what they
    were computed from (``Watch``)."""

    seq: object
    index: int
    watch: Watch | None = None


@dataclass(frozen=True)
class RevIter:
    """``reversed()`` of a list or str at ``index`` (counting down); CPython's reverse list
    iterator checks the index against the list's current length at every step."""

    seq: object
    index: object  # an int, or an Int term for a str of symbolic length


@dataclass(frozen=True)
class DrawIter:
    """An iterator CPython made (``itertools.repeat(None)``), inside a ``zip`` loop: its items
    drawn one at a time from a copy of the record's untouched ``source`` advanced past ``pos``
    (an infinite one is drawn only as far as the loop goes)."""

    source: object  # a PyObj
    pos: int
    watch: Watch | None = None


@dataclass(frozen=True)
class ZipIter:
    """``zip()`` of iterators the model advances (list, str, tuple and range iterators)."""

    iters: tuple[object, ...]


@dataclass(frozen=True)
class ListRec:
    """A list: ``length`` (int or Int term) and ``items``; positions >= length are unused.

    Invariant: ``len(items)`` is an upper bound of every value ``length`` can take on the path.
    """

    length: object
    items: tuple[object, ...]


def list_length(record: ListRec) -> Arg:
    """``record.length``: an int or an Int term. (The field is typed ``object`` because the
    MultiSE heap's lazy list record overrides it with a property of that type.)"""
    return cast(Arg, record.length)


def concrete_length(record: ListRec) -> int:
    """``int(record.length)`` of a list whose length the caller knows is concrete (no term)."""
    return int(cast(int, record.length))


@dataclass(frozen=True)
class ObjRec:
    cls: str
    fields: tuple[tuple[str, object], ...]

    def get(self, name: str) -> tuple[bool, object]:
        for key, value in self.fields:
            if key == name:
                return True, value
        return False, None

    def with_field(self, name: str, value: object) -> ObjRec:
        """The record after ``obj.name = value``: an existing attribute keeps its place (as in
        an instance ``__dict__``), a new one comes last."""
        if any(k == name for k, _ in self.fields):
            return ObjRec(self.cls, tuple((k, value if k == name else v) for k, v in self.fields))
        return ObjRec(self.cls, self.fields + ((name, value),))


@dataclass(frozen=True, eq=False)
class DictRec:
    """A dict: its keys and values in insertion order (``semantics.dicts``).

    Invariant: on every path that holds the record, the number of entries is concrete and the
    keys are pairwise different under Python's key equality (``1`` and ``True`` are one key);
    each key is None, a bool, int, str or float, an Int, Bool or Str term, or a tuple of these.
    ``cls`` is the type name CPython shows in messages. Records compare by identity: ``==``
    on the tuples would take the key ``True`` for ``1`` (value summaries join equal values).
    """

    keys: tuple[object, ...]
    values: tuple[object, ...]
    # a ``collections.defaultdict``: its ``default_factory``, a builtin class (``BuiltinVal``
    # of one of ``DEFAULT_FACTORIES``) that a missing key's lookup calls and inserts; None: a dict
    default: object = None
    cls: ClassVar[str] = "dict"

    @property
    def shown(self) -> str:
        """The type name CPython shows in messages."""
        return "dict" if self.default is None else "collections.defaultdict"


# the default factories of a ``defaultdict`` the dict model holds (``DictRec.default``)
DEFAULT_FACTORIES = ("list", "dict", "set", "int", "float", "str", "bool", "tuple")


@dataclass(frozen=True)
class DictView:
    """``d.keys()``, ``d.values()`` or ``d.items()`` (``kind``) of the dict ``ref``: a live view."""

    ref: Ref
    kind: str


@dataclass(frozen=True, eq=False)
class DictIter:
    """An iterator over the dict ``ref`` (``kind`` as in ``DictView``) at entry ``index``;
    ``keys``: the dict's keys when the iteration started (a change is detected at ``next``)."""

    ref: Ref
    kind: str
    index: int
    keys: tuple[object, ...]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, DictIter)
            and (self.ref, self.kind, self.index) == (other.ref, other.kind, other.index)
            and len(self.keys) == len(other.keys)
            and all(a is b for a, b in zip(self.keys, other.keys))
        )

    def __hash__(self) -> int:
        return hash((self.ref, self.kind, self.index, len(self.keys)))


@dataclass(frozen=True, eq=False)
class SetHistory:
    """One step of how CPython built a set (``semantics.sets``): ``op`` is ``"new"`` (an empty
    set), ``"from"`` (``set(items)``: ``args[0]`` an ``Items``), ``"copy"``, a binary operator
    (``"|"``, ``"&"``, ``"-"``, ``"^"``) or a method making a new set (``"union"`` ...) of the
    set ``parent`` builds, or a change in place of that set (``"add"``, ``"discard"``,
    ``"clear"``, ``"|="`` ..., ``"update"`` ...); ``args``: the values or operands (an
    operand set is its ``SetHistory``, a sequence an ``Items``). Replayed in CPython it gives
    the set's hash table, hence its iteration order. Compares by identity (it holds terms)."""

    op: str
    parent: SetHistory | None
    args: tuple[object, ...]


@dataclass(frozen=True, eq=False)
class Items:
    """A sequence of values handed to a set operation (replayed as a list)."""

    values: tuple[object, ...]


@dataclass(frozen=True, eq=False)
class SetRec:
    """A set: its items in the model's order, which is not CPython's (``semantics.sets``).

    Invariant, on every path that holds the record: the number of items is concrete and the
    items are pairwise different under Python's key equality (as a ``DictRec``'s keys), each
    the object CPython keeps (the first one added). ``history`` rebuilds the set in CPython
    (its iteration order). Records compare by identity."""

    items: tuple[object, ...]
    history: SetHistory
    cls: ClassVar[str] = "set"


@dataclass(frozen=True, eq=False)
class SetIter:
    """An iterator over the set ``ref`` yielding ``order`` (CPython's iteration order) from
    ``index``; ``items``: the set's items when the iteration began (a change is detected)."""

    ref: Ref
    order: tuple[object, ...]
    index: int
    items: tuple[object, ...]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SetIter) and (self.ref, self.index) == (other.ref, other.index) and self.order is other.order and self.items is other.items

    def __hash__(self) -> int:
        return hash((self.ref, self.index, len(self.order)))


Record = Union[ListRec, ObjRec, DictRec, SetRec]


class _EmptyCell:
    """The content of a cell whose variable is not bound yet (``ir.MakeCell``)."""

    def __repr__(self) -> str:
        return "<empty cell>"


EMPTY_CELL = _EmptyCell()


class _Unbound:
    """The value of a deleted local (``del x``, an ``except ... as`` name after its clause):
    reading it raises UnboundLocalError."""

    def __repr__(self) -> str:
        return "<unbound>"


UNBOUND = _Unbound()

# the reference of the first cell of a module-level name that code rebinds with ``global``
# (``Module.global_cell``): above every allocation (upward from 1) and ``semantics.input_heap.INPUTS``,
# below the input references (``engines.entry``)
GLOBAL_CELLS = 3 << 28

# An iterator produced by CPython (``zip``, ``enumerate``, ``map``, ``iter``...): an ``ObjRec``
# of this class with fields ``type`` (its type name), ``source`` (a ``PyObj`` holding an
# untouched copy of the real iterator, never advanced) and ``pos`` (how many items this path
# has taken), so that each path consumes its own copy and items are made only when taken (an
# item that raises raises where CPython takes it). ``looped`` is set once a ``for`` loop took
# it over: where that loop stopped is not recorded, so using it again is unsupported.
ITERATOR = "%iterator"

# A library object the code made and changes (a deque, an OrderedDict, a seeded Random...):
# an ``ObjRec`` of this class, rebuilt in CPython for each operation from a private copy of it
# as made and the log of the operations that changed it (``semantics.replayed``).
REPLAYED = "%replayed"


def iterator_record(type_name: str, source: object, watch: Watch | None = None) -> ObjRec:
    return ObjRec(ITERATOR, (("type", type_name), ("source", source), ("pos", 0), ("looped", False), ("watch", watch)))


def is_symbolic(value: object) -> bool:
    return isinstance(value, Term)


def type_name(value: object) -> str:
    """The Python type name of a value, as CPython prints it in error messages."""
    from pathloom.terms.expr import BOOL, INT

    if isinstance(value, Term):
        return {INT: "int", BOOL: "bool", "Float": "float"}.get(value.sort, "str")
    if value is None:
        return "NoneType"
    if isinstance(value, Ref):
        return "object"  # callers that know the record say "list" or the class
    if isinstance(value, SymRef):
        return value.cls  # an input object where it is known not to be None
    if isinstance(value, (FuncVal, BuiltinVal, TableFunc)):
        return "function"
    if isinstance(value, BoundMethod):
        return "method"
    if isinstance(value, ClassVal):
        return "type"
    if isinstance(value, ExcVal):
        return value.cls
    if isinstance(value, RangeVal):
        return "range"
    if isinstance(value, PyObj):
        return type(value.obj).__name__
    if isinstance(value, MatchVal):
        return "re.Match"
    if isinstance(value, DictView):
        return f"dict_{value.kind}"
    if isinstance(value, SetIter):
        return "set_iterator"
    if isinstance(value, DictIter):
        return {"keys": "dict_keyiterator", "values": "dict_valueiterator"}.get(value.kind, "dict_itemiterator")
    return type(value).__name__


def from_runtime(obj: object) -> object:
    """A value of the real module as a pathloom value: immutable literals as themselves, any
    other object opaque (``PyObj``), run in CPython when used."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if type(obj) is tuple and all(o is None or isinstance(o, (bool, int, float, str)) for o in obj):
        return obj
    return PyObj(obj)


# Every runtime value a local variable, an operand or a record's field can hold: the closed
# set the semantics produces (``is_value`` checks it; the suite checks every binding, see
# ``semantics.step.bindings``). Concrete Python values are ``None``, ``bool``, ``int``,
# ``float``, ``complex`` (a result CPython computed), ``str`` and tuples of values; symbolic ones are ``Term``s; the rest are the classes above.
Value = Union[
    None,
    bool,
    int,
    float,
    complex,
    str,
    tuple[object, ...],
    Term,
    Ref,
    SymRef,
    MaybeNone,
    FuncVal,
    SliceVal,
    TableFunc,
    BoundMethod,
    SuperVal,
    ClassVal,
    BuiltinVal,
    PyObj,
    MatchVal,
    ExcVal,
    RangeVal,
    RangeIter,
    SeqIter,
    RevIter,
    DrawIter,
    ZipIter,
    DictView,
    DictIter,
    SetIter,
    _EmptyCell,
    _Unbound,
]
_SCALARS = (type(None), bool, int, float, complex, str)
_CLASSES = (
    Term, Ref, SymRef, MaybeNone, FuncVal, SliceVal, TableFunc, BoundMethod, SuperVal, ClassVal, BuiltinVal, PyObj, MatchVal, ExcVal, RangeVal, RangeIter, SeqIter,
    RevIter, DrawIter, ZipIter, DictView, DictIter, SetIter, _EmptyCell, _Unbound,
)  # fmt: skip


def is_value(value: object) -> bool:
    """Whether ``value`` is in the closed set ``Value`` (a tuple's items too)."""
    if isinstance(value, _SCALARS) or isinstance(value, _CLASSES):
        return True
    return isinstance(value, tuple) and all(is_value(item) for item in value)

"""Replayed objects: library objects the analysed code makes and then changes (a
``collections.deque``, ``OrderedDict`` or ``Counter``, a ``random.Random(seed)``), kept per
path as a heap record from which each operation rebuilds the real object in CPython.

A replayed object is an ``ObjRec`` of class ``REPLAYED`` (``domain.values``) with fields
``type`` (the real type's name), ``origin`` (a ``PyObj``: a private copy of the object as it
was made, never handed out) and ``log`` (a tuple of ``PyObj`` entries, one per operation run
in CPython that changed the object: the operation and deep copies of its pinned operands,
the object itself as a placeholder). It is made where an operation run in CPython returns a
new object of one of these types (``adopt``): a call of the type itself, of a method of a
replayed object, of ``copy.copy``/``copy.deepcopy`` or of an operator on one; a seeded
``random.Random(x)`` is let through the refusal of module ``random`` (``seeded_random``),
``Random()`` and ``Random(None)`` (seeded by the OS) stay refused. An operation that reads
or changes it (``concretize.Materializer``) works on a fresh copy of ``origin`` with the log
replayed on it, and when the operation changed the object's state (``state``) it is appended
to the log of a new record (``after_call``).

Invariants: no real object is shared between paths: every operation rebuilds its own, and
the record is immutable, so forking a state copies nothing and MultiSE merges its fields as
cells like any instance's. The rebuilt object is exactly the one CPython has at that point of
the path: its making and every operation that changed it are deterministic and are run again
on exactly the values they saw (pinned: a concretization, counted and reported as one).
After every operation the object holds plain data only (None, bool, int, float, complex,
str, bytes, and tuples and frozensets of these), else unsupported: nothing it holds has an
identity a path could see change. Only known operations are logged (a method called on the
object, except dunders and an unseeded ``Random.seed``; item assignment and deletion;
in-place operators); any other operation run in CPython that changes it is unsupported, and
so is one that changes it and raises. A result that would see the real object of one
operation only (a bound method, a dict view) is unsupported; an iterator over it is watched
(``concretize.Importer.watch_iterators``): using it after the object changed is unsupported.
"""

from __future__ import annotations

import collections
import copy
import gc
import math
import operator
import random
import types
from typing import TYPE_CHECKING, Any, Callable, cast

from pathloom.domain.outcome import Outcome, RuntimeUnsupported
from pathloom.domain.values import ITERATOR, REPLAYED, DictRec, ListRec, ObjRec, PyObj, Ref

if TYPE_CHECKING:
    from pathloom.frontend.module import Module
    from pathloom.semantics.concretize import Importer, Materializer
    from pathloom.semantics.heapview import HeapView

#: The types whose objects are replayed (exact types: a subclass may do anything).
TYPES: tuple[type, ...] = (collections.deque, collections.OrderedDict, collections.Counter, random.Random)

SEEDED = random.Random  # made with an explicit seed only (``seeded_random``)

#: Operations (besides methods of the object, ``Method``) whose change to a replayed operand is logged.
LOGGED: tuple[Callable[..., object], ...] = (
    operator.setitem,
    operator.delitem,
    operator.iadd,
    operator.isub,
    operator.iand,
    operator.ior,
    operator.imul,
)

#: Operations whose new result of a replayed type is adopted when a replayed object is an operand.
MAKERS: tuple[Callable[..., object], ...] = (
    copy.copy,
    copy.deepcopy,
    operator.add,
    operator.sub,
    operator.and_,
    operator.or_,
    operator.mul,
    operator.pos,
    operator.neg,
    *LOGGED,
)


class Method:
    """``receiver.name(*args, **kwargs)``: a method of a replayed object run in CPython."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.__qualname__ = name

    def __call__(self, receiver: object, *args: object, **kwargs: object) -> object:
        return getattr(receiver, self.name)(*args, **kwargs)


class _Self:
    """The placeholder of the replayed object in a logged operation's operands."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Self:
        return self


SELF = _Self()


def is_replayed(record: object) -> bool:
    return isinstance(record, ObjRec) and record.cls == REPLAYED


def shown_type(record: ObjRec) -> str:
    """The real type's name (``deque``), as CPython's messages show it."""
    return str(record.get("type")[1])


def rebuild(record: ObjRec, resolve: Callable[[Ref], object]) -> object:
    """A fresh real object: a copy of the record's origin with its log replayed on it (a
    view: the view of its dict, ``resolve`` giving the real dict of a reference)."""
    fields = dict(record.fields)
    if "view" in fields:
        of, kind = cast(tuple[Ref, str], fields["view"])
        return getattr(resolve(of), kind)()
    if "method" in fields:
        of, name = cast(tuple[Ref, str], fields["method"])
        return getattr(resolve(of), name)
    origin, log = fields["origin"], fields["log"]
    assert isinstance(origin, PyObj) and isinstance(log, tuple)
    start, obj = 0, origin.obj
    for i in range(len(log) - 1, -1, -1):  # the latest state remembered: replay only what follows it
        hit = _STATES.get(id(log[i]))
        if hit is not None and hit[0] is log[i]:
            start, obj = i + 1, hit[1]
            break
    obj = fresh_copy(obj)
    for entry in log[start:]:
        fn, args, kwargs = entry.obj
        args, kwargs = copy.deepcopy((args, kwargs), {id(SELF): obj})
        try:
            fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - it ran without raising on these very values
            raise RuntimeUnsupported(f"replaying an operation on a {type(obj).__name__} raised {type(exc).__name__}") from None
    return obj


#: A copy of the object as each recent log entry left it (keyed by the entry's id; the entry
#: is kept beside it, so the id is not reused while the copy is), never handed out: an entry
#: ends exactly one log prefix, so the copy is the state that prefix makes.
_STATES: collections.OrderedDict[int, tuple[PyObj, object]] = collections.OrderedDict()
MAX_STATES = 512


def _remember(entry: PyObj, obj: object) -> None:
    try:
        _STATES[id(entry)] = (entry, fresh_copy(obj))
    except Exception:  # noqa: BLE001 - not remembered: replayed from the origin
        return
    if len(_STATES) > MAX_STATES:
        _STATES.popitem(last=False)


def plain(value: object) -> bool:
    """Data without an identity a path could observe changing."""
    if value is None or type(value) in (bool, int, float, complex, str, bytes):
        return True
    if type(value) in (tuple, frozenset):
        return all(plain(x) for x in value)  # type: ignore[attr-defined]
    return False


def state(obj: object) -> tuple[object, ...]:
    """What operations can change of a replayed object (its items, its generator's state,
    its attributes), as plain data unless the object holds something else."""
    if isinstance(obj, random.Random):
        return (obj.getstate(), contents(obj))
    return contents(obj)


def contents(obj: object) -> tuple[object, ...]:
    """What a replayed object holds (a generator's state aside: ints, by construction)."""
    own = tuple(vars(obj).items()) if hasattr(obj, "__dict__") else ()
    if isinstance(obj, random.Random):
        return own
    if isinstance(obj, collections.deque):
        return (obj.maxlen, tuple(obj), own)
    assert isinstance(obj, dict)
    return (tuple(obj.items()), own)


def fresh_copy(obj: object) -> object:
    """A copy of a replayed object (its contents are plain data: a shallow copy is a deep
    one); a generator is rebuilt from its state without seeding one from the OS first."""
    if type(obj) is random.Random:
        clone = random.Random.__new__(random.Random)
        clone.setstate(obj.getstate())
        vars(clone).update(vars(obj))
        return clone
    return copy.copy(obj)


def same(a: object, b: object) -> bool:
    """Equal plain data, types and float signs included (``1 == True``, ``0.0 == -0.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple) and len(a) > 64 and all(type(x) is int for x in a) and all(type(x) is int for x in b):  # type: ignore[attr-defined]
        return a == b  # a generator's state: ints, compared at C speed
    if isinstance(a, tuple):
        other = cast(tuple[object, ...], b)
        return len(a) == len(other) and all(same(x, y) for x, y in zip(a, other))
    if isinstance(a, frozenset):  # plain items: their reprs tell them apart exactly
        return sorted(map(repr, a)) == sorted(map(repr, cast(frozenset[object], b)))
    if isinstance(a, float):
        f = cast(float, b)
        return a == f and math.copysign(1.0, a) == math.copysign(1.0, f) or (a != a and f != f)
    if isinstance(a, complex):
        c = cast(complex, b)
        return same(a.real, c.real) and same(a.imag, c.imag)
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return False


def _check_plain(obj: object) -> None:
    if not plain(contents(obj)):
        raise RuntimeUnsupported(
            f"a {type(obj).__name__} holding something other than plain data (None, bool, int, float, str, bytes, tuples) changed by the code"
        )


def new_record(obj: object) -> ObjRec | None:
    """The record of a new object of a replayed type (its origin a private copy); None when
    it holds more than plain data (it stays a CPython object, whose changes are unsupported)."""
    if not plain(contents(obj)):
        return None
    try:
        origin = fresh_copy(obj)
    except Exception:  # noqa: BLE001
        return None
    return ObjRec(REPLAYED, (("type", type(obj).__name__), ("origin", PyObj(origin)), ("log", ())))


def view_record(of: Ref, kind: str, type_name: str) -> ObjRec:
    """The record of ``d.keys()``/``values()``/``items()`` of the replayed dict ``of``: a live
    view, made from the dict as the path has it whenever it is used."""
    return ObjRec(REPLAYED, (("type", type_name), ("view", (of, kind))))


def method_record(of: Ref, name: str, type_name: str) -> ObjRec:
    """The record of the method ``name`` of the replayed object ``of`` read without a call
    (``key=c.get``): bound, whenever it is used, to the object as the path has it then. A
    call of it that changes the object is unsupported (it is not one of its methods' calls)."""
    return ObjRec(REPLAYED, (("type", type_name), ("method", (of, name))))


def iterable(record: ObjRec) -> bool:
    """Whether ``*obj`` iterates a replayed object (a generator or a method does not)."""
    fields = dict(record.fields)
    return "method" not in fields and fields["type"] != "Random"


def real(heap: HeapView, ref: Ref) -> object:
    """The real object a replayed record stands for (to show a value the code returns)."""
    record = heap.record(ref)
    assert isinstance(record, ObjRec)
    return rebuild(record, lambda of: real(heap, of))


# ---------------------------------------------------------------- hooks of concretize


def materialize(materializer: Materializer, ref: Ref, record: ObjRec) -> object:
    """The real object for an operation run in CPython (``Materializer``), its state watched."""
    obj = rebuild(record, materializer.value)
    materializer.built[ref.id] = obj
    if "view" not in dict(record.fields) and "method" not in dict(record.fields):  # these do not change by themselves: their object does
        materializer.replayed.append((ref, obj))
    return obj


Pending = list[tuple[Ref, object, tuple[object, ...], object]]  # ref, real object, state before, operands with it as SELF


def before_call(materializer: Materializer, fn: Callable[..., object], args: list[object], kwargs: dict[str, object]) -> Pending:
    """For each replayed object among an operation's operands: its state and the operands,
    copied with the object as ``SELF``, before the operation runs."""
    pending: Pending = []
    mine = [obj for _, obj in materializer.replayed]
    data = all(_harmless(x, mine) for x in [*args, *kwargs.values()])  # no code of the module runs again in a replay
    for ref, obj in materializer.replayed:
        if isinstance(fn, Method) and args and args[0] is obj:
            _check_method(obj, fn.name, args[1:], kwargs)
        try:
            operands = copy.deepcopy((tuple(args), dict(kwargs)), {id(obj): SELF}) if data else None
        except Exception:  # noqa: BLE001 - cannot be replayed: unsupported if the operation changes the object
            operands = None
        pending.append((ref, obj, state(obj), operands))
    return pending


def _check_method(obj: object, name: str, args: list[object], kwargs: dict[str, object]) -> None:
    if name.startswith("_"):
        raise RuntimeUnsupported(f"method {name}() of a {type(obj).__name__}")
    if isinstance(obj, random.Random) and name == "seed":
        _check_seed(args[0] if args else kwargs.get("a"), "random.Random.seed()")


def after_call(module: Module, heap: HeapView, pending: Pending, fn: Callable[..., object], raised: bool) -> list[tuple[Ref, ObjRec]]:
    """The new records of the replayed objects the operation changed (its log entry added)."""
    writes: list[tuple[Ref, ObjRec]] = []
    for ref, obj, before, operands in pending:
        if same(before, state(obj)):
            continue
        what = type(obj).__name__
        if raised:
            raise RuntimeUnsupported(f"an operation run in CPython changed a {what} and raised")
        if not (isinstance(fn, Method) or _among(fn, LOGGED)):
            raise RuntimeUnsupported(f"an operation run in CPython other than its methods changed a {what}")
        if operands is None:
            raise RuntimeUnsupported(
                f"a change to a {what} by an operation with operands other than plain data and builtin containers of it (a function, an iterator, an object)"
            )
        _check_plain(obj)
        record = heap.record(ref)
        assert isinstance(record, ObjRec)
        fields = dict(record.fields)
        log = fields["log"]
        assert isinstance(log, tuple)
        entry = PyObj((fn, *cast(tuple[object, object], operands)))
        _remember(entry, obj)
        writes.append((ref, record.with_field("log", log + (entry,))))
    return writes


def adopt(importer: Importer, materializer: Materializer, fn: Callable[..., object], operands: list[object], result: object, value: object) -> object:
    """``value`` (what ``result`` was imported as), or a new replayed record when ``result``
    is a new object of a replayed type that an operation run in CPython made (see the module
    docstring); a result that would see one operation's real object is unsupported."""
    mine = [obj for _, obj in materializer.replayed]
    owner = result.__self__ if mine and isinstance(result, _BOUND) else None
    if any(owner is obj for obj in mine):
        if not (fn is getattr and len(operands) == 2 and operands[0] is owner and isinstance(operands[1], str)):
            raise RuntimeUnsupported(f"a method of a {type(owner).__name__} made in CPython")
        ref = importer.heap.fresh()
        importer.writes.append((ref, method_record(importer.known[id(operands[0])], operands[1], type(result).__name__)))
        return ref
    if mine and type(result).__name__.startswith(("odict_", "dict_")):
        if not (isinstance(fn, Method) and fn.name in ("keys", "values", "items") and operands and any(operands[0] is o for o in mine)):
            raise RuntimeUnsupported(f"a {type(result).__name__} view of a dict made in CPython")
        ref = importer.heap.fresh()
        importer.writes.append((ref, view_record(importer.known[id(operands[0])], fn.name, type(result).__name__)))
        return ref
    if mine:
        for held in _opaque_values(importer, value):  # an iterator CPython made is a watched record instead
            if _refers(held.obj, mine):
                raise RuntimeUnsupported(f"a {type(held.obj).__name__} over a {type(mine[0]).__name__} made in CPython (it would not see the object change)")
    if not (isinstance(value, PyObj) and value.obj is result and type(result) in TYPES):
        return value
    name = fn.__qualname__ if isinstance(fn, _FUNCTIONS) else None  # (a callable object's own __getattr__ is not run)
    made = _among(fn, TYPES) or fn is _seeded or (bool(operands) and _among(operands[0], TYPES) and name == "fromkeys")  # a constructor: a new object
    if operands and operands[0] is copy and name in ("copy", "deepcopy"):
        fn, operands = getattr(copy, str(name)), operands[1:]  # copy.deepcopy(x): a method of module copy
    known = isinstance(fn, Method) or _among(fn, MAKERS) or (isinstance(fn, types.FunctionType) and fn.__module__ == "pathloom.semantics.ops")  # an operator
    if not made and not (mine and known and all(_harmless(x, mine) for x in operands) and not _reaches(operands, result)):
        return value  # not known to be new: maybe an object of the module, shared by every path
    record = new_record(result)
    if record is None:
        return value
    ref = importer.heap.fresh()
    importer.known[id(result)] = ref
    importer.writes.append((ref, record))
    return ref


def _opaque_values(importer: Importer, value: object) -> list[PyObj]:
    """The CPython objects among ``value`` and the records the call made (not the copies
    iterator records and replayed records keep to themselves)."""
    found: list[PyObj] = []
    todo: list[object] = [value]
    for _, record in importer.writes:
        if isinstance(record, ObjRec) and record.cls not in (REPLAYED, ITERATOR):
            todo.extend(x for _, x in record.fields)
        elif isinstance(record, ListRec):
            todo.extend(record.items)
        elif isinstance(record, DictRec):
            todo.extend((*record.keys, *record.values))
    while todo:
        v = todo.pop()
        if isinstance(v, PyObj):
            found.append(v)
        elif isinstance(v, tuple):
            todo.extend(v)
    return found


_BOUND = (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)
_FUNCTIONS = (types.FunctionType, types.BuiltinFunctionType)


def _among(value: object, group: tuple[object, ...]) -> bool:
    """``value in group`` by identity (``in`` would call an object's own ``__eq__``)."""
    return any(value is member for member in group)


def _harmless(value: object, mine: list[object]) -> bool:
    """Plain data, a replayed object, or a builtin container of these: operands whose
    operations call no code of the module (which could return a module-level object)."""
    if plain(value) or type(value) in (range, slice) or any(value is obj for obj in mine):
        return True
    if type(value) in (list, tuple, set, frozenset):
        return all(_harmless(x, mine) for x in value)  # type: ignore[attr-defined]
    if isinstance(value, dict) and type(value) is dict:
        return all(_harmless(x, mine) for pair in value.items() for x in pair)
    return False


def _refers(obj: object, targets: list[object], limit: int = 1_000) -> bool:
    """Whether ``obj`` holds a reference to one of ``targets`` (directly or through the
    objects it refers to, up to ``limit`` of them; modules and classes are not followed)."""
    seen: set[int] = set()
    todo = [obj]
    while todo and len(seen) < limit:
        v = todo.pop()
        if any(v is t for t in targets):
            return True
        if id(v) in seen or plain(v) or isinstance(v, (type, types.ModuleType)):
            continue
        seen.add(id(v))
        todo.extend(gc.get_referents(v))
    return bool(todo)


def _reaches(operands: list[object], target: object, limit: int = 10_000) -> bool:
    """Whether ``target`` is among the objects ``operands`` reach (through containers and
    attributes); True when there are too many to look through."""
    seen: set[int] = set()
    todo = list(operands)
    while todo:
        v = todo.pop()
        if v is target or len(seen) > limit:
            return True
        if id(v) in seen or plain(v):
            continue
        seen.add(id(v))
        if isinstance(v, dict):
            todo.extend(v.keys())
            todo.extend(v.values())
        elif isinstance(v, (list, tuple, set, frozenset, collections.deque)):
            todo.extend(v)
        if hasattr(v, "__dict__") and not isinstance(v, type):
            todo.extend(vars(v).values())
    return False


# ---------------------------------------------------------------- hooks of calls


def _check_seed(seed: object, what: str) -> None:
    """A seed that fixes the generator's state: None seeds from the OS, a NaN by its address."""
    if seed is None:
        raise RuntimeUnsupported(f"{what} without a seed (seeded from the OS: its answers change from one run to the next)")
    if isinstance(seed, float) and seed != seed:
        raise RuntimeUnsupported(f"{what} seeded with a NaN (hashed by its address: its answers change from one run to the next)")


def _seeded(*args: object, **kwargs: object) -> random.Random:
    _check_seed(args[0] if args else kwargs.get("x"), "random.Random()")
    return random.Random(*args, **kwargs)  # type: ignore[arg-type]


_seeded.__qualname__ = "Random"


def seeded_random(module: Module, heap: HeapView, args: tuple[object, ...], kwargs: tuple[tuple[str, object], ...]) -> Outcome:
    """``random.Random(seed)`` in CPython, a new replayed object (refused without a seed)."""
    from pathloom.semantics.concretize import run_concretely

    return run_concretely(module, heap, "random.Random()", _seeded, args, kwargs)


def call_method(module: Module, heap: HeapView, ref: Ref, name: str, args: tuple[object, ...], kwargs: tuple[tuple[str, object], ...]) -> Outcome:
    """``obj.name(*args, **kwargs)`` of a replayed object, in CPython on the rebuilt object."""
    from pathloom.semantics.concretize import run_concretely

    record = heap.record(ref)
    assert isinstance(record, ObjRec)
    return run_concretely(module, heap, f"{shown_type(record)}.{name}()", Method(name), (ref,) + args, kwargs)


def getattr_(module: Module, heap: HeapView, ref: Ref, name: str) -> Outcome:
    """``obj.name`` of a replayed object (a method read without a call is unsupported: ``adopt``)."""
    from pathloom.semantics.concretize import run_concretely

    return run_concretely(module, heap, f"attribute .{name}", getattr, (ref, name))


def is_replayed_ref(heap: HeapView, value: object) -> bool:
    """Whether ``value`` refers to a replayed object."""
    return isinstance(value, Ref) and is_replayed(heap.record(value))

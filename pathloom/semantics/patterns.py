"""What the two hidden builtins of ``match`` patterns mean (``frontend.lowering.matching``).

``%mapping_get(subject, key, *earlier)`` is one step of CPython's ``MATCH_KEYS`` for a mapping
pattern: ``key`` is hashed and checked against the keys looked up before it (``earlier``: a
key equal to one of them is CPython's ``ValueError: mapping pattern checks duplicate key
(...)``; an unhashable one its ``TypeError``), then looked up as ``subject.get(key, dummy)``
does: the result is ``(True, value)`` or ``(False, None)`` when the key is missing (a
``defaultdict``'s factory is not called). A dict is looked up in the model
(``semantics.dicts``); another mapping, and keys the model does not compare, run in CPython
(concretized, reported).

``%match_attribute(subject, name)`` is one attribute read of a class pattern
(``match_class_attr``): ``(True, subject.name)``, or ``(False, None)`` where the read raises
``AttributeError`` (or a subclass), which CPython swallows: no match. A read that runs
analysed code (a property, ``__getattr__``) is unsupported: an ``AttributeError`` raised
inside it would have to be swallowed too, which a call the engine performs cannot do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from pathloom.domain.outcome import Invoke, NotModeled, Ok, Outcome, RuntimeUnsupported, Split, Throw, map_ok, split, throw
from pathloom.frontend.lowering.matching import MAPPING_GET, MATCH_ATTRIBUTE
from pathloom.semantics import dicts as D
from pathloom.semantics.concretize import run_concretely
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.ops import is_plain
from pathloom.terms import expr as T
from pathloom.terms.expr import Arg

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

HELPERS = frozenset({MAPPING_GET, MATCH_ATTRIBUTE})

_MISSING = object()  # the dummy default of the lookup: never a value of the analysed code
_NOT_FOUND = (False, None)


def call_helper(module: Module, heap: HeapView, name: str, args: tuple[object, ...], getattr_: Callable[[object, str], Outcome]) -> Outcome:
    """One of ``HELPERS`` (called by ``semantics.calls.call``)."""
    if name == MAPPING_GET:
        return mapping_get(module, heap, args[0], args[1], args[2:])
    assert isinstance(args[1], str)
    return match_attribute(module, getattr_(args[0], args[1]), args[1])


def mapping_get(module: Module, heap: HeapView, subject: object, key: object, earlier: tuple[object, ...]) -> Outcome:
    record = D.record_of(heap, subject)
    try:
        if record is None:
            raise NotModeled("a mapping pattern on a mapping that is not a dict")
        problem = D.unhashable(heap, key)
        if problem is not None:
            return problem
        seen: Arg = False
        for other in earlier:
            seen = T.or_(seen, D.same_key(heap, key, other))
        if seen is not False and not is_plain(key):
            raise NotModeled("a symbolic key of a mapping pattern that may equal another of its keys")
        found = D.call_method(heap, subject, record, "get", (key, _MISSING))  # type: ignore[arg-type]
    except NotModeled:
        return run_concretely(module, heap, "mapping pattern lookup", _real_lookup, (subject, key) + earlier)
    lookup = map_ok(found, lambda ok: Ok(_NOT_FOUND if ok.value is _MISSING else (True, ok.value), ok.writes))
    if seen is False:
        return lookup
    return split([(seen, throw("ValueError", f"mapping pattern checks duplicate key ({key!r})")), (T.not_(seen), lookup)])


def _real_lookup(mapping: object, key: object, *earlier: object) -> tuple[bool, object]:
    """The same step in CPython: the keys seen so far in a set, then ``mapping.get``."""
    seen = set(earlier)
    if key in seen:
        raise ValueError(f"mapping pattern checks duplicate key ({key!r})")
    value = mapping.get(key, _MISSING)  # type: ignore[attr-defined]
    return _NOT_FOUND if value is _MISSING else (True, value)


def match_attribute(module: Module, read: Outcome, name: str) -> Outcome:
    """The outcome of reading the attribute, as the class pattern sees it."""
    if isinstance(read, Split):
        return Split(tuple((c, match_attribute(module, o, name)) for c, o in read.cases))
    if isinstance(read, Ok):
        return Ok((True, read.value), read.writes)
    if isinstance(read, Throw) and _is_attribute_error(module, read.exc.cls):
        return Ok(_NOT_FOUND)
    if isinstance(read, Invoke):
        raise RuntimeUnsupported(f"a class pattern reading attribute {name!r} through a property or __getattr__ (its AttributeError would be swallowed)")
    return read


def _is_attribute_error(module: Module, cls: str) -> bool:
    current: str | None = cls
    while current is not None:
        if current == "AttributeError":
            return True
        current = module.exception_base(current)
    return False

"""Values to JSON, for both sides of the replay check.

``encode_symbolic`` turns an engine value (terms evaluated under a model, heap records
followed) into JSON; ``encode_python`` does the same for a real CPython object. The replay
check compares the two, so they must agree on every kind of value:
int/bool/str/None as themselves (an int too long for CPython's decimal text, of more than
``sys.get_int_max_str_digits()`` digits, as ``{"$int": "0x..."}`` in the JSON text:
``json_safe``), non-finite
floats as ``{"$float": "inf"}``, lists as arrays,
tuples as ``{"$tuple": [...]}``, instances as ``{"$object": cls, "$id": n, "fields": {...}}``
with a later occurrence of the same instance as ``{"$ref": n}`` (aliasing), functions as
``{"$function": qualname}`` (every lambda as ``<lambda>``), classes as ``{"$class": name}``,
exceptions as ``{"$exception": cls, "args": [...]}``, ranges as ``{"$range": [start, stop, step]}``,
sets as ``{"$set": [...]}`` (items sorted by their JSON text), dicts as ``{"$dict": [[key, value],
...]}`` (insertion order), any other object as ``{"$opaque": type name, "repr": text}`` (the
repr only when it shows no memory address, so that it is the same in every process).
"""

from __future__ import annotations

import enum
import json
import math
import re
import sys
from typing import Any, Mapping, cast

from pathloom.domain.values import (
    ITERATOR,
    REPLAYED,
    BoundMethod,
    BuiltinVal,
    ClassVal,
    DictRec,
    DictView,
    ExcVal,
    FuncVal,
    ListRec,
    MatchVal,
    MaybeNone,
    ObjRec,
    PyObj,
    RangeVal,
    Ref,
    SetRec,
    SymRef,
    TableFunc,
    table_function,
)
from pathloom.terms.evaluate import evaluate
from pathloom.terms.expr import Term

JSON = Any


#: Ints of more digits than CPython writes as decimal text (``sys.get_int_max_str_digits()``,
#: 4,300; 0 is no limit) are written in hex (``{"$int": "0x..."}``).
_DIGITS = sys.get_int_max_str_digits()
_TOO_LONG = 10**_DIGITS if _DIGITS else None


def is_long_int(value: object) -> bool:
    return type(value) is int and _TOO_LONG is not None and abs(value) >= _TOO_LONG


def json_safe(value: JSON) -> JSON:
    """``value`` (a JSON value encoding) with every long int as ``{"$int": "0x..."}``, so
    that ``json.dumps`` can write it; the same object when it holds none."""
    if is_long_int(value):
        return {"$int": hex(value)}
    if isinstance(value, list):
        safe = [json_safe(v) for v in value]
        return value if all(a is b for a, b in zip(safe, value)) else safe
    if isinstance(value, dict):
        safe_items = {k: json_safe(v) for k, v in value.items()}
        return value if all(safe_items[k] is v for k, v in value.items()) else safe_items
    return value


def long_int(value: JSON) -> int | None:
    """The int written as ``{"$int": "0x..."}``; None for any other value."""
    if isinstance(value, dict) and value.keys() == {"$int"} and isinstance(value["$int"], str):
        return int(value["$int"], 16)
    return None


def _float(value: float) -> JSON:
    if math.isfinite(value):
        return value
    return {"$float": repr(value)}


def _function_name(qualname: str) -> str:
    return "<lambda>" if "<lambda" in qualname else qualname.replace(".<locals>", "")


def encode_symbolic(value: object, heap: Any, model: Mapping[str, Any]) -> JSON:
    ids: dict[object, int] = {}
    open_lists: set[object] = set()  # the lists being encoded: one met again is inside itself
    memo: dict[Term, Any] = {}
    inputs: list[Any] = []  # (initial graph, current fields) of the input objects, when met

    def input_object(cls: str, loc: object) -> JSON:
        from pathloom.heap.input_objects import current_objects

        if not inputs:
            inputs.extend(current_objects(heap, model))
        graph, current = inputs
        key = ("input", cls, loc)
        if key in ids:
            return {"$ref": ids[key]}
        ids[key] = len(ids) + 1
        fields: dict[str, JSON] = {}
        now = current.get((cls, loc), {})
        for f in graph._fields(cls):
            if f.name in now:
                fields[f.name] = enc(now[f.name])
            else:
                initial = graph.initial_field(cls, loc, f)
                fields[f.name] = input_object(*initial[1:]) if isinstance(initial, tuple) else _float(initial) if isinstance(initial, float) else initial
        return {"$object": cls, "$id": ids[key], "fields": fields}

    def enc(v: object) -> JSON:
        if isinstance(v, MaybeNone):  # an Optional scalar field of an input object
            return None if evaluate(v.none, model, memo) else enc(v.value)
        if isinstance(v, SymRef):
            loc = cast(int, evaluate(v.loc, model, memo))  # an Int term's value
            if loc == 0:
                return None
            return enc(Ref(-loc)) if loc < 0 else input_object(v.cls, loc)
        if isinstance(v, Term):
            return evaluate(v, model, memo)
        if isinstance(v, float):
            return _float(v)
        if v is None or isinstance(v, (bool, int, str)):
            return v
        if isinstance(v, tuple):
            return {"$tuple": [enc(x) for x in v]}
        if isinstance(v, Ref):
            record = heap.record(v)
            if isinstance(record, ListRec):
                if ("list", v.id) in open_lists:
                    return {"$opaque": "list"}  # a list inside itself (see encode_python)
                open_lists.add(("list", v.id))
                n = enc(record.length)
                items = [enc(x) for x in record.items[:n]]
                open_lists.discard(("list", v.id))
                return items
            if isinstance(record, DictRec):
                return {"$dict": [[enc(k), enc(x)] for k, x in zip(record.keys, record.values)]}
            if isinstance(record, SetRec):
                return {"$set": sorted((enc(x) for x in record.items), key=lambda e: json.dumps(e, sort_keys=True))}
            assert isinstance(record, ObjRec)
            if record.cls == ITERATOR:
                return {"$opaque": record.get("type")[1]}
            if record.cls == REPLAYED:  # a deque, an OrderedDict...: the real one, rebuilt
                from pathloom.semantics.replayed import real

                return encode_python(real(heap, v))
            if v.id in ids:
                return {"$ref": ids[v.id]}
            ids[v.id] = len(ids) + 1
            return {"$object": record.cls, "$id": ids[v.id], "fields": {k: enc(x) for k, x in record.fields}}
        if isinstance(v, (FuncVal, TableFunc)):  # a Callable input is a lambda in CPython
            return {"$function": "<lambda>" if isinstance(v, TableFunc) else _function_name(v.qualname)}
        if isinstance(v, BoundMethod):
            return {"$method": _function_name(v.qualname)}
        if isinstance(v, (ClassVal, BuiltinVal)):
            return {"$class": v.name}
        if isinstance(v, ExcVal):
            return {"$exception": v.cls, "args": [enc(x) for x in v.args]}
        if isinstance(v, RangeVal):
            return {"$range": [enc(v.start), enc(v.stop), v.step]}
        if isinstance(v, PyObj):
            return encode_python(v.obj)
        if isinstance(v, MatchVal):  # a match of a modelled pattern (semantics.regex): the real one, on the model's string
            return encode_python(v.rebuild(cast(str, evaluate(v.string, model, memo))))
        if isinstance(v, DictView):
            return _view(v.kind, enc(v.ref))
        return encode_python(v)  # a Python value an operation run in CPython gave (a complex...)

    try:
        return enc(value)
    finally:
        # ``enc`` refers to itself through its closure: without this the cycle would keep
        # ``heap`` (a whole MultiSE engine and its BDD guards) alive until the cyclic GC, which
        # may then free the BDD manager before its guards (dd reports it on stderr).
        # ``input_object`` calls itself too.
        del enc, input_object


def _view(kind: str, encoded: JSON) -> JSON:
    """A dict view as ``encode_python`` shows the real one, from its dict's encoding: the
    repr when the entries are plain values (it shows them), else the type name alone."""

    def plain(e: JSON) -> object:
        if isinstance(e, dict):
            if "$tuple" not in e:
                raise ValueError(e)
            return tuple(plain(x) for x in e["$tuple"])
        if isinstance(e, list):
            return [plain(x) for x in e]
        return e

    try:
        real = {plain(k): plain(x) for k, x in encoded["$dict"]}
    except (ValueError, TypeError):
        return {"$opaque": f"dict_{kind}"}
    return encode_python(getattr(real, kind)())


def encode_python(value: object) -> JSON:
    ids: dict[int, int] = {}
    open_lists: set[int] = set()  # the lists being encoded: one met again is inside itself

    def enc(v: object) -> JSON:
        if isinstance(v, float):
            return _float(v)
        if v is None or isinstance(v, (bool, int, str)):
            return v
        if isinstance(v, tuple):
            return {"$tuple": [enc(x) for x in v]}
        if isinstance(v, list):
            if id(v) in open_lists:
                return {"$opaque": "list"}  # a list inside itself: x.append(x)
            open_lists.add(id(v))
            items = [enc(x) for x in v]
            open_lists.discard(id(v))
            return items
        if isinstance(v, range):
            return {"$range": [v.start, v.stop, v.step]}
        if isinstance(v, BaseException):
            return {"$exception": type(v).__name__, "args": [enc(x) for x in v.args]}
        if isinstance(v, type):
            return {"$class": v.__name__}
        if callable(v) and hasattr(v, "__qualname__"):
            if hasattr(v, "__self__"):
                return {"$method": _function_name(v.__qualname__)}
            return {"$function": _function_name(v.__qualname__)}
        if isinstance(v, (set, frozenset)):
            return {"$set": sorted((enc(x) for x in v), key=lambda e: json.dumps(e, sort_keys=True))}
        if isinstance(v, dict):
            return {"$dict": [[enc(k), enc(x)] for k, x in v.items()]}
        if hasattr(v, "__dict__") and not isinstance(v, enum.Enum):
            if id(v) in ids:
                return {"$ref": ids[id(v)]}
            ids[id(v)] = len(ids) + 1
            return {"$object": type(v).__name__, "$id": ids[id(v)], "fields": {k: enc(x) for k, x in vars(v).items()}}
        return _opaque(v)

    return enc(value)


def _opaque(value: object) -> JSON:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__: the type alone
        return {"$opaque": type(value).__name__}
    if re.search(r" at 0x[0-9a-fA-F]+", text) or len(text) > 2000:
        return {"$opaque": type(value).__name__}
    return {"$opaque": type(value).__name__, "repr": text}


def decode_inputs(inputs: Mapping[str, JSON], namespace: Mapping[str, Any]) -> dict[str, object]:
    """Rebuild the Python arguments of one call from their JSON forms; ``$object`` inputs
    share one id space (``{"$ref": k}`` in any argument is the object ``$id`` k), and an
    argument ``{"$same": name}`` is the very object given for the earlier argument ``name``:
    a parameter (``xs``) or an argument given to the constructor of a parameter built by it
    (``self.xs``, ``other.items``, ``other.inner.xs``)."""
    return _decode_arguments(inputs, namespace, {}, {}, "")


def _decode_arguments(
    inputs: Mapping[str, JSON], namespace: Mapping[str, Any], objects: dict[int, object], given: dict[str, object], prefix: str
) -> dict[str, object]:
    """The arguments of one call whose arguments are named ``prefix + name``; ``given``: every
    argument decoded so far, by its full name, for the ``$same`` that name it."""
    args: dict[str, object] = {}
    for name, value in inputs.items():
        if isinstance(value, dict) and "$same" in value:
            args[name] = given[str(value["$same"])]
        elif isinstance(value, dict) and "$new" in value:
            args[name] = _construct(value, namespace, objects, given, f"{prefix}{name}.")
        else:
            args[name] = decode_input(value, namespace, objects)
        given[prefix + name] = args[name]
    return args


def _construct(value: Mapping[str, JSON], namespace: Mapping[str, Any], objects: dict[int, object], given: dict[str, object], prefix: str) -> object:
    """The instance ``{"$new": C, "args": ...}`` describes, built by calling ``C``."""
    return namespace[value["$new"]](**_decode_arguments(value["args"], namespace, objects, given, prefix))


def decode_input(value: JSON, namespace: Mapping[str, Any], objects: dict[int, object] | None = None) -> object:
    """Rebuild a Python argument from its JSON form (lists, tuples, ``$new`` instances, and
    ``$object`` input objects: built without ``__init__``, their fields set in order)."""
    if objects is None:
        objects = {}
    if isinstance(value, list):
        return [decode_input(v, namespace, objects) for v in value]
    if isinstance(value, dict):
        if "$tuple" in value:
            return tuple(decode_input(v, namespace, objects) for v in value["$tuple"])
        if "$float" in value:
            return float(value["$float"])
        if "$int" in value:
            return int(value["$int"], 16)
        if "$set" in value:  # an input set: built from its items in that order (its table is the analysed one)
            return set([decode_input(v, namespace) for v in value["$set"]])
        if "$dict" in value:  # an input dict: its entries inserted in that order
            return {decode_input(k, namespace, objects): decode_input(v, namespace, objects) for k, v in value["$dict"]}
        if "$table" in value:  # a Callable input: a lookup table with a default
            return table_function(
                {decode_input(k, namespace, objects): decode_input(v, namespace, objects) for k, v in value["$table"]},
                decode_input(value["default"], namespace, objects),
            )
        if "$new" in value:  # not a parameter's: its arguments name no other
            return _construct(value, namespace, objects, {}, "$new.")
        if "$enum" in value:  # an Enum input: the member of the real class (engines.enum_inputs)
            return namespace[value["$enum"]][value["member"]]
        if "$ref" in value:
            return objects[value["$ref"]]
        if "$object" in value:
            cls = namespace[value["$object"]]
            obj = object.__new__(cls)
            objects[value["$id"]] = obj
            for k, v in value["fields"].items():
                setattr(obj, k, decode_input(v, namespace, objects))
            return obj
        raise ValueError(f"cannot rebuild input {value!r}")
    return value

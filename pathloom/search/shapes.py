"""Input shapes for the coverage-guided search: from a parameter's type hint to a generator and a
mutator of values, both in the JSON value encoding of ``encoding.values`` (what a generated test
writes and ``decode_input`` rebuilds), never in Python objects: what the search runs is exactly
what the test will build.

Shapes: ``int``, ``bool``, ``float`` (inf, -inf, nan and -0.0 always among the candidates),
``str``, ``None``, ``list``/``Sequence``/``Iterable``/``Collection``, ``tuple`` (fixed or ``...``),
``set``/``AbstractSet``, ``dict``/``Mapping``, unions and ``Optional``, ``Literal``,
``Enum`` classes of the module (``$enum``) and classes of the module built by their constructor
(``$new``, from the constructor's own hints; a parameter with neither hint nor default: an int
or a str), ``object`` and ``Any`` (an int, a str, None or a list of ints). Anything else
(``bytes``, ``Callable``, a class of another module) raises ``NotSearchable``: the search skips the target rather
than guess a type. Invariant: ``generate`` and ``mutate`` return values of the shape.
"""

from __future__ import annotations

import collections.abc
import enum
import inspect
import math
import random
import string
import types
import typing
from dataclasses import dataclass, field
from typing import Any

JSON = Any

MAX_ITEMS = 5  # items of a generated container
MAX_DEPTH = 3  # nesting of generated containers and constructed objects


class NotSearchable(Exception):
    """A parameter whose values the search cannot build (the message says which and why)."""


@dataclass
class Pool:
    """The values the search starts from: the module's constants and the literals it compares
    against (``seeds.module_pool``), and the values of the inputs symbolic execution found."""

    ints: list[int] = field(default_factory=list)
    floats: list[float] = field(default_factory=list)
    strs: list[str] = field(default_factory=list)

    def chars(self) -> str:
        return "".join(sorted(set("".join(self.strs)))) or "a"


class Shape:
    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        raise NotImplementedError

    def mutate(self, value: JSON, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        return self.generate(rng, pool, depth)


class IntShape(Shape):
    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        if pool.ints and rng.random() < 0.7:
            return rng.choice(pool.ints)
        return rng.choice([0, 1, -1, 2, rng.randint(-10, 10), rng.randint(-1000, 1000)])

    def mutate(self, value: JSON, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        if not isinstance(value, int) or isinstance(value, bool):
            return self.generate(rng, pool, depth)
        return rng.choice([value + 1, value - 1, -value, value * 2, value // 2, self.generate(rng, pool, depth)])


class BoolShape(Shape):
    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        return rng.random() < 0.5


SPECIAL_FLOATS: list[JSON] = [0.0, -0.0, 0.5, -1.5, 1e300, {"$float": "inf"}, {"$float": "-inf"}, {"$float": "nan"}]


class FloatShape(Shape):
    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        choice = rng.random()
        if pool.floats and choice < 0.4:
            return rng.choice(pool.floats)
        if pool.ints and choice < 0.6:
            number = rng.choice(pool.ints)
            return float(number) if abs(number) < 10**300 else 1e300
        if choice < 0.8:
            return rng.choice(SPECIAL_FLOATS)
        return round(rng.uniform(-100, 100), rng.randint(0, 3))

    def mutate(self, value: JSON, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        if not isinstance(value, float) or not math.isfinite(value):
            return self.generate(rng, pool, depth)
        return rng.choice([value + 1, value - 1, -value, value * 2, value / 2, self.generate(rng, pool, depth)])


class StrShape(Shape):
    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        if pool.strs and rng.random() < 0.6:
            return rng.choice(pool.strs)
        alphabet = pool.chars() + string.ascii_letters[:4] + string.digits[:3] + " -"
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6)))

    def mutate(self, value: JSON, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        if not isinstance(value, str):
            return self.generate(rng, pool, depth)
        alphabet = pool.chars() + string.ascii_letters + string.digits + " .,-_é"
        i = rng.randint(0, len(value))
        return rng.choice(
            [
                value[:i] + rng.choice(alphabet) + value[i:],
                value[:i] + value[i + 1 :],
                value[:i] + rng.choice(alphabet) + value[i + 1 :],
                value + self.generate(rng, pool, depth),
                value.swapcase(),
                value.strip(),
                self.generate(rng, pool, depth),
            ]
        )


class NoneShape(Shape):
    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        return None


@dataclass
class ListShape(Shape):
    item: Shape
    kind: str = "list"  # list | set (``$set``) | tuple (``$tuple``, any length)

    def _wrap(self, items: list[JSON]) -> JSON:
        if self.kind == "set":
            unique = {repr(i): i for i in items}
            return {"$set": list(unique.values())}
        return {"$tuple": items} if self.kind == "tuple" else items

    def _items(self, value: JSON) -> list[JSON] | None:
        if self.kind == "list":
            return list(value) if isinstance(value, list) else None
        tag = "$set" if self.kind == "set" else "$tuple"
        return list(value[tag]) if isinstance(value, dict) and tag in value else None

    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        size = 0 if depth >= MAX_DEPTH else rng.randint(0, MAX_ITEMS)
        return self._wrap([self.item.generate(rng, pool, depth + 1) for _ in range(size)])

    def mutate(self, value: JSON, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        items = self._items(value)
        if items is None or depth >= MAX_DEPTH:
            return self.generate(rng, pool, depth)
        choice = rng.random()
        if items and choice < 0.4:
            i = rng.randrange(len(items))
            items[i] = self.item.mutate(items[i], rng, pool, depth + 1)
        elif items and choice < 0.6:
            del items[rng.randrange(len(items))]
        elif len(items) < 2 * MAX_ITEMS and choice < 0.85:
            items.insert(rng.randint(0, len(items)), self.item.generate(rng, pool, depth + 1))
        elif items:
            items.append(rng.choice(items))  # a repeated item
        return self._wrap(items)


@dataclass
class TupleShape(Shape):
    items: list[Shape]

    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        return {"$tuple": [s.generate(rng, pool, depth + 1) for s in self.items]}

    def mutate(self, value: JSON, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        if not (isinstance(value, dict) and len(value.get("$tuple", ())) == len(self.items)) or not self.items:
            return self.generate(rng, pool, depth)
        items = list(value["$tuple"])
        i = rng.randrange(len(items))
        items[i] = self.items[i].mutate(items[i], rng, pool, depth + 1)
        return {"$tuple": items}


@dataclass
class DictShape(Shape):
    key: Shape
    value: Shape

    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        size = 0 if depth >= MAX_DEPTH else rng.randint(0, MAX_ITEMS)
        entries = {}
        for _ in range(size):
            k = self.key.generate(rng, pool, depth + 1)
            entries[repr(k)] = [k, self.value.generate(rng, pool, depth + 1)]
        return {"$dict": list(entries.values())}

    def mutate(self, value: JSON, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        if not (isinstance(value, dict) and "$dict" in value) or depth >= MAX_DEPTH:
            return self.generate(rng, pool, depth)
        entries = {repr(k): [k, v] for k, v in value["$dict"]}
        keys = list(entries)
        choice = rng.random()
        if keys and choice < 0.4:
            k = rng.choice(keys)
            entries[k] = [entries[k][0], self.value.mutate(entries[k][1], rng, pool, depth + 1)]
        elif keys and choice < 0.6:
            del entries[rng.choice(keys)]
        else:
            k = self.key.generate(rng, pool, depth + 1)
            entries[repr(k)] = [k, self.value.generate(rng, pool, depth + 1)]
        return {"$dict": list(entries.values())}


@dataclass
class ChoiceShape(Shape):
    """A union (``Optional`` included), or ``Literal`` values (shapes of one value each)."""

    options: list[Shape]

    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        return rng.choice(self.options).generate(rng, pool, depth)

    def mutate(self, value: JSON, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        return rng.choice(self.options).mutate(value, rng, pool, depth)


@dataclass
class ConstantShape(Shape):
    value: JSON

    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        return self.value


@dataclass
class NewShape(Shape):
    """An instance of a module class, built by calling it with generated arguments."""

    name: str
    params: dict[str, Shape]

    def generate(self, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        return {"$new": self.name, "args": {k: s.generate(rng, pool, depth + 1) for k, s in self.params.items()}}

    def mutate(self, value: JSON, rng: random.Random, pool: Pool, depth: int = 0) -> JSON:
        if not (isinstance(value, dict) and value.get("$new") == self.name) or not self.params or depth >= MAX_DEPTH:
            return self.generate(rng, pool, depth)
        args = dict(value["args"])
        k = rng.choice(list(self.params))
        args[k] = self.params[k].mutate(args.get(k), rng, pool, depth + 1)
        return {"$new": self.name, "args": args}


_SEQUENCES = {list, collections.abc.Sequence, collections.abc.MutableSequence, collections.abc.Iterable, collections.abc.Collection}
_SETS = {set, collections.abc.Set, collections.abc.MutableSet}  # not frozenset: the encoding has no frozenset
_MAPPINGS = {dict, collections.abc.Mapping, collections.abc.MutableMapping}


def unannotated_shape() -> Shape:
    """The values of a parameter with neither annotation nor default: an int or a str."""
    return ChoiceShape([IntShape(), StrShape()])


def shape_of(hint: object, namespace: dict[str, Any], where: str, depth: int = 0) -> Shape:
    """The shape of values of ``hint`` (a resolved type hint); ``namespace``: the module's, where
    a class must be found by its name for a test to build it; ``where``: for the message."""
    if depth > MAX_DEPTH + 2:
        raise NotSearchable(f"{where}: a type nested too deep")
    simple: dict[object, Shape] = {int: IntShape(), bool: BoolShape(), float: FloatShape(), str: StrShape(), type(None): NoneShape(), None: NoneShape()}
    if hint in simple:
        return simple[hint]
    if hint is object or hint is typing.Any:  # any value is well typed: the everyday ones
        return ChoiceShape([IntShape(), StrShape(), NoneShape(), ListShape(IntShape())])
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        return ChoiceShape([shape_of(a, namespace, where, depth + 1) for a in args])
    if origin is typing.Literal:
        if not all(a is None or isinstance(a, (int, str, bool)) for a in args):
            raise NotSearchable(f"{where}: a Literal of values other than int, str, bool and None")
        return ChoiceShape([ConstantShape(a) for a in args])
    if origin in _SEQUENCES or hint in _SEQUENCES:
        return ListShape(shape_of(args[0], namespace, where, depth + 1) if args else IntShape())
    if origin in _SETS or hint in _SETS:
        return ListShape(shape_of(args[0], namespace, where, depth + 1) if args else IntShape(), "set")
    if origin in _MAPPINGS or hint in _MAPPINGS:
        key, value = (shape_of(a, namespace, where, depth + 1) for a in args) if len(args) == 2 else (StrShape(), IntShape())
        return DictShape(key, value)
    if origin is tuple or hint is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return ListShape(shape_of(args[0], namespace, where, depth + 1), "tuple")
        if not args:
            return ListShape(IntShape(), "tuple")
        return TupleShape([shape_of(a, namespace, where, depth + 1) for a in args])
    if isinstance(hint, type) and namespace.get(hint.__name__) is hint:
        cls = typing.cast(type, hint)
        if issubclass(cls, enum.Enum):
            return ChoiceShape([ConstantShape({"$enum": cls.__name__, "member": m.name}) for m in cls])
        return _constructed(cls, namespace, where, depth)
    raise NotSearchable(f"{where}: values of {getattr(hint, '__name__', hint)!r} (no search shape)")


def _constructed(cls: type, namespace: dict[str, Any], where: str, depth: int) -> Shape:
    try:
        hints = typing.get_type_hints(cls.__init__)  # type: ignore[misc]
        parameters = list(inspect.signature(cls).parameters.values())
    except Exception as exc:  # noqa: BLE001 - a hint that does not resolve
        raise NotSearchable(f"{where}: the constructor of {cls.__name__} ({exc})") from None
    params: dict[str, Shape] = {}
    for p in parameters:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name not in hints:
            if p.default is p.empty:  # no annotation, no default: as for the target's own
                params[p.name] = unannotated_shape()
            continue
        params[p.name] = shape_of(hints[p.name], namespace, f"{where}: {cls.__name__}.{p.name}", depth + 1)
    return NewShape(cls.__name__, params)

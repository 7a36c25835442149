"""Input objects between models and JSON: the object graph a model stands for, and back.

A class-typed input is a location symbol named after its access path (``n``, then ``n.next``
for the reference its field ``next`` holds, ``n.next.val`` for an int field...; see
``semantics.input_heap``). Under a model, locations of one class with the same value are one object
(0 is None). ``decode_objects`` builds the JSON inputs: each object once as
``{"$object": C, "$id": k, "fields": {...}}`` in declared field order, later occurrences as
``{"$ref": k}`` (aliasing between parameters and cycles), numbered in the order the
parameters are walked, as ``encoding.values.encode_python`` numbers the real objects. A field
no path read (its symbol is not in the model) takes the default of its type; a non-Optional
reference nobody read points to an object of its class already built (or a new one).
``current_objects`` gives, for a result's encoding, that graph and the fields each path
read or wrote. ``ObjectEnvironment`` is the inverse: the symbol values of concrete JSON inputs, for any access
path, computed on demand (paths through cycles are unbounded).

Invariant: decoding a model and encoding the result back gives every symbol the model
constrains its model value, up to renaming of object ids (which only equality of locations
observes).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, cast

from pathloom.frontend.fields import Field, as_reference, is_reference, none_flag, scalar_of
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.input_heap import INPUTS, Atoms, Classes, Params
from pathloom.domain.values import ObjRec
from pathloom.terms.evaluate import evaluate
from pathloom.terms import expr as T
from pathloom.terms.expr import BOOL, INT, SCALAR_SORTS, STR, Arg

JSON = Any
_DEFAULTS = {"int": 0, "bool": False, "str": "", "float": 0.0}


class ObjectGraph:
    """The JSON of the input objects one model stands for (shared by all parameters)."""

    def __init__(self, fields_of: Callable[[str], tuple[Field, ...]], model: Mapping[str, Any], params: list[tuple[str, str, bool]]) -> None:
        self._fields = fields_of
        self.model = model
        # a model from the solver names finitely many access paths, and an object's fields may
        # be spread over the paths that reach it; an environment of concrete inputs names every
        # path (unbounded through a cycle) and each describes the whole object: one suffices
        self.one_path_per_object = not isinstance(model, dict)
        self.atoms: dict[tuple[str, int], list[str]] = {}  # (class, location) -> access paths
        for name, cls, nullable in params:
            self._collect(name, cls, nullable)
        if not self.one_path_per_object:
            self._collect_detached(params)
        self.ids: dict[tuple[str, object], int] = {}

    def _collect_detached(self, params: list[tuple[str, str, bool]]) -> None:
        """Access paths through None (``a.next.next`` where ``a.next`` is None) are still names
        of their model location: POSE reads a field through every location an ite-reference may
        hold, so such a path may have been dereferenced under an alias condition, and the value
        it read is then the field of the real object with that location (congruence holds
        among all the paths read). Without them a field read only through such a path would
        decode to its default while the path used the read value."""
        for cls, paths in location_symbols(set(self.model), params, self._fields).items():
            for path in paths:
                loc = int(self.model[path])
                if loc != 0 and path not in self.atoms.get((cls, loc), ()):
                    self.atoms.setdefault((cls, loc), []).append(path)

    def _location(self, name: str, nullable: bool) -> int:
        # membership tests and item access only (no ``get``): ``get`` is how a term's evaluation
        # reads a symbol, which MultiSE records to find what an outcome's report depends on
        return int(self.model[name]) if name in self.model else 0 if nullable else 1

    def _collect(self, name: str, cls: str, nullable: bool) -> None:
        todo = [(name, cls, nullable)]
        while todo:
            path, c, opt = todo.pop()
            loc = self._location(path, opt)
            if loc == 0 or path in self.atoms.get((c, loc), ()) or (self.one_path_per_object and (c, loc) in self.atoms):
                continue
            self.atoms.setdefault((c, loc), []).append(path)
            for f in self._fields(c):
                if is_reference(f.shape) and f"{path}.{f.name}" in self.model:
                    todo.append((f"{path}.{f.name}", f.shape[1], f.shape[2]))

    def value(self, name: str, cls: str, nullable: bool) -> JSON:
        loc = self._location(name, nullable)
        return None if loc == 0 else self._object(cls, loc)

    def _object(self, cls: str, loc: object) -> JSON:
        key = (cls, loc)
        if key in self.ids:
            return {"$ref": self.ids[key]}
        self.ids[key] = len(self.ids) + 1
        fields: dict[str, JSON] = {}
        for f in self._fields(cls):
            value = self.initial_field(cls, loc, f)
            if isinstance(value, float) and not math.isfinite(value):
                value = {"$float": repr(value)}  # as a float input is written (encoding.values)
            fields[f.name] = self._object(*value[1:]) if isinstance(value, tuple) else value
        return {"$object": cls, "$id": self.ids[key], "fields": fields}

    def initial_field(self, cls: str, loc: object, f: Field) -> object:
        """The initial value of field ``f`` of the object (``cls``, ``loc``): a scalar, None,
        or ``("object", class, location)``."""
        paths = self.atoms.get((cls, loc), []) if isinstance(loc, int) else []
        raw = next((self.model[f"{p}.{f.name}"] for p in paths if f"{p}.{f.name}" in self.model), None)
        scalar = scalar_of(f.shape)
        if scalar is not None:
            flags = [none_flag(f"{p}.{f.name}") for p in paths]
            if scalar != f.shape and next((self.model[n] for n in flags if n in self.model), False):
                return None  # an Optional scalar field whose flag says None
            return _DEFAULTS[scalar] if raw is None else raw
        _, target, nullable = as_reference(f.shape)
        if raw is not None:
            return None if raw == 0 else ("object", target, int(raw))
        if nullable:
            return None
        return ("object", target, self._some_location(target, (cls, loc)))

    def _some_location(self, cls: str, current: tuple[str, object]) -> object:
        """An object of ``cls`` for a non-Optional reference no path read: the current object,
        an object of the input, or a new one with default fields."""
        if current[0] == cls:
            return current[1]
        known = sorted(loc for c, loc in self.atoms if c == cls)
        return known[0] if known else "default"


class ObjectEnvironment(Mapping[str, Any]):
    """Symbol values of concrete JSON inputs for the access paths of object parameters."""

    def __init__(self, inputs: Mapping[str, JSON], params: list[tuple[str, str]], fields_of: Callable[[str], tuple[Field, ...]] | None = None) -> None:
        self.roots = {name: (_root_value(inputs, name), cls) for name, cls in params}
        self.fields_of = fields_of
        self.looked_up: dict[str, tuple[bool, Any]] = {}  # the inputs never change: one walk per name
        self.objects: dict[int, JSON] = {}
        for value, _ in self.roots.values():
            self._index(value)

    def _index(self, value: JSON) -> None:
        if isinstance(value, dict) and "$object" in value:
            if value["$id"] in self.objects:
                return
            self.objects[value["$id"]] = value
            for v in value["fields"].values():
                self._index(v)

    def _resolve(self, value: JSON) -> JSON:
        if isinstance(value, dict) and "$ref" in value:
            return self.objects[value["$ref"]]
        return value

    def _shape(self, cls: str | None, name: str) -> object:
        if cls is None or self.fields_of is None:
            return None
        return next((f.shape for f in self.fields_of(cls) if f.name == name), None)

    def _lookup(self, name: str) -> tuple[bool, Any]:
        head, *rest = name.split(".")  # a root is a parameter or an item of one: "xs[0]"
        if head not in self.roots or self.roots[head][0] is _ABSENT:
            return False, None
        value = self._resolve(self.roots[head][0])
        cls: str | None = self.roots[head][1]
        shape: object = None
        for i, part in enumerate(rest):
            optional_scalar = isinstance(shape, tuple) and shape[0] == "optional"
            if optional_scalar and part == "is_none" and i == len(rest) - 1:
                return True, value is None  # the None flag of an Optional scalar field
            if not (isinstance(value, dict) and "$object" in value) or part not in value["fields"]:
                return False, None
            shape = self._shape(cls, part)
            cls = shape[1] if is_reference(shape) else None
            value = self._resolve(value["fields"][part])
        if value is None:
            scalar = scalar_of(shape)
            return True, 0 if scalar is None else _DEFAULTS[scalar]  # None: location 0, or a flagged scalar
        if isinstance(value, dict) and "$object" in value:
            return True, value["$id"]
        return True, value

    def __getitem__(self, name: str) -> Any:
        known = self.looked_up.get(name)
        if known is None:
            known = self.looked_up[name] = self._lookup(name)
        found, value = known
        if not found:
            raise KeyError(name)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self.roots)

    def __len__(self) -> int:
        return len(self.roots)


_ABSENT = object()  # an item past the end of its list: no object


def _root_value(inputs: Mapping[str, JSON], name: str) -> JSON:
    """The JSON of the input object root ``name``: a parameter, or an item (``xs[0][1]``,
    ``d[0]`` the value of a dict's first entry)."""
    base, _, rest = name.partition("[")
    value = inputs.get(base, _ABSENT)
    for index in rest.rstrip("]").split("][") if rest else []:
        if isinstance(value, dict) and "$dict" in value:  # the value of entry k of an input dict
            value = [v for _, v in value["$dict"]]
        if not isinstance(value, list) or int(index) >= len(value):
            return _ABSENT
        value = value[int(index)]
    return value


def heap_axioms(symbols: Iterable[str], params: Iterable[tuple[str, str, bool]], fields_of: Callable[[str], tuple[Field, ...]], max_str_len: int) -> list[Arg]:
    """What every input heap satisfies, over the access-path symbols ``symbols``: each field
    symbol in its field's domain, and congruence (``p == q -> p.f == q.f`` for two location
    symbols of one class that name an object; None has no fields, so what was read through two
    None locations, in ite alternatives no execution takes, need not agree). ``semantics.input_heap``
    assumes these where a path reads the field; a merged condition (MultiSE) may mention a
    symbol its satisfied disjunct never read, left free, and a model must still decode to one
    heap (``ObjectGraph``) on that disjunct."""
    names = set(symbols)
    locations = location_symbols(names, params, fields_of)
    axioms: list[Arg] = []
    for cls, paths in locations.items():
        for f in fields_of(cls):
            for path in paths:
                name = f"{path}.{f.name}"
                if name not in names:
                    continue
                if is_reference(f.shape):
                    axioms.append(T.le(0 if f.shape[2] else 1, T.sym(name, INT)))
                elif scalar_of(f.shape) == "str":
                    axioms.append(T.le(T.str_len(T.sym(name, STR)), max_str_len))
    for cls, paths in locations.items():
        for f in fields_of(cls):
            scalar = scalar_of(f.shape)
            sort = INT if scalar is None else SCALAR_SORTS[scalar]
            present = [p for p in paths if f"{p}.{f.name}" in names or none_flag(f"{p}.{f.name}") in names]
            for i, p in enumerate(present):
                for q in present[i + 1 :]:
                    same = T.eq(T.sym(p, INT), T.sym(q, INT))
                    agree = [T.eq(T.sym(f"{p}.{f.name}", sort), T.sym(f"{q}.{f.name}", sort))]
                    if scalar is not None and scalar != f.shape:
                        agree.append(T.eq(T.sym(none_flag(f"{p}.{f.name}"), BOOL), T.sym(none_flag(f"{q}.{f.name}"), BOOL)))
                    axioms.append(T.or_(T.or_(T.not_(same), T.eq(T.sym(p, INT), 0)), T.conj(agree)))  # None has no fields
    return [a for a in axioms if a is not True]


def location_symbols(names: set[str], params: Iterable[tuple[str, str, bool]], fields_of: Callable[[str], tuple[Field, ...]]) -> dict[str, list[str]]:
    """The location symbols among ``names``, by class (in a fixed order): the roots (object
    parameters and items) and the reference fields reached from them."""
    roots = {name: cls for name, cls, _ in params}
    locations: dict[str, list[str]] = {}
    todo = sorted((n, roots[n]) for n in roots if n in names)
    for root, cls in todo:
        locations.setdefault(cls, []).append(root)
    while todo:
        path, cls = todo.pop(0)
        for f in fields_of(cls):
            name = f"{path}.{f.name}"
            if name in names and is_reference(f.shape):
                locations.setdefault(f.shape[1], []).append(name)
                todo.append((name, f.shape[1]))
    return locations


FALLBACK_LOCATION = 1 << 40  # added to a fallback location: never the $id of a real object


def fallback_values(fallback: Mapping[str, Any], params: Iterable[tuple[str, str, bool]], fields_of: Callable[[str], tuple[Field, ...]]) -> dict[str, Any]:
    """A path's own model values for the access paths concrete inputs do not reach, with its
    locations moved out of the inputs' numbering: a model's location numbers are not the JSON
    ``$id``s, so a fallback location must equal no real object, and other fallback locations
    exactly when the model says so."""
    values = dict(fallback)
    for paths in location_symbols(set(values), params, fields_of).values():
        for path in paths:
            if values[path] != 0:
                values[path] = values[path] + FALLBACK_LOCATION
    return values


FRESH_LOCATION = 1 << 41  # the location given to the default object of a class (never a model's)


def complete_model(
    model: Mapping[str, Any], names: Iterable[str], params: Iterable[tuple[str, str, bool]], fields_of: Callable[[str], tuple[Field, ...]]
) -> dict[str, Any]:
    """``model`` plus, for each access-path symbol among ``names`` it leaves out, the value the
    object graph it decodes to gives that path (``ObjectGraph.initial_field``: a field another
    path to the same object read, else the field's default), in the model's own location
    numbering. So what is evaluated on the completed model is what CPython sees on the decoded
    inputs. A path through None names no object and stays out; names that are no access path
    are ignored."""
    roots = {name: (cls, nullable) for name, cls, nullable in params}
    graph = ObjectGraph(fields_of, model, [(n, c, o) for n, (c, o) in roots.items()])
    out = dict(model)

    def field_of(cls: str, name: str) -> Field | None:
        return next((f for f in fields_of(cls) if f.name == name), None)

    def location(path: str) -> tuple[str, int] | None:
        """(class, location) of the object the reference path ``path`` names; None for None
        or a path that is no reference."""
        if path in roots:
            cls, nullable = roots[path]
            loc = int(out[path]) if path in out else 0 if nullable else 1
            return None if loc == 0 else (cls, loc)
        parent, _, name = path.rpartition(".")
        owner = location(parent) if parent else None
        f = field_of(owner[0], name) if owner is not None else None
        if owner is None or f is None or not is_reference(f.shape):
            return None
        if path not in out:
            value = graph.initial_field(owner[0], owner[1], f)
            out[path] = 0 if value is None else _location_number(value)  # type: ignore[arg-type]
        loc = int(out[path])
        return None if loc == 0 else (f.shape[1], loc)

    for name in sorted(set(names) - set(model), key=len):
        flag = name.endswith(".is_none")
        path = name[: -len(".is_none")] if flag else name
        parent, _, field_name = path.rpartition(".")
        owner = location(parent) if parent else None
        f = field_of(owner[0], field_name) if owner is not None else None
        if owner is None or f is None:
            continue
        if is_reference(f.shape):
            location(path)
            continue
        value = graph.initial_field(owner[0], owner[1], f)
        if scalar_of(f.shape) != f.shape:  # an Optional scalar: its flag and its value
            out.setdefault(none_flag(path), value is None)
        out.setdefault(path, _DEFAULTS[scalar_of(f.shape)] if value is None else value)  # type: ignore[index]
    return out


def _location_number(value: tuple[str, str, object]) -> int:
    loc = value[2]
    return loc if isinstance(loc, int) else FRESH_LOCATION


def current_objects(heap: HeapView, model: Mapping[str, object]) -> tuple[Any, dict[tuple[str, object], dict[str, object]]]:
    """For encoding a result: the initial object graph of ``model`` and, for each input object
    (class, location) a path dereferenced, the current values of the fields it read or wrote."""
    record = heap.record(INPUTS)
    assert isinstance(record, ObjRec)
    fields = dict(cast(Classes, record.get("classes")[1]))
    graph = ObjectGraph(lambda cls: fields[cls], model, list(cast(Params, record.get("params")[1])))
    current: dict[tuple[str, object], dict[str, object]] = {}
    for atom, ref, cls in cast(Atoms, record.get("atoms")[1]):
        loc = evaluate(atom, model)  # type: ignore[arg-type]
        values = current.setdefault((cls, loc), {})
        atom_record = heap.record(ref)
        assert isinstance(atom_record, ObjRec)
        values.update(atom_record.fields)
    return graph, current

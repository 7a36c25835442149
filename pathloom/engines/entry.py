"""The entry of an exploration: symbolic inputs for the target's parameters.

``int``, ``bool`` and ``str`` parameters become symbols named after the parameter; a
``list[T]`` parameter ``xs`` becomes a heap list whose length is the symbol ``xs.len``
(constrained to ``0..max_list_len``; a ``str`` input's length is bounded by
``max_str_len``) and whose items are inputs of type ``T`` named ``xs[0]``, ``xs[1]``...
(nested lists are distinct lists: no aliasing among inputs yet); a ``tuple[T1, ..., Tn]``
is a tuple of inputs ``t[0]``..., reported as ``{"$tuple": [...]}`` (``frontend.input_types``); an
unannotated parameter with a default keeps its default. A method ``C.m`` is explored through a
small driver that builds ``C(...)`` from symbolic ``__init__`` arguments (symbols
``self.<param>``) and calls ``m`` on it. ``Entry.decode`` turns a model into the JSON inputs
a user (and the replay check) passes to the real function.
"""

from __future__ import annotations

import itertools
from collections import ChainMap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast

from pathloom.heap.input_objects import ObjectEnvironment, ObjectGraph, fallback_values, heap_axioms
from pathloom.frontend.input_types import Shape, input_type
from pathloom.engines.drivers import Constructed, call_operands, with_constructions
from pathloom.engines.union_members import fits, member_labels
from pathloom.errors import Unsupported
from pathloom.frontend import ir
from pathloom.frontend.fields import declared_fields, is_reference, reference_shape
from pathloom.frontend.module import Module
from pathloom.semantics.input_heap import INPUTS, inputs_record
from pathloom.domain.values import DictRec, ListRec, Record, Ref, SetRec, SymRef, TableFunc
from pathloom.terms import expr as T
from pathloom.terms.evaluate import DEFAULTS
from pathloom.terms.expr import BOOL, INT, SCALAR_SORTS, STR, Arg, Term


@dataclass(frozen=True)
class InputChoice:
    """An input that is ``when_true`` where the Bool symbol ``flag`` holds, else ``when_false``
    (``Optional[T]``: None or a ``T``); only ever an argument of the entry, which the engines
    expand (one initial state per combination, or one value summary)."""

    flag: Term
    when_true: object
    when_false: object

    @property
    def options(self) -> tuple[tuple[Arg, object], ...]:
        """(condition, value) of each alternative; a choice inside a choice (a list that may be
        one of several earlier lists, a member of a union) and the sizes of a set, dict or
        ``tuple[T, ...]`` inside a choice (``Optional[dict[K, V]]``) are flattened."""
        return tuple(
            (T.and_(cond, inner_cond), inner)
            for cond, value in ((self.flag, self.when_true), (T.not_(self.flag), self.when_false))
            for inner_cond, inner in (value.options if isinstance(value, (InputChoice, InputSizes)) else ((True, value),))
        )

    def forced(self) -> list[tuple[dict[str, object], object]]:
        """(the symbol values that select it: flags, and a size's model, value) of each
        alternative, as ``options``."""
        found: list[tuple[dict[str, object], object]] = []
        for holds, value in ((True, self.when_true), (False, self.when_false)):
            flags: dict[str, object] = {cast(str, self.flag.args[0]): holds}  # a symbol's name
            if isinstance(value, InputChoice):
                found += [({**flags, **inner}, v) for inner, v in value.forced()]
            elif isinstance(value, InputSizes):
                found += [({**flags, **model}, v) for model, v in zip(value.models, value.values)]
            else:
                found.append((flags, value))
        return found


@dataclass(frozen=True)
class InputSizes:
    """A ``set[T]`` input: ``values[k]`` (a set of ``k`` items) where the Int symbol ``size``
    is ``k``; only ever an argument of the entry, expanded by the engines as ``InputChoice``
    (the conditions are disjoint as BDD guards too: each excludes the smaller sizes)."""

    size: Term
    values: tuple[object, ...]
    models: tuple[dict[str, object], ...]  # a model of each size (its items different)

    @property
    def options(self) -> tuple[tuple[Arg, object], ...]:
        return tuple((T.conj([T.eq(self.size, k)] + [T.not_(T.eq(self.size, j)) for j in range(k)]), value) for k, value in enumerate(self.values))


@dataclass(frozen=True)
class InputCombos(InputSizes):
    """A dict input whose values are dicts or sets: one record per combination of the outer
    size and the inner sizes, ``conditions`` (pairwise disjoint) telling them apart."""

    conditions: tuple[Arg, ...] = ()

    @property
    def options(self) -> tuple[tuple[Arg, object], ...]:
        return tuple(zip(self.conditions, self.values))


NESTED_MOST = 2  # entries of a dict whose values are dicts or sets, and of each of those (input_types)


def choice_combinations(args: tuple[object, ...]) -> list[tuple[list[Arg], dict[str, object], tuple[object, ...]]]:
    """(conditions, the model they force, arguments) of every combination of the entry's
    input choices."""
    combinations: list[tuple[list[Arg], dict[str, object], tuple[object, ...]]] = [([], {}, ())]
    for arg in args:
        if not isinstance(arg, (InputChoice, InputSizes)):
            combinations = [(conds, model, chosen + (arg,)) for conds, model, chosen in combinations]
            continue
        if isinstance(arg, InputChoice):
            forced: list[dict[str, object]] = [flags for flags, _ in arg.forced()]
        else:
            forced = list(arg.models)
        combinations = [
            (conds + [cond], {**model, **chosen_model}, chosen + (value,))
            for conds, model, chosen in combinations
            for chosen_model, (cond, value) in zip(forced, arg.options)
            if all(model.get(f, v) == v for f, v in chosen_model.items())  # a flag chosen twice must agree
        ]
    return combinations


@dataclass
class Entry:
    function: ir.Function
    args: tuple[object, ...]
    constraints: list[Arg]
    records: dict[Ref, Record]
    decode: Callable[[dict[str, Any]], dict[str, Any]]
    params: list[tuple[str, str]] = field(default_factory=list)  # reported inputs (name, annotation)
    encoders: dict[str, Callable[[Any], dict[str, Any]]] = field(default_factory=dict)
    # class-typed parameters (name, class): their symbols are access paths (``heap.input_objects``)
    object_params: list[tuple[str, str]] = field(default_factory=list)
    initial_model: dict[str, Any] = field(default_factory=dict)  # satisfies ``constraints``
    # the heap axioms over some access-path symbols (``input_objects.heap_axioms``)
    heap_axioms: Callable[[Iterable[str]], list[Arg]] | None = None
    object_nullable: list[tuple[str, str, bool]] = field(default_factory=list)  # (name, class, may be None)
    fields_of: Callable[[str], Any] | None = None  # a class's declared fields (input objects)
    # what the parameters' annotations allow that the inputs never take ("x: Fraction not tried")
    untried: list[str] = field(default_factory=list)
    # the last inputs' symbol values (the object keyed, its value), and the fallbacks' by the
    # id of the fallback (``environment`` is called for each input with every path's fallback
    # in turn): (the fallback, its values); the fallback is kept, so its id is not reused
    _inputs_memo: tuple[object, Any] | None = field(default=None, repr=False, compare=False)
    _fallback_memo: dict[int, tuple[object, Any]] = field(default_factory=dict, repr=False, compare=False)

    def environment(self, inputs: dict[str, Any], fallback: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        """The values of the input symbols for concrete inputs (the inverse of ``decode``);
        with input objects, an access path the inputs do not reach (through None, past the
        end of a list) takes its value in ``fallback`` (a path's own witness): it names no
        object, and only the heap model's bookkeeping constrains it. Neither argument may be
        changed after the call (the last of each is remembered)."""
        if self._inputs_memo is not None and self._inputs_memo[0] is inputs:
            env, objects = self._inputs_memo[1]
        else:
            env = {}
            for name, value in inputs.items():
                if isinstance(value, dict) and "$new" in value:  # a receiver, a constructed parameter
                    for arg, v in value["args"].items():
                        env.update(self.encoders[f"{name}.{arg}"](v))
                elif name in self.encoders:
                    env.update(self.encoders[name](value))
            objects = ObjectEnvironment(inputs, self.object_params, self.fields_of) if self.object_params else None
            self._inputs_memo = (inputs, (env, objects))
        if objects is None:
            return dict(env)
        known = self._fallback_memo.get(id(fallback))
        if known is not None and known[0] is fallback:
            others = known[1]
        else:
            others = fallback_values(fallback or {}, self.object_nullable, self.fields_of) if self.fields_of is not None else dict(fallback or {})
            if len(self._fallback_memo) > 4096:
                self._fallback_memo.clear()
            self._fallback_memo[id(fallback)] = (fallback, others)
        return ChainMap({}, env, objects, others)


class _Builder:
    def __init__(self, module: Module, max_list_len: int, max_str_len: int, heap_model: str = "pose", max_objects: int = 16, max_dict_len: int = 4) -> None:
        self.module = module
        self.max_list_len = max_list_len
        self.max_dict_len = max_dict_len
        self.max_str_len = max_str_len
        self.heap_model = heap_model
        self.max_objects = max_objects
        self.constraints: list[Arg] = []
        self.records: dict[Ref, Record] = {}
        self.next_ref = 1 << 30  # input references never collide with allocations
        self.encoders: dict[str, Callable[[Any], dict[str, Any]]] = {}
        self.object_params: list[tuple[str, str, bool]] = []
        self.lists: list[tuple[str, Shape, object]] = []  # list parameters made so far (name, shape, value)
        self.initial_model: dict[str, Any] = {}
        self.untried: list[str] = []  # what the annotations allow and the inputs never take
        self._graph: tuple[int, ObjectGraph] | None = None

    def value(self, function: ir.Function, param: ir.Param, prefix: str) -> tuple[object, Callable[[dict[str, Any]], Any] | None]:
        name = prefix + param.name
        annotation = param.annotation
        if param.kind in ("*", "**"):  # the inputs are one value per named parameter
            whose = "a constructor that builds an input" if prefix else "the explored function"
            raise self.module.unsupported_at(
                param.line, param.col, f"{param.kind}{param.name} parameter of {whose} (only the functions it calls may take *args and **kwargs)"
            )
        if param.kind == "posonly" and (prefix or function.name == "__init__"):  # built from {"$new": C, "args": {name: ...}}
            raise self.module.unsupported_at(
                param.line, param.col, f"positional-only parameter '{param.name}' of a constructor that builds an input (its JSON form names each argument)"
            )
        if annotation is None:
            from pathloom.engines.inferred_types import infer

            inferred = infer(self.module, function, param)
            if inferred is None:
                if param.default is not None:
                    return param.default.value, None  # type: ignore[union-attr]
                raise self.module.unsupported_at(
                    param.line,
                    param.col,
                    f"parameter '{param.name}' has no type annotation (and no default, isinstance test, doctest example or call with a literal to infer one from)",
                )
            self.untried.append(f"{name}: no annotation; only {inferred[0].replace('|', ' | ')} tried ({inferred[1]})")
            return self.value(function, replace(param, annotation=inferred[0]), prefix)
        from pathloom.engines.enum_inputs import enum_param  # it imports InputChoice from here

        member = enum_param(self.module, param, name)
        if member is not None:
            self.encoders[name] = member[2]
            return member[0], member[1]
        reference = reference_shape(annotation, self.module.classes)
        if reference is not None:
            return self._object(param, name, reference[1], reference[2])
        typed = input_type(annotation, self.module.classes)
        shape = typed.shape
        self.untried += [f"{name}: {phrase}" for phrase in typed.untried]
        if shape is None:
            raise self.module.unsupported_at(
                param.line,
                param.col,
                f"input of type {annotation} (supported: int, bool, str, float, object and Any as int, list[T], tuple[T1, ...], tuple[T, ...], set[T], dict[K, V], analysed classes, unions of these)",
            )
        value, decode, encode = self._make(shape, name)
        if isinstance(shape, tuple) and shape[0] == "list":
            value, decode, encode = self._may_alias(name, shape, value, decode, encode)
        self.encoders[name] = encode
        return value, decode

    def _may_alias(
        self, name: str, shape: Shape, value: object, decode: Callable[[dict[str, Any]], Any], encode: Callable[[Any], dict[str, Any]]
    ) -> tuple[object, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]]:
        """A list parameter may be the same list as an earlier list parameter of the same type:
        a choice (flag ``ys.is_xs``) per earlier one, reported as ``{"$same": "xs"}``."""
        earlier = [(n, v) for n, s, v in self.lists if s == shape]
        for other, other_value in reversed(earlier):
            # the earlier parameter's own value (itself maybe a choice): "zs is ys" where ys is xs
            # makes zs xs too, as {"$same": "ys"} replays (a combination may repeat another)
            value = InputChoice(T.sym(f"{name}.is_{other}", BOOL), other_value, value)
        self.lists.append((name, shape, value))
        flags = [(f"{name}.is_{other}", other) for other, _ in earlier]

        def decode_alias(model: dict[str, Any]) -> Any:
            for flag_name, other in flags:
                if model.get(flag_name, False):
                    return {"$same": other}
            return decode(model)

        def encode_alias(v: Any) -> dict[str, Any]:
            env: dict[str, Any] = {flag_name: False for flag_name, _ in flags}
            if isinstance(v, dict) and "$same" in v:
                env[f"{name}.is_{v['$same']}"] = True
                return env
            return {**env, **encode(v)}

        return value, decode_alias, encode_alias

    def _object(self, param: ir.Param, name: str, cls: str, nullable: bool) -> tuple[object, Callable[[dict[str, Any]], Any]]:
        """An input object of class ``cls`` (``semantics.input_heap``): a location symbol."""
        info = self.module.classes[cls]
        if info.is_exception or info.abstract:
            raise self.module.unsupported_at(param.line, param.col, f"input object of class {cls} (an exception or abstract class)")
        if "__setattr__" in info.other:  # a frozen dataclass: its fields are set by its constructor alone
            why = f"the fields of {cls} are set by its constructor alone (a frozen dataclass)"
            return self._constructed(name, cls, nullable, self.module.unsupported_at(param.line, param.col, why))
        try:
            declared_fields(self.module, cls)  # every field has a type input objects hold, or Unsupported at the field
        except Unsupported as exc:
            return self._constructed(name, cls, nullable, exc)
        value, decode, encode = self._object_value(name, cls, nullable)
        self.encoders[name] = encode
        return value, decode

    def _constructed(self, name: str, cls: str, nullable: bool, why: Unsupported) -> tuple[object, Callable[[dict[str, Any]], Any]]:
        """A parameter of a class whose fields input objects cannot hold (a list field, an
        attribute of no type): an object its constructor builds from symbolic arguments
        (``Constructed``), as a method's receiver is, reported ``{"$new": C, "args": {...}}``;
        the inputs are only the objects ``C(...)`` builds (and never None), which ``untried``
        says. Unsupported (``why``) inside a receiver's or another constructed object's
        arguments, for a class without a plain constructor, or one whose arguments are no
        inputs either."""
        info = self.module.classes[cls]
        init_name = info.methods.get("__init__")
        if "." in name or (init_name is None and "__init__" in info.other):
            raise why
        init = self.module.function(init_name) if init_name is not None else None
        params: list[ir.Param] = []
        values: list[object] = []
        decoders: list[tuple[str, Callable[[dict[str, Any]], Any]]] = []
        for p in init.params[1:] if init is not None else ():
            try:
                value, decoder = self.value(init, p, f"{name}.")  # type: ignore[arg-type]
            except Unsupported:
                raise why from None  # the class is no input object, nor made from inputs
            params.append(ir.Param(f"{name}.{p.name}", p.annotation, p.default, p.line, p.col, p.kind))
            values.append(value)
            if decoder is not None:
                decoders.append((p.name, decoder))
        self.untried.append(f"{name}: only objects {cls}(...) builds{' (never None)' if nullable else ''}, since {why.what}")

        def decode(model: dict[str, Any]) -> dict[str, Any]:
            return {"$new": cls, "args": {n: d(model) for n, d in decoders}}

        return Constructed(cls, tuple(params), tuple(values)), decode

    def _object_value(self, name: str, cls: str, nullable: bool) -> tuple[object, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]]:
        atom = T.sym(name, INT)
        self.constraints.append(T.le(0 if nullable else 1, atom))
        if not nullable:
            self.initial_model[name] = 1
        self.object_params.append((name, cls, nullable))

        def decode(model: dict[str, Any]) -> Any:
            return self.graph(model).value(name, cls, nullable)

        return SymRef(cls, atom, nullable), decode, lambda v: {}  # the environment reads objects itself

    def graph(self, model: dict[str, Any]) -> ObjectGraph:
        """The object graph of ``model``, one for all the parameters decoded from it."""
        if self._graph is None or self._graph[0] != id(model):
            self._graph = (id(model), ObjectGraph(lambda cls: declared_fields(self.module, cls), model, self.object_params))
        return self._graph[1]

    def finish(self, entry: Entry) -> Entry:
        for ref, value in self.module.global_cells().items():  # ``global`` names: the module's values
            entry.records[ref] = ListRec(1, (value,))
        if self.object_params:
            classes = _reachable_classes(self.module, [c for _, c, _ in self.object_params])
            entry.records[INPUTS] = inputs_record(
                self.heap_model, self.max_objects, self.max_str_len, tuple(self.object_params), tuple((c, declared_fields(self.module, c)) for c in classes)
            )
        entry.object_params = [(n, c) for n, c, _ in self.object_params]
        if self.object_params:
            params = list(self.object_params)
            entry.heap_axioms = lambda symbols: heap_axioms(symbols, params, lambda cls: declared_fields(self.module, cls), self.max_str_len)
            entry.object_nullable = params
            entry.fields_of = lambda cls: declared_fields(self.module, cls)
        entry.initial_model = dict(self.initial_model)
        entry.untried = list(self.untried)
        return entry

    def _make(self, shape: Shape, name: str) -> tuple[object, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]]:
        """The symbolic value of an input of ``shape`` named ``name``, how a model decodes to
        its JSON inputs, and how JSON inputs encode back to the values of its symbols."""
        if isinstance(shape, tuple) and shape[0] == "optional":
            value, decode, encode = self._make(shape[1], name)  # type: ignore[arg-type]
            flag = T.sym(f"{name}.is_none", BOOL)

            def decode_optional(model: dict[str, Any]) -> Any:
                return None if model.get(f"{name}.is_none", False) else decode(model)

            def encode_optional(v: Any) -> dict[str, Any]:
                return {f"{name}.is_none": True} if v is None else {f"{name}.is_none": False, **encode(v)}

            return InputChoice(flag, None, value), decode_optional, encode_optional
        if isinstance(shape, tuple) and shape[0] == "union":
            return self._union(shape[1], name)  # type: ignore[arg-type]
        if isinstance(shape, tuple) and shape[0] == "callable":
            return self._table(shape[1][0], shape[1][1], name)  # type: ignore[index]
        if isinstance(shape, tuple) and shape[0] == "object":
            cls, nullable = cast(tuple[str, bool], shape[1])
            declared_fields(self.module, cls)
            return self._object_value(name, cls, nullable)
        if isinstance(shape, str):
            sort = SCALAR_SORTS[shape]
            symbol = T.sym(name, sort)
            if sort == STR:
                self.constraints.append(T.le(T.str_len(symbol), self.max_str_len))
            return symbol, lambda model: model.get(name, DEFAULTS[sort]), lambda v: {name: v}
        kind, inner = shape
        if kind == "vartuple":
            return self._variable_tuple(inner, name)  # type: ignore[arg-type]
        if kind == "set":
            return self._set(inner, name)  # type: ignore[arg-type]
        if kind == "dict":
            return self._dict(inner[0], inner[1], name)  # type: ignore[index]
        if kind == "tuple":
            item_shapes = cast(tuple[Shape, ...], inner)
            parts = [self._make(item, f"{name}[{i}]") for i, item in enumerate(item_shapes)]

            def encode_tuple(value: dict[str, Any]) -> dict[str, Any]:
                return {k: v for (_, _, enc), item in zip(parts, value["$tuple"]) for k, v in enc(item).items()}

            return tuple(p[0] for p in parts), lambda model: {"$tuple": [dec(model) for _, dec, _ in parts]}, encode_tuple
        length = T.sym(f"{name}.len", INT)
        items = [self._make(inner, f"{name}[{i}]") for i in range(self.max_list_len)]  # type: ignore[arg-type]
        self.constraints += [T.le(0, length), T.le(length, self.max_list_len)]
        ref = self._record(ListRec(length, tuple(v for v, _, _ in items)))

        def encode_list(values: list[Any]) -> dict[str, Any]:
            env: dict[str, Any] = {f"{name}.len": len(values)}
            for (_, _, enc), value in zip(items, values):
                env.update(enc(value))
            return env

        def decode_list(model: dict[str, Any]) -> list[Any]:
            return [dec(model) for _, dec, _ in items[: model.get(f"{name}.len", 0)]]

        return ref, decode_list, encode_list

    def _union(self, shapes: tuple[Shape, ...], name: str) -> tuple[object, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]]:
        """A union input: one value per member (the first named ``name``, the others
        ``name.as_<kind>``), chosen by the Bool flags ``name.is_<kind>`` of all members but the
        last, in the annotation's order (the first flag that holds names the member)."""
        labels = member_labels(shapes)
        made = [self._make(s, name if i == 0 else f"{name}.as_{label}") for i, (s, label) in enumerate(zip(shapes, labels))]
        flags = [f"{name}.is_{label}" for label in labels[:-1]]
        value = made[-1][0]
        for flag, (member, _, _) in reversed(list(zip(flags, made))):
            value = InputChoice(T.sym(flag, BOOL), member, value)

        def decode_union(model: dict[str, Any]) -> Any:
            for flag, (_, decode, _) in zip(flags, made):
                if model.get(flag, False):
                    return decode(model)
            return made[-1][1](model)

        def encode_union(v: Any) -> dict[str, Any]:
            i = next(i for i, s in enumerate(shapes) if fits(v, s))
            return {**{flag: j == i for j, flag in enumerate(flags[: i + 1])}, **made[i][2](v)}

        return value, decode_union, encode_union

    def _table(self, arg: str, ret: str, name: str) -> tuple[object, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]]:
        """A ``Callable[[arg], ret]`` input: a lookup table of ``name.len`` entries (at most
        ``max_dict_len``), keys ``name.key[i]`` and values ``name[i]`` (the first equal key
        wins), and ``name.default`` for every other argument; reported
        ``{"$table": [[key, value], ...], "default": d}`` with the shadowed entries left out."""
        size = T.sym(f"{name}.len", INT)
        self.constraints += [T.le(0, size), T.le(size, self.max_dict_len)]
        keys = [self._make(arg, f"{name}.key[{i}]") for i in range(self.max_dict_len)]
        values = [self._make(ret, f"{name}[{i}]") for i in range(self.max_dict_len)]
        default = self._make(ret, f"{name}.default")
        value = TableFunc(name, size, tuple(k for k, _, _ in keys), tuple(v for v, _, _ in values), default[0])

        def decode_table(model: dict[str, Any]) -> dict[str, Any]:
            entries: list[list[Any]] = []
            for (_, key, _), (_, val, _) in zip(keys[: model.get(f"{name}.len", 0)], values):
                k = key(model)
                if not any(k == e[0] for e in entries):  # a later equal key is shadowed (dict.get would find the first)
                    entries.append([k, val(model)])
            return {"$table": entries, "default": default[1](model)}

        def encode_table(v: dict[str, Any]) -> dict[str, Any]:
            env: dict[str, Any] = {f"{name}.len": len(v["$table"]), **default[2](v["default"])}
            for (_, _, key), (_, _, val), (k, x) in zip(keys, values, v["$table"]):
                env.update(key(k))
                env.update(val(x))
            return env

        return value, decode_table, encode_table

    def _set(self, item: str, name: str) -> tuple[object, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]]:
        """A ``set[item]`` input: items ``name[i]`` pairwise different (``name.len`` of them,
        at most ``max_list_len``; a bool set has at most two), one set record per size, each
        built as ``set([name[0], ...])``: the replay passes ``set(list)`` of the items in that
        order (``{"$set": [...]}`` in index order), so CPython's table is the one replayed."""
        from pathloom.domain.values import Items, SetHistory

        size = T.sym(f"{name}.len", INT)
        symbols, distinct = self._distinct_symbols(item, [f"{name}[{i}]" for i in range(self.max_list_len)], size)
        most = len(symbols)
        values: list[object] = []
        models: list[dict[str, object]] = []
        for k in range(most + 1):
            models.append({f"{name}.len": k, **{f"{name}[{i}]": distinct[i] for i in range(k)}})
            items = tuple(symbols[:k])
            values.append(self._record(SetRec(items, SetHistory("from", None, (Items(items),)))))

        def decode_set(model: dict[str, Any]) -> dict[str, Any]:
            n = model.get(f"{name}.len", 0)
            return {"$set": [model.get(f"{name}[{i}]", DEFAULTS[SCALAR_SORTS[item]]) for i in range(n)]}

        def encode_set(value: dict[str, Any]) -> dict[str, Any]:
            env: dict[str, Any] = {f"{name}.len": len(value["$set"])}
            env.update({f"{name}[{i}]": v for i, v in enumerate(value["$set"])})
            return env

        return InputSizes(size, tuple(values), tuple(models)), decode_set, encode_set

    def _variable_tuple(self, item: Shape, name: str) -> tuple[object, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]]:
        """A ``tuple[T, ...]`` input: ``name.len`` items ``name[i]`` (at most ``max_list_len``),
        one tuple value per length, as a set input is one record per size."""
        size = T.sym(f"{name}.len", INT)
        self.constraints += [T.le(0, size), T.le(size, self.max_list_len)]
        items = [self._make(item, f"{name}[{i}]") for i in range(self.max_list_len)]
        values = tuple(tuple(v for v, _, _ in items[:k]) for k in range(self.max_list_len + 1))
        models: tuple[dict[str, object], ...] = tuple({f"{name}.len": k} for k in range(self.max_list_len + 1))

        def decode_tuple(model: dict[str, Any]) -> dict[str, Any]:
            return {"$tuple": [dec(model) for _, dec, _ in items[: model.get(f"{name}.len", 0)]]}

        def encode_tuple(value: dict[str, Any]) -> dict[str, Any]:
            env: dict[str, Any] = {f"{name}.len": len(value["$tuple"])}
            for (_, _, enc), part in zip(items, value["$tuple"]):
                env.update(enc(part))
            return env

        return InputSizes(size, values, models), decode_tuple, encode_tuple

    def _record(self, record: Record) -> Ref:
        """A new input reference to ``record``."""
        ref = Ref(self.next_ref)
        self.next_ref += 1
        self.records[ref] = record
        return ref

    def _distinct_symbols(self, item: str, names: list[str], size: Term) -> tuple[list[Term], list[object]]:
        """Symbols of ``item`` sort (the first ``size`` pairwise different: the items of a set,
        the keys of a dict; as many as ``item`` has different values of at most one character),
        and as many different values of that sort (a model of each size)."""
        most = min(len(names), 2 if item == "bool" else 1 if item == "str" and self.max_str_len == 0 else len(names))
        distinct: list[object] = [False, True] if item == "bool" else list(range(most))
        if item == "str":  # different strs of length at most 1: within --max-str-len
            distinct = ["", *(chr(97 + i) for i in range(most - 1))]
        symbols = [T.sym(n, SCALAR_SORTS[item]) for n in names[:most]]
        self.constraints += [T.le(0, size), T.le(size, most)]
        for j in range(most):
            for i in range(j):
                self.constraints.append(T.or_(T.le(size, j), T.not_(T.eq(symbols[i], symbols[j]))))
            if item == "str":
                self.constraints.append(T.le(T.str_len(symbols[j]), self.max_str_len))
        return symbols, distinct[:most]

    def _dict(self, key: str, value_shape: Shape, name: str) -> tuple[object, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]]:
        """A ``dict[key, value]`` input: ``name.len`` entries (at most ``max_dict_len``), keys
        ``name.key[i]`` pairwise different, values ``name[i]`` of any item shape; one dict
        record per size, its entries in index order, which is the insertion order the replay
        gives (``{"$dict": [[key, value], ...]}`` builds the dict entry by entry)."""
        size = T.sym(f"{name}.len", INT)
        nested = isinstance(value_shape, tuple) and value_shape[0] in ("dict", "set")
        most = min(self.max_dict_len, NESTED_MOST) if nested else self.max_dict_len
        keys, distinct = self._distinct_symbols(key, [f"{name}.key[{i}]" for i in range(most)], size)
        if nested:  # the inner dicts and sets hold at most NESTED_MOST entries too (input_types)
            saved = self.max_dict_len, self.max_list_len
            self.max_dict_len, self.max_list_len = min(self.max_dict_len, NESTED_MOST), min(self.max_list_len, NESTED_MOST)
            try:
                entries = [self._make(value_shape, f"{name}[{i}]") for i in range(len(keys))]
            finally:
                self.max_dict_len, self.max_list_len = saved
        else:
            entries = [self._make(value_shape, f"{name}[{i}]") for i in range(len(keys))]
        values: list[object] = []
        models: list[dict[str, object]] = []
        conditions: list[Arg] = []
        for k in range(len(keys) + 1):
            outer: dict[str, object] = {f"{name}.len": k, **{f"{name}.key[{i}]": distinct[i] for i in range(k)}}
            exact = T.conj([T.eq(size, k)] + [T.not_(T.eq(size, j)) for j in range(k)])
            # a nested value is one of its sizes: one record per combination of them
            for choice in itertools.product(*(range(len(entries[i][0].values)) for i in range(k))) if nested else [()]:  # type: ignore[attr-defined]
                chosen = [entries[i][0].options[c] for i, c in enumerate(choice)] if nested else [(True, v) for v, _, _ in entries[:k]]  # type: ignore[attr-defined]
                models.append({**outer, **{n: v for i, c in enumerate(choice) for n, v in entries[i][0].models[c].items()}})  # type: ignore[attr-defined]
                conditions.append(T.conj([exact] + [cond for cond, _ in chosen]))
                values.append(self._record(DictRec(tuple(keys[:k]), tuple(v for _, v in chosen))))
        key_default = DEFAULTS[SCALAR_SORTS[key]]

        def decode_dict(model: dict[str, Any]) -> dict[str, Any]:
            n = model.get(f"{name}.len", 0)
            return {"$dict": [[model.get(f"{name}.key[{i}]", key_default), entries[i][1](model)] for i in range(n)]}

        def encode_dict(value: dict[str, Any]) -> dict[str, Any]:
            env: dict[str, Any] = {f"{name}.len": len(value["$dict"])}
            for i, (k, v) in enumerate(value["$dict"]):
                env[f"{name}.key[{i}]"] = k
                env.update(entries[i][2](v))
            return env

        if nested:
            return InputCombos(size, tuple(values), tuple(models), tuple(conditions)), decode_dict, encode_dict
        return InputSizes(size, tuple(values), tuple(models)), decode_dict, encode_dict


def _reachable_classes(module: Module, roots: list[str]) -> list[str]:
    found: list[str] = []
    todo = list(roots)
    while todo:
        cls = todo.pop()
        if cls not in found:
            found.append(cls)
            todo += [f.shape[1] for f in declared_fields(module, cls) if is_reference(f.shape)]
    return found


def build_entry(
    module: Module,
    target: str,
    max_list_len: int,
    max_str_len: int,
    heap_model: str = "pose",
    max_objects: int = 16,
    receiver: str = "constructor",
    max_dict_len: int = 4,
) -> Entry:
    builder = _Builder(module, max_list_len, max_str_len, heap_model, max_objects, max_dict_len)
    cls, _, method = target.partition(".")
    kind = module.classes[cls].decorated.get(method, ("",))[0] if method and cls in module.classes else ""
    if method and cls in module.classes and kind != "staticmethod":  # a static method is a plain function
        if receiver == "object" and kind != "classmethod" and method != "__init__":
            return _object_receiver_entry(module, builder, target, kind)
        return _method_entry(module, builder, target, kind)
    function = module.function(target)
    args: list[object] = []
    decoders: list[tuple[str, Callable[[dict[str, Any]], Any]]] = []
    params: list[tuple[str, str]] = []
    for p in function.params:
        value, decoder = builder.value(function, p, "")
        args.append(value)
        if decoder is not None:
            decoders.append((p.name, decoder))
            params.append((p.name, p.annotation or ""))

    def decode(model: dict[str, Any]) -> dict[str, Any]:
        return {name: d(model) for name, d in decoders}

    if any(isinstance(a, Constructed) for a in args):
        if "." in target:  # a static method: no name reaches it from the driver
            raise module.unsupported_at(function.line, function.col, "a static method with a parameter of a class input objects cannot hold")
        loc = ir.Loc(function.line, function.col)
        driver_params, driver_args, builds = with_constructions(function.params, args, loc)
        block = ir.Block(0)
        block.instrs += builds
        # whole: a generator function's items are the result, as list() takes them (the replay's call)
        block.instrs.append(ir.Call("%result", ir.Global(target), *call_operands(function.params), loc, whole=True))
        block.terminator = ir.Return(ir.Var("%result"), loc)
        driver = ir.Function(f"<driver {target}>", target, tuple(driver_params), {0: block}, 0, function.line, function.col)
        return builder.finish(Entry(driver, tuple(driver_args), builder.constraints, builder.records, decode, params, builder.encoders))
    return builder.finish(Entry(function, tuple(args), builder.constraints, builder.records, decode, params, builder.encoders))


def _method_entry(module: Module, builder: _Builder, target: str, kind: str = "") -> Entry:
    """A method explored on an instance built by ``C(...)`` from symbolic arguments (a property:
    read on it; a class method: called on the class, with no instance)."""
    cls_name, method_name = target.split(".", 1)
    info = module.classes[cls_name]
    method = module.function(target)
    if not method.params or (method.params[0].name != "self" and kind != "classmethod"):
        raise module.unsupported_at(method.line, method.col, "method without a 'self' first parameter")
    if info.abstract and kind != "classmethod":  # CPython's TypeError before the method runs: an heir's instance
        heir = _concrete_heir(module, cls_name, method_name, target)
        if heir is None:
            raise module.unsupported_at(
                method.line,
                method.col,
                f"a method of the abstract class {cls_name}, which CPython cannot instantiate (and no concrete subclass in the module inherits it)",
            )
        cls_name, info = heir, module.classes[heir]
    if method_name == "__init__":
        return _constructor_entry(module, builder, target, method)
    init = module.function(info.methods["__init__"]) if "__init__" in info.methods and kind != "classmethod" else None
    init_params = init.params[1:] if init is not None else ()
    loc = ir.Loc(method.line, method.col)
    driver_params: list[ir.Param] = []
    args: list[object] = []
    init_decoders: list[tuple[str, Callable[[dict[str, Any]], Any]]] = []
    decoders: list[tuple[str, Callable[[dict[str, Any]], Any]]] = []
    params: list[tuple[str, str]] = [("self", cls_name)]
    for p in init_params:
        value, decoder = builder.value(init, p, "self.")  # type: ignore[arg-type]
        driver_params.append(ir.Param(f"self.{p.name}", p.annotation, p.default, p.line, p.col, p.kind))
        args.append(value)
        if decoder is not None:
            init_decoders.append((p.name, decoder))
    method_args: list[object] = []
    for p in method.params[1:]:
        value, decoder = builder.value(method, p, "")
        method_args.append(value)
        if decoder is not None:
            decoders.append((p.name, decoder))
            params.append((p.name, p.annotation or ""))
    method_params, method_values, builds = with_constructions(method.params[1:], method_args, loc)
    driver_params += method_params
    args += method_values
    block = ir.Block(0)
    block.instrs += builds
    if kind == "classmethod":
        params = params[1:]  # no instance: the class is the receiver
        block.instrs.append(ir.Assign("%self", ir.Global(cls_name), loc))
    else:
        block.instrs.append(ir.Call("%self", ir.Global(cls_name), *call_operands(driver_params[: len(init_params)]), loc))
    if kind == "property":
        block.instrs.append(ir.GetAttr("%result", ir.Var("%self"), method_name, loc))
    else:
        # whole: a generator method's items are the result, as list() takes them (the replay's call)
        block.instrs.append(ir.CallMethod("%result", ir.Var("%self"), method_name, *call_operands(method.params[1:]), loc, whole=True))
    block.terminator = ir.Return(ir.Var("%result"), loc)
    driver = ir.Function(f"<driver {target}>", method_name, tuple(driver_params), {0: block}, 0, method.line, method.col)

    def decode(model: dict[str, Any]) -> dict[str, Any]:
        inputs: dict[str, Any] = {} if kind == "classmethod" else {"self": {"$new": cls_name, "args": {n: d(model) for n, d in init_decoders}}}
        inputs.update({n: d(model) for n, d in decoders})
        return inputs

    return builder.finish(Entry(driver, tuple(args), builder.constraints, builder.records, decode, params, builder.encoders))


def _concrete_heir(module: Module, abstract: str, method_name: str, target: str) -> str | None:
    """The first class of the module, in source order, that derives from ``abstract``, is not
    abstract and inherits its method unchanged (``methods[name]`` is still ``target``): a
    method of an abstract class is explored on an instance of it, so that the method CPython
    runs, through that instance, is the target itself."""
    for name, info in module.classes.items():
        base, derives = info.base, False
        while base is not None and base in module.classes and not derives:
            derives, base = base == abstract, module.classes[base].base
        if derives and not info.abstract and info.methods.get(method_name) == target:
            return name
    return None


def _object_receiver_entry(module: Module, builder: _Builder, target: str, kind: str) -> Entry:
    """A method explored on an input object (``--receiver object``): ``self`` holds any values
    of the class's declared fields and may alias the other object parameters."""
    cls_name, method_name = target.split(".", 1)
    method = module.function(target)
    if not method.params or method.params[0].name != "self":
        raise module.unsupported_at(method.line, method.col, "method without a 'self' first parameter")
    self_param = ir.Param("self", cls_name, None, method.line, method.col)
    self_value, self_decode = builder.value(method, self_param, "")
    args: list[object] = [self_value]
    decoders: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [("self", self_decode)]  # type: ignore[list-item]
    params: list[tuple[str, str]] = [("self", cls_name)]
    for p in method.params[1:]:
        value, decoder = builder.value(method, p, "")
        args.append(value)
        if decoder is not None:
            decoders.append((p.name, decoder))
            params.append((p.name, p.annotation or ""))
    loc = ir.Loc(method.line, method.col)
    driver_params, args, builds = with_constructions((self_param,) + tuple(method.params[1:]), args, loc)
    block = ir.Block(0)
    block.instrs += builds
    if kind == "property":
        block.instrs.append(ir.GetAttr("%result", ir.Var("self"), method_name, loc))
    else:
        block.instrs.append(
            ir.CallMethod("%result", ir.Var("self"), method_name, *call_operands(method.params[1:]), loc, whole=True)
        )  # a generator method's items, as for the other receiver
    block.terminator = ir.Return(ir.Var("%result"), loc)
    driver = ir.Function(f"<driver {target}>", method_name, tuple(driver_params), {0: block}, 0, method.line, method.col)

    def decode(model: dict[str, Any]) -> dict[str, Any]:
        return {n: d(model) for n, d in decoders}

    return builder.finish(Entry(driver, tuple(args), builder.constraints, builder.records, decode, params, builder.encoders))


def _constructor_entry(module: Module, builder: _Builder, target: str, init: ir.Function) -> Entry:
    """``C.__init__`` is explored as the call ``C(...)``, which returns the new instance."""
    cls_name = target.split(".")[0]
    loc = ir.Loc(init.line, init.col)
    args: list[object] = []
    decoders: list[tuple[str, Callable[[dict[str, Any]], Any]]] = []
    params: list[tuple[str, str]] = []
    for p in init.params[1:]:
        value, decoder = builder.value(init, p, "")
        args.append(value)
        if decoder is not None:
            decoders.append((p.name, decoder))
            params.append((p.name, p.annotation or ""))
    driver_params, driver_args, builds = with_constructions(init.params[1:], args, loc)
    block = ir.Block(0)
    block.instrs += builds
    block.instrs.append(ir.Call("%result", ir.Global(cls_name), *call_operands(init.params[1:]), loc))
    block.terminator = ir.Return(ir.Var("%result"), loc)
    driver = ir.Function(f"<driver {target}>", cls_name, tuple(driver_params), {0: block}, 0, init.line, init.col)
    args = driver_args

    def decode(model: dict[str, Any]) -> dict[str, Any]:
        return {n: d(model) for n, d in decoders}

    return builder.finish(Entry(driver, tuple(args), builder.constraints, builder.records, decode, params, builder.encoders))

"""Input objects in random programs (mixed into ``progen._Builder``; ``programs(heap=True)``).

pathloom treats a parameter typed with a class the module defines as an *input object*
whose references may alias each other and form cycles (``pathloom/semantics/input_heap.py``; heap
models ``pose``, ``lazier``, ``lazy``). This part of the generator writes such programs:

* a class ``Node`` (``val: int``, ``next: Optional["Node"]``, set by ``__init__``) with maybe
  the methods ``bump(d)`` (writes ``self.val``) and ``peek()`` (reads ``self.next``), and maybe
  a class ``Pair`` (``left: Node``, ``right: Optional[Node]``);
* entry parameters ``a b`` (``Node``), ``m n`` (``Optional[Node]``), ``ns`` (``list[Node]``)
  and ``pr`` (``Pair``): several of one class may alias; a local ``r0`` (``Optional[Node]``);
* statements: field writes (``a.val = int(e)``, ``a.next = b``, ``a.next = None``,
  ``a.next = Node(int(e))``, ``pr.left = a``), reference assignments, bounded walks
  (``w0 = a`` then ``for k in range(3): if w0 is None: break ... w0 = w0.next``, or a
  counted ``while w0 is not None and i0 < K``), loops over ``ns``, method calls;
* expressions: ``a.val``, chains ``a.next.val`` (AttributeError on None: a real bug the
  tool must report), guarded reads ``(m.val if m is not None else e)``, ``is``/``is not``/
  ``is None`` tests, truth tests of references, ``len(ns)``, ``ns[i].val``; the entry may
  return a node (``Optional[Node]``).

Invariant (the same typing discipline as ``progen``): a ``Node`` parameter and ``pr.left``
are never None (only non-None expressions are assigned to ``pr.left``; parameters are never
reassigned); an int field only ever holds an int (values written are ``int(e)``, since an int
expression of progen may evaluate to a bool); ``Node`` and ``Pair`` references are compared
by ``is`` only within a class. The exceptions a program may raise besides progen's are
AttributeError on None (``'NoneType' object has no attribute ...``) and IndexError from
``ns[i]``. Every unit is tagged (``HEAP_FEATURES``).

``object_schema(source)`` reads the classes back from a program's text (for inputs and for
regression files): the fields are the annotated parameters of ``__init__`` in order.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache, lru_cache

from hypothesis import strategies as st

from .progen_base import _E, INT, _Ctx, _indent, _par, _Var

# value kinds of input objects: a Node never None, a Node or None, a list of Nodes, a Pair
NODE, ONODE, NLIST, PAIR = "node", "onode", "nlist", "pair"
HEAP_ANNOTATION = {NODE: "Node", ONODE: "Optional[Node]", NLIST: "list[Node]", PAIR: "Pair"}
HEAP_PARAM_NAMES = {NODE: ["a", "b", "a2"], ONODE: ["m", "n", "m2"], NLIST: ["ns"], PAIR: ["pr"]}

#: The feature tags of input-object programs (a subset of ``progen.FEATURES``).
HEAP_FEATURES: frozenset[str] = frozenset(
    {
        "param:Node",
        "param:Optional[Node]",
        "param:list[Node]",
        "param:Pair",
        "return:Optional[Node]",
        "heap:pair_class",
        "heap:method_bump",
        "heap:method_peek",
        "heap:val_read",
        "heap:val_write",
        "heap:next_write",
        "heap:next_write_none",
        "heap:next_write_new",
        "heap:next_read",
        "heap:chain_read",
        "heap:guarded_read",
        "heap:unguarded_read",
        "heap:unguarded_write",
        "heap:ref_assign",
        "heap:new_node",
        "heap:is",
        "heap:is_not",
        "heap:is_none",
        "heap:is_not_none",
        "heap:ref_truth",
        "heap:cycle_test",
        "heap:walk_for",
        "heap:walk_while",
        "heap:for_nodes",
        "heap:len_nodes",
        "heap:index_nodes",
        "heap:method_call",
        "heap:pair_read",
        "heap:pair_write",
        "heap:ref_ifexp",
        "heap:optional_field",
    }
)

Option = tuple[int, Callable[[], _E]]
HEAP_WEIGHT = 3  # input-object options weigh this much more than progen's own


class HeapBuilder:
    """The input-object part of the generator; mixed into ``progen._Builder``, whose choice
    helpers (``int_in``, ``flag``, ``choice``, ``pick``, ``tag``, ``optional``) and writers
    (``num``, ``cond``, ``block``) it uses. ``self.heap_methods`` names Node's methods."""

    heap_methods: tuple[str, ...] = ()
    node_key = False  # whether Node has the field ``key: Optional[int]``

    # -- module units ------------------------------------------------------------------
    def heap_classes(self) -> tuple[list[str], bool]:
        """The lines of ``Node`` (and maybe ``Pair``); whether ``Pair`` is there."""
        self.node_key = self.flag(1, 3)
        key_param = ", key: Optional[int] = None" if self.node_key else ""
        lines = [
            "class Node:",
            f'    def __init__(self, val: int, next: Optional["Node"] = None{key_param}) -> None:',
            "        self.val = val",
            "        self.next = next",
        ]
        if self.node_key:
            self.tag("heap:optional_field")
            lines.append("        self.key = key")
        methods: list[str] = []
        if self.flag(1, 3):
            self.tag("heap:method_bump")
            methods.append("bump")
            lines += ["", "    def bump(self, d: int) -> int:", f"        self.val = self.val + {self.choice(['d', 'int(d)', '1'])}", "        return self.val"]
        if self.flag(1, 4):
            self.tag("heap:method_peek")
            methods.append("peek")
            lines += [
                "",
                "    def peek(self) -> int:",
                "        if self.next is None:",
                f"            return {self.int_in(-2, 2)}",
                "        return self.next.val",
            ]
        self.heap_methods = tuple(methods)
        pair = self.flag(1, 2)
        if pair:
            self.tag("heap:pair_class")
            lines += [
                "",
                "",
                "class Pair:",
                "    def __init__(self, left: Node, right: Optional[Node] = None) -> None:",
                "        self.left = left",
                "        self.right = right",
            ]
        return lines, pair

    def heap_param(self, used: dict[str, int], pair: bool) -> tuple[str, str]:
        weights = {NODE: 5, ONODE: 3, NLIST: 2, PAIR: 4 if pair else 0}
        ty = self.pick([(w, lambda t=t: t) for t, w in weights.items() if used[t] < len(HEAP_PARAM_NAMES[t])])
        name = HEAP_PARAM_NAMES[ty][used[ty]]
        used[ty] += 1
        self.tag(f"param:{HEAP_ANNOTATION[ty]}")
        return name, ty

    def heap_scope(self, typed_params: list[tuple[str, str]]) -> list[_Var]:
        """The variables the entry sees for its object parameters (read-only)."""
        scope: list[_Var] = []
        for name, ty in typed_params:
            if ty == NODE:
                scope += [_Var(name, NODE, False), _Var(f"{name}.val", INT, False)]
            elif ty == ONODE:
                scope.append(_Var(name, ONODE, False))
            elif ty == NLIST:
                scope.append(_Var(name, NLIST, False))
            elif ty == PAIR:
                scope += [_Var(name, PAIR, False), _Var(f"{name}.left.val", INT, False)]
        return scope

    def heap_locals(self, c: _Ctx) -> tuple[list[str], list[_Var]]:
        if not c.vars(NODE, ONODE) or not self.flag(2, 3):
            return [], []
        return [f"r0 = {self.node_ref(c, 0, True).text}"], [_Var("r0", ONODE, True)]

    # -- reference expressions -----------------------------------------------------------
    def node_ref(self, c: _Ctx, d: int, nullable: bool) -> _E:
        """A ``Node`` reference; ``nullable``: it may be None."""
        nodes, onodes = c.vars(NODE), c.vars(ONODE)
        pairs, lists = c.vars(PAIR), c.vars(NLIST)
        opts: list[Option] = []
        if nodes:
            opts.append((8, lambda: _E(self.choice(nodes).text, True)))
        if pairs:
            opts.append((2, lambda: self.pair_field(pairs, "left")))
        opts.append((1 if nodes else 3, lambda: self.new_node(c, d)))
        if lists and d > 0:
            opts.append((1, lambda: self.index_nodes(c, d, lists)))
        if nullable:
            opts.append((2, lambda: _E("None", True)))
            if onodes:
                opts.append((6, lambda: _E(self.choice(onodes).text, True)))
            if nodes:
                opts.append((4, lambda: self.next_of(self.choice(nodes).text)))
            if pairs:
                opts.append((1, lambda: self.pair_field(pairs, "right")))
            if onodes and d > 0:
                opts.append((1, lambda: self.guarded_next(onodes)))
                opts.append((1, lambda: self.unguarded(self.choice(onodes).text, "next")))
            if d > 0:
                opts.append((1, lambda: self.ref_ifexp(c, d)))
        return self.pick(opts)

    def next_of(self, text: str) -> _E:
        self.tag("heap:next_read")
        return _E(f"{text}.next", True)

    def unguarded(self, text: str, name: str) -> _E:
        self.tag("heap:unguarded_read")
        return _E(f"{text}.{name}", True)

    def guarded_next(self, onodes: list[_Var]) -> _E:
        self.tag("heap:guarded_read")
        p = self.choice(onodes).text
        return _E(f"({p}.next if {p} is not None else None)", True)

    def ref_ifexp(self, c: _Ctx, d: int) -> _E:
        self.tag("heap:ref_ifexp")
        a, b = self.node_ref(c, d - 1, True), self.node_ref(c, d - 1, True)
        return _E(f"{_par(a)} if {_par(self.cond(c, d - 1))} else {_par(b)}", False)

    def new_node(self, c: _Ctx, d: int) -> _E:
        self.tag("heap:new_node")
        value = self.int_value(c)
        if self.flag(1, 3) and c.vars(NODE, ONODE):
            return _E(f"Node({value}, {self.node_ref(c, 0, True).text})", True)
        return _E(f"Node({value})", True)

    def pair_field(self, pairs: list[_Var], name: str) -> _E:
        self.tag("heap:pair_read")
        return _E(f"{self.choice(pairs).text}.{name}", True)

    def index_nodes(self, c: _Ctx, d: int, lists: list[_Var]) -> _E:
        self.tag("heap:index_nodes")
        index = str(self.int_in(-2, 2)) if self.flag(2, 3) else self.num(c, 0).text
        return _E(f"{self.choice(lists).text}[{index}]", True)

    def int_value(self, c: _Ctx) -> str:
        """An int to store in a field: ``int(e)``, as ``e`` may evaluate to a bool."""
        e = self.num(c, 1)
        if e.text.lstrip("-").isdigit():
            return e.text
        return f"int({e.text})"

    # -- int, bool and condition expressions (added to progen's options) -------------------
    def heap_nums(self, c: _Ctx, d: int) -> list[Option]:
        nodes, onodes, lists = c.vars(NODE), c.vars(ONODE), c.vars(NLIST)
        opts: list[Option] = []
        if nodes:
            opts.append((3, lambda: self.val_read(self.choice(nodes).text)))
            opts.append((2, lambda: self.chain_read(self.choice(nodes).text)))
            if self.heap_methods:
                opts.append((2, lambda: self.method_call_node(c, d, self.choice(nodes).text)))
        if nodes and self.node_key:
            opts.append((2, lambda: self.key_read(c, d, nodes)))
        if onodes:
            opts.append((3, lambda: self.guarded_val(c, d, onodes)))
            opts.append((1, lambda: self.unguarded(self.choice(onodes).text, "val")))
        if lists:
            opts.append((2, lambda: self.len_nodes(lists)))
            opts.append((2, lambda: _E(f"{self.index_nodes(c, d, lists).text}.val", True)))
        if c.vars(PAIR):
            opts.append((2, lambda: self.pair_val(c.vars(PAIR))))
        return [(w * HEAP_WEIGHT, f) for w, f in opts]

    def val_read(self, text: str) -> _E:
        self.tag("heap:val_read")
        return _E(f"{text}.val", True)

    def chain_read(self, text: str) -> _E:
        self.tag("heap:chain_read")
        return _E(f"{text}.next.val", True)

    def guarded_val(self, c: _Ctx, d: int, onodes: list[_Var]) -> _E:
        self.tag("heap:guarded_read")
        p = self.choice(onodes).text
        return _E(f"({p}.val if {p} is not None else {_par(self.num(c, d - 1))})", True)

    def len_nodes(self, lists: list[_Var]) -> _E:
        self.tag("heap:len_nodes")
        return _E(f"len({self.choice(lists).text})", True)

    def pair_val(self, pairs: list[_Var]) -> _E:
        self.tag("heap:pair_read", "heap:chain_read")
        pr = self.choice(pairs).text
        return _E(f"{pr}.{self.choice(['left', 'right'])}.val", True)

    def method_call_node(self, c: _Ctx, d: int, text: str) -> _E:
        self.tag("heap:method_call")
        method = self.choice(self.heap_methods)
        arg = self.num(c, d - 1).text if method == "bump" else ""
        return _E(f"{text}.{method}({arg})", True)

    def heap_bools(self, c: _Ctx, d: int) -> list[Option]:
        if not c.vars(NODE, ONODE, PAIR, NLIST):
            return []
        opts: list[Option] = [(4, lambda: self.identity(c, d))]
        if c.vars(ONODE) or c.vars(NODE):
            opts.append((3, lambda: self.none_test(c, d)))
        if c.vars(NODE):
            opts.append((1, lambda: self.cycle_test(c)))
        return [(w * HEAP_WEIGHT, f) for w, f in opts]

    def identity(self, c: _Ctx, d: int) -> _E:
        op = self.choice(["is", "is not"])
        self.tag("heap:is" if op == "is" else "heap:is_not")
        a, b = self.node_ref(c, max(d - 1, 0), True), self.node_ref(c, max(d - 1, 0), True)
        return _E(f"{_par(a)} {op} {_par(b)}", False)

    def none_test(self, c: _Ctx, d: int) -> _E:
        op = self.choice(["is", "is not"])
        self.tag("heap:is_none" if op == "is" else "heap:is_not_none")
        return _E(f"{_par(self.node_ref(c, max(d - 1, 0), True))} {op} None", False)

    def cycle_test(self, c: _Ctx) -> _E:
        self.tag("heap:cycle_test", "heap:next_read")
        a = self.choice(c.vars(NODE)).text
        return _E(f"{a}.next {self.choice(['is', 'is not'])} {a}", False)

    def heap_conds(self, c: _Ctx, d: int) -> list[Option]:
        if not c.vars(NODE, ONODE):
            return []
        opts: list[Option] = [(3, lambda: self.ref_truth(c, d))]
        if c.vars(NODE) and self.node_key:
            opts.append((2, lambda: self.key_test(c)))
        return opts

    def key_read(self, c: _Ctx, d: int, nodes: list[_Var]) -> _E:
        """Node's ``key: Optional[int]``: guarded, or through ``or`` (None and 0 are falsy)."""
        self.tag("heap:optional_field")
        p = self.choice(nodes).text
        if self.flag():
            return _E(f"({p}.key if {p}.key is not None else {_par(self.num(c, d - 1))})", True)
        return _E(f"({p}.key or {self.int_in(-2, 2)})", True)

    def key_test(self, c: _Ctx) -> _E:
        self.tag("heap:optional_field")
        p = self.choice(c.vars(NODE)).text
        return _E(f"{p}.key is {self.choice(['None', 'not None'])}", False)

    def ref_truth(self, c: _Ctx, d: int) -> _E:
        self.tag("heap:ref_truth")
        ref = self.node_ref(c, max(d - 1, 0), True)
        return _E(f"not {_par(ref)}", False) if self.flag(1, 3) else ref

    # -- statements ------------------------------------------------------------------------
    def heap_stmts(self, c: _Ctx, loop_ok: bool) -> list[tuple[int, Callable[[], tuple[list[str], bool]]]]:
        nodes, onodes, lists = c.vars(NODE), c.vars(ONODE), c.vars(NLIST)
        refs_w = c.writable(ONODE)
        opts: list[tuple[int, Callable[[], tuple[list[str], bool]]]] = []
        if nodes:
            opts.append((4, lambda: ([self.val_write(c, self.choice(nodes).text)], False)))
            opts.append((4, lambda: ([self.next_write(c, self.choice(nodes).text)], False)))
            if self.heap_methods:
                opts.append((1, lambda: ([self.method_call_node(c, 1, self.choice(nodes).text).text], False)))
        if nodes and self.node_key:
            opts.append((2, lambda: ([self.key_write(c, self.choice(nodes).text)], False)))
        if onodes:
            opts.append((2, lambda: (self.guarded_write(c, onodes), False)))
            opts.append((1, lambda: ([self.unguarded_write(c, onodes)], False)))
        if refs_w:
            opts.append((3, lambda: ([self.ref_assign(c, refs_w)], False)))
        if c.vars(PAIR):
            opts.append((2, lambda: ([self.pair_write(c)], False)))
        if loop_ok and (nodes or onodes):
            opts.append((4, lambda: (self.walk(c), False)))
        if loop_ok and lists:
            opts.append((3, lambda: (self.for_nodes(c, lists), False)))
        return [(w * HEAP_WEIGHT, f) for w, f in opts]

    def val_write(self, c: _Ctx, target: str) -> str:
        self.tag("heap:val_write")
        if self.flag(1, 5):
            self.tag("heap:chain_read")
            target += ".next"
        return f"{target}.val = {self.int_value(c)}"

    def key_write(self, c: _Ctx, target: str) -> str:
        self.tag("heap:optional_field")
        return f"{target}.key = {'None' if self.flag(1, 3) else self.int_value(c)}"

    def next_write(self, c: _Ctx, target: str) -> str:
        self.tag("heap:next_write")
        k = self.int_in(0, 5)
        if k == 0:
            self.tag("heap:next_write_none")
            return f"{target}.next = None"
        if k == 1:
            self.tag("heap:next_write_new")
            return f"{target}.next = {self.new_node(c, 1).text}"
        return f"{target}.next = {self.node_ref(c, 1, True).text}"

    def guarded_write(self, c: _Ctx, onodes: list[_Var]) -> list[str]:
        self.tag("heap:guarded_read")
        p = self.choice(onodes).text
        write = self.val_write(c, p) if self.flag() else self.next_write(c, p)
        return [f"if {p} is not None:", f"    {write}"]

    def unguarded_write(self, c: _Ctx, onodes: list[_Var]) -> str:
        self.tag("heap:unguarded_write")
        p = self.choice(onodes).text
        return self.val_write(c, p) if self.flag() else self.next_write(c, p)

    def ref_assign(self, c: _Ctx, refs: list[_Var]) -> str:
        self.tag("heap:ref_assign")
        return f"{self.choice(refs).text} = {self.node_ref(c, 1, True).text}"

    def pair_write(self, c: _Ctx) -> str:
        self.tag("heap:pair_write")
        pr = self.choice(c.vars(PAIR)).text
        if self.flag():
            return f"{pr}.left = {self.node_ref(c, 1, False).text}"
        return f"{pr}.right = {self.node_ref(c, 1, True).text}"

    def walk(self, c: _Ctx) -> list[str]:
        """A bounded walk along ``next`` from a reference; the body sees the current node."""
        fn = c.fn
        fn.budget -= 2
        w = fn.fresh("w")
        start = self.node_ref(c, 1, True).text
        body_ctx = c.loop(_Var(w, NODE, False), can_continue=False)
        body_ctx = _Ctx(
            body_ctx.fn, body_ctx.scope + (_Var(f"{w}.val", INT, False),), body_ctx.depth, body_ctx.if_depth, body_ctx.loop_depth, False, False, body_ctx.frozen
        )
        inner = self.block(body_ctx, 2) if self.flag(2, 3) else []
        step = f"{w} = {w}.next"
        bound = self.int_in(1, 4)
        if self.flag():
            self.tag("heap:walk_for", "break")
            k = fn.fresh("k")
            return [f"{w} = {start}", f"for {k} in range({bound}):", f"    if {w} is None:", "        break"] + _indent(inner + [step])
        self.tag("heap:walk_while", "while")
        counter = fn.fresh("i")
        test = f"{w} is not None" if self.flag() else w
        return [f"{w} = {start}", f"{counter} = 0", f"while {test} and {counter} < {bound}:", f"    {counter} += 1"] + _indent(inner + [step])

    def for_nodes(self, c: _Ctx, lists: list[_Var]) -> list[str]:
        self.tag("heap:for_nodes")
        it = c.fn.fresh("it")
        body_ctx = c.loop(_Var(it, NODE, False), can_continue=True)
        body_ctx = _Ctx(
            body_ctx.fn, body_ctx.scope + (_Var(f"{it}.val", INT, False),), body_ctx.depth, body_ctx.if_depth, body_ctx.loop_depth, False, True, body_ctx.frozen
        )
        return [f"for {it} in {self.choice(lists).text}:"] + _indent(self.block(body_ctx, 3))


# --------------------------------------------------------------------------------------
# the classes of a program, read back from its text


Schema = dict[str, tuple[tuple[str, str], ...]]  # class -> (field, annotation) in order


@lru_cache(maxsize=256)
def object_schema(source: str) -> Schema:
    """The classes whose ``__init__`` parameters are all annotated with ``int`` or a
    (possibly ``Optional``) reference to such a class: their fields, in order."""
    schema: dict[str, tuple[tuple[str, str], ...]] = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
        if init is None:
            continue
        fields = tuple((a.arg, ast.unparse(a.annotation).replace('"', "").replace("'", "")) for a in init.args.args[1:] if a.annotation is not None)
        schema[node.name] = fields
    return {cls: fields for cls, fields in schema.items() if all(ann in ("int", "Optional[int]") or reference(ann, schema) is not None for _, ann in fields)}


def reference(annotation: str, schema: Schema | dict[str, object]) -> tuple[str, bool] | None:
    """(class, nullable) when ``annotation`` is ``C`` or ``Optional[C]`` of a class of
    ``schema``, else None."""
    nullable = annotation.startswith("Optional[") and annotation.endswith("]")
    base = annotation[len("Optional[") : -1] if nullable else annotation
    return (base, nullable) if base in schema else None


def object_param(annotation: str, schema: Schema) -> tuple[str, bool, bool] | None:
    """(class, nullable, is a list) for an input-object parameter annotation, else None."""
    if annotation.startswith("list[") and annotation.endswith("]"):
        found = reference(annotation[5:-1], schema)
        return None if found is None else (found[0], found[1], True)
    found = reference(annotation, schema)
    return None if found is None else (found[0], found[1], False)


# --------------------------------------------------------------------------------------
# concrete inputs: object graphs as pathloom's JSON ($object / $ref)


def object_graphs(
    params: tuple[tuple[str, str], ...],
    schema: Schema,
    per_type: dict[str, st.SearchStrategy[object]],
    max_list_len: int,
) -> st.SearchStrategy[dict[str, object]]:
    """Arguments where the object parameters share a pool of 1..3 objects per class whose
    references point anywhere in the pool (aliasing, cycles, self-loops, None where the
    type allows), encoded as ``encoding.values.decode_inputs`` reads them: each object once as
    ``{"$object": C, "$id": k, "fields": {...}}`` where the walk in parameter order first
    meets it, later as ``{"$ref": k}``."""

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, object]:
        sizes = {cls: draw(st.integers(1, 3)) for cls in schema}
        pool: dict[tuple[str, int], dict[str, object]] = {}
        for cls, fields in schema.items():
            for i in range(sizes[cls]):
                values: dict[str, object] = {}
                for name, ann in fields:
                    if ann == "int":
                        values[name] = draw(_FIELD_INTS)
                    elif ann == "Optional[int]":
                        values[name] = draw(st.none() | _FIELD_INTS)
                    else:
                        target, nullable = reference(ann, schema)  # type: ignore[misc]
                        values[name] = draw(_slot(sizes[target], nullable))
                pool[cls, i] = values
        chosen: dict[str, object] = {}
        for name, ann in params:
            shape = object_param(ann, schema)
            if shape is None:
                chosen[name] = draw(per_type[ann])
            elif shape[2]:
                chosen[name] = draw(st.lists(_slot(sizes[shape[0]], shape[1]), max_size=max_list_len))
            else:
                chosen[name] = draw(_slot(sizes[shape[0]], shape[1]))
        return _encode(params, schema, pool, chosen)

    return build()


_FIELD_INTS = st.integers(0, 9).flatmap(lambda k: st.sampled_from([100, -100, 2**31]) if k == 9 else st.integers(-5, 5))


@cache
def _slot(size: int, nullable: bool) -> st.SearchStrategy[int | None]:
    """An index into a class's pool, or None (shrinks to None, then to object 0)."""
    indices = st.integers(0, size - 1)
    return st.one_of(st.none(), indices) if nullable else indices


def _encode(
    params: tuple[tuple[str, str], ...], schema: Schema, pool: dict[tuple[str, int], dict[str, object]], chosen: dict[str, object]
) -> dict[str, object]:
    ids: dict[tuple[str, int], int] = {}

    def obj(cls: str, index: int | None) -> object:
        if index is None:
            return None
        key = (cls, index)
        if key in ids:
            return {"$ref": ids[key]}
        ids[key] = len(ids) + 1
        fields: dict[str, object] = {}
        for name, ann in schema[cls]:
            value = pool[key][name]
            fields[name] = value if ann in ("int", "Optional[int]") else obj(reference(ann, schema)[0], value)  # type: ignore[index, arg-type]
        return {"$object": cls, "$id": ids[key], "fields": fields}

    out: dict[str, object] = {}
    for name, ann in params:
        shape = object_param(ann, schema)
        value = chosen[name]
        if shape is None:
            out[name] = value
        elif shape[2]:
            out[name] = [obj(shape[0], i) for i in value]  # type: ignore[union-attr]
        else:
            out[name] = obj(shape[0], value)  # type: ignore[arg-type]
    return out


def graph_problem(params: tuple[tuple[str, str], ...], schema: Schema, inputs: dict[str, object]) -> str | None:
    """Why the object parameters of ``inputs`` are not well-typed object graphs that
    ``decode_inputs`` can rebuild (every ``$ref`` after its ``$object``, in parameter
    order), or None."""
    classes: dict[int, str] = {}

    def check(value: object, ann: str, where: str) -> str | None:
        found = reference(ann, schema)
        if found is None:
            return f"{where}: {ann} is not a class of the program"
        cls, nullable = found
        if value is None:
            return None if nullable else f"{where} is None but typed {ann}"
        if not isinstance(value, dict):
            return f"{where}={value!r} is not an object"
        if "$ref" in value:
            ref = value["$ref"]
            if ref not in classes:
                return f"{where}: $ref {ref} before its object"
            return None if classes[ref] == cls else f"{where}: $ref {ref} is a {classes[ref]}, not a {cls}"
        if value.get("$object") != cls or not isinstance(value.get("$id"), int) or value["$id"] in classes:
            return f"{where}={value!r} is not a new {cls}"
        classes[value["$id"]] = cls
        fields = value.get("fields")
        if not isinstance(fields, dict) or list(fields) != [n for n, _ in schema[cls]]:
            return f"{where}: fields {fields!r} are not those of {cls}"
        for name, field_ann in schema[cls]:
            v = fields[name]
            if field_ann in ("int", "Optional[int]"):
                if type(v) is not int and not (v is None and field_ann == "Optional[int]"):
                    return f"{where}.{name}={v!r} is not an {field_ann}"
                continue
            problem = check(v, field_ann, f"{where}.{name}")
            if problem:
                return problem
        return None

    for name, ann in params:
        shape = object_param(ann, schema)
        if shape is None:
            continue
        value = inputs[name]
        if shape[2]:
            if not isinstance(value, list):
                return f"{name}={value!r} is not a list"
            for i, item in enumerate(value):
                problem = check(item, ann[5:-1], f"{name}[{i}]")
                if problem:
                    return problem
        else:
            problem = check(value, ann, name)
            if problem:
                return problem
    return None
